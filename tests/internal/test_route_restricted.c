/*
 * test_route_restricted.c -- the restricted assignment step (src/assign/route_restricted.c, column
 * generation) against independent truth:
 *   - tiny problems (5-7 groups, 5-6 clusters): enumeration of every labelling, with
 *     random weights, cannot-links and size bounds, and costs built so that each group's
 *     first columns (its 3 cheapest) often cannot hold an optimum: clusters 0-2 cheap for
 *     every group while every cluster needs points; counted, and required to occur;
 *   - medium problems (300 groups, 12 clusters, squared distances to random centers,
 *     size bounds, 600 cannot-links, or 30 so that most groups are placed by the size
 *     prices): the full model of route_full.c, which has every column and every cannot-link
 *     row, for the MILP optimum and for the LP relaxation's value; the same step from the
 *     centers (ckm_assign_solve_centers, no s x k matrix), once with the data at 1e6 from
 *     the origin, for the MILP optimum.
 * Groups placed by the prices (route_restricted.c's decomposition) and placed groups that pricing
 * lifts back into the LP are counted, and required to occur, in both sets.
 *   - a cannot-link triangle the transportation labels break, by hand (optimum 1005);
 *   - capacity rows (demands 0..3, a third of them 0) and soft pairs, alone and together,
 *     with and without cannot-links and sizes: tiny steps against enumeration (the full route
 *     too), medium ones (120 groups, 6 clusters) against the full route, from the matrix and
 *     from the centers; by hand, a column
 *     only a soft must-link's dual prices in (optimum 1).
 * Every restricted optimum must say it was proven (res.restricted) and its labels must
 * meet every constraint. Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "restricted.h"
#include "reduced.h"
#include "reduced_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const ckm_assign_want RESTRICTED = {"restricted", false, true}, FULL = {"full", false, false};

/* the restricted route's state behind a handle */
static struct ckm_cg *cg_of(const ckm_assign *a)
{
    return a->state;
}

static bool on_restricted(const ckm_assign_result *res)
{
    return res->route && strcmp(res->route->name, "restricted") == 0;
}

static uint64_t st = 37;
static double unif(void) { return ck_unif(&st); }

typedef struct inst {
    size_t s, k, n, n_cl, weight[400], cl[2 * 700], lo[12], hi[12];
    double cost[400 * 12];
} inst;

/* labels' cost when they meet every row of p (fixture_feasible), else INFINITY */
static double value_of(inst *p, const int32_t *lab)
{
    ckm_reduced r = fixture_reduced(p->s, p->k, p->n, p->weight, p->n_cl, p->cl, p->lo, p->hi);
    if (!fixture_feasible(&r, lab))
        return INFINITY;
    double f = 0.0;
    for (size_t t = 0; t < p->s; t++)
        f += p->cost[t * p->k + (size_t)lab[t]];
    return f;
}

typedef struct extra extra;
static double total_of(const inst *p, const extra *x, const int32_t *lab);

/* Brute force: the least cost over all k^s labellings (value_of, or total_of with x's capacity
 * rows and soft pairs), INFINITY when none is feasible; opt (if not NULL) gets a least one. */
static double brute_force(inst *p, const extra *x, int32_t *opt)
{
    double best = INFINITY;
    int32_t lab[8];
    size_t total = 1;
    for (size_t t = 0; t < p->s; t++)
        total *= p->k;
    for (size_t code = 0; code < total; code++) {
        size_t c = code;
        for (size_t t = 0; t < p->s; t++, c /= p->k)
            lab[t] = (int32_t)(c % p->k);
        double f = x ? total_of(p, x, lab) : value_of(p, lab);
        if (f < best) {
            best = f;
            if (opt)
                memcpy(opt, lab, p->s * sizeof(int32_t));
        }
    }
    return best;
}

