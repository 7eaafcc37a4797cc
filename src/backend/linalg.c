/*
 * linalg.c -- symmetric eigen-decomposition and Cholesky through LAPACKE (see linalg.h).
 */
#include "linalg.h"

#include <cblas.h>
#include <lapacke.h>

int ckm_eig_sym(size_t n, double *A, double *w, int vectors)
{
    if (n == 0)
        return 0;
    lapack_int info = LAPACKE_dsyevd(LAPACK_ROW_MAJOR, vectors ? 'V' : 'N', 'L', (lapack_int)n, A, (lapack_int)n, w);
    return info == LAPACK_WORK_MEMORY_ERROR ? -1 : (int)info;
}

int ckm_chol_factor(size_t n, double *A)
{
    if (n == 0)
        return 0;
    return (int)LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', (lapack_int)n, A, (lapack_int)n);
}

void ckm_chol_factor_solve(size_t n, const double *L, double *x)
{
    if (n == 0)
        return;
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, (int)n, L, (int)n, x, 1);
    cblas_dtrsv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, (int)n, L, (int)n, x, 1);
}
