/*
 * linalg.c -- symmetric eigen-decomposition and Cholesky through LAPACKE (see linalg.h).
 */
#include "linalg.h"

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
    return 5 * m * sizeof(double) + 2 * m * sizeof(lapack_int);
}

static int lapack_failure(lapack_int info) { return info == LAPACK_WORK_MEMORY_ERROR ? -1 : -2; }

int ckm_eig_sym_side(size_t n, double *A, int negative, int few, double *w, double *Z, size_t *first, size_t *count,
                     void *work)
{
    *first = *count = 0;
    if (n == 0)
        return 0;
    /* T = Q' A Q tridiagonal: diagonal dd, off-diagonal e; d2, e2 copies for dstemr */
    double *dd = work, *e = dd + n, *tau = e + n, *d2 = tau + n, *e2 = d2 + n;
    lapack_int *isuppz = (lapack_int *)(e2 + n), ln = (lapack_int)n, info;
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
        lapack_int found = 0;
        lapack_logical tryrac = 1;
        info = 0;
        if (want > 0) { /* dstemr by index: eigenvalues il..iu (ascending, 1-based) */
            memcpy(d2, dd, n * sizeof(double));
            memcpy(e2, e, n * sizeof(double));
            lapack_int il = negative ? 1 : (lapack_int)(n - want + 1), iu = negative ? (lapack_int)want : ln;
            info = LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', ln, d2, e2, 0.0, 0.0, il, iu, &found, w, Z, ln, ln, isuppz,
                                  &tryrac);
            if (info == LAPACK_WORK_MEMORY_ERROR)
                return -1;
        }
        done = info == 0 && (size_t)found == want; /* else every pair by dstedc below */
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
    if (*count > 0 &&
        (info = LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', ln, (lapack_int)*count, A, ln, tau, Z + *first * n, ln)) != 0)
        return lapack_failure(info);
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
