/*
 * seeding.c -- initial centers for Lloyd-type algorithms, on the reduced problem's
 * super-points y_t (must-link group means) with weights w_t (group sizes).
 *   k-means++ (Arthur & Vassilvitskii 2007), greedy variant as scikit-learn: first center
 *   drawn with P(t) ~ w_t; each further one: draw 2 + floor(ln k) candidates (trials) with
 *   P(t) ~ w_t D(t)^2 (D = distance to the nearest chosen center) and keep the trial
 *   minimising sum_t w_t min(D(t)^2, ||y_t - y||^2), i.e. the one with the largest gain
 *   sum_t w_t max(0, D(t)^2 - ||y_t - y||^2) (ties: the first drawn).
 *   random: k distinct data points drawn uniformly (BLPKM_CC's published rule); with
 *   must-links a point stands for itself, not its group.
 * Pruning (exact): the points are kept in member lists by nearest chosen center a, with
 * R_a^2 = max D(t)^2 and S_a = sum w_t D(t)^2 over a's members. A trial y with
 * ||C_a - y|| >= 2 R_a cannot come closer to any member of a than its center (triangle
 * inequality: ||y_t - y|| >= ||C_a - y|| - D(t) >= D(t)), so a's members are not visited;
 * inside a visited list the same test runs per point with D(t). The tests use
 * ||C_a - y||^2 >= 4 (1 + 1e-9) D^2, a margin far above the rounding of the squares, so
 * only points whose gain is exactly zero are skipped. Draws walk the clusters' S_a, then
 * the chosen list. Late in a seeding a step visits a few lists (10^6 x 16, k = 1000: about
 * 1 % of the points per trial), so its cost is O(k trials d) for the center-to-trial
 * distances plus the visited points. Deterministic for any thread count: each trial's gain
 * is summed by one thread in list order.
 * bf16 filter (d >= CKM_SEED_FLOAT_FROM_D): in scan mode a full scan reads every point per
 * center, and in high dimension memory is the bound (10^5 x 128 in 1000 overlapping blobs,
 * k = 1000: 15.6 s of a 17.8 s fit; with the filter 6.3-6.8 s, 0.37 % of the pairs measured).
 * The scan then reads a bf16 copy a' = bf16(y - mu) (mu the mean; a quarter of the bytes:
 * 10^5 x 128 fits in a 32 MB L3), widened to float a tile at a time, and computes
 * the float dot products G = a'.b' with eight trials b' per vector (each product of two
 * bf16 is exact in float) and h = fl32(||b'||^2 - 2 G); then ||a'||^2 + h approximates
 * ||a' - b'||^2. Only the (point, trial) pairs the bound below cannot exclude get their
 * double distance by ckm_sqdist (the bits the double kernel computes); the others count as
 * "no gain" (distance +inf, which join_scan reads as not closer), which is what their
 * double distance gives. So the seeds, and every sum, keep their bits. Bound (u = 2^-24,
 * v = 1.001 2^-8 the coordinates' rounding double -> float -> bf16, a and b the exact
 * y - mu and t - mu, delta = ||a - b||, na >= ||a||, A = ||a'||, B = ||b'||):
 *   ||a' - b'|| <= delta + v (na + nb) + sqrt(d) 2^-132 (triangle inequality);
 *   |G - a'.b'| <= g32 A B + d 2^-149 (Higham's gamma, g32 = (d + 1) u / (1 - (d + 1) u),
 *   and underflowed products), and the float B^2 and subtraction add u (2 B^2 + A^2 + B^2),
 *   so |h - (||a' - b'||^2 - A^2)| <= (g32 + 4 u) (A^2 + B^2) + d 2^-148 =: E;
 *   ckm_sqdist's value D >= delta^2 (1 - g64) - d 2^-1074, g64 = (d + 2) 2^-53 /
 *   (1 - (d + 2) 2^-53). If D < D(t) then delta < sqrt(cl'), cl' = (D(t) + d 2^-1074) /
 *   (1 - g64), hence h < tau = R^2 - A^2 + E with R = sqrt(cl') + v (na + nb) +
 *   sqrt(d) 2^-132, A^2 and B^2 taken as bounds from their double sums (relative
 *   (d + 2) 2^-53), tau raised by 1e-12 (R^2 + A^2 + E) for its own rounding and rounded up
 *   to a float. A pair with h >= tau has D >= D(t): no gain. The filter is off when a float
 *   could overflow (max ||y - mu||^2 >= 1e36) or d is past 10^5.
 * Cost: k-means++ O(k (2 + ln k) s d) at worst (no pruning: all points one blob), O(k^2
 * (2 + ln k) d) plus the visited points in practice; random O(k).
 * Memory: 8 s (closest) + 8 s (running sum) + 4 s (nearest) + 4 s (lists) + 8 s (2 + ln k)
 * (scan mode's distances) bytes, (2 + ln k) k doubles; from d = 32 the bf16 copy 2 s d + 32 s
 * (bounds and threshold shares) + threads x 8192 floats of tiles.
 */
