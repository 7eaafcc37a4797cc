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
 * exact LP/MILP model of assign.c (CLP, then CBC), and the result message says so.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "objective.h"
#include "seeding.h"
#include "transport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ckm_error ckm_algo_sizeflow(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                            ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    int max_iter = ctx->max_iter;
    ckm_init init = set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP;
    bool weighted = s < r->n;
    out->lower_bound = -INFINITY;
    ckm_assign asg;
    ckm_seeder seeder;
    memset(&asg, 0, sizeof asg);
    memset(&seeder, 0, sizeof seeder);
    size_t sk;
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    /* the s x k costs are stored only for the MILP route; the transportation route prices
       from the points (transport_points.c: no n x k matrix once n k > 2^28) */
    double *cost = !weighted ? NULL : ckm_mul_ok(s, k, &sk) ? ckm_alloc_array(sk, sizeof(double)) : NULL;
    double *price = ckm_alloc_array(k, sizeof(double)), *C0 = ckm_alloc_array(k * d, sizeof(double));
    /* candidate clusters carried from one Lloyd step to the next (transport.h) */
    ckm_transport_cache *cache = weighted ? NULL : ckm_transport_cache_new();
    int32_t *lab = ckm_alloc_array(s, sizeof(int32_t)), *prev = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    size_t steps = 0, moves = 0;
    double assign_s = 0.0;
    if (!C || !wsum || (weighted && !cost) || (!weighted && !cache) || !price || !C0 || !lab || !prev) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for the %zu x %zu cost matrix", s, k);
        goto done;
    }
    double tol;
    if ((rc = ckm_seeder_init(&seeder, r, set->threads, err)) != CKM_OK ||
        (rc = ckm_shift_tol(r, set->tol, &tol, err)) != CKM_OK)
        goto done;
    if (weighted && (rc = ckm_assign_init(&asg, r, err)) != CKM_OK)
        goto done;
    double best_sse = INFINITY;
    ckm_status why = CKM_STATUS_FEASIBLE;
    int stopped = 0;
    out->status = CKM_STATUS_FEASIBLE;
    for (int rs = 0; rs < set->n_init && !stopped; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_start(ctx, &seeder, init, &rng, C);
        if (!ctx->init_centers && (rc = ckm_order_centers_by_size(r, C, err)) != CKM_OK)
            goto done;
        memset(price, 0, k * sizeof(double));
        bool have = false;
        int taken = 0; /* completed steps of this restart (a stopped one does not count) */
        for (int it = 0; it < max_iter; it++) {
            if (ckm_ctx_stop(ctx, &why)) {
                stopped = 1;
                break;
            }
            double t0 = ckm_now();
            if (!weighted) {
                int infeasible = 0;
                ckm_transport_stats ts;
                ckm_ctx_count(ctx, CKM_COUNT_TRANSPORT, 1);
                ckm_bk_limits lim = {ctx->deadline, set->should_stop, set->stop_user};
                rc = ckm_transport_points(r->mean, s, d, C, k, r->lo, r->hi, set->threads, &lim, cache, price, lab,
                                          &infeasible, &ts, err);
                ckm_ctx_count(ctx, CKM_COUNT_NUMERIC, rc == CKM_OK ? ts.clamped : 0);
                if (rc != CKM_OK)
                    goto done;
                if (infeasible) {
                    out->status = CKM_STATUS_INFEASIBLE;
                    snprintf(out->message, sizeof out->message, "size bounds cannot be met");
                    goto done;
                }
                if (ts.stopped) { /* mid-solve: this step's labels are unusable, the last ones stand */
                    why = ckm_now() > ctx->deadline ? CKM_STATUS_TIME_LIMIT : CKM_STATUS_INTERRUPTED;
                    stopped = 1;
                    break;
                }
                moves += ts.moves;
                ckm_ctx_log(ctx, 2, "sizeflow restart %d iter %d: transportation %.3f s, %zu augmentations, %zu moves, "
                            "%zu pricing rounds (%.2f passes' worth of rows), %zu auction bids%s", rs + 1, it + 1, ts.seconds,
                            ts.augmentations, ts.moves, ts.passes, (double)ts.rows_priced / (double)s, ts.bids,
                            ts.widened ? ", candidate lists widened" : "");
            } else {
                ckm_group_costs(r, CKM_DISTANCE_SQEUCLIDEAN, C, cost);
                ckm_assign_result ar;
                ckm_step step;
                if ((rc = ckm_blp_step(ctx, &asg, cost, have ? prev : NULL, lab, &ar, &step, out, err)) != CKM_OK)
                    goto done;
                if (step == CKM_STEP_INFEASIBLE)
                    goto done;
                if (step == CKM_STEP_STOP) {
                    why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
                    stopped = 1;
                    break;
                }
            }
            steps++;
            taken++;
            assign_s += ckm_now() - t0;
            bool same = have && memcmp(lab, prev, s * sizeof(int32_t)) == 0;
            memcpy(prev, lab, s * sizeof(int32_t));
            have = true;
            memcpy(C0, C, k * d * sizeof(double));
            ckm_group_means(r, lab, C, wsum);
            double shift = 0.0;
            for (size_t j = 0; j < k; j++)
                shift += ckm_sqdist(C + j * d, C0 + j * d, d);
            ckm_ctx_log(ctx, 2, "sizeflow restart %d iter %d: assignment %.3f s, center shift %.3g (tolerance %.3g)",
                        rs + 1, it + 1, ckm_now() - t0, shift, tol);
            if (same || shift <= tol)
                break;
        }
        if (!have)
            continue;
        double sse = ckm_group_sse(r, prev, C, wsum);
        ckm_restart_done(ctx, "sizeflow", rs, prev, s, sse, taken, &best_sse, out);
    }
    if (stopped)
        out->status = why;
    snprintf(out->message, sizeof out->message, "%s%zu assignment steps, %.3f s in total%s",
             stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit; " : "interrupted; ") : "", steps, assign_s,
             weighted ? "; must-links present: groups weigh > 1, so assignments were solved by the LP/MILP "
                        "model (CLP/CBC) instead of the transportation solver"
                      : "");
    (void)moves;
