/*
 * cop.c -- COP-KMeans (Wagstaff, Cardie, Rogers & Schroedl 2001) on must-link groups.
 *   The transitive closure of the constraints is the reduced problem: must-link groups are
 *   super-points, cannot-links are lifted between groups.
 *   init     greedy k-means++ on the groups (or random points with init = random)
 *   repeat   groups in data order (of their first point): assign each to the nearest
 *            center whose cluster holds no group it is cannot-linked to; when every
 *            cluster is forbidden the run dead-ends (COP-KMeans' failure)
 *            c_j = mean of cluster j
 *            until no label changes or max_iter (default: its row in registry.c)
 *   A run that ends with an empty cluster fails too (ckm requires lo_j >= 1 by default).
 *   restarts n_init, seeded (seed, r); the lowest SSE among successful runs wins; when no
 *            run succeeds the status is "no solution found" with the last reason (this
 *            is a heuristic failure, not a proof of infeasibility).
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cop_ws {
    size_t *adj_start, *adj; /* lifted cannot-link adjacency */
    double *dist;            /* k */
    size_t *order;           /* k */
} cop_ws;

/* One COP assignment pass. Returns SIZE_MAX on success, else the group that dead-ended. */
static size_t cop_pass(const ckm_reduced *r, const cop_ws *w, const double *C, int32_t *lab)
{
    size_t k = r->k, d = r->d;
    for (size_t t = 0; t < r->s; t++)
        lab[t] = -1;
    for (size_t t = 0; t < r->s; t++) {
        for (size_t j = 0; j < k; j++) {
            w->dist[j] = ckm_sqdist(r->mean + t * d, C + j * d, d);
            w->order[j] = j;
        }
        /* insertion sort of k distances: k is small; ties keep the lower index */
        for (size_t a = 1; a < k; a++) {
            size_t v = w->order[a], b = a;
            while (b > 0 && w->dist[w->order[b - 1]] > w->dist[v]) {
                w->order[b] = w->order[b - 1];
                b--;
            }
            w->order[b] = v;
        }
        int32_t chosen = -1;
        for (size_t q = 0; q < k && chosen < 0; q++) {
            int32_t j = (int32_t)w->order[q];
            bool ok = true;
            for (size_t e = w->adj_start[t]; e < w->adj_start[t + 1] && ok; e++)
                ok = lab[w->adj[e]] != j;
            if (ok)
                chosen = j;
        }
        if (chosen < 0)
            return t;
        lab[t] = chosen;
    }
    return SIZE_MAX;
}

ckm_error ckm_algo_cop(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    int max_iter = ctx->max_iter;
    ckm_init init = set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP;
    out->lower_bound = -INFINITY;
    cop_ws w = {ckm_calloc_array(s + 1, sizeof(size_t)), ckm_alloc_array(2 * r->n_cl + 1, sizeof(size_t)),
                ckm_alloc_array(k, sizeof(double)), ckm_alloc_array(k, sizeof(size_t))};
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    int32_t *lab = ckm_alloc_array(s, sizeof(int32_t)), *prev = ckm_alloc_array(s, sizeof(int32_t));
    size_t *fill = ckm_alloc_array(s + 1, sizeof(size_t));
    ckm_seeder seeder;
    memset(&seeder, 0, sizeof seeder);
    ckm_error rc = CKM_OK;
    if (!w.adj_start || !w.adj || !w.dist || !w.order || !C || !wsum || !lab || !prev || !fill) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "cop: out of memory");
        goto done;
    }
    if ((rc = ckm_seeder_init(&seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    for (size_t e = 0; e < r->n_cl; e++) {
        w.adj_start[r->cl[2 * e] + 1]++;
        w.adj_start[r->cl[2 * e + 1] + 1]++;
    }
    for (size_t t = 0; t < s; t++)
        w.adj_start[t + 1] += w.adj_start[t];
    memcpy(fill, w.adj_start, (s + 1) * sizeof(size_t));
    for (size_t e = 0; e < r->n_cl; e++) {
        w.adj[fill[r->cl[2 * e]]++] = r->cl[2 * e + 1];
        w.adj[fill[r->cl[2 * e + 1]]++] = r->cl[2 * e];
    }
    double best_sse = INFINITY;
    int failures = 0, stopped = 0;
    ckm_status why = CKM_STATUS_FEASIBLE;
    char last_failure[256] = "";
    for (int rs = 0; rs < set->n_init && !stopped; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_start(ctx, &seeder, init, &rng, C);
        for (size_t t = 0; t < s; t++)
            prev[t] = -1;
        bool ok = true;
        int it = 0;
        for (; it < max_iter; it++) {
            if (ckm_ctx_stop(ctx, &why)) {
                stopped = 1;
                ok = false;
                break;
            }
            size_t dead = cop_pass(r, &w, C, lab);
            if (dead != SIZE_MAX) {
                snprintf(last_failure, sizeof last_failure,
                         "restart %d, iteration %d: point %zu is cannot-linked into every cluster",
                         rs + 1, it + 1, r->members[r->member_start[dead]]);
                ok = false;
                break;
            }
            bool same = memcmp(lab, prev, s * sizeof(int32_t)) == 0;
            memcpy(prev, lab, s * sizeof(int32_t));
            ckm_group_means(r, lab, C, wsum);
            if (same)
                break;
        }
        out->restarts = rs + 1;
        if (!ok) {
            if (!stopped)
                failures++;
            ckm_ctx_log(ctx, 1, "cop restart %d/%d: dead end (%s)", rs + 1, set->n_init, last_failure);
            continue;
        }
        size_t empty = ckm_group_means(r, lab, C, wsum);
        bool short_ok = true;
        for (size_t j = 0; j < k && short_ok; j++)
            short_ok = !(wsum[j] < (double)r->lo[j]);
        if (empty > 0 || !short_ok) {
            failures++;
            snprintf(last_failure, sizeof last_failure, "restart %d ended with %zu empty cluster%s", rs + 1,
                     empty, empty == 1 ? "" : "s");
            ckm_ctx_log(ctx, 1, "cop restart %d/%d: %s", rs + 1, set->n_init, last_failure);
            continue;
        }
        double sse = ckm_group_sse(r, lab, C, wsum);
        ckm_restart_done(ctx, "cop", rs, lab, s, sse, it + 1, &best_sse, out);
    }
    if (stopped)
        out->status = why;
    else if (!out->has_labels)
        out->status = CKM_STATUS_NO_SOLUTION;
    else
        out->status = CKM_STATUS_FEASIBLE;
    if (!out->has_labels && !stopped)
        snprintf(out->message, sizeof out->message, "COP-KMeans failed in all %d restarts (last: %s)",
                 failures, last_failure);
    else
        snprintf(out->message, sizeof out->message, "%d of %d restarts failed%s%s", failures, out->restarts,
                 failures ? " (last: " : "", failures ? last_failure : "");
    if (failures && out->has_labels) {
        size_t l = strlen(out->message);
        if (l + 1 < sizeof out->message)
            strcat(out->message, ")");
    }
done:
    ckm_seeder_free(&seeder);
    free(w.adj_start);
    free(w.adj);
    free(w.dist);
    free(w.order);
    free(C);
    free(wsum);
    free(lab);
    free(prev);
    free(fill);
    return rc;
}

/* cop builds no LP model, but the memory model has always charged it one (docs/memory.md):
 * an overestimate kept as it was (no refusal changes with the registry rows) */
double ckm_bytes_cop(const ckm_reduced *r, int threads)
{
    (void)threads;
    return ckm_assign_bytes(r);
}
