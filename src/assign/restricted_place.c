/*
 * restricted_place.c -- where each step of the restricted route starts (route_restricted.c's
 * header has the method): the first prices (the transportation problem's for size bounds,
 * the Lagrangian ones of prices.h with capacities),
 * the first columns of each group, and the groups placed by the prices (the decomposition:
 * no row of their own in the LP), with the clusters over their maximum giving back their
 * placed groups of least margin.
 */
#include "core.h"
#include "incidence.h"
#include "prices.h"
#include "restricted_costs.h"
#include "restricted_place.h"
#include "transport.h"
#include "transport_points.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keep the cap least keys (ascending, *m of them so far) and their clusters. */
void ckm_cg_keep_least(double *key, int32_t *jj, int *m, int cap, double v, int32_t j)
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

/* A placed group of a cluster over its maximum, and its margin (the second cheapest key less
 * the cheapest): the groups of least margin go back first. */
typedef struct over_group {
    int32_t j;
    double margin;
    size_t t;
} over_group;

static int by_cluster_margin(const void *a, const void *b)
{
    const over_group *x = a, *y = b;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    if (x->margin != y->margin)
        return x->margin < y->margin ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* The most weight a cluster keeps placed: its maximum, or, when some group has several
 * points, its maximum less 2 (n - s) / k points and the heaviest group (at least 0). The
 * transportation problem counts groups against bounds scaled to s, so with must-link groups
 * its labels overfill some clusters in points and underfill others; the room left below the
 * maximum is the LP's to refill them. Measured at 10^6 x 16, k = 300, 10^4 must-links,
 * balanced (sizeflow): with the maximum as the cap no first step after 5 minutes, with this
 * one 147 s; at 20,000 x 8, k = 12, 35 must-links, sizes 1500-1800, the minimum instead of
 * the maximum as the base gave back groups of every cluster and doubled the steps. */
static double placed_cap(const ckm_reduced *r, size_t j, double wmax)
{
    if (r->s == r->n)
        return (double)r->hi[j];
    double cap = (double)r->hi[j] - ceil(2.0 * (double)(r->n - r->s) / (double)r->k) - wmax;
    return cap > 0.0 ? cap : 0.0;
}

/* The most demand a cluster keeps placed (capacities): its maximum less the largest group
 * demand qmax, so that the LP's groups find room (at least 0). */
static double placed_load_cap(const ckm_reduced *r, size_t j, double qmax)
{
    double cap = r->cap_hi[j] - qmax;
    return cap > 0.0 ? cap : 0.0;
}

/* Cluster j's placed groups exceed what it may keep placed (weight, or demand). */
static bool over_cap(const struct ckm_cg *cg, const ckm_reduced *r, const double *cap, size_t j)
{
    return cg->agg_w[j] > cap[j] || (r->has_caps && cg->agg_q[j] > cap[r->k + j]);
}

/* Take group t's placement back. */
static void unplace(struct ckm_cg *cg, const ckm_reduced *r, size_t t)
{
    int32_t f = cg->agg[t];
    cg->agg[t] = -1;
    cg->agg_w[f] -= (double)r->weight[t];
    cg->agg_q[f] -= r->has_caps ? r->demand[t] : 0.0;
}

/* Clusters whose placed weight exceeds placed_cap, or whose placed demand exceeds
 * placed_load_cap, give back their placed groups of least margin until the rest fits; with no
 * memory for that list, their placed groups in index order until the rest fits, and with no
 * memory for the caps, every placed group. */
static void unplace_over(struct ckm_cg *cg, const ckm_reduced *r)
{
    size_t s = r->s, k = r->k, over = 0;
    double wmax = 0.0, qmax = 0.0;
    for (size_t t = 0; t < s; t++) {
        wmax = fmax(wmax, (double)r->weight[t]);
        qmax = fmax(qmax, r->has_caps ? r->demand[t] : 0.0);
    }
    double *cap = ckm_alloc_array(2 * k, sizeof(double));
    for (size_t j = 0; cap && j < k; j++) {
        cap[j] = placed_cap(r, j, wmax);
        cap[k + j] = r->has_caps ? placed_load_cap(r, j, qmax) : INFINITY;
    }
    for (size_t t = 0; cap && t < s; t++)
        over += cg->agg[t] >= 0 && over_cap(cg, r, cap, (size_t)cg->agg[t]);
    over_group *g = over ? ckm_alloc_array(over, sizeof(over_group)) : NULL;
    if (!cap || (over && !g)) { /* no memory for the list: in index order until each fits (no caps: all) */
        for (size_t t = 0; t < s; t++)
            if (cg->agg[t] >= 0 && (!cap || over_cap(cg, r, cap, (size_t)cg->agg[t])))
                unplace(cg, r, t);
        free(cap);
        return;
    }
    size_t m = 0;
    for (size_t t = 0; t < s && over; t++) {
        int32_t f = cg->agg[t];
        if (f >= 0 && over_cap(cg, r, cap, (size_t)f))
            g[m++] = (over_group){f, cg->rc_best[t * CG_ADD + 1] - cg->rc_best[t * CG_ADD], t};
    }
    if (g) {
        qsort(g, m, sizeof *g, by_cluster_margin);
        for (size_t q = 0; q < m; q++)
            if (over_cap(cg, r, cap, (size_t)g[q].j))
                unplace(cg, r, g[q].t);
    }
    free(g);
    free(cap);
}

/* The decomposition (header): group t is placed at f, its strictly cheapest cluster under
 * cost_tj - w_t v_j - Q_t p_j (the two cheapest as first_columns() left them in rc_best /
 * j_best), when f is its guide label, it has at most CG_PLACE_PAIRS cannot-links and no
 * partner may take f (neither the partner's guide label nor among its columns): no row, no
 * columns, its weight and demand off the size and capacity rows (agg_w, agg_q). A cluster
 * whose placed weight exceeds its cap (its maximum; with must-link groups some room below it,
 * placed_cap) or whose placed demand exceeds its maximum less the largest group demand gives
 * back its groups of least margin until the rest fits (unplace_over; measured at
 * 10^6 x 16, k = 300, 10^4 must-links, balanced, giving back every group of a cluster over
 * its maximum left most groups in one LP that CLP had not solved after 7 minutes). */
void ckm_cg_place(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *guide)
{
    size_t s = r->s, k = r->k, W = cg->words;
    cg->agg_on = 1;
    cg->npl = cg->lifts = 0;
    memset(cg->agg_w, 0, k * sizeof(double));
    memset(cg->agg_q, 0, k * sizeof(double));
    memset(cg->lifted, 0, s);
    for (size_t t = 0; t < s; t++) {
        const double *key = cg->rc_best + t * CG_ADD;
        int32_t f = cg->j_best[t * CG_ADD];
        cg->agg[t] = -1;
        if (key[1] - key[0] <= 1e-9 * (1.0 + fabs(key[0])) || (guide && guide[t] != f) ||
            cg->sinc_start[t] < cg->sinc_start[t + 1])
            continue; /* a tie (or one cluster), a move off the guide, or soft pairs (model.h's
                         invariant): the group keeps its row */
        bool apart = cg->inc_start[t + 1] - cg->inc_start[t] <= CG_PLACE_PAIRS;
        for (size_t i = cg->inc_start[t]; i < cg->inc_start[t + 1] && apart; i++) {
            size_t b = ckm_pair_other(r->cl, cg->inc[i], t);
            apart = !(guide && guide[b] == f) && !ckm_cg_on(cg, b, (size_t)f);
        }
        if (!apart)
            continue;
        cg->agg[t] = f;
        cg->agg_w[f] += (double)r->weight[t];
        cg->agg_q[f] += r->has_caps ? r->demand[t] : 0.0;
    }
    unplace_over(cg, r);
    for (size_t t = 0; t < s; t++) {
        if (cg->agg[t] < 0)
            continue;
        memset(cg->on + t * W, 0, W * sizeof(uint64_t));
        cg->npl++;
    }
}

/* sum_t cost_tf over the groups placed (no columns, so not in the LP's objective). */
double ckm_cg_placed_cost(const struct ckm_cg *cg, const ckm_reduced *r)
{
    double f = 0.0;
    for (size_t t = 0; t < r->s; t++) {
        int32_t j = ckm_cg_placed(cg, t);
        if (j >= 0)
            f += ckm_cg_cost(cg, r, t, (size_t)j);
    }
    return f;
}

/* Size prices for a step without capacities (the centers moved since the last step's
 * duals): the transportation problem of the groups as single units at cost cost_tj / w_t per
 * point and bounds scaled to s groups, floor(lo_j s / n) and ceil(hi_j s / n) (feasible: their sums
 * bracket s), solved exactly (transport.c) but with the cannot-links left out, so its
 * prices and labels (*guide, to free) only choose first columns and placements; nothing is
 * proven from them. With implicit costs the same problem from the groups' shifted means
 * (transport_points.c, no s x k matrix past its limit) at ||m_t - c_j||^2, which is
 * cost_tj / w_t without sample weights (with them mass_t / w_t scales each row: still only a
 * choice). Without size bounds, or when the solver cannot, v_prev (the last step's duals)
 * is left as it is and *guide NULL. */
static ckm_error size_prices(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int32_t **guide,
                             ckm_err *err)
{
    size_t s = r->s, k = r->k;
    double *unit = cg->cost ? ckm_alloc_array(s * k, sizeof(double)) : NULL, *price = ckm_calloc_array(k, sizeof(double));
    size_t *lo = ckm_alloc_array(2 * k, sizeof(size_t));
    int32_t *lab = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if ((cg->cost && !unit) || !price || !lo || !lab) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the first prices of the assignment step");
        goto done;
    }
    size_t *hi = lo + k;
    for (size_t j = 0; j < k; j++) {
        lo[j] = (size_t)floor((double)r->lo[j] * (double)s / (double)r->n);
        hi[j] = (size_t)ceil((double)r->hi[j] * (double)s / (double)r->n);
    }
    int infeasible = 0;
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    if (cg->cost) {
        for (size_t t = 0; t < s; t++)
            for (size_t j = 0; j < k; j++)
                unit[t * k + j] = cg->cost[t * k + j] / (double)r->weight[t];
        rc = ckm_transport_solve_lim(s, k, unit, lo, hi, lim, NULL, price, lab, &infeasible, &ts, err);
    } else {
        ckm_transport_points_problem pp = {cg->ms, s, r->d, cg->cs, k, lo, hi};
        ckm_transport_points_opts o = ckm_transport_points_defaults();
        o.threads = cg->threads;
        o.lim = lim;
        o.cache = cg->tcache;
        rc = ckm_transport_points(&pp, &o, price, lab, &infeasible, &ts, err);
    }
    if (rc == CKM_OK && !infeasible && !ts.stopped) {
        for (size_t j = 0; j < k; j++) /* transport.c's prices p_j: c_ij - u_i - p_j >= 0 */
            cg->v_prev[j] = price[j];
        *guide = lab; /* its labels: the placement's guide (place_by_prices) */
        lab = NULL;
    }
done:
    free(unit);
    free(price);
    free(lo);
    free(lab);
    return rc;
}

