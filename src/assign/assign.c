/*
 * assign.c -- see assign.h. Column (t, j) has index t*k + j and entries
 *   row t (coefficient 1), row s + j (coefficient w_t), and row s + k + e*k + j
 *   (coefficient 1) for every lifted cannot-link e incident to t, then (soft pairs' rows,
 *   their slacks after the y columns) and, with capacities, row cap_base + j (coefficient
 *   Q_t, the group's demand): cap_lo_j <= sum_t Q_t y_tj <= cap_hi_j, the last rows, so each
 *   column's entries stay in ascending row order.
 * Integrality test on the LP vertex: every y within 1e-6 of 0 or 1.
 */
#include "assign.h"
#include "transport_types.h"
#include "core.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ckm_assign_free(ckm_assign *a)
{
    free(a->col_start);
    free(a->row_index);
    free(a->value);
    free(a->obj);
    free(a->col_lo);
    free(a->col_hi);
    free(a->row_lo);
    free(a->row_hi);
    free(a->x);
    free(a->start);
    free(a->dual);
    free(a->basis);
    ckm_cg_free(a->cg);
    ckm_price_free(a->price);
    memset(a, 0, sizeof *a);
}

double ckm_assign_nnz(const ckm_reduced *r)
{
    double k = (double)r->k, f = 2.0 * (double)r->s * k + 2.0 * k * (double)r->n_cl;
    for (size_t e = 0; e < r->n_soft; e++)
        f += (r->soft_w[e] > 0.0 ? 6.0 : 3.0) * k;
    if (r->has_caps)
        f += (double)r->s * k;
    return f;
}

double ckm_assign_bytes(const ckm_reduced *r)
{
    if (ckm_assign_restricted(r))
        return ckm_cg_bytes(r, 0);
    if (ckm_assign_priced(r))
        return ckm_price_bytes(r);
    return ckm_assign_bytes_full(r);
}

double ckm_assign_bytes_full(const ckm_reduced *r)
{
    double cols = (double)r->s * (double)r->k + (double)r->n_soft;
    /* capacity steps' reduced-cost fixing (assign_fix.c): reduced costs, states, compact
       column map and queue, 25 bytes per (t, j) */
    double fix = r->has_caps ? 25.0 * (double)r->s * (double)r->k : 0.0;
    return 190.0 * ckm_assign_nnz(r) + 175.0 * cols + fix;
}

bool ckm_assign_local(const ckm_reduced *r)
{
    return r->n_soft > 0 && r->n_cl == 0 && !r->has_sizes && !r->has_caps && ckm_assign_nnz(r) > CKM_SOFT_MODEL_MAX_NNZ;
}

bool ckm_assign_restricted(const ckm_reduced *r)
{
    /* capacities: the full model (the restricted one's placement by size prices has no
       capacity rows yet) */
    return r->n_soft == 0 && !r->has_caps && r->k >= 4 && ckm_assign_nnz(r) >= CKM_CG_FROM_NNZ;
}

bool ckm_assign_priced(const ckm_reduced *r)
{
    return r->has_caps && r->n_soft == 0 && ckm_assign_nnz(r) >= CKM_PRICE_FROM_NNZ;
}

bool ckm_assign_by_centers(const ckm_reduced *r)
{
    return ckm_assign_restricted(r) && (double)r->s * (double)r->k > (double)CKM_TRANSPORT_MATRIX_MAX;
}

double ckm_assign_bytes_centers(const ckm_reduced *r)
{
    return ckm_cg_bytes(r, 1);
}

ckm_error ckm_assign_init(ckm_assign *a, const ckm_reduced *r, ckm_err *err)
{
    return ckm_assign_init_kind(a, r, CKM_MODEL_AUTO, err);
}

/* The full model's row bounds but the soft pairs' (set with their columns): group rows = 1,
 * size rows [lo_j, hi_j], cannot-link rows <= 1 (s + k .. soft_base), capacity rows
 * [cap_lo_j, cap_hi_j] from cap_base. */
static void row_bounds(ckm_assign *a, const ckm_reduced *r, size_t soft_base, size_t cap_base)
{
    size_t s = r->s, k = r->k;
    for (size_t t = 0; t < s; t++)
        a->row_lo[t] = a->row_hi[t] = 1.0;
    for (size_t j = 0; j < k; j++) {
        a->row_lo[s + j] = (double)r->lo[j];
        a->row_hi[s + j] = (double)r->hi[j];
    }
    for (size_t q = s + k; q < soft_base; q++) {
        a->row_lo[q] = -CKM_BK_INF;
        a->row_hi[q] = 1.0;
    }
    for (size_t j = 0; r->has_caps && j < k; j++) {
        a->row_lo[cap_base + j] = r->cap_lo[j];
        a->row_hi[cap_base + j] = isfinite(r->cap_hi[j]) ? r->cap_hi[j] : CKM_BK_INF;
    }
}

