/*
 * assign_cg.c -- the assignment step of assign.h on a restricted set of columns, with a
 * proof that its optimum is the full model's (column generation; issue 37).
 *
 * Restricted model. Columns y_tj only for the active (t, j) (a bitset, s x k): rows
 *   t:         sum_{j active} y_tj = 1                       (dual u_t)
 *   s + j:     lo_j <= sum_{t active} w_t y_tj <= hi_j          (dual v_j)
 *   cannot-link (a, b), cluster j, only where (a, j) AND (b, j) are active:
 *              y_aj + y_bj <= 1                               (dual pi_abj <= 0)
 * The full model (assign.c) has every column and every cannot-link row. A full row whose
 * columns are not both active is slack at the restricted optimum (one column at 0, the other
 * <= 1), so the restricted duals extended by 0 are dual feasible for the full LP exactly
 * when every omitted column prices out:
 *   rc_tj = cost_tj - u_t - w_t v_j >= 0    (no cannot-link term: its rows are absent)
 * Pricing is one pass over the s x k costs. Negative columns (at most CG_ADD per group, the
 * most negative) are activated and the LP solved again, until none is left: then the
 * restricted LP optimum IS the full LP optimum (the step reports restricted = 1).
 * First columns: each group's CG_Q cheapest by cost_tj - w_t v'_j (v' the size duals of the
 * previous step, 0 at first) and the caller's start label.
 * Infeasible restricted LP: phase 1 on the same columns, min the artificials a_t (row t)
 * and b_j (row s + j, up to lo_j) with zero y costs, priced the same way (rc = -u_t - w_t v_j);
 * phase 1 > 0 with nothing left to price proves the full LP (so the step) infeasible.
 * Size prices first: a step without a start labelling (a restart's first) takes its
 * first columns by cost - w v with v the prices of the transportation problem of the groups
 * (transport.c, the cannot-links left out): only a choice of columns, nothing is proven
 * from them. Later steps use the size duals of the step before.
 * Warm rounds: after a pricing pass the dual simplex restarts from the last optimal basis,
 * new columns at 1 where their reduced cost is negative (warm_basis), not from scratch.
 * Tolerances: a column counts as negative when rc < -1e-9 (1 + |cost| + |u_t|), the scale
 * of CLP's own optimality test (1e-7 on scaled reduced costs) and well below it.
 */
#include "assign_cg.h"
#include "core.h"
#include "transport.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ckm_cg_free(struct ckm_cg *cg)
{
    if (!cg)
        return;
    free(cg->on);
    free(cg->v_prev);
    free(cg->gcol);
    free(cg->cj);
    free(cg->col_start);
    free(cg->row_index);
    free(cg->value);
    free(cg->obj);
    free(cg->clo);
    free(cg->chi);
    free(cg->rlo);
    free(cg->rhi);
    free(cg->x);
    free(cg->dual);
    free(cg->start);
    free(cg->basis);
    free(cg->fill);
    free(cg->rkey);
    free(cg->bas);
    free(cg->pcj);
    free(cg->prc);
    free(cg->pgcol);
    free(cg->prkey);
    free(cg->pbas);
    free(cg->fixed);
    free(cg->fixed_w);
    free(cg->row_of);
    free(cg->inc_start);
    free(cg->inc);
    free(cg->rc_best);
    free(cg->j_best);
    free(cg);
}

struct ckm_cg *ckm_cg_new(const ckm_reduced *r)
{
    struct ckm_cg *cg = calloc(1, sizeof *cg);
    if (!cg)
        return NULL;
    cg->words = (r->k + 63) / 64;
    size_t bits;
    if (!ckm_mul_ok(r->s, cg->words, &bits) || !(cg->on = ckm_calloc_array(bits, sizeof(uint64_t))) ||
        !(cg->v_prev = ckm_calloc_array(r->k, sizeof(double))) || !(cg->gcol = ckm_alloc_array(r->s + 1, sizeof(size_t))) ||
        !(cg->pgcol = ckm_alloc_array(r->s + 1, sizeof(size_t))) ||
        !(cg->rc_best = ckm_alloc_array(r->s * CG_ADD, sizeof(double))) ||
        !(cg->j_best = ckm_alloc_array(r->s * CG_ADD, sizeof(int32_t))) ||
        !ckm_incidence(r->s, r->n_cl, r->cl, &cg->inc_start, &cg->inc)) {
        ckm_cg_free(cg);
        return NULL;
    }
    return cg;
}

