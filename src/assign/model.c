/*
 * model.c -- see model.h. Two passes over the same row enumeration (pair_rows): the first
 * counts each column's entries and the rows, the second writes them; rows are numbered in
 * the order they are written (group, size, pair, capacity), so each column's entries come out
 * in ascending row order.
 */
#include "model.h"
#include "core.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ckm_model_free(ckm_model *m)
{
    free(m->col_start);
    free(m->row_index);
    free(m->value);
    free(m->obj);
    free(m->clo);
    free(m->chi);
    free(m->rlo);
    free(m->rhi);
    free(m->row_of);
    free(m->pkey);
    free(m->slack_of);
    free(m->held_w);
    free(m->fill);
    free(m->cnt);
    memset(m, 0, sizeof *m);
}

double ckm_model_full_nnz(const ckm_reduced *r)
{
    double k = (double)r->k, f = 2.0 * (double)r->s * k + 2.0 * k * (double)r->n_cl;
    for (size_t e = 0; e < r->n_soft; e++)
        f += (r->soft_w[e] > 0.0 ? 6.0 : 3.0) * k;
    if (r->has_caps)
        f += (double)r->s * k;
    return f;
}

/* A pass over the pair rows in model order, from row `row`. count: each column's entries
 * into m->cnt and the soft pairs with a row into m->slack_of; else the entries written at
 * m->fill, the rows' keys and bounds. */
typedef struct pass {
    ckm_model *m;
    const ckm_reduced *r;
    const ckm_colset *cs;
    bool count;
    size_t row, slacks, ycols;
} pass;

static void entry(pass *P, long c, double v)
{
    if (c < 0)
        return;
    if (P->count) {
        P->m->cnt[c]++;
        return;
    }
    size_t q = P->m->fill[c]++;
    P->m->row_index[q] = (int)P->row;
    P->m->value[q] = v;
}

static void pair_row(pass *P, size_t key, double hi)
{
    if (!P->count) {
        P->m->pkey[P->row - P->m->pair0] = key;
        P->m->rlo[P->row] = -CKM_BK_INF;
        P->m->rhi[P->row] = hi;
    }
    P->row++;
}

/* The clusters of a and b in ascending order, each with its two columns (-1: absent). */
typedef void (*pair_fn)(pass *P, size_t e, size_t j, long ca, long cb, long z);

static void walk(pass *P, size_t e, size_t a, size_t b, long z, pair_fn fn)
{
    const ckm_colset *cs = P->cs;
    size_t k = P->r->k;
    if (!cs->gcol) {
        for (size_t j = 0; j < k; j++)
            fn(P, e, j, (long)(a * k + j), (long)(b * k + j), z);
        return;
    }
    size_t p = cs->gcol[a], pe = cs->gcol[a + 1], q = cs->gcol[b], qe = cs->gcol[b + 1];
    while (p < pe || q < qe) {
        int32_t ja = p < pe ? cs->cj[p] : INT32_MAX, jb = q < qe ? cs->cj[q] : INT32_MAX;
        int32_t j = ja < jb ? ja : jb;
        long ca = ja == j ? (long)p++ : -1, cb = jb == j ? (long)q++ : -1;
        fn(P, e, (size_t)j, ca, cb, z);
    }
}

static void cl_fn(pass *P, size_t e, size_t j, long ca, long cb, long z)
{
    (void)z;
    if (ca < 0 || cb < 0)
        return;
    entry(P, ca, 1.0);
    entry(P, cb, 1.0);
    pair_row(P, ckm_model_key(P->r, false, e, j, 0), 1.0);
}

