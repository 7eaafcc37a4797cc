/*
 * assign_cg.h -- the restricted assignment model's state, shared by its LP (assign_cg.c:
 * column generation, pricing, warm rounds) and its MILP (assign_cg_mip.c: reduced-cost
 * fixing, presolve, CBC). Internal to src/assign; the entry points are in assign.h.
 * Invariants: on (s x words bits) is the active column set; the model built last
 * (ckm_cg_build) numbers group t's columns gcol[t] .. gcol[t+1] by ascending cluster cj;
 * dual holds that model's row duals after an LP (CLP's sign: rc = c - A' y).
 */
#ifndef CKM_ASSIGN_CG_H
#define CKM_ASSIGN_CG_H

#include "assign.h"

#include <stdbool.h>
#include <stdint.h>

#define CG_Q 3   /* first columns per group, besides the start label */
#define CG_ADD 2 /* columns activated per group and pricing pass */
#define CG_PLACE_PAIRS 4 /* groups with more cannot-links keep their row (assign_cg.c) */

struct ckm_cg {
    size_t words;       /* 64-bit words per group in on */
    uint64_t *on;       /* s * words: active columns */
    double *v_prev;     /* k: size duals of the last step (first columns) */
    /* the current model (grow-only buffers) */
    size_t cols, rows, ycols, cap_cols, cap_rows, cap_nnz;
    size_t *gcol;       /* s + 1: group t's columns are gcol[t] .. gcol[t+1] */
    int32_t *cj;        /* cols: cluster of a y column */
    int *col_start, *row_index;
    double *value, *obj, *clo, *chi, *rlo, *rhi, *x, *dual, *start;
    unsigned char *basis;
    size_t *fill;
    size_t *rkey;       /* rows - s - k: cannot-link row (e, j) as e k + j, ascending */
    unsigned char *bas; /* cols + rows: the optimal basis of the last LP */
    /* the previous model of this step (warm start): its clusters, groups, rows, basis */
    int warm;           /* 1: prev_* hold an optimal phase 2 model with the same rows order */
    size_t pcols, prows, cap_pcols, cap_prows;
    int32_t *pcj;
    double *prc;        /* pcols: the reduced costs of the kept model's columns */
    size_t *pgcol, *prkey;
    unsigned char *pbas;
    int32_t *fixed;     /* s, or NULL: groups the MILP presolve fixed (-1: free); their rows
                           are left out, their weight off the size rows (fixed_w) */
    double *fixed_w;    /* k */
    int fixed_on;       /* 1 while a MILP's presolve holds: build() then leaves the fixed
                           groups' rows out and numbers the others' compactly (row_of) */
    size_t *row_of;     /* s: group t's row in the model built last, SIZE_MAX when it has none
                           (placed or fixed) */
    size_t S;           /* group rows of the model built last (rows S .. S + k - 1: sizes) */
    /* groups placed by the size prices (the decomposition): no row of their own in the LP,
       their weight off the size rows (agg_w), the dual u_t = cost_tf - w_t v_f implied */
    int agg_on;         /* 1 while a step's LP rounds place groups */
    int32_t *agg;       /* s: cluster f where the prices placed group t, -1: never placed */
    unsigned char *lifted; /* s: 1 once pricing took a placed group back into the LP */
    double *agg_w;      /* k */
    size_t npl;         /* groups placed and not lifted */
    size_t lifts;       /* groups the last pricing pass lifted */
    double *u, *v;      /* s, k: the last LP's duals extended to every group */
    size_t *prow_of, pS; /* the kept model's row_of and S */
    size_t *inc_start, *inc; /* cannot-links incident to each group (ckm_incidence) */
    double *rc_best;    /* s * CG_ADD scratch of the pricing pass (first_columns: each
                           group's two cheapest keys, read by place_by_prices) */
    int32_t *j_best;
    /* the step's costs (assign_cg_costs.c): the caller's s x k matrix, or implicit from the
       groups' shifted means and the step's centers */
    const double *cost; /* s * k, or NULL: implicit */
    int implicit;       /* 1: the implicit costs' workspace below exists (ckm_cg_costs_new) */
    double *ms, *msn, *org; /* s * d means minus org (d), their squared norms (s) */
    double *cs, *csn;   /* k * d centers minus org, their squared norms (k) */
    double *blk;        /* blk_rows * k: the costs of rows b0 .. b1 - 1 */
    size_t blk_rows, b0, b1; /* blk_rows: ckm_cg_block_rows(k) unless a test set fewer */
    double round;       /* 2.5e-16 (d + 2): the rounding factor of ckm_cg_rounding */
    int threads;        /* implicit: first_prices' transportation problem from points, */
    struct ckm_transport_cache *tcache; /* and its cache across the steps (transport.h) */
    double model_high;  /* bytes: the largest model built (ckm_cg_build), at first the one
                           the memory model counts (ckm_cg_bytes) */
    double avail;       /* < 0: ckm_memory_available(); tests set the memory available */
};

