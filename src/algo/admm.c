/*
 * admm.c -- `admm`: constrained k-means by lp-box ADMM (Bibi et al., after Wu & Ghanem),
 * the restart driver around admm_iterate.c.
 *   start    a feasible labelling, as the paper's Algorithm 1 starts from a feasible point:
 *            centers seeded by greedy k-means++ and refined by unconstrained Lloyd
 *            (init = DEFAULT / KMEANSPP: "the same k-means initialisation as the other
 *            methods"), or k random data points (init = RANDOM); then one exact assignment
 *            step (CLP, then CBC) to those centers (matched to the size slots when the
 *            bounds differ between clusters, centers.h) makes it satisfy every constraint. An
 *            infeasible assignment model proves the problem infeasible.
 *   iterate  ADMM (admm_iterate.c): rho = 20, x 1.1 every 5 iterations, costs scaled to
 *            mean 1000 (below); stop when the std of the last 10 objective values
 *            <= tol * |mean| (settings.tol, default 1e-4) with primal residual <= 1e-4,
 *            or after max_iter (default: its row in registry.c) iterations.
 *   round    t -> argmax_j p_tj. When the rounded labels violate a constraint (the
 *            iteration did not reach a feasible binary point), they are repaired by one
 *            exact assignment step to the centers of the rounded labels, and the repair is
 *            counted in the message. Never is an infeasible labelling returned, nor one
 *            whose SSE is above the restart's feasible start (the start is kept then, and
 *            counted: with heavy weighted groups and exact sizes the iteration can cycle
 *            and its repaired rounding land far above the start).
 *   restarts n_init, seeded (seed, r); the lowest SSE wins.
 */
#include "admm_iterate.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The costs are scaled to mean ADMM_COST_WEIGHT at the start, i.e. 50 x the initial
 * penalty rho = 20: the first iterations follow the objective, the growing penalty
 * (x 1.1 every 5 iterations) overtakes it after about 5 ln(50) / ln(1.1) = 205
 * iterations and pulls the iterate onto a feasible binary point. The paper fixes rho but
 * not the data scale; measured on iris, glass, seeds and Le et al. (docs/formulations.md):
 * weights 1-30 leave the start almost unchanged, 100-10000 behave alike. */
#define ADMM_COST_WEIGHT 1000.0

typedef struct admm_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    ckm_admm_params par;
    ckm_assign asg;
    ckm_seeder seeder;
    ckm_admm_ws *ws;
    double *C, *wsum, *cost;
    int32_t *start, *lab;
    int repaired, converged, total_iter, kept; /* over all restarts, for the message */
} admm_run;

/* The restart's feasible start: seeds (refined by unconstrained Lloyd after k-means++,
 * matched to the size slots), then one exact assignment step to them. false: the step
 * ended the restart (a proof of infeasibility: rt->end; a stop: rt->stopped). */
static ckm_error feasible_start(admm_run *a, ckm_restart *rt, ckm_algo_out *out, bool *ok, ckm_err *err)
{
    const ckm_context *ctx = a->ctx;
    const ckm_reduced *r = a->r;
    ckm_init init = ctx->s->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP;
    ckm_seed_start(ctx, &a->seeder, init, &rt->rng, a->C);
    if (init == CKM_INIT_KMEANSPP)
        ckm_group_lloyd(r, a->C, a->wsum, a->start);
    ckm_error rc;
    if (!ctx->init_centers && (rc = ckm_order_centers_by_size(r, a->C, err)) != CKM_OK)
        return rc;
    ckm_group_costs(r, CKM_DISTANCE_SQEUCLIDEAN, a->C, a->cost);
    ckm_assign_result ar;
    ckm_step step;
    if ((rc = ckm_blp_step(ctx, &a->asg, a->cost, NULL, a->start, &ar, &step, out, err)) != CKM_OK)
        return rc;
    rt->end = step == CKM_STEP_INFEASIBLE;
    if (step == CKM_STEP_STOP) {
        rt->why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
        rt->stopped = true;
    }
    *ok = step == CKM_STEP_OK;
    return CKM_OK;
}

