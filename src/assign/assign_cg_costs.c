/*
 * assign_cg_costs.c -- the restricted step's costs cost_tj: the caller's s x k matrix, or,
 * where that matrix is not stored (implicit costs, squared distances only: issue 37, "no
 * dense n x k cost matrix past sizeflow's limit"), computed from the groups' means m_t,
 * masses W_t and the centers c_j of the step:
 *   cost_tj = W_t ||m_t - c_j||^2 = W_t max(0, ||m'_t||^2 - 2 m'_t . c'_j + ||c'_j||^2),
 *   m' = m - o, c' = c - o, o the mass-weighted mean of the groups' means (a shift changes
 *   no distance; it keeps the norms near the data's spread, so the expansion loses little
 *   to cancellation when the data sit far from the origin).
 * A pass over every (t, j) (first columns, pricing, reduced-cost fixing) reads rows through
 * ckm_cg_cost_row in ascending t: blocks of rows (about 2^20 costs a block, the only buffer
 * of that kind) by dgemm on pieces small enough for OpenBLAS to stay on our threads; single
 * entries (the LP's columns, the implied duals, the objective) by the same expansion with
 * the d products summed in index order. The two differ only in the order of those sums:
 * each dot product is within d u ||m'_t|| ||c'_j|| <= d u (||m'_t||^2 + ||c'_j||^2) / 2 of the
 * exact one (u = 2^-53), so the two costs within (d + 2) u W_t (||m'_t||^2 + ||c'_j||^2),
 * the rest of the expansion rounding alike; pricing's tolerance adds 2.5e-16 (d + 2) W_t
 * (||m'_t||^2 + ||c'_j||^2) (ckm_cg_rounding), so a column priced out on a block's value is
 * priced out on the entry's. With the matrix both are its entries (rounding 0).
 * Memory (implicit): 8 s d + 8 s (shifted means, norms) + 8 (k d + k) + 8 * 2^20, and the
 * cache of first_prices' transportation problem from the shifted means (tcache: candidate
 * clusters per group kept across the steps, as sizeflow's Lloyd steps keep them).
 */
#include "assign_cg.h"
#include "core.h"
#include "objective.h"
#include "transport.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_COSTS ((size_t)1 << 20)
#define GEMM_SINGLE_THREAD_MNK ((size_t)1 << 18) /* OpenBLAS stays on the calling thread below */

size_t ckm_cg_block_rows(size_t k)
{
    return BLOCK_COSTS / k > 0 ? BLOCK_COSTS / k : 1;
}

size_t ckm_cg_piece_rows(size_t k, size_t d)
{
    size_t p = GEMM_SINGLE_THREAD_MNK / (k * d > 0 ? k * d : 1);
    return p < 16 ? 0 : p;
}

bool ckm_cg_costs_new(struct ckm_cg *cg, const ckm_reduced *r)
{
    size_t s = r->s, d = r->d, k = r->k, sd;
    if (!r->mean || !r->mass || d == 0 || !ckm_mul_ok(s, d, &sd))
        return false;
    if (!(cg->ms = ckm_alloc_array(sd, sizeof(double))) || !(cg->msn = ckm_alloc_array(s, sizeof(double))) ||
        !(cg->org = ckm_calloc_array(d, sizeof(double))) || !(cg->cs = ckm_alloc_array(k * d, sizeof(double))) ||
        !(cg->csn = ckm_alloc_array(k, sizeof(double))) ||
        !(cg->blk = ckm_alloc_array(cg->blk_rows * k, sizeof(double))) || !(cg->tcache = ckm_transport_cache_new()))
        return false;
    double mass = 0.0;
    for (size_t t = 0; t < s; t++) {
        mass += r->mass[t];
        for (size_t q = 0; q < d; q++)
            cg->org[q] += r->mass[t] * r->mean[t * d + q];
    }
    for (size_t q = 0; q < d; q++)
        cg->org[q] /= mass > 0.0 ? mass : 1.0;
    for (size_t t = 0; t < s; t++)
        for (size_t q = 0; q < d; q++)
            cg->ms[t * d + q] = r->mean[t * d + q] - cg->org[q];
    ckm_row_norms(cg->ms, s, d, cg->msn);
    cg->round = 2.5e-16 * ((double)d + 2.0);
    cg->implicit = 1;
    return true;
}