/* whether the pair lo < hi is among the m pairs of list (2 m entries, each pair ordered) */
static bool listed(const size_t *list, size_t m, size_t lo, size_t hi)
{
    for (size_t e = 0; e < m; e++)
        if (list[2 * e] == lo && list[2 * e + 1] == hi)
            return true;
    return false;
}

static void random_pairs(inst *p, size_t m)
{
    p->n_cl = 0;
    for (size_t q = 0; q < m; q++) {
        size_t a = (size_t)(unif() * (double)p->s), b = (size_t)(unif() * (double)p->s);
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        if (a == b || listed(p->cl, p->n_cl, lo, hi))
            continue;
        p->cl[2 * p->n_cl] = lo;
        p->cl[2 * p->n_cl + 1] = hi;
        p->n_cl++;
    }
}

/* Is label j among group t's 3 cheapest columns? */
static int among_cheapest(const inst *p, size_t t, int32_t j)
{
    size_t below = 0;
    for (size_t c = 0; c < p->k; c++)
        below += p->cost[t * p->k + c] < p->cost[t * p->k + (size_t)j];
    return below < 3;
}

static void tiny(void)
{
    int outside = 0, via_mip = 0, infeasible = 0, optimal = 0, placed = 0, lifted = 0, replaced = 0;
    inst p;
    for (int it = 0; it < 160; it++) {
        p.s = 5 + (size_t)it % 3;
        p.k = p.s == 7 ? 5 : 5 + (size_t)it % 2;
        p.n = 0;
        for (size_t t = 0; t < p.s; t++)
            p.n += p.weight[t] = 1 + (it % 3 != 0 && unif() < 0.3 ? 1 + (size_t)(unif() * 2) : 0); /* every third: one point a group */
        int skewed = it % 2 == 0;
        for (size_t t = 0; t < p.s; t++)
            for (size_t j = 0; j < p.k; j++)
                p.cost[t * p.k + j] = skewed && j < 3 ? unif() : skewed ? 5.0 + 5.0 * unif() : 10.0 * unif();
        random_pairs(&p, (size_t)(unif() * 9));
        for (size_t j = 0; j < p.k; j++) {
            p.lo[j] = it % 4 == 1 ? 0 : (size_t)(unif() * 2.5);
            p.hi[j] = it % 4 == 1 ? p.n : p.lo[j] + 1 + (size_t)(unif() * 3);
        }
        int32_t lab[7], opt[7];
        double best = brute_force(&p, NULL, opt);
        ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&a, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&a) != NULL);
        ckm_assign_result res;
        CHECK(ckm_assign_solve(&a, p.cost, NULL, NULL, lab, &res, &err) == CKM_OK);
        if (isinf(best)) {
            infeasible++;
            CHECK(res.status == CKM_BK_INFEASIBLE);
            ckm_assign_free(&a);
            continue;
        }
        optimal++;
        CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
        CHECK_NEAR(res.objective, best, 1e-9);
        CHECK_NEAR(value_of(&p, lab), best, 1e-9);
        via_mip += res.used_mip;
        placed += res.stat[CKM_RESTRICTED_PLACED] > 0;
        lifted += res.stat[CKM_RESTRICTED_LIFTED] > 0;
        for (size_t t = 0; t < p.s; t++)
            if (!among_cheapest(&p, t, opt[t])) {
                outside++;
                break;
            }
        /* from the optimum as the start (CBC's start and a first column): the same value */
        int32_t again[7];
        CHECK(ckm_assign_solve(&a, p.cost, opt, NULL, again, &res, &err) == CKM_OK);
        replaced += (int)res.stat[CKM_RESTRICTED_REPLACED];
        CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
        CHECK_NEAR(res.objective, best, 1e-9);
        ckm_assign_free(&a);
    }
    printf("tiny: %d optimal (%d needing a column outside the 3 cheapest, %d via CBC, %d with groups placed by the "
           "prices, %d lifting some back, %d placed by the start after the transportation labels failed), %d "
           "infeasible\n",
           optimal, outside, via_mip, placed, lifted, replaced, infeasible);
    CHECK(outside >= 20 && via_mip >= 3 && infeasible >= 5 && placed >= 10 && lifted >= 10);
}

