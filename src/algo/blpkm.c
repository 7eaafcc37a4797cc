/*
 * blpkm.c -- BLPKM_CC (Baumann 2020): k-means whose assignment step is the exact binary
 * linear program of assign.h, so must-links, cannot-links and size bounds hold in every
 * iteration.
 *   init     k distinct random data points (as published), or k-means++ on must-link
 *            groups (settings.init = KMEANSPP, and the default with soft pairs: PCCC's
 *            start; on its noisy protocol the same ARI as random points in 0.56-0.66x the
 *            time, bench/README.md "PCCC"); with bounds that differ between clusters
 *            the centers are then matched to the size slots (ckm_order_centers_by_size)
 *   repeat   cost_tj = w_t ||m_t - c_j||^2 (sqeuclidean; = sum_{i in S_t} ||x_i - c_j||^2
 *            up to a constant) or sum_{i in S_t} ||x_i - c_j|| (euclidean, the author's code)
 *            (labels, total) = exact assignment, warm-started from the previous labels
 *            stop as soon as total does not strictly decrease (the labels of the previous
 *            iteration are kept), or after max_iter (default: its row in registry.c) iterations
 *            c_j = mean of the points of cluster j (an empty cluster, possible only with
 *            lo_j = 0, keeps its center)
 *   restarts n_init, seeded (seed, r); the lowest SSE of the kept labels wins.
 * The assignment rows do not depend on the centers: if the first assignment model is
 * infeasible, the clustering problem is (status infeasible, proved by CLP/CBC).
 * Soft pairs (PCCC, Baumann & Hochbaum 2024; docs/soft.md): the assignment model gains a
 * slack per soft pair (assign.h) and the iteration minimises SSE + P sum c [violated]; the
 * center step leaves the penalty unchanged and cannot raise the SSE part, so the total
 * still decreases monotonically, and restarts are compared on it. A step may stop at
 * settings.step_limit_s with CBC's best labels; a model too large to build gets 1-opt
 * local-search steps instead (the local route, src/assign/route_local.c).
 * Capacities (docs/capacities.md): the assignment model gains the rows
 * cap_lo_j <= sum_t Q_t y_tj <= cap_hi_j (a generalized assignment problem: the LP is rarely
 * integral; reduced-cost fixing and CBC prove each step, src/assign/fix.c); a step past
 * settings.step_limit_s uses CBC's best labels, as with soft pairs.
 * The step's route (full model, restricted model, prices, local search) is the assignment
 * step's chooser's (src/assign/choose.c).
 */
#include "algo.h"
#include "assign.h"
#include "model.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct blpkm_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    ckm_assign *asg;
    ckm_seeder seeder;
    ckm_init init;
    double *C, *wsum, *cost;
    int32_t *cur, *kept;
    size_t steps, lp_steps, mip_steps, proven_steps, cut_steps;
    size_t route_steps[CKM_ROUTES_MAX], route_proven[CKM_ROUTES_MAX]; /* by the route that solved them */
    double cut_gap; /* the largest certified gap of a cut step (-1: none known) */
} blpkm_run;

/* One restart: seeds (matched to the size slots), the BLPKM iteration, its labels. */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    blpkm_run *b = self;
    const ckm_context *ctx = b->ctx;
    ckm_seed_start(ctx, &b->seeder, b->init, &rt->rng, b->C);
    ckm_error rc;
    if (!ctx->init_centers && (rc = ckm_order_centers_by_size(b->r, b->C, err)) != CKM_OK)
        return rc;
    ckm_lloyd_stats st;
    ckm_blp_job job = {.asg = b->asg, .dist = ctx->s->distance, .max_iter = ctx->max_iter, .name = "blpkm",
                       .rs = rt->rs, .C = b->C, .kept = b->kept, .wsum = b->wsum, .cost = b->cost, .cur = b->cur};
    rc = ckm_blp_lloyd(ctx, b->r, &job, &st, out, err);
    if (rc != CKM_OK)
        return rc;
    b->steps += st.steps;
    b->lp_steps += st.lp_steps;
    b->mip_steps += st.mip_steps;
    b->proven_steps += st.proven_steps;
    for (size_t i = 0; i < CKM_ROUTES_MAX; i++) {
        b->route_steps[i] += st.route_steps[i];
        b->route_proven[i] += st.route_proven[i];
    }
    b->cut_steps += st.cut_steps;
    b->cut_gap = fmax(b->cut_gap, st.cut_gap);
    rt->end = st.infeasible;
    rt->stopped = st.stopped;
    rt->why = st.why;
    if (st.have && !st.infeasible) {
        rt->labels = b->kept;
        rt->objective = ckm_group_sse(b->r, b->kept, b->C, b->wsum) + ckm_soft_cost(b->r, b->kept);
        rt->iterations = st.iterations;
    }
    return CKM_OK;
}

/* What blpkm needs of the assignment steps: costs from the centers only for squared
 * distances. */
static ckm_assign_want want(ckm_distance dist)
{
    ckm_assign_want w = {.route = NULL, .lp = false, .centers = dist == CKM_DISTANCE_SQEUCLIDEAN};
    return w;
}