double ckm_cg_bytes(const ckm_reduced *r)
{
    /* the s x k costs twice (the step's, first_prices' per-point copy), the bitsets, the
     * cannot-link incidence, and the restricted model at CLP's 190 bytes per nonzero and 175
     * per column (assign.c): (CG_Q + 1) s columns, and cannot-link rows for the pairs whose
     * active clusters meet, min(1, 2 (CG_Q + 1)^2 / k) of them */
    double s = (double)r->s, k = (double)r->k, m = (double)r->n_cl, q = CG_Q + 1.0;
    double cols = q * s, rows = m * fmin(1.0, 2.0 * q * q / k);
    return 16.0 * s * k + s * k / 4.0 + 16.0 * m + 190.0 * (2.0 * cols + 2.0 * rows) + 175.0 * cols;
}

/* Grow a buffer to at least need elements of size sz (contents kept). */
static bool grow(void **p, size_t need, size_t sz)
{
    void *q = realloc(*p, (need ? need : 1) * sz);
    if (!q)
        return false;
    *p = q;
    return true;
}

static bool reserve(struct ckm_cg *cg, size_t cols, size_t rows, size_t nnz)
{
    if (cols > cg->cap_cols) {
        size_t c = cols + cols / 2;
        if (!grow((void **)&cg->cj, c, sizeof(int32_t)) || !grow((void **)&cg->col_start, c + 1, sizeof(int)) ||
            !grow((void **)&cg->obj, c, sizeof(double)) || !grow((void **)&cg->clo, c, sizeof(double)) ||
            !grow((void **)&cg->chi, c, sizeof(double)) || !grow((void **)&cg->x, c, sizeof(double)) ||
            !grow((void **)&cg->start, c, sizeof(double)) || !grow((void **)&cg->fill, c, sizeof(size_t)))
            return false;
        cg->cap_cols = c;
        cg->cap_rows = 0; /* the basis spans columns and rows */
    }
    if (rows > cg->cap_rows) {
        size_t q = rows + rows / 2;
        if (!grow((void **)&cg->rlo, q, sizeof(double)) || !grow((void **)&cg->rhi, q, sizeof(double)) ||
            !grow((void **)&cg->dual, q, sizeof(double)) || !grow((void **)&cg->basis, cg->cap_cols + q, 1) ||
            !grow((void **)&cg->bas, cg->cap_cols + q, 1) || !grow((void **)&cg->rkey, q, sizeof(size_t)))
            return false;
        cg->cap_rows = q;
    }
    if (nnz > cg->cap_nnz) {
        size_t z = nnz + nnz / 2;
        if (!grow((void **)&cg->row_index, z, sizeof(int)) || !grow((void **)&cg->value, z, sizeof(double)))
            return false;
        cg->cap_nnz = z;
    }
    return true;
}

/* The cannot-link rows (a, b, j) with both columns active, numbered from row0 in a fixed
 * order (pairs, then clusters ascending): counted into cnt (per column), or, with cnt NULL,
 * written at fill[column]++ into ri / val with their keys in cg->rkey. Returns how many. */
static size_t cl_rows(struct ckm_cg *cg, const ckm_reduced *r, size_t row0, size_t *cnt, int *ri, double *val,
                      size_t *fill)
{
    size_t row = row0;
    for (size_t e = 0; e < r->n_cl; e++) {
        size_t a = r->cl[2 * e], b = r->cl[2 * e + 1];
        for (size_t w = 0; w < cg->words; w++) {
            uint64_t m = cg->on[a * cg->words + w] & cg->on[b * cg->words + w];
            while (m) {
                int32_t j = (int32_t)(64 * w + (size_t)__builtin_ctzll(m));
                m &= m - 1;
                long ca = ckm_cg_col(cg, a, j), cb = ckm_cg_col(cg, b, j);
                if (cnt) {
                    cnt[ca]++;
                    cnt[cb]++;
                } else {
                    cg->rkey[row - row0] = e * r->k + (size_t)j;
                    val[fill[ca]] = val[fill[cb]] = 1.0;
                    ri[fill[ca]++] = (int)row;
                    ri[fill[cb]++] = (int)row;
                }
                row++;
            }
        }
    }
    return row - row0;
}

