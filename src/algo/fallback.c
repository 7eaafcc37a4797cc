/*
 * fallback.c -- a feasible labelling for a run that a time limit or a stop request ended
 * before it had found one (an SDP iteration on thousands of groups can take seconds, and
 * ipc / exact skip a relaxation whose first iteration would end past the deadline).
 *   k-means++ seeds on the groups (seed settings.seed; k random distinct groups when s k d
 *   > 1e8, where k-means++ alone would outlast the grace), centers ordered by size slots; without
 *   any pair one assignment to them (nearest seed, or the exact transportation step under
 *   size bounds: no LP of n*k columns for a large unconstrained problem); otherwise
 *   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every must-link, cannot-link
 *   and size bound; means) -- until the run's own deadline when time is left, else for at
 *   most CKM_GRACE_S seconds (CKM_GRACE_STOP_S = 0.5 s after a stop request, so that Ctrl-C
 *   is answered within a second), ignoring further stop requests: a user who stops a run wants
 *   the best labelling now, and any feasible one beats none. Only a first assignment that
 *   cannot finish within that time (or a proof that none exists) leaves no labels.
 * Cost: seeding O(s k d); without pairs O(n k d) time and O(n k) memory at most; otherwise
 * one LP of s*k columns per iteration.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "exact_step.h"
#include "seeding.h"
#include "transport.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "; stopped before a labelling was found: labels from ..." appended to out->message */
static void note(ckm_algo_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(ckm_algo_out *out, const char *fmt, ...)
{
    size_t used = strlen(out->message);
    used += (size_t)snprintf(out->message + used, sizeof out->message - used,
                             "%sstopped before a labelling was found: labels from ", used ? "; " : "");
    if (used >= sizeof out->message)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message + used, sizeof out->message - used, fmt, ap);
    va_end(ap);
}

/* Points without pairs: nearest seed when no size bound beyond "non-empty" and every
 * cluster gets a point (k-means++ seeds are distinct data points, so only duplicates can
 * leave one empty); else the exact transportation step (sizeflow's solver, from the points).
 * wsum: k scratch. */
static ckm_error unpaired(const ckm_context *ctx, const ckm_reduced *r, const double *C, double *wsum, ckm_algo_out *out, bool *done,
                         ckm_err *err)
{
    size_t n = r->n, k = r->k;
    *done = false;
    if (!r->has_sizes) {
        for (size_t t = 0; t < n; t++)
            out->labels[t] = (int32_t)ckm_nearest_center(r, t, C);
        if (ckm_group_labels_feasible(r, out->labels, wsum)) {
            out->has_labels = 1;
            *done = true;
            return CKM_OK;
        }
    }
    double *price = ckm_calloc_array(k, sizeof(double));
    if (!price)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    int infeasible = 0;
    ckm_transport_stats ts;
    ckm_ctx_count(ctx, CKM_COUNT_TRANSPORT, 1);
    /* points without must-links (the caller's condition): the groups are the points, so the
       transportation route from points applies (no n x k matrix beyond 2^28 costs) */
    /* on the matrix route the step runs to its end, as it always did (seconds at 10^6 x
       100), so that a stop still gets a checked labelling; beyond it, where a step can take
       minutes, it gives up at the end of the grace period (ctx is the fallback's) */
    ckm_bk_limits lim = {ctx->deadline, NULL, NULL};
    size_t nk;
    bool bounded_route = ckm_mul_ok(n, k, &nk) && nk <= CKM_TRANSPORT_MATRIX_MAX;
    ckm_error rc = ckm_transport_points(r->mean, n, r->d, C, k, r->lo, r->hi, ctx->s->threads,
                                        bounded_route ? NULL : &lim, NULL, price, out->labels, &infeasible, &ts, err);
    ckm_ctx_count(ctx, CKM_COUNT_NUMERIC, rc == CKM_OK ? ts.clamped : 0);
    free(price);
    if (rc == CKM_OK && !infeasible && !ts.stopped) { /* infeasible sizes were proven in preprocessing */
        out->has_labels = 1;
        *done = true;
    } else if (rc == CKM_OK && ts.stopped) {
        *done = true; /* the grace period ran out: no labels, and no LP of s k columns either */
        note(out, "the transportation step to seeds did not finish within the grace period");
    }
    return rc;
}

