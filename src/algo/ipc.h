/*
 * ipc.h -- one node of the SDP-based methods (internal): the safe Peng-Wei bound with
 * cutting planes and IPC-k-means on a reduced problem. `ipc` runs it once on the whole
 * problem; `exact` (exact.c) runs it on every branch-and-cut node, whose reduced problem
 * carries the branching decisions as must-/cannot-links.
 * Incumbent convention: opts.incumbent is the best SSE known elsewhere (INFINITY if none);
 * a labelling is written to out (out->has_labels) only when it is strictly better, so
 * out->labels always holds the best labelling this node found below the incumbent.
 */
#ifndef CKM_IPC_H
#define CKM_IPC_H

#include "algo.h"
#include "sdp.h"

typedef struct ckm_ipc_opts {
    int cut_rounds;              /* cutting-plane rounds after the first solve */
    double incumbent;            /* best SSE known (INFINITY: none) */
    double gap;                  /* relative optimality tolerance, e.g. 1e-4 */
    bool heuristic_first;        /* IPC-k-means right after the first solve (root); else
                                    only after the rounds, when the node survives them */
    const double *centers;       /* k*d: run the BLPKM iteration from these centers first
                                    (its first exact assignment is the node's feasibility
                                    check: an infeasible MILP proves the node empty); or NULL */
    const ckm_cut_pool *inherit; /* cuts of the parent, or NULL */
    const double *warm_X;        /* s*s: start of the first solve (X units), or NULL */
    double warm_sigma;
    bool keep_sdp;               /* hand the relaxation to the caller (branching, export) */
    bool hopeless_stop;          /* a solve may stop once its bound cannot reach the incumbent
                                    (ckm_sdp_params.hopeless_window; exact's children) */
    int sdp_threads;             /* threads the SDP's projection may use (ckm_sdp_params.threads;
                                    0 or 1: one) */
    bool bound_only;             /* the bound alone (certify.c): no IPC-k-means, no BLPKM
                                    iteration, no LP model; needs k >= 2 and s > k; opts.incumbent
                                    (an upper bound known elsewhere) still stops the SDP at it */
    bool progress;               /* report a BOUND progress event after each SDP solve (the
                                    ipc algorithm; not exact's nodes or certify's subsets,
                                    whose callers report their own) */
} ckm_ipc_opts;

typedef struct ckm_ipc_stats {
    int rounds;                  /* cutting-plane rounds */
    size_t cuts_added, inherited;
    int last_iterations;         /* ADMM iterations of the last solve */
    int converged, pruned;       /* last solve: converged; stopped at the incumbent */
    size_t lp_steps, mip_steps;
    bool stopped;                /* deadline / stop request met (status in out->status) */
    double best_sse;             /* min(incumbent, the best found here) */
} ckm_ipc_stats;

/* Bound and heuristics on r. out->lower_bound = the best safe bound (or the SSE of the only
 * partition when k = 1 or s = k); out->status: INFEASIBLE (proven, message set),
 * OPTIMAL (best_sse within gap of the bound), FEASIBLE, or the stop reason.
 * *sdp (when keep_sdp and the relaxation was built) is the caller's to free. */
ckm_error ckm_ipc_node(const ckm_context *ctx, const ckm_reduced *r, const ckm_ipc_opts *o, ckm_algo_out *out,
                       ckm_ipc_stats *st, ckm_sdp **sdp, ckm_err *err);

/* The pool's crowding test (certify's subsets, whose pool may grow): a round is crowded when its
 * pool is full (active >= cap) and the separation turned away at least as many violated rows as
 * it let in (turned_away >= added); *streak counts such rounds in a row (reset by any other
 * round; the caller resets it when the pool grows). True, grow the pool, once `patience`
 * rounds in a row were crowded and the node's time left is at least `rounds_left` rounds of
 * the last one's length (round_s). */
bool ckm_ipc_pool_crowded(size_t active, size_t cap, size_t turned_away, size_t added, int *streak, int patience,
                          double time_left, double rounds_left, double round_s);

/* The memory of one node (ckm_bytes_ipc; exact.c runs T at once): the SDP relaxation, nine
 * s x s matrices, a tenth while a round separates cuts, plus the eigensolver's work: ~120 s^2;
 * plus the BLPKM iteration's LP model. threads: unused (one relaxation). */
double ckm_bytes_ipc(const ckm_reduced *r, int threads);

#endif