/* Reduced cost of the omitted column (t, j) under the current duals. */
static double reduced_cost(const struct ckm_cg *cg, const ckm_reduced *r, const double *cost, int phase1, size_t t,
                           size_t j)
{
    double c = phase1 ? 0.0 : cost[t * r->k + j];
    return c - cg->dual[t] - (double)r->weight[t] * cg->dual[r->s + j];
}

/* The previous optimal basis carried over (phase 2, columns only added since): old columns
 * and rows keep their status, new cannot-link rows' slacks are basic (dual 0), and a new
 * column sits at its upper bound 1 when its reduced cost under the old duals is negative
 * (it was priced in for that), else at 0. As many basic variables as rows, and dual
 * feasible for the dual simplex: the old duals, with 0 on the new rows, leave every
 * nonbasic column's reduced cost of the right sign (>= 0 at 0, < 0 at 1); only the group
 * rows the new columns at 1 overfill are primal infeasible. Measured (60,000 x 20, k = 100,
 * 10^6 cannot-links): a round that priced in 483 columns took 5.2 s by the primal simplex
 * from this basis with the new columns at 0, and 4-6 s by the dual one from the argmin
 * basis. */
static void warm_basis(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, size_t cols, size_t rows)
{
    size_t s = r->s, k = r->k;
    unsigned char *st = cg->basis;
    for (size_t t = 0; t < s; t++) {
        size_t p = cg->pgcol[t];
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
            bool old = p < cg->pgcol[t + 1] && cg->pcj[p] == cg->cj[c];
            st[c] = old ? cg->pbas[p++]
                        : reduced_cost(cg, r, cost, 0, t, (size_t)cg->cj[c]) < 0.0 ? CKM_LP_AT_UPPER : CKM_LP_AT_LOWER;
        }
    }
    for (size_t q = 0; q < s + k; q++)
        st[cols + q] = cg->pbas[cg->pcols + q];
    size_t p = 0, np = cg->prows - s - k;
    for (size_t q = 0; q < rows - s - k; q++) {
        while (p < np && cg->prkey[p] < cg->rkey[q])
            p++;
        st[cols + s + k + q] = p < np && cg->prkey[p] == cg->rkey[q] ? cg->pbas[cg->pcols + s + k + p] : CKM_LP_BASIC;
    }
}

/* Keep the model just solved to optimality (phase 2) for warm_basis. */
static bool keep_model(struct ckm_cg *cg, const ckm_reduced *r)
{
    size_t ncl = cg->rows - r->s - r->k;
    if (cg->cols > cg->cap_pcols) {
        if (!grow((void **)&cg->pcj, cg->cols, sizeof(int32_t)) || !grow((void **)&cg->prc, cg->cols, sizeof(double)))
            return false;
        cg->cap_pcols = cg->cols;
        cg->cap_prows = 0;
    }
    if (cg->rows > cg->cap_prows) {
        if (!grow((void **)&cg->prkey, ncl, sizeof(size_t)) || !grow((void **)&cg->pbas, cg->cap_pcols + cg->rows, 1))
            return false;
        cg->cap_prows = cg->rows;
    }
    memcpy(cg->pcj, cg->cj, cg->cols * sizeof(int32_t));
    memcpy(cg->pgcol, cg->gcol, (r->s + 1) * sizeof(size_t));
    memcpy(cg->prkey, cg->rkey, ncl * sizeof(size_t));
    memcpy(cg->pbas, cg->bas, cg->cols + cg->rows);
    cg->pcols = cg->cols;
    cg->prows = cg->rows;
    cg->warm = 1;
    return true;
}

/* The kept model's reduced costs rc = c - A' y (cannot-link rows included), for rc_any;
 * called once the LP is final, while the model built is still the kept one. */
static void kept_reduced_costs(struct ckm_cg *cg)
{
    for (size_t c = 0; c < cg->pcols; c++) {
        double v = cg->obj[c];
        for (int p = cg->col_start[c]; p < cg->col_start[c + 1]; p++)
            v -= cg->value[p] * cg->dual[cg->row_index[p]];
        cg->prc[c] = v;
    }
}

/* Reduced cost of (t, j) under the duals of the kept (last optimal) LP: its own, with the
 * cannot-link rows' duals, for a column of that LP; reduced_cost() for one outside it (no
 * rows of its own there). */
double ckm_cg_rc(const struct ckm_cg *cg, const ckm_reduced *r, const double *cost, size_t t, size_t j)
{
    long c = ckm_cg_find(cg->pcj, cg->pgcol[t], cg->pgcol[t + 1], (int32_t)j);
    return c >= 0 ? cg->prc[c] : reduced_cost(cg, r, cost, 0, t, j);
}

