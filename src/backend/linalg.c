/*
 * linalg.c -- symmetric eigen-decomposition and Cholesky through LAPACKE (see linalg.h).
 */
#include "linalg.h"
#include "core.h"

#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int ckm_eig_sym(size_t n, double *A, double *w, int vectors)
{
    if (n == 0)
        return 0;
    lapack_int info = LAPACKE_dsyevd(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N', 'L', (lapack_int)n, A, (lapack_int)n, w);
    return info == LAPACK_WORK_MEMORY_ERROR ? -1 : (int)info;
}

static int lapack_failure(lapack_int info) { return info == LAPACK_WORK_MEMORY_ERROR ? -1 : -2; }
/* the work array (ckm_eig_work_bytes): dd, e, tau, 8 n doubles of per-part arrays, 4 n
 * lapack_ints, then the panel W of the stoppable reduction */
static double *panel_of(void *work, size_t n) { return (double *)work + 11 * n + (4 * n * sizeof(lapack_int) + sizeof(double) - 1) / sizeof(double); }

size_t ckm_eig_work_bytes(size_t n)
{
    size_t m = n ? n : 1;
    /* dd, e, tau, 8 n per-part arrays, then the panel W of the blocked reduction (n x 64) */
    return (11 + CKM_EIG_MAX_NB) * m * sizeof(double) + 4 * m * sizeof(lapack_int) + sizeof(double);
}

/* LAPACK's own building blocks of dsytrd (reference LAPACK, inside OpenBLAS): not in lapack.h
 * (auxiliary routines). Fortran calling convention, string lengths last. */
extern int ilaenv_(const int *ispec, const char *name, const char *opts, const int *n1, const int *n2, const int *n3,
                   const int *n4, size_t name_len, size_t opts_len);
extern void dlatrd_(const char *uplo, const int *n, const int *nb, double *a, const int *lda, double *e, double *tau,
                    double *w, const int *ldw, size_t uplo_len);
extern void dsytd2_(const char *uplo, const int *n, double *a, const int *lda, double *d, double *e, double *tau,
                    int *info, size_t uplo_len);

/* Q' A Q = T (diagonal dd, off-diagonal e, reflectors in A and tau), as LAPACKE_dsytrd(COL_MAJOR,
 * 'U') computes it. With a stop function and n >= CKM_EIG_STOPPABLE_MIN: dsytrd's blocked loop
 * run here -- the same panel width nb and crossover nx (ilaenv, as dsytrd asks), from the last
 * column back: dlatrd reduces the panel's nb columns of the leading block and returns W, dsyr2k
 * updates the rest (A11 -= V W' + W V'), then dsytd2 the leading kk columns --, the same calls
 * in the same order, so the same bits, with stop(user) polled after every panel (one panel:
 * nb symmetric matrix-vector products on the leading block, about 0.1 s at n = 2400 with one
 * thread). w: n x CKM_EIG_MAX_NB doubles. Returns 0, -2 (LAPACK failed) or -3 (stopped). */
static int tridiagonalize(size_t n, double *A, double *dd, double *e, double *tau, double *W, ckm_poll_fn stop,
                          void *user)
{
    int ln = (int)n, one = 1, three = 3, m1 = -1;
    int nb = stop && n >= CKM_EIG_STOPPABLE_MIN ? ilaenv_(&one, "DSYTRD", "U", &ln, &m1, &m1, &m1, 6, 1) : 0;
    int nx = nb > 1 && nb < ln ? ilaenv_(&three, "DSYTRD", "U", &ln, &m1, &m1, &m1, 6, 1) : ln;
    nx = nx > nb ? nx : nb;
    if (nb <= 1 || nb > CKM_EIG_MAX_NB || nx >= ln) { /* in one call */
        lapack_int info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', ln, A, ln, dd, e, tau);
        return info == 0 ? 0 : lapack_failure(info);
    }
    int kk = ln - ((ln - nx + nb - 1) / nb) * nb; /* columns left to dsytd2 */
    for (int i = ln - nb + 1; i >= kk + 1; i -= nb) { /* Fortran indices: panel i .. i+nb-1 */
        int lead = i + nb - 1;
        dlatrd_("U", &lead, &nb, A, &ln, e, tau, W, &ln, 1);
        cblas_dsyr2k(CblasColMajor, CblasUpper, CblasNoTrans, i - 1, nb, -1.0, A + (size_t)(i - 1) * n, ln, W, ln,
                     1.0, A, ln);
        for (int j = i; j <= i + nb - 1; j++) {
            A[(size_t)(j - 2) + (size_t)(j - 1) * n] = e[j - 2];
            dd[j - 1] = A[(size_t)(j - 1) + (size_t)(j - 1) * n];
        }
        if (stop(user))
            return -3;
    }
    int info = 0;
    dsytd2_("U", &kk, A, &ln, dd, e, tau, &info, 1);
    return info == 0 ? 0 : -2;
}

int ckm_eig_values_poll(size_t n, double *A, double *w, void *work, ckm_poll_fn stop, void *user)
{
    if (!stop || n < CKM_EIG_STOPPABLE_MIN)
        return ckm_eig_sym(n, A, w, 0);
    double *dd = work, *e = dd + n, *tau = e + n, *W = panel_of(work, n);
    int t = tridiagonalize(n, A, dd, e, tau, W, stop, user);
    if (t != 0)
        return t;
    memcpy(w, dd, n * sizeof(double));
    lapack_int info = LAPACKE_dsterf((lapack_int)n, w, e);
    return info == 0 ? 0 : lapack_failure(info);
}


/* One part of the wanted eigenpairs: dstemr for indices il..iu of the tridiagonal (dd, e) into
 * w and the columns of Z, then their back-transformation by the reflectors in A (or, with
 * copy set, in a private copy of A made first: dormtr may write into A while it works, so two
 * parts never share it). */
typedef struct eig_part {
    size_t n;
    const double *dd, *e, *tau;
    double *A, *copy, *w, *Z, *d2, *e2;
    lapack_int *isuppz, il, iu, found, info;
} eig_part;

static void part_vectors(void *ctx, size_t begin, size_t end, int tid)
{
    (void)tid;
    for (size_t q = begin; q < end; q++) {
        eig_part *pt = (eig_part *)ctx + q;
        lapack_int ln = (lapack_int)pt->n;
        lapack_logical tryrac = 1;
        memcpy(pt->d2, pt->dd, pt->n * sizeof(double));
        memcpy(pt->e2, pt->e, pt->n * sizeof(double));
        pt->info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', ln, pt->d2, pt->e2, 0.0, 0.0, pt->il, pt->iu, &pt->found,
                                  pt->w, pt->Z, ln, pt->iu - pt->il + 1, pt->isuppz, &tryrac);
    }
}

