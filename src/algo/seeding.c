/*
 * seeding.c -- initial centers for Lloyd-type algorithms, on the reduced problem's
 * super-points y_t (must-link group means) with weights w_t (group sizes).
 *   k-means++ (Arthur & Vassilvitskii 2007), greedy variant as scikit-learn: first center
 *   drawn with P(t) ~ w_t; each further one: draw 2 + floor(ln k) candidates with
 *   P(t) ~ w_t D(t)^2 (D = distance to the nearest chosen center) and keep the candidate
 *   minimising sum_t w_t min(D(t)^2, ||y_t - cand||^2). The candidates of a step are
 *   evaluated in one parallel pass over fixed blocks of points whose partial sums are
 *   added in block order, so the result does not depend on the thread count.
 *   random: k distinct data points drawn uniformly (BLPKM_CC's published rule); with
 *   must-links a point stands for itself, not its group.
 * Cost: k-means++ O(k (2 + ln k) s d); random O(k).
 */
#include "seeding.h"
#include "centers.h"
#include "core.h"
#include "algo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED_BLOCK 8192 /* points per partial sum: fixed, so sums do not depend on threads */

ckm_error ckm_seeder_init(ckm_seeder *ws, const ckm_reduced *r, int threads, ckm_err *err)
{
    memset(ws, 0, sizeof *ws);
    size_t s = r->s, k = r->k, cand_len;
    ws->r = r;
    ws->s = s;
    ws->d = r->d;
    ws->k = k;
    ws->Y = r->mean;
    ws->threads = ckm_thread_count(threads);
    ws->trials = 2 + (size_t)floor(log((double)k));
    if (ws->trials > 64)
        ws->trials = 64;
    ws->w = ckm_alloc_array(s, sizeof(double));
    ws->closest = ckm_alloc_array(s, sizeof(double));
    ws->cumsum = ckm_alloc_array(s, sizeof(double));
    ws->cand_dist = ckm_mul_ok(ws->trials, s, &cand_len) ? ckm_alloc_array(cand_len, sizeof(double)) : NULL;
    ws->partial = ckm_alloc_array((s / SEED_BLOCK + 1) * ws->trials, sizeof(double));
    ws->pick = ckm_alloc_array(k, sizeof(size_t));
    if (!ws->w || !ws->closest || !ws->cumsum || !ws->cand_dist || !ws->partial || !ws->pick) {
        ckm_seeder_free(ws);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for seeding (%zu groups)", s);
    }
    for (size_t t = 0; t < s; t++)
        ws->w[t] = r->mass[t];
    return CKM_OK;
}

void ckm_seeder_free(ckm_seeder *ws)
{
    free(ws->w);
    free(ws->closest);
    free(ws->cumsum);
    free(ws->cand_dist);
    free(ws->partial);
    free(ws->pick);
    memset(ws, 0, sizeof *ws);
}

