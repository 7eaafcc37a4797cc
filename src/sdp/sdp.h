/*
 * sdp.h -- the Peng-Wei SDP relaxation of constrained MSSC on must-link groups and its
 * first-order solver (internal). Formulation (docs/formulations.md, "SDP lower bound"):
 * with v_t = sqrt(w_t), the group matrix X = D^{1/2} Z D^{1/2} (D = Diag(w)) and
 * W^ = G G', G_t = v_t (m_t - mu) (mu = the data mean),
 *   (P)  min tau0 - <W^, X>  s.t.  X v = v,  tr X = k,  X_ab = 0 for lifted cannot-links,
 *        X >= 0 elementwise,  X PSD,
 * tau0 = sum_i ||x_i - mu||^2. Every clustering feasible for the problem (with every cluster
 * non-empty) gives a feasible X whose objective is its SSE, so any valid lower bound of (P)
 * bounds the optimal SSE from below. Only the SAFE bound (sdp_bound.c) is ever reported.
 */
#ifndef CKM_SDP_H
#define CKM_SDP_H

#include "reduced.h"
#include "run.h"

typedef struct ckm_sdp ckm_sdp;

/* Active cut rows at most. The cut system costs O(rows) per CG step (sdp_cutsys.c), so this
 * is set by the bound, not by memory: on accent ml_50_cl_50_0 (280 groups) the root bound
 * was 28683.0 with 3000 rows, 28691.0 with 5000, 28691.6 with 8000 (in about the same time);
 * ECG5000 ml_0_cl_150_0 (500 groups): 11608.6, 11614.7 (closing the root), 11614.7. */
#define CKM_SDP_MAX_CUTS 5000
/* The most a pool may grow to (ckm_sdp_grow_cuts): certify's subsets whose full pool stalls
 * or keeps turning violated rows away, with time left (ipc.c). On four 334-group subsets of
 * AVOC's Electric (k = 3) a 20,000-row cap from the start left them 4.24 % below their labels
 * in 20 s (5000 rows: 4.77 %, stalled after 50-55 rounds, about 20 s, whatever the time left)
 * and 4.10 % in 60 s; but it cost Facebook's 392-group subsets (4.05 -> 4.28 % in 33 s) and
 * Pulsar's 256-group ones (1.08 -> 1.16 % in 8.6 s), whose rounds slowed more than their rows
 * helped: hence grown only once the smaller pool stalls or crowds (bench/README.md "The short
 * schedule on the real sets; a pool that grows", "A pool that grows when crowded"). On a
 * 1112-group subset of standardized Electric in 400 s (one thread, two runs side by side):
 * 1.25 % below its labels with a 40,000-row cap, 1.23 % with 80,000 (64,020 rows in use at the
 * end and still rising faster), 1.90 % at 200 s with the 5000-row pool that never grew. */
#define CKM_SDP_GROWN_CUTS 80000
/* Bytes of one cut row at most: its values, terms and entry indices (~250), the cut system's
 * CG vectors and block indices, and its share of a preconditioner block of up to 256 rows
 * (8 bytes a row of the block). A grown pool: CKM_SDP_GROWN_CUTS of them, 192 MB. */
#define CKM_SDP_CUT_ROW_BYTES 2400.0

/* Largest number of groups the solver accepts: 9 dense s x s matrices (4.6 GB at 8000) and
 * an s x s eigendecomposition per iteration. */
#define CKM_SDP_MAX_GROUPS 8000

/* Expected seconds of one solver iteration on s groups before any was timed: one s x s
 * eigendecomposition, ~9 s^3 flops, at a conservative 36 GFLOP/s (measured: the first
 * iteration on s = 2400 took 3.6 s with one OpenBLAS thread here). Used to skip work that
 * would end past the deadline. */
double ckm_sdp_iteration_estimate_s(size_t s);

