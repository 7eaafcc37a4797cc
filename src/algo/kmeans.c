/*
 * kmeans.c -- Lloyd's algorithm on weighted points (the super-points of reduced.h; all
 * weights are 1 without must-links), the unconstrained baseline and the engine others
 * reuse.
 *   objective  F(l, C) = sum_t w_t ||y_t - c_{l(t)}||^2   (+ the constant scatter)
 *   seeding    greedy k-means++ (seeding.c), or k random points with init = random
 *   iteration  assign l(t) = argmin_j ||y_t - c_j||^2 (nearest.c: dgemm, or for 4 <= d <= 32
 *              the fused pass of nearest_fused.c; or, bounded,
 *              Yinyang steps, yinyang.c, with full passes screened in single precision
 *              from d = 32, screen.c: the same labels); an empty cluster takes the point
 *              farthest from its center among clusters of >= 2 points;
 *              c_j = weighted mean of its points, summed per fixed chunk of points
 *   stop       labels unchanged, or sum_j ||c_j - c_j'||^2 <= tol * mean feature variance
 *              (scikit-learn's rule), or max_iter; then one final assignment so the labels
 *              are the nearest-center labels of the returned centers.
 *   restarts   n_init, restart r seeded by (seed, r); best F kept, ties to the lower r, so
 *              the result does not depend on timing or threads.
 *   precision  single: every full pass decided by float32 GEMM (screen.c, float_only)
 * Cost per iteration: O(s k d) flops in dgemm + O(s k) for the argmin (plain); bounded,
 * after the first iterations, O(s t) bound updates + O(d) per measured distance.
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
    bool bounded;        /* Yinyang steps */
    bool stale, grouped; /* the bounds must be rebuilt; the centers are grouped (restart) */
    bool plain_pass;     /* the last assignment was a full pass (with !screened, by
                            ckm_nearest: dist holds every point's distance) */
    bool screened;       /* bounded, d >= 32: full passes through the screen */
    ckm_screen screen;   /* single-precision full passes (same labels) */
    size_t last_changed;
    size_t settle;       /* bounds are rebuilt once at most s / settle labels changed */
    int left;            /* steps left to the iteration cap, this one included */
    bool fresh;          /* the bounds were built by the last pass */
    bool defer;          /* the first bounds too wait until the labels settle */
    int threads;
    double *partial;     /* chunks * k * (d + 1): per-chunk sums and masses */
    ckm_yinyang yy;
    const ckm_context *ctx;
    const ckm_reduced *r;
    double tol;          /* center-shift tolerance (ckm_shift_tol) */
    double last_log;     /* of the once-a-second progress line */
} km_ws;


/* A full pass of bounded mode without bounds: labels only, through the screen. */
static void label_certain(void *ctx, size_t i, const double *e, double ynf, double E, size_t j, int tid)
{
    (void)e, (void)ynf, (void)E, (void)tid;
    ((km_ws *)ctx)->lab[i] = (int32_t)j;
}

static void label_exact(void *ctx, size_t i, const double *g, size_t j, int tid)
{
    (void)g, (void)tid;
    ((km_ws *)ctx)->lab[i] = (int32_t)j;
}

/* fewest steps left to the iteration cap for which stale bounds are rebuilt */
#define REBUILD_LEFT 3
/* with the fused full pass, bounds are built once at most s / SETTLE_FUSED labels changed
   (else s / 20): at 10^6 x 16, k = 100 on overlapping data a fit's builds at 4.3 %, 2 % and
   1 % changed labels were refused within one or two steps (each build two fused passes),
   from 0.76 % on the bounded steps cost 0.3-0.7 passes for a dozen steps and more */
#define SETTLE_FUSED 128

/* Assignment step (plain: every distance, ckm_nearest; bounded: Yinyang, the same labels) with
 * empty-cluster repair. Returns the number of labels changed. */
