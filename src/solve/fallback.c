/*
 * fallback.c -- a feasible labelling for a run that a time limit or a stop request ended
 * before it had found one (an SDP iteration on thousands of groups can take seconds, and
 * ipc / exact skip a relaxation whose first iteration would end past the deadline).
 *   k-means++ seeds on the groups (seed settings.seed; k random distinct groups when s k d
 *   > 1e8, where k-means++ alone would outlast the grace), centers ordered by size slots; without
 *   any pair one assignment to them: without size bounds each point's nearest seed (in timed
 *   chunks: the rows a whole pass could not reach within the grace take the nearest of a
 *   prefix of the seeds; then every empty cluster takes a point); under size bounds the
 *   greedy sized labelling (the nearest seed unless a bound says otherwise; when the grace
 *   ends its ranking, the points left are placed by a cheaper rule that keeps every bound),
 *   replaced by the exact transportation step when that finishes within the grace: no LP of
 *   n*k columns for a large problem; otherwise
 *   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every must-link, cannot-link
 *   and size bound, and the capacity rows when there are any; means) -- until the run's own deadline when time is left, else for at
 *   most CKM_GRACE_S seconds (CKM_GRACE_STOP_S = 0.5 s after a stop request, so that Ctrl-C
 *   is answered within a second), ignoring further stop requests: a user who stops a run wants
 *   the best labelling now, and any feasible one beats none. Only a BLPKM first assignment
 *   that cannot finish within that time (or a proof that none exists) leaves no labels.
 * Cost: seeding O(s k d); without pairs O(n k d) time (O(n) memory without size bounds, O(n k)
 * at most with them); otherwise
 * one assignment step per iteration (the s k costs stored only below sizeflow's matrix limit).
 */
#include "fallback.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "seeding.h"
#include "greedy_sizes.h"
#include "objective.h"
#include "transport_points.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the BLPKM iteration's cap when settings.max_iter is 0 (blpkm's own default) */
#define FALLBACK_MAX_ITER 100

/* "; stopped before a labelling was found: labels from ..." (or ": ..." when none was
   found) appended to out->message */
static void note(ckm_algo_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(ckm_algo_out *out, const char *fmt, ...)
{
    size_t used = strlen(out->message);
    used += (size_t)snprintf(out->message + used, sizeof out->message - used, "%sstopped before a labelling was found: %s",
                             used ? "; " : "", out->has_labels ? "labels from " : "");
    if (used >= sizeof out->message)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->message + used, sizeof out->message - used, fmt, ap);
    va_end(ap);
}

/* rows per polled chunk of the nearest-seed pass (10^6 x 16, k = 1000: ~0.04 s a chunk) */
#define FALLBACK_CHUNK ((size_t)1 << 16)

/* The seeds a chunk of `rows` rows can still be compared with: k when the measured rate
 * (sec_per seconds per row and seed) lets every row left meet all of them within half the
 * time left, else fewer, in proportion (at least 1): the grace is a promise, the nearest of
 * a prefix of the seeds is still a labelling. */
static size_t seeds_affordable(size_t k, double sec_per, size_t rows_left, double time_left)
{
    double need = sec_per * (double)rows_left * (double)k;
    if (!(sec_per > 0.0) || need <= 0.5 * time_left)
        return k;
    double kk = floor((double)k * 0.5 * fmax(time_left, 0.0) / need);
    return kk < 1.0 ? 1 : (size_t)kk;
}

/* Every cluster non-empty: each empty cluster j takes the first point (in index order,
 * one cursor for all) of a cluster that has two or more. n >= k, so one exists. */
static void fill_empty(int32_t *labels, size_t k, size_t *size)
{
    size_t cur = 0;
    for (size_t j = 0; j < k; j++) {
        if (size[j] > 0)
            continue;
        while (size[labels[cur]] < 2)
            cur++;
        size[labels[cur]]--;
        labels[cur] = (int32_t)j;
        size[j] = 1;
        cur++;
    }
}

/* Points without pairs or size bounds: each point to its nearest seed (ckm_nearest: 0.07 s
 * for 10^6 x 16, k = 100 on two threads, where the greedy sized pass took 0.35-0.65 s and,
 * at k = 1000, 2.3 s: past the grace), in chunks of rows timed against the grace. When the
 * rows left would not meet every seed within half the time left, they take the nearest of
 * the first k' seeds (seeds_affordable); then each empty cluster takes a point (fill_empty).
 * *k_used = the fewest seeds any row was compared with (k when the pass was whole). */
