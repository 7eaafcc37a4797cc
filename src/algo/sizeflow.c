/*
 * sizeflow.c -- size-constrained k-means (Bradley, Bennett & Demiriz 2000).
 *   init     greedy k-means++ (or random points with init = random); with bounds that
 *            differ between clusters, centers matched to the size slots (centers.h)
 *   repeat   assignment: min sum_i ||x_i - c_l(i)||^2 s.t. lo_j <= |C_j| <= hi_j, an exact
 *            transportation problem (transport.c), warm-started from the previous
 *            iteration's cluster prices; c_j = mean of cluster j (an empty cluster, possible
 *            only with lo_j = 0, keeps its center); until no label changes, the centers
 *            move by sum_j ||c_j - c_j'||^2 <= tol * mean feature variance (k-means'
 *            rule, scikit-learn's and k-means-constrained's), or max_iter (default: its row in registry.c)
 *   restarts n_init, seeded (seed, r); the lowest SSE wins.
 * Invariant: no allocation of size n, k^2 or n k inside the Lloyd loop. The buffers are
 * sized once per run (the transportation route's matrix, candidate lists and solver
 * workspace live in one ckm_transport_cache; the MILP route's model in asg); only the
 * member lists may grow, and candidate lists that must widen (test_transport: alloc_case).
 * With must-links the groups have weights > 1 and the assignment is no longer a
 * transportation problem (it is NP-hard in general: bin packing); those steps go to the
 * exact LP/MILP model of assign.h (CLP, then CBC), and the result message says so.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "objective.h"
#include "seeding.h"
#include "transport.h"
#include "transport_points.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sizeflow_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    bool weighted;                /* must-links: the LP/MILP route */
    ckm_assign asg;               /* the MILP route's model */
    ckm_transport_cache *cache;   /* the transportation route's candidates, kept between steps */
    ckm_seeder seeder;
    ckm_init init;
    double tol;                   /* center-shift tolerance (ckm_shift_tol) */
    double *C, *wsum, *cost, *price, *C0;
    int32_t *lab, *prev;
    size_t steps;
    double assign_s;
} sizeflow_run;

/* One assignment step to the centers C: lab from the transportation solver (from the points)
 * or the LP/MILP model (from the stored costs). *done: the restart ends here (a stop:
 * rt->stopped; a proven infeasibility: rt->end). */
static ckm_error step(sizeflow_run *f, ckm_restart *rt, bool have, int it, ckm_algo_out *out, bool *done,
                      ckm_err *err)
{
    const ckm_context *ctx = f->ctx;
    const ckm_reduced *r = f->r;
    size_t s = r->s, d = r->d, k = r->k;
    ckm_error rc;
    *done = false;
    if (!f->weighted) {
        int infeasible = 0;
        ckm_transport_stats ts;
        ckm_ctx_count(ctx, CKM_COUNT_TRANSPORT, 1);
        ckm_bk_limits lim = {ctx->deadline, ctx->s->should_stop, ctx->s->stop_user};
        ckm_transport_points_problem pp = {r->mean, s, d, f->C, k, r->lo, r->hi};
        ckm_transport_points_opts o = ckm_transport_points_defaults();
        o.threads = ctx->s->threads;
        o.lim = &lim;
        o.cache = f->cache;
        rc = ckm_transport_points(&pp, &o, f->price, f->lab, &infeasible, &ts, err);
        ckm_ctx_count(ctx, CKM_COUNT_NUMERIC, rc == CKM_OK ? ts.clamped : 0);
        if (rc != CKM_OK)
            return rc;
        if (infeasible) {
            out->status = CKM_STATUS_INFEASIBLE;
            snprintf(out->message, sizeof out->message, "size bounds cannot be met");
            rt->end = *done = true;
            return CKM_OK;
        }
        if (ts.stopped) { /* mid-solve: this step's labels are unusable, the last ones stand */
            rt->why = ckm_now() > ctx->deadline ? CKM_STATUS_TIME_LIMIT : CKM_STATUS_INTERRUPTED;
            rt->stopped = *done = true;
            return CKM_OK;
        }
        ckm_ctx_log(ctx, 2, "sizeflow restart %d iter %d: transportation %.3f s, %zu augmentations in %zu searches, "
                    "%zu moves, %zu pricing rounds (%.2f passes' worth of rows, %.2f checks' worth kept by their "
                    "margins), %zu auction bids%s%s", rt->rs + 1, it + 1, ts.seconds, ts.augmentations, ts.searches,
                    ts.moves, ts.passes, (double)ts.rows_priced / (double)s, (double)ts.vouched / (double)s, ts.bids,
                    ts.reauctions ? " (some after an SSP round)" : "",
                    ts.widened ? ", candidate lists widened" : ts.rebased ? ", bounds moved to one epoch" : "");
        return CKM_OK;
    }
    ckm_assign_result ar;
    ckm_step st;
    const int32_t *start = have ? f->prev : NULL;
    if (f->cost)
        ckm_group_costs(r, CKM_DISTANCE_SQEUCLIDEAN, f->C, f->cost);
    rc = f->cost ? ckm_blp_step(ctx, &f->asg, f->cost, start, f->lab, &ar, &st, out, err)
                 : ckm_blp_step_centers(ctx, &f->asg, f->C, start, f->lab, &ar, &st, out, err);
    if (rc != CKM_OK)
        return rc;
    if (st == CKM_STEP_OK) {
        char how[240];
        ckm_assign_describe(&ar, r, how, sizeof how);
        ckm_ctx_log(ctx, 2, "sizeflow restart %d iter %d: assignment total %.10g (%s, %s route, %.3f s%s)", rt->rs + 1,
                    it + 1, ar.objective, ar.used_mip ? "CBC" : "LP integral", ar.route->name, ar.seconds, how);
    }
    if (st == CKM_STEP_INFEASIBLE) {
        rt->end = *done = true;
    } else if (st == CKM_STEP_STOP) {
        rt->why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
        rt->stopped = *done = true;
    }
    return CKM_OK;
}

