/*
 * nearest.c -- nearest-center assignment, the hot loop of Lloyd's algorithm.
 *   ||y - c||^2 = ||y||^2 - 2 y.c + ||c||^2,  the cross terms Y C^T by one dgemm per
 * block of rows (BLAS does the O(m k d) flops; we do the O(m k) argmin). Blocks bound the
 * workspace to chunk*k doubles whatever m is.
 */
#include "core.h"
#include "objective.h"

#include <cblas.h>
#include <stdlib.h>

ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, ckm_err *err)
{
    /* ~4 MB of gram matrix per block: large enough for BLAS efficiency, cache friendly */
    size_t chunk = (size_t)1 << 19;
    chunk = chunk / (k ? k : 1);
    if (chunk < 64)
        chunk = 64;
    ws->chunk = chunk;
    size_t ck;
    ws->cnorm = ckm_alloc_array(k, sizeof(double));
    ws->gram = ckm_mul_ok(chunk, k, &ck) ? ckm_alloc_array(ck, sizeof(double)) : NULL;
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

void ckm_nearest(const double *Y, const double *ynorm, size_t m, size_t d, const double *C,
                 size_t k, ckm_nearest_ws *ws, int32_t *label, double *dist)
{
    for (size_t j = 0; j < k; j++) {
        double s = 0.0;
        for (size_t f = 0; f < d; f++)
            s += C[j * d + f] * C[j * d + f];
        ws->cnorm[j] = s;
    }
    for (size_t r0 = 0; r0 < m; r0 += ws->chunk) {
        size_t rows = m - r0 < ws->chunk ? m - r0 : ws->chunk;
        /* gram = Y[r0:r0+rows] * C^T  (rows x k) */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, 1.0,
                    Y + r0 * d, (int)d, C, (int)d, 0.0, ws->gram, (int)k);
        for (size_t r = 0; r < rows; r++) {
            const double *g = ws->gram + r * k;
            double best = ws->cnorm[0] - 2.0 * g[0];
            size_t bj = 0;
            for (size_t j = 1; j < k; j++) {
                double v = ws->cnorm[j] - 2.0 * g[j];
                if (v < best) {
                    best = v;
                    bj = j;
                }
            }
            double dd = ynorm[r0 + r] + best;
            label[r0 + r] = (int32_t)bj;
            if (dist)
                dist[r0 + r] = dd > 0.0 ? dd : 0.0;
        }
    }
}