#include "seeding.h"
#include "centers.h"
#include "core.h"
#include "run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED_BLOCK 8192 /* points per partial gain in scan mode: fixed, so sums do not depend on threads */

ckm_error ckm_seeder_init(ckm_seeder *ws, const ckm_reduced *r, int threads, ckm_err *err)
{
    memset(ws, 0, sizeof *ws);
    size_t s = r->s, k = r->k, far_len, cand_len;
    ws->r = r;
    ws->s = s;
    ws->d = r->d;
    ws->k = k;
    ws->Y = r->mean;
    ws->w = r->mass;
    ws->threads = ckm_thread_count(threads);
    ws->trials = 2 + (size_t)floor(log((double)k));
    if (ws->trials > 64)
        ws->trials = 64;
    ws->closest = ckm_alloc_array(s, sizeof(double));
    ws->near = ckm_alloc_array(s, sizeof(int32_t));
    ws->cumsum = ckm_alloc_array(s, sizeof(double));
    ws->partial = ckm_alloc_array((s / SEED_BLOCK + 1) * (ws->trials + 1), sizeof(double));
    ws->cand_dist = ckm_mul_ok(ws->trials, s, &cand_len) ? ckm_alloc_array(cand_len, sizeof(double)) : NULL;
    ws->far = ckm_mul_ok(ws->trials, k, &far_len) ? ckm_alloc_array(far_len, sizeof(double)) : NULL;
    size_t tt;
    ws->trial_t = ckm_mul_ok((ws->trials + 3) / 4 * 4, ws->d, &tt) ? ckm_alloc_array(tt, sizeof(double)) : NULL;
    ws->list = ckm_calloc_array(k, sizeof(ckm_seed_list));
    ws->pick = ckm_alloc_array(k, sizeof(size_t));
    if (!ws->closest || !ws->near || !ws->cumsum || !ws->partial || !ws->cand_dist || !ws->far || !ws->trial_t || !ws->list ||
        !ws->pick) {
        ckm_seeder_free(ws);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for seeding (%zu groups)", s);
    }
    return CKM_OK;
}

void ckm_seeder_free(ckm_seeder *ws)
{
    free(ws->closest);
    free(ws->near);
    free(ws->cumsum);
    free(ws->partial);
    free(ws->cand_dist);
    free(ws->far);
    free(ws->trial_t);
    if (ws->list)
        for (size_t a = 0; a < ws->k; a++)
            free(ws->list[a].pt);
    free(ws->list);
    free(ws->pick);
    free(ws->Yh);
    free(ws->fnorm);
    free(ws->hnorm);
    free(ws->rb);
    free(ws->c1);
    free(ws->tile);
    free(ws->trial_f);
    memset(ws, 0, sizeof *ws);
}

/* x rounded to the nearest bf16 (ties to even): the upper half of the float's bits, from
 * x's float rounding; x finite and below 2^127 in magnitude. */
static uint16_t to_bf16(double x)
{
    float f = (float)x;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    b += 0x7fffu + ((b >> 16) & 1u);
    return (uint16_t)(b >> 16);
}

