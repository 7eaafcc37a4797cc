/*
 * blpkm.c -- BLPKM_CC (Baumann 2020): k-means whose assignment step is the exact binary
 * linear program of assign.h, so must-links, cannot-links and size bounds hold in every
 * iteration.
 *   init     k distinct random data points (as published), or k-means++ on must-link
 *            groups (settings.init = KMEANSPP); with bounds that differ between clusters
 *            the centers are then matched to the size slots (ckm_order_centers_by_size)
 *   repeat   cost_tj = w_t ||m_t - c_j||^2 (sqeuclidean; = sum_{i in S_t} ||x_i - c_j||^2
 *            up to a constant) or sum_{i in S_t} ||x_i - c_j|| (euclidean, the author's code)
 *            (labels, total) = exact assignment, warm-started from the previous labels
 *            stop as soon as total does not strictly decrease (the labels of the previous
 *            iteration are kept), or after max_iter (default 100) iterations
 *            c_j = mean of the points of cluster j (an empty cluster, possible only with
 *            lo_j = 0, keeps its center)
 *   restarts n_init, seeded (seed, r); the lowest SSE of the kept labels wins.
 * The assignment rows do not depend on the centers: if the first assignment model is
 * infeasible, the clustering problem is (status infeasible, proved by CLP/CBC).
 * Soft pairs (PCCC, Baumann & Hochbaum 2024; docs/soft.md): the assignment model gains a
 * slack per soft pair (assign.h) and the iteration minimises SSE + P sum c [violated]; the
 * center step leaves the penalty unchanged and cannot raise the SSE part, so the total
 * still decreases monotonically, and restarts are compared on it.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "exact_step.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The BLPKM iteration with local-search steps (ckm_assign_local: soft pairs, a model too large
 * to build): cost -> the kept labels (the first time a trivial start) improved by 1-opt moves
 * (soft_local.c) -> means, while cost + penalty strictly decreases. Each step starts from the
 * kept labels, which the center step made no worse, so the total decreases monotonically;
 * no step is proven optimal. */
static ckm_error local_lloyd(const ckm_context *ctx, const ckm_reduced *r, int max_iter, int rs, double *C,
                             double *wsum, double *cost, int32_t *cur, int32_t *kept, ckm_lloyd_stats *st,
                             ckm_err *err)
{
    double best_total = INFINITY;
    memset(st, 0, sizeof *st);
    st->why = CKM_STATUS_FEASIBLE;
    int it = 0;
    for (; it < max_iter; it++) {
        if (ckm_ctx_stop(ctx, &st->why)) {
            st->stopped = true;
            break;
        }
        double t0 = ckm_now();
        ckm_group_costs(r, ctx->s->distance, C, cost);
        size_t moves;
        if (st->have)
            memcpy(cur, kept, r->s * sizeof(int32_t));
        else if (!ckm_soft_trivial_start(r, cost, cur))
            return ckm_fail(err, CKM_ERR_NOMEM, "blpkm: out of memory for a first labelling");
        if (!ckm_soft_local_search(r, cost, cur, &moves))
            return ckm_fail(err, CKM_ERR_NOMEM, "blpkm: out of memory for the local search");
        double total = ckm_soft_cost(r, cur);
        for (size_t t = 0; t < r->s; t++)
            total += cost[t * r->k + (size_t)cur[t]];
        st->cut_steps++;
        ckm_ctx_log(ctx, 2, "blpkm restart %d iter %d: assignment total %.10g (local search, %zu moves, %.3f s)", rs + 1,
                    it + 1, total, moves, ckm_now() - t0);
        if (!(total < best_total))
            break;
        best_total = total;
        memcpy(kept, cur, r->s * sizeof(int32_t));
        st->have = true;
        ckm_group_means(r, kept, C, wsum);
    }
    st->iterations = it;
    return CKM_OK;
}