static double lp_value(const inst *p, const double *x)
{
    double f = 0.0;
    for (size_t c = 0; c < p->s * p->k; c++)
        f += p->cost[c] * x[c];
    return f;
}

/* The same step from the centers (ckm_assign_solve_centers: costs mass_t ||m_t - c_j||^2
 * computed in blocks, never stored; M the groups' d-dimensional means): the full model's
 * optimum, proven; from its labels as the start too. x: the step's capacity rows and soft
 * pairs (r carries them too), or NULL. */
static void from_centers(const inst *p, const extra *x, ckm_reduced r, size_t d, const double *M, const double *C,
                         double *mass, double optimum)
{
    for (size_t t = 0; t < p->s; t++)
        mass[t] = (double)p->weight[t];
    r.d = d;
    r.mean = M;
    r.mass = mass;
    ckm_assign a;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_assign_init(&a, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&a) != NULL);
    cg_of(&a)->blk_rows = 7; /* many blocks of rows, the last one short */
    int32_t lab[400], again[400];
    ckm_assign_result res;
    CHECK(ckm_assign_solve_centers(&a, C, 1, NULL, NULL, lab, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
    CHECK_NEAR(res.objective, optimum, 1e-9 * optimum);
    CHECK_NEAR(x ? total_of(p, x, lab) : value_of((inst *)p, lab), optimum, 1e-9 * optimum);
    CHECK(ckm_assign_solve_centers(&a, C, 1, lab, NULL, again, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
    CHECK_NEAR(x ? total_of(p, x, again) : value_of((inst *)p, again), optimum, 1e-9 * optimum);
    ckm_assign_free(&a);
}

static void medium(void)
{
    static inst p;
    static double x_full[400 * 12], x_cg[400 * 12], M[400 * 4], mass[400];
    int via_mip = 0, placed = 0, lifted = 0;
    for (int it = 0; it < 9; it++) {
        p.s = 300;
        p.k = 12;
        p.n = 0;
        /* it = 4: the data far from the origin (1e6), where ||m||^2 - 2 m.c + ||c||^2 without
           the shift of restricted_costs.c would lose about 1e-4 of each cost */
        double C[12 * 4], off = it == 4 ? 1e6 : 0.0;
        for (size_t j = 0; j < p.k; j++)
            for (int q = 0; q < 4; q++)
                C[j * 4 + (size_t)q] = off + 4.0 * unif();
        for (size_t t = 0; t < p.s; t++) {
            p.n += p.weight[t] = 1 + (unif() < 0.2 ? 1 : 0);
            double *P = M + t * 4;
            for (int q = 0; q < 4; q++)
                P[q] = off + 4.0 * unif();
            for (size_t j = 0; j < p.k; j++) {
                double d2 = 0.0;
                for (int q = 0; q < 4; q++)
                    d2 += (P[q] - C[j * 4 + (size_t)q]) * (P[q] - C[j * 4 + (size_t)q]);
                p.cost[t * p.k + j] = (double)p.weight[t] * d2;
            }
        }
        random_pairs(&p, it < 6 ? 600 : 30); /* 30: most groups without one, placed by the prices */
        size_t even = p.n / p.k;
        for (size_t j = 0; j < p.k; j++) {
            p.lo[j] = it % 3 == 2 ? 0 : even - even / 10;
            p.hi[j] = it % 3 == 2 ? p.n : even + even / 10 + (it % 3 == 1 ? 0 : 5);
        }
        ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
        ckm_assign full, cg;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&full, &r, &FULL, &err) == CKM_OK && strcmp(full.route->name, "full") == 0);
        CHECK(ckm_assign_init(&cg, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&cg) != NULL);
        int32_t lf[400], lc[400];
        ckm_assign_result rf, rc;
        CHECK(ckm_assign_solve(&full, p.cost, NULL, NULL, lf, &rf, &err) == CKM_OK && rf.status == CKM_BK_OPTIMAL);
        CHECK(ckm_assign_solve(&cg, p.cost, NULL, NULL, lc, &rc, &err) == CKM_OK && rc.status == CKM_BK_OPTIMAL);
        CHECK(on_restricted(&rc) && (it >= 6 || rc.stat[CKM_RESTRICTED_COLUMNS] < p.s * p.k)); /* few pairs: the MILP may take every column */
        CHECK_NEAR(rc.objective, rf.objective, 1e-9 * rf.objective);
        CHECK_NEAR(value_of(&p, lc), rf.objective, 1e-9 * rf.objective);
        from_centers(&p, NULL, r, 4, M, C, mass, rf.objective);
        via_mip += rc.used_mip;
        placed += rc.stat[CKM_RESTRICTED_PLACED] > 0;
        lifted += rc.stat[CKM_RESTRICTED_LIFTED] > 0;
        /* the LP relaxation (bckm's ckm_assign_lp): the same value */
        ckm_bk_status sf, sc;
        CHECK(ckm_assign_lp(&full, p.cost, NULL, x_full, &sf, &err) == CKM_OK && sf == CKM_BK_OPTIMAL);
        CHECK(ckm_assign_lp(&cg, p.cost, NULL, x_cg, &sc, &err) == CKM_OK && sc == CKM_BK_OPTIMAL);
        CHECK_NEAR(lp_value(&p, x_cg), lp_value(&p, x_full), 1e-9 * lp_value(&p, x_full));
        printf("medium %d: optimum %.6f, %zu of %zu columns, %zu groups placed by prices (%zu lifted), %zu pricing "
               "passes, %s\n",
               it, rc.objective, rc.stat[CKM_RESTRICTED_COLUMNS], p.s * p.k, rc.stat[CKM_RESTRICTED_PLACED],
               rc.stat[CKM_RESTRICTED_LIFTED], rc.stat[CKM_RESTRICTED_PRICING],
               rc.used_mip ? "CBC" : "LP integral");
        ckm_assign_free(&full);
        ckm_assign_free(&cg);
    }
    printf("medium: %d of 9 via CBC, %d with groups placed by the prices, %d lifting some back\n", via_mip, placed,
           lifted);
    CHECK(placed >= 3 && lifted >= 3);
}

/* A step whose transportation labels (cannot-links left out) break a cannot-link triangle:
 * 8 groups, 4 clusters of exactly 2, groups 0, 1 and 7 pairwise cannot-linked, 0 and 1
 * cheapest in cluster 0 (5 elsewhere), every other pair of groups cheapest in a cluster of
 * its own (cluster 0 costs them 1000, the others 100). The transportation labels put 0 and
 * 1 together in cluster 0; most groups are placed by the prices and the LP must move two
 * groups. By hand: cluster 0 holds at most one of 0, 1, 7, so one group pays 1000 to enter
 * it and one of 0, 1 pays 5 to leave: the optimum is 1005. (Placing by the start after the
 * transportation labels' placement left the LP infeasible, res.stat[CKM_RESTRICTED_REPLACED], is not reached
 * here: the ties of the transportation prices leave the LP a way to move.) */
static void triangle(inst *pp)
{
    inst p = {0};
    p.s = 8;
    p.k = 4;
    p.n = 8;
    for (size_t t = 0; t < p.s; t++) {
        p.weight[t] = 1;
        for (size_t j = 0; j < p.k; j++)
            p.cost[t * p.k + j] = j == t / 2 ? 0.0 : t < 2 ? 5.0 : j == 0 ? 1000.0 : 100.0;
    }
    p.n_cl = 3; /* 0, 1, 7 pairwise */
    size_t tri[6] = {0, 1, 0, 7, 1, 7};
    memcpy(p.cl, tri, sizeof tri);
    for (size_t j = 0; j < p.k; j++)
        p.lo[j] = p.hi[j] = 2;
    *pp = p;
}

static void pairs_across_placement(void)
{
    static inst p;
    triangle(&p);
    ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
    ckm_assign a;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_assign_init(&a, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&a) != NULL);
    int32_t start[8] = {0, 1, 0, 1, 2, 2, 3, 3}, lab[8];
    ckm_assign_result res;
    CHECK(ckm_assign_solve(&a, p.cost, start, NULL, lab, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
    CHECK(res.stat[CKM_RESTRICTED_PLACED] >= 4);
    CHECK_NEAR(res.objective, 1005.0, 1e-12);
    CHECK_NEAR(value_of(&p, lab), 1005.0, 1e-12);
    ckm_assign_free(&a);
}

/* A model that outgrows what the memory model counted is built only when the memory it
 * needs beyond the largest model so far is available (restricted_model.c, check_growth):
 * with 1 kB available and nothing counted, the step is refused with CKM_ERR_NOMEM and a
 * message that says why; with 1 GB it is solved, to the same optimum as above. */
static void growth_refused(void)
{
    static inst p;
    triangle(&p);
    ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
    int32_t start[8] = {0, 1, 0, 1, 2, 2, 3, 3}, lab[8];
    for (int roomy = 0; roomy < 2; roomy++) {
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&a, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&a) != NULL);
        CHECK(cg_of(&a)->model_high > 0.0); /* the counted model */
        cg_of(&a)->model_high = 0.0;
        cg_of(&a)->avail = roomy ? 1e9 : 1e3;
        ckm_assign_result res;
        ckm_error rc = ckm_assign_solve(&a, p.cost, start, NULL, lab, &res, &err);
        if (roomy) {
            CHECK(rc == CKM_OK && res.status == CKM_BK_OPTIMAL);
            CHECK_NEAR(res.objective, 1005.0, 1e-12);
            CHECK(cg_of(&a)->model_high > 0.0);
        } else {
            CHECK(rc == CKM_ERR_NOMEM);
            CHECK(strstr(err.message, "restricted assignment model grew to") != NULL);
            CHECK(strstr(err.message, "MB are available") != NULL);
        }
        ckm_assign_free(&a);
    }
}


