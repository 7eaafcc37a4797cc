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
#include <string.h>

int ckm_eig_sym(size_t n, double *A, double *w, int vectors)
{
    if (n == 0)
        return 0;
    lapack_int info = LAPACKE_dsyevd(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N', 'L', (lapack_int)n, A, (lapack_int)n, w);
    return info == LAPACK_WORK_MEMORY_ERROR ? -1 : (int)info;
}

size_t ckm_eig_work_bytes(size_t n)
{
    size_t m = n ? n : 1;
    return 11 * m * sizeof(double) + 4 * m * sizeof(lapack_int);
}

static int lapack_failure(lapack_int info) { return info == LAPACK_WORK_MEMORY_ERROR ? -1 : -2; }

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

static void part_back(void *ctx, size_t begin, size_t end, int tid)
{
    (void)tid;
    for (size_t q = begin; q < end; q++) {
        eig_part *pt = (eig_part *)ctx + q;
        lapack_int ln = (lapack_int)pt->n;
        double *A = pt->A;
        if (pt->copy) {
            memcpy(pt->copy, pt->A, pt->n * pt->n * sizeof(double));
            A = pt->copy;
        }
        pt->info = pt->found == 0 ? 0
                                  : LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', ln, pt->found, A, ln, pt->tau, pt->Z, ln);
    }
}

int ckm_eig_sym_side(size_t n, double *A, int negative, int few, double *w, double *Z, size_t *first, size_t *count,
                     void *work, double *scratch)
{
    *first = *count = 0;
    if (n == 0)
        return 0;
    /* T = Q' A Q tridiagonal: diagonal dd, off-diagonal e; per part: d2, e2 (dstemr's copies),
     * w2 (the second part's eigenvalues), isuppz */
    double *dd = work, *e = dd + n, *tau = e + n, *pw = tau + n;
    lapack_int *pi = (lapack_int *)(pw + 8 * n), ln = (lapack_int)n, info;
    /* column-major on the symmetric row-major array: the same matrix; Z's columns are then
     * rows of the row-major view */
    if ((info = LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', ln, A, ln, dd, e, tau)) != 0)
        return lapack_failure(info);
    bool done = false;
    /* not for n <= 2: OpenBLAS 0.3.21's dstemr answers order 2 from dlaev2 by magnitude, so
     * index 2 of [[-0.179, 0.488], [0.488, -0.287]] came back as -0.724, not 0.258 */
    if (few && n > 2) {
        /* Sturm count of T's eigenvalues below -tiny (negative side) or above tiny, tiny =
         * 1e-13 of the Gershgorin bound: those nearer 0 change a projection by rounding only */
        double lim = 0.0;
        for (size_t i = 0; i < n; i++) {
            double r = fabs(dd[i]) + (i + 1 < n ? fabs(e[i]) : 0.0) + (i > 0 ? fabs(e[i - 1]) : 0.0);
            lim = r > lim ? r : lim;
        }
        double tiny = 1e-13 * lim, sigma = negative ? -tiny : tiny, piv = 1.0;
        size_t below = 0; /* eigenvalues < sigma: negative pivots of T - sigma I = L D L' */
        for (size_t i = 0; i < n; i++) {
            piv = dd[i] - sigma - (i > 0 ? e[i - 1] * e[i - 1] / piv : 0.0);
            if (piv == 0.0)
                piv = -DBL_MIN; /* a zero pivot: the eigenvalue at sigma counts as below */
            below += piv < 0.0;
        }
        size_t want = negative ? below : n - below;
        lapack_int il = negative ? 1 : (lapack_int)(n - want + 1), iu = negative ? (lapack_int)want : ln;
        /* two parts (indices il..mid, mid+1..iu) on two threads when a scratch matrix is given
         * and each part has a few vectors; MRRR computes every vector on its own, so the parts
         * are as accurate as one call, unless a cluster of close eigenvalues straddles mid
         * (relative gap <= 1e-3, MRRR's own cluster threshold): then everything goes to dstedc */
        size_t parts = scratch && want >= 16 ? 2 : 1;
        lapack_int mid = il + (lapack_int)(want / 2) - 1;
        eig_part pt[2];
        for (size_t q = 0; q < parts; q++)
            pt[q] = (eig_part){.n = n, .dd = dd, .e = e, .tau = tau, .A = A, .copy = q ? scratch : NULL,
                               .w = q ? pw + 4 * n : w, .Z = q ? Z + (size_t)(mid - il + 1) * n : Z,
                               .d2 = pw + 2 * q * n, .e2 = pw + (2 * q + 1) * n, .isuppz = pi + 2 * q * n,
                               .il = parts == 1 ? il : (q ? mid + 1 : il), .iu = parts == 1 ? iu : (q ? iu : mid)};
        if (want > 0)
            ckm_parallel_for((int)parts, parts, part_vectors, pt);
        size_t found = 0;
        done = true;
        for (size_t q = 0; q < parts && want > 0; q++) {
            if (pt[q].info == LAPACK_WORK_MEMORY_ERROR)
                return -1;
            done = done && pt[q].info == 0 && pt[q].found == pt[q].iu - pt[q].il + 1;
            found += (size_t)pt[q].found;
        }
        done = done && found == want; /* else every pair by dstedc below */
        if (done && parts == 2) {
            size_t h = (size_t)(mid - il + 1);
            memcpy(w + h, pw + 4 * n, (want - h) * sizeof(double));
            double a = w[h - 1], b = w[h], scale = fmax(fabs(a), fabs(b));
            done = b - a > 1e-3 * scale;
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
        *first = negative ? 0 : n - pos;
        *count = negative ? neg : pos;
    }
    if (*count > 0) { /* the wanted vectors only; with a scratch matrix in two halves (the MRRR
                         path's own parts: both split at want / 2) */
        size_t h = scratch && *count >= 16 ? *count / 2 : *count;
        eig_part pb[2] = {{.n = n, .tau = tau, .A = A, .Z = Z + *first * n, .found = (lapack_int)h},
                          {.n = n, .tau = tau, .A = A, .copy = scratch, .Z = Z + (*first + h) * n,
                           .found = (lapack_int)(*count - h)}};
        ckm_parallel_for(h < *count ? 2 : 1, h < *count ? 2 : 1, part_back, pb);
        if (pb[0].info != 0 || (h < *count && pb[1].info != 0))
            return lapack_failure(pb[0].info != 0 ? pb[0].info : pb[1].info);
    }
    return done ? 1 : 0;
}

int ckm_spd_inverse(size_t n, double *A)
{
    if (n == 0)
        return 0;
    lapack_int ln = (lapack_int)n, info = LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', ln, A, ln);
    if (info == 0)
        info = LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', ln, A, ln);
    if (info != 0)
        return (int)info;
    for (size_t i = 0; i < n; i++) /* the upper triangle too, so that either may be read */
        for (size_t j = 0; j < i; j++)
            A[j * n + i] = A[i * n + j];
    return 0;
}

void ckm_spd_inverse_apply(size_t n, const double *Ainv, double *x, double *tmp)
{
    if (n == 0)
        return;
    memcpy(tmp, x, n * sizeof(double));
    cblas_dsymv(CblasRowMajor, CblasLower, (int)n, 1.0, Ainv, (int)n, tmp, 1, 0.0, x, 1);
}
