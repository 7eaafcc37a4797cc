/*
 * blp_lloyd.h -- the BLPKM_CC iteration and its one LP/MILP assignment step, solved to
 * optimality, for Lloyd-type algorithms (internal).
 */
#ifndef CKM_BLP_LLOYD_H
#define CKM_BLP_LLOYD_H

#include "assign.h"
#include "reduced.h"
#include "run.h"

/* cost (s*k) of each group in each cluster: w_t ||m_t - c_j||^2 (sqeuclidean) or
 * sum_{i in S_t} ||x_i - c_j|| (euclidean). */
void ckm_group_costs(const ckm_reduced *r, ckm_distance dist, const double *C, double *cost);

typedef enum ckm_step {
    CKM_STEP_OK,         /* labels written (optimal, or feasible at the time limit: see ar) */
    CKM_STEP_STOP,       /* time limit before any labelling */
    CKM_STEP_INFEASIBLE  /* proven: out->status and out->message are set */
} ckm_step;

/* Solve the step with the run's remaining time; start = feasible labels for the MIP
 * start, or NULL. */
ckm_error ckm_blp_step(const ckm_context *ctx, ckm_assign *asg, const double *cost, const int32_t *start,
                         int32_t *labels, ckm_assign_result *ar, ckm_step *step, ckm_algo_out *out,
                         ckm_err *err);

/* The same step with the costs of the centers C (k*d) computed where needed, no s x k
 * matrix (ckm_assign_solve_centers: asg->centers, squared distances). */
ckm_error ckm_blp_step_centers(const ckm_context *ctx, ckm_assign *asg, const double *C, const int32_t *start,
                               int32_t *labels, ckm_assign_result *ar, ckm_step *step, ckm_algo_out *out,
                               ckm_err *err);

/* The BLPKM_CC iteration from the centers in job->C (k*d): cost -> assignment step on
 * job->asg's route (warm-started from the kept labels; on the local route, 1-opt local search
 * from them) -> means of the new labels,
 * until the assignment total does not strictly decrease (the previous labels are kept) or
 * job->max_iter iterations. job->kept (s) receives the best labels (valid when st->have),
 * job->C their means. Logs at verbosity 2 as "NAME restart R iter I". */
typedef struct ckm_lloyd_stats {
    int iterations;
    bool have;          /* kept holds a feasible labelling */
    bool stopped;       /* time limit / interrupt: why says which */
    bool infeasible;    /* proven: out->status and out->message are set */
    ckm_status why;
    size_t steps;               /* assignment steps taken (on job->asg's route) */
    size_t lp_steps, mip_steps; /* steps solved by an integral LP vertex / that ran CBC */
    size_t proven_steps;        /* steps proven optimal for the whole model */
    size_t route_steps[CKM_ROUTES_MAX], route_proven[CKM_ROUTES_MAX]; /* the same per route that
                                   solved them (ckm_route_index; a route may hand a step on) */
    double cut_gap;     /* the largest (objective - bound) / |bound| of the cut steps with a bound,
                           or -1: none (their certified step gap) */
    size_t cut_steps;   /* ended by settings.step_limit_s: not proven optimal (a route that
                           proves nothing, local search, is counted in route_steps) */
} ckm_lloyd_stats;

typedef struct ckm_blp_job {
    ckm_assign *asg;     /* the step's route and state (ckm_assign_init on r) */
    ckm_distance dist;   /* the assignment costs' distance */
    int max_iter;
    const char *name;    /* log lines: "NAME restart rs+1 iter I" */
    int rs;
    double *C;           /* k*d: in the start, out the means of kept */
    int32_t *kept;       /* s: out, the best labels */
    double *wsum, *cost; /* scratch: k, s*k; cost NULL: the steps take the centers instead
                            (ckm_assign_solve_centers: asg->centers, squared distances) */
    int32_t *cur;        /* scratch: s */
} ckm_blp_job;

ckm_error ckm_blp_lloyd(const ckm_context *ctx, const ckm_reduced *r, const ckm_blp_job *job, ckm_lloyd_stats *st,
                        ckm_algo_out *out, ckm_err *err);

#endif
