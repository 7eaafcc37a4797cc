/*
 * sdp_pool.c -- the cut pool a branch-and-cut child inherits from its parent (PC-SOS-SDP: the
 * parent's cuts warm-start the child's cutting-plane loop). A pool holds every active row of
 * the parent's relaxation in the parent's *expanded* indices: each term (rep[i], rep[j], c)
 * names two representative points and the coefficient c of Z_ij = X_ij / (v_i v_j), with the
 * row's right-hand side. A child maps the representatives onto its own groups (comp[]), merges
 * terms that now name one entry (a must-link branch joins two groups), drops terms that cancel
 * and adds what is left through ckm_sdp_add_row (cannot-link entries dropped, rows
 * renormalised). A cut valid for the parent stays valid for the child: the child's feasible
 * labellings are a subset of the parent's.
 * Cancellation is judged against the row's largest coefficient BEFORE merging: the ends of a
 * pair or triangle cut (+c Z_ii - c Z_ij) merge to a rounding residue (1e-16), not to 0, and
 * a residue judged against itself survived, was renormalised to -1 and became -Z_gg >= 0,
 * which no labelling satisfies (ecoli ml_50_cl_50_0: a child closed at 15.19 while it held
 * the optimum 14.8403). A dropped term c Z with c > 0 lowers the right-hand side by c (every
 * entry of Z lies in [0, 1]); CUT_ROUNDING x sum |c| more covers the coefficients' rounding.
 * ckm_cut_pool_bytes is the memory a pool holds, for exact's memory budget.
 */
#include "sdp_impl.h"

#include <math.h>
#include <stdlib.h>

#define CUT_CANCEL 1e-9    /* a merged coefficient this small next to the row's largest is a cancellation */
#define CUT_ROUNDING 1e-14 /* relative slack for the coefficients' rounding (a few ulps from export, import and renormalisation) */

/* start and rhs per row, pi, pj and zc per term (+1 each: ckm_sdp_export_cuts' allocations) */
static double pool_bytes(double rows, double terms)
{
    return (double)sizeof(ckm_cut_pool) + (rows + 1.0) * (sizeof(size_t) + sizeof(double)) +
           (terms + 1.0) * (2.0 * sizeof(size_t) + sizeof(double));
}

double ckm_cut_pool_bytes(const ckm_cut_pool *pool)
{
    return pool ? pool_bytes((double)pool->rows, (double)pool->start[pool->rows]) : 0.0;
}

double ckm_cut_pool_bytes_full(void) { return pool_bytes(CKM_SDP_MAX_CUTS, 4.0 * CKM_SDP_MAX_CUTS); }

void ckm_cut_pool_free(ckm_cut_pool *pool)
{
    if (!pool)
        return;
    free(pool->start);
    free(pool->pi);
    free(pool->pj);
    free(pool->zc);
    free(pool->rhs);
    free(pool);
}

ckm_error ckm_sdp_export_cuts(const ckm_sdp *p, const size_t *rep, ckm_cut_pool **out, ckm_err *err)
{
    *out = NULL;
    size_t nb = p->nb, ne = p->bstart[nb];
    ckm_cut_pool *pool = calloc(1, sizeof *pool);
    if (!pool || !(pool->start = ckm_alloc_array(nb + 1, sizeof(size_t))) ||
        !(pool->pi = ckm_alloc_array(ne + 1, sizeof(size_t))) || !(pool->pj = ckm_alloc_array(ne + 1, sizeof(size_t))) ||
        !(pool->zc = ckm_alloc_array(ne + 1, sizeof(double))) || !(pool->rhs = ckm_alloc_array(nb + 1, sizeof(double)))) {
        ckm_cut_pool_free(pool);
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory exporting %zu cuts", nb);
    }
    pool->rows = nb;
    for (size_t l = 0; l <= nb; l++)
        pool->start[l] = p->bstart[l];
    for (size_t l = 0; l < nb; l++)
        pool->rhs[l] = p->d[l];
    for (size_t e = 0; e < ne; e++) {
        const ckm_cut_entry *q = &p->bent[e];
        pool->pi[e] = rep[q->i];
        pool->pj[e] = rep[q->j];
        pool->zc[e] = q->g * p->v[q->i] * p->v[q->j]; /* g X_ij = g v_i v_j Z_ij */
    }
    *out = pool;
    return CKM_OK;
}

static int by_term(const void *a, const void *b)
{
    const size_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

ckm_error ckm_sdp_import_cuts(ckm_sdp *p, const size_t *comp, const ckm_cut_pool *pool, size_t *added, ckm_err *err)
{
    *added = 0;
    size_t ti[CKM_SDP_ROW_MAX_TERMS], tj[CKM_SDP_ROW_MAX_TERMS], key[CKM_SDP_ROW_MAX_TERMS][3];
    double zc[CKM_SDP_ROW_MAX_TERMS];
    size_t before = p->nb;
    for (size_t l = 0; l < pool->rows && p->nb < p->max_cuts; l++) {
        size_t e0 = pool->start[l], nt = pool->start[l + 1] - e0;
        if (nt > CKM_SDP_ROW_MAX_TERMS)
            continue;
        for (size_t q = 0; q < nt; q++) { /* map to this problem's groups, (min, max), index into the pool */
            size_t a = comp[pool->pi[e0 + q]], b = comp[pool->pj[e0 + q]];
            key[q][0] = a < b ? a : b;
            key[q][1] = a < b ? b : a;
            key[q][2] = e0 + q;
        }
        qsort(key, nt, sizeof key[0], by_term);
        size_t used = 0;
        double scale = 0.0; /* the row's largest coefficient before merging */
        for (size_t q = 0; q < nt; q++)
            scale = fmax(scale, fabs(pool->zc[e0 + q]));
        for (size_t q = 0; q < nt;) { /* merge terms that now name the same entry */
            double c = 0.0;
            size_t q2 = q;
            for (; q2 < nt && key[q2][0] == key[q][0] && key[q2][1] == key[q][1]; q2++)
                c += pool->zc[key[q2][2]];
            ti[used] = key[q][0];
            tj[used] = key[q][1];
            zc[used++] = c;
            q = q2;
        }
        double rhs = pool->rhs[l], abs_sum = 0.0;
        size_t keep = 0;
        for (size_t q = 0; q < used; q++) {
            if (fabs(zc[q]) <= CUT_CANCEL * scale) { /* cancelled: at most a rounding residue is left */
                if (zc[q] > 0.0)
                    rhs -= zc[q]; /* sum_rest >= rhs - c Z >= rhs - c, as Z <= 1 */
                continue;
            }
            abs_sum += fabs(zc[q]);
            ti[keep] = ti[q];
            tj[keep] = tj[q];
            zc[keep++] = zc[q];
        }
        if (keep == 0)
            continue; /* 0 >= rhs: valid cuts leave rhs <= 0 here, nothing to add */
        rhs -= CUT_ROUNDING * abs_sum; /* the coefficients' rounding, which merging compounds */
        if (!ckm_sdp_add_row(p, ti, tj, zc, keep, rhs, (unsigned char)4))
            return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory importing cuts");
    }
    *added = p->nb - before;
    return *added == 0 ? CKM_OK : ckm_sdp_cuts_changed(p, before, err);
}