static size_t assign(km_ws *ws)
{
    size_t s = ws->s, k = ws->k;
    /* bounded: the first pass of a restart builds the bounds (with the fused full pass,
       ws->defer: the first pass after one that changed at most s / settle labels); a step
       the bounds would not pay for, and the passes after it while more than s / settle
       labels change (5 %; 0.78 % with the fused pass), are plain passes (cheaper than
       rebuilding bounds that soon go stale); then the bounds are rebuilt. Every variant
       gives the plain labels (up to ties within rounding: screen.c, yinyang.c). Tried
       (issue 55): plain passes from a restart's start until the labels settle at d = 128;
       a fit at 10^5 x 128, k = 1000 on overlapping data took 3.0 s instead of 2.5 s
       (bench/kmeans_hard_run.sh), so screened runs still build at once. Where k d <= 2^14
       a build is by whole rows (yinyang.c): at 10^6 x 16, k = 100, 0.10 s against 0.055 s
       for a plain pass (the first 0.19 s: the bounds' pages touched for the first time).
       A rebuild costs about two plain passes, so none is made with fewer than REBUILD_LEFT
       steps to the cap, and bounds refused by the very step after their build (the centers
       still moving far) wait for half as many changed labels before the next (20 capped steps
       from random starts at 10^6 x 16, k = 100 on overlapping data rebuilt and refused
       in turn). */
    bool plain = !ws->bounded;
    if (ws->bounded && ws->stale && (ws->grouped || ws->defer) &&
        (ws->last_changed > s / ws->settle || ws->left < REBUILD_LEFT))
        plain = true;
    else if (ws->bounded && ws->stale) {
        if (!ws->grouped)
            ckm_yinyang_group(&ws->yy, ws->C);
        ws->grouped = true;
        ckm_yinyang_reset(&ws->yy, ws->Y, ws->ynorm, ws->C, &ws->near, ws->screened ? &ws->screen : NULL, ws->lab);
        ws->stale = false;
        ws->fresh = true;
    } else if (ws->bounded && /* update() left the previous centers in Cnew */
               !ckm_yinyang_step(&ws->yy, ws->Y, ws->ynorm, ws->Cnew, ws->C, ws->lab)) {
        plain = true;
        ws->stale = true;
        if (ws->fresh && ws->settle < s)
            ws->settle *= 2;
        ws->fresh = false;
    } else
        ws->fresh = false;
    if (plain && !ws->screened)
        ckm_nearest(ws->Y, ws->ynorm, s, ws->C, &ws->near, ws->lab, ws->dist);
    else if (plain)
        ckm_screen_pass(&ws->screen, ws->C, NULL, &ws->near, label_certain, label_exact, ws);
    bool have_dist = plain && !ws->screened; /* dist holds every point's distance */
    memset(ws->count, 0, k * sizeof(size_t));
    for (size_t t = 0; t < s; t++)
        ws->count[ws->lab[t]]++;
    bool repaired = false;
    for (size_t j = 0; j < k; j++) {
        if (ws->count[j] > 0)
            continue;
        if (!have_dist && !repaired) /* O(s d), not a full pass; rounded otherwise than dgemm */
            ckm_yinyang_assigned(ws->Y, ws->ynorm, s, ws->d, ws->C, ws->lab, ws->dist);
        repaired = true;
        double far = -1.0;
        size_t at = SIZE_MAX;
        for (size_t t = 0; t < s; t++)
            if (ws->count[ws->lab[t]] >= 2 && ws->dist[t] > far) {
                far = ws->dist[t];
                at = t;
            }
        if (at == SIZE_MAX)
            break; /* fewer points than clusters: cannot happen when s >= k */
        size_t from = (size_t)ws->lab[at];
        ws->count[from]--;
        ws->lab[at] = (int32_t)j;
        ws->count[j] = 1;
        ws->dist[at] = 0.0;
        if (!ws->stale)
            ckm_yinyang_jump(&ws->yy, j, sqrt(ckm_sqdist(ws->C + j * ws->d, ws->Y + at * ws->d, ws->d)), at, from);
        memcpy(ws->C + j * ws->d, ws->Y + at * ws->d, ws->d * sizeof(double));
    }
    size_t changed = 0;
    for (size_t t = 0; t < s; t++)
        changed += ws->lab[t] != ws->prev[t];
    memcpy(ws->prev, ws->lab, s * sizeof(int32_t));
    ws->last_changed = changed;
    ws->plain_pass = plain;
    return changed;
}

