/*
 * kmeans.c -- Lloyd's algorithm on weighted points (the super-points of reduced.h; all
 * weights are 1 without must-links), the unconstrained baseline and the engine others
 * reuse.
 *   objective  F(l, C) = sum_t w_t ||y_t - c_{l(t)}||^2   (+ the constant scatter)
 *   seeding    greedy k-means++ (seeding.c), or k random points with init = random
 *   iteration  assign l(t) = argmin_j ||y_t - c_j||^2 (dgemm, nearest.c); an empty cluster
 *              takes the point farthest from its center among clusters of >= 2 points;
 *              c_j = weighted mean of its points
 *   stop       labels unchanged, or sum_j ||c_j - c_j'||^2 <= tol * mean feature variance
 *              (scikit-learn's rule), or max_iter; then one final assignment so the labels
 *              are the nearest-center labels of the returned centers.
 *   restarts   n_init, restart r seeded by (seed, r); best F kept, ties to the lower r, so
 *              the result does not depend on timing or threads.
 * Cost per iteration: O(s k d) flops in dgemm + O(s k) for the argmin.
 */
#include "algo.h"
#include "objective.h"
#include "centers.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct km_ws {
    size_t s, d, k;
    const double *Y, *ynorm;
    const double *w;
    double *C, *Cnew, *wsum, *dist;
    int32_t *lab, *prev;
    size_t *count;
    ckm_nearest_ws near;
    ckm_seeder seeder;
} km_ws;


/* Assignment step with empty-cluster repair. Returns the number of labels changed. */
static size_t assign(km_ws *ws)
{
    size_t s = ws->s, k = ws->k;
    ckm_nearest(ws->Y, ws->ynorm, s, ws->C, &ws->near, ws->lab, ws->dist);
    memset(ws->count, 0, k * sizeof(size_t));
    for (size_t t = 0; t < s; t++)
        ws->count[ws->lab[t]]++;
    for (size_t j = 0; j < k; j++) {
        if (ws->count[j] > 0)
            continue;
        double far = -1.0;
        size_t at = SIZE_MAX;
        for (size_t t = 0; t < s; t++)
            if (ws->count[ws->lab[t]] >= 2 && ws->dist[t] > far) {
                far = ws->dist[t];
                at = t;
            }
        if (at == SIZE_MAX)
            break; /* fewer points than clusters: cannot happen when s >= k */
        ws->count[ws->lab[at]]--;
        ws->lab[at] = (int32_t)j;
        ws->count[j] = 1;
        ws->dist[at] = 0.0;
        memcpy(ws->C + j * ws->d, ws->Y + at * ws->d, ws->d * sizeof(double));
    }
    size_t changed = 0;
    for (size_t t = 0; t < s; t++)
        changed += ws->lab[t] != ws->prev[t];
    memcpy(ws->prev, ws->lab, s * sizeof(int32_t));
    return changed;
}

/* Weighted sums of the points of the clusters j with j % threads == tid: every cluster's
 * sum is accumulated in point order by one thread, so the result does not depend on the
 * thread count. */
static void accumulate(void *ctx, size_t t0, size_t t1, int tid)
{
    km_ws *ws = ctx;
    (void)t0;
    (void)t1;
    size_t d = ws->d, T = (size_t)ws->near.threads;
    for (size_t t = 0; t < ws->s; t++) {
        size_t j = (size_t)ws->lab[t];
        if (j % T != (size_t)tid)
            continue;
        double w = ws->w[t];
        const double *y = ws->Y + t * d;
        double *c = ws->Cnew + j * d;
        for (size_t f = 0; f < d; f++)
            c[f] += w * y[f];
        ws->wsum[j] += w;
    }
}

/* Cnew = weighted means of the current labels; returns sum_j ||Cnew_j - C_j||^2. */
static double update(km_ws *ws)
{
    size_t d = ws->d, k = ws->k;
    memset(ws->Cnew, 0, k * d * sizeof(double));
    memset(ws->wsum, 0, k * sizeof(double));
    int T = ws->near.threads;
    if (T > 1 && ws->s >= 4096)
        ckm_parallel_for(T, (size_t)T, accumulate, ws);
    else {
        int saved = ws->near.threads;
        ws->near.threads = 1;
        accumulate(ws, 0, 1, 0);
        ws->near.threads = saved;
    }
    double shift = 0.0;
    for (size_t j = 0; j < k; j++) {
        double *c = ws->Cnew + j * d;
        if (ws->wsum[j] > 0.0)
            for (size_t f = 0; f < d; f++)
                c[f] /= ws->wsum[j];
        else
            memcpy(c, ws->C + j * d, d * sizeof(double));
        shift += ckm_sqdist(c, ws->C + j * d, d);
    }
    double *tmp = ws->C;
    ws->C = ws->Cnew;
    ws->Cnew = tmp;
    return shift;
}

/* F(labels) with centers = weighted means of the labels. */
static double objective(km_ws *ws)
{
    update(ws);
    double f = 0.0;
    for (size_t t = 0; t < ws->s; t++)
        f += ws->w[t] * ckm_sqdist(ws->Y + t * ws->d, ws->C + (size_t)ws->lab[t] * ws->d, ws->d);
    return f;
}