/* Build the restricted model: y columns (costs cost, or 0 in phase 1), in phase 1 also the
 * artificials (cost 1). false on allocation failure or int overflow. */
bool ckm_cg_build(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, int phase1)
{
    size_t s = r->s, k = r->k, ycols = 0;
    for (size_t t = 0; t < s; t++) {
        cg->gcol[t] = ycols;
        ycols += ckm_cg_bits(cg->on + t * cg->words, cg->words);
    }
    cg->gcol[s] = ycols;
    size_t art = phase1 ? s + k : 0, cols = ycols + art;
    if (!reserve(cg, cols, 0, 0))
        return false;
    for (size_t t = 0, c = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            if (ON(cg, t, j))
                cg->cj[c++] = (int32_t)j;
    size_t S = s; /* group rows: all, or the free groups' alone */
    if (cg->fixed_on) {
        S = 0;
        for (size_t t = 0; t < s; t++)
            cg->row_of[t] = cg->fixed[t] < 0 ? S++ : SIZE_MAX;
    }
    /* entries per column: 2 (its group row, its size row) + its cannot-link rows */
    size_t *cnt = cg->fill;
    for (size_t c = 0; c < ycols; c++)
        cnt[c] = 2;
    size_t ncl = cl_rows(cg, r, S + k, cnt, NULL, NULL, NULL), rows = S + k + ncl, nnz = 0;
    if (rows > INT_MAX / 2 || ycols > INT_MAX / 4 || !reserve(cg, cols, rows, 0))
        return false;
    for (size_t c = 0; c < ycols; c++) {
        cg->col_start[c] = (int)nnz;
        nnz += cnt[c];
    }
    if (nnz + art > INT_MAX / 2 || !reserve(cg, cols, rows, nnz + art))
        return false;
    for (size_t t = 0; t < s; t++)
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
            size_t p = (size_t)cg->col_start[c];
            cg->row_index[p] = (int)(cg->fixed_on ? cg->row_of[t] : t);
            cg->row_index[p + 1] = (int)(S + (size_t)cg->cj[c]);
            cg->value[p] = 1.0;
            cg->value[p + 1] = (double)r->weight[t];
            cg->fill[c] = p + 2;
            cg->obj[c] = phase1 ? 0.0 : cost[t * k + (size_t)cg->cj[c]];
            cg->clo[c] = 0.0;
            cg->chi[c] = 1.0;
        }
    cl_rows(cg, r, S + k, NULL, cg->row_index, cg->value, cg->fill);
    for (size_t q = 0; q < art; q++) { /* a_t in row t, b_j in row s + j */
        size_t c = ycols + q;
        cg->col_start[c] = (int)(nnz + q);
        cg->row_index[nnz + q] = (int)q;
        cg->value[nnz + q] = 1.0;
        cg->obj[c] = 1.0;
        cg->clo[c] = 0.0;
        cg->chi[c] = q < s ? 1.0 : (double)r->lo[q - s];
    }
    cg->col_start[cols] = (int)(nnz + art);
    for (size_t t = 0; t < S; t++)
        cg->rlo[t] = cg->rhi[t] = 1.0;
    for (size_t j = 0; j < k; j++) {
        double w = cg->fixed_on ? cg->fixed_w[j] : 0.0;
        cg->rlo[S + j] = fmax(0.0, (double)r->lo[j] - w);
        cg->rhi[S + j] = (double)r->hi[j] - w;
    }
    for (size_t q = S + k; q < rows; q++) {
        cg->rlo[q] = -CKM_BK_INF;
        cg->rhi[q] = 1.0;
    }
    if (cg->warm && !phase1 && !cg->fixed_on)
        warm_basis(cg, r, cost, cols, rows);
    else
        ckm_argmin_basis(cg->obj, cg->gcol, s, k, S, cols, rows, cg->basis);
    cg->cols = cols;
    cg->rows = rows;
    cg->ycols = ycols;
    return true;
}

ckm_lp ckm_cg_model(const struct ckm_cg *cg)
{
    ckm_lp lp = {(int)cg->cols, (int)cg->rows, cg->obj, cg->clo, cg->chi, cg->rlo, cg->rhi,
                 cg->col_start, cg->row_index, cg->value, cg->basis, cg->bas};
    return lp;
}