/* Capacity prices for a step (with the s x k costs): the Lagrangian prices of the size and
 * capacity rows (prices.h, warm from the step before; cannot-links relaxed), their argmin
 * labels the guide. Only a choice of columns and placements, as above: nothing is proven
 * from them. */
static ckm_error capacity_prices(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int32_t **guide,
                                 ckm_err *err)
{
    if (!cg->prices && !(cg->prices = ckm_prices_new(r)))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the first prices of the assignment step");
    int32_t *lab = ckm_alloc_array(r->s, sizeof(int32_t));
    if (!lab)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the first prices of the assignment step");
    size_t sweeps;
    ckm_prices_ascend(cg->prices, r, cg->cost, lim, &sweeps);
    for (size_t j = 0; j < r->k; j++) {
        cg->v_prev[j] = ckm_prices_size(cg->prices, r, j);
        cg->p_prev[j] = ckm_prices_cap(cg->prices, r, j);
    }
    memcpy(lab, cg->prices->arg, r->s * sizeof(int32_t));
    *guide = lab;
    return CKM_OK;
}

ckm_error ckm_cg_first_prices(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int32_t **guide,
                              ckm_err *err)
{
    if (r->has_caps)
        return cg->cost ? capacity_prices(cg, r, lim, guide, err) : CKM_OK;
    return r->has_sizes ? size_prices(cg, r, lim, guide, err) : CKM_OK;
}