ckm_error ckm_fallback_labels(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    ckm_settings s = *ctx->s;
    s.should_stop = NULL; /* the stop was already asked for: these steps are the answer to it */
    double t0 = ckm_now();
    /* a time limit that left time (work skipped as too long) is used up; else the grace */
    double until = out->status == CKM_STATUS_INTERRUPTED ? t0 + CKM_GRACE_STOP_S : fmax(ctx->deadline, t0 + CKM_GRACE_S);
    ckm_context grace = {&s, ctx->start, until, ctx->count, ctx->log_lock, ctx->init_centers};
    size_t k = r->k, d = r->d;
    ckm_assign asg;
    memset(&asg, 0, sizeof asg);
    ckm_seeder seeder;
    memset(&seeder, 0, sizeof seeder);
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    double *cost = NULL;
    int32_t *cur = ckm_alloc_array(r->s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!C || !wsum || !cur) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the stop fallback (%zu groups, k = %zu)", r->s, k);
        goto done;
    }
    if ((rc = ckm_seeder_init(&seeder, r, s.threads, err)) != CKM_OK)
        goto done;
    ckm_rng rng;
    ckm_rng_seed(&rng, s.seed, 0xfa11bacc);
    /* k-means++ costs O(s k d) times its trials: past ~1e8 operations it alone would outlast
     * the grace period, so large problems take k distinct random points */
    bool small = (double)r->s * (double)k * (double)d <= 1e8;
    ckm_seed_centers(&seeder, small ? CKM_INIT_KMEANSPP : CKM_INIT_RANDOM, &rng, C);
    if ((rc = ckm_order_centers_by_size(r, C, err)) != CKM_OK)
        goto done;
    if (r->n_cl == 0 && r->n_soft == 0 && r->s == r->n) { /* no pairs: no LP of s*k columns (s may be 10^6) */
        bool done_here = false;
        if ((rc = unpaired(&grace, r, C, wsum, out, &done_here, err)) != CKM_OK || done_here) {
            if (done_here && out->has_labels)
                note(out, "one assignment to seeds (%.2f s)", ckm_now() - t0);
            goto done;
        }
    }
    if (!(cost = ckm_alloc_array(r->s * k, sizeof(double)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the stop fallback's %zu x %zu costs", r->s, k);
        goto done;
    }
    /* a model with soft pairs too large to build: local-search steps, as blpkm takes them */
    bool local = ckm_assign_local(r);
    if (!local && (rc = ckm_assign_init(&asg, r, err)) != CKM_OK)
        goto done;
    ckm_lloyd_stats st;
    ckm_algo_out tmp = *out; /* a proof of infeasibility becomes the run's outcome */
    if ((rc = ckm_exact_lloyd(&grace, local ? NULL : &asg, r, CKM_DISTANCE_SQEUCLIDEAN, s.max_iter > 0 ? s.max_iter : 100, "fallback",
                              0, C, wsum, cost, cur, out->labels, &st, &tmp, err)) != CKM_OK)
        goto done;
    if (st.infeasible) {
        out->status = CKM_STATUS_INFEASIBLE;
        snprintf(out->message, sizeof out->message, "%s", tmp.message);
    } else if (st.have) {
        out->has_labels = 1;
        out->iterations = st.iterations;
        note(out, "the BLPKM iteration on %s seeds (%d assignment steps, %.2f s)", small ? "k-means++" : "random",
             st.iterations, ckm_now() - t0);
    }
done:
    ckm_seeder_free(&seeder);
    ckm_assign_free(&asg);
    free(C);
    free(wsum);
    free(cost);
    free(cur);
    return rc;
}
