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

/* The eigenpairs of one side of the symmetric n x n row-major matrix A (both triangles equal;
 * A is destroyed): eigenvalue < 0 (negative != 0) or > 0. The vectors come out as rows
 * *first .. *first + *count - 1 of Z (n x n; Z[j*n + i] = component i of eigenvector j),
 * their eigenvalues at w[*first ..] (ascending; w has n entries). LAPACK dsytrd, then
 *   few != 0 (and n > 2): a Sturm count of that side's eigenvalues (those within 1e-13 of the
 *             Gershgorin bound of 0 left out: they change a projection by rounding only),
 *             then dstemr (MRRR) for them by index: O(n) per vector, only the reduction is
 *             cubic; returns 1. With scratch (an n x n array) and at least 16 wanted, in two
 *             halves of the index range on two threads (ckm_parallel_for), each half
 *             back-transformed by its own thread (the second on its copy of A in scratch,
 *             since dormtr may write into A while it works); a cluster (relative gap
 *             <= 1e-3) across the halves' border sends the call to dstedc instead;
 *   else, or when dstemr fails: dstedc (divide and conquer: every eigenpair of the
 *             tridiagonal; w holds every eigenvalue, *first = 0 or n - *count); returns 0;
 * then dormtr back-transforms the wanted vectors only (dsyevd transforms all n; with scratch
 * in two halves, as above). Measured with one OpenBLAS thread: s = 280 with 8 wanted 1.5 ms
 * through dstemr against dsyevd's 4.7; s = 500 with 111: 15 ms through dstedc against 18.5;
 * s = 1000 with 238: 83 against 111. The result depends on whether scratch is given, never on
 * timing. Returns -1 when out of memory, -2 when LAPACK fails. */
int ckm_eig_sym_side(size_t n, double *A, int negative, int few, double *w, double *Z, size_t *first, size_t *count,
                     void *work, double *scratch);

/* Bytes of the work array of ckm_eig_sym_side for order n (the caller allocates it once, so
 * an ADMM iteration allocates nothing itself; LAPACKE still allocates its workspaces). */
size_t ckm_eig_work_bytes(size_t n);

/* A^{-1} in place of the SPD n x n row-major matrix A, both triangles (LAPACK dpotrf +
 * dpotri; core's ckm_chol / ckm_chol_solve remain for the tiny k x k systems). For a fixed, well-conditioned A applied many times: one dsymv reads A^{-1} once,
 * where the factor's two dtrsv are dependent sweeps (m = 331: 5.0 against 12.4 us; m = 651:
 * 21.8 against 41.8 us, OpenBLAS 0.3.21, one thread; bench/spd_apply.c). Returns 0 on success,
 * else LAPACK's info. */
int ckm_spd_inverse(size_t n, double *A);

/* x = Ainv x with Ainv from ckm_spd_inverse; tmp: n doubles of scratch. */
void ckm_spd_inverse_apply(size_t n, const double *Ainv, double *x, double *tmp);

#endif
