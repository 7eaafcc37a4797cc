/*
 * test_soft_assign.c -- the exact assignment step with soft pairs (assign.h: PCCC's
 * slack model) against enumeration of every labelling of the super-points on tiny
 * reduced problems: random costs, group weights, hard cannot-links, size bounds, and
 * soft must-links / cannot-links with random confidences. The step's objective and the
 * objective of its labels (costs + P sum |w_e| [violated]) must both equal the least
 * one found by enumeration, over labellings that meet every hard row. Both the LP path
 * and the CBC path must occur. The 1-opt local search (soft_local.c), from a randomly
 * perturbed feasible labelling, must stay feasible, never get worse, and end where no
 * single feasible move improves. Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "soft_local.h"
#include "reduced.h"
#include "reduced_fixture.h"

#include <stdint.h>

static uint64_t st = 11;
static double unif(void) { return ck_unif(&st); }

/* costs + P sum |w_e| [violated], computed here */
static double model_objective(const ckm_reduced *r, const double *cost, const int32_t *lab)
{
    double f = 0;
    for (size_t t = 0; t < r->s; t++)
        f += cost[t * r->k + (size_t)lab[t]];
    for (size_t e = 0; e < r->n_soft; e++)
        if ((lab[r->soft[2 * e]] == lab[r->soft[2 * e + 1]]) != (r->soft_w[e] > 0))
            f += r->soft_P * fabs(r->soft_w[e]);
    return f;
}

int main(void)
{
    int used_mip = 0, lp_only = 0, infeasible = 0, violated_at_opt = 0, searched = 0, searched_moved = 0;
    for (int inst = 0; inst < 150; inst++) {
        size_t s = 4 + (size_t)inst % 5, k = 2 + (size_t)inst % 3, weight[8], cl[16], lo[4], hi[4], soft[40];
        double soft_w[20];
        size_t n = 0;
        for (size_t t = 0; t < s; t++)
            n += weight[t] = 1 + (unif() < 0.3 ? 1 : 0);
        size_t n_cl = 0, n_soft = 0;
        for (int q = 0; q < 3; q++) {
            size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
            if (a == b || unif() < 0.4)
                continue;
            cl[2 * n_cl] = a < b ? a : b;
            cl[2 * n_cl + 1] = a < b ? b : a;
            n_cl++;
        }
        for (int q = 0; q < 12; q++) {
            size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
            bool dup = a == b;
            for (size_t e = 0; e < n_soft && !dup; e++)
                dup = soft[2 * e] == (a < b ? a : b) && soft[2 * e + 1] == (a < b ? b : a);
            if (dup)
                continue;
            soft[2 * n_soft] = a < b ? a : b;
            soft[2 * n_soft + 1] = a < b ? b : a;
            soft_w[n_soft++] = (unif() < 0.5 ? -1.0 : 1.0) * (0.05 + unif());
        }
        for (size_t j = 0; j < k; j++) {
            lo[j] = inst % 3 == 0 ? 0 : (size_t)(unif() * 3);
            hi[j] = inst % 3 == 0 ? n : lo[j] + 1 + (size_t)(unif() * 4);
        }
        ckm_reduced r = fixture_reduced(s, k, n, weight, n_cl, cl, lo, hi);
        r.n_soft = n_soft;
        r.soft = soft;
        r.soft_w = soft_w;
        r.soft_P = 0.5 + 10.0 * unif();
        double cost[32];
        for (size_t c = 0; c < s * k; c++)
            cost[c] = 10.0 * unif();
        /* enumeration */
        double best = INFINITY;
        int best_violates = 0;
        size_t total = 1;
        for (size_t t = 0; t < s; t++)
            total *= k;
        for (size_t code = 0; code < total; code++) {
            size_t c = code, size[4] = {0, 0, 0, 0};
            int32_t lab[8];
            double f = 0;
            for (size_t t = 0; t < s; t++) {
                lab[t] = (int32_t)(c % k);
                c /= k;
                size[lab[t]] += weight[t];
                f += cost[t * k + (size_t)lab[t]];
            }
            bool ok = true;
            for (size_t j = 0; j < k && ok; j++)
                ok = size[j] >= lo[j] && size[j] <= hi[j];
            for (size_t e = 0; e < n_cl && ok; e++)
                ok = lab[cl[2 * e]] != lab[cl[2 * e + 1]];
            if (!ok)
                continue;
            int viol = 0;
            for (size_t e = 0; e < n_soft; e++) {
                bool same = lab[soft[2 * e]] == lab[soft[2 * e + 1]];
                if (same != (soft_w[e] > 0)) {
                    f += r.soft_P * fabs(soft_w[e]);
                    viol++;
                }
            }
            if (f < best) {
                best = f;
                best_violates = viol > 0;
            }
        }
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&a, &r, NULL, &err) == CKM_OK);
        int32_t labels[8];
        ckm_assign_result res;
        CHECK(ckm_assign_solve(&a, cost, NULL, NULL, labels, &res, &err) == CKM_OK);
        if (isinf(best)) {
            CHECK(res.status == CKM_BK_INFEASIBLE);
            infeasible++;
        } else {
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK_NEAR(res.objective, best, 1e-7 * (1.0 + best));
            /* the labels' own objective, recomputed here */
            double f = 0;
            for (size_t t = 0; t < s; t++)
                f += cost[t * k + (size_t)labels[t]];
            for (size_t e = 0; e < n_soft; e++)
                if ((labels[soft[2 * e]] == labels[soft[2 * e + 1]]) != (soft_w[e] > 0))
                    f += r.soft_P * fabs(soft_w[e]);
            CHECK_NEAR(f, best, 1e-7 * (1.0 + best));
            res.used_mip ? used_mip++ : lp_only++;
            violated_at_opt += best_violates;
        }
        ckm_assign_free(&a);
        /* 1-opt local search (soft_local.c) from a feasible labelling: stays feasible, never
         * worse, and no single feasible move improves it afterwards */
        if (!isinf(best)) {
            int32_t lab[8];
            memcpy(lab, labels, sizeof lab);
            for (size_t t = 0; t < s; t++) { /* perturb within the hard rows: try a random move */
                size_t j = (size_t)(unif() * (double)k), from = (size_t)lab[t];
                lab[t] = (int32_t)j;
                if (!fixture_feasible(&r, lab))
                    lab[t] = (int32_t)from;
            }
            double f0 = model_objective(&r, cost, lab);
            size_t moves;
            CHECK(ckm_soft_local_search(&r, cost, INFINITY, lab, &moves));
            double f1 = model_objective(&r, cost, lab);
            CHECK(fixture_feasible(&r, lab) && f1 <= f0 + 1e-12);
            bool improvable = false;
            for (size_t t = 0; t < s && !improvable; t++)
                for (size_t j = 0; j < k && !improvable; j++) {
                    int32_t keep = lab[t];
                    lab[t] = (int32_t)j;
                    improvable = fixture_feasible(&r, lab) && model_objective(&r, cost, lab) < f1 - 1e-9 * (1 + f1);
                    lab[t] = keep;
                }
            CHECK(!improvable);
            searched++;
            searched_moved += moves > 0;
        }
    }
    printf("%d solved by the LP, %d needed CBC, %d infeasible, %d optima violate a soft pair\n", lp_only, used_mip,
           infeasible, violated_at_opt);
    printf("local search from %d perturbed optima: %d moved\n", searched, searched_moved);
    CHECK(used_mip > 0 && lp_only > 0 && violated_at_opt > 10 && searched_moved > 20);
    return ck_report();
}
