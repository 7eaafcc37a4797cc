/*
 * assign.h -- the exact assignment step of BLPKM_CC-style algorithms (internal).
 * Given costs cost[t*k + j] of putting super-point t in cluster j, solve
 *   min sum_tj cost_tj y_tj
 *   s.t. sum_j y_tj = 1                      (every super-point in one cluster)
 *        lo_j <= sum_t w_t y_tj <= hi_j       (size bounds, in points)
 *        y_aj + y_bj <= 1   for every lifted cannot-link (a, b) and cluster j
 *        y_tj in {0, 1}
 * plus, for every soft pair e = (a, b) of confidence |w_e| (reduced.h), a slack z_e in
 * [0, 1] with cost P |w_e| (P = r->soft_P) and for every cluster j (PCCC's model)
 *        y_aj + y_bj - z_e <= 1                  soft cannot-link
 *        y_aj - y_bj - z_e <= 0, y_bj - y_aj - z_e <= 0   soft must-link
 * For 0/1 y the least feasible z_e is 1 exactly when e is violated, so the MILP optimum
 * is the least SSE-part + P sum |w_e| [violated] over all labellings: exact.
 * Strategy (measured, see docs/formulations.md): LP relaxation with CLP; if its optimal
 * vertex is integral it is the MILP optimum; otherwise CBC (default settings) warm-started
 * from a feasible labelling when one is given. The model's rows do not depend on the
 * costs, so an infeasible model means the clustering problem itself is infeasible.
 * Two models give that optimum: the full one (assign.c: every (group, cluster) column and
 * every cannot-link row, built once), and, past CKM_CG_FROM_NNZ nonzeros without soft pairs,
 * the restricted one (assign_cg.c: column generation over the s x k costs, the MILP by
 * reduced-cost fixing), proven equal to the full one's optimum (ckm_assign_result.restricted).
 */
#ifndef CKM_ASSIGN_H
#define CKM_ASSIGN_H

#include "backend.h"
#include "reduced.h"

typedef struct ckm_price ckm_price; /* assign_price.c */

struct ckm_cg;

typedef struct ckm_assign {
    const ckm_reduced *r;
    struct ckm_cg *cg;    /* non-NULL: the restricted model (assign_cg.c); the arrays below
                             are then unused */
    ckm_price *price;     /* non-NULL: the price route of capacity steps (assign_price.c);
                             the arrays below are then unused */
    ckm_lp lp;
    int *col_start, *row_index;
    double *value, *obj, *col_lo, *col_hi, *row_lo, *row_hi;
    double *x, *start;
    double *dual;         /* rows: the LP's row duals (capacity steps' reduced-cost fixing) */
    unsigned char *basis; /* cols + rows: the argmin basis each solve starts from */
} ckm_assign;

typedef struct ckm_assign_result {
    ckm_bk_status status; /* OPTIMAL, INFEASIBLE, LIMIT_FEASIBLE, LIMIT_NONE, FAILED */
    double objective;     /* sum of costs of the returned labels */
    int used_mip;         /* 1 when the LP was fractional and CBC ran */
    int stopped;          /* 1 when the stop request ended CBC early */
    int cut;              /* 1 when the step's own time budget (not the run's limit or a stop)
                             ended CBC: labels are its best, optimality not proven */
    int lp_solves;        /* LP relaxations solved (CLP) */
    long mip_nodes;       /* CBC branch-and-bound nodes */
    double seconds;
    int restricted;       /* 1: solved on a restricted set of columns (assign_cg.c) and proven
                             optimal for the full model by pricing every omitted column */
    int pricing;          /* pricing passes over the s x k costs */
    size_t columns;       /* columns of the restricted model at the end (0: the full model) */
    size_t placed;        /* groups the restricted model's LP left placed by the size prices
                             (no row of their own; assign_cg.c's decomposition) */
    size_t lifted;        /* groups placed at first that pricing took back into the LP */
    int replaced;         /* 1: placing by the transportation labels left the restricted LP
                             infeasible; the step placed by its start labels instead */
    int has_bound;        /* capacity steps: bound is a lower bound on the step's optimum */
    double bound;         /* the LP's value (full model) or the prices' g (price route) */
    int price_route;      /* 1: solved on the price route (assign_price.c) */
    size_t price_sweeps;  /* price route: sweeps of the coordinate ascent */
    size_t local_moves;   /* capacity steps: moves and swaps of cap_local.c before CBC */
} ckm_assign_result;

/* Nonzeros of r's assignment model: 2 s k + 2 k m + 3 k per soft cannot-link + 6 k per soft
 * must-link. */
double ckm_assign_nnz(const ckm_reduced *r);
/* Estimated peak bytes of solving r's model (memory model, docs/memory.md): ckm's arrays
 * plus CLP's copies, 190 per nonzero and 175 per column (s k, plus one per soft pair), fitted
 * to the peak RSS of blpkm's LP steps (20,000 and 40,000 points, k = 50, 10^5 and 3 x 10^5
 * cannot-links: 2.2, 6.0 and 2.8 GB; this estimate is 4-11 % above them; the former 64 and
 * 160 were 2.2-2.7x below, so a 10^6-cannot-link model passed the check and was killed by the
 * system at 24 GB, issue 37). CBC, when a step's LP is fractional, may need more. */
