/*
 * blp_lloyd.c -- the BLPKM_CC iteration (Baumann 2020): Lloyd's iteration whose assignment
 * step is the binary linear program of assign.h, solved to optimality on one of its routes
 * (CLP, then CBC) on must-link groups: group costs, the remaining time of the run, and the translation of
 * the solver outcome into the run's status (ckm_blp_step), and the iteration built on it
 * (ckm_blp_lloyd). Shared by blpkm, ipc, bckm, admm, sizeflow (with must-links) and the stop
 * fallback. ("exact" names only the branch-and-cut, src/algo/exact.c.)
 */
#include "blp_lloyd.h"
#include "centers.h"
#include "soft_local.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ckm_error mip_step(const ckm_context *ctx, ckm_assign *asg, const double *cost, const double *C,
                          const int32_t *start, int32_t *labels, ckm_assign_result *ar, ckm_step *step,
                          ckm_algo_out *out, ckm_err *err);

void ckm_group_costs(const ckm_reduced *r, ckm_distance dist, const double *C, double *cost)
{
    size_t d = r->d, k = r->k;
    for (size_t t = 0; t < r->s; t++)
        for (size_t j = 0; j < k; j++) {
            double c = 0.0;
            if (dist == CKM_DISTANCE_EUCLIDEAN) {
                for (size_t q = r->member_start[t]; q < r->member_start[t + 1]; q++)
                    c += (r->w ? r->w[r->members[q]] : 1.0) * sqrt(ckm_sqdist(r->X + r->members[q] * d, C + j * d, d));
            } else {
                c = r->mass[t] * ckm_sqdist(r->mean + t * d, C + j * d, d);
            }
            cost[t * k + j] = c;
        }
}

/* how the step's route solved it, for the log */
static const char *step_text(const ckm_assign_result *ar)
{
    if (!ar->route->proves)
        return "local search";
    if (ar->route->step_text)
        return ar->route->step_text;
    return ar->used_mip ? "CBC" : "LP integral";
}

ckm_error ckm_blp_lloyd(const ckm_context *ctx, const ckm_reduced *r, const ckm_blp_job *job, ckm_lloyd_stats *st,
                        ckm_algo_out *out, ckm_err *err)
{
    size_t s = r->s;
    ckm_assign *asg = job->asg;
    double *C = job->C, *cost = job->cost;
    int32_t *cur = job->cur, *kept = job->kept;
    double best_total = INFINITY;
    memset(st, 0, sizeof *st);
    st->cut_gap = -1.0;
    st->why = CKM_STATUS_FEASIBLE;
    int it = 0;
    for (; it < job->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &st->why)) {
            st->stopped = true;
            break;
        }
        if (cost)
            ckm_group_costs(r, job->dist, C, cost);
        ckm_assign_result ar;
        ckm_step step;
        step = CKM_STEP_OK;
        const int32_t *start = st->have ? kept : NULL;
        ckm_error rc = cost ? ckm_blp_step(ctx, asg, cost, start, cur, &ar, &step, out, err)
                            : ckm_blp_step_centers(ctx, asg, C, start, cur, &ar, &step, out, err);
        if (rc != CKM_OK)
            return rc;
        st->steps++;
        st->proven_steps += ar.status == CKM_BK_OPTIMAL;
        st->route_steps[ckm_route_index(ar.route)]++;
        st->route_proven[ckm_route_index(ar.route)] += ar.status == CKM_BK_OPTIMAL;
        if (ar.used_mip)
            st->mip_steps++;
        else if (ar.status == CKM_BK_OPTIMAL && !ar.route->step_text) /* an LP stopped by a limit had no vertex */
            st->lp_steps++;
        if (step == CKM_STEP_INFEASIBLE) {
            st->infeasible = true;
            break;
        }
        if (step == CKM_STEP_STOP) {
            st->why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
            st->stopped = true;
            break;
        }
        bool improved = ar.objective < best_total;
        if (improved) {
            best_total = ar.objective;
            memcpy(kept, cur, s * sizeof(int32_t));
            st->have = true;
            ckm_group_means(r, kept, C, job->wsum);
        }
        char cols[240];
        ckm_assign_describe(&ar, r, cols, sizeof cols);
        ckm_ctx_log(ctx, 2, "%s restart %d iter %d: assignment total %.10g (%s, %.3f s%s)", job->name, job->rs + 1, it + 1,
                    ar.objective, step_text(&ar), ar.seconds,
                    cols);
        /* the step's cost in SSE units (group scatter + the groups' costs) when the distance is the SSE's */
        ckm_ctx_progress(ctx, (ckm_progress){.kind = CKM_PROGRESS_STEP, .restart = job->rs, .iteration = it + 1,
                                             .objective = job->dist == CKM_DISTANCE_SQEUCLIDEAN ? r->scatter + ar.objective
                                                                                                  : NAN,
                                             .incumbent = NAN, .lower_bound = -INFINITY, .done = (size_t)job->rs,
                                             .total = (size_t)ctx->s->n_init});
        if (ar.status == CKM_BK_LIMIT_FEASIBLE && ar.cut) {
            st->cut_steps += ar.route->proves; /* the step's own budget: its best labels, and on (a
                                                   local-search step is counted by its route) */
            if (ar.has_bound)
                st->cut_gap = fmax(st->cut_gap, (ar.objective - ar.bound) / fmax(fabs(ar.bound), 1e-300));
        } else if (ar.status == CKM_BK_LIMIT_FEASIBLE) {
            st->why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
            st->stopped = true;
            break;
        }
        if (!improved)
            break;
    }
    st->iterations = it;
    return CKM_OK;
}