/* The run's summary in out->message (after: "time limit after " or ""): how the steps were
 * solved, by each route that solved some (a route may hand a step on: split), what a route
 * says of its own, the steps the step limit cut. */
static void summary(const blpkm_run *b, const char *after, ckm_algo_out *out)
{
    size_t len = sizeof out->message, n_routes;
    const ckm_route *const *routes = ckm_routes(&n_routes);
    int used = snprintf(out->message, len, "%s%d restart%s", after, out->restarts, out->restarts == 1 ? "" : "s");
    bool solver_said = false, proving = false;
    for (size_t i = 0; i < n_routes && used > 0 && (size_t)used < len; i++) {
        const ckm_route *route = routes[i];
        size_t steps = b->route_steps[i], told = route->summary_proven ? b->route_proven[i] : steps;
        if (steps == 0)
            continue;
        proving = proving || route->proves;
        if (!route->proves)
            used += snprintf(out->message + used, len - (size_t)used,
                             "; %zu assignment steps by local search (the model, %.3g nonzeros, is too large for "
                             "CLP/CBC): not proven optimal",
                             steps, ckm_model_full_nnz(b->r));
        else if (!route->step_text && !solver_said) { /* the CLP/CBC routes' steps together */
            used += snprintf(out->message + used, len - (size_t)used,
                             "; %zu assignment step%s had an integral LP, %zu needed CBC", b->lp_steps,
                             b->lp_steps == 1 ? "" : "s", b->mip_steps);
            solver_said = true;
        }
        if (route->proves && route->summary && told > 0 && used > 0 && (size_t)used < len)
            used += snprintf(out->message + used, len - (size_t)used, "; %zu %s", told, route->summary);
    }
    if (proving && b->cut_steps > 0 && used > 0 && (size_t)used < len)
        used += snprintf(out->message + used, len - (size_t)used,
                         "; %zu stopped at the step limit of %g s (--step-limit; the best labels found by then, not "
                         "proven optimal)",
                         b->cut_steps, b->ctx->s->step_limit_s);
    if (proving && b->cut_steps > 0 && b->cut_gap >= 0.0 && used > 0 && (size_t)used < len)
        snprintf(out->message + used, len - (size_t)used, ", each within %.3g %% of its step's certified bound",
                 100.0 * b->cut_gap);
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    out->lower_bound = -INFINITY;
    ckm_assign asg;
    memset(&asg, 0, sizeof asg);
    blpkm_run b = {.ctx = ctx, .r = r, .asg = &asg, .cut_gap = -1.0,
                   .init = set->init == CKM_INIT_KMEANSPP || (set->init == CKM_INIT_DEFAULT && r->n_soft > 0)
                               ? CKM_INIT_KMEANSPP
                               : CKM_INIT_RANDOM};
    ckm_assign_want w = want(set->distance);
    ckm_error rc = ckm_assign_init(&asg, r, &w, err);
    if (rc != CKM_OK)
        goto done;
    b.C = ckm_alloc_array(k * d, sizeof(double));
    b.wsum = ckm_alloc_array(k, sizeof(double));
    b.cost = asg.centers ? NULL : ckm_alloc_array(s * k, sizeof(double));
    b.cur = ckm_alloc_array(s, sizeof(int32_t));
    b.kept = ckm_alloc_array(s, sizeof(int32_t));
    if (!b.C || !b.wsum || (!asg.centers && !b.cost) || !b.cur || !b.kept) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "blpkm: out of memory");
        goto done;
    }
    if ((rc = ckm_seeder_init(&b.seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    if (asg.centers)
        ckm_ctx_log(ctx, 2, "blpkm: %zu groups x %zu clusters: the steps' costs come from the centers (no s x k cost "
                            "matrix)",
                    s, k);
    ckm_ctx_log(ctx, 1, "blpkm: assignment steps on the %s route%s", asg.route->name,
                asg.route->proves ? "" : " (the model is too large to build: local search, not proven optimal)");
    ckm_status why;
    out->status = CKM_STATUS_FEASIBLE;
    if ((rc = ckm_run_restarts(ctx, "blpkm", s, restart, &b, out, &why, err)) != CKM_OK ||
        out->status == CKM_STATUS_INFEASIBLE)
        goto done;
    bool stopped = why != CKM_STATUS_FEASIBLE;
    summary(&b, stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit after " : "interrupted after ") : "", out);
done:
    ckm_assign_free(&asg);
    ckm_seeder_free(&b.seeder);
    free(b.C);
    free(b.wsum);
    free(b.cost);
    free(b.cur);
    free(b.kept);
    return rc;
}

/* the assignment steps' memory (src/assign's memory model: the chosen route's, with the costs
 * from the centers when it takes them) */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)threads;
    ckm_assign_want w = want(dist);
    return ckm_assign_bytes(r, &w);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_blpkm = {
    .info = {.name = "blpkm",
             .summary = "BLPKM_CC (Baumann 2020): k-means with an exact binary-LP assignment step (CLP, then CBC); "
                        "with soft pairs PCCC's model (Baumann & Hochbaum 2024)",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                         CKM_HONOURS_EUCLIDEAN | CKM_HONOURS_SOFT_PAIRS | CKM_HONOURS_CAPACITIES,
             .proves_optimality = 0,
             .default_max_iter = 100,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