/* Back-transformation of columns [from, from + cols) of the part's vectors (its copy of the
 * reflectors, when it has one, already made) */
typedef struct back_job {
    eig_part *pt;
    size_t from, cols;
} back_job;

static void part_back(void *ctx, size_t begin, size_t end, int tid)
{
    (void)tid;
    for (size_t q = begin; q < end; q++) {
        back_job *bj = (back_job *)ctx + q;
        eig_part *pt = bj->pt;
        lapack_int ln = (lapack_int)pt->n;
        pt->info = bj->cols == 0 ? 0
                                 : LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', ln, (lapack_int)bj->cols,
                                                  pt->copy ? pt->copy : pt->A, ln, pt->tau, pt->Z + bj->from * pt->n, ln);
    }
}

/* Sturm counts of the tridiagonal T's (diagonal dd, off-diagonal e) eigenvalues below
 * -tiny (below[1], the negative side) and below tiny (below[0]), tiny = 1e-13 of the
 * Gershgorin bound: those nearer 0 change a projection by rounding only. Both sides when
 * both (polled), else only the side `negative` names. The negative pivots of T - sigma I =
 * L D L' count the eigenvalues below sigma. */
static void sturm_counts(size_t n, const double *dd, const double *e, bool both, int negative, size_t below[2])
{
    double lim = 0.0;
    for (size_t i = 0; i < n; i++) {
        double r = fabs(dd[i]) + (i + 1 < n ? fabs(e[i]) : 0.0) + (i > 0 ? fabs(e[i - 1]) : 0.0);
        lim = r > lim ? r : lim;
    }
    for (int sd = 0; sd < (both ? 2 : 1); sd++) {
        int neg_side = both ? sd : negative;
        double tiny = 1e-13 * lim, sigma = neg_side ? -tiny : tiny, piv = 1.0;
        size_t b = 0;
        for (size_t i = 0; i < n; i++) {
            piv = dd[i] - sigma - (i > 0 ? e[i - 1] * e[i - 1] / piv : 0.0);
            if (piv == 0.0)
                piv = -DBL_MIN; /* a zero pivot: the eigenvalue at sigma counts as below */
            b += piv < 0.0;
        }
        below[neg_side] = b;
    }
}

