/*
 * route_restricted.c -- the restricted route: the assignment step (assign.h) on a restricted
 * set of columns, with a proof that its optimum is the full model's (column generation;
 * issue 37). Taken by the chooser past CKM_RESTRICTED_FROM_NNZ nonzeros, k >= 4, with or
 * without soft pairs; capacities only beside cannot-links or soft pairs (alone they take the
 * price route, route_priced.c).
 *
 * Restricted model. Columns y_tj only for the active (t, j) (a bitset, s x k), rows built by
 * model.c as for the full model (route_full.c), restricted to those columns:
 *   t:         sum_{j active} y_tj = 1                         (dual u_t)
 *   s + j:     lo_j <= sum_{t active} w_t y_tj <= hi_j         (dual v_j)
 *   capacity:  L_j - tau <= sum_{t active} Q_t y_tj <= U_j + tau   (dual p_j)
 *   cannot-link (a, b), cluster j, only where (a, j) AND (b, j) are active:
 *              y_aj + y_bj <= 1                               (dual pi_abj <= 0)
 *   soft cannot-link e = (a, b), where (a, j) and (b, j) are active: y_aj + y_bj - z_e <= 1
 *   soft must-link e, where (a, j) is active: y_aj - y_bj - z_e <= 0   (dual sigma_ej <= 0)
 *     (z_e, cost P |w_e|, a column whenever a row of e is; a group with soft pairs is never
 *     placed, model.h)
 * A full row whose columns are not both active is slack at the restricted optimum (one
 * column at 0, the other <= 1), so the restricted duals extended by 0 are dual feasible for
 * the full LP exactly when every omitted column prices out:
 *   rc_tj = cost_tj - u_t - w_t v_j - Q_t p_j + sum_{e: (t, j) is b of a soft must-link row}
 *           sigma_ej >= 0
 * (no cannot-link term: its rows are absent; an omitted (b, j) would enter a present soft
 * must-link row with -1, ckm_cg_soft_adjust). Pricing is one pass over the s x k costs.
 * Negative columns (at most CG_ADD per group, the most negative) are activated and the LP
 * solved again, until none is left: then the restricted LP optimum IS the full LP optimum
 * (the step reports restricted = 1). The MILP is proven by the one reduced-cost fixing
 * (fix.c) on the final duals; the step limit bounds that proof only (route.h).
 * First columns: each group's CG_Q cheapest by cost_tj - w_t v'_j (v' the size duals of the
 * previous step, 0 at first) and the caller's start label.
 * Infeasible restricted LP: phase 1 on the same columns, min the artificials a_t (row t)
 * and b_j (row s + j, up to lo_j) with zero y costs, priced the same way (rc = -u_t - w_t v_j);
 * phase 1 > 0 with nothing left to price proves the full LP (so the step) infeasible.
 * Size prices first: with size bounds every step takes its first columns by cost - w v
 * with v the prices of the transportation problem of the groups (transport.c, the
 * cannot-links left out; without size bounds, or when that solver cannot, the size duals
 * of the step before): only a choice of columns, nothing is proven from them.
 * With capacities the keys are cost - w v - Q p, the first prices the price route's Lagrangian
 * prices (prices.c, cannot-links relaxed) and their argmin labels the guide; a placed group's
 * demand leaves the capacity rows as its weight leaves the size rows (restricted_place.c).
 * Decomposition (groups placed by the prices): a group whose strictly cheapest cluster f
 * under cost - w v is also its label in the transportation problem's labelling (the guide;
 * without size bounds, the start labelling) gets no row and no column; it sits at f, its
 * weight off the size rows. A group with cannot-links is placed only when it has at most
 * CG_PLACE_PAIRS of them and no partner can take f (f is neither the partner's guide label
 * nor among its columns), so no cannot-link row between a placed column and an active one
 * is left out. (With 40 cannot-links a group, at 60,000 x 20 and 10^6 pairs, placing them
 * made the first step 32.5 s instead of 15.4: lifts on every pass, each LP from scratch.)
 * That is one more restriction of the model, priced like the rest: with the implied dual u_t = cost_tf - w_t v_f
 * (column (t, f) at reduced cost 0, as if basic in a row of its own) the extended duals are
 * dual feasible for the full LP exactly when no (t, j) prices negative; a placed group with
 * a negative column is lifted back into the LP (its row, column f, the new ones), and so
 * is a partner placed at a cluster its group is given. The guide breaks cannot-links, so
 * the first restricted LP can be infeasible; then the step places by the start labelling
 * instead (in the model, so feasible whenever the start is; res.replaced). Measured at
 * 10^6 x 16, k = 100, 10^5 cannot-links, balanced: 94-98 % of the groups placed, LPs
 * holding 15,000-57,000 of the 10^6 groups.
 * Warm rounds: after a pricing pass the dual simplex restarts from the last optimal basis,
 * new columns at 1 where their reduced cost is negative (warm_basis), not from scratch,
 * unless that pass lifted placed groups: then from the argmin basis (measured at the size
 * above, rounds of 0.8-0.9 s from the argmin basis against 2-4 s from the last one).
 * Tolerances: a column counts as negative when rc < -1e-9 (1 + |cost| + |u_t|), the scale
 * of CLP's own optimality test (1e-7 on scaled reduced costs) and well below it, less the
 * rounding of costs computed from the centers (ckm_cg_tol).
 */