/* ---- capacity and soft rows (model.h) on the restricted model ---- */

/* The rows beyond the fixture: demands, capacities, soft pairs (weights w_e: > 0 soft
 * must-link, < 0 soft cannot-link) and the penalty P. */
struct extra {
    double demand[400], clo[12], chi[12], soft_w[120], P;
    size_t n_soft, soft[240];
    bool caps;
};

/* One step of r (its costs cost) on the restricted (route 0) or the full model (route 1): its
 * labels and result (status FAILED when either call fails, which CHECK counts). */
static void step_on(const ckm_reduced *r, const double *cost, int route, int32_t *lab, ckm_assign_result *res)
{
    ckm_assign a;
    ckm_err err = {CKM_OK, ""};
    res->status = CKM_BK_FAILED;
    bool made = ckm_assign_init(&a, r, route ? &FULL : &RESTRICTED, &err) == CKM_OK;
    CHECK(made);
    if (!made)
        return;
    CHECK(ckm_assign_solve(&a, cost, NULL, NULL, lab, res, &err) == CKM_OK);
    ckm_assign_free(&a);
}

static void add_extra(ckm_reduced *r, extra *x)
{
    r->has_caps = x->caps;
    r->demand = x->caps ? x->demand : NULL;
    r->cap_lo = x->caps ? x->clo : NULL;
    r->cap_hi = x->caps ? x->chi : NULL;
    r->cap_tol = 1e-9;
    r->n_soft = x->n_soft;
    r->soft = x->soft;
    r->soft_w = x->soft_w;
    r->soft_P = x->P;
    for (size_t j = 0; j < r->k && !r->has_sizes; j++)
        r->has_sizes = r->lo[j] > 1 || r->hi[j] < r->n;
}