static ckm_error nearest_seeds(const ckm_context *ctx, const ckm_reduced *r, const double *C, int32_t *labels,
                               size_t *k_used, ckm_err *err)
{
    size_t n = r->n, k = r->k, d = r->d, kc = k;
    ckm_nearest_ws ws;
    memset(&ws, 0, sizeof ws);
    double *ynorm = ckm_alloc_array(n, sizeof(double));
    double *dist = ckm_alloc_array(n < FALLBACK_CHUNK ? n : FALLBACK_CHUNK, sizeof(double));
    size_t *size = ckm_calloc_array(k, sizeof(size_t));
    ckm_error rc = CKM_OK;
    if (!ynorm || !dist || !size) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the stop fallback (%zu points)", n);
        goto done;
    }
    if ((rc = ckm_nearest_ws_init(&ws, kc, d, ctx->s->threads, err)) != CKM_OK)
        goto done;
    ckm_row_norms(r->mean, n, d, ynorm);
    double sec_per = 0.0; /* seconds per row and seed, measured on the last chunk */
    for (size_t i0 = 0; i0 < n; i0 += FALLBACK_CHUNK) {
        size_t m = n - i0 < FALLBACK_CHUNK ? n - i0 : FALLBACK_CHUNK;
        size_t want = seeds_affordable(kc, sec_per, n - i0, ctx->deadline - ckm_now());
        if (want < kc) {
            ckm_nearest_ws_free(&ws);
            kc = want;
            if ((rc = ckm_nearest_ws_init(&ws, kc, d, ctx->s->threads, err)) != CKM_OK)
                goto done;
        }
        double t0 = ckm_now();
        ckm_nearest(r->mean + i0 * d, ynorm + i0, m, C, &ws, labels + i0, dist);
        sec_per = (ckm_now() - t0) / ((double)m * (double)kc);
    }
    for (size_t i = 0; i < n; i++)
        size[labels[i]]++;
    fill_empty(labels, k, size);
    *k_used = kc;
done:
    ckm_nearest_ws_free(&ws);
    free(ynorm);
    free(dist);
    free(size);
    return rc;
}

/* Points without pairs, under size bounds: the greedy sized labelling (greedy_sizes.c: the
 * nearest seed but for the points a bound turns away; one O(n k d) pass, polled); then, in
 * the time left, the exact transportation step to the same seeds (sizeflow's solver, from
 * the points), which replaces it when it finishes. how names what the labels came from. */