#include "cap_local.h"
#include "core.h"
#include "fix.h"
#include "incidence.h"
#include "model.h"
#include "prices.h"
#include "restricted.h"
#include "restricted_costs.h"
#include "restricted_model.h"
#include "restricted_place.h"
#include "transport_types.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The duals of the LP just solved, extended to every group: u_t its group row's dual, or,
 * for a group placed at f (no row), u_t = cost_tf - w_t v_f - Q_t p_f (0 for the cost in
 * phase 1): the value that makes column (t, f) price at 0, as if it were basic in its own
 * row. With it the extended duals are those of the model where the placed groups have rows
 * holding one column each (their objective is the same: the placed cost sum_t cost_tf plus
 * the LP's, the weight and demand shifted off the size and capacity rows returning as
 * w_t v_f + Q_t p_f), so pricing them is pricing that model's omitted columns. */
static void extend_duals(struct ckm_cg *cg, const ckm_reduced *r, int phase1)
{
    size_t k = r->k;
    memcpy(cg->v, cg->dual + cg->m.S, k * sizeof(double));
    if (r->has_caps)
        memcpy(cg->p, cg->dual + cg->m.cap0, k * sizeof(double));
    for (size_t t = 0; t < r->s; t++) {
        int32_t f = ckm_cg_placed(cg, t);
        cg->u[t] = f < 0 ? cg->dual[cg->m.row_of[t]]
                         : ckm_cg_key(r, phase1 ? 0.0 : ckm_cg_cost(cg, r, t, (size_t)f), t, (size_t)f, cg->v, cg->p);
    }
}

/* Take placed group t back into the LP: its row returns with column f in it (and whatever
 * pricing adds), its weight and demand onto that column; counted in cg->lifts (the next round
 * then starts from the argmin basis). */
static void lift(struct ckm_cg *cg, const ckm_reduced *r, size_t t)
{
    int32_t f = cg->agg[t];
    cg->lifted[t] = 1;
    cg->agg_w[f] -= (double)r->weight[t];
    cg->agg_q[f] -= r->has_caps ? r->demand[t] : 0.0;
    cg->npl--;
    cg->lifts++;
    ckm_cg_set_on(cg, t, (size_t)f);
}

/* One pricing pass: activate per group the CG_ADD most negative omitted columns (phase 1:
 * the cheapest by cost among the negative ones); a placed group with one lifts (lift();
 * placed false: the placed groups are not priced);
 * returns how many columns, or SIZE_MAX when lim ended the pass (polled every 4096 groups:
 * at 10^6 x 100 a pass takes 0.3-0.5 s; *hit: which limit, ckm_bk_limit_hit). */
