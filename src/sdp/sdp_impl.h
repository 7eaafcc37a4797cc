/*
 * sdp_impl.h -- the relaxation's data and the linear maps shared by the solver
 * (sdp_admm.c) and the safe bound (sdp_bound.c). Internal to src/sdp.
 * Equality rows (m = s + 1 + L of them), b = (v, k, 0):
 *   row t      <(e_t v' + v e_t')/2, X> = (X v)_t = v_t
 *   trace      <I, X> = k
 *   link e     <(e_a e_b' + e_b e_a')/sqrt 2, X> = sqrt 2 X_ab = 0   (unit Frobenius norm)
 *   A*(y) = (y_R v' + v y_R')/2 + y_T I + sum_e y_e (e_a e_b' + e_b e_a')/sqrt 2
 * C = -W^ / cs with cs = max(1, ||W^||_F): the solver works in units of cs.
 */
#ifndef CKM_SDP_IMPL_H
#define CKM_SDP_IMPL_H

#include "sdp.h"

#define CKM_SQRT2 1.41421356237309504880

struct ckm_sdp {
    size_t s, k, nl, m;  /* groups, clusters, lifted cannot-links, equality rows */
    double n, tau0, cs;  /* points, constant term, cost scale */
    double *v;           /* s: sqrt(w_t) */
    size_t *cl;          /* 2 nl: lifted cannot-link pairs (copied) */
    double *C;           /* s*s: -W^ / cs */
    double *X, *S, *V, *Xhat, *M, *N, *Q, *ev, *T; /* s*s work matrices, ev: s */
    double *y, *rhs, *AAt, *ax; /* m, m, m*m (Cholesky factor), m */
    double sigma;
    double best_lb;
};

/* out (m) = A(X) */
void ckm_sdp_A(const ckm_sdp *p, const double *X, double *out);
/* Out (s*s) += alpha A*(y) */
void ckm_sdp_At_add(const ckm_sdp *p, const double *y, double alpha, double *Out);
/* b'y */
double ckm_sdp_by(const ckm_sdp *p, const double *y);
/* The safe bound from duals (y, V) in units of `unit` (cs inside the solver, 1 outside),
 * into the work matrix T; see ckm_sdp_safe_bound. */
double ckm_sdp_bound_units(ckm_sdp *p, const double *y, const double *V, double unit);

#endif
