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

typedef struct cop_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    cop_ws w;
    ckm_seeder seeder;
    ckm_init init;
    double *C, *wsum;
    int32_t *lab, *prev;
    int failures;            /* restarts that dead-ended or left a cluster short */
    char last_failure[256];
} cop_run;

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

/* One restart: COP passes from the seeds until no label changes or max_iter; a dead end, an
 * empty cluster or one below its minimum counts as a failure (no labels). */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    (void)err;
    cop_run *c = self;
    const ckm_context *ctx = c->ctx;
    const ckm_reduced *r = c->r;
    size_t s = r->s, k = r->k;
    int rs = rt->rs;
    ckm_seed_start(ctx, &c->seeder, c->init, &rt->rng, c->C);
    for (size_t t = 0; t < s; t++)
        c->prev[t] = -1;
    bool ok = true;
    int it = 0;
    for (; it < ctx->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &rt->why)) {
            rt->stopped = true;
            ok = false;
            break;
        }
        size_t dead = cop_pass(r, &c->w, c->C, c->lab);
        if (dead != SIZE_MAX) {
            snprintf(c->last_failure, sizeof c->last_failure,
                     "restart %d, iteration %d: point %zu is cannot-linked into every cluster", rs + 1, it + 1,
                     r->members[r->member_start[dead]]);
            ok = false;
            break;
        }
        bool same = memcmp(c->lab, c->prev, s * sizeof(int32_t)) == 0;
        memcpy(c->prev, c->lab, s * sizeof(int32_t));
        ckm_group_means(r, c->lab, c->C, c->wsum);
        if (same)
            break;
    }
    out->restarts = rs + 1;
    if (!ok) {
        if (!rt->stopped)
            c->failures++;
        ckm_ctx_log(ctx, 1, "cop restart %d/%d: dead end (%s)", rs + 1, ctx->s->n_init, c->last_failure);
        return CKM_OK;
    }
    size_t empty = ckm_group_means(r, c->lab, c->C, c->wsum);
    bool short_ok = true;
    for (size_t j = 0; j < k && short_ok; j++)
        short_ok = !(c->wsum[j] < (double)r->lo[j]);
    if (empty > 0 || !short_ok) {
        c->failures++;
        snprintf(c->last_failure, sizeof c->last_failure, "restart %d ended with %zu empty cluster%s", rs + 1, empty,
                 empty == 1 ? "" : "s");
        ckm_ctx_log(ctx, 1, "cop restart %d/%d: %s", rs + 1, ctx->s->n_init, c->last_failure);
        return CKM_OK;
    }
    rt->labels = c->lab;
    rt->objective = ckm_group_sse(r, c->lab, c->C, c->wsum);
    rt->iterations = it + 1;
    return CKM_OK;
}

/* the lifted cannot-links as adjacency lists (fill: s + 1 scratch) */
static void cl_adjacency(const ckm_reduced *r, cop_ws *w, size_t *fill)
{
    size_t s = r->s;
    for (size_t e = 0; e < r->n_cl; e++) {
        w->adj_start[r->cl[2 * e] + 1]++;
        w->adj_start[r->cl[2 * e + 1] + 1]++;
    }
    for (size_t t = 0; t < s; t++)
        w->adj_start[t + 1] += w->adj_start[t];
    memcpy(fill, w->adj_start, (s + 1) * sizeof(size_t));
    for (size_t e = 0; e < r->n_cl; e++) {
        w->adj[fill[r->cl[2 * e]]++] = r->cl[2 * e + 1];
        w->adj[fill[r->cl[2 * e + 1]]++] = r->cl[2 * e];
    }
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    out->lower_bound = -INFINITY;
    cop_run c = {.ctx = ctx,
                 .r = r,
                 .w = {ckm_calloc_array(s + 1, sizeof(size_t)), ckm_alloc_array(2 * r->n_cl + 1, sizeof(size_t)),
                       ckm_alloc_array(k, sizeof(double)), ckm_alloc_array(k, sizeof(size_t))},
                 .init = set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP};
    c.C = ckm_alloc_array(k * d, sizeof(double));
    c.wsum = ckm_alloc_array(k, sizeof(double));
    c.lab = ckm_alloc_array(s, sizeof(int32_t));
    c.prev = ckm_alloc_array(s, sizeof(int32_t));
    size_t *fill = ckm_alloc_array(s + 1, sizeof(size_t));
    ckm_error rc = CKM_OK;
    if (!c.w.adj_start || !c.w.adj || !c.w.dist || !c.w.order || !c.C || !c.wsum || !c.lab || !c.prev || !fill) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "cop: out of memory");
        goto done;
    }
    if ((rc = ckm_seeder_init(&c.seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    cl_adjacency(r, &c.w, fill);
    ckm_status why;
    if ((rc = ckm_run_restarts(ctx, "cop", s, restart, &c, out, &why, err)) != CKM_OK)
        goto done;
    bool stopped = why != CKM_STATUS_FEASIBLE;
    if (!stopped)
        out->status = out->has_labels ? CKM_STATUS_FEASIBLE : CKM_STATUS_NO_SOLUTION;
    if (!out->has_labels && !stopped)
        snprintf(out->message, sizeof out->message, "COP-KMeans failed in all %d restarts (last: %s)", c.failures,
                 c.last_failure);
    else
        snprintf(out->message, sizeof out->message, "%d of %d restarts failed%s%s", c.failures, out->restarts,
                 c.failures ? " (last: " : "", c.failures ? c.last_failure : "");
    if (c.failures && out->has_labels) {
        size_t l = strlen(out->message);
        if (l + 1 < sizeof out->message)
            strcat(out->message, ")");
    }
done:
    ckm_seeder_free(&c.seeder);
    free(c.w.adj_start);
    free(c.w.adj);
    free(c.w.dist);
    free(c.w.order);
    free(c.C);
    free(c.wsum);
    free(c.lab);
    free(c.prev);
    free(fill);
    return rc;
}

/* cop builds no LP model, but the memory model has always charged it one (docs/memory.md):
 * an overestimate kept as it was (no refusal changes with the registry rows) */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    (void)threads;
    return ckm_assign_bytes(r, NULL);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_cop = {
    .info = {.name = "cop",
             .summary = "COP-KMeans (Wagstaff et al. 2001): greedy constrained assignment; may fail on feasible problems",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK,
             .proves_optimality = 0,
             .default_max_iter = 300,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
