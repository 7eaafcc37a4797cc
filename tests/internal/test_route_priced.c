/*
 * test_route_priced.c -- the price route of capacity steps (route_priced.c), its repair and
 * local search (cap_local.c), against independent truth:
 *   - tiny problems (5-8 groups, k = 2-3, real demands, capacities, size bounds, cannot-links,
 *     group weights): enumeration of every labelling gives the optimum; the price route
 *     (forced by naming the route "priced", no limits) must reach it (status OPTIMAL, same total) or
 *     report INFEASIBLE exactly when no labelling exists, its bound g must never exceed the
 *     optimum, and its labels must keep every row by this file's own check;
 *   - the local search from the worst feasible labelling stays feasible, never costs more,
 *     and never less than the optimum; the repair's "held" is true only for feasible labels;
 *   - a medium problem (300 groups in the plane, k = 6, log-normal demands, capacities
 *     +-5 % of the mean load): the full model's LP value z bounds g from above (weak duality:
 *     g <= z for any prices) and the ascent gets within 0.1 % of it; both routes prove the
 *     same optimum.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "cap_local.h"
#include "incidence.h"
#include "route_priced.h"
#include "reduced.h"
#include "reduced_fixture.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const ckm_assign_want PRICED = {"priced", false, false}, FULL = {"full", false, false};

static uint64_t st = 36;
static double unif(void) { return ck_unif(&st); }

typedef struct capinst {
    ckm_reduced r;
    size_t weight[300], cl[40], lo[8], hi[8];
    double demand[300], cap_lo[8], cap_hi[8], cost[300 * 8];
} capinst;

/* Every row of the instance by this file's own arithmetic (loads within the tolerance). */
static bool feasible(const capinst *in, const int32_t *lab)
{
    const ckm_reduced *r = &in->r;
    double load[8] = {0}, size[8] = {0};
    for (size_t t = 0; t < r->s; t++) {
        if (lab[t] < 0 || (size_t)lab[t] >= r->k)
            return false;
        load[lab[t]] += in->demand[t];
        size[lab[t]] += (double)in->weight[t];
    }
    for (size_t j = 0; j < r->k; j++)
        if (load[j] < in->cap_lo[j] - r->cap_tol || load[j] > in->cap_hi[j] + r->cap_tol ||
            size[j] < (double)in->lo[j] || size[j] > (double)in->hi[j])
            return false;
    for (size_t e = 0; e < r->n_cl; e++)
        if (lab[in->cl[2 * e]] == lab[in->cl[2 * e + 1]])
            return false;
    return true;
}

static double total(const capinst *in, const int32_t *lab)
{
    double f = 0.0;
    for (size_t t = 0; t < in->r.s; t++)
        f += in->cost[t * in->r.k + (size_t)lab[t]];
    return f;
}

static void make_tiny(capinst *in, int i)
{
    size_t s = 5 + (size_t)i % 4, k = 2 + (size_t)i % 2, n = 0, n_cl = 0;
    double q_all = 0.0;
    for (size_t t = 0; t < s; t++) {
        n += in->weight[t] = 1 + (unif() < 0.3 ? 1 : 0);
        q_all += in->demand[t] = 0.5 + 2.5 * unif();
    }
    for (int q = 0; q < (int)(unif() * 4); q++) {
        size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
        if (a != b) {
            in->cl[2 * n_cl] = a < b ? a : b;
            in->cl[2 * n_cl++ + 1] = a < b ? b : a;
        }
    }
    bool sizes = i % 3 == 1;
    for (size_t j = 0; j < k; j++) {
        in->lo[j] = sizes ? (size_t)(unif() * 3) : 0;
        in->hi[j] = sizes ? in->lo[j] + 2 + (size_t)(unif() * 3) : n;
        double mean = q_all / (double)k, width = (0.1 + 0.5 * unif()) * mean;
        in->cap_lo[j] = mean - width;
        in->cap_hi[j] = i % 5 == 4 ? INFINITY : mean + width;
    }
    for (size_t c = 0; c < s * k; c++)
        in->cost[c] = 10.0 * unif();
    in->r = fixture_reduced(s, k, n, in->weight, n_cl, in->cl, in->lo, in->hi);
    in->r.has_sizes = sizes;
    in->r.has_caps = 1;
    in->r.demand = in->demand;
    in->r.cap_lo = in->cap_lo;
    in->r.cap_hi = in->cap_hi;
    in->r.cap_tol = 1e-9 * fmax(1.0, q_all);
}

/* The optimum and the worst feasible labelling by enumeration (best INFINITY: none). */
static void enumerate(const capinst *in, double *best, int32_t *worst_lab)
{
    size_t s = in->r.s, k = in->r.k, all = 1;
    for (size_t t = 0; t < s; t++)
        all *= k;
    double worst = -INFINITY;
    *best = INFINITY;
    for (size_t code = 0; code < all; code++) {
        int32_t lab[8];
        size_t c = code;
        for (size_t t = 0; t < s; t++, c /= k)
            lab[t] = (int32_t)(c % k);
        if (!feasible(in, lab))
            continue;
        double f = total(in, lab);
        *best = fmin(*best, f);
        if (f > worst) {
            worst = f;
            for (size_t t = 0; t < s; t++)
                worst_lab[t] = lab[t];
        }
    }
}