/* The float a bf16 stands for: its bits are the float's upper half. */
static inline float bf16_float(uint16_t h)
{
    uint32_t w = (uint32_t)h << 16;
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

/* The bf16 copy, its norm bounds, the tiles and the trials' rows, once per seeder; the
 * filter stays off (the double kernel alone) when memory is short, a float could overflow,
 * or d is too large for the error bound. */
static void filter_setup(ckm_seeder *ws)
{
    size_t s = ws->s, d = ws->d, sd, tt, tp;
    if (ws->filter_tried || d < CKM_SEED_FLOAT_FROM_D || d > 100000)
        return;
    ws->filter_tried = true;
    ws->tile_pts = d >= 1024 ? 8 : 8192 / d / 8 * 8;
    double *mu = ckm_alloc_array(d, sizeof(double));
    ws->Yh = ckm_mul_ok(s, d, &sd) ? ckm_alloc_array(sd, sizeof(uint16_t)) : NULL;
    ws->fnorm = ckm_alloc_array(s, sizeof(double));
    ws->hnorm = ckm_alloc_array(s, sizeof(double));
    ws->rb = ckm_alloc_array(s, sizeof(double));
    ws->c1 = ckm_alloc_array(s, sizeof(double));
    ws->tile = ckm_mul_ok(ws->tile_pts * d, (size_t)ws->threads, &tt) ? ckm_alloc_array(tt, sizeof(float)) : NULL;
    ws->trial_f = ckm_mul_ok((ws->trials + 7) / 8 * 8, d, &tp) ? ckm_alloc_array(tp, sizeof(float)) : NULL;
    bool ok = mu && ws->Yh && ws->fnorm && ws->hnorm && ws->rb && ws->c1 && ws->tile && ws->trial_f;
    double top = 0.0, rel = 1.0 + ((double)d + 4.0) * 0x1p-51, dd = (double)d;
    double g64 = (dd + 2.0) * 0x1p-53, g32 = (dd + 1.0) * 0x1p-24;
    ws->f_add = dd * 0x1p-1074;
    ws->f_inv = 1.0 / (1.0 - g64 / (1.0 - g64));
    ws->f_e = g32 / (1.0 - g32) + 4.0 * 0x1p-24;
    ws->f_up = 1.0 + 2.0 * g64;
    if (ok) {
        ckm_column_means(ws->Y, s, d, mu);
        for (size_t t = 0; t < s && top < 1e36; t++) {
            double n2 = 0.0;
            for (size_t f = 0; f < d; f++) {
                double v = ws->Y[t * d + f] - mu[f];
                n2 += v * v;
            }
            top = n2 > top ? n2 : top;
            double h2 = 0.0;
            if (top < 1e36) /* else a coordinate could overflow float */
                for (size_t f = 0; f < d; f++) {
                    uint16_t h = to_bf16(ws->Y[t * d + f] - mu[f]);
                    ws->Yh[t * d + f] = h;
                    double v = bf16_float(h);
                    h2 += v * v;
                }
            ws->hnorm[t] = h2;
            ws->fnorm[t] = sqrt(n2 * rel) * (1.0 + 1e-12) + 0x1p-1000;
            ws->c1[t] = h2 * (ws->f_e * ws->f_up * (1.0 + 1e-12) + 1e-12 - (1.0 - g64));
        }
        ok = top < 1e36;
    }
    free(mu);
    ws->filter = ok;
}

size_t ckm_seed_draw(const double *cumsum, size_t s, double x)
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
    const double *C;
    const size_t *cand; /* trial point indices */
    size_t trials, chosen; /* chosen: centers so far (rows of far have this many entries) */
    bool test;          /* scan mode: test before measuring */
    double gain[64];    /* per trial */
    size_t best;        /* the trial kept (update pass) */
    /* the bf16 filter this center (filter_trials): R = rb[t] + f_m and
       tau = R^2 (1 + 1e-12) + c1[t] + f_cb (seeding.c's header) */
    double f_m, f_cb;
    bool no_meas;       /* scan mode without the pruning count (far not computed) */
    float f_tn[64];     /* the trials' ||b'||^2 as floats (padded with trial 0) */
} seed_job;

/* Trials [q0, q1): far row ||C_a - y_q||^2 over the chosen a. */
static void seed_far(void *ctx, size_t q0, size_t q1, int tid)
{
    seed_job *j = ctx;
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, c = j->chosen;
    (void)tid;
    for (size_t q = q0; q < q1; q++) {
        const double *y = ws->Y + j->cand[q] * d;
        double *far = ws->far + q * c;
        for (size_t a = 0; a < c; a++)
            far[a] = ckm_sqdist(j->C + a * d, y, d);
    }
}

/* Point t's gain from trial y (far_a: ||C_near - y||^2). */
static inline double point_gain(const ckm_seeder *ws, size_t t, const double *y, double far_a)
{
    double cl = ws->closest[t];
    if (!ckm_seed_may_gain(far_a, cl))
        return 0.0;
    double dd = ckm_sqdist(ws->Y + t * ws->d, y, ws->d);
    return dd < cl ? ws->w[t] * (cl - dd) : 0.0;
}

/* List mode, trials [q0, q1): the gain of y_q over the lists it cannot skip. */
static void gain_lists(void *ctx, size_t q0, size_t q1, int tid)
{
    seed_job *j = ctx;
    ckm_seeder *ws = j->ws;
    size_t c = j->chosen;
    (void)tid;
    for (size_t q = q0; q < q1; q++) {
        const double *y = ws->Y + j->cand[q] * ws->d, *far = ws->far + q * c;
        double g = 0.0;
        for (size_t a = 0; a < c; a++) {
            const ckm_seed_list *L = &ws->list[a];
            if (ckm_seed_may_gain(far[a], L->R2))
                for (size_t e = 0; e < L->len; e++)
                    g += point_gain(ws, (size_t)L->pt[e], y, far[a]);
        }
        j->gain[q] = g;
    }
}