int ckm_eig_sym_side(size_t n, double *A, int *negative, int few, double *w, double *Z, size_t *first, size_t *count,
                     void *work, double *scratch, ckm_poll_fn stop, void *user)
{
    *first = *count = 0;
    if (n == 0)
        return 0;
    /* T = Q' A Q tridiagonal: diagonal dd, off-diagonal e; per part: d2, e2 (dstemr's copies),
     * w2 (the second part's eigenvalues), isuppz */
    double *dd = work, *e = dd + n, *tau = e + n, *pw = tau + n;
    lapack_int *pi = (lapack_int *)(pw + 8 * n), ln = (lapack_int)n, info;
    bool polled = stop && n >= CKM_EIG_STOPPABLE_MIN;
    /* column-major on the symmetric row-major array: the same matrix; Z's columns are then
     * rows of the row-major view */
    int t = tridiagonalize(n, A, dd, e, tau, panel_of(work, n), polled ? stop : NULL, user);
    if (t != 0)
        return t;
    if (polled && stop(user))
        return -3;
    bool done = false;
    /* from CKM_EIG_MRRR_ONLY_MIN with polls: MRRR whatever the count (dstedc, 0.7 s at n = 2400,
     * could not be stopped) */
    bool mrrr = few || (polled && n >= CKM_EIG_MRRR_ONLY_MIN);
    /* not for n <= 2: OpenBLAS 0.3.21's dstemr answers order 2 from dlaev2 by magnitude, so
     * index 2 of [[-0.179, 0.488], [0.488, -0.287]] came back as -0.724, not 0.258 */
    if (mrrr && n > 2) {
        size_t below[2]; /* [0]: eigenvalues < tiny, [1]: < -tiny */
        sturm_counts(n, dd, e, polled, *negative, below);
        if (polled) /* the side with fewer vectors: its projection gives the other's (M = P+ - P-) */
            *negative = below[1] <= n - below[0];
        size_t want = *negative ? below[1] : n - below[0];
        lapack_int il = *negative ? 1 : (lapack_int)(n - want + 1);
        /* pieces of the index range il .. il + want - 1, up to two at once on two threads when a
         * scratch matrix is given and there are a few vectors; with polls, pieces of at most
         * max(n / 8, 64) indices (0.18 s at n = 2400) and a poll after each round. MRRR
         * computes every vector on its own, so the pieces are as accurate as one call, unless
         * a cluster of close eigenvalues straddles a border (relative gap <= 1e-3, MRRR's own
         * cluster threshold): then everything goes to dstedc */
        size_t slots = scratch && want >= 16 ? 2 : 1, from[16], len[16], npieces = 0;
        if (polled) {
            size_t piece = n / 8 > 64 ? n / 8 : 64;
            for (size_t f = 0; f < want; f += piece, npieces++) {
                from[npieces] = f;
                len[npieces] = want - f < piece ? want - f : piece;
            }
        } else { /* one piece, or two halves il .. il + want/2 - 1 and the rest */
            from[0] = 0;
            len[0] = slots == 2 ? want / 2 : want;
            from[1] = len[0];
            len[1] = want - len[0];
            npieces = want == 0 ? 0 : slots;
        }
        done = true;
        for (size_t p0 = 0; p0 < npieces && done; p0 += slots) {
            eig_part pt[2];
            size_t used = npieces - p0 < slots ? npieces - p0 : slots;
            for (size_t q = 0; q < used; q++)
                pt[q] = (eig_part){.n = n, .dd = dd, .e = e, .tau = tau, .A = A, .w = pw + (4 + q) * n,
                                   .Z = Z + from[p0 + q] * n, .d2 = pw + 2 * q * n, .e2 = pw + (2 * q + 1) * n,
                                   .isuppz = pi + 2 * q * n, .il = il + (lapack_int)from[p0 + q],
                                   .iu = il + (lapack_int)(from[p0 + q] + len[p0 + q]) - 1};
            ckm_parallel_for((int)used, used, part_vectors, pt);
            for (size_t q = 0; q < used && done; q++) {
                if (pt[q].info == LAPACK_WORK_MEMORY_ERROR)
                    return -1;
                size_t f = from[p0 + q], l = len[p0 + q];
                done = pt[q].info == 0 && pt[q].found == (lapack_int)l;
                if (!done)
                    break;
                memcpy(w + f, pt[q].w, l * sizeof(double));
                if (f > 0) { /* the border with the previous piece */
                    double a = w[f - 1], b = w[f], scale = fmax(fabs(a), fabs(b));
                    done = b - a > 1e-3 * scale;
                }
            }
            if (polled && done && p0 + slots < npieces && stop(user))
                return -3;
        }
        *count = done ? want : 0;
    }
    if (!done) {
        memcpy(w, dd, n * sizeof(double));
        if ((info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', ln, w, e, Z, ln)) != 0)
            return lapack_failure(info);
        size_t neg = 0, pos = 0;
        while (neg < n && w[neg] < 0.0)
            neg++;
        while (pos < n && w[n - 1 - pos] > 0.0)
            pos++;
        *first = *negative ? 0 : n - pos;
        *count = *negative ? neg : pos;
    }
    if (polled && stop(user))
        return -3;
    if (*count > 0) { /* the wanted vectors only; with a scratch matrix in two halves (the MRRR
                         path's own parts: both split at want / 2), each half in pieces of
                         CKM_EIG_BACK_COLS columns with a poll between rounds when stoppable */
        size_t h = scratch && *count >= 16 ? *count / 2 : *count, halves = h < *count ? 2 : 1;
        eig_part pb[2] = {{.n = n, .tau = tau, .A = A, .Z = Z + *first * n},
                          {.n = n, .tau = tau, .A = A, .copy = scratch, .Z = Z + (*first + h) * n}};
        size_t len[2] = {h, *count - h}, piece = polled ? CKM_EIG_BACK_COLS : *count;
        if (halves == 2) /* dormtr may write into A while it works: the second half's own copy */
            memcpy(scratch, A, n * n * sizeof(double));
        size_t most = len[0] > len[1] ? len[0] : len[1];
        for (size_t done_cols = 0; done_cols < most; done_cols += piece) {
            back_job bj[2];
            for (size_t q = 0; q < halves; q++) {
                size_t from = done_cols < len[q] ? done_cols : len[q];
                bj[q] = (back_job){&pb[q], from, len[q] - from < piece ? len[q] - from : piece};
            }
            ckm_parallel_for((int)halves, halves, part_back, bj);
            if (pb[0].info != 0 || (halves == 2 && pb[1].info != 0))
                return lapack_failure(pb[0].info != 0 ? pb[0].info : pb[1].info);
            if (polled && done_cols + piece < most && stop(user))
                return -3;
        }
    }
    return done ? 1 : 0;
}

int ckm_eig_sym_top(size_t n, double *A, size_t k, double *w, double *Z, void *work, ckm_poll_fn stop, void *user)
{
    if (k > n)
        k = n;
    if (n == 0 || k == 0)
        return 0;
    lapack_int ln = (lapack_int)n;
    if (!stop || n < CKM_EIG_STOPPABLE_MIN) { /* every pair by dsyevd (the same bits as before) */
        int info = ckm_eig_sym(n, A, w, 1);
        if (info != 0)
            return info == -1 ? -1 : -2;
        for (size_t c = 0; c < k; c++) {
            w[c] = w[n - k + c];
            for (size_t i = 0; i < n; i++) /* column n - k + c of A -> row c of Z */
                Z[c * n + i] = A[i * n + (n - k + c)];
        }
        return 0;
    }
    /* the work array as ckm_eig_sym_side lays it out: one part's d2, e2 and isuppz */
    double *dd = work, *e = dd + n, *tau = e + n, *d2 = tau + n, *e2 = d2 + n;
    lapack_int *isuppz = (lapack_int *)(d2 + 8 * n), found = 0, info;
    int t = tridiagonalize(n, A, dd, e, tau, panel_of(work, n), stop, user);
    if (t != 0)
        return t;
    if (stop(user))
        return -3;
    memcpy(d2, dd, n * sizeof(double));
    memcpy(e2, e, n * sizeof(double));
    lapack_logical tryrac = 1;
    info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', ln, d2, e2, 0.0, 0.0, ln - (lapack_int)k + 1, ln, &found, w, Z,
                          ln, (lapack_int)k, isuppz, &tryrac);
    if (info != 0 || found != (lapack_int)k) { /* MRRR failed: every pair of T by dstedc */
        if (info == LAPACK_WORK_MEMORY_ERROR)
            return -1;
        double *all = ckm_alloc_array(n * n, sizeof(double));
        if (!all)
            return -1;
        memcpy(w, dd, n * sizeof(double));
        memcpy(e2, e, n * sizeof(double));
        info = LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', ln, w, e2, all, ln);
        if (info == 0) {
            memmove(w, w + (n - k), k * sizeof(double));
            memcpy(Z, all + (n - k) * n, k * n * sizeof(double));
        }
        free(all);
        if (info != 0)
            return lapack_failure(info);
    }
    if (stop(user))
        return -3;
    info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', ln, (lapack_int)k, A, ln, tau, Z, ln);
    return info == 0 ? 0 : lapack_failure(info);
}

/* Both triangles from the lower one. */
static void mirror_lower(size_t n, double *A)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            A[j * n + i] = A[i * n + j];
}

