/*
 * nearest.c -- nearest-center assignment, the hot loop of Lloyd's algorithm.
 *   ||y - c||^2 = ||y||^2 - 2 y.c + ||c||^2,  cross terms Y C^T by dgemm per block of rows
 * (BLAS does the O(m k d) flops; we do the O(m k) argmin).
 * Threading: our own threads each take a contiguous range of rows and call dgemm on
 * blocks of at most 2^18 / (k d) rows. At that size OpenBLAS runs each call on the
 * calling thread (its multithreading threshold is m n k > 4 * 65536), so we never nest
 * thread pools nor touch OpenBLAS's process-wide thread setting. When k d is so large
 * that blocks would be tiny (< 16 rows), one caller thread and BLAS's own threads are
 * used instead. Each row's result is computed the same way whatever the thread count.
 * Labels and distances alone for 4 <= d <= 32 come from the fused pass instead
 * (nearest_fused.c: products and argmin in one loop, threads on blocks of 256 rows).
 */
#include "core.h"
#include "objective.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GEMM_SINGLE_THREAD_MNK ((size_t)1 << 18)

/* Rows per dgemm block against k x d centers and the threads that share the blocks: at
 * most 2^18 / (k d) rows, where OpenBLAS runs a call on the calling thread, on *threads of
 * ours; when that would be under 16 rows (big k d), one caller thread (*threads = 1) whose
 * large calls BLAS threads itself, blocks of max(16, big / k) rows. */
static size_t gemm_block(size_t k, size_t d, size_t big, int *threads)
{
    size_t kd = k * d > 0 ? k * d : 1, block = GEMM_SINGLE_THREAD_MNK / kd;
    if (block >= 16)
        return block;
    *threads = 1;
    block = big / (k ? k : 1);
    return block < 16 ? 16 : block;
}

ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, size_t d, int threads, ckm_err *err)
{
    ws->k = k;
    ws->d = d;
    ws->threads = ckm_thread_count(threads);
    ws->block = gemm_block(k, d, (size_t)1 << 22, &ws->threads);
    size_t per, all;
    ws->cnorm = ckm_alloc_array(k, sizeof(double));
    ws->gram = ckm_mul_ok(ws->block, k, &per) && ckm_mul_ok(per, (size_t)ws->threads, &all)
                   ? ckm_alloc_array(all, sizeof(double))
                   : NULL;
    size_t padded = (k + 7) / 8 * 8;
    ws->panel = ws->pnorm = NULL;
    ws->fma = false;
    bool fused = d >= CKM_FUSED_MIN_D && d <= CKM_FUSED_MAX_D;
    if (fused) {
        ws->panel = ckm_alloc_array(padded * d, sizeof(double));
        ws->pnorm = ckm_alloc_array(padded, sizeof(double));
        ws->fma = ckm_fused_available();
    }
    if (!ws->gram || !ws->cnorm || (fused && (!ws->panel || !ws->pnorm))) {
        ckm_nearest_ws_free(ws);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for distance workspace");
    }
    return CKM_OK;
}

void ckm_nearest_ws_free(ckm_nearest_ws *ws)
{
    free(ws->gram);
    free(ws->cnorm);
    free(ws->panel);
    free(ws->pnorm);
    ws->gram = ws->cnorm = ws->panel = ws->pnorm = NULL;
}

/* argmin_c v_c, v_c = ||c||^2 - 2 y.c (the scalar expression, lane by lane: the same
 * values), the lowest index among equal least values; *best = its value. Eight lanes
 * (two ckm_v4d) each keep their least value and its first position (strict <, positions
 * as exact doubles); the lanes are then compared by value, ties to the lower position;
 * the tail (k mod 8, later positions) is scanned last. The accumulators are named
 * variables (kept in arrays, gcc stored and reloaded them every iteration) and the lanes
 * are merged without branches (they mispredicted). Measured (issue 55): a plain fit at
 * 10^6 x 16, k = 100 on overlapping data, 155 passes, took 14.2 s with a branchy scalar
 * loop and 10.8 s with this; 22 ns a row of 100 on one core. */