/* Build the relaxation of r (needs 2 <= r->s <= CKM_SDP_MAX_GROUPS; more is
 * CKM_ERR_UNSUPPORTED with the reason). ctx (NULL = none) supplies the deadline / stop, polled
 * while the cannot-link block of (AA*)^{-1} is formed (sdp_aat.c: an inverse of order
 * #cannot-links, up to seconds at thousands of them):
 * when one is due, CKM_OK with *out = NULL and *why set (TIME_LIMIT or INTERRUPTED). */
ckm_error ckm_sdp_create(const ckm_reduced *r, const ckm_context *ctx, ckm_sdp **out, ckm_status *why,
                         ckm_err *err);
void ckm_sdp_free(ckm_sdp *p);

typedef struct ckm_sdp_params {
    int max_iter;        /* iteration cap (default 3000) */
    double tol;          /* relative KKT residual to stop at (default 1e-5) */
    double upper_bound;  /* incumbent SSE: stop once the safe bound reaches it within prune_tol */
    double prune_tol;    /* relative (default 1e-4) */
    double tss;          /* the data's total scatter: unit of the absolute floor of the gap
                            rule (core.h ckm_gap_closed); default 0 (relative only) */
    int threads;         /* threads of the projection's eigenvectors: 1 (default) or 2, when a
                            core would idle otherwise (the root of exact); linalg.h */
    int hopeless_window; /* 0 (default): off. Else, with a finite upper_bound, stop (info.hopeless)
                            once the best safe bound, extended to max_iter at its rise over the
                            last hopeless_window iterations (rounded up to a multiple of 20,
                            at most CKM_SDP_HOPELESS_MAX), would still not close the gap: a
                            node that will be branched whatever its bound (sdp_admm.c) */
} ckm_sdp_params;

#define CKM_SDP_HOPELESS_MAX 300

void ckm_sdp_params_default(ckm_sdp_params *par);

typedef struct ckm_sdp_info {
    double lower_bound;  /* best safe bound seen (SSE units), -INFINITY if none */
    double dual_obj;     /* raw dual objective tau0 + b'y (SSE units): NOT a bound; logging only */
    double primal_obj;   /* tau0 - <W^, Xhat> (SSE units) */
    double eta_p, eta_d, eta_g; /* final relative primal / dual infeasibility and gap */
    int iterations;
    int converged;       /* max(eta) <= tol */
    int stopped;         /* deadline (or the next iteration would pass it) or stop request */
    ckm_status why;      /* when stopped: CKM_STATUS_TIME_LIMIT or CKM_STATUS_INTERRUPTED */
    int pruned;          /* stopped because the bound reached upper_bound */
    int hopeless;        /* stopped because it would not reach it (params.hopeless_window) */
    double sigma;        /* final penalty */
    uint64_t cg_steps;   /* conjugate-gradient steps of the cut system (sdp_cutsys.c) in this solve */
} ckm_sdp_info;

/* Run the sGS-ADMM on the dual from the current state (cold after create; later calls
 * continue from the previous iterate: warm start). ctx supplies the deadline / stop. */
ckm_error ckm_sdp_solve(ckm_sdp *p, const ckm_context *ctx, const ckm_sdp_params *par, ckm_sdp_info *info,
                        ckm_err *err);

/* Xhat (s x s, row-major): the PSD primal estimate of the last iteration, in X units. */
const double *ckm_sdp_xhat(const ckm_sdp *p);

/* Safe lower bound (paper Theorem 3.2, Jansson et al.) from ANY duals in SSE units: y
 * (s + 1 + #cannot-links entries: rows, trace, cannot-links) and V >= 0 (s x s symmetric):
 *   LB = tau0 + b'y + sum_i min(0, lambda_i(S~) - eps),  S~ = -W^ - A*(y) - V
 * (cut multipliers taken as 0, which is always valid),
 * using lambda(X) in [0, 1] for every feasible X; eps = 10 s DBL_EPSILON ||S~||_F covers the
 * eigensolver's rounding. Returns NAN when V has a negative entry or eigenvalues fail. */