/* Index t with cumsum[t-1] <= x < cumsum[t] (binary search), clamped to [0, s). */
static size_t draw(const double *cumsum, size_t s, double x)
{
    size_t lo = 0, hi = s - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cumsum[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}


typedef struct seed_job {
    ckm_seeder *ws;
    const size_t *cand; /* trials candidate indices */
    size_t trials;
    double *partial;    /* nblocks * trials partial potentials */
} seed_job;

/* For blocks [b0, b1): D_q(t) = min(closest(t), ||y_t - y_cand_q||^2) for every trial q,
 * and the block's share of each potential sum_t w_t D_q(t). */
static void seed_blocks(void *ctx, size_t b0, size_t b1, int tid)
{
    seed_job *j = ctx;
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, s = ws->s;
    (void)tid;
    for (size_t b = b0; b < b1; b++) {
        size_t t1 = (b + 1) * SEED_BLOCK < s ? (b + 1) * SEED_BLOCK : s;
        for (size_t q = 0; q < j->trials; q++) {
            const double *y = ws->Y + j->cand[q] * d;
            double *out = ws->cand_dist + q * s, pot = 0.0;
            for (size_t t = b * SEED_BLOCK; t < t1; t++) {
                double dd = ckm_sqdist(ws->Y + t * d, y, d);
                out[t] = dd < ws->closest[t] ? dd : ws->closest[t];
                pot += ws->w[t] * out[t];
            }
            j->partial[b * j->trials + q] = pot;
        }
    }
}

/* ctx (may be NULL) is polled once per center: a seeding of 10^6 points and k = 100 takes
 * ~3 s, so a stop waits for at most one center's pass; the centers not yet chosen are then
 * copies of the first (finite values; the caller sees the stop at its next check). */
static void seed_kmeanspp(ckm_seeder *ws, ckm_rng *rng, double *C, const ckm_context *ctx)
{
    size_t s = ws->s, d = ws->d, k = ws->k, trials = ws->trials;
    size_t nblocks = (s + SEED_BLOCK - 1) / SEED_BLOCK, cand[64];
    double total = 0.0;
    for (size_t t = 0; t < s; t++) {
        total += ws->w[t];
        ws->cumsum[t] = total;
    }
    size_t first = draw(ws->cumsum, s, ckm_rng_uniform(rng) * total);
    memcpy(C, ws->Y + first * d, d * sizeof(double));
    for (size_t t = 0; t < s; t++)
        ws->closest[t] = ckm_sqdist(ws->Y + t * d, C, d);
    seed_job job = {ws, cand, trials, ws->partial};
    ckm_status why;
    for (size_t c = 1; c < k; c++) {
        if (ctx && ckm_ctx_stop(ctx, &why)) {
            for (; c < k; c++)
                memcpy(C + c * d, C, d * sizeof(double));
            return;
        }
        double acc = 0.0;
        for (size_t t = 0; t < s; t++) {
            acc += ws->w[t] * ws->closest[t];
            ws->cumsum[t] = acc;
        }
        for (size_t q = 0; q < trials; q++)
            cand[q] = acc > 0.0 ? draw(ws->cumsum, s, ckm_rng_uniform(rng) * acc)
                                : (size_t)ckm_rng_below(rng, s);
        if (ws->threads > 1 && nblocks > 1)
            ckm_parallel_for(ws->threads, nblocks, seed_blocks, &job);
        else
            seed_blocks(&job, 0, nblocks, 0);
        double best_pot = INFINITY;
        size_t best = 0;
        for (size_t q = 0; q < trials; q++) {
            double pot = 0.0;
            for (size_t b = 0; b < nblocks; b++)
                pot += ws->partial[b * trials + q];
            if (pot < best_pot) {
                best_pot = pot;
                best = q;
            }
        }
        memcpy(C + c * d, ws->Y + cand[best] * d, d * sizeof(double));
        memcpy(ws->closest, ws->cand_dist + best * s, s * sizeof(double));
    }
}


/* k distinct points by rejection of repeats (no n-sized array needed):
   cheap because k <= n and typically k << n. */
static void seed_random(ckm_seeder *ws, ckm_rng *rng, double *C)
{
    const ckm_reduced *r = ws->r;
    size_t n = r->n, d = r->d;
    for (size_t c = 0; c < ws->k; c++) {
        size_t i;
        bool again;
        do {
            i = (size_t)ckm_rng_below(rng, n);
            again = false;
            for (size_t q = 0; q < c && !again; q++)
                again = ws->pick[q] == i;
        } while (again);
        ws->pick[c] = i;
        memcpy(C + c * d, r->X + i * d, d * sizeof(double));
    }
}

void ckm_seed_start(const ckm_context *ctx, ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C)
{
    if (ctx->init_centers)
        memcpy(C, ctx->init_centers, ws->k * ws->d * sizeof(double));
    else if (init == CKM_INIT_RANDOM)
        seed_random(ws, rng, C);
    else
        seed_kmeanspp(ws, rng, C, ctx);
}

void ckm_seed_centers(ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C)
{
    if (init == CKM_INIT_RANDOM)
        seed_random(ws, rng, C);
    else
        seed_kmeanspp(ws, rng, C, NULL);
}