static void ws_free(km_ws *ws)
{
    free((void *)ws->ynorm);
    free((void *)ws->w);
    free(ws->C);
    free(ws->Cnew);
    free(ws->wsum);
    free(ws->dist);
    ckm_seeder_free(&ws->seeder);
    free(ws->lab);
    free(ws->prev);
    free(ws->count);
    ckm_nearest_ws_free(&ws->near);
}

ckm_error ckm_algo_kmeans(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                          ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    out->lower_bound = -INFINITY;
    if (s <= k) {
        /* every group its own cluster (the rest stay empty, allowed by the bounds that
           preprocessing accepted): SSE = scatter, optimal */
        for (size_t t = 0; t < s; t++)
            out->labels[t] = (int32_t)t;
        out->has_labels = 1;
        out->status = CKM_STATUS_OPTIMAL;
        out->lower_bound = r->scatter;
        snprintf(out->message, sizeof out->message, "each of the %zu groups of points is its own cluster", s);
        return CKM_OK;
    }
    km_ws ws;
    memset(&ws, 0, sizeof ws);
    ws.s = s;
    ws.d = d;
    ws.k = k;
    ws.Y = r->mean;
    size_t kd = k * d; /* k <= s and s*d fits: checked by the problem */
    double *ynorm = ckm_alloc_array(s, sizeof(double)), *w = ckm_alloc_array(s, sizeof(double));
    ws.ynorm = ynorm;
    ws.w = w;
    ws.C = ckm_alloc_array(kd, sizeof(double));
    ws.Cnew = ckm_alloc_array(kd, sizeof(double));
    ws.wsum = ckm_alloc_array(k, sizeof(double));
    ws.dist = ckm_alloc_array(s, sizeof(double));
    ws.lab = ckm_alloc_array(s, sizeof(int32_t));
    ws.prev = ckm_alloc_array(s, sizeof(int32_t));
    ws.count = ckm_alloc_array(k, sizeof(size_t));
    ckm_error rc = CKM_OK;
    if (!ynorm || !w || !ws.C || !ws.Cnew || !ws.wsum || !ws.dist || !ws.lab || !ws.prev || !ws.count) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "k-means: out of memory (s = %zu, k = %zu, d = %zu)", s, k, d);
        goto done;
    }
    if ((rc = ckm_nearest_ws_init(&ws.near, k, d, set->threads, err)) != CKM_OK ||
        (rc = ckm_seeder_init(&ws.seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    /* tolerance scale: mean over features of the weighted variance of the super-points */
    double wtot = 0.0, var = 0.0;
    for (size_t t = 0; t < s; t++) {
        w[t] = r->mass[t];
        wtot += w[t];
        ynorm[t] = 0.0;
        for (size_t f = 0; f < d; f++)
            ynorm[t] += ws.Y[t * d + f] * ws.Y[t * d + f];
    }
    for (size_t f = 0; f < d; f++) {
        double mu = 0.0, v = 0.0;
        for (size_t t = 0; t < s; t++)
            mu += w[t] * ws.Y[t * d + f];
        mu /= wtot;
        for (size_t t = 0; t < s; t++) {
            double dv = ws.Y[t * d + f] - mu;
            v += w[t] * dv * dv;
        }
        var += v / wtot;
    }
    double tol = set->tol * var / (double)d;
    int max_iter = set->max_iter > 0 ? set->max_iter : 300;
    double best_f = INFINITY;
    out->status = CKM_STATUS_FEASIBLE;
    ckm_status why = CKM_STATUS_FEASIBLE;
    int stopped = 0;
    double last_log = ckm_now();
    for (int rs = 0; rs < set->n_init && !stopped; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_centers(&ws.seeder, set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP,
                         &rng, ws.C);
        for (size_t t = 0; t < s; t++)
            ws.prev[t] = -1;
        int it = 0;
        bool have = false;
        for (; it < max_iter; it++) {
            if (ckm_ctx_stop(ctx, &why)) {
                stopped = 1;
                break;
            }
            size_t changed = assign(&ws);
            have = true;
            if (changed == 0)
                break;
            double shift = update(&ws);
            ckm_ctx_log(ctx, 2, "kmeans restart %d iter %d: %zu labels changed, center shift %.3g",
                        rs + 1, it + 1, changed, shift);
            if (set->verbosity == 1 && set->log && ckm_now() - last_log >= 1.0) {
                /* SSE of these labels against the centers they were assigned to: an upper
                   bound on the SSE after this update */
                double f = r->scatter;
                for (size_t t = 0; t < s; t++)
                    f += ws.w[t] * ws.dist[t];
                ckm_ctx_log(ctx, 1, "kmeans restart %d/%d iter %d: SSE <= %.10g, %zu labels changed (%.1f s)",
                            rs + 1, set->n_init, it + 1, f, changed, ckm_now() - ctx->start);
                last_log = ckm_now();
            }
            if (shift <= tol) {
                it++;
                assign(&ws);
                break;
            }
        }
        if (!have)
            break;
        double f = objective(&ws) + r->scatter;
        ckm_restart_done(ctx, "kmeans", rs, ws.lab, s, f, it, &best_f, out);
    }
    if (stopped) {
        out->status = why;
        snprintf(out->message, sizeof out->message, "stopped (%s) after %d of %d restarts",
                 ckm_status_string(why), out->restarts, set->n_init);
    }
done:
    ws_free(&ws);
    return rc;
}
