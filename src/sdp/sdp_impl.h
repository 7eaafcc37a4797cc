/*
 * sdp_impl.h -- the relaxation's data and the linear maps shared by the solver
 * (sdp_admm.c) and the safe bound (sdp_bound.c). Internal to src/sdp.
 * Equality rows (m = s + 1 + L of them), b = (v, k, 0):
 *   row t      <(e_t v' + v e_t')/2, X> = (X v)_t = v_t
 *   trace      <I, X> = k
 *   link e     <(e_a e_b' + e_b e_a')/sqrt 2, X> = sqrt 2 X_ab = 0   (unit Frobenius norm)
 *   A*(y) = (y_R v' + v y_R')/2 + y_T I + sum_e y_e (e_a e_b' + e_b e_a')/sqrt 2
 * C = -W^ / cs with cs = max(1, ||W^||_F): the solver works in units of cs.
 * Cuts (sdp_cuts.c): rows B_l = sum g Sym_ij (Sym_ii = e_i e_i', Sym_ij = (e_i e_j' + e_j e_i')/2,
 * so <B_l, X> = sum g X_ij), B(X) >= d, each row scaled to unit Frobenius norm; duals u
 * (free in the ADMM) with the nonnegative copy r, primal slacks t (B(X) - t = d, t >= 0).
 */
#ifndef CKM_SDP_IMPL_H
#define CKM_SDP_IMPL_H

#include "sdp.h"
#include <stdint.h>

#define CKM_SQRT2 1.41421356237309504880

typedef struct ckm_cut_entry {
    size_t i, j; /* i <= j */
    double g;    /* coefficient of X_ij */
} ckm_cut_entry;

/* The cut rows' part of the (y, u) system (sdp_cutsys.c): distinct entries, the block Jacobi
 * preconditioner and the conjugate-gradient work vectors. */
typedef struct ckm_cutsys {
    size_t ne, ng;                 /* distinct entries, preconditioner blocks */
    size_t *eid;                   /* per term: its entry */
    double *ew, *ez;               /* per entry: <Sym_e, Sym_e>, scatter scratch */
    size_t *gstart, *goff, *gmem;  /* block g: rows gmem[gstart[g] .. gstart[g+1]), inverse at gfac + goff[g] */
    double *gfac;                  /* the blocks' inverses (row-major, full) */
    size_t eid_cap, ew_cap, ez_cap, gfac_cap;
    double *cr, *cz, *cd, *cq, *ch, *zb, *wm; /* CG vectors (rows), r_u (rows), two blocks, m scratch */
    uint64_t steps;                /* CG steps so far (logging) */
} ckm_cutsys;

struct ckm_sdp {
    size_t s, k, nl, m;  /* groups, clusters, lifted cannot-links, equality rows */
    double n, tau0, cs;  /* points, constant term, cost scale */
    double *v;           /* s: sqrt(w_t) */
    size_t *cl;          /* 2 nl: lifted cannot-link pairs (copied) */
    double *C;           /* s*s: -W^ / cs */
    double *X, *S, *V, *Xhat, *M, *N, *Q, *ev, *T; /* s*s work matrices, ev: s */
    double *y, *Hinv, *ax; /* m; nl*nl (+1): the links' Schur complement inverted (sdp_aat.c), unused without links;
                            * m: A(.) scratch / solve_yu's fixed part */
    double vv;           /* v'v (sdp_aat.c) */
    double sigma;
    size_t neg_last;     /* negative eigenvalues of M at the last projection (which side to compute) */
    void *eigwork;       /* ckm_eig_work_bytes(s) */
    double best_lb;
    /* during ckm_sdp_solve: the run's stop request / deadline for the eigensolver's polls
     * (linalg.h: a projection or bound cut short returns -3 / -inf); NULL otherwise */
    int (*poll)(void *user);
    void *poll_user;
    /* cluster-size information: clique right-hand side and the size rows */
    double c_max;        /* upper bound on any cluster's point count */
    double c_min;        /* lower bound on any cluster's point count (>= 1) */
    /* capacities (sdp_cuts.c's capacity rows): group demands, or NULL; the loosest bounds
     * over clusters, with the checker's tolerance: min_j L_j - tau (>= 0), max_j U_j + tau */
    double *dem, cap_lo, cap_hi;
    unsigned char *is_cl; /* s*s: 1 for lifted cannot-link entries */
    /* cuts */
    size_t nb;           /* active cut rows */
    size_t max_cuts;     /* the pool's cap (CKM_SDP_MAX_CUTS, raised by ckm_sdp_grow_cuts) */
    size_t *bstart;      /* max_cuts + 1 */
    ckm_cut_entry *bent; /* entries of all rows */
    size_t bent_cap;
    double *d, *u, *r, *t, *bx; /* per row: rhs, dual, nonneg. dual copy, slack, B(.) scratch / solve_yu's fixed part */
    unsigned char *btype;       /* 0 pair, 1 triangle, 2 clique, 3 size, 4 inherited, 5 capacity */
    ckm_cutsys sys;      /* the (y, u) system's solver state (sdp_cutsys.c) */
    double *wk;          /* m: scratch of ckm_sdp_kinv and ckm_sdp_aat_prepare */
};