static size_t price(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int phase1, bool placed,
                    int *hit)
{
    size_t s = r->s, k = r->k, added = 0;
    cg->lifts = 0;
    for (size_t t = 0; t < s; t++) {
        if (t % 4096 == 4095 && (*hit = ckm_bk_limit_hit(lim)) != 0)
            return SIZE_MAX;
        double *kb = cg->rc_best + t * CG_ADD;
        int32_t *jb = cg->j_best + t * CG_ADD, f = ckm_cg_placed(cg, t);
        if (f >= 0 && !placed)
            continue;
        const double *row = ckm_cg_cost_row(cg, r, t);
        /* a branch-free pass first: when no column, active or not, has c - u_t - w_t v_j - Q_t p_j
           below -1e-9 (1 + |u_t|) (<= every column's tolerance), the group has nothing to price
           (most groups: at 10^6 x 16, k = 300 this pass is a fraction of the full one's time);
           a group with soft must-links has its rows' duals too */
        const double *adj = ckm_cg_soft_adjust(cg, r, t, cg->adj) ? cg->adj : NULL;
        double w = (double)r->weight[t], dq = r->has_caps ? r->demand[t] : 0.0, least = INFINITY;
        for (size_t j = 0; j < k; j++) {
            double key = (phase1 ? 0.0 : row[j]) - w * cg->v[j] - dq * cg->p[j] + (adj ? adj[j] : 0.0);
            least = key < least ? key : least;
        }
        if (least - cg->u[t] >= -1e-9 * (1.0 + fabs(cg->u[t])))
            continue;
        int m = 0;
        for (size_t j = 0; j < k; j++) {
            if (ckm_cg_on(cg, t, j) || (int32_t)j == f)
                continue;
            double c = phase1 ? 0.0 : row[j], rc = ckm_cg_reduced(cg, r, c, t, j) + (adj ? adj[j] : 0.0);
            if (rc >= 0.0 || rc >= -ckm_cg_tol(cg, r, c, t, j))
                continue;
            ckm_cg_keep_least(kb, jb, &m, CG_ADD, phase1 ? row[j] : rc, (int32_t)j); /* smaller is better */
        }
        if (m > 0 && f >= 0)
            lift(cg, r, t);
        for (int q = 0; q < m; q++) {
            ckm_cg_set_on(cg, t, (size_t)jb[q]);
            for (size_t i = cg->inc_start[t]; i < cg->inc_start[t + 1]; i++) { /* a partner placed there */
                size_t b = ckm_pair_other(r->cl, cg->inc[i], t);
                if (ckm_cg_placed(cg, b) == jb[q])
                    lift(cg, r, b);
            }
        }
        added += (size_t)m;
    }
    return added;
}

/* Every placed group back into the LP (the fallback when the placement left the LP
 * infeasible even in phase 1). */
static void lift_all(struct ckm_cg *cg, const ckm_reduced *r)
{
    for (size_t t = 0; t < r->s; t++)
        if (ckm_cg_placed(cg, t) >= 0)
            lift(cg, r, t);
}

/* The restricted LP to the full LP's optimum (phase 2) or to a proof that the full LP is
 * infeasible. *status: OPTIMAL (cg->x, cg->dual, *z set), INFEASIBLE, LIMIT_NONE, FAILED. */