/* The blocked path of ckm_spd_inverse_poll, row-major, lower triangle, panels of nb columns,
 * stop polled after every panel of each stage (each panel costs at most 2 (n - j0)^2 nb flops):
 *   1. A = L L' (right-looking): L11 = chol(A11) (dpotrf), L21 = A21 L11^{-T} (dtrsm),
 *      A22 -= L21 L21' (dsyrk);
 *   2. L^{-1} in place, panel J = columns j0..j0+jb-1: L(j0:, j0:) X = E(j0:, J) (dtrsm on a
 *      copy B of the panel's columns; later panels read only columns >= their own start);
 *   3. A^{-1} = L^{-T} L^{-1}, lower part by panels: A^{-1}(j0:, J) = L^{-1}(j0:, j0:)'
 *      L^{-1}(j0:, J) (dtrmm on B, since L^{-1} is lower: rows r >= max(i, j) only).
 * n^3 / 3 flops per stage, as dpotrf + dpotri. B: (n x nb) doubles. */
static int spd_inverse_blocked(size_t n, double *A, double *B, size_t nb, ckm_poll_fn stop, void *user)
{
    int ln = (int)n;
    for (size_t j0 = 0; j0 < n; j0 += nb) {
        size_t jb = n - j0 < nb ? n - j0 : nb, rest = n - j0 - jb;
        double *a11 = A + j0 * n + j0;
        lapack_int info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)jb, a11, ln);
        if (info != 0)
            return info > 0 ? (int)(j0 + (size_t)info) : -1;
        if (rest > 0) {
            double *a21 = A + (j0 + jb) * n + j0;
            cblas_dtrsm(CblasRowMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, (int)rest, (int)jb, 1.0, a11,
                        ln, a21, ln);
            cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, (int)rest, (int)jb, -1.0, a21, ln, 1.0,
                        A + (j0 + jb) * n + (j0 + jb), ln);
        }
        if (stop && stop(user))
            return -3;
    }
    for (int stage = 0; stage < 2; stage++)
        for (size_t j0 = 0; j0 < n; j0 += nb) {
            size_t jb = n - j0 < nb ? n - j0 : nb, rows = n - j0;
            for (size_t i = 0; i < rows; i++) /* B = E(j0:, J) or L^{-1}(j0:, J) */
                for (size_t c = 0; c < jb; c++)
                    B[i * jb + c] = stage == 0 ? (i == c ? 1.0 : 0.0) : A[(j0 + i) * n + j0 + c];
            if (stage == 0)
                cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, (int)rows, (int)jb, 1.0,
                            A + j0 * n + j0, ln, B, (int)jb);
            else
                cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit, (int)rows, (int)jb, 1.0,
                            A + j0 * n + j0, ln, B, (int)jb);
            for (size_t i = 0; i < rows; i++)
                for (size_t c = 0; c < jb; c++)
                    A[(j0 + i) * n + j0 + c] = B[i * jb + c];
            if (stop && stop(user))
                return -3;
        }
    return 0;
}