/* cost + P sum |w_e| [e violated] when lab keeps every hard row (loads within [clo, chi],
 * 1e-9), else INFINITY: the test's own objective */
static double total_of(const inst *p, const extra *x, const int32_t *lab)
{
    double f = value_of((inst *)p, lab), load[12] = {0};
    for (size_t t = 0; x->caps && t < p->s; t++)
        load[lab[t]] += x->demand[t];
    for (size_t j = 0; x->caps && j < p->k; j++)
        if (load[j] < x->clo[j] - 1e-9 || load[j] > x->chi[j] + 1e-9)
            return INFINITY;
    for (size_t e = 0; e < x->n_soft; e++)
        if ((lab[x->soft[2 * e]] == lab[x->soft[2 * e + 1]]) != (x->soft_w[e] > 0.0))
            f += x->P * fabs(x->soft_w[e]);
    return f;
}

/* Soft pairs between distinct groups, none on a cannot-link (as preprocessing leaves them). */
static void random_soft(const inst *p, extra *x, size_t m)
{
    x->n_soft = 0;
    for (size_t q = 0; q < m; q++) {
        size_t a = (size_t)(unif() * (double)p->s), b = (size_t)(unif() * (double)p->s);
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        if (a == b || listed(p->cl, p->n_cl, lo, hi) || listed(x->soft, x->n_soft, lo, hi))
            continue;
        x->soft[2 * x->n_soft] = lo;
        x->soft[2 * x->n_soft + 1] = hi;
        x->soft_w[x->n_soft++] = (unif() < 0.5 ? 1.0 : -1.0) * (0.2 + 0.8 * unif());
    }
}