ckm_error ckm_algo_blpkm(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                         ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    int max_iter = set->max_iter > 0 ? set->max_iter : 100;
    ckm_init init = set->init == CKM_INIT_KMEANSPP ? CKM_INIT_KMEANSPP : CKM_INIT_RANDOM;
    out->lower_bound = -INFINITY;
    ckm_assign asg;
    ckm_seeder seeder;
    memset(&asg, 0, sizeof asg);
    memset(&seeder, 0, sizeof seeder);
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    double *cost = ckm_alloc_array(s * k, sizeof(double));
    int32_t *cur = ckm_alloc_array(s, sizeof(int32_t)), *kept = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!C || !wsum || !cost || !cur || !kept) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "blpkm: out of memory");
        goto done;
    }
    bool local = ckm_assign_local(r);
    if ((!local && (rc = ckm_assign_init(&asg, r, err)) != CKM_OK) ||
        (rc = ckm_seeder_init(&seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    if (local)
        ckm_ctx_log(ctx, 1, "blpkm: the assignment model would have %.3g nonzeros (> %.3g): steps by local search, "
                            "not proven optimal",
                    ckm_assign_nnz(r), CKM_SOFT_MODEL_MAX_NNZ);
    double best_sse = INFINITY;
    size_t lp_steps = 0, mip_steps = 0, cut_steps = 0;
    ckm_status why = CKM_STATUS_FEASIBLE;
    int stopped = 0;
    out->status = CKM_STATUS_FEASIBLE;
    for (int rs = 0; rs < set->n_init && !stopped; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_start(ctx, &seeder, init, &rng, C);
        if (!ctx->init_centers && (rc = ckm_order_centers_by_size(r, C, err)) != CKM_OK)
            goto done;
        ckm_lloyd_stats st;
        rc = local ? local_lloyd(ctx, r, max_iter, rs, C, wsum, cost, cur, kept, &st, err)
                   : ckm_exact_lloyd(ctx, &asg, r, set->distance, max_iter, "blpkm", rs, C, wsum, cost, cur, kept, &st,
                                     out, err);
        if (rc != CKM_OK)
            goto done;
        lp_steps += st.lp_steps;
        mip_steps += st.mip_steps;
        cut_steps += st.cut_steps;
        if (st.infeasible)
            goto done;
        if (st.stopped) {
            why = st.why;
            stopped = 1;
        }
        bool have = st.have;
        int it = st.iterations;
        if (!have)
            continue;
        double sse = ckm_group_sse(r, kept, C, wsum) + ckm_soft_cost(r, kept);
        ckm_restart_done(ctx, "blpkm", rs, kept, s, sse, it, &best_sse, out);
    }
    if (stopped)
        out->status = why;
    int used = snprintf(out->message, sizeof out->message,
                        "%s%d restart%s; %zu assignment step%s had an integral LP, %zu needed CBC",
                        stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit after " : "interrupted after ") : "",
                        out->restarts, out->restarts == 1 ? "" : "s", lp_steps, lp_steps == 1 ? "" : "s", mip_steps);
    if (local && used > 0 && (size_t)used < sizeof out->message)
        snprintf(out->message, sizeof out->message,
                 "%s%d restart%s; %zu assignment steps by local search (the model, %.3g nonzeros, is too large for "
                 "CLP/CBC): not proven optimal",
                 stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit after " : "interrupted after ") : "",
                 out->restarts, out->restarts == 1 ? "" : "s", cut_steps, ckm_assign_nnz(r));
    else if (cut_steps > 0 && used > 0 && (size_t)used < sizeof out->message)
        snprintf(out->message + used, sizeof out->message - (size_t)used,
                 " (%zu of them stopped at the soft step limit of %g s: CBC's best labels, not proven optimal)",
                 cut_steps, set->soft_step_limit_s);
done:
    ckm_assign_free(&asg);
    ckm_seeder_free(&seeder);
    free(C);
    free(wsum);
    free(cost);
    free(cur);
    free(kept);
    return rc;
}
