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

/* assign_cg_model.c: the model's storage and construction. */
/* Reduced cost of the omitted column (t, j) under the extended duals (cg->u, cg->v). */
double ckm_cg_reduced_cost(const struct ckm_cg *cg, const ckm_reduced *r, const double *cost, int phase1, size_t t,
                           size_t j);
/* Keep the model just solved to optimality (phase 2) for the next round's basis. */
bool ckm_cg_keep(struct ckm_cg *cg, const ckm_reduced *r);
/* The kept model's reduced costs rc = c - A' y, once the LP is final (for ckm_cg_rc). */
void ckm_cg_kept_rc(struct ckm_cg *cg);
/* Build the restricted model: y columns (costs cost, or 0 in phase 1), in phase 1 also the
 * artificials (cost 1). false on allocation failure or int overflow. */
bool ckm_cg_build(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, int phase1);
ckm_lp ckm_cg_model(const struct ckm_cg *cg);
/* Reduced cost of (t, j) under the duals of the kept (last optimal) LP. */
double ckm_cg_rc(const struct ckm_cg *cg, const ckm_reduced *r, const double *cost, size_t t, size_t j);
/* The tolerance below which a reduced cost counts as negative. */
double ckm_cg_tol(const struct ckm_cg *cg, const double *cost, int phase1, size_t t, size_t j, size_t k);
/* Labels from the last model's 0/1 point; false when some y is fractional. */
bool ckm_cg_labels(const struct ckm_cg *cg, size_t s, int32_t *labels);
/* The step's MILP when the LP vertex is fractional (assign_cg_mip.c). */
ckm_error ckm_cg_proven_mip(struct ckm_cg *cg, const ckm_reduced *r, const double *cost, const int32_t *start,
                            const ckm_bk_limits *lim, double z_lp, int32_t *labels, ckm_assign_result *res,
                            ckm_err *err);

#endif