/* Demands 0..3 (a third of them 0) and capacities around the mean load, +-50-150 %. */
static void random_caps(const inst *p, extra *x)
{
    double total = 0.0;
    for (size_t t = 0; t < p->s; t++)
        total += x->demand[t] = unif() < 0.33 ? 0.0 : (double)(1 + (int)(3.0 * unif()));
    double slack = 0.5 + 1.0 * unif();
    for (size_t j = 0; j < p->k; j++) {
        x->clo[j] = total / (double)p->k * (1.0 - slack);
        x->chi[j] = total / (double)p->k * (1.0 + slack);
    }
}

/* Tiny steps with capacities (zero demands among them), soft pairs, or both, with and without
 * cannot-links and sizes: the restricted route (forced) and the full one reach the optimum
 * of every labelling's enumeration, or both say infeasible. */
static void tiny_rows(void)
{
    int optimal = 0, infeasible = 0, via_mip = 0, kinds[4] = {0, 0, 0, 0};
    static inst p;
    static extra x;
    for (int it = 0; it < 120; it++) {
        int kind = it % 4; /* 0 capacities, 1 capacities + cannot-links, 2 soft, 3 soft + capacities */
        p.s = 6;
        p.k = 4 + (size_t)(it % 2);
        p.n = 0;
        for (size_t t = 0; t < p.s; t++)
            p.n += p.weight[t] = 1 + (unif() < 0.25 ? 1 : 0);
        bool skewed = it % 8 < 4; /* clusters 0-2 cheap for every group: the others need the rows' prices */
        for (size_t t = 0; t < p.s; t++)
            for (size_t j = 0; j < p.k; j++)
                p.cost[t * p.k + j] = skewed && j < 3 ? unif() : skewed ? 5.0 + 5.0 * unif() : 10.0 * unif();
        random_pairs(&p, kind == 1 || (kind == 3 && it % 8 == 3) ? (size_t)(unif() * 5) : 0);
        for (size_t j = 0; j < p.k; j++) {
            p.lo[j] = it % 3 == 0 ? 0 : 1;
            p.hi[j] = it % 5 == 0 ? 3 : p.n;
        }
        memset(&x, 0, sizeof x);
        x.caps = kind != 2;
        if (x.caps)
            random_caps(&p, &x);
        if (kind >= 2)
            random_soft(&p, &x, 1 + (size_t)(unif() * 5));
        x.P = 1.0 + 4.0 * unif();
        int32_t lab[6];
        double best = brute_force(&p, &x, NULL);
        ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
        add_extra(&r, &x);
        for (int route = 0; route < 2; route++) {
            ckm_assign_result res;
            step_on(&r, p.cost, route, lab, &res);
            if (isinf(best)) {
                CHECK(res.status == CKM_BK_INFEASIBLE);
                infeasible += route == 0;
            } else {
                CHECK(res.status == CKM_BK_OPTIMAL);
                CHECK_NEAR(res.objective, best, 1e-9 * (1.0 + best));
                CHECK_NEAR(total_of(&p, &x, lab), best, 1e-9 * (1.0 + best));
                optimal += route == 0;
                via_mip += route == 0 && res.used_mip;
                kinds[kind] += route == 0;
            }
        }
    }
    printf("tiny with capacities and soft pairs: %d optimal (%d capacities, %d with cannot-links, %d soft, %d soft "
           "and capacities; %d via CBC), %d infeasible\n",
           optimal, kinds[0], kinds[1], kinds[2], kinds[3], via_mip, infeasible);
    CHECK(kinds[0] >= 15 && kinds[1] >= 10 && kinds[2] >= 15 && kinds[3] >= 10 && via_mip >= 10 && infeasible >= 5);
}