double ckm_assign_bytes(const ckm_reduced *r);
/* The same for the full model whatever its size (a caller that forces it). */
double ckm_assign_bytes_full(const ckm_reduced *r);
/* Past this many nonzeros (about 2 GB with CLP's and CBC's copies, memory.c) a model with soft
 * pairs is not built: blpkm then takes its steps by local search alone (ckm_assign_local). */
#define CKM_SOFT_MODEL_MAX_NNZ 3.0e7
/* blpkm's steps on r are local search, not the MILP: soft pairs, a model over
 * CKM_SOFT_MODEL_MAX_NNZ, and no hard rows a trivial start could break (no cannot-links,
 * default sizes; with them the model is built, or refused as too large). */
bool ckm_assign_local(const ckm_reduced *r);

/* Which model a step solves: the full one (every (group, cluster) column, every
 * cannot-link row), or the restricted one of assign_cg.c (column generation, proven
 * optimal for the full one). AUTO: restricted when there are no soft pairs, k >= 4 and the
 * full model has at least CKM_CG_FROM_NNZ nonzeros. */
typedef enum { CKM_MODEL_AUTO = 0, CKM_MODEL_FULL, CKM_MODEL_RESTRICTED, CKM_MODEL_PRICE } ckm_model_kind;
#define CKM_CG_FROM_NNZ 2.5e5
bool ckm_assign_restricted(const ckm_reduced *r);
/* Capacity steps (no soft pairs) whose full model has at least CKM_PRICE_FROM_NNZ nonzeros
 * take the price route (assign_price.c): Lagrangian prices, then assign_fix.c's rounds on the
 * columns the prices' reduced costs leave. PRICE forces it on any capacity problem. */
#define CKM_PRICE_FROM_NNZ 2.5e5
bool ckm_assign_priced(const ckm_reduced *r);
ckm_price *ckm_price_new(const ckm_reduced *r); /* NULL when out of memory */
void ckm_price_free(ckm_price *P);
/* Bytes of the price route's arrays (the memory model). */
double ckm_price_bytes(const ckm_reduced *r);
/* One step on the price route: res->bound = g, labels and status as ckm_assign_solve's. */
ckm_error ckm_price_solve(ckm_price *P, const ckm_reduced *r, const double *cost, const int32_t *start,
                          const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err);

/* Costs from centers (squared distances): past sizeflow's matrix limit (s k >
 * CKM_TRANSPORT_MATRIX_MAX, 2^28) a caller on the restricted model passes the step's centers
 * instead of an s x k cost matrix (ckm_assign_solve_centers), which is then never stored
 * (assign_cg_costs.c). ckm_assign_bytes_centers: the memory model of that route. */
bool ckm_assign_by_centers(const ckm_reduced *r);
double ckm_assign_bytes_centers(const ckm_reduced *r);

/* Build the constraint matrix once per reduced problem (the full model), or the restricted
 * model's workspace. Errors: too large for int indices (s*k or nonzeros > INT_MAX), out of
 * memory. */
ckm_error ckm_assign_init(ckm_assign *a, const ckm_reduced *r, ckm_err *err);
ckm_error ckm_assign_init_kind(ckm_assign *a, const ckm_reduced *r, ckm_model_kind kind, ckm_err *err);
void ckm_assign_free(ckm_assign *a);

/* Solve with the given costs (s*k). start: a feasible labelling of the super-points used
 * as CBC's MIP start, or NULL. labels (s) written for OPTIMAL and LIMIT_FEASIBLE.
 * lim: deadline and stop request (NULL = none). */
ckm_error ckm_assign_solve(ckm_assign *a, const double *cost, const int32_t *start,
                           const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res,
                           ckm_err *err);

/* assign_fix.c: the full model's MILP for steps with capacity rows (r->has_caps, no soft
 * pairs), by reduced-cost fixing from the fractional LP optimum z_lp and its row duals dual:
 * labels (s) and res->status (OPTIMAL: proven for the full model; INFEASIBLE; a limit), the
 * nodes counted into res. start: a feasible labelling (CBC's start and the first cap), or NULL:
 * then one is sought by rounding the LP point x_lp and repairing it by moves. */
ckm_error ckm_assign_fix_mip(const ckm_assign *a, const double *cost, const double *x_lp, const double *dual,
                             double z_lp, const int32_t *start, const ckm_bk_limits *lim, int32_t *labels,
                             ckm_assign_result *res, ckm_err *err);
/* The same rounds from any valid bound z and reduced costs rc (s k) for which
 * cost(l) >= z + sum_t rc[t, l(t)] holds for every labelling keeping the rows (the price
 * route's): guess (s labels, or NULL) is repaired in place and, like start and (lp_first)
 * the LP on the columns of small rc rounded, may become the incumbent. */