/* Full scan of points [t0, t1) (every distance measured, no branches): every trial's
 * distances into cand_dist and its gains summed in point order into the block's partials
 * (the order the per-trial loop summed in). Distances two points x eight trials at a time
 * from the feature-major trials (yt, d x tp): each lane sums its terms in feature order as
 * ckm_sqdist does (the same bits), but up to sixteen independent chains run at once; one chain of
 * d dependent additions per distance had made the scan latency-bound (10^6 x 16, k = 100:
 * 4.9 s of a 5.3 s k-means fit). */
__attribute__((target_clones("avx2", "default"))) static void scan_block(seed_job *j, size_t t0, size_t t1)
{
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, s = ws->s, T = j->trials, tp = (T + 3) / 4 * 4, b = t0 / SEED_BLOCK;
    const double *yt = ws->trial_t;
    double g[64], dd[2][64];
    for (size_t q = 0; q < T; q++)
        g[q] = 0.0;
    for (size_t t = t0; t < t1; t += 2) {
        size_t two = t + 1 < t1 ? 2 : 1;
        const double *x0 = ws->Y + t * d, *x1 = ws->Y + (t + two - 1) * d; /* an odd last point twice */
        size_t q = 0;
        for (; q + 8 <= tp; q += 8) { /* four chains: two points x eight trials */
            ckm_v4d a = {0.0, 0.0, 0.0, 0.0}, a2 = a, c = a, c2 = a;
            for (size_t f = 0; f < d; f++) {
                ckm_v4d y, y2;
                memcpy(&y, yt + f * tp + q, sizeof y);
                memcpy(&y2, yt + f * tp + q + 4, sizeof y2);
                ckm_v4d u = x0[f] - y, u2 = x0[f] - y2, v = x1[f] - y, v2 = x1[f] - y2;
                a += u * u;
                a2 += u2 * u2;
                c += v * v;
                c2 += v2 * v2;
            }
            memcpy(dd[0] + q, &a, sizeof a);
            memcpy(dd[0] + q + 4, &a2, sizeof a2);
            memcpy(dd[1] + q, &c, sizeof c);
            memcpy(dd[1] + q + 4, &c2, sizeof c2);
        }
        for (; q < tp; q += 4) {
            ckm_v4d a = {0.0, 0.0, 0.0, 0.0}, c = a;
            for (size_t f = 0; f < d; f++) {
                ckm_v4d y;
                memcpy(&y, yt + f * tp + q, sizeof y);
                ckm_v4d u = x0[f] - y, v = x1[f] - y;
                a += u * u;
                c += v * v;
            }
            memcpy(dd[0] + q, &a, sizeof a);
            memcpy(dd[1] + q, &c, sizeof c);
        }
        for (size_t p = 0; p < two; p++) {
            double cl = ws->closest[t + p], wt = ws->w[t + p];
            for (size_t r = 0; r < T; r++) {
                double v = dd[p][r];
                ws->cand_dist[r * s + t + p] = v;
                g[r] += wt * (cl - (v < cl ? v : cl)); /* a minsd, not a branch */
            }
        }
    }
    for (size_t q = 0; q < T; q++)
        ws->partial[b * (T + 1) + q] = g[q];
}

typedef float seed_v8f __attribute__((vector_size(32)));
typedef int seed_v8i __attribute__((vector_size(32)));
typedef uint16_t seed_v8h __attribute__((vector_size(16)));
typedef uint32_t seed_v8u __attribute__((vector_size(32)));

#define BF16_V (1.001 * 0x1p-8) /* v: the coordinates' rounding (seeding.c's header) */

/* rb[t] = sqrt(cl') + v na, cl' = (D(t) + d 2^-1074) / (1 - g64): point t's share of R,
 * kept with its closest D(t). */
static inline void filter_rb(ckm_seeder *ws, size_t t)
{
    ws->rb[t] = sqrt((ws->closest[t] + ws->f_add) * ws->f_inv) + BF16_V * ws->fnorm[t];
}

/* The float threshold tau of point t (seeding.c's header), rounded up: h >= tau proves no
 * gain. tau = R^2 - A^2 + E + 1e-12 (R^2 + A^2 + E), the A^2 terms in c1[t], the B^2 terms
 * in f_cb. */