double ckm_cg_tol(const struct ckm_cg *cg, const double *cost, int phase1, size_t t, size_t j, size_t k)
{
    return 1e-9 * (1.0 + fabs(cg->dual[t]) + (phase1 ? 0.0 : fabs(cost[t * k + j])));
}

/* Keep the cap least keys (ascending, *m of them so far) and their clusters. */
static void keep_least(double *key, int32_t *jj, int *m, int cap, double v, int32_t j)
{
    int p = *m < cap ? (*m)++ : cap;
    while (p > 0 && key[p - 1] > v) {
        if (p < cap) {
            key[p] = key[p - 1];
            jj[p] = jj[p - 1];
        }
        p--;
    }
    if (p < cap) {
        key[p] = v;
        jj[p] = j;
    }
}

/* One pricing pass: activate per group the CG_ADD most negative omitted columns (phase 1:
 * the cheapest by cost among the negative ones); returns how many. */
static size_t price(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, int phase1)
{
    size_t s = r->s, k = r->k, added = 0;
    for (size_t t = 0; t < s; t++) {
        double *kb = cg->rc_best + t * CG_ADD;
        int32_t *jb = cg->j_best + t * CG_ADD;
        int m = 0;
        for (size_t j = 0; j < k; j++) {
            if (ON(cg, t, j))
                continue;
            double rc = reduced_cost(cg, r, cost, phase1, t, j);
            if (rc >= -ckm_cg_tol(cg, cost, phase1, t, j, k))
                continue;
            keep_least(kb, jb, &m, CG_ADD, phase1 ? cost[t * k + j] : rc, (int32_t)j); /* smaller is better */
        }
        for (int q = 0; q < m; q++)
            SET_ON(cg, t, (size_t)jb[q]);
        added += (size_t)m;
    }
    return added;
}

/* Size prices for a step without a start (a restart's first step, whose centers may sit
 * far from the size bounds): the transportation problem of the groups as single units at
 * cost cost_tj / w_t per point and bounds scaled to s groups, floor(lo_j s / n) and
 * ceil(hi_j s / n) (feasible: their sums bracket s), solved exactly (transport.c) but with
 * the cannot-links left out, so its prices only choose first columns; nothing is proven
 * from them. Without size bounds, or when the solver cannot, v_prev is left as it is. */
static ckm_error first_prices(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim,
                              ckm_err *err)
{
    size_t s = r->s, k = r->k;
    if (!r->has_sizes)
        return CKM_OK;
    double *unit = ckm_alloc_array(s * k, sizeof(double)), *price = ckm_calloc_array(k, sizeof(double));
    size_t *lo = ckm_alloc_array(2 * k, sizeof(size_t));
    int32_t *lab = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!unit || !price || !lo || !lab) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the first prices of the assignment step");
        goto done;
    }
    size_t *hi = lo + k;
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            unit[t * k + j] = cost[t * k + j] / (double)r->weight[t];
    for (size_t j = 0; j < k; j++) {
        lo[j] = (size_t)floor((double)r->lo[j] * (double)s / (double)r->n);
        hi[j] = (size_t)ceil((double)r->hi[j] * (double)s / (double)r->n);
    }
    int infeasible = 0;
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    rc = ckm_transport_solve_lim(s, k, unit, lo, hi, lim, NULL, price, lab, &infeasible, &ts, err);
    if (rc == CKM_OK && !infeasible && !ts.stopped)
        for (size_t j = 0; j < k; j++) /* transport.c's prices p_j: c_ij - u_i - p_j >= 0 */
            cg->v_prev[j] = price[j];
done:
    free(unit);
    free(price);
    free(lo);
    free(lab);
    return rc;
}

/* First columns: the start label and the CG_Q cheapest by cost - w v_prev. */
static void first_columns(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, const int32_t *start)
{
    size_t s = r->s, k = r->k, q = k < CG_Q ? k : CG_Q;
    memset(cg->on, 0, s * cg->words * sizeof(uint64_t));
    for (size_t t = 0; t < s; t++) {
        double key[CG_Q];
        int32_t jj[CG_Q];
        int m = 0;
        for (size_t j = 0; j < k; j++)
            keep_least(key, jj, &m, (int)q, cost[t * k + j] - (double)r->weight[t] * cg->v_prev[j], (int32_t)j);
        for (int p = 0; p < m; p++)
            SET_ON(cg, t, (size_t)jj[p]);
        if (start)
            SET_ON(cg, t, (size_t)start[t]);
    }
}

