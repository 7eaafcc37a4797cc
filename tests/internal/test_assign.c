/*
 * test_assign.c -- the exact assignment step (src/assign) against enumeration of every
 * feasible labelling of the super-points on tiny reduced problems, with random costs,
 * weights (must-link groups), cannot-links and size bounds; the LP and the CBC paths
 * both occur. Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "reduced.h"
#include "reduced_fixture.h"

#include <stdint.h>

static uint64_t st = 3;
static double unif(void) { return ck_unif(&st); }

int main(void)
{
    int used_mip = 0, lp_only = 0, infeasible = 0;
    for (int inst = 0; inst < 80; inst++) {
        size_t s = 5 + (size_t)inst % 4, k = 2 + (size_t)inst % 2, weight[8], cl[16], lo[3], hi[3];
        size_t n = 0;
        for (size_t t = 0; t < s; t++)
            n += weight[t] = 1 + (unif() < 0.3 ? 1 + (size_t)(unif() * 2) : 0);
        size_t n_cl = 0;
        for (int q = 0; q < (int)(unif() * 6); q++) {
            size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
            if (a == b)
                continue;
            cl[2 * n_cl] = a < b ? a : b;
            cl[2 * n_cl + 1] = a < b ? b : a;
            n_cl++;
        }
        for (size_t j = 0; j < k; j++) {
            lo[j] = inst % 3 == 0 ? 1 : (size_t)(unif() * 4);
            hi[j] = inst % 3 == 0 ? n : lo[j] + 1 + (size_t)(unif() * 4);
        }
        ckm_reduced r = fixture_reduced(s, k, n, weight, n_cl, cl, lo, hi);
        double cost[24];
        for (size_t c = 0; c < s * k; c++)
            cost[c] = 10.0 * unif();
        /* enumeration */
        double best = INFINITY;
        size_t total = 1;
        for (size_t t = 0; t < s; t++)
            total *= k;
        for (size_t code = 0; code < total; code++) {
            size_t c = code, size[3] = {0, 0, 0};
            int32_t lab[8];
            double f = 0;
            for (size_t t = 0; t < s; t++) {
                lab[t] = (int32_t)(c % k);
                c /= k;
                size[lab[t]] += weight[t];
                f += cost[t * k + (size_t)lab[t]];
            }
            int ok = 1;
            for (size_t j = 0; j < k && ok; j++)
                ok = size[j] >= lo[j] && size[j] <= hi[j];
            for (size_t e = 0; e < n_cl && ok; e++)
                ok = lab[cl[2 * e]] != lab[cl[2 * e + 1]];
            if (ok && f < best)
                best = f;
        }
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&a, &r, NULL, &err) == CKM_OK);
        int32_t labels[8];
        ckm_assign_result res;
        CHECK(ckm_assign_solve(&a, cost, NULL, NULL, labels, &res, &err) == CKM_OK);
        if (isinf(best)) {
            infeasible++;
            CHECK(res.status == CKM_BK_INFEASIBLE);
        } else {
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK_NEAR(res.objective, best, 1e-9);
            /* the labels themselves meet every constraint and cost what is reported */
            size_t size[3] = {0, 0, 0};
            double f = 0;
            for (size_t t = 0; t < s; t++) {
                size[labels[t]] += weight[t];
                f += cost[t * k + (size_t)labels[t]];
            }
            for (size_t j = 0; j < k; j++)
                CHECK(size[j] >= lo[j] && size[j] <= hi[j]);
            for (size_t e = 0; e < n_cl; e++)
                CHECK(labels[cl[2 * e]] != labels[cl[2 * e + 1]]);
            CHECK_NEAR(f, best, 1e-9);
            /* warm start from the optimum itself: same optimum */
            int32_t again[8];
            CHECK(ckm_assign_solve(&a, cost, labels, NULL, again, &res, &err) == CKM_OK);
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK_NEAR(res.objective, best, 1e-9);
            res.used_mip ? used_mip++ : lp_only++;
        }
        ckm_assign_free(&a);
    }
    printf("assignment oracle: %d LP-integral, %d via CBC, %d infeasible\n", lp_only, used_mip, infeasible);
    CHECK(used_mip >= 3 && lp_only >= 10 && infeasible >= 3); /* every path exercised */
    return ck_report();
}