int ckm_spd_inverse_poll(size_t n, double *A, ckm_poll_fn stop, void *user)
{
    if (n == 0)
        return 0;
    int info;
    if (n < CKM_SPD_BLOCKED_MIN) {
        lapack_int ln = (lapack_int)n, li = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', ln, A, ln);
        if (li == 0)
            li = LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', ln, A, ln);
        info = li == LAPACK_WORK_MEMORY_ERROR ? -1 : (int)li;
    } else {
        const size_t nb = 96;
        double *B = malloc(n * nb * sizeof(double));
        if (!B)
            return -1;
        info = spd_inverse_blocked(n, A, B, nb, stop, user);
        free(B);
    }
    if (info != 0)
        return info;
    mirror_lower(n, A); /* the upper triangle too, so that either may be read */
    return 0;
}

int ckm_spd_inverse(size_t n, double *A) { return ckm_spd_inverse_poll(n, A, NULL, NULL); }

void ckm_spd_inverse_apply(size_t n, const double *Ainv, double *x, double *tmp)
{
    if (n == 0)
        return;
    memcpy(tmp, x, n * sizeof(double));
    cblas_dsymv(CblasRowMajor, CblasLower, (int)n, 1.0, Ainv, (int)n, tmp, 1, 0.0, x, 1);
}