static inline float filter_threshold(const seed_job *j, const ckm_seeder *ws, size_t t)
{
    double R = ws->rb[t] + j->f_m, tau = R * R * (1.0 + 1e-12) + ws->c1[t] + j->f_cb;
    return (float)(tau + fabs(tau) * 0x1p-22 + 0x1p-140); /* rounding to nearest stays above tau */
}

#define PEND 256 /* pairs through the filter awaiting their double distance */

/* The double distances of the pending pairs (points pt, trials pr), two at a time in one
 * loop (two independent chains; each sums as ckm_sqdist does, the same bits): into
 * cand_dist, and their gains into g in the order they came (point order per trial). */
static void filter_flush(seed_job *j, double *g, const uint32_t *pt, const uint8_t *pr, size_t np)
{
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, s = ws->s;
    for (size_t i = 0; i < np; i += 2) {
        size_t i1 = i + 1 < np ? i + 1 : i;
        const double *xa = ws->Y + (size_t)pt[i] * d, *ya = ws->Y + j->cand[pr[i]] * d;
        const double *xb = ws->Y + (size_t)pt[i1] * d, *yb = ws->Y + j->cand[pr[i1]] * d;
        double sa = 0.0, sb = 0.0;
        for (size_t f = 0; f < d; f++) {
            double ua = xa[f] - ya[f], ub = xb[f] - yb[f];
            sa += ua * ua;
            sb += ub * ub;
        }
        double dd[2] = {sa, sb};
        for (size_t e = i; e <= i1; e++) {
            size_t t = pt[e], r = pr[e];
            double cl = ws->closest[t], v = dd[e - i];
            if (v < cl)
                g[r] += ws->w[t] * (cl - v);
            ws->cand_dist[r * s + t] = v;
        }
    }
}

/* Full scan of points [t0, t1) through the bf16 filter: tiles of tile_pts points widened to
 * float (a bf16 is the upper half of a float), then eight points x eight trials per step
 * (eight independent chains of products) against the trials' rows, feature-major in trial_f
 * (d x tf), and h = ||b'||^2 - 2 G by lanes. Pairs under the threshold wait in a list (their
 * point's double row prefetched) for filter_flush; the rest get +inf. */
__attribute__((target_clones("avx2", "default"))) static void scan_filter(seed_job *j, size_t t0, size_t t1, int tid)
{
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, s = ws->s, T = j->trials, tf = (T + 7) / 8 * 8, b = t0 / SEED_BLOCK, P = ws->tile_pts, np = 0;
    const float *yt = ws->trial_f;
    float *tile = ws->tile + (size_t)tid * P * d;
    double g[64];
    uint32_t pt[PEND + 64] = {0};
    uint8_t pr[PEND + 64] = {0};
    for (size_t q = 0; q < T; q++)
        g[q] = 0.0;
    for (size_t u0 = t0; u0 < t1; u0 += P) {
        size_t u1 = u0 + P < t1 ? u0 + P : t1, n8 = (u1 - u0) * d / 8 * 8;
        const uint16_t *h = ws->Yh + u0 * d;
        for (size_t i = 0; i < n8; i += 8) {
            seed_v8h v;
            memcpy(&v, h + i, sizeof v);
            seed_v8u w = __builtin_convertvector(v, seed_v8u) << 16;
            memcpy(tile + i, &w, sizeof w);
        }
        for (size_t i = n8; i < (u1 - u0) * d; i++)
            tile[i] = bf16_float(h[i]);
        for (size_t t = u0; t < u1; t += 8) {
            size_t cnt = u1 - t < 8 ? u1 - t : 8;
            const float *x[8];
            float thr[8];
            for (size_t p = 0; p < 8; p++) { /* missing points: the first again, never kept */
                x[p] = tile + (t - u0 + (p < cnt ? p : 0)) * d;
                thr[p] = p < cnt ? filter_threshold(j, ws, t + p) : -INFINITY;
            }
            for (size_t q = 0; q < tf; q += 8) {
                seed_v8f a[8] = {{0}}, nb;
                for (size_t f = 0; f < d; f++) {
                    seed_v8f y;
                    memcpy(&y, yt + f * tf + q, sizeof y);
                    for (size_t p = 0; p < 8; p++)
                        a[p] += x[p][f] * y;
                }
                memcpy(&nb, j->f_tn + q, sizeof nb);
                size_t r1 = q + 8 < T ? q + 8 : T;
                for (size_t r = q; r < r1; r++) /* no gain unless measured below */
                    for (size_t p = 0; p < cnt; p++)
                        ws->cand_dist[r * s + t + p] = INFINITY;
                seed_v8i m[8], some = {0};
                for (size_t p = 0; p < 8; p++) {
                    seed_v8f th = {thr[p], thr[p], thr[p], thr[p], thr[p], thr[p], thr[p], thr[p]};
                    m[p] = nb - (a[p] + a[p]) < th;
                    some |= m[p];
                }
                if ((some[0] | some[1] | some[2] | some[3] | some[4] | some[5] | some[6] | some[7]) == 0)
                    continue; /* most groups: nothing to measure */
                for (size_t p = 0; p < cnt; p++) {
                    bool any = false;
                    for (size_t r = q; r < r1; r++)
                        if (m[p][r - q]) {
                            pt[np] = (uint32_t)(t + p);
                            pr[np++] = (uint8_t)r;
                            any = true;
                        }
                    if (any)
                        for (size_t o = 0; o < d; o += 8)
                            __builtin_prefetch(ws->Y + (t + p) * d + o);
                }
                if (np >= PEND) {
                    filter_flush(j, g, pt, pr, np);
                    np = 0;
                }
            }
        }
    }
    filter_flush(j, g, pt, pr, np);
    for (size_t q = 0; q < T; q++)
        ws->partial[b * (T + 1) + q] = g[q];
}