static void tiny(void)
{
    int optimal = 0, infeasible = 0, improved = 0, repaired = 0;
    for (int i = 0; i < 150; i++) {
        capinst in;
        make_tiny(&in, i);
        double best;
        int32_t worst[8], labels[8];
        enumerate(&in, &best, worst);
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        ckm_assign_result res;
        CHECK(ckm_assign_init(&a, &in.r, &PRICED, &err) == CKM_OK);
        CHECK(strcmp(a.route->name, "priced") == 0);
        CHECK(ckm_assign_solve(&a, in.cost, NULL, NULL, labels, &res, &err) == CKM_OK);
        CHECK(strcmp(res.route->name, "priced") == 0 && res.has_bound == 1);
        if (isinf(best)) {
            infeasible++;
            CHECK(res.status == CKM_BK_INFEASIBLE);
        } else {
            optimal++;
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK(feasible(&in, labels));
            CHECK_NEAR(total(&in, labels), best, 1e-9 * (1.0 + fabs(best)));
            CHECK(res.bound <= best + 1e-9 * (1.0 + fabs(best))); /* the bound is a bound */
            /* from the worst labelling, moves and swaps keep every row and never cost more */
            size_t *inc_start = NULL, *inc = NULL, moves = 0;
            CHECK(ckm_incidence(in.r.s, in.r.n_cl, in.cl, &inc_start, &inc));
            int32_t lab[8];
            for (size_t t = 0; t < in.r.s; t++)
                lab[t] = worst[t];
            double before = total(&in, lab);
            CHECK(ckm_cap_local_search(&in.r, in.cost, inc_start, inc, NULL, lab, &moves));
            CHECK(feasible(&in, lab));
            CHECK(total(&in, lab) <= before + 1e-12);
            CHECK(total(&in, lab) >= best - 1e-9 * (1.0 + fabs(best)));
            improved += moves > 0;
            /* the repair's verdict matches the labels it leaves */
            for (size_t t = 0; t < in.r.s; t++)
                lab[t] = (int32_t)(unif() * (double)in.r.k);
            bool held = ckm_cap_repair(&in.r, in.cost, inc_start, inc, lab);
            CHECK(held == feasible(&in, lab));
            repaired += held;
            free(inc_start);
            free(inc);
        }
        ckm_assign_free(&a);
    }
    printf("tiny: %d optimal, %d infeasible; local search improved %d worst labellings, repair mended %d "
           "random ones\n",
           optimal, infeasible, improved, repaired);
    CHECK(optimal >= 60 && infeasible >= 5 && improved >= 30 && repaired >= 10);
}

static void medium(void)
{
    static capinst in;
    size_t s = 300, k = 6;
    double X[300][2], C[6][2], q_all = 0.0;
    for (size_t j = 0; j < k; j++) {
        C[j][0] = 10.0 * unif();
        C[j][1] = 10.0 * unif();
    }
    for (size_t t = 0; t < s; t++) {
        size_t c = (size_t)(unif() * (double)k);
        X[t][0] = C[c][0] + 2.0 * (unif() - 0.5) * 3.0;
        X[t][1] = C[c][1] + 2.0 * (unif() - 0.5) * 3.0;
        in.weight[t] = 1;
        double u1 = fmax(unif(), 1e-12), u2 = unif(); /* log-normal demands (Box-Muller) */
        q_all += in.demand[t] = exp(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
    }
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            in.cost[t * k + j] = pow(X[t][0] - C[j][0], 2) + pow(X[t][1] - C[j][1], 2);
    for (size_t j = 0; j < k; j++) {
        in.lo[j] = 0;
        in.hi[j] = s;
        in.cap_lo[j] = 0.95 * q_all / (double)k;
        in.cap_hi[j] = 1.05 * q_all / (double)k;
    }
    in.r = fixture_reduced(s, k, s, in.weight, 0, in.cl, in.lo, in.hi);
    in.r.has_caps = 1;
    in.r.demand = in.demand;
    in.r.cap_lo = in.cap_lo;
    in.r.cap_hi = in.cap_hi;
    in.r.cap_tol = 1e-9 * q_all;
    ckm_err err = {CKM_OK, ""};
    ckm_assign full, price;
    ckm_assign_result rf, rp;
    int32_t lf[300], lp[300];
    CHECK(ckm_assign_init(&full, &in.r, &FULL, &err) == CKM_OK);
    CHECK(ckm_assign_init(&price, &in.r, &PRICED, &err) == CKM_OK);
    CHECK(ckm_assign_solve(&full, in.cost, NULL, NULL, lf, &rf, &err) == CKM_OK);
    CHECK(ckm_assign_solve(&price, in.cost, NULL, NULL, lp, &rp, &err) == CKM_OK);
    CHECK(rf.status == CKM_BK_OPTIMAL && rp.status == CKM_BK_OPTIMAL);
    CHECK(feasible(&in, lf) && feasible(&in, lp));
    CHECK_NEAR(total(&in, lp), total(&in, lf), 1e-9 * total(&in, lf));
    printf("medium: optimum %.6f, LP %.6f, prices' bound %.6f after %zu sweeps\n", total(&in, lf), rf.bound,
           rp.bound, rp.stat[CKM_PRICED_SWEEPS]);
    if (rf.has_bound) { /* the LP was fractional: weak duality, and the ascent's quality */
        CHECK(rp.bound <= rf.bound + 1e-7 * fabs(rf.bound));
        CHECK(rp.bound >= rf.bound - 1e-3 * fabs(rf.bound));
    }
    CHECK(rp.bound <= total(&in, lf) + 1e-9 * total(&in, lf));
    ckm_assign_free(&full);
    ckm_assign_free(&price);
}

int main(void)
{
    tiny();
    medium();
    return ck_report();
}