__attribute__((target_clones("avx2", "default"))) size_t ckm_row_argmin(const double *cn, const double *g, size_t k,
                                                                        double *best)
{
    const ckm_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY}, eight = {8.0, 8.0, 8.0, 8.0};
    ckm_v4d m0 = inf, m1 = inf, p0 = {0.0, 1.0, 2.0, 3.0}, p1 = {4.0, 5.0, 6.0, 7.0};
    ckm_v4d a0 = {0.0, 0.0, 0.0, 0.0}, a1 = a0;
    size_t q = 0;
    for (; q + 8 <= k; q += 8) {
        ckm_v4d g0, g1, c0, c1;
        memcpy(&g0, g + q, sizeof g0);
        memcpy(&g1, g + q + 4, sizeof g1);
        memcpy(&c0, cn + q, sizeof c0);
        memcpy(&c1, cn + q + 4, sizeof c1);
        ckm_v4d e0 = c0 - 2.0 * g0, e1 = c1 - 2.0 * g1;
        ckm_v4l l0 = e0 < m0, l1 = e1 < m1;
        m0 = CKM_V4D_PICK(l0, e0, m0);
        m1 = CKM_V4D_PICK(l1, e1, m1);
        a0 = CKM_V4D_PICK(l0, p0, a0);
        a1 = CKM_V4D_PICK(l1, p1, a1);
        p0 += eight;
        p1 += eight;
    }
    /* without branches (they mispredicted here): the least value, then the least position
       among the lanes holding it */
    ckm_v4d mm = CKM_V4D_PICK(m1 < m0, m1, m0);
    double v = mm[0] < mm[1] ? mm[0] : mm[1], v2 = mm[2] < mm[3] ? mm[2] : mm[3];
    v = v2 < v ? v2 : v;
    const ckm_v4d vv = {v, v, v, v};
    ckm_v4d b0 = CKM_V4D_PICK(m0 == vv, a0, inf), b1 = CKM_V4D_PICK(m1 == vv, a1, inf);
    ckm_v4d bb = CKM_V4D_PICK(b1 < b0, b1, b0);
    double at = bb[0] < bb[1] ? bb[0] : bb[1], at2 = bb[2] < bb[3] ? bb[2] : bb[3];
    at = at2 < at ? at2 : at;
    size_t bj = at < (double)k ? (size_t)at : 0; /* inf: every value was +inf or NaN */
    for (; q < k; q++) {
        double e = cn[q] - 2.0 * g[q];
        if (e < v) {
            v = e;
            bj = q;
        }
    }
    *best = v;
    return bj;
}

typedef struct near_job {
    size_t m;
    const double *Y, *ynorm, *C;
    ckm_nearest_ws *ws;
    int32_t *label;
    double *dist;
    ckm_nearest_row_fn row;
    void *row_ctx;
} near_job;

/* Blocks [b0, b1): block b holds rows [b * block, min(m, (b + 1) * block)). */
static void near_range(void *ctx, size_t b0, size_t b1, int tid)
{
    near_job *j = ctx;
    size_t k = j->ws->k, d = j->ws->d, block = j->ws->block;
    double *gram = j->ws->gram + (size_t)tid * block * k;
    const double *cnorm = j->ws->cnorm;
    for (size_t b = b0; b < b1; b++) {
        size_t r0 = b * block;
        size_t rows = j->m - r0 < block ? j->m - r0 : block;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, 1.0,
                    j->Y + r0 * d, (int)d, j->C, (int)d, 0.0, gram, (int)k);
        for (size_t r = 0; r < rows; r++) {
            const double *g = gram + r * k;
            double best;
            size_t bj = ckm_row_argmin(cnorm, g, k, &best);
            double dd = j->ynorm[r0 + r] + best;
            if (j->label)
                j->label[r0 + r] = (int32_t)bj;
            if (j->dist)
                j->dist[r0 + r] = dd > 0.0 ? dd : 0.0;
            if (j->row)
                j->row(j->row_ctx, r0 + r, g, bj, tid);
        }
    }
}

/* rows per thread task of the fused pass (a multiple of its four rows) */
#define FUSED_BLOCK ((size_t)256)

static void fused_range(void *ctx, size_t b0, size_t b1, int tid)
{
    (void)tid;
    near_job *j = ctx;
    size_t r1 = b1 * FUSED_BLOCK < j->m ? b1 * FUSED_BLOCK : j->m;
    ckm_fused_rows(j->Y, j->ynorm, b0 * FUSED_BLOCK, r1, j->ws->d, j->ws->panel, j->ws->pnorm, j->ws->k, j->ws->fma,
                   j->label, j->dist);
}

void ckm_nearest(const double *Y, const double *ynorm, size_t m, const double *C,
                 ckm_nearest_ws *ws, int32_t *label, double *dist)
{
    ckm_nearest_rows(Y, ynorm, m, C, ws, label, dist, NULL, NULL);
}

void ckm_row_norms(const double *A, size_t m, size_t d, double *out)
{
    for (size_t i = 0; i < m; i++) {
        double s = 0.0;
        for (size_t f = 0; f < d; f++)
            s += A[i * d + f] * A[i * d + f];
        out[i] = s;
    }
}

void ckm_column_means(const double *A, size_t m, size_t d, double *mu)
{
    for (size_t f = 0; f < d; f++)
        mu[f] = 0.0;
    for (size_t i = 0; i < m; i++)
        for (size_t f = 0; f < d; f++)
            mu[f] += A[i * d + f];
    for (size_t f = 0; f < d; f++)
        mu[f] /= (double)m;
}