/* The solver evaluates the safe bound every CKM_SDP_BOUND_EVERY iterations (and at the end). */
#define CKM_SDP_BOUND_EVERY 20

/* The hopeless stop (sdp_admm.c's header): the best bound at the last bound checks, one every
 * CKM_SDP_BOUND_EVERY iterations. ckm_sdp_hopeless records the check at iteration it with best
 * bound lb and says whether the rise over par->hopeless_window iterations, extended to
 * par->max_iter, still leaves the gap to par->upper_bound open (false while the window is not
 * yet full, or holds no finite bound, or the stop is off). */
#define CKM_SDP_HOPELESS_CHECKS (CKM_SDP_HOPELESS_MAX / CKM_SDP_BOUND_EVERY + 1)
typedef struct ckm_hopeless_window {
    double lb[CKM_SDP_HOPELESS_CHECKS];
    int checks;
} ckm_hopeless_window;
bool ckm_sdp_hopeless(const ckm_sdp_params *par, ckm_hopeless_window *h, int it, double lb);

/* out (m) = A(X) */
void ckm_sdp_A(const ckm_sdp *p, const double *X, double *out);
/* Out (s*s) += alpha A*(y) */
void ckm_sdp_At_add(const ckm_sdp *p, const double *y, double alpha, double *Out);
/* out (nb) = B(X);  Out += alpha B*(u) */
void ckm_sdp_B(const ckm_sdp *p, const double *X, double *out);
void ckm_sdp_Bt_add(const ckm_sdp *p, const double *u, double alpha, double *Out);
/* The cut system for the current rows (entries, preconditioner blocks): 1 done, 0 a block is
 * not positive definite (impossible in exact arithmetic: G >= I), -1 out of memory. */
int ckm_sdp_prepare_cuts(ckm_sdp *p);

/* longest cut row: a clique of k + 1 <= 11 groups has 55 terms */
#define CKM_SDP_ROW_MAX_TERMS 64

/* Append one cut row from (i, j, Z-coefficient) terms (sdp_cuts.c): cannot-link terms dropped,
 * the row normalised; type as in btype. false when out of memory or max_cuts rows. */
bool ckm_sdp_add_row(ckm_sdp *p, const size_t *ti, const size_t *tj, const double *zc, size_t nt, double rhs,
                     unsigned char type);

/* Rows [first, nb) are new: their slacks from the current estimate; then the cut system is
 * prepared again (also needed when rows were only removed). */
ckm_error ckm_sdp_cuts_changed(ckm_sdp *p, size_t first, ckm_err *err);

/* sdp_aat.c: (AA*)^{-1} in closed form plus the links' Schur complement. prepare (once, after v,
 * cl and n are set; wk and Hinv allocated) forms and inverts that complement, polling stop
 * (ckm_spd_inverse_poll's returns: 0, -1 out of memory, -3 stopped, > 0 not positive
 * definite); kinv: x <- (AA*)^{-1} x. */
int ckm_sdp_aat_prepare(ckm_sdp *p, int (*stop)(void *user), void *user);
void ckm_sdp_kinv(ckm_sdp *p, double *x);
/* With the right-hand side r_y in y (m) and r_u in ru (nb): y and p->u := the solution
 * (p->u, the last solution, is the warm start). */
void ckm_sdp_cut_solve(ckm_sdp *p, double *y, const double *ru);
bool ckm_sdp_cutsys_alloc(ckm_cutsys *c, size_t m, size_t max_rows);
void ckm_sdp_cutsys_free(ckm_cutsys *c);
/* b'y */
double ckm_sdp_by(const ckm_sdp *p, const double *y);
/* The safe bound from duals (y, V) in units of `unit` (cs inside the solver, 1 outside),
 * into the work matrix T; see ckm_sdp_safe_bound. */
double ckm_sdp_bound_units(ckm_sdp *p, const double *y, const double *r, const double *V, double unit);

#endif