static void soft_fn(pass *P, size_t e, size_t j, long ca, long cb, long z)
{
    if (P->r->soft_w[e] < 0.0) { /* y_aj + y_bj - z_e <= 1 */
        if (ca < 0 || cb < 0)
            return;
        entry(P, ca, 1.0);
        entry(P, cb, 1.0);
        entry(P, z, -1.0);
        pair_row(P, ckm_model_key(P->r, true, e, j, 0), 1.0);
        return;
    }
    /* y_aj - y_bj - z_e <= 0 and y_bj - y_aj - z_e <= 0. One direction alone is exact for
     * 0/1 y (apart, a sits in some j without b), but both make the LP tighter:
     * y_a = (1/2, 1/2, 0), y_b = (0, 0, 1) needs z = 1, not 1/2 */
    if (ca >= 0) {
        entry(P, ca, 1.0);
        entry(P, cb, -1.0);
        entry(P, z, -1.0);
        pair_row(P, ckm_model_key(P->r, true, e, j, 0), 0.0);
    }
    if (cb >= 0) {
        entry(P, ca, -1.0);
        entry(P, cb, 1.0);
        entry(P, z, -1.0);
        pair_row(P, ckm_model_key(P->r, true, e, j, 1), 0.0);
    }
}

static bool held(const ckm_colset *cs, size_t t)
{
    return cs->held && cs->held[t] >= 0;
}

/* The cannot-link rows, then the soft rows (their slack: column ycols + index of the pair
 * among those with a row, counted in the first pass). */
static void pair_rows(pass *P)
{
    const ckm_reduced *r = P->r;
    for (size_t e = 0; e < r->n_cl; e++) {
        size_t a = r->cl[2 * e], b = r->cl[2 * e + 1];
        if (!held(P->cs, a) && !held(P->cs, b))
            walk(P, e, a, b, -1, cl_fn);
    }
    P->slacks = 0;
    for (size_t e = 0; e < r->n_soft; e++) {
        size_t row0 = P->row;
        long z = (long)(P->ycols + P->slacks);
        if (!P->count && (P->slacks >= P->m->slacks || P->m->slack_of[P->slacks] != e))
            continue; /* no row in the count */
        walk(P, e, r->soft[2 * e], r->soft[2 * e + 1], z, soft_fn);
        if (P->row > row0) {
            if (P->count)
                P->m->slack_of[P->slacks] = e;
            P->slacks++;
        }
    }
}

/* Row bounds of the group, size and capacity rows, less the held groups' share (summed per
 * cluster first, in group order, then taken off once). */
static void bounds(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs)
{
    size_t k = r->k, S = m->S;
    bool caps = m->cap0 < m->rows;
    double *hw = m->held_w, *hq = m->held_w + k;
    memset(hw, 0, 2 * k * sizeof(double));
    for (size_t t = 0; cs->held && t < r->s; t++)
        if (cs->held[t] >= 0) {
            hw[cs->held[t]] += (double)r->weight[t];
            hq[cs->held[t]] += caps ? r->demand[t] : 0.0;
        }
    for (size_t q = 0; q < S; q++)
        m->rlo[q] = m->rhi[q] = 1.0;
    for (size_t j = 0; j < k; j++) {
        m->rlo[S + j] = fmax(0.0, (double)r->lo[j] - hw[j]);
        m->rhi[S + j] = (double)r->hi[j] - hw[j];
        if (caps) {
            m->rlo[m->cap0 + j] = fmax(0.0, r->cap_lo[j] - hq[j]);
            m->rhi[m->cap0 + j] = isfinite(r->cap_hi[j]) ? fmax(0.0, r->cap_hi[j] - hq[j]) : CKM_BK_INF;
        }
    }
}

/* Grow the arrays *ptr[0 .. n) (element sizes sz) together to at least need elements each
 * (contents not kept); *cap is their common capacity. */
static bool grow_all(void **ptr[], const size_t *sz, size_t n, size_t *cap, size_t need)
{
    if (need <= *cap && *ptr[0])
        return true;
    size_t c = need + need / 2 + 1;
    void *fresh[8] = {NULL};
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++)
        ok = (fresh[i] = ckm_alloc_array(c, sz[i])) != NULL;
    for (size_t i = 0; i < n; i++) {
        if (ok)
            free(*ptr[i]);
        if (ok)
            *ptr[i] = fresh[i];
        else
            free(fresh[i]);
    }
    if (ok)
        *cap = c;
    return ok;
}