static ckm_error sized_seeds(const ckm_context *ctx, const ckm_reduced *r, const double *C, ckm_algo_out *out,
                             char *how, size_t how_len, ckm_err *err)
{
    size_t n = r->n, k = r->k;
    double t0 = ckm_now();
    ckm_bk_limits lim = {ctx->deadline, NULL, NULL}; /* the grace (ctx is the fallback's) */
    size_t rough = 0;
    ckm_error rc =
        ckm_transport_greedy(r->mean, n, r->d, C, k, r->lo, r->hi, ctx->s->threads, &lim, out->labels, &rough, err);
    if (rc != CKM_OK)
        return rc;
    out->has_labels = 1;
    if (rough > 0) { /* the grace ended the ranking: no time for the exact step either */
        snprintf(how, how_len, "the greedy sized assignment to seeds (%zu of %zu points placed without a full ranking: "
                 "the grace ran short)", rough, n);
        return CKM_OK;
    }
    snprintf(how, how_len, "the greedy sized assignment to seeds");
    /* the exact step costs the greedy's distance pass again (its n x k costs) and much
       more: only tried with three times the greedy's time left, since a try that cannot
       finish holds the answer back to the end of the grace */
    double now = ckm_now();
    if (ctx->deadline - now < 3.0 * (now - t0))
        return CKM_OK;
    double *price = ckm_calloc_array(k, sizeof(double));
    int32_t *exact = ckm_alloc_array(n, sizeof(int32_t));
    if (!price || !exact) {
        free(price);
        free(exact);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    int infeasible = 0;
    ckm_transport_stats ts;
    ckm_ctx_count(ctx, CKM_COUNT_TRANSPORT, 1);
    /* points without must-links (the caller's condition): the groups are the points, so the
       transportation route from points applies; at the deadline it gives up, leaving the
       greedy labels */
    ckm_transport_points_problem pp = {r->mean, n, r->d, C, k, r->lo, r->hi};
    ckm_transport_points_opts o = ckm_transport_points_defaults();
    o.threads = ctx->s->threads;
    o.lim = &lim;
    rc = ckm_transport_points(&pp, &o, price, exact, &infeasible, &ts, err);
    ckm_ctx_count(ctx, CKM_COUNT_NUMERIC, rc == CKM_OK ? ts.clamped : 0);
    if (rc == CKM_OK && !infeasible && !ts.stopped) { /* infeasible sizes were proven in preprocessing */
        memcpy(out->labels, exact, n * sizeof(int32_t));
        snprintf(how, how_len, "the exact sized assignment to seeds");
    }
    free(price);
    free(exact);
    return rc;
}

ckm_error ckm_fallback_labels(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    ckm_settings s = *ctx->s;
    s.should_stop = NULL; /* the stop was already asked for: these steps are the answer to it */
    double t0 = ckm_now();
    /* a time limit that left time (work skipped as too long) is used up; else the grace */
    double until = out->status == CKM_STATUS_INTERRUPTED ? t0 + CKM_GRACE_STOP_S : fmax(ctx->deadline, t0 + CKM_GRACE_S);
    ckm_context grace = *ctx;
    grace.s = &s;
    grace.deadline = until;
    grace.max_iter = s.max_iter > 0 ? s.max_iter : FALLBACK_MAX_ITER;
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
    if (r->n_cl == 0 && r->n_soft == 0 && r->s == r->n && !r->has_caps) { /* no pairs: no LP of s*k columns (s may be 10^6) */
        if (r->has_sizes) {
            char how[160];
            if ((rc = sized_seeds(&grace, r, C, out, how, sizeof how, err)) == CKM_OK)
                note(out, "%s (%.2f s)", how, ckm_now() - t0);
        } else {
            size_t used = k;
            if ((rc = nearest_seeds(&grace, r, C, out->labels, &used, err)) == CKM_OK) {
                out->has_labels = 1;
                if (used < k)
                    note(out, "the nearest seed (for the last points, of the first %zu of %zu seeds only: the grace "
                              "ran short; %.2f s)", used, k, ckm_now() - t0);
                else
                    note(out, "the nearest seed (%.2f s)", ckm_now() - t0);
            }
        }
        goto done;
    }
    /* the steps on blpkm's route (a model with soft pairs too large to build: local search);
     * past sizeflow's matrix limit the steps' costs come from the centers, as blpkm's do */
    ckm_assign_want want = {.route = NULL, .lp = false, .centers = true};
    if ((rc = ckm_assign_init(&asg, r, &want, err)) != CKM_OK)
        goto done;
    if (!asg.centers && !(cost = ckm_alloc_array(r->s * k, sizeof(double)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the stop fallback's %zu x %zu costs", r->s, k);
        goto done;
    }
    ckm_lloyd_stats st;
    ckm_algo_out tmp = *out; /* a proof of infeasibility becomes the run's outcome */
    ckm_blp_job job = {.asg = &asg, .dist = CKM_DISTANCE_SQEUCLIDEAN, .max_iter = grace.max_iter,
                       .name = "fallback", .C = C, .kept = out->labels, .wsum = wsum, .cost = cost, .cur = cur};
    if ((rc = ckm_blp_lloyd(&grace, r, &job, &st, &tmp, err)) != CKM_OK)
        goto done;
    if (st.infeasible) {
        out->status = CKM_STATUS_INFEASIBLE;
        snprintf(out->message, sizeof out->message, "%s", tmp.message);
    } else if (st.have) {
        out->has_labels = 1;
        out->iterations = st.iterations;
        note(out, "the BLPKM iteration on %s seeds (%d assignment steps, %.2f s)", small ? "k-means++" : "random",
             st.iterations, ckm_now() - t0);
    } else {
        note(out, "the BLPKM iteration's first assignment step did not finish within the grace period (%.2f s)",
             ckm_now() - t0);
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
