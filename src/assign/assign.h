/*
 * assign.h -- the assignment step of BLPKM_CC-style algorithms (internal): what its callers
 * (src/lloyd, src/algo, src/solve) use. Given costs cost_tj of putting group t in cluster j,
 * the step finds labels minimising
 *   sum_tj cost_tj y_tj + P sum_e |w_e| [soft pair e violated]
 *   s.t. sum_j y_tj = 1                      (every group in one cluster)
 *        lo_j <= sum_t w_t y_tj <= hi_j       (size bounds, in points)
 *        y_aj + y_bj <= 1   for every lifted cannot-link (a, b) and cluster j
 *        Lc_j <= sum_t Q_t y_tj <= Uc_j       (capacities: the groups' demands)
 *        y_tj in {0, 1}
 * (model.h writes these rows, and the soft pairs' (PCCC's model): for 0/1 y the least
 * feasible slack of a soft pair is 1 exactly when it is violated, so the optimum is exact).
 * One of the routes (route.h, picked by choose.c) solves it; every route proves its labels
 * optimal for the whole model or says it did not (result status). The model's rows do not
 * depend on the costs, so an infeasible step proves the clustering problem infeasible.
 */
#ifndef CKM_ASSIGN_H
#define CKM_ASSIGN_H

#include "choose.h"
#include "route.h"

typedef struct ckm_assign {
    const ckm_reduced *r;
    const ckm_route *route; /* the chooser's (or the caller's named) route */
    void *state;            /* the route's */
    const ckm_route *next;  /* the route a step is handed on to (route->hands_on), once one was */
    void *next_state;
    bool centers;           /* the steps take the centers (ckm_assign_solve_centers) */
    double budget_s;        /* seconds a step's proof may take once it holds a feasible labelling
                               (route.h, ckm_step_costs.budget_s); 0 (ckm_assign_init's): none.
                               The caller sets it (settings.step_limit_s for NP-hard steps) */
} ckm_assign;

/* The route's state for r under w (NULL: no wishes; a named route that cannot take r is
 * CKM_ERR_INVALID). Errors: out of memory, a model too large for the LP backend. */
ckm_error ckm_assign_init(ckm_assign *a, const ckm_reduced *r, const ckm_assign_want *w, ckm_err *err);
void ckm_assign_free(ckm_assign *a);

/* One step with the costs (s*k). start: a feasible labelling of the groups (CBC's start and
 * the incumbent), or NULL. labels (s) written for OPTIMAL and LIMIT_FEASIBLE; a limit that
 * left the route without labels returns start when there is one, and a limit never leaves
 * labels worse than start (start is returned instead). lim: deadline and stop
 * request (NULL = none). res: every field set (objective recomputed from the labels). */
ckm_error ckm_assign_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                           int32_t *labels, ckm_assign_result *res, ckm_err *err);
/* The same step with the costs cost_tj = mass_t ||mean_t - c_j||^2 of the centers C (k*d)
 * computed where needed, never stored as s x k (routes with a total(); a->centers says the
 * chooser wants it). threads: for work on those costs. */
ckm_error ckm_assign_solve_centers(ckm_assign *a, const double *C, int threads, const int32_t *start,
                                   const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err);
/* The LP relaxation only, with the given costs: x (s*k) written when *status is
 * CKM_BK_OPTIMAL; a deadline or stop request in lim (NULL = none) ends the simplex at its
 * next iteration with CKM_BK_LIMIT_NONE. For a->route->lp (the caller asked with want.lp). */
ckm_error ckm_assign_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x,
                        ckm_bk_status *status, ckm_err *err);

/* Estimated peak bytes of the steps on r (the chosen route's, with its costs from the centers
 * when ckm_assign_by_centers): the memory model, docs/memory.md. */
double ckm_assign_bytes(const ckm_reduced *r, const ckm_assign_want *w);
/* Whether the steps on r under w take the centers (no s x k cost matrix). */
bool ckm_assign_by_centers(const ckm_reduced *r, const ckm_assign_want *w);
/* The step as log text: its route's bound and statistics (", bound 12.5 (LP), 0.01 % above
 * it, 3 moves and swaps, ..."), empty when there are none. */
void ckm_assign_describe(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len);

#endif