/* sum_t w_t ||y_t - c_l(t)||^2 against the centers the labels were assigned to (an upper
 * bound through the Yinyang upper bounds when bounded) */
static double assigned_cost(km_ws *ws)
{
    bool have_dist = ws->plain_pass && !ws->screened;
    if (!have_dist && ws->stale) /* a screened full pass: neither distances nor bounds */
        ckm_yinyang_assigned(ws->Y, ws->ynorm, ws->s, ws->d, ws->C, ws->lab, ws->dist);
    double f = 0.0;
    for (size_t t = 0; t < ws->s; t++) {
        double u = ws->yy.ub ? ws->yy.ub[t] + ws->yy.cum[ws->lab[t]] : 0.0;
        f += ws->w[t] * (have_dist || ws->stale ? ws->dist[t] : u * u);
    }
    return f;
}

/* Weighted sums per chunk of SUM_CHUNK consecutive points (more for s > 128 SUM_CHUNK, so
 * at most 128 chunks), each summed in point order, then added up in chunk order: the
 * result depends on s only, never on the thread count, and with one chunk (s <= 65536)
 * it is the plain sequential sum. Threads take contiguous runs of chunks and read the
 * points once, in order. */
#define SUM_CHUNK ((size_t)65536)

/* From this dimension on the full passes of bounded mode run in single precision (screen.c):
 * measured, at d = 128 (10^5 points, k = 1000) a fit took 1.44 s instead of 1.70 s; at d = 16
 * (10^6, k = 100) 1.36 s instead of 1.19 s (the O(k) argmin work outweighs the halved
 * flops there). */
#define SCREEN_FROM_D 32

static size_t chunk_len(size_t s)
{
    size_t c = (s + 127) / 128;
    return c > SUM_CHUNK ? c : SUM_CHUNK;
}

static void accumulate(void *ctx, size_t c0, size_t c1, int tid)
{
    (void)tid;
    km_ws *ws = ctx;
    size_t d = ws->d, k = ws->k, B = chunk_len(ws->s);
    for (size_t c = c0; c < c1; c++) {
        double *P = ws->partial + c * k * (d + 1), *W = P + k * d;
        memset(P, 0, k * (d + 1) * sizeof(double));
        size_t end = (c + 1) * B < ws->s ? (c + 1) * B : ws->s;
        for (size_t t = c * B; t < end; t++) {
            size_t j = (size_t)ws->lab[t];
            double w = ws->w[t];
            const double *y = ws->Y + t * d;
            double *p = P + j * d;
            for (size_t f = 0; f < d; f++)
                p[f] += w * y[f];
            W[j] += w;
        }
    }
}

/* Cnew = weighted means of the current labels; returns sum_j ||Cnew_j - C_j||^2. The sums
 * are taken afresh every step: moving them with the points that changed label reads less
 * memory (4.5 ms a step at 10^6 x 16), but tried (issue 55) it rounded the centers enough
 * otherwise that the MPI mode's labels (exact sums) no longer equalled these on
 * tests/mpi/test_mpi.c's 2000 x 3, k = 8. */