/* bit j of a group's row of 64-bit words; the active set's bit (t, j) */
#define BIT(row, j) (((row)[(j) / 64] >> ((j) % 64)) & 1u)
#define BIT_SET(row, j) ((row)[(j) / 64] |= (uint64_t)1 << ((j) % 64))
#define ON(cg, t, j) BIT((cg)->on + (t) * (cg)->words, j)
#define SET_ON(cg, t, j) BIT_SET((cg)->on + (t) * (cg)->words, j)

/* Cluster where group t sits outside the model built (the MILP presolve's fix, or the
 * prices' placement during the LP rounds), or -1 when it has a row of its own. */
static inline int32_t ckm_cg_placed(const struct ckm_cg *cg, size_t t)
{
    if (cg->fixed_on)
        return cg->fixed[t];
    return cg->agg_on && cg->agg[t] >= 0 && !cg->lifted[t] ? cg->agg[t] : -1;
}

/* Set bits in words 64-bit words. */
static inline size_t ckm_cg_bits(const uint64_t *row, size_t words)
{
    size_t c = 0;
    for (size_t w = 0; w < words; w++)
        c += (size_t)__builtin_popcountll(row[w]);
    return c;
}

/* Index of cluster j among the ascending cj[lo .. hi), or -1 (binary search). */
static inline long ckm_cg_find(const int32_t *cj, size_t lo, size_t hi, int32_t j)
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

/* Column of (t, j) in the current model, or -1 when inactive. */
static inline long ckm_cg_col(const struct ckm_cg *cg, size_t t, int32_t j)
{
    return ckm_cg_find(cg->cj, cg->gcol[t], cg->gcol[t + 1], j);
}

/* assign_cg_costs.c: the step's costs (its header has the formulas). */
/* The implicit costs' workspace for r (its means and masses); false when out of memory
 * (ckm_cg_free releases what was allocated). */
bool ckm_cg_costs_new(struct ckm_cg *cg, const ckm_reduced *r);
/* Rows per block of costs for k clusters (cg->blk_rows, set by ckm_cg_new; tests lower it). */
size_t ckm_cg_block_rows(size_t k);
void ckm_cg_costs_free(struct ckm_cg *cg);
/* This step's costs: the caller's s x k matrix, or (implicit workspace only) the centers C. */
void ckm_cg_use_matrix(struct ckm_cg *cg, const double *cost);
void ckm_cg_use_centers(struct ckm_cg *cg, const ckm_reduced *r, const double *C);
double ckm_cg_cost(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j);
/* Group t's k costs, valid until the next call; passes ask for ascending t. */
const double *ckm_cg_cost_row(struct ckm_cg *cg, const ckm_reduced *r, size_t t);
/* How far a row's cost and the single entry's may differ (0 with the matrix). */
static inline double ckm_cg_rounding(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j)
{
    return cg->cost ? 0.0 : cg->round * r->mass[t] * (cg->msn[t] + cg->csn[j]);
}
/* sum_t cost_{t, labels_t}. */
double ckm_cg_total(const struct ckm_cg *cg, const ckm_reduced *r, const int32_t *labels);

/* assign_cg_model.c: the model's storage and construction. */
/* Reduced cost of column (t, j) of cost c (0 in phase 1) under the extended duals (cg->u,
 * cg->v), with no cannot-link term. */
static inline double ckm_cg_reduced(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j)
{
    return c - cg->u[t] - (double)r->weight[t] * cg->v[j];
}
/* Keep the model just solved to optimality (phase 2) for the next round's basis. */
bool ckm_cg_keep(struct ckm_cg *cg, const ckm_reduced *r);
/* The kept model's reduced costs rc = c - A' y, once the LP is final (for ckm_cg_rc). */
void ckm_cg_kept_rc(struct ckm_cg *cg);
/* Build the restricted model: y columns (the step's costs, or 0 in phase 1), in phase 1 also
 * the artificials (cost 1). false on allocation failure or int overflow. */
ckm_error ckm_cg_build(struct ckm_cg *cg, const ckm_reduced *r, int phase1, ckm_err *err);
ckm_lp ckm_cg_model(const struct ckm_cg *cg);
/* Reduced cost of (t, j) of cost c under the duals of the kept (last optimal) LP. */
double ckm_cg_rc(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j);
/* The tolerance below which the reduced cost of (t, j), of cost c (0 in phase 1), counts as
 * negative: 1e-9 (1 + |c| + |u_t|), the scale of CLP's own optimality test (1e-7 on scaled
 * reduced costs) and well below it, plus the costs' rounding. */
static inline double ckm_cg_tol(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j)
{
    return 1e-9 * (1.0 + (cg->u[t] < 0.0 ? -cg->u[t] : cg->u[t]) + (c < 0.0 ? -c : c)) + ckm_cg_rounding(cg, r, t, j);
}
/* Labels from the last model's 0/1 point; false when some y is fractional. */
bool ckm_cg_labels(const struct ckm_cg *cg, size_t s, int32_t *labels);
/* The step's MILP when the LP vertex is fractional (assign_cg_mip.c). */
ckm_error ckm_cg_proven_mip(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *lim,
                            double z_lp, int32_t *labels, ckm_assign_result *res, ckm_err *err);

#endif