static bool reserve_cols(ckm_model *m, size_t cols)
{
    void **p[] = {(void **)&m->col_start, (void **)&m->obj, (void **)&m->clo, (void **)&m->chi, (void **)&m->cnt,
                  (void **)&m->fill};
    size_t sz[] = {sizeof(int), sizeof(double), sizeof(double), sizeof(double), sizeof(size_t), sizeof(size_t)};
    return grow_all(p, sz, 6, &m->cap_cols, cols + 1);
}

static bool reserve_rest(ckm_model *m, const ckm_reduced *r, size_t rows, size_t pairs, size_t nnz)
{
    void **pr[] = {(void **)&m->rlo, (void **)&m->rhi}, **pp[] = {(void **)&m->pkey};
    void **pn[] = {(void **)&m->row_index, (void **)&m->value};
    void **ps[] = {(void **)&m->row_of}, **pz[] = {(void **)&m->slack_of}, **ph[] = {(void **)&m->held_w};
    size_t szr[] = {sizeof(double), sizeof(double)}, sz1[] = {sizeof(size_t)}, szn[] = {sizeof(int), sizeof(double)};
    return grow_all(pr, szr, 2, &m->cap_rows, rows) && grow_all(pp, sz1, 1, &m->cap_pairs, pairs) &&
           grow_all(pn, szn, 2, &m->cap_nnz, nnz) && grow_all(ps, sz1, 1, &m->cap_s, r->s) &&
           grow_all(pz, sz1, 1, &m->cap_slack, r->n_soft) && grow_all(ph, szr, 1, &m->cap_k, 2 * r->k);
}

/* The y columns' group and size entries (count: their number, with the capacity entry). */
static void y_entries(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs, bool count)
{
    size_t k = r->k;
    for (size_t t = 0; t < r->s; t++) {
        size_t c0 = cs->gcol ? cs->gcol[t] : t * k, c1 = cs->gcol ? cs->gcol[t + 1] : t * k + k;
        for (size_t c = c0; c < c1; c++) {
            if (count) {
                m->cnt[c] = r->has_caps && r->demand[t] != 0.0 ? 3 : 2;
                continue;
            }
            size_t j = cs->gcol ? (size_t)cs->cj[c] : c - c0, f = m->fill[c];
            m->clo[c] = 0.0;
            m->chi[c] = 1.0;
            m->row_index[f] = (int)m->row_of[t];
            m->value[f] = 1.0;
            m->row_index[f + 1] = (int)(m->S + j);
            m->value[f + 1] = (double)r->weight[t];
            m->fill[c] = f + 2;
        }
    }
}

/* The capacity entries, the last of each column (the capacity rows are the last rows). */
static void cap_entries(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs)
{
    size_t k = r->k;
    for (size_t t = 0; r->has_caps && t < r->s; t++) {
        size_t c0 = cs->gcol ? cs->gcol[t] : t * k, c1 = cs->gcol ? cs->gcol[t + 1] : t * k + k;
        for (size_t c = c0; c < c1 && r->demand[t] != 0.0; c++) {
            size_t j = cs->gcol ? (size_t)cs->cj[c] : c - c0, f = m->fill[c]++;
            m->row_index[f] = (int)(m->cap0 + j);
            m->value[f] = r->demand[t];
        }
    }
}

/* Slack and artificial columns: bounds, costs and (artificials) their one entry. */
static void extra_columns(ckm_model *m, const ckm_reduced *r)
{
    for (size_t i = 0; i < m->slacks; i++) {
        size_t c = m->ycols + i;
        m->obj[c] = m->arts ? 0.0 : r->soft_P * fabs(r->soft_w[m->slack_of[i]]);
        m->clo[c] = 0.0;
        m->chi[c] = 1.0;
    }
    size_t c = m->ycols + m->slacks, at = (size_t)m->col_start[c];
    for (size_t q = 0; q < m->rows && m->arts; q++) {
        if (q >= m->S + r->k && q < m->cap0)
            continue; /* pair rows need none: every y at 0 keeps them */
        m->col_start[c] = (int)at;
        m->row_index[at] = (int)q;
        m->value[at++] = 1.0;
        m->obj[c] = 1.0;
        m->clo[c] = 0.0;
        m->chi[c++] = q < m->S ? 1.0 : m->rlo[q];
    }
    m->col_start[m->cols] = (int)at;
}