static ckm_error relax(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int quick,
                       ckm_bk_status *status, double *z, ckm_assign_result *res, ckm_err *err)
{
    int phase1 = 0;
    cg->warm = 0;
    for (;;) {
        ckm_error brc = ckm_cg_build(cg, r, phase1, err);
        if (brc != CKM_OK)
            return brc;
        ckm_lp lp = ckm_cg_model(cg);
        ckm_bk_result br;
        ckm_error rc = ckm_bk_lp(&lp, lim, cg->x, cg->dual, &br, err);
        if (rc != CKM_OK)
            return rc;
        res->lp_solves++;
        res->stopped = br.stopped;
        if (br.status == CKM_BK_INFEASIBLE && !phase1) {
            if (quick) { /* the caller has a placement that keeps the LP feasible */
                *status = CKM_BK_INFEASIBLE;
                return CKM_OK;
            }
            phase1 = 1;
            cg->warm = 0;
            continue;
        }
        if (br.status == CKM_BK_INFEASIBLE && cg->npl > 0) {
            lift_all(cg, r);
            continue;
        }
        if (br.status != CKM_BK_OPTIMAL) {
            *status = phase1 && br.status == CKM_BK_INFEASIBLE ? CKM_BK_FAILED : br.status;
            return CKM_OK;
        }
        extend_duals(cg, r, phase1);
        res->stat[CKM_RESTRICTED_PRICING]++;
        if (!phase1 && !ckm_cg_keep(cg, r))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
        /* phase 1 prices the placed groups only when the LP's own have nothing left: its
           reduced costs ignore the costs, so a placed group in any cluster cheaper in v than
           a short one prices negative (at 10^6 x 16, k = 300, 10^4 must-links, balanced, one
           such pass lifted 958,907 of 968,622 placed groups) */
        int hit = 0;
        size_t added = price(cg, r, lim, phase1, !phase1, &hit);
        if (phase1 && added == 0 && br.objective > 1e-7)
            added = price(cg, r, lim, phase1, true, &hit);
        if (added == SIZE_MAX) { /* a limit during the pass: no proof, no labels */
            *status = CKM_BK_LIMIT_NONE;
            res->stopped = hit == 2;
            return CKM_OK;
        }
        if (added > 0)
            continue;
        if (!phase1) {
            *status = CKM_BK_OPTIMAL;
            *z = br.objective + ckm_cg_placed_cost(cg, r); /* the LP's objective lacks the placed groups */
            return CKM_OK;
        }
        if (br.objective > 1e-7) { /* nothing left to price: the full LP is infeasible */
            *status = CKM_BK_INFEASIBLE;
            return CKM_OK;
        }
        phase1 = 0;
    }
}

/* The step's size and capacity duals: the next step's first prices when nothing better is
 * at hand. */
static void keep_size_duals(struct ckm_cg *cg, const ckm_reduced *r)
{
    memcpy(cg->v_prev, cg->v, r->k * sizeof(double));
    memcpy(cg->p_prev, cg->p, r->k * sizeof(double));
}

/* The fixing's view of the step (fix.h): its costs, and reduced costs under the final LP's
 * duals, which stay dual feasible for the full model as every omitted column priced out. */
typedef struct cg_src {
    struct ckm_cg *cg;
    const ckm_reduced *r;
} cg_src;

static void cg_row(void *u, size_t t, const double **cost, double *rc, double *tol)
{
    cg_src *c = u;
    const double *row = ckm_cg_cost_row(c->cg, c->r, t);
    const double *adj = ckm_cg_soft_adjust(c->cg, c->r, t, c->cg->adj) ? c->cg->adj : NULL;
    *cost = row;
    for (size_t j = 0; j < c->r->k; j++) {
        rc[j] = ckm_cg_rc(c->cg, c->r, row[j], t, j, adj);
        tol[j] = ckm_cg_tol(c->cg, c->r, row[j], t, j);
    }
}

static double cg_total(void *u, const int32_t *labels)
{
    cg_src *c = u;
    return ckm_cg_total(c->cg, c->r, labels);
}

/* The fixing's incumbent for a capacity step with the s x k costs: the cheapest of the
 * caller's labels and the LP point rounded around the cannot-links (ckm_cg_round) and
 * repaired (cap_local.h), improved by moves and swaps; without one a step's rounds have no
 * cap, and a limit leaves them without labels (measured at 10^5 x 8, k = 20, 2 x 10^4
 * cannot-links, capacities +-5 %: the first step's CBC ran 97 s). Other steps: the caller's. */
