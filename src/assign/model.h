/*
 * model.h -- the one row builder of the assignment model: the full model (every (group,
 * cluster) column, route_full.c), the restricted one (the active columns, restricted.c) and
 * the compact one of the reduced-cost fixing (fix.c) are all built by ckm_model_build, so each
 * kind of row is written once.
 *   columns  y_tj for the clusters listed per group (ascending), then one slack z_e in [0, 1]
 *            of cost P |w_e| per soft pair with a row in the model, then in phase 1 one
 *            artificial per group row (in [0, 1]) and per size and capacity row (in [0, its
 *            minimum]), cost 1 (the slacks then cost 0)
 *   rows     group       sum_j y_tj = 1                  each group in the model
 *            size        lo_j - W_j <= sum_t w_t y_tj <= hi_j - W_j
 *            cannot-link y_aj + y_bj <= 1                both columns in, (e, j) ascending
 *            soft        y_aj + y_bj - z_e <= 1          soft cannot-link, both columns in
 *                        y_aj - y_bj - z_e <= 0          soft must-link, (a, j) in
 *                        y_bj - y_aj - z_e <= 0          soft must-link, (b, j) in
 *                        ((e, j, direction) ascending)
 *            capacity    Lc_j - Q_j <= sum_t Q_t y_tj <= Uc_j - Q_j   (with capacities; a zero
 *                        demand has no entry)
 *   W_j and Q_j are the weight and demand of the groups held out of the model at j (placed
 *   by prices, or fixed by a presolve): no row, no column. The callers keep two invariants:
 *   a held group has no soft pair, and no column of a cannot-link partner sits where a group
 *   is held (the restricted model's placement rule; the presolve's cascade), so held groups
 *   drop out of every pair row exactly.
 * A soft must-link row with only one of its y columns in the model is kept (y_aj - z_e <= 0
 * binds); the omitted column enters through that row's dual when it is priced.
 * Cost: O(columns + pair rows) per build, grow-only buffers (a model of the shape of the one
 * before allocates nothing).
 */
#ifndef CKM_ASSIGN_MODEL_H
#define CKM_ASSIGN_MODEL_H

#include "backend.h"
#include "reduced.h"

#include <stdbool.h>
#include <stdint.h>

/* Which y columns the model has. */
typedef struct ckm_colset {
    const size_t *gcol;   /* s + 1: group t's columns are gcol[t] .. gcol[t+1] (empty for a held
                             group); NULL: every (t, j), column t k + j */
    const int32_t *cj;    /* the columns' clusters, ascending within a group (gcol non-NULL) */
    const int32_t *held;  /* s, or NULL: cluster where group t is held out of the model, -1 */
} ckm_colset;

typedef struct ckm_model {
    size_t cols, rows, nnz;
    size_t ycols, slacks, arts; /* y columns, soft slacks after them, then artificials */
    size_t S;                   /* group rows: 0 .. S - 1; size rows S .. S + k - 1 */
    size_t pair0, cap0;         /* first cannot-link / soft row; first capacity row (= rows
                                   when there are no capacity rows) */
    int *col_start, *row_index;
    double *value, *obj, *clo, *chi, *rlo, *rhi;
    size_t *row_of;             /* s: group t's row, SIZE_MAX when held */
    size_t *pkey;               /* rows pair0 .. cap0 - 1: the row's key, ascending (ckm_model_key) */
    size_t *slack_of;           /* slacks: the soft pair of each slack column */
    size_t *fill, *cnt;         /* scratch */
    double *held_w;             /* 2 k scratch: the held groups' weight and demand per cluster */
    size_t cap_cols, cap_rows, cap_nnz, cap_s, cap_pairs, cap_slack, cap_k;
} ckm_model;

/* Key of a pair row: cannot-link (e, j) -> e k + j; soft pair e, cluster j, direction dir
 * (0: cannot-link or a's must-link row, 1: b's) -> n_cl k + 2 (e k + j) + dir. */
static inline size_t ckm_model_key(const ckm_reduced *r, bool soft, size_t e, size_t j, int dir)
{
    return soft ? r->n_cl * r->k + 2 * (e * r->k + j) + (size_t)dir : e * r->k + j;
}

/* Index of cluster j among the ascending clusters cj[lo .. hi) of one group, or -1. */
static inline long ckm_cluster_find(const int32_t *cj, size_t lo, size_t hi, int32_t j)
{
    size_t end = hi;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cj[mid] < j)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && cj[lo] == j ? (long)lo : -1;
}

/* Build the model of the columns cs (the y objective is left for the caller to fill, by
 * column); phase1 adds the artificials. false: out of memory, or too large for the LP
 * backend's int indices (*too_large set). */
bool ckm_model_build(ckm_model *m, const ckm_reduced *r, const ckm_colset *cs, bool phase1, bool *too_large);
/* The CLP view of the model last built; basis and basis_out as the caller sets them. */
ckm_lp ckm_model_lp(const ckm_model *m, unsigned char *basis, unsigned char *basis_out);
void ckm_model_free(ckm_model *m);
/* Nonzeros of r's full model: 2 s k + 2 k m + 3 k per soft cannot-link + 6 k per soft
 * must-link + s k with capacities. */
double ckm_model_full_nnz(const ckm_reduced *r);

/* The dual simplex's start for costs obj: in each group's columns -- gcol[t] .. gcol[t+1], or
 * t k .. t k + k with gcol NULL -- the first cheapest one basic, every other of the cols
 * columns at 0; the first group_rows rows (the groups' equalities) nonbasic, the other rows'
 * slacks basic. st: cols + rows codes. Dual feasible for any costs: with the duals
 * u_t = cost_t,argmin and 0 on every other row each reduced cost is cost_tj - u_t >= 0 (a
 * soft slack's is its cost); only the rows it breaks are left to the dual simplex.
 * 20,000 groups x 12 clusters, sizes 1500-1800, 35 must-links + 365 cannot-links
 * (bench/hard_pairs_run.sh): 2.0-3.7 s a step from the slack basis, 0.06-1.1 s from this one,
 * the same labels. */
void ckm_argmin_basis(const double *obj, const size_t *gcol, size_t s, size_t k, size_t group_rows, size_t cols,
                      size_t rows, unsigned char *st);

#endif
