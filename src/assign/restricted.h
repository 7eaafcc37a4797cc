/*
 * restricted.h -- the restricted route's state (types and inline helpers only), shared by
 * its route (route_restricted.c: column generation, pricing, placement, warm rounds; its MILP
 * by the fixing of fix.h), its model (restricted_model.c) and its costs (restricted_costs.c).
 * Invariants: on (s x words bits) is the active column set; the model built last
 * (ckm_cg_build, model.h's rows) numbers group t's columns gcol[t] .. gcol[t+1] by ascending
 * cluster cj; dual holds that model's row duals after an LP (CLP's sign: rc = c - A' y).
 */
#ifndef CKM_ASSIGN_RESTRICTED_H
#define CKM_ASSIGN_RESTRICTED_H

#include "model.h"
#include "route.h"

#include <stdbool.h>
#include <stdint.h>

/* Models of at least this many nonzeros (model.h's full count) take the restricted route. */
#define CKM_RESTRICTED_FROM_NNZ 2.5e5

#define CG_Q 3   /* first columns per group, besides the start label */
#define CG_ADD 2 /* columns activated per group and pricing pass */
#define CG_PLACE_PAIRS 4 /* groups with more cannot-links keep their row (route_restricted.c) */

struct ckm_transport_cache;
struct ckm_prices;

/* its statistics in ckm_assign_result.stat */
enum {
    CKM_RESTRICTED_COLUMNS = 0, /* columns of the restricted model at the end of the step */
    CKM_RESTRICTED_PLACED,      /* groups the LP left placed by the size prices (no row of their own) */
    CKM_RESTRICTED_LIFTED,      /* groups placed at first that pricing took back into the LP */
    CKM_RESTRICTED_PRICING,     /* pricing passes over the s x k costs */
    CKM_RESTRICTED_REPLACED     /* 1: placing by the transportation labels left the LP infeasible;
                                   the step placed by its start labels instead */
};

struct ckm_cg {
    size_t words;       /* 64-bit words per group in on */
    uint64_t *on;       /* s * words: active columns */
    double *v_prev;     /* k: size duals of the last step (first columns) */
    double *p_prev;     /* k: capacity duals of the last step, or the first prices (capacities) */
    /* the current model (model.h) and its LP's buffers (grow-only) */
    ckm_model m;
    size_t cols, rows, ycols, S, cap0, cap_cols, cap_rows;
    size_t *gcol;       /* s + 1: group t's columns are gcol[t] .. gcol[t+1] */
    int32_t *cj;        /* cols: cluster of a y column */
    int32_t *held;      /* s: ckm_cg_placed at the last build */
    double *x, *dual;
    unsigned char *basis;
    unsigned char *bas; /* cols + rows: the optimal basis of the last LP */
    /* the previous model of this step (warm start): its clusters, groups, rows, basis */
    int warm;           /* 1: prev_* hold an optimal phase 2 model with the same rows order */
    size_t pcols, prows, pcap0, cap_pcols, cap_prows;
    int32_t *pcj;
    double *prc;        /* pcols: the reduced costs of the kept model's columns */
    size_t *pgcol, *prkey;
    unsigned char *pbas;
    /* groups placed by the size prices (the decomposition): no row of their own in the LP,
       their weight off the size rows, the dual u_t = cost_tf - w_t v_f implied */
    int agg_on;         /* 1 while a step's LP rounds place groups */
    int32_t *agg;       /* s: cluster f where the prices placed group t, -1: never placed */
    unsigned char *lifted; /* s: 1 once pricing took a placed group back into the LP */
    double *agg_w;      /* k: the placed groups' weight per cluster */
    double *agg_q;      /* k: and their demand (capacities) */
    size_t npl;         /* groups placed and not lifted */
    size_t lifts;       /* groups the last pricing pass lifted */
    double *u, *v, *p;  /* s, k, k: the last LP's duals extended to every group (p: capacity
                           rows, 0 without) */
    struct ckm_prices *prices; /* capacities with the s x k costs: the Lagrangian prices the
                           steps start from (prices.h), made by the first such step */
    int32_t *guess, *best; /* s: the MILP's incumbent (capacities), made when first needed */
    size_t *prow_of, pS; /* the kept model's row_of and S */
    size_t *inc_start, *inc; /* cannot-links incident to each group (incidence.h) */
    size_t *sinc_start, *sinc; /* soft pairs incident to each group */
    double *adj;        /* k scratch: a group's soft must-link duals (ckm_cg_soft_adjust) */
    size_t pycols;      /* the kept model's y columns (its slacks follow them) */
    size_t *pslack, cap_pslack; /* the kept model's soft pairs with a slack column */
    double *rc_best;    /* s * CG_ADD scratch of the pricing pass (first_columns: each
                           group's two cheapest keys, read by place_by_prices) */
    int32_t *j_best;
    /* the step's costs (restricted_costs.c): the caller's s x k matrix, or implicit from the
       groups' shifted means and the step's centers */
    const double *cost; /* s * k, or NULL: implicit */
    int implicit;       /* 1: the implicit costs' workspace below exists (ckm_cg_costs_new) */
    double *ms, *msn, *org; /* s * d means minus org (d), their squared norms (s) */
    double *cs, *csn;   /* k * d centers minus org, their squared norms (k) */
    double *blk;        /* blk_rows * k: the costs of rows b0 .. b1 - 1 */
    size_t blk_rows, b0, b1; /* blk_rows: ckm_cg_block_rows(k) unless a test set fewer */
    double round;       /* 2.5e-16 (d + 2): the rounding factor of ckm_cg_rounding */
    int threads;        /* implicit: first_prices' transportation problem from points, */
    struct ckm_transport_cache *tcache; /* and its cache across the steps (transport_points.h) */
    double model_high;  /* bytes: the largest model built (ckm_cg_build), at first the one
                           the memory model counts (ckm_cg_bytes) */
    double avail;       /* < 0: ckm_memory_available(); tests set the memory available */
};