/* The restricted LP to the full LP's optimum (phase 2) or to a proof that the full LP is
 * infeasible. *status: OPTIMAL (cg->x, cg->dual, *z set), INFEASIBLE, LIMIT_NONE, FAILED. */
static ckm_error relax(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim,
                       ckm_bk_status *status, double *z, ckm_assign_result *res, ckm_err *err)
{
    int phase1 = 0;
    cg->warm = 0;
    for (;;) {
        if (!ckm_cg_build(cg, r, cost, phase1))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
        ckm_lp lp = ckm_cg_model(cg);
        ckm_bk_result br;
        ckm_error rc = ckm_bk_lp(&lp, lim, cg->x, cg->dual, &br, err);
        if (rc != CKM_OK)
            return rc;
        res->lp_solves++;
        res->stopped = br.stopped;
        if (br.status == CKM_BK_INFEASIBLE && !phase1) {
            phase1 = 1;
            cg->warm = 0;
            continue;
        }
        if (br.status != CKM_BK_OPTIMAL) {
            *status = phase1 && br.status == CKM_BK_INFEASIBLE ? CKM_BK_FAILED : br.status;
            return CKM_OK;
        }
        res->pricing++;
        if (!phase1 && !keep_model(cg, r))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
        if (price(cg, r, cost, phase1) > 0)
            continue;
        if (!phase1) {
            *status = CKM_BK_OPTIMAL;
            *z = br.objective;
            return CKM_OK;
        }
        if (br.objective > 1e-7) { /* nothing left to price: the full LP is infeasible */
            *status = CKM_BK_INFEASIBLE;
            return CKM_OK;
        }
        phase1 = 0;
    }
}

/* Labels from the restricted 0/1 point; false when some y is fractional. */
bool ckm_cg_labels(const struct ckm_cg *cg, size_t s, int32_t *labels)
{
    for (size_t t = 0; t < s; t++) {
        int32_t lab = cg->fixed_on && cg->fixed[t] >= 0 ? cg->fixed[t] : -1;
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
            double v = cg->x[c];
            if (v > 1e-6 && v < 1.0 - 1e-6)
                return false;
            if (v >= 0.5)
                lab = cg->cj[c];
        }
        if (lab < 0)
            return false;
        labels[t] = lab;
    }
    return true;
}

static void keep_size_duals(struct ckm_cg *cg, const ckm_reduced *r)
{
    memcpy(cg->v_prev, cg->dual + r->s, r->k * sizeof(double));
}

ckm_error ckm_cg_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                       int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    struct ckm_cg *cg = a->cg;
    const ckm_reduced *r = a->r;
    ckm_error rc = start ? CKM_OK : first_prices(cg, r, cost, lim, err);
    if (rc != CKM_OK)
        return rc;
    first_columns(cg, r, cost, start);
    ckm_bk_status st;
    double z_lp = 0.0;
    rc = relax(cg, r, cost, lim, &st, &z_lp, res, err);
    if (rc != CKM_OK)
        return rc;
    res->status = st;
    if (st == CKM_BK_OPTIMAL) {
        keep_size_duals(cg, r);
        if (ckm_cg_labels(cg, r->s, labels)) {
            res->restricted = 1;
        } else {
            kept_reduced_costs(cg);
            if ((rc = ckm_cg_proven_mip(cg, r, cost, start, lim, z_lp, labels, res, err)) != CKM_OK)
                return rc;
        }
    }
    res->columns = ckm_cg_bits(cg->on, r->s * cg->words);
    return CKM_OK;
}

ckm_error ckm_cg_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x, ckm_bk_status *status,
                    ckm_err *err)
{
    struct ckm_cg *cg = a->cg;
    const ckm_reduced *r = a->r;
    ckm_assign_result res;
    memset(&res, 0, sizeof res);
    first_columns(cg, r, cost, NULL);
    double z;
    ckm_error rc = relax(cg, r, cost, lim, status, &z, &res, err);
    if (rc != CKM_OK || *status != CKM_BK_OPTIMAL)
        return rc;
    keep_size_duals(cg, r);
    memset(x, 0, r->s * r->k * sizeof(double));
    for (size_t t = 0; t < r->s; t++)
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++)
            x[t * r->k + (size_t)cg->cj[c]] = cg->x[c];
    return CKM_OK;
}
