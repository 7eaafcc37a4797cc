/*
 * linalg.h -- the dense symmetric eigensolver ckm needs (internal), behind the backend
 * boundary: linalg.c is the only file that includes lapacke.h. Also a Cholesky factorisation
 * and solve for the larger SPD systems of the SDP solver.
 */
#ifndef CKM_LINALG_H
#define CKM_LINALG_H

#include <stddef.h>

/* Eigen-decomposition of the symmetric n x n row-major matrix A (both triangles must hold
 * the same values; the lower one is read): eigenvalues ascending into w (n). With
 * vectors != 0, A is overwritten by the eigenvectors as COLUMNS (A[i*n + j] = component i
 * of eigenvector j); otherwise A is destroyed. LAPACK dsyevd (divide and conquer).
 * Returns 0 on success, else LAPACK's info (no convergence) or -1 (out of memory). */
int ckm_eig_sym(size_t n, double *A, double *w, int vectors);

/* Cholesky factor L (L L' = A) of the SPD n x n row-major matrix A in place, lower triangle
 * (LAPACK dpotrf, for the larger systems). Returns 0 on success. */
int ckm_chol_factor(size_t n, double *A);

/* x = A^{-1} x with the factor of ckm_chol_factor: L z = x, then L' x = z (two BLAS dtrsv).
 * (core's ckm_chol / ckm_chol_solve remain for the tiny k x k systems.) */
void ckm_chol_factor_solve(size_t n, const double *L, double *x);

#endif