done:
    ckm_assign_free(&asg);
    ckm_seeder_free(&seeder);
    free(C);
    free(wsum);
    free(cost);
    free(price);
    free(C0);
    ckm_transport_cache_free(cache);
    free(lab);
    free(prev);
    return rc;
}

/* With must-links the LP/MILP route with the stored costs (8 s k + the model); else the
 * transportation route: the s x k cost matrix 8 s k while s k <= 2^28, with the costs of
 * every 8th row (s k) and that sample's own move lists (its starting prices; kept, like the
 * matrix, from one Lloyd step to the next), else (12 C + 22) s of candidate arcs and their
 * bounds plus the epochs' centers and prices (transport_points.c); the solver's move lists
 * k^2 (12 L + 25) (L = ckm_transport_list_len), 16 s of member lists, the auction's 20 s. */
double ckm_bytes_sizeflow(const ckm_reduced *r, int threads)
{
    (void)threads;
    double d = (double)r->d, k = (double)r->k, s = (double)r->s;
    if (r->s < r->n)
        return 8.0 * s * k + ckm_assign_bytes(r);
    bool matrix = s * k <= 268435456.0;
    double L = (double)ckm_transport_list_len(r->k, !matrix), C = k <= 256.0 ? 16.0 : 32.0;
    double arcs = matrix ? 9.0 * s * k + k * k * (12.0 * L + 25.0) + 2.0 * s : (12.0 * C + 22.0) * s + 64.0 * k * (d + 1.0);
    return arcs + k * k * (12.0 * L + 25.0) + 16.0 * s + 20.0 * s;
}