/* Scan modes (early: the trials would visit most points), blocks [b0, b1) of points in
 * index order: each block's share of every trial's gain and the distances (INFINITY where
 * not measured) for the join. While many points need measuring, every distance is measured
 * without branches (faster than testing when many tests fail, j->test false); else only
 * where the pruning test lets through. Also how many points the test lets through for the
 * first trial (the choice of the next step's mode). */
static void gain_blocks(void *ctx, size_t b0, size_t b1, int tid)
{
    seed_job *j = ctx;
    ckm_seeder *ws = j->ws;
    size_t d = ws->d, s = ws->s, c = j->chosen, T = j->trials;
    for (size_t b = b0; b < b1; b++) {
        size_t t0 = b * SEED_BLOCK, t1 = (b + 1) * SEED_BLOCK < s ? (b + 1) * SEED_BLOCK : s, meas = 0;
        if (!j->test) {
            if (ws->filter)
                scan_filter(j, t0, t1, tid);
            else
                scan_block(j, t0, t1);
            if (j->no_meas) /* no count this center: every point counts as let through */
                meas = t1 - t0;
            else
                for (size_t t = t0; t < t1; t++)
                    meas += ckm_seed_may_gain(ws->far[ws->near[t]], ws->closest[t]); /* first trial's row */
        } else
            for (size_t q = 0; q < T; q++) {
                const double *y = ws->Y + j->cand[q] * d, *far = ws->far + q * c;
                double *out = ws->cand_dist + q * s, g = 0.0;
                for (size_t t = t0; t < t1; t++) {
                    double cl = ws->closest[t];
                    out[t] = INFINITY;
                    if (ckm_seed_may_gain(far[ws->near[t]], cl)) {
                        double dd = ckm_sqdist(ws->Y + t * d, y, d);
                        out[t] = dd;
                        g += dd < cl ? ws->w[t] * (cl - dd) : 0.0;
                        meas += q == 0;
                    }
                }
                ws->partial[b * (T + 1) + q] = g;
            }
        ws->partial[b * (T + 1) + T] = (double)meas;
    }
}

/* Scan mode, points [t0, t1): closest and near once trial `best` is center `chosen`, from
 * the distances gain_blocks stored. */
static void join_scan(void *ctx, size_t t0, size_t t1, int tid)
{
    seed_job *j = ctx;
    ckm_seeder *ws = j->ws;
    const double *dist = ws->cand_dist + j->best * ws->s;
    int32_t c = (int32_t)j->chosen;
    (void)tid;
    for (size_t t = t0; t < t1; t++) {
        double dd = dist[t], cl = ws->closest[t];
        ws->near[t] = dd < cl ? c : ws->near[t];
        ws->closest[t] = dd < cl ? dd : cl;
    }
    if (ws->filter) /* the threshold's share of the points that came closer */
        for (size_t t = t0; t < t1; t++)
            if (ws->near[t] == c)
                filter_rb(ws, t);
}

/* List a's S and R2 from its members. */
static void list_sums(ckm_seeder *ws, ckm_seed_list *L)
{
    double S = 0.0, R2 = 0.0;
    for (size_t e = 0; e < L->len; e++) {
        size_t t = (size_t)L->pt[e];
        S += ws->w[t] * ws->closest[t];
        R2 = ws->closest[t] > R2 ? ws->closest[t] : R2;
    }
    L->S = S;
    L->R2 = R2;
}

/* The lists of centers [0, c] rebuilt from near (members in index order). False when out
 * of memory. */