ckm_error ckm_assign_init_kind(ckm_assign *a, const ckm_reduced *r, ckm_model_kind kind, ckm_err *err)
{
    memset(a, 0, sizeof *a);
    a->r = r;
    if (kind == CKM_MODEL_RESTRICTED ? r->n_soft == 0 && !r->has_caps : kind == CKM_MODEL_AUTO && ckm_assign_restricted(r))
        return (a->cg = ckm_cg_new(r, 0)) ? CKM_OK
                                         : ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
    if (r->has_caps && r->n_soft == 0 && (kind == CKM_MODEL_PRICE || (kind == CKM_MODEL_AUTO && ckm_assign_priced(r))))
        return (a->price = ckm_price_new(r)) ? CKM_OK
                                             : ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the capacity step's prices");
    size_t s = r->s, k = r->k, ns = r->n_soft, ycols, clrows, soft_rows = 0;
    for (size_t e = 0; e < ns; e++)
        soft_rows += r->soft_w[e] > 0.0 ? 2 : 1;
    /* nnz = s k (assignment) + s k (sizes) + 2 k n_cl (cannot-links) + per soft pair 3 k
     * (cannot-link: y_a, y_b, slack in k rows) or 6 k (must-link: in 2 k rows) + s k
     * (capacities) */
    size_t caps = r->has_caps ? 1 : 0;
    if (!ckm_mul_ok(s, k, &ycols) || !ckm_mul_ok(r->n_cl, k, &clrows) || ycols > INT_MAX / 5 ||
        clrows > INT_MAX / 4 || ns > INT_MAX / 4 || soft_rows > INT_MAX / (6 * k) ||
        s + 2 * k + clrows + soft_rows * k > INT_MAX / 2 ||
        (2 + caps) * ycols + 2 * clrows + 3 * soft_rows * k > INT_MAX) {
        return ckm_fail(err, CKM_ERR_INVALID,
                        "assignment model too large for the LP backend (%zu groups x %zu clusters, %zu cannot-links, "
                        "%zu soft pairs)",
                        s, k, r->n_cl, ns);
    }
    size_t cols = ycols + ns, soft_base = s + k + clrows, cap_base = soft_base + soft_rows * k;
    size_t rows = cap_base + caps * k, nnz = (2 + caps) * ycols + 2 * clrows + 3 * soft_rows * k;
    a->col_start = ckm_alloc_array(cols + 1, sizeof(int));
    a->row_index = ckm_alloc_array(nnz ? nnz : 1, sizeof(int));
    a->value = ckm_alloc_array(nnz ? nnz : 1, sizeof(double));
    a->obj = ckm_calloc_array(cols, sizeof(double));
    a->col_lo = ckm_calloc_array(cols, sizeof(double));
    a->col_hi = ckm_alloc_array(cols, sizeof(double));
    a->row_lo = ckm_alloc_array(rows, sizeof(double));
    a->row_hi = ckm_alloc_array(rows, sizeof(double));
    a->x = ckm_alloc_array(cols, sizeof(double));
    a->start = ckm_alloc_array(cols, sizeof(double));
    a->dual = ckm_alloc_array(rows, sizeof(double));
    a->basis = ckm_alloc_array(cols + rows, 1);
    /* soft pair e owns rows soft_row[e] .. soft_row[e+1]: k (cannot-link) or 2 k (must-link) */
    size_t *soft_row = ckm_alloc_array(ns + 1, sizeof(size_t));
    size_t *inc_start = NULL, *inc = NULL, *sinc_start = NULL, *sinc = NULL;
    bool inc_ok = ckm_incidence(s, r->n_cl, r->cl, &inc_start, &inc);
    inc_ok = ckm_incidence(s, ns, r->soft, &sinc_start, &sinc) && inc_ok;
    if (!a->col_start || !a->row_index || !a->value || !a->obj || !a->col_lo || !a->col_hi || !a->row_lo ||
        !a->row_hi || !a->x || !a->start || !a->dual || !a->basis || !soft_row || !inc_ok) {
        free(soft_row);
        free(inc_start);
        free(inc);
        free(sinc_start);
        free(sinc);
        ckm_assign_free(a);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model");
    }
    soft_row[0] = soft_base;
    for (size_t e = 0; e < ns; e++)
        soft_row[e + 1] = soft_row[e] + (r->soft_w[e] > 0.0 ? 2 : 1) * k;
    size_t pos = 0;
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++) {
            size_t c = t * k + j;
            a->col_start[c] = (int)pos;
            a->col_hi[c] = 1.0;
            a->row_index[pos] = (int)t;
            a->value[pos++] = 1.0;
            a->row_index[pos] = (int)(s + j);
            a->value[pos++] = (double)r->weight[t];
            for (size_t q = inc_start[t]; q < inc_start[t + 1]; q++) {
                a->row_index[pos] = (int)(s + k + inc[q] * k + j);
                a->value[pos++] = 1.0;
            }
            for (size_t q = sinc_start[t]; q < sinc_start[t + 1]; q++) {
                size_t e = sinc[q];
                if (r->soft_w[e] < 0.0) { /* y_aj + y_bj - z_e <= 1 */
                    a->row_index[pos] = (int)(soft_row[e] + j);
                    a->value[pos++] = 1.0;
                } else {
                    /* y_aj - y_bj - z_e <= 0 and y_bj - y_aj - z_e <= 0. One direction alone is
                     * exact for 0/1 y (apart, a sits in some j without b), but both make the
                     * LP tighter: y_a = (1/2, 1/2, 0), y_b = (0, 0, 1) needs z = 1, not 1/2 */
                    double sign = r->soft[2 * e] == t ? 1.0 : -1.0;
                    a->row_index[pos] = (int)(soft_row[e] + 2 * j);
                    a->value[pos++] = sign;
                    a->row_index[pos] = (int)(soft_row[e] + 2 * j + 1);
                    a->value[pos++] = -sign;
                }
            }
            if (caps) {
                a->row_index[pos] = (int)(cap_base + j);
                a->value[pos++] = r->demand[t];
            }
        }
    for (size_t e = 0; e < ns; e++) { /* slack z_e in [0, 1], cost P |w_e|, in each of e's rows */
        size_t c = ycols + e;
        a->col_start[c] = (int)pos;
        a->col_hi[c] = 1.0;
        a->obj[c] = r->soft_P * fabs(r->soft_w[e]);
        for (size_t q = soft_row[e]; q < soft_row[e + 1]; q++) {
            a->row_index[pos] = (int)q;
            a->value[pos++] = -1.0;
            a->row_lo[q] = -CKM_BK_INF;
            a->row_hi[q] = r->soft_w[e] > 0.0 ? 0.0 : 1.0;
        }
    }
    a->col_start[cols] = (int)pos;
    row_bounds(a, r, soft_base, cap_base);
    free(soft_row);
    free(inc_start);
    free(inc);
    free(sinc_start);
    free(sinc);
    ckm_lp lp = {(int)cols, (int)rows, a->obj, a->col_lo, a->col_hi, a->row_lo, a->row_hi,
                 a->col_start, a->row_index, a->value, a->basis, NULL};
    a->lp = lp;
    return CKM_OK;
}

