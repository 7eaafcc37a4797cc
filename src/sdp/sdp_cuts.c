/*
 * sdp_cuts.c -- cutting planes for the Peng-Wei relaxation (paper eqs. (8)-(10)), written on
 * Z = D^{-1/2} X D^{-1/2} (entries of the expanded matrix, so valid on groups unchanged):
 *   pair      Z_ii - Z_ij >= 0                           (i != j)
 *   triangle  Z_ii + Z_jh - Z_ij - Z_ih >= 0             (apex i; j < h; all distinct)
 *   clique    sum_{a<b in Q} Z_ab >= 1 / c_max           (|Q| = k + 1: two members share a
 *             cluster C, and Z_ab = 1/|C| >= 1/c_max)
 *   size      1/c_max <= Z_ii <= 1/c_min                 (Z_ii = 1/|C(i)|; c_min, c_max bound every
 *             cluster's point count from the size bounds and the group weights, sdp_admm.c)
 *   capacity  U Z_ii - sum_b Q_b Z_ib >= 0  and  sum_b Q_b Z_ib - L Z_ii >= 0   (capacities:
 *             Q_b a group's demand; Z_ib = 1/M(C) for b in i's cluster C of mass M, else 0,
 *             so sum_b Q_b Z_ib = load(C(i)) Z_ii, and L <= load <= U for L = min_j L_j - tau,
 *             U = max_j U_j + tau: per-cluster bounds cannot be attached to a group of
 *             unknown cluster. s + 1 terms a row, far more than the others; the Jacobi block
 *             of its apex i takes it)
 * Terms on cannot-link entries are dropped (Z = 0 there). In X, Z_ab = X_ab / (v_a v_b); each
 * row is scaled to unit Frobenius norm (||B||^2 = sum g_ii^2 + sum_{i<j} g_ij^2 / 2).
 * This file: the maps B and B* of the rows and adding a row. The refresh after the rows
 * change is sdp_cutsys.c (ckm_sdp_cuts_changed), finding violated rows sdp_separate.c, the
 * pool a branch-and-cut child inherits sdp_pool.c.
 */
#include "sdp_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ckm_sdp_B(const ckm_sdp *p, const double *X, double *out)
{
    size_t s = p->s;
    for (size_t l = 0; l < p->nb; l++) {
        double v = 0.0;
        for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++)
            v += p->bent[e].g * X[p->bent[e].i * s + p->bent[e].j];
        out[l] = v;
    }
}

void ckm_sdp_Bt_add(const ckm_sdp *p, const double *u, double alpha, double *Out)
{
    size_t s = p->s;
    for (size_t l = 0; l < p->nb; l++) {
        double c = alpha * u[l];
        if (c == 0.0)
            continue;
        for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++) {
            const ckm_cut_entry *q = &p->bent[e];
            if (q->i == q->j) {
                Out[q->i * s + q->i] += c * q->g;
            } else {
                Out[q->i * s + q->j] += 0.5 * c * q->g;
                Out[q->j * s + q->i] += 0.5 * c * q->g;
            }
        }
    }
}

size_t ckm_sdp_max_cuts(const ckm_sdp *p) { return p->max_cuts; }

/* *a (old elements of elem bytes) grown to n, the new ones zero */
static bool grow_zeroed(void **a, size_t old, size_t n, size_t elem)
{
    size_t cap = old;
    if (!ckm_grow(a, &cap, n, elem))
        return false;
    memset((char *)*a + old * elem, 0, (n - old) * elem);
    return true;
}

ckm_error ckm_sdp_grow_cuts(ckm_sdp *p, size_t rows, ckm_err *err)
{
    rows = rows < CKM_SDP_GROWN_CUTS ? rows : CKM_SDP_GROWN_CUTS;
    size_t old = p->max_cuts;
    if (rows <= old)
        return CKM_OK;
    ckm_cutsys *c = &p->sys; /* the row arrays here and the cut system's (ckm_sdp_cutsys_alloc) */
    void **vals[] = {(void **)&p->d, (void **)&p->u, (void **)&p->r, (void **)&p->t, (void **)&p->bx,
                     (void **)&c->cr, (void **)&c->cz, (void **)&c->cd, (void **)&c->cq, (void **)&c->ch};
    bool ok = grow_zeroed((void **)&p->bstart, old + 1, rows + 1, sizeof(size_t)) &&
              grow_zeroed((void **)&c->gstart, old + 1, rows + 1, sizeof(size_t)) &&
              grow_zeroed((void **)&c->goff, old + 1, rows + 1, sizeof(size_t)) &&
              grow_zeroed((void **)&c->gmem, old, rows, sizeof(size_t)) &&
              grow_zeroed((void **)&p->btype, old, rows, 1);
    for (size_t i = 0; ok && i < sizeof vals / sizeof vals[0]; i++)
        ok = grow_zeroed(vals[i], old, rows, sizeof(double));
    if (!ok)
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory for a pool of %zu cut rows", rows);
    p->max_cuts = rows;
    return CKM_OK;
}

bool ckm_sdp_add_row(ckm_sdp *p, const size_t *ti, const size_t *tj, const double *zc, size_t nt, double rhs,
                     unsigned char type)
{
    size_t s = p->s, l = p->nb, at = p->bstart[l];
    if (l >= p->max_cuts || !ckm_grow((void **)&p->bent, &p->bent_cap, at + nt, sizeof(ckm_cut_entry)))
        return false;
    double norm = 0.0;
    size_t used = 0;
    for (size_t q = 0; q < nt; q++) {
        size_t i = ti[q] < tj[q] ? ti[q] : tj[q], j = ti[q] < tj[q] ? tj[q] : ti[q];
        if (i != j && p->is_cl[i * s + j])
            continue;
        double g = zc[q] / (p->v[i] * p->v[j]);
        p->bent[at + used++] = (ckm_cut_entry){i, j, g};
        norm += i == j ? g * g : 0.5 * g * g;
    }
    if (used == 0 || !(norm > 0.0))
        return true; /* nothing left: no row */
    norm = sqrt(norm);
    for (size_t q = 0; q < used; q++)
        p->bent[at + q].g /= norm;
    p->d[l] = rhs / norm;
    p->u[l] = p->r[l] = 0.0;
    p->btype[l] = type;
    p->bstart[l + 1] = at + used;
    p->nb = l + 1;
    return true;
}