ckm_error ckm_assign_fix_core(const ckm_reduced *r, const double *cost, const double *rc, double z,
                              int32_t *guess, bool lp_first, const int32_t *start, const ckm_bk_limits *lim,
                              int32_t *labels, ckm_assign_result *res, ckm_err *err);
/* cap_local.c: improve the feasible labelling lab of a capacity step by moves and swaps that
 * keep every row and lower the total; inc_start/inc: the cannot-link incidence
 * (ckm_incidence). *moves counts the changes. false on allocation failure (lab unchanged). */
bool ckm_cap_local_search(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                          const ckm_bk_limits *lim, int32_t *lab, size_t *moves);
/* cap_local.c: repair lab's broken size and capacity rows by cheapest moves, cluster by
 * cluster; true when lab then keeps every row (cannot-links included). */
bool ckm_cap_repair(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc, int32_t *lab);

/* Incidence lists over s groups of m pairs ab (2 m entries): the pair ids incident to t are
 * inc[start[t] .. start[t+1]) (CSR). false on allocation failure (the caller frees both
 * outputs either way). */
bool ckm_incidence(size_t s, size_t m, const size_t *ab, size_t **start, size_t **inc);
/* The other end of pair e of ab when one end is t. */
static inline size_t ckm_pair_other(const size_t *ab, size_t e, size_t t)
{
    return ab[2 * e] == t ? ab[2 * e + 1] : ab[2 * e];
}
/* The dual simplex's start for costs obj (assign.c's argmin_basis explains it): in each
 * group's columns -- gcol[t] .. gcol[t+1], or t k .. t k + k with gcol NULL -- the first
 * cheapest one basic, every other of the cols columns at 0; the first group_rows rows (the
 * groups' equalities) nonbasic, the other rows' slacks basic. st: cols + rows codes. */
void ckm_argmin_basis(const double *obj, const size_t *gcol, size_t s, size_t k, size_t group_rows, size_t cols,
                      size_t rows, unsigned char *st);
/* The model's objective of group labels: sum_t cost[t, l_t] plus the soft pairs' penalty. */
double ckm_assign_total(const ckm_reduced *r, const double *cost, const int32_t *labels);

/* soft_local.c: a feasible labelling when the model's only hard rows are one cluster per
 * group and lo_j <= 1 (no cannot-links, default sizes): each group at its cheapest cluster,
 * empty clusters filled by the cheapest moves; false when other hard rows exist, s < k, or
 * on allocation failure. */
bool ckm_soft_trivial_start(const ckm_reduced *r, const double *cost, int32_t *lab);
/* Improve the feasible labelling lab (s groups) of the model with soft pairs by single-group
 * moves that keep every hard row and lower cost + penalty, until none does or the deadline
 * (ckm_now() units; INFINITY = none) passes; *moves counts them. false on
 * allocation failure (lab then unchanged or improved, still feasible). */
bool ckm_soft_local_search(const ckm_reduced *r, const double *cost, double deadline, int32_t *lab, size_t *moves);

/* ckm_assign_solve with the costs cost_tj = mass_t ||mean_t - c_j||^2 of the centers C (k*d)
 * computed where needed, never stored as s x k (restricted model only: a->cg; else
 * CKM_ERR_INTERNAL). threads: for the step's transportation problem from the means. */
ckm_error ckm_assign_solve_centers(ckm_assign *a, const double *C, int threads, const int32_t *start,
                                   const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err);

/* The LP relaxation only, with the given costs: x (s*k) written when *status is
 * CKM_BK_OPTIMAL; a deadline or stop request in lim (NULL = none) ends the simplex at its
 * next iteration with CKM_BK_LIMIT_NONE. Used by algorithms that work with fractional
 * assignments (bckm). */
ckm_error ckm_assign_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x,
                        ckm_bk_status *status, ckm_err *err);

/* assign_cg.c: the restricted model (column generation), behind ckm_assign_solve and
 * ckm_assign_lp when a->cg is set. */
/* implicit: with the workspace of costs from centers (else made by the first such step) */
struct ckm_cg *ckm_cg_new(const ckm_reduced *r, int implicit);
/* Estimated peak bytes of the restricted model's steps (docs/memory.md), with the caller's
 * s x k costs (implicit 0) or from centers (1). */
double ckm_cg_bytes(const ckm_reduced *r, int implicit);
void ckm_cg_free(struct ckm_cg *cg);
ckm_error ckm_cg_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                       int32_t *labels, ckm_assign_result *res, ckm_err *err);
ckm_error ckm_cg_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x, ckm_bk_status *status,
                    ckm_err *err);
ckm_error ckm_cg_solve_centers(ckm_assign *a, const double *C, int threads, const int32_t *start,
                               const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err);
/* The step's costs of labels from the centers last given (ckm_cg_solve_centers). */
double ckm_cg_objective(const ckm_assign *a, const int32_t *labels);

#endif