void ckm_cg_costs_free(struct ckm_cg *cg)
{
    free(cg->ms);
    free(cg->msn);
    free(cg->org);
    free(cg->cs);
    free(cg->csn);
    free(cg->blk);
    ckm_transport_cache_free(cg->tcache);
}

void ckm_cg_use_matrix(struct ckm_cg *cg, const double *cost)
{
    cg->cost = cost;
}

void ckm_cg_use_centers(struct ckm_cg *cg, const ckm_reduced *r, const double *C)
{
    size_t d = r->d, k = r->k;
    cg->cost = NULL;
    for (size_t j = 0; j < k; j++)
        for (size_t q = 0; q < d; q++)
            cg->cs[j * d + q] = C[j * d + q] - cg->org[q];
    ckm_row_norms(cg->cs, k, d, cg->csn);
    cg->b0 = cg->b1 = 0; /* no block of these centers yet */
}

/* W_t max(0, ||m'||^2 + ||c'||^2 - 2 m'.c') from the dot product g = m'.c'. */
static inline double expand(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j, double g)
{
    double v = cg->msn[t] + cg->csn[j] - 2.0 * g;
    return v > 0.0 ? r->mass[t] * v : 0.0;
}

double ckm_cg_cost(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j)
{
    if (cg->cost)
        return cg->cost[t * r->k + j];
    const double *m = cg->ms + t * r->d, *c = cg->cs + j * r->d;
    double g = 0.0;
    for (size_t q = 0; q < r->d; q++)
        g += m[q] * c[q];
    return expand(cg, r, t, j, g);
}

/* Rows b0 + i0 * sub .. of the block being filled, sub at a time (parallel jobs). */
typedef struct fill_job {
    struct ckm_cg *cg;
    const ckm_reduced *r;
    size_t b0, rows, sub;
} fill_job;

static void fill_rows(void *ctx, size_t i0, size_t i1, int tid)
{
    (void)tid;
    fill_job *f = ctx;
    struct ckm_cg *cg = f->cg;
    size_t k = f->r->k, d = f->r->d;
    for (size_t i = i0; i < i1; i++) {
        size_t first = i * f->sub, rows = f->rows - first < f->sub ? f->rows - first : f->sub;
        double *out = cg->blk + first * k;
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, 1.0,
                    cg->ms + (f->b0 + first) * d, (int)d, cg->cs, (int)d, 0.0, out, (int)k);
        for (size_t q = 0; q < rows; q++)
            for (size_t j = 0; j < k; j++)
                out[q * k + j] = expand(cg, f->r, f->b0 + first + q, j, out[q * k + j]);
    }
}

/* The block from row t: dgemm on pieces of at most 2^18 / (k d) rows, where OpenBLAS runs
 * on the calling thread, spread over our threads (as nearest.c does; measured at 10^6 x 16,
 * k = 300: one dgemm per 218 rows let OpenBLAS's pool spend a third of a step yielding);
 * with pieces under 16 rows (large k d) one thread and BLAS's own. */
const double *ckm_cg_cost_row(struct ckm_cg *cg, const ckm_reduced *r, size_t t)
{
    size_t k = r->k;
    if (cg->cost)
        return cg->cost + t * k;
    if (t < cg->b0 || t >= cg->b1) {
        size_t rows = r->s - t < cg->blk_rows ? r->s - t : cg->blk_rows, sub = cg->piece_rows;
        int T = ckm_thread_count(cg->threads);
        if (sub < 1) {
            sub = rows;
            T = 1;
        }
        fill_job f = {cg, r, t, rows, sub};
        size_t pieces = (rows + sub - 1) / sub;
        if (T <= 1 || pieces <= 1)
            fill_rows(&f, 0, pieces, 0);
        else
            ckm_parallel_for(T, pieces, fill_rows, &f);
        cg->b0 = t;
        cg->b1 = t + rows;
    }
    return cg->blk + (t - cg->b0) * k;
}

double ckm_cg_total(const struct ckm_cg *cg, const ckm_reduced *r, const int32_t *labels)
{
    double f = 0.0;
    for (size_t t = 0; t < r->s; t++)
        f += ckm_cg_cost(cg, r, t, (size_t)labels[t]);
    return f;
}
