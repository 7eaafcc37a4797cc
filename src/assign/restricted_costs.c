/*
 * restricted_costs.c -- the restricted step's costs cost_tj: the caller's s x k matrix, or,
 * where that matrix is not stored (implicit costs, squared distances only: issue 37, "no
 * dense n x k cost matrix past sizeflow's limit"), computed from the groups' means m_t,
 * masses W_t and the centers c_j of the step:
 *   cost_tj = W_t ||m_t - c_j||^2 = W_t max(0, ||m'_t||^2 - 2 m'_t . c'_j + ||c'_j||^2),
 *   m' = m - o, c' = c - o, o the mass-weighted mean of the groups' means (a shift changes
 *   no distance; it keeps the norms near the data's spread, so the expansion loses little
 *   to cancellation when the data sit far from the origin).
 * A pass over every (t, j) (first columns, pricing, reduced-cost fixing) reads rows through
 * ckm_cg_cost_row in ascending t: blocks of rows (about 2^20 costs a block, the only buffer
 * of that kind) by ckm_sqdist_rows (nearest.c's blocked dgemm) times the masses; single
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
#include "core.h"
#include "restricted_costs.h"
#include "objective.h"
#include "transport_points.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_COSTS ((size_t)1 << 20)

size_t ckm_cg_block_rows(size_t k)
{
    return BLOCK_COSTS / k > 0 ? BLOCK_COSTS / k : 1;
}

bool ckm_cg_costs_new(struct ckm_cg *cg, const ckm_reduced *r)
{
    size_t s = r->s, d = r->d, k = r->k, sd;
    if (!r->mean || !r->mass || d == 0 || !ckm_mul_ok(s, d, &sd))
        return false;
    if (!(cg->ms = ckm_alloc_array(sd, sizeof(double))) || !(cg->msn = ckm_alloc_array(s, sizeof(double))) ||
        !(cg->org = ckm_calloc_array(d, sizeof(double))) || !(cg->cs = ckm_alloc_array(k * d, sizeof(double))) ||
        !(cg->csn = ckm_alloc_array(k, sizeof(double))) ||
        !(cg->blk = ckm_alloc_array(cg->blk_rows * k, sizeof(double))) || !(cg->tcache = ckm_transport_cache_new())) {
        ckm_cg_costs_free(cg); /* nothing half made: a later call starts again */
        return false;
    }
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
    cg->ms = cg->msn = cg->org = cg->cs = cg->csn = cg->blk = NULL;
    cg->tcache = NULL;
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

double ckm_cg_cost(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j)
{
    if (cg->cost)
        return cg->cost[t * r->k + j];
    const double *m = cg->ms + t * r->d, *c = cg->cs + j * r->d;
    double g = 0.0;
    for (size_t q = 0; q < r->d; q++)
        g += m[q] * c[q];
    double v = -2.0 * g + cg->msn[t] + cg->csn[j]; /* in ckm_sqdist_rows' order */
    return (v > 0.0 ? v : 0.0) * r->mass[t];
}

/* The block from row t: squared distances by nearest.c's blocked dgemm (ckm_sqdist_rows: on
 * our threads in pieces small enough that OpenBLAS stays on the calling thread; measured at
 * 10^6 x 16, k = 300, one dgemm per 218 rows let OpenBLAS's pool spend a third of a step
 * yielding), times the masses. */
const double *ckm_cg_cost_row(struct ckm_cg *cg, const ckm_reduced *r, size_t t)
{
    size_t k = r->k;
    if (cg->cost)
        return cg->cost + t * k;
    if (t < cg->b0 || t >= cg->b1) {
        size_t rows = r->s - t < cg->blk_rows ? r->s - t : cg->blk_rows;
        ckm_sqdist_rows(cg->ms + t * r->d, rows, r->d, cg->cs, cg->csn, k, cg->blk, cg->threads);
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < k; j++)
                cg->blk[i * k + j] *= r->mass[t + i];
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
    return f + ckm_soft_cost(r, labels);
}
