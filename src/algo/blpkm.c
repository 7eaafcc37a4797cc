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
 * settings.soft_step_limit_s with CBC's best labels; a model too large to build
 * (ckm_assign_local) gets 1-opt local-search steps instead (blp_lloyd.c).
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ckm_error ckm_algo_blpkm(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                         ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    int max_iter = ctx->max_iter;
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
        rc = ckm_blp_lloyd(ctx, local ? NULL : &asg, r, set->distance, max_iter, "blpkm", rs, C, wsum, cost, cur,
                             kept, &st, out, err);
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
    const char *after = stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit after " : "interrupted after ") : "";
    int used = local ? snprintf(out->message, sizeof out->message,
                                "%s%d restart%s; %zu assignment steps by local search (the model, %.3g nonzeros, is "
                                "too large for CLP/CBC): not proven optimal",
                                after, out->restarts, out->restarts == 1 ? "" : "s", cut_steps, ckm_assign_nnz(r))
                     : snprintf(out->message, sizeof out->message,
                                "%s%d restart%s; %zu assignment step%s had an integral LP, %zu needed CBC", after,
                                out->restarts, out->restarts == 1 ? "" : "s", lp_steps, lp_steps == 1 ? "" : "s",
                                mip_steps);
    if (!local && cut_steps > 0 && used > 0 && (size_t)used < sizeof out->message)
        snprintf(out->message + used, sizeof out->message - (size_t)used,
                 "; %zu stopped at the soft step limit of %g s (the best labels found by then, not proven optimal)",
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

/* the LP/MILP model; with soft pairs past CKM_SOFT_MODEL_MAX_NNZ no model but local-search
 * steps: 8 s k costs + 16 s + 32 per soft pair + 16 k */
double ckm_bytes_blpkm(const ckm_reduced *r, int threads)
{
    (void)threads;
    if (ckm_assign_local(r))
        return 8.0 * (double)r->s * (double)r->k + 16.0 * (double)r->s + 32.0 * (double)r->n_soft + 16.0 * (double)r->k;
    return ckm_assign_bytes(r);
}