/* The step's objective against the centers it assigned to: the groups' own scatter plus
 * sum_t mass_t ||mean_t - c_lab(t)||^2 (for progress events only; O(s d)). */
static double step_cost(const ckm_reduced *r, const int32_t *lab, const double *C)
{
    double f = r->scatter;
    for (size_t t = 0; t < r->s; t++)
        f += r->mass[t] * ckm_sqdist(r->mean + t * r->d, C + (size_t)lab[t] * r->d, r->d);
    return f;
}

/* One restart: seeds matched to the size slots, then Lloyd with the exact sized step until
 * no label changes, the centers move by at most tol, or max_iter steps. */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    sizeflow_run *f = self;
    const ckm_context *ctx = f->ctx;
    const ckm_reduced *r = f->r;
    size_t s = r->s, d = r->d, k = r->k;
    ckm_seed_start(ctx, &f->seeder, f->init, &rt->rng, f->C);
    ckm_error rc;
    if (!ctx->init_centers && (rc = ckm_order_centers_by_size(r, f->C, err)) != CKM_OK)
        return rc;
    memset(f->price, 0, k * sizeof(double));
    bool have = false;
    int taken = 0; /* completed steps of this restart (a stopped one does not count) */
    for (int it = 0; it < ctx->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &rt->why)) {
            rt->stopped = true;
            break;
        }
        double t0 = ckm_now();
        bool done;
        if ((rc = step(f, rt, have, it, out, &done, err)) != CKM_OK || rt->end)
            return rc;
        if (done)
            break;
        f->steps++;
        taken++;
        f->assign_s += ckm_now() - t0;
        if (ckm_ctx_progress_wanted(ctx))
            ckm_ctx_progress(ctx, (ckm_progress){.kind = CKM_PROGRESS_STEP, .restart = rt->rs, .iteration = it + 1,
                                                 .objective = step_cost(r, f->lab, f->C), .incumbent = NAN,
                                                 .lower_bound = -INFINITY, .done = (size_t)rt->rs,
                                                 .total = (size_t)ctx->s->n_init});
        bool same = have && memcmp(f->lab, f->prev, s * sizeof(int32_t)) == 0;
        memcpy(f->prev, f->lab, s * sizeof(int32_t));
        have = true;
        memcpy(f->C0, f->C, k * d * sizeof(double));
        ckm_group_means(r, f->lab, f->C, f->wsum);
        double shift = 0.0;
        for (size_t j = 0; j < k; j++)
            shift += ckm_sqdist(f->C + j * d, f->C0 + j * d, d);
        ckm_ctx_log(ctx, 2, "sizeflow restart %d iter %d: assignment %.3f s, center shift %.3g (tolerance %.3g)",
                    rt->rs + 1, it + 1, ckm_now() - t0, shift, f->tol);
        if (same || shift <= f->tol)
            break;
    }
    if (have) {
        rt->labels = f->prev;
        rt->objective = ckm_group_sse(r, f->prev, f->C, f->wsum);
        rt->iterations = taken;
    }
    return CKM_OK;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    out->lower_bound = -INFINITY;
    sizeflow_run f = {.ctx = ctx,
                      .r = r,
                      .weighted = s < r->n,
                      .init = set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP};
    size_t sk;
    f.C = ckm_alloc_array(k * d, sizeof(double));
    f.wsum = ckm_alloc_array(k, sizeof(double));
    /* the s x k costs are stored only for the MILP route below sizeflow's matrix limit; the
       transportation route prices from the points (transport_points.c: no n x k matrix once
       n k > 2^28 or k^3 > 5 n), and so does the MILP route past n k > 2^28
       (ckm_assign_by_centers) */
    ckm_assign_want want = {.route = NULL, .lp = false, .centers = true};
    bool centers = f.weighted && ckm_assign_by_centers(r, &want);
    f.cost = !f.weighted || centers ? NULL : ckm_mul_ok(s, k, &sk) ? ckm_alloc_array(sk, sizeof(double)) : NULL;
    f.price = ckm_alloc_array(k, sizeof(double));
    f.C0 = ckm_alloc_array(k * d, sizeof(double));
    f.cache = f.weighted ? NULL : ckm_transport_cache_new();
    f.lab = ckm_alloc_array(s, sizeof(int32_t));
    f.prev = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!f.C || !f.wsum || (f.weighted && !centers && !f.cost) || (!f.weighted && !f.cache) || !f.price || !f.C0 || !f.lab ||
        !f.prev) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for the %zu x %zu cost matrix", s, k);
        goto done;
    }
    if ((rc = ckm_seeder_init(&f.seeder, r, set->threads, err)) != CKM_OK ||
        (rc = ckm_shift_tol(r, set->tol, &f.tol, err)) != CKM_OK)
        goto done;
    if (f.weighted && (rc = ckm_assign_init(&f.asg, r, &want, err)) != CKM_OK)
        goto done;
    ckm_status why;
    if ((rc = ckm_run_restarts(ctx, "sizeflow", s, restart, &f, out, &why, err)) != CKM_OK ||
        out->status == CKM_STATUS_INFEASIBLE)
        goto done;
    snprintf(out->message, sizeof out->message, "%s%zu assignment steps, %.3f s in total%s",
             ckm_stop_prefix(why),
             f.steps, f.assign_s,
             f.weighted ? "; must-links present: groups weigh > 1, so assignments were solved by the LP/MILP "
                          "model (CLP/CBC) instead of the transportation solver"
                        : "");
