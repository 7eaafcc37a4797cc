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
 */
#include "core.h"
#include "objective.h"

#include <cblas.h>
#include <stdlib.h>

#define GEMM_SINGLE_THREAD_MNK ((size_t)1 << 18)

ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, size_t d, int threads, ckm_err *err)
{
    ws->k = k;
    ws->d = d;
    ws->threads = ckm_thread_count(threads);
    size_t kd = k * d > 0 ? k * d : 1;
    ws->block = GEMM_SINGLE_THREAD_MNK / kd;
    if (ws->block < 16) {
        ws->threads = 1; /* big k d: let BLAS thread one large call */
        ws->block = ((size_t)1 << 22) / (k ? k : 1);
        if (ws->block < 16)
            ws->block = 16;
    }
    size_t per, all;
    ws->cnorm = ckm_alloc_array(k, sizeof(double));
    ws->gram = ckm_mul_ok(ws->block, k, &per) && ckm_mul_ok(per, (size_t)ws->threads, &all)
                   ? ckm_alloc_array(all, sizeof(double))
                   : NULL;
    if (!ws->gram || !ws->cnorm) {
        ckm_nearest_ws_free(ws);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for distance workspace");
    }
    return CKM_OK;
}

void ckm_nearest_ws_free(ckm_nearest_ws *ws)
{
    free(ws->gram);
    free(ws->cnorm);
    ws->gram = ws->cnorm = NULL;
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
            /* a plain branchy argmin: the running minimum changes O(log k) times per row,
               and measured faster here than a branch-free two-pass scan */
            double best = cnorm[0] - 2.0 * g[0];
            size_t bj = 0;
            for (size_t c = 1; c < k; c++) {
                double v = cnorm[c] - 2.0 * g[c];
                if (v < best) {
                    best = v;
                    bj = c;
                }
            }
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

void ckm_nearest_rows(const double *Y, const double *ynorm, size_t m, const double *C,
                      ckm_nearest_ws *ws, int32_t *label, double *dist, ckm_nearest_row_fn row,
                      void *row_ctx)
{
    size_t k = ws->k, d = ws->d;
    ckm_row_norms(C, k, d, ws->cnorm);
    near_job job = {m, Y, ynorm, C, ws, label, dist, row, row_ctx};
    /* threads take whole blocks, so every row sees the same block layout (and the same
       dgemm call shape) whatever the thread count */
    size_t nblocks = (m + ws->block - 1) / ws->block;
    if (ws->threads <= 1 || nblocks <= 1)
        near_range(&job, 0, nblocks, 0);
    else
        ckm_parallel_for(ws->threads, nblocks, near_range, &job);
}

ckm_error ckm_sqdist_matrix(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out,
                            ckm_err *err)
{
    double *cnorm = ckm_alloc_array(k, sizeof(double));
    if (!cnorm)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    ckm_row_norms(C, k, d, cnorm);
    /* out = -2 Y C^T, then add ||y||^2 + ||c||^2 row by row */
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)m, (int)k, (int)d, -2.0, Y, (int)d, C,
                (int)d, 0.0, out, (int)k);
    for (size_t i = 0; i < m; i++) {
        double yn;
        ckm_row_norms(Y + i * d, 1, d, &yn);
        double *o = out + i * k;
        for (size_t j = 0; j < k; j++) {
            double v = o[j] + yn + cnorm[j];
            o[j] = v > 0.0 ? v : 0.0;
        }
    }
    free(cnorm);
    return CKM_OK;
}