/* Bit j of a group's row of 64-bit words; the active set's bit (t, j). */
static inline bool ckm_bit(const uint64_t *row, size_t j)
{
    return (row[j / 64] >> (j % 64)) & 1u;
}

static inline void ckm_bit_set(uint64_t *row, size_t j)
{
    row[j / 64] |= (uint64_t)1 << (j % 64);
}

static inline bool ckm_cg_on(const struct ckm_cg *cg, size_t t, size_t j)
{
    return ckm_bit(cg->on + t * cg->words, j);
}

static inline void ckm_cg_set_on(struct ckm_cg *cg, size_t t, size_t j)
{
    ckm_bit_set(cg->on + t * cg->words, j);
}

/* Cluster where group t sits outside the model (placed by the prices during the LP rounds),
 * or -1 when it has a row of its own. */
static inline int32_t ckm_cg_placed(const struct ckm_cg *cg, size_t t)
{
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

/* Reduced cost of column (t, j) of cost c (0 in phase 1) under the extended duals (cg->u,
 * cg->v, cg->p), with no cannot-link term. */
static inline double ckm_cg_reduced(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j)
{
    double q = r->has_caps ? r->demand[t] * cg->p[j] : 0.0;
    return c - cg->u[t] - (double)r->weight[t] * cg->v[j] - q;
}

/* A group's key under prices v (sizes) and p (capacities): cost - w_t v_j - Q_t p_j. */
static inline double ckm_cg_key(const ckm_reduced *r, double c, size_t t, size_t j, const double *v, const double *p)
{
    return c - (double)r->weight[t] * v[j] - (r->has_caps ? r->demand[t] * p[j] : 0.0);
}

/* How far a row's cost (a block's, restricted_costs.c) and the single entry's may differ (0
 * with the matrix). */
static inline double ckm_cg_rounding(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j)
{
    return cg->cost ? 0.0 : cg->round * r->mass[t] * (cg->msn[t] + cg->csn[j]);
}

/* The tolerance below which the reduced cost of (t, j), of cost c (0 in phase 1), counts as
 * negative: 1e-9 (1 + |c| + |u_t|), the scale of CLP's own optimality test (1e-7 on scaled
 * reduced costs) and well below it, plus the costs' rounding. */
static inline double ckm_cg_tol(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j)
{
    return 1e-9 * (1.0 + (cg->u[t] < 0.0 ? -cg->u[t] : cg->u[t]) + (c < 0.0 ? -c : c)) + ckm_cg_rounding(cg, r, t, j);
}

#endif