/* Labels from a 0/1 vector; false when some y is fractional. */
static bool integral_labels(const ckm_assign *a, const double *x, int32_t *labels)
{
    size_t s = a->r->s, k = a->r->k;
    for (size_t t = 0; t < s; t++) {
        int32_t lab = -1;
        for (size_t j = 0; j < k; j++) {
            double v = x[t * k + j];
            if (v > 1e-6 && v < 1.0 - 1e-6)
                return false;
            if (v >= 0.5)
                lab = (int32_t)j;
        }
        if (lab < 0)
            return false;
        labels[t] = lab;
    }
    return true;
}

/* The dual simplex's start for the costs (instead of the slack basis): each group's cheapest
 * column basic (its assignment row nonbasic), every other column at its lower bound 0, the
 * slacks of all other rows (sizes, cannot-links, soft pairs) basic -- s + (rows - s) = rows
 * basic variables, the model's row order (assignment rows first). Dual feasible for any
 * costs: with the duals u_t = cost_t,argmin and 0 on every other row, each reduced cost is
 * cost_tj - u_t >= 0, and a soft slack's is its cost P |w_e| >= 0; only the rows it breaks
 * (sizes off their bounds, cannot-links sharing a cluster) are left to the dual simplex.
 * 20,000 groups x 12 clusters, sizes 1500-1800, 35 must-links + 365 cannot-links
 * (bench/hard_pairs_run.sh): 2.0-3.7 s a step from the slack basis, 0.06-1.1 s from this one,
 * the same labels; bckm's LP rounds (penalised costs, ckm_assign_lp) on the same data, 10
 * restarts: 67.6 -> 5.4 s, the same labels. */
static void argmin_basis(ckm_assign *a, const double *cost)
{
    ckm_argmin_basis(cost, NULL, a->r->s, a->r->k, a->r->s, (size_t)a->lp.ncols, (size_t)a->lp.nrows, a->basis);
}

static ckm_error full_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                            int32_t *labels, ckm_assign_result *res, ckm_err *err);

/* The caller's start when a limit left the step without labels (it is feasible), and the
 * step's time. */