double ckm_sdp_safe_bound(ckm_sdp *p, const double *y, const double *V);

/* One cutting-plane round on the current Xhat: remove inactive cuts (slack > 1e-6 and zero
 * multiplier), then add the most violated pair / triangle / clique / size / capacity inequalities (violation
 * > 1e-4), taking the worst of each kind in turn, at most max_add, at most the pool's cap
 * active (CKM_SDP_MAX_CUTS, 5000, unless ckm_sdp_grow_cuts raised it); the pair (and full
 * triangle) scan on `threads` (1 or 2) threads, with the same result either way; rng draws the sampled triangles when s > 300 (sdp_separate.c). The
 * next ckm_sdp_solve warm-starts from the current iterate. */
typedef struct ckm_cut_stats {
    size_t added_pair, added_triangle, added_clique, added_size, added_capacity, removed, active;
    size_t turned_away;   /* violated rows found but not added because the pool was full */
    double max_violation; /* largest violation found (Z units), 0 if none */
} ckm_cut_stats;

ckm_error ckm_sdp_separate(ckm_sdp *p, ckm_rng *rng, int threads, size_t max_add, ckm_cut_stats *st, ckm_err *err);
/* The pool's cap (CKM_SDP_MAX_CUTS when created), and raising it to rows (no-op when not
 * more; at most CKM_SDP_GROWN_CUTS): the row arrays grow, the rows and iterate stay.
 * CKM_ERR_NOMEM leaves the cap as it was. */
size_t ckm_sdp_max_cuts(const ckm_sdp *p);
ckm_error ckm_sdp_grow_cuts(ckm_sdp *p, size_t rows, ckm_err *err);

/* Cuts carried from a node to its children (branch-and-cut): each active row as terms on
 * POINTS, sum zc_e Z[pi_e, pj_e] >= rhs, where Z is the point-level normalised matrix
 * (Z_pq = 1/|C| when p, q share cluster C, else 0). A row valid for every feasible clustering
 * of a node is valid for its children (they only add constraints), whatever their groups. */
typedef struct ckm_cut_pool {
    size_t rows;
    size_t *start;       /* rows + 1 */
    size_t *pi, *pj;     /* points of each term */
    double *zc, *rhs;
} ckm_cut_pool;

/* Export the active rows; rep[t] = any point of group t. */
ckm_error ckm_sdp_export_cuts(const ckm_sdp *p, const size_t *rep, ckm_cut_pool **out, ckm_err *err);
void ckm_cut_pool_free(ckm_cut_pool *pool);
/* Bytes a pool holds (0 for NULL), and a full pool's before any is seen: CKM_SDP_MAX_CUTS
 * rows of 4 terms (pair and triangle rows). exact's memory budget counts them. */
double ckm_cut_pool_bytes(const ckm_cut_pool *pool);
double ckm_cut_pool_bytes_full(void);
/* Add the rows of a pool to p (before its first solve), comp[point] = group of p: terms are
 * mapped to groups and merged; terms that cancel are dropped, as are rows left empty and
 * terms on cannot-link entries (Z = 0 there); at most CKM_SDP_MAX_CUTS rows in all. */
ckm_error ckm_sdp_import_cuts(ckm_sdp *p, const size_t *comp, const ckm_cut_pool *pool, size_t *added, ckm_err *err);

/* Warm start: the primal iterate (and estimate) X0 (s x s, X units) and the penalty sigma
 * (ignored outside [1e-4, 1e4]); the duals restart from 0. Any X0 is a valid start (the
 * ADMM converges from anywhere); a parent's solution, aggregated to the child's groups,
 * is close to the child's. */
void ckm_sdp_warm_start(ckm_sdp *p, const double *X0, double sigma);
double ckm_sdp_sigma(const ckm_sdp *p);

/* Number of dual entries y of ckm_sdp_safe_bound. */
size_t ckm_sdp_dual_size(const ckm_sdp *p);

#endif