/* The first pass: rows, slacks and every column's entries counted; columns laid out. false
 * past the backend's int indices. */
static bool count(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs, bool phase1)
{
    size_t k = r->k, ncap = r->has_caps ? k : 0;
    memset(m->cnt, 0, (m->ycols + r->n_soft) * sizeof(size_t));
    y_entries(m, r, cs, true);
    pass P = {.m = m, .r = r, .cs = cs, .count = true, .row = m->pair0, .ycols = m->ycols};
    pair_rows(&P);
    m->slacks = P.slacks;
    m->cap0 = P.row;
    m->rows = P.row + ncap;
    m->arts = phase1 ? m->S + k + ncap : 0;
    m->cols = m->ycols + m->slacks + m->arts;
    size_t nnz = 0;
    for (size_t c = 0; c < m->ycols + m->slacks; c++) {
        m->col_start[c] = (int)nnz;
        m->fill[c] = nnz;
        nnz += m->cnt[c];
        if (nnz > INT_MAX / 2)
            return false;
    }
    m->col_start[m->ycols + m->slacks] = (int)nnz;
    m->nnz = nnz + m->arts;
    return m->rows <= INT_MAX / 2 && m->nnz <= INT_MAX / 2;
}

bool ckm_model_build(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs, bool phase1, bool *too_large)
{
    size_t s = r->s, k = r->k, ycols = 0, S = 0;
    *too_large = !ckm_mul_ok(s, k, &ycols) || (cs->gcol ? cs->gcol[s] : ycols) > INT_MAX / 4;
    if (*too_large)
        return false;
    ycols = cs->gcol ? cs->gcol[s] : ycols;
    if (!reserve_cols(m, ycols + r->n_soft + (phase1 ? s + 2 * k : 0)) || !reserve_rest(m, r, 1, 1, 1))
        return false;
    for (size_t t = 0; t < s; t++)
        m->row_of[t] = held(cs, t) ? SIZE_MAX : S++;
    m->S = S;
    m->ycols = ycols;
    m->pair0 = S + k;
    if (!count(m, r, cs, phase1))
        return *too_large = true, false;
    if (!reserve_rest(m, r, m->rows, m->cap0 - m->pair0 + 1, m->nnz + 1))
        return false;
    y_entries(m, r, cs, false);
    pass P = {.m = m, .r = r, .cs = cs, .count = false, .row = m->pair0, .ycols = ycols};
    pair_rows(&P);
    cap_entries(m, r, cs);
    bounds(m, r, cs);
    extra_columns(m, r);
    return true;
}

ckm_lp ckm_model_lp(const ckm_model *m, unsigned char *basis, unsigned char *basis_out)
{
    ckm_lp lp = {(int)m->cols, (int)m->rows, m->obj, m->clo, m->chi, m->rlo, m->rhi,
                 m->col_start, m->row_index, m->value, basis, basis_out, false};
    return lp;
}

void ckm_argmin_basis(const double *obj, const size_t *gcol, size_t s, size_t k, size_t group_rows, size_t cols,
                      size_t rows, unsigned char *st)
{
    memset(st, CKM_LP_AT_LOWER, cols);
    for (size_t t = 0; t < s; t++) {
        size_t c0 = gcol ? gcol[t] : t * k, c1 = gcol ? gcol[t + 1] : t * k + k, best = c0;
        if (c0 == c1)
            continue; /* a group without columns (held out of the model) */
        for (size_t c = c0 + 1; c < c1; c++)
            best = obj[c] < obj[best] ? c : best;
        st[best] = CKM_LP_BASIC;
    }
    for (size_t q = 0; q < rows; q++)
        st[cols + q] = q < group_rows ? CKM_LP_AT_LOWER : CKM_LP_BASIC;
}
