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
 * A is destroyed): eigenvalue < 0 (*negative != 0) or > 0. With polls (stop given and n >=
 * CKM_EIG_STOPPABLE_MIN) on the MRRR path, the side with fewer eigenvalues instead, written
 * back to *negative (the caller's projection is M minus the other side's). The vectors come out as rows
 * *first .. *first + *count - 1 of Z (n x n; Z[j*n + i] = component i of eigenvector j),
 * their eigenvalues at w[*first ..] (ascending; w has n entries). LAPACK dsytrd, then
 *   few != 0 (and n > 2): a Sturm count of that side's eigenvalues (those within 1e-13 of the
 *             Gershgorin bound of 0 left out: they change a projection by rounding only),
 *             then dstemr (MRRR) for them by index: O(n) per vector, only the reduction is
 *             cubic; returns 1. With polls also from n >= CKM_EIG_MRRR_ONLY_MIN whatever few
 *             says, in pieces of max(n / 8, 64) indices with a poll between them. With scratch (an n x n array) and at least 16 wanted, in two
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
 * timing. stop (NULL = never), from n >= CKM_EIG_STOPPABLE_MIN: polled after every panel of
 * the reduction (LAPACK dsytrd's own loop run here: the same bits, linalg.c tridiagonalize),
 * after the tridiagonal eigenproblem and between pieces of CKM_EIG_BACK_COLS back-transformed
 * vectors (dormtr per piece: the same vectors up to rounding, not to the bit); the tridiagonal eigenproblem itself (dstemr or dstedc, at most about 1 s at
 * n = 2400) runs in one piece. Returns -1 when out of memory, -2 when LAPACK fails, -3 when
 * stopped (A, w and Z then hold partial results). */
typedef int (*ckm_poll_fn)(void *user);
#define CKM_EIG_STOPPABLE_MIN 512 /* below, one LAPACK call per stage: no poll is needed */
#define CKM_EIG_MAX_NB 64         /* the widest dsytrd panel the work array holds */
#define CKM_EIG_BACK_COLS 128     /* back-transformed vectors between two polls */
#define CKM_EIG_MRRR_ONLY_MIN 2000 /* with polls, MRRR (in pieces) whatever the count */
int ckm_eig_sym_side(size_t n, double *A, int *negative, int few, double *w, double *Z, size_t *first, size_t *count,
                     void *work, double *scratch, ckm_poll_fn stop, void *user);

/* Eigenvalues only (ascending into w) of the symmetric n x n row-major matrix A (destroyed);
 * work: ckm_eig_work_bytes(n). Below CKM_EIG_STOPPABLE_MIN or without stop: ckm_eig_sym (dsyevd,
 * the same bits as before); else the stoppable reduction above, then dsterf. Returns 0, -1 out
 * of memory, -2 LAPACK failed, -3 stopped. */
int ckm_eig_values_poll(size_t n, double *A, double *w, void *work, ckm_poll_fn stop, void *user);

/* The k largest eigenpairs of the symmetric n x n row-major matrix A (destroyed): eigenvalues
 * ascending into w[0 .. k), vectors as rows of Z (k x n; Z[c*n + i] = component i of vector
 * c). Below CKM_EIG_STOPPABLE_MIN or without stop: dsyevd, every pair (the same bits as
 * before); else the stoppable reduction, dstemr for indices n-k+1 .. n (dstedc when MRRR
 * fails) and dormtr on those k vectors only, stop polled between the stages. work:
 * ckm_eig_work_bytes(n). Returns 0, -1 out of memory, -2 LAPACK failed, -3 stopped. */
int ckm_eig_sym_top(size_t n, double *A, size_t k, double *w, double *Z, void *work, ckm_poll_fn stop, void *user);

/* Bytes of the work array of ckm_eig_sym_side for order n (the caller allocates it once, so
 * an ADMM iteration allocates nothing itself; LAPACKE still allocates its workspaces). */
size_t ckm_eig_work_bytes(size_t n);

/* A^{-1} in place of the SPD n x n row-major matrix A, both triangles (LAPACK dpotrf +
 * dpotri below CKM_SPD_BLOCKED_MIN; core's ckm_chol / ckm_chol_solve remain for the tiny k x k
 * systems). For a fixed, well-conditioned A applied many times: one dsymv reads A^{-1} once,
 * where the factor's two dtrsv are dependent sweeps (m = 331: 5.0 against 12.4 us; m = 651:
 * 21.8 against 41.8 us, OpenBLAS 0.3.21, one thread; bench/spd_apply.c). Returns 0 on success,
 * a positive LAPACK info when A is not positive definite, -1 when out of memory. */
int ckm_spd_inverse(size_t n, double *A);

/* The same, stoppable: from order CKM_SPD_BLOCKED_MIN on, a blocked factorisation and inverse
 * of ckm's own over BLAS 3 (panels of 96 columns, the same n^3 flops as dpotrf + dpotri) that
 * calls stop(user) after every panel and returns -3 as soon as it answers non-zero (A then
 * holds a partial result). The SDP's cannot-link block of (AA*)^{-1} (sdp_aat.c) is of order
 * #cannot-links (the whole AA* before it: m = 3000 at 1509 groups and 1500 cannot-links, about
 * 1 s through dpotrf + dpotri in one piece; the block has an eighth of those flops); a panel
 * costs at most 2 m^2 96 flops. stop NULL: never. */
#define CKM_SPD_BLOCKED_MIN 512
int ckm_spd_inverse_poll(size_t n, double *A, ckm_poll_fn stop, void *user);

/* x = Ainv x with Ainv from ckm_spd_inverse; tmp: n doubles of scratch. */
void ckm_spd_inverse_apply(size_t n, const double *Ainv, double *x, double *tmp);

#endif