static double update(km_ws *ws)
{
    size_t d = ws->d, k = ws->k, chunks = (ws->s + chunk_len(ws->s) - 1) / chunk_len(ws->s);
    int T = ws->threads;
    if (T > 1 && chunks > 1)
        ckm_parallel_for(T, chunks, accumulate, ws);
    else
        accumulate(ws, 0, chunks, 0);
    memset(ws->Cnew, 0, k * d * sizeof(double));
    memset(ws->wsum, 0, k * sizeof(double));
    for (size_t c = 0; c < chunks; c++) {
        const double *P = ws->partial + c * k * (d + 1), *W = P + k * d;
        for (size_t q = 0; q < k * d; q++)
            ws->Cnew[q] += P[q];
        for (size_t j = 0; j < k; j++)
            ws->wsum[j] += W[j];
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
    free(ws->partial);
    free(ws->dist);
    ckm_seeder_free(&ws->seeder);
    free(ws->lab);
    free(ws->prev);
    free(ws->count);
    ckm_nearest_ws_free(&ws->near);
    ckm_yinyang_free(&ws->yy);
    ckm_screen_free(&ws->screen);
}

/* One restart: seeds, then Lloyd until no label changes or the centers move by at most tol
 * (then one more assignment), or max_iter. */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    (void)out, (void)err;
    km_ws *ws = self;
    const ckm_context *ctx = ws->ctx;
    const ckm_settings *set = ctx->s;
    size_t s = ws->s, k = ws->k;
    ckm_seed_start(ctx, &ws->seeder, set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP, &rt->rng,
                   ws->C);
    for (size_t t = 0; t < s; t++)
        ws->prev[t] = -1;
    ws->stale = true;
    ws->grouped = false;
    ws->fresh = false;
    ws->settle = ws->defer ? SETTLE_FUSED : 20;
    ws->last_changed = ws->defer ? s : 0; /* a restart's first pass: every label is new */
    int it = 0;
    bool have = false;
    for (; it < ctx->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &rt->why)) {
            rt->stopped = true;
            break;
        }
        ws->left = ctx->max_iter - it;
        size_t changed = assign(ws);
        have = true;
        if (changed == 0)
            break;
        double shift = update(ws);
        /* SSE of these labels against the centers they were assigned to: an upper bound on the
           SSE after this update; measured once for the progress event and the log line */
        bool log_now = set->verbosity == 1 && set->log && ckm_now() - ws->last_log >= 1.0;
        double f = ckm_ctx_progress_wanted(ctx) || log_now ? ws->r->scatter + assigned_cost(ws) : NAN;
        if (ckm_ctx_progress_wanted(ctx))
            ckm_ctx_progress(ctx, (ckm_progress){.kind = CKM_PROGRESS_STEP, .restart = rt->rs, .iteration = it + 1,
                                                 .objective = f, .incumbent = NAN, .lower_bound = -INFINITY,
                                                 .done = (size_t)rt->rs, .total = (size_t)set->n_init});
        ckm_ctx_log(ctx, 2, "kmeans restart %d iter %d: %zu labels changed, center shift %.3g, %.3g%% of the distances measured",
                    rt->rs + 1, it + 1, changed, shift,
                    ws->plain_pass ? 100.0 : 100.0 * (double)ws->yy.measured / ((double)s * (double)k));
        if (log_now) {
            ckm_ctx_log(ctx, 1, "kmeans restart %d/%d iter %d: SSE <= %.10g, %zu labels changed (%.1f s)", rt->rs + 1,
                        set->n_init, it + 1, f, changed, ckm_now() - ctx->start);
            ws->last_log = ckm_now();
        }
        if (shift <= ws->tol) {
            it++;
            ws->left = 1;
            assign(ws);
            break;
        }
    }
    if (have) {
        rt->labels = ws->lab;
        rt->objective = objective(ws) + ws->r->scatter;
        rt->iterations = it;
    }
    return CKM_OK;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
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
    size_t chunks = (s + chunk_len(s) - 1) / chunk_len(s), kd1;
    ws.partial = ckm_mul_ok(k, d + 1, &kd1) && ckm_mul_ok(kd1, chunks, &kd1) ? ckm_alloc_array(kd1, sizeof(double)) : NULL;
    ws.threads = ckm_thread_count(set->threads);
    ckm_error rc = CKM_OK;
    if (!ynorm || !w || !ws.C || !ws.Cnew || !ws.wsum || !ws.dist || !ws.lab || !ws.prev || !ws.count || !ws.partial) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "k-means: out of memory (s = %zu, k = %zu, d = %zu)", s, k, d);
        goto done;
    }
    if ((rc = ckm_nearest_ws_init(&ws.near, k, d, set->threads, err)) != CKM_OK ||
        (rc = ckm_seeder_init(&ws.seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    /* auto: bounds where they paid in bench/kmeans_fit_run.sh (10^6 x 16, k = 100: 2.9x; 10^5 x
       128, k = 1000: 2.9x) and not where a plain pass is already cheap (2 x 10^6 x 2, k = 10:
       0.59 s against plain 0.47 s) */
    bool single = set->precision == CKM_PRECISION_SINGLE;
    ws.bounded = set->lloyd == CKM_LLOYD_BOUNDS || single ||
                 (set->lloyd == CKM_LLOYD_AUTO && (double)s * (double)k >= 65536.0 && k * d >= 128);
    if (ws.bounded &&
        ((rc = ckm_yinyang_init(&ws.yy, s, d, k, ckm_yinyang_groups_for(k, d), set->threads, err)) != CKM_OK ||
         ((d >= SCREEN_FROM_D || single) &&
          (rc = ckm_screen_init(&ws.screen, ws.Y, ws.ynorm, s, d, k, set->threads, err)) != CKM_OK)))
        goto done;
    ws.screened = ws.bounded && (d >= SCREEN_FROM_D || single);
    /* where the full pass is the fused one (nearest_fused.c, few features) a restart's
       first bounds wait, like later ones, until at most s / SETTLE_FUSED labels change: at
       10^6 x 16, k = 100 on overlapping data the bounds built at the first pass (0.29 s,
       four fused passes, their memory touched first) were refused by the next step in
       whole fits and 20-step runs alike. At d = 128 (screened passes) building at once
       paid. */
    ws.defer = !ws.screened && ws.near.panel != NULL;
    ws.screen.float_only = single;
    for (size_t t = 0; t < s; t++)
        w[t] = r->mass[t];
    ckm_row_norms(ws.Y, s, d, ynorm);
    double tol;
    if ((rc = ckm_shift_tol(r, set->tol, &tol, err)) != CKM_OK)
        goto done;
    ws.ctx = ctx;
    ws.r = r;
    ws.tol = tol;
    ws.last_log = ckm_now();
    ckm_status why;
    if ((rc = ckm_run_restarts(ctx, "kmeans", s, restart, &ws, out, &why, err)) != CKM_OK)
        goto done;
    if (why != CKM_STATUS_FEASIBLE)
        snprintf(out->message, sizeof out->message, "stopped (%s) after %d of %d restarts", ckm_status_string(why),
                 out->restarts, set->n_init);
done:
    ws_free(&ws);
    return rc;
}

/* 80 s (labels, distances, seeding) + T 256 k 8 (blocked distances); bounded Lloyd (s k >=
 * 2^16, k d >= 128): + the bounds (ckm_yinyang_bytes: 8 s + 4 s (t + 1), + 8 s for
 * k d <= 2^14), and from d = 32 the single-precision copy 4 s d + 8 s */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    double d = (double)r->d, k = (double)r->k, s = (double)r->s, T = threads > 0 ? threads : 1;
    double bounded = s * k >= 65536.0 && k * d >= 128.0
                         ? ckm_yinyang_bytes(r->s, r->d, r->k) + (d >= 32.0 ? 4.0 * s * d + 8.0 * s : 0.0)
                         : 0.0;
    return 80.0 * s + T * 256.0 * k * 8.0 + bounded;
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_kmeans = {
    .info = {.name = "kmeans",
             .summary = "Lloyd's k-means with greedy k-means++ seeding and restarts (unconstrained baseline)",
             .honours = 0,
             .proves_optimality = 0,
             .default_max_iter = 300,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