/* One restart: the feasible start, the ADMM iteration from it, its rounding (repaired by an
 * exact step when it breaks a constraint), never worse than the start. */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    admm_run *a = self;
    const ckm_context *ctx = a->ctx;
    const ckm_reduced *r = a->r;
    size_t s = r->s;
    bool ok;
    ckm_error rc = feasible_start(a, rt, out, &ok, err);
    if (rc != CKM_OK || !ok)
        return rc;
    double sse0 = ckm_group_sse(r, a->start, a->C, a->wsum);
    ckm_admm_info info;
    if ((rc = ckm_admm_iterate(a->ws, ctx, &a->par, a->start, a->lab, &info, NULL, NULL, err)) != CKM_OK)
        return rc;
    a->total_iter += info.iterations;
    ckm_ctx_count(ctx, CKM_COUNT_ADMM_ITER, info.iterations > 0 ? (uint64_t)info.iterations : 0);
    ckm_ctx_count(ctx, CKM_COUNT_NUMERIC, info.skipped_v > 0 ? (uint64_t)info.skipped_v : 0);
    a->converged += info.converged;
    if (info.stopped) {
        ckm_ctx_stop(ctx, &rt->why);
        rt->stopped = true;
    }
    if (!ckm_group_labels_feasible(r, a->lab, a->wsum)) {
        /* repair: exact step to the centers of the rounded labels */
        ckm_assign_result ar;
        ckm_step step;
        ckm_group_means(r, a->lab, a->C, a->wsum);
        ckm_group_costs(r, CKM_DISTANCE_SQEUCLIDEAN, a->C, a->cost);
        if ((rc = ckm_blp_step(ctx, &a->asg, a->cost, a->start, a->lab, &ar, &step, out, err)) != CKM_OK)
            return rc;
        if (step != CKM_STEP_OK) /* infeasible is impossible here: start is feasible */
            memcpy(a->lab, a->start, s * sizeof(int32_t));
        a->repaired++;
        ckm_ctx_count(ctx, CKM_COUNT_REPAIRS, 1);
    }
    ckm_ctx_log(ctx, 2, "admm restart %d: start SSE %.6g, %d iterations, %s, residual %.3g, binary gap %.3g, rho %.4g",
                rt->rs + 1, sse0, info.iterations, info.converged ? "converged" : "not converged", info.residual,
                info.binary_gap, info.rho);
    double sse = ckm_group_sse(r, a->lab, a->C, a->wsum);
    if (sse > sse0) { /* never worse than the feasible start the restart began from */
        memcpy(a->lab, a->start, s * sizeof(int32_t));
        sse = sse0;
        a->kept++;
    }
    rt->labels = a->lab;
    rt->objective = sse;
    rt->iterations = info.iterations;
    return CKM_OK;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    out->lower_bound = -INFINITY;
    admm_run a = {.ctx = ctx, .r = r, .par = {ctx->max_iter, set->tol, 20.0, 1.1, 5, ADMM_COST_WEIGHT}};
    a.C = ckm_alloc_array(k * d, sizeof(double));
    a.wsum = ckm_alloc_array(k, sizeof(double));
    a.cost = ckm_alloc_array(s * k, sizeof(double));
    a.start = ckm_alloc_array(s, sizeof(int32_t));
    a.lab = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!a.C || !a.wsum || !a.cost || !a.start || !a.lab) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
        goto done;
    }
    if ((rc = ckm_assign_init(&a.asg, r, NULL, err)) != CKM_OK ||
        (rc = ckm_seeder_init(&a.seeder, r, set->threads, err)) != CKM_OK ||
        (rc = ckm_admm_ws_init(&a.ws, r, err)) != CKM_OK)
        goto done;
    ckm_status why;
    if ((rc = ckm_run_restarts(ctx, "admm", s, restart, &a, out, &why, err)) != CKM_OK ||
        out->status == CKM_STATUS_INFEASIBLE)
        goto done;
    snprintf(out->message, sizeof out->message,
             "%s%d restart%s, %d ADMM iterations; %d converged to a binary point, %d rounded labellings "
             "violated a constraint and were repaired by the exact assignment step, %d ended above their "
             "feasible start's SSE and kept the start",
             ckm_stop_prefix(why),
             out->restarts, out->restarts == 1 ? "" : "s", a.total_iter, a.converged, a.repaired, a.kept);
done:
    ckm_admm_ws_free(a.ws);
    ckm_assign_free(&a.asg);
    ckm_seeder_free(&a.seeder);
    free(a.C);
    free(a.wsum);
    free(a.cost);
    free(a.start);
    free(a.lab);
    return rc;
}

/* about ten s x k iterates, plus the LP model of the repairs */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    (void)threads;
    return 80.0 * (double)r->s * (double)r->k + ckm_assign_bytes(r, NULL);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_admm = {
    .info = {.name = "admm",
             .summary = "lp-box ADMM (Bibi et al.): continuous reformulation, binary = box cap sphere; exact repair if "
                        "needed",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                        CKM_HONOURS_CAPACITIES,
             .proves_optimality = 0,
             .default_max_iter = 1000,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