ckm_error ckm_blp_step(const ckm_context *ctx, ckm_assign *asg, const double *cost, const int32_t *start,
                         int32_t *labels, ckm_assign_result *ar, ckm_step *step, ckm_algo_out *out,
                         ckm_err *err)
{
    /* with soft pairs and a step budget CBC gets a good first labelling: the given one (or a
     * trivial one, or with cannot-links or size bounds a greedy one) after 1-opt local search
     * (soft_local.c); without one, CBC on a large model may search the whole run for its first
     * (measured: 10^5 points, 7000 soft pairs, sizes 4000-6000: one step in 120 s). A route
     * with its own start takes the given labels as they are (the split route: the local
     * search was 24 % of a run with 2.7 x 10^4 pairs at 10^5 points, and its search per part
     * improves them anyway) */
    int32_t *own = NULL;
    if (asg->r->n_soft > 0 && asg->route->proves && ctx->s->step_limit_s > 0.0 && !(start && asg->route->own_start) &&
        (own = ckm_alloc_array(asg->r->s, sizeof(int32_t))) != NULL) {
        bool have = start ? (memcpy(own, start, asg->r->s * sizeof(int32_t)), true)
                          : ckm_soft_trivial_start(asg->r, cost, own) || ckm_soft_greedy_start(asg->r, cost, own);
        size_t moves;
        if (have && ckm_soft_local_search(asg->r, cost, fmin(ctx->deadline, ckm_now() + 0.5 * ctx->s->step_limit_s), own, &moves))
            start = own;
    }
    ckm_error rc = mip_step(ctx, asg, cost, NULL, start, labels, ar, step, out, err);
    free(own);
    return rc;
}

ckm_error ckm_blp_step_centers(const ckm_context *ctx, ckm_assign *asg, const double *C, const int32_t *start,
                               int32_t *labels, ckm_assign_result *ar, ckm_step *step, ckm_algo_out *out,
                               ckm_err *err)
{
    return mip_step(ctx, asg, NULL, C, start, labels, ar, step, out, err);
}

static ckm_error solve(const ckm_context *ctx, ckm_assign *asg, const double *cost, const double *C,
                       const int32_t *start, const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *ar,
                       ckm_err *err)
{
    return cost ? ckm_assign_solve(asg, cost, start, lim, labels, ar, err)
                : ckm_assign_solve_centers(asg, C, ctx->s->threads, start, lim, labels, ar, err);
}

/* The step on the costs cost (s x k), or, with cost NULL, on those of the centers C
 * (ckm_assign_solve_centers: asg->centers, squared distances). */
static ckm_error mip_step(const ckm_context *ctx, ckm_assign *asg, const double *cost, const double *C,
                          const int32_t *start, int32_t *labels, ckm_assign_result *ar, ckm_step *step,
                          ckm_algo_out *out, ckm_err *err)
{
    /* with soft pairs or capacities (NP-hard steps) a step's proof gets its own budget
     * (settings.step_limit_s): once the route holds a feasible labelling, CBC may search that
     * long before the best one is used (route.h); finding the first one and the bound are held
     * only to the run's deadline. A route that proves nothing is not held to it. */
    double budget = (asg->r->n_soft > 0 || asg->r->has_caps) && asg->route->proves ? ctx->s->step_limit_s : 0.0;
    asg->budget_s = budget;
    ckm_bk_limits lim = {ctx->deadline, ctx->s->should_stop, ctx->s->stop_user};
    ckm_error rc = solve(ctx, asg, cost, C, start, &lim, labels, ar, err);
    if (rc != CKM_OK)
        return rc;
    ar->cut = ar->cut || (budget > 0.0 && ar->status == CKM_BK_LIMIT_FEASIBLE && !ar->stopped && ckm_now() < ctx->deadline);
    ckm_ctx_count(ctx, CKM_COUNT_LP, (uint64_t)ar->lp_solves);
    ckm_ctx_count(ctx, CKM_COUNT_MIP, (uint64_t)ar->used_mip);
    ckm_ctx_count(ctx, CKM_COUNT_MIP_NODES, ar->mip_nodes > 0 ? (uint64_t)ar->mip_nodes : 0);
    *step = CKM_STEP_OK;
    if (ar->status == CKM_BK_INFEASIBLE) {
        *step = CKM_STEP_INFEASIBLE;
        out->status = CKM_STATUS_INFEASIBLE;
        snprintf(out->message, sizeof out->message,
                 "no labelling satisfies the constraints: the assignment model is infeasible (proved by %s)",
                 ar->used_mip ? "CBC" : "CLP on its LP relaxation");
    } else if (ar->status == CKM_BK_FAILED) {
        return ckm_fail(err, CKM_ERR_INTERNAL, "the LP/MILP solver failed on an assignment step");
    } else if (ar->status == CKM_BK_LIMIT_NONE) {
        *step = CKM_STEP_STOP;
    }
    return CKM_OK;
}