/* First columns: the start label and the CG_Q cheapest by cost - w v_prev - Q p_prev; the two
 * cheapest keys and the cheapest cluster also go to rc_best / j_best for place_by_prices()
 * (with k = 1 the second key repeats the first: a tie). */
void ckm_cg_first_columns(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start)
{
    size_t s = r->s, k = r->k, q = k < CG_Q ? k : CG_Q;
    _Static_assert(CG_Q >= 2 && CG_ADD == 2, "place_by_prices reads the two cheapest from rc_best / j_best");
    memset(cg->on, 0, s * cg->words * sizeof(uint64_t));
    for (size_t t = 0; t < s; t++) {
        double key[CG_Q];
        int32_t jj[CG_Q];
        int m = 0;
        const double *row = ckm_cg_cost_row(cg, r, t);
        for (size_t j = 0; j < k; j++)
            ckm_cg_keep_least(key, jj, &m, (int)q, ckm_cg_key(r, row[j], t, j, cg->v_prev, cg->p_prev), (int32_t)j);
        for (int p = 0; p < m; p++)
            ckm_cg_set_on(cg, t, (size_t)jj[p]);
        if (start)
            ckm_cg_set_on(cg, t, (size_t)start[t]);
        cg->rc_best[t * CG_ADD] = m > 0 ? key[0] : 0.0; /* m >= 1: k >= 1 */
        cg->j_best[t * CG_ADD] = m > 0 ? jj[0] : 0;
        cg->rc_best[t * CG_ADD + 1] = m > 1 ? key[1] : cg->rc_best[t * CG_ADD]; /* k = 1: a tie, never placed */
    }
}