static ckm_error incumbent(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *lim,
                           const int32_t **inc, ckm_assign_result *res, ckm_err *err)
{
    if (!r->has_caps || !cg->cost)
        return CKM_OK;
    if ((!cg->guess && !(cg->guess = ckm_alloc_array(r->s, sizeof(int32_t)))) ||
        (!cg->best && !(cg->best = ckm_alloc_array(r->s, sizeof(int32_t)))))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's incumbent");
    bool rounded = ckm_cg_round(cg, r, cg->guess) && ckm_cap_repair(r, cg->cost, cg->inc_start, cg->inc, cg->guess);
    const int32_t *pool[] = {start, rounded ? cg->guess : NULL};
    bool nomem = false;
    if (ckm_cap_best(r, cg->cost, cg->inc_start, cg->inc, pool, 2, lim, cg->best, &res->local_moves, &nomem))
        *inc = cg->best;
    return nomem ? ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's local search") : CKM_OK;
}

/* The step on the costs set (ckm_cg_use_matrix / ckm_cg_use_centers): the restricted LP to
 * the full LP's optimum z_lp, its labels when the vertex is integral, else the fixing from
 * z_lp and the final duals, which never builds the full model (at 60,000 x 20, k = 100,
 * 10^6 cannot-links the first step's CBC models had 1834-6234 columns of the 5,000,300). */
static ckm_error solve(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *lim,
                       double budget_s, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    int32_t *guide = NULL; /* the transportation labels: the placement's guide */
    ckm_error rc = ckm_cg_first_prices(cg, r, lim, &guide, err);
    if (rc != CKM_OK)
        return rc;
    ckm_cg_first_columns(cg, r, start ? start : guide);
    for (size_t t = 0; start && guide && t < r->s; t++)
        ckm_cg_set_on(cg, t, (size_t)guide[t]);
    ckm_cg_place(cg, r, guide ? guide : start);
    ckm_bk_status st;
    double z_lp = 0.0;
    rc = relax(cg, r, lim, start && guide, &st, &z_lp, res, err);
    if (rc == CKM_OK && st == CKM_BK_INFEASIBLE && start && guide) {
        /* the transportation labels, cannot-links left out, left the restricted LP without
         * a point: place by the start instead, which is in the model (so the LP feasible) */
        res->stat[CKM_RESTRICTED_REPLACED] = 1;
        ckm_cg_first_columns(cg, r, start);
        ckm_cg_place(cg, r, start);
        rc = relax(cg, r, lim, 0, &st, &z_lp, res, err);
    }
    free(guide);
    if (rc != CKM_OK)
        return rc;
    res->status = st;
    if (st == CKM_BK_OPTIMAL) {
        keep_size_duals(cg, r);
        res->has_bound = 1;
        res->bound = z_lp;
        if (!ckm_cg_labels(cg, r->s, labels)) {
            ckm_cg_kept_rc(cg);
            const int32_t *inc = start;
            if ((rc = incumbent(cg, r, start, lim, &inc, res, err)) != CKM_OK)
                return rc;
            cg_src c = {cg, r};
            ckm_fix_src src = {r, &c, cg_row, cg_total};
            ckm_bk_limits proof = ckm_proof_limits(lim, budget_s, inc != NULL);
            if ((rc = ckm_fix_rounds(&src, z_lp, inc, &proof, labels, res, err)) != CKM_OK)
                return rc;
        }
    }
    res->stat[CKM_RESTRICTED_COLUMNS] = ckm_cg_bits(cg->on, r->s * cg->words);
    res->stat[CKM_RESTRICTED_PLACED] = cg->npl;
    for (size_t t = 0; t < r->s; t++)
        res->stat[CKM_RESTRICTED_LIFTED] += cg->lifted[t];
    cg->agg_on = 0;
    return CKM_OK;
}

static ckm_error restricted_solve(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                                  const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    struct ckm_cg *cg = state;
    if (c->cost) {
        ckm_cg_use_matrix(cg, c->cost);
    } else {
        if (!cg->implicit && !ckm_cg_costs_new(cg, r))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's costs from the centers");
        ckm_cg_use_centers(cg, r, c->C);
        cg->threads = c->threads;
    }
    return solve(cg, r, start, lim, c->budget_s, labels, res, err);
}