void ckm_nearest_rows(const double *Y, const double *ynorm, size_t m, const double *C,
                      ckm_nearest_ws *ws, int32_t *label, double *dist, ckm_nearest_row_fn row,
                      void *row_ctx)
{
    size_t k = ws->k, d = ws->d;
    ckm_row_norms(C, k, d, ws->cnorm);
    near_job job = {m, Y, ynorm, C, ws, label, dist, row, row_ctx};
    if (!row && ws->panel) {
        ckm_fused_panels(C, ws->cnorm, k, d, ws->panel, ws->pnorm);
        size_t nb = (m + FUSED_BLOCK - 1) / FUSED_BLOCK;
        if (ws->threads <= 1 || nb <= 1)
            fused_range(&job, 0, nb, 0);
        else
            ckm_parallel_for(ws->threads, nb, fused_range, &job);
        return;
    }
    /* threads take whole blocks, so every row sees the same block layout (and the same
       dgemm call shape) whatever the thread count */
    size_t nblocks = (m + ws->block - 1) / ws->block;
    if (ws->threads <= 1 || nblocks <= 1)
        near_range(&job, 0, nblocks, 0);
    else
        ckm_parallel_for(ws->threads, nblocks, near_range, &job);
}

typedef struct sqd_job {
    const double *Y, *C, *cnorm;
    size_t m, d, k, block;
    size_t first; /* the run's first block: range [b0, b1) means blocks first + b0 .. */
    double *out;
} sqd_job;

/* Blocks [b0, b1) of out = -2 Y C^T + ||y||^2 + ||c||^2, clamped at 0: the norms are added
 * while dgemm's block is still in cache (one sweep of memory instead of three: 10^6 x 100
 * costs, 800 MB, were written by dgemm's beta pass, its kernel and this loop in turn). */
static void sqd_range(void *ctx, size_t b0, size_t b1, int tid)
{
    (void)tid;
    const sqd_job *j = ctx;
    size_t k = j->k, d = j->d;
    for (size_t b = j->first + b0; b < j->first + b1; b++) {
        size_t r0 = b * j->block, rows = j->m - r0 < j->block ? j->m - r0 : j->block;
        double *ob = j->out + r0 * k;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, -2.0, j->Y + r0 * d, (int)d,
                    j->C, (int)d, 0.0, ob, (int)k);
        for (size_t i = 0; i < rows; i++) {
            double yn;
            ckm_row_norms(j->Y + (r0 + i) * d, 1, d, &yn);
            double *o = ob + i * k;
            for (size_t c = 0; c < k; c++) {
                double v = o[c] + yn + j->cnorm[c];
                o[c] = v > 0.0 ? v : 0.0;
            }
        }
    }
}

ckm_error ckm_sqdist_matrix(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out,
                            int threads, ckm_err *err)
{
    return ckm_sqdist_matrix_poll(Y, m, d, C, k, out, threads, NULL, NULL, NULL, err);
}

/* The blocks of out for norms cnorm given, runs of whole blocks between polls of stop (NULL:
 * one run); *stopped (may be NULL) when a poll said yes. */
static void sqd_runs(const double *Y, size_t m, size_t d, const double *C, const double *cnorm, size_t k, double *out,
                     int threads, bool (*stop)(const void *), const void *stop_ctx, bool *stopped)
{
    if (stopped)
        *stopped = false;
    /* as ckm_nearest: our threads on blocks small enough that OpenBLAS stays on the calling
       thread (its pool yields in a loop while it waits: 180,000 sched_yield calls in one
       sizeflow run at 10^5 x 100), or, for large k d, BLAS's threads on blocks of about
       1 MB */
    int T = ckm_thread_count(threads);
    sqd_job job = {Y, C, cnorm, m, d, k, gemm_block(k, d, (size_t)1 << 17, &T), 0, out};
    size_t nblocks = (m + job.block - 1) / job.block;
    size_t per = ((size_t)1 << 23) / (job.block * (k ? k : 1));
    per = !stop ? nblocks : per < 1 ? 1 : per;
    for (job.first = 0; job.first < nblocks; job.first += per) {
        if (stop && stop(stop_ctx)) {
            if (stopped)
                *stopped = true;
            break;
        }
        size_t run = nblocks - job.first < per ? nblocks - job.first : per;
        if (T <= 1 || run <= 1)
            sqd_range(&job, 0, run, 0);
        else
            ckm_parallel_for(T, run, sqd_range, &job);
    }
}

ckm_error ckm_sqdist_matrix_poll(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out,
                                 int threads, bool (*stop)(const void *), const void *stop_ctx, bool *stopped,
                                 ckm_err *err)
{
    if (stopped)
        *stopped = false;
    double *cnorm = ckm_alloc_array(k, sizeof(double));
    if (!cnorm)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    ckm_row_norms(C, k, d, cnorm);
    sqd_runs(Y, m, d, C, cnorm, k, out, threads, stop, stop_ctx, stopped);
    free(cnorm);
    return CKM_OK;
}

void ckm_sqdist_rows(const double *Y, size_t m, size_t d, const double *C, const double *cnorm, size_t k, double *out,
                     int threads)
{
    sqd_runs(Y, m, d, C, cnorm, k, out, threads, NULL, NULL, NULL);
}
