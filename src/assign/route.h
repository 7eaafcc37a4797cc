/*
 * route.h -- the contract every route of the assignment step implements (types only; the
 * chooser, choose.c, lists the routes, and assign.h is what callers use).
 * The step: given costs cost_tj of putting group t in cluster j, find labels minimising
 *   sum_t cost_{t, l(t)} + P sum_e |w_e| [soft pair e violated]
 * subject to every hard row of the reduced problem: one cluster per group, size bounds,
 * cannot-links and capacities (model.h writes them). A route is one way of solving that
 * program -- the full model, a restricted column set with a pricing proof, Lagrangian prices,
 * local search -- behind the same four calls. Every route fills the same result: status and
 * objective of its labels, the bound it proved when it has one, its solver counters, and its
 * own statistics in stat[] (their meaning in the route's header, their log text by describe).
 */
#ifndef CKM_ASSIGN_ROUTE_H
#define CKM_ASSIGN_ROUTE_H

#include "backend.h"
#include "core.h"
#include "reduced.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A step's costs: the s x k matrix, or (routes with by_centers only) the centers C (k x d)
 * from which cost_tj = W_t ||m_t - c_j||^2 is computed where needed, never stored; and the
 * seconds its proof may take. */
typedef struct ckm_step_costs {
    const double *cost; /* s * k, or NULL: from C */
    const double *C;    /* k * d when cost is NULL */
    int threads;        /* worker threads for work on the costs from C */
    double budget_s;    /* > 0: once the route holds a feasible labelling (its incumbent, or
                           the caller's), the proof -- CBC, the fixing's rounds -- may take
                           this many seconds more before the best labelling is returned
                           unproven (settings.step_limit_s); finding the first labelling and
                           the bound is held only to the run's limits. 0: no budget */
} ckm_step_costs;

/* The limits of a step's proof: the run's, with the deadline brought forward to budget_s
 * from now when there is a budget and the route holds a feasible labelling (holding); without
 * one, finding it is held only to the run's limits. */
static inline ckm_bk_limits ckm_proof_limits(const ckm_bk_limits *run, double budget_s, bool holding)
{
    ckm_bk_limits l = *run;
    if (holding && budget_s > 0.0 && ckm_now() + budget_s < l.deadline)
        l.deadline = ckm_now() + budget_s;
    return l;
}

#define CKM_ROUTE_STATS 10

typedef struct ckm_assign_result {
    ckm_bk_status status; /* OPTIMAL (proven for the whole model), INFEASIBLE (proven), LIMIT_FEASIBLE
                             (labels, not proven), LIMIT_NONE, FAILED */
    double objective;     /* the step's objective of the returned labels (costs + soft penalty) */
    int has_bound;        /* bound is a lower bound on the step's optimum */
    double bound;         /* the LP's value (full, restricted) or the prices' g (priced) */
    int used_mip;         /* CBC ran */
    int stopped;          /* the stop request ended a solver early */
    int cut;              /* the step's own budget (not the run's limit or a stop) ended it, or the
                             route proves nothing (local search): labels feasible, not proven */
    int lp_solves;        /* LP relaxations solved (CLP) */
    long mip_nodes;       /* CBC branch-and-bound nodes */
    size_t local_moves;   /* moves and swaps of local search on the step's labels */
    double seconds;
    const struct ckm_route *route; /* the route that solved the step */
    int hand_on;          /* set by a route with hands_on: it did not solve the step, the next
                             route does (assign.c); hand_on_labels: its labels keep every hard
                             row and start that route */
    int hand_on_labels;
    size_t stat[CKM_ROUTE_STATS];  /* the route's own statistics (its header says which) */
} ckm_assign_result;

typedef struct ckm_route {
    const char *name;     /* "full", "restricted", "priced", "local" */
    /* when the chooser takes it on its own: r's size and constraints (lp: the caller also
       solves LP relaxations, bckm) */
    bool (*applies)(const ckm_reduced *r, bool lp);
    /* whether it can solve r at all (a caller may force a route by name: tests, bckm) */
    bool (*takes)(const ckm_reduced *r);
    /* estimated peak bytes of its steps on r (the memory model, docs/memory.md); by_centers:
       the costs come from the centers */
    double (*bytes)(const ckm_reduced *r, bool by_centers);
    /* costs from the centers past this many s k (0: never) */
    size_t by_centers_from;
    ckm_error (*init)(void **state, const ckm_reduced *r, ckm_err *err);
    /* one step: labels (s) and res for costs c from start (feasible labels, or NULL) within
       lim (never NULL); res is zeroed and its route, seconds and objective set by the caller */
    ckm_error (*solve)(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                       const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err);
    /* the LP relaxation only (x: s k, written when *status is OPTIMAL); NULL: none */
    ckm_error (*lp)(void *state, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim, double *x,
                    ckm_bk_status *status, ckm_err *err);
    /* the step's objective of labels for the costs of the last step from centers; NULL when
       the route takes only a matrix */
    double (*total)(void *state, const ckm_reduced *r, const int32_t *labels);
    void (*free)(void *state);
    bool proves;          /* false: its labels are feasible, never proven optimal (no step limit) */
    const char *bound_name;          /* what its bound is, for the log ("LP", "prices") */
    const char *step_text;           /* how it solved a step, for the log; NULL: "CBC" or "LP
                                        integral" by res.used_mip */
    /* its statistics of res as log text (", 3396 of 159040 columns, ..."), or NULL: none */
    void (*describe)(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len);
    /* the run summary of blpkm: "N <summary>" for the steps it solved (proven ones only when
       summary_proven); NULL: nothing said */
    const char *summary;
    bool summary_proven;
    bool hands_on;        /* may leave a step to the next route in the chooser's list that
                             applies (res.hand_on; assign.c runs it, and counts its memory) */
    bool own_start;       /* improves the caller's labels itself (an exact search per part): a
                             1-opt local search of them first (blp_lloyd.c) only costs time */
} ckm_route;

/* The step's objective of group labels: sum_t cost[t, l_t] plus the soft pairs' penalty. */
static inline double ckm_step_total(const ckm_reduced *r, const double *cost, const int32_t *labels)
{
    double f = 0.0;
    for (size_t t = 0; t < r->s; t++)
        f += cost[t * r->k + (size_t)labels[t]];
    return f + ckm_soft_cost(r, labels);
}

#endif
