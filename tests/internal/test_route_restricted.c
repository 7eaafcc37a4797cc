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
 *   - a cannot-link triangle the transportation labels break, by hand (optimum 1005).
 * Every restricted optimum must say it was proven (res.restricted) and its labels must
 * meet every constraint. Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "restricted.h"
#include "reduced.h"
#include "reduced_fixture.h"

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

static void random_pairs(inst *p, size_t m)
{
    p->n_cl = 0;
    for (size_t q = 0; q < m; q++) {
        size_t a = (size_t)(unif() * (double)p->s), b = (size_t)(unif() * (double)p->s), dup = 0;
        if (a == b)
            continue;
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        for (size_t e = 0; e < p->n_cl && !dup; e++)
            dup = p->cl[2 * e] == lo && p->cl[2 * e + 1] == hi;
        if (dup)
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
        double best = INFINITY;
        int32_t lab[7], opt[7];
        size_t total = 1;
        for (size_t t = 0; t < p.s; t++)
            total *= p.k;
        for (size_t code = 0; code < total; code++) {
            size_t c = code;
            for (size_t t = 0; t < p.s; t++, c /= p.k)
                lab[t] = (int32_t)(c % p.k);
            double f = value_of(&p, lab);
            if (f < best) {
                best = f;
                memcpy(opt, lab, sizeof lab);
            }
        }
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
 * computed in blocks, never stored): the full model's optimum, proven; from its labels as
 * the start too. */
static void from_centers(const inst *p, ckm_reduced r, const double *M, const double *C, double *mass,
                         double optimum)
{
    for (size_t t = 0; t < p->s; t++)
        mass[t] = (double)p->weight[t];
    r.d = 4;
    r.mean = M;
    r.mass = mass;
    ckm_assign a;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_assign_init(&a, &r, &RESTRICTED, &err) == CKM_OK && cg_of(&a) != NULL);
    cg_of(&a)->blk_rows = 7; /* 43 blocks of rows, the last one short */
    int32_t lab[400], again[400];
    ckm_assign_result res;
    CHECK(ckm_assign_solve_centers(&a, C, 1, NULL, NULL, lab, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
    CHECK_NEAR(res.objective, optimum, 1e-9 * optimum);
    CHECK_NEAR(value_of((inst *)p, lab), optimum, 1e-9 * optimum);
    CHECK(ckm_assign_solve_centers(&a, C, 1, lab, NULL, again, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL && on_restricted(&res));
    CHECK_NEAR(value_of((inst *)p, again), optimum, 1e-9 * optimum);
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
        from_centers(&p, r, M, C, mass, rf.objective);
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

int main(void)
{
    tiny();
    medium();
    pairs_across_placement();
    growth_refused();
    return ck_report();
}