static void finish(const ckm_assign *a, const int32_t *start, double t0, int32_t *labels, ckm_assign_result *res)
{
    if (res->status == CKM_BK_LIMIT_NONE && start) {
        memcpy(labels, start, a->r->s * sizeof(int32_t));
        res->status = CKM_BK_LIMIT_FEASIBLE;
    }
    res->seconds = ckm_now() - t0;
}

ckm_error ckm_assign_solve(ckm_assign *a, const double *cost, const int32_t *start,
                           const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res,
                           ckm_err *err)
{
    double t0 = ckm_now();
    memset(res, 0, sizeof *res);
    ckm_bk_limits none = ckm_bk_no_limits();
    if (!lim)
        lim = &none;
    ckm_error rc = a->cg      ? ckm_cg_solve(a, cost, start, lim, labels, res, err)
                   : a->price ? ckm_price_solve(a->price, a->r, cost, start, lim, labels, res, err)
                              : full_solve(a, cost, start, lim, labels, res, err);
    if (rc == CKM_OK && a->price)
        res->has_bound = 1;
    if (rc != CKM_OK)
        return rc;
    finish(a, start, t0, labels, res);
    if (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)
        res->objective = ckm_assign_total(a->r, cost, labels);
    return CKM_OK;
}

ckm_error ckm_assign_solve_centers(ckm_assign *a, const double *C, int threads, const int32_t *start,
                                   const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    memset(res, 0, sizeof *res);
    if (!a->cg)
        return ckm_fail(err, CKM_ERR_INTERNAL, "assignment step from centers without the restricted model");
    ckm_bk_limits none = ckm_bk_no_limits();
    ckm_error rc = ckm_cg_solve_centers(a, C, threads, start, lim ? lim : &none, labels, res, err);
    if (rc != CKM_OK)
        return rc;
    finish(a, start, t0, labels, res);
    if (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)
        res->objective = ckm_cg_objective(a, labels);
    return CKM_OK;
}

/* The full model: the LP from the argmin basis, CBC when its vertex is fractional. */
static ckm_error full_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                            int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    size_t cols = (size_t)a->lp.ncols, k = a->r->k, ycols = a->r->s * k;
    memcpy(a->obj, cost, ycols * sizeof(double)); /* the soft slacks' costs are fixed */
    argmin_basis(a, cost);
    ckm_bk_result br;
    bool fix = a->r->has_caps && a->r->n_soft == 0; /* capacity rows: reduced-cost fixing (assign_fix.c) */
    ckm_error rc = ckm_bk_lp(&a->lp, lim, a->x, fix ? a->dual : NULL, &br, err);
    if (rc != CKM_OK)
        return rc;
    res->status = br.status;
    res->stopped = br.stopped;
    res->lp_solves = 1;
    if (fix && br.status == CKM_BK_OPTIMAL && !integral_labels(a, a->x, labels)) {
        res->used_mip = 1;
        res->has_bound = 1;
        res->bound = br.objective;
        return ckm_assign_fix_mip(a, cost, a->x, a->dual, br.objective, start, lim, labels, res, err);
    }
    if (br.status == CKM_BK_OPTIMAL && !integral_labels(a, a->x, labels)) {
        /* fractional vertex: CBC, warm-started from the caller's feasible labelling */
        if (start) {
            memset(a->start, 0, cols * sizeof(double));
            for (size_t t = 0; t < a->r->s; t++)
                a->start[t * k + (size_t)start[t]] = 1.0;
            for (size_t e = 0; e < a->r->n_soft; e++) { /* slack = violated */
                bool same = start[a->r->soft[2 * e]] == start[a->r->soft[2 * e + 1]];
                a->start[ycols + e] = same != (a->r->soft_w[e] > 0.0) ? 1.0 : 0.0;
            }
        }
        res->used_mip = 1;
        if ((rc = ckm_bk_mip(&a->lp, lim, start ? a->start : NULL, a->x, &br, err)) != CKM_OK)
            return rc;
        res->status = br.status;
        res->stopped = br.stopped;
        res->mip_nodes = br.nodes;
        if ((br.status == CKM_BK_OPTIMAL || br.status == CKM_BK_LIMIT_FEASIBLE) &&
            !integral_labels(a, a->x, labels))
            res->status = CKM_BK_FAILED;
    }
    return CKM_OK;
}

ckm_error ckm_assign_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x,
                        ckm_bk_status *status, ckm_err *err)
{
    if (a->cg)
        return ckm_cg_lp(a, cost, lim, x, status, err);
    if (a->price)
        return ckm_fail(err, CKM_ERR_INTERNAL, "the LP relaxation of a capacity step on the price route");
    memcpy(a->obj, cost, a->r->s * a->r->k * sizeof(double));
    ckm_bk_result br;
    argmin_basis(a, cost);
    ckm_error rc = ckm_bk_lp(&a->lp, lim, x, NULL, &br, err);
    if (rc == CKM_OK)
        *status = br.status;
    return rc;
}