/* Medium steps (120 groups, 6 clusters, squared distances): capacities +-8 % with 150
 * cannot-links, and (60 groups) soft pairs (20) with capacities: the restricted route's
 * proven optimum is the full model's, from the matrix and from the centers, and its labels
 * keep every row. */
static void medium_rows(void)
{
    static inst p;
    static extra x;
    static double M[120 * 2], mass[120];
    for (int it = 0; it < 4; it++) {
        p.s = it < 2 ? 120 : 60; /* soft pairs with capacities: the full model's CBC takes a minute at 120, the restricted one's fixing 10 s at 80 (sanitized) */
        p.k = 6;
        p.n = 0;
        double C[6 * 2];
        for (size_t q = 0; q < 12; q++)
            C[q] = 4.0 * unif();
        for (size_t t = 0; t < p.s; t++) {
            p.n += p.weight[t] = 1;
            double P0 = M[2 * t] = 4.0 * unif(), P1 = M[2 * t + 1] = 4.0 * unif();
            for (size_t j = 0; j < p.k; j++)
                p.cost[t * p.k + j] = (P0 - C[2 * j]) * (P0 - C[2 * j]) + (P1 - C[2 * j + 1]) * (P1 - C[2 * j + 1]);
        }
        random_pairs(&p, it < 2 ? 150 : 0);
        for (size_t j = 0; j < p.k; j++) {
            p.lo[j] = 1;
            p.hi[j] = p.n;
        }
        memset(&x, 0, sizeof x);
        x.caps = true;
        double total = 0.0;
        for (size_t t = 0; t < p.s; t++)
            total += x.demand[t] = unif() < 0.1 ? 0.0 : 1.0 + 4.0 * unif();
        for (size_t j = 0; j < p.k; j++) {
            x.clo[j] = 0.92 * total / (double)p.k;
            x.chi[j] = 1.08 * total / (double)p.k;
        }
        if (it >= 2)
            random_soft(&p, &x, 20);
        x.P = 1.0;
        ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
        add_extra(&r, &x);
        ckm_assign full, cg;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&full, &r, &FULL, &err) == CKM_OK);
        CHECK(ckm_assign_init(&cg, &r, &RESTRICTED, &err) == CKM_OK);
        int32_t lf[400], lc[400];
        ckm_assign_result rf, rc;
        CHECK(ckm_assign_solve(&full, p.cost, NULL, NULL, lf, &rf, &err) == CKM_OK && rf.status == CKM_BK_OPTIMAL);
        CHECK(ckm_assign_solve(&cg, p.cost, NULL, NULL, lc, &rc, &err) == CKM_OK && rc.status == CKM_BK_OPTIMAL);
        CHECK(on_restricted(&rc) && rc.stat[CKM_RESTRICTED_COLUMNS] < p.s * p.k);
        CHECK_NEAR(rc.objective, rf.objective, 1e-9 * rf.objective);
        CHECK_NEAR(total_of(&p, &x, lc), rf.objective, 1e-9 * rf.objective);
        from_centers(&p, &x, r, 2, M, C, mass, rf.objective); /* no s x k matrix, no Lagrangian first prices */
        printf("medium %s: optimum %.6f, %zu of %zu columns, %zu groups placed, %zu pricing passes, %s\n",
               it < 2 ? "capacities + cannot-links" : "soft pairs + capacities", rc.objective,
               rc.stat[CKM_RESTRICTED_COLUMNS], p.s * p.k, rc.stat[CKM_RESTRICTED_PLACED],
               rc.stat[CKM_RESTRICTED_PRICING], rc.used_mip ? "CBC" : "LP integral");
        ckm_assign_free(&full);
        ckm_assign_free(&cg);
    }
}