static double restricted_total(void *state, const ckm_reduced *r, const int32_t *labels)
{
    return ckm_cg_total(state, r, labels);
}

static ckm_error restricted_lp(void *state, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim,
                               double *x, ckm_bk_status *status, ckm_err *err)
{
    struct ckm_cg *cg = state;
    ckm_assign_result res;
    memset(&res, 0, sizeof res);
    ckm_cg_use_matrix(cg, cost);
    int32_t *guide = NULL;
    ckm_error rc = ckm_cg_first_prices(cg, r, lim, &guide, err);
    if (rc != CKM_OK)
        return rc;
    ckm_cg_first_columns(cg, r, guide);
    ckm_cg_place(cg, r, guide);
    free(guide);
    double z;
    rc = relax(cg, r, lim, 0, status, &z, &res, err);
    if (rc == CKM_OK && *status == CKM_BK_OPTIMAL) {
        keep_size_duals(cg, r);
        memset(x, 0, r->s * r->k * sizeof(double));
        for (size_t t = 0; t < r->s; t++) {
            int32_t f = ckm_cg_placed(cg, t);
            if (f >= 0)
                x[t * r->k + (size_t)f] = 1.0;
            for (size_t q = cg->gcol[t]; q < cg->gcol[t + 1]; q++)
                x[t * r->k + (size_t)cg->cj[q]] = cg->x[q];
        }
    }
    cg->agg_on = 0;
    return rc;
}

static ckm_error restricted_init(void **state, const ckm_reduced *r, ckm_err *err)
{
    *state = ckm_cg_new(r, 0);
    return *state ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
}

static void restricted_free(void *state)
{
    ckm_cg_free(state);
}

/* the restricted model's (restricted_model.c), and with capacities and the s x k costs the
   first prices' (prices.h) */
static double restricted_bytes(const ckm_reduced *r, bool by_centers)
{
    return ckm_cg_bytes(r, by_centers ? 1 : 0) + (r->has_caps && !by_centers ? ckm_prices_bytes(r) : 0.0);
}

static void restricted_describe(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len)
{
    snprintf(buf, len, ", %zu of %zu columns, %zu groups placed by prices (%zu lifted), %zu pricing passes, %d LPs%s",
             res->stat[CKM_RESTRICTED_COLUMNS], r->s * r->k, res->stat[CKM_RESTRICTED_PLACED],
             res->stat[CKM_RESTRICTED_LIFTED], res->stat[CKM_RESTRICTED_PRICING], res->lp_solves,
             res->status == CKM_BK_OPTIMAL ? ", proven" : "");
}

static bool restricted_takes(const ckm_reduced *r)
{
    (void)r;
    return true;
}

/* k >= 4 and a full model of at least CKM_RESTRICTED_FROM_NNZ nonzeros; with capacities,
   cannot-links or soft pairs too (capacities alone take the priced route, whose bound needs
   no LP) */
static bool restricted_applies(const ckm_reduced *r, bool lp)
{
    (void)lp;
    return r->k >= 4 && ckm_model_full_nnz(r) >= CKM_RESTRICTED_FROM_NNZ &&
           (!r->has_caps || r->n_cl > 0 || r->n_soft > 0);
}

const ckm_route ckm_route_restricted = {
    .name = "restricted",
    .applies = restricted_applies,
    .takes = restricted_takes,
    .bytes = restricted_bytes,
    .by_centers_from = CKM_TRANSPORT_MATRIX_MAX,
    .init = restricted_init,
    .solve = restricted_solve,
    .lp = restricted_lp,
    .total = restricted_total,
    .free = restricted_free,
    .proves = true,
    .bound_name = "LP",
    .describe = restricted_describe,
    .summary = "solved on restricted columns (column generation), each proven optimal for the full model (pricing, "
               "reduced-cost fixing)",
    .summary_proven = true,
};