static bool lists_rebuild(ckm_seeder *ws, size_t c)
{
    for (size_t a = 0; a <= c; a++)
        ws->list[a].len = 0;
    for (size_t t = 0; t < ws->s; t++)
        ws->list[ws->near[t]].len++;
    for (size_t a = 0; a <= c; a++) {
        ckm_seed_list *L = &ws->list[a];
        if (!ckm_grow((void **)&L->pt, &L->cap, L->len > 0 ? L->len : 1, sizeof(int32_t)))
            return false;
        L->len = 0;
    }
    for (size_t t = 0; t < ws->s; t++) {
        ckm_seed_list *L = &ws->list[ws->near[t]];
        L->pt[L->len++] = (int32_t)t;
    }
    for (size_t a = 0; a <= c; a++)
        list_sums(ws, &ws->list[a]);
    return true;
}

/* List mode: y = Y[p] becomes center c (far: its row); the members it is strictly closer
 * to move to list c. False when out of memory. */
static bool join_lists(ckm_seeder *ws, size_t c, size_t p, const double *far)
{
    size_t d = ws->d;
    const double *y = ws->Y + p * d;
    ckm_seed_list *to = &ws->list[c];
    to->len = 0;
    for (size_t a = 0; a < c; a++) {
        ckm_seed_list *L = &ws->list[a];
        if (!ckm_seed_may_gain(far[a], L->R2))
            continue;
        size_t keep = 0, before = to->len;
        for (size_t e = 0; e < L->len; e++) {
            size_t t = (size_t)L->pt[e];
            double cl = ws->closest[t];
            double dd = ckm_seed_may_gain(far[a], cl) ? ckm_sqdist(ws->Y + t * d, y, d) : cl;
            if (dd < cl) {
                if (!ckm_grow((void **)&to->pt, &to->cap, to->len + 1, sizeof(int32_t)))
                    return false;
                to->pt[to->len++] = (int32_t)t;
                ws->closest[t] = dd;
                ws->near[t] = (int32_t)c;
            } else
                L->pt[keep++] = (int32_t)t;
        }
        L->len = keep;
        if (to->len > before)
            list_sums(ws, L);
    }
    list_sums(ws, to);
    return true;
}

/* The trials' rows (their bf16 values, as floats) into trial_f and their ||b'||^2 as
 * floats into f_tn, padded with trial 0, and this center's terms of the threshold. */
static void filter_trials(ckm_seeder *ws, seed_job *j)
{
    size_t d = ws->d, T = j->trials, tf = (T + 7) / 8 * 8;
    double nb = 0.0, B2 = 0.0;
    for (size_t q = 0; q < tf; q++) {
        size_t c = j->cand[q < T ? q : 0];
        for (size_t f = 0; f < d; f++)
            ws->trial_f[f * tf + q] = bf16_float(ws->Yh[c * d + f]);
        j->f_tn[q] = (float)ws->hnorm[c];
        nb = ws->fnorm[c] > nb ? ws->fnorm[c] : nb;
        B2 = ws->hnorm[c] > B2 ? ws->hnorm[c] : B2;
    }
    j->f_m = BF16_V * nb + sqrt((double)d) * 0x1p-132;
    j->f_cb = (ws->f_e * B2 * ws->f_up + (double)d * 0x1p-148) * (1.0 + 1e-12);
}

/* ctx (may be NULL) is polled once per center; the centers not yet chosen at a stop (or
 * when a member list cannot grow: out of memory) are copies of the first (finite values;
 * the caller sees a stop at its next check, and the seeds stay valid centers). */