done:
    ckm_assign_free(&f.asg);
    ckm_seeder_free(&f.seeder);
    free(f.C);
    free(f.wsum);
    free(f.cost);
    free(f.price);
    free(f.C0);
    ckm_transport_cache_free(f.cache);
    free(f.lab);
    free(f.prev);
    return rc;
}

/* With must-links the LP/MILP route with the stored costs (8 s k + the model; past the matrix
 * limit the model's costs from the centers, ckm_assign_by_centers); else the
 * transportation route: the s x k cost matrix 8 s k on its matrix route (s k <= 2^28 and
 * k^3 <= 5 s, ckm_transport_points_matrix), with the costs of
 * every 8th row (s k) and that sample's own move lists (its starting prices; kept, like the
 * matrix, from one Lloyd step to the next), else (12 C + 38) s of candidate arcs (C = 16, at
 * k > 256 32: the first call's lists, transport_points.c: cold_width) and their
 * bounds plus the centers and prices of up to 32 epochs and their movers, 256 k (d + 1) + 32 k
 * (transport_points.c); the solver's move lists
 * k^2 (12 L + 25) (L = ckm_transport_list_len), 16 s of member lists, the auction's 20 s. */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    (void)threads;
    double d = (double)r->d, k = (double)r->k, s = (double)r->s;
    ckm_assign_want want = {.route = NULL, .lp = false, .centers = true};
    if (r->s < r->n)
        return (ckm_assign_by_centers(r, &want) ? 0.0 : 8.0 * s * k) + ckm_assign_bytes(r, &want);
    ckm_transport_points_opts o = ckm_transport_points_defaults();
    bool matrix = ckm_transport_points_matrix(r->s, r->k, &o);
    double L = (double)ckm_transport_list_len(r->k, !matrix), C = k <= 256.0 ? 16.0 : 32.0;
    double arcs = matrix ? 9.0 * s * k + k * k * (12.0 * L + 25.0) + 2.0 * s
                         : (12.0 * C + 38.0) * s + 256.0 * k * (d + 1.0) + 32.0 * k;
    return arcs + k * k * (12.0 * L + 25.0) + 16.0 * s + 20.0 * s;
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_sizeflow = {
    .info = {.name = "sizeflow",
             .summary = "size-constrained k-means (Bradley et al. 2000): exact transportation assignment; must-links via "
                        "CLP/CBC",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_SIZE_BOUNDS,
             .proves_optimality = 0,
             .default_max_iter = 300,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