/* A column outside the restricted model that only a soft must-link makes worth taking: group
 * 0 costs 0 in clusters 0-2 (its first columns) and 1 in 3-5, group 1 costs 0 in cluster 5
 * and 10 elsewhere, a soft must-link between them costs P = 5 when violated, groups 2 and 3
 * sit in clusters 0-2 (no size bounds). Apart the pair costs 5; group 0 joining cluster 5
 * costs 1: the optimum is 1, reached only when pricing (0, 5) counts the dual of the row
 * y_15 - y_05 - z <= 0 that column would enter (ckm_cg_soft_adjust). */
static void soft_pulls_across(void)
{
    static inst p;
    static extra x;
    memset(&p, 0, sizeof p);
    memset(&x, 0, sizeof x);
    p.s = 4;
    p.k = 6;
    p.n = 4;
    double c[4][6] = {{0, 0, 0, 1, 1, 1}, {10, 10, 10, 10, 10, 0}, {0, 1, 2, 9, 9, 9}, {2, 1, 0, 9, 9, 9}};
    for (size_t t = 0; t < p.s; t++) {
        p.weight[t] = 1;
        for (size_t j = 0; j < p.k; j++)
            p.cost[t * p.k + j] = c[t][j];
    }
    for (size_t j = 0; j < p.k; j++) {
        p.lo[j] = 0;
        p.hi[j] = p.n;
    }
    x.n_soft = 1;
    x.soft[0] = 0;
    x.soft[1] = 1;
    x.soft_w[0] = 1.0;
    x.P = 5.0;
    ckm_reduced r = fixture_reduced(p.s, p.k, p.n, p.weight, p.n_cl, p.cl, p.lo, p.hi);
    add_extra(&r, &x);
    for (int route = 0; route < 2; route++) {
        int32_t lab[4];
        ckm_assign_result res;
        step_on(&r, p.cost, route, lab, &res);
        CHECK(res.status == CKM_BK_OPTIMAL && lab[0] == 5 && lab[1] == 5);
        CHECK_NEAR(res.objective, 1.0, 1e-12);
    }
}

int main(void)
{
    tiny();
    medium();
    tiny_rows();
    medium_rows();
    soft_pulls_across();
    pairs_across_placement();
    growth_refused();
    return ck_report();
}