static void seed_kmeanspp(ckm_seeder *ws, ckm_rng *rng, double *C, const ckm_context *ctx)
{
    size_t s = ws->s, d = ws->d, k = ws->k, trials = ws->trials, cand[64];
    double total = 0.0;
    for (size_t t = 0; t < s; t++) {
        total += ws->w[t];
        ws->cumsum[t] = total;
    }
    filter_setup(ws);
    size_t first = ckm_seed_draw(ws->cumsum, s, ckm_rng_uniform(rng) * total);
    memcpy(C, ws->Y + first * d, d * sizeof(double));
    size_t c = 1;
    for (size_t t = 0; t < s; t++) {
        ws->closest[t] = ckm_sqdist(ws->Y + t * d, C, d);
        ws->near[t] = 0;
        if (ws->filter)
            filter_rb(ws, t);
    }
    seed_job job = {.ws = ws, .C = C, .cand = cand, .trials = trials};
    size_t nblocks = (s + SEED_BLOCK - 1) / SEED_BLOCK;
    bool par = ws->threads > 1, lists = false;
    int quiet = 0; /* centers left without the mode's count */
    ckm_status why;
    for (; c < k; c++) {
        if (ctx && ckm_ctx_stop(ctx, &why))
            break;
        /* the running sum in point order, as the unpruned rule draws: same seeds */
        double acc = 0.0;
        for (size_t t = 0; t < s; t++) {
            acc += ws->w[t] * ws->closest[t];
            ws->cumsum[t] = acc;
        }
        for (size_t q = 0; q < trials; q++)
            cand[q] = acc > 0.0 ? ckm_seed_draw(ws->cumsum, s, ckm_rng_uniform(rng) * acc) : (size_t)ckm_rng_below(rng, s);
        job.chosen = c;
        bool scan = !lists;
        /* the filter's full scans need no center-to-trial distances; they only serve the
           count that picks the next mode, which is skipped for 15 centers after one that let
           more than half the points through (10^5 x 128, k = 1000: it always does) */
        job.no_meas = scan && !job.test && ws->filter && quiet > 0;
        if (job.no_meas)
            quiet--;
        else if (par && trials > 1)
            ckm_parallel_for(ws->threads, trials, seed_far, &job);
        else
            seed_far(&job, 0, trials, 0);
        double meas = 0.0;
        if (scan && !job.test && ws->filter) /* the trials' float rows, feature-major, padded with trial 0 */
            filter_trials(ws, &job);
        else if (scan && !job.test) { /* the trials feature-major, padded with trial 0 */
            size_t tp = (trials + 3) / 4 * 4;
            for (size_t f = 0; f < d; f++)
                for (size_t q = 0; q < tp; q++)
                    ws->trial_t[f * tp + q] = ws->Y[cand[q < trials ? q : 0] * d + f];
        }
        if (scan) {
            if (par && nblocks > 1)
                ckm_parallel_for(ws->threads, nblocks, gain_blocks, &job);
            else
                gain_blocks(&job, 0, nblocks, 0);
            for (size_t q = 0; q <= trials; q++) {
                double g = 0.0;
                for (size_t b = 0; b < nblocks; b++)
                    g += ws->partial[b * (trials + 1) + q];
                if (q < trials)
                    job.gain[q] = g;
                else
                    meas = g;
            }
        } else if (par && trials > 1)
            ckm_parallel_for(ws->threads, trials, gain_lists, &job);
        else
            gain_lists(&job, 0, trials, 0);
        size_t best = 0;
        for (size_t q = 1; q < trials; q++)
            best = job.gain[q] > job.gain[best] ? q : best;
        job.best = best;
        memcpy(C + c * d, ws->Y + cand[best] * d, d * sizeof(double));
        if (scan) {
            if (par && s >= 65536)
                ckm_parallel_for(ws->threads, s, join_scan, &job);
            else
                join_scan(&job, 0, s, 0);
            /* the next step's mode: branchless while the test lets more than 1/8 of the
               points through (between 1/8 and 1/2 the branches cost more than they save:
               10^6 x 16 in 1000 blobs, k = 1000, 22 -> 25 s); member lists (read out of
               order) once under 1/32 (measured at 10^6 x 16, k = 100 and 1000), and from
               then on, as lists only shrink */
            if (!job.no_meas && ws->filter && !job.test)
                quiet = meas > (double)s / 2.0 ? 15 : 0;
            job.test = meas <= (double)s / 8.0;
            if (meas < (double)s / 32.0) {
                if (!lists_rebuild(ws, c))
                    break;
                lists = true;
            }
        } else if (!join_lists(ws, c, cand[best], ws->far + best * c))
            break;
    }
    for (; c < k; c++)
        memcpy(C + c * d, C, d * sizeof(double));
}

void ckm_seed_distinct(ckm_rng *rng, size_t n, size_t k, size_t *out)
{
    /* rejection of repeats: no n-sized array, cheap because k <= n and typically k << n */
    for (size_t c = 0; c < k; c++) {
        bool again;
        do {
            out[c] = (size_t)ckm_rng_below(rng, n);
            again = false;
            for (size_t q = 0; q < c && !again; q++)
                again = out[q] == out[c];
        } while (again);
    }
}

/* k distinct data points (with must-links a point stands for itself, not its group). */
static void seed_random(ckm_seeder *ws, ckm_rng *rng, double *C)
{
    const ckm_reduced *r = ws->r;
    size_t d = r->d;
    ckm_seed_distinct(rng, r->n, ws->k, ws->pick);
    for (size_t c = 0; c < ws->k; c++)
        memcpy(C + c * d, r->X + ws->pick[c] * d, d * sizeof(double));
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
