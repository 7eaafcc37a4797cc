/*
 * test_soft_assign.c -- the exact assignment step with soft pairs (assign.h: PCCC's
 * slack model) against enumeration of every labelling of the super-points on tiny
 * reduced problems: random costs, group weights, hard cannot-links, size bounds, and
 * soft must-links / cannot-links with random confidences. The step's objective and the
 * objective of its labels (costs + P sum |w_e| [violated]) must both equal the least
 * one found by enumeration, over labellings that meet every hard row, by the route the
 * chooser picks (the split route, with size bounds its one branch and cut) and by the full
 * model, where both the LP path and the CBC path must occur. The 1-opt local search (soft_local.c), from a randomly
 * perturbed feasible labelling, must stay feasible, never get worse, and end where no
 * single feasible move improves. The greedy start (ckm_soft_greedy_start) keeps every hard
 * row whenever it labels, labels every unit-weight step without cannot-links whose size
 * bounds admit s, and takes both its fallbacks on a hand-made case. Internal-contract test
 * (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "soft_local.h"
#include "reduced.h"
#include "reduced_fixture.h"

#include <stdint.h>

static uint64_t st = 11;
static const ckm_assign_want FULL = {"full", false, false};
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

/* the fixture's reduced problem with soft pairs (n_soft pairs in soft, confidences soft_w) */
static ckm_reduced soft_fixture(size_t s, size_t k, size_t n, size_t *weight, size_t n_cl, size_t *cl,
                                const size_t *lo, const size_t *hi, size_t n_soft, size_t *soft, double *soft_w,
                                double P)
{
    ckm_reduced r = fixture_reduced(s, k, n, weight, n_cl, cl, lo, hi);
    r.n_soft = n_soft;
    r.soft = soft;
    r.soft_w = soft_w;
    r.soft_P = P;
    return r;
}

/* The greedy start (soft_local.c, ckm_soft_greedy_start) on a hand-made case that needs both
 * of its fallbacks: groups g0..g3, clusters A, B with lo_B = 2; by regret g0 -> A, g1 -> B,
 * g2 -> A; g3 must fill B but is cannot-linked to g1, so it goes to A and the second phase
 * moves g2 (increase 5; g0 would cost 10) into B. Costs 0 + 0 + 5 + 0. */
static void greedy_by_hand(void)
{
    size_t weight[4] = {1, 1, 1, 1}, cl[2] = {1, 3}, lo[2] = {0, 2}, hi[2] = {4, 4}, soft[2] = {0, 2};
    double cost[8] = {0, 10, 10, 0, 0, 5, 0, 1}, soft_w[1] = {1.0};
    ckm_reduced r = soft_fixture(4, 2, 4, weight, 1, cl, lo, hi, 0, soft, soft_w, 1.0); /* its pair below */
    int32_t lab[4];
    CHECK(ckm_soft_greedy_start(&r, cost, lab));
    CHECK(fixture_feasible(&r, lab));
    CHECK(lab[0] == 0 && lab[1] == 1 && lab[2] == 1 && lab[3] == 0);
    /* with a soft must-link g0-g2 (P |w| = 6) g2 still takes A first (B would cost it 5 + 6)
       and is moved by the second phase: every hard row kept */
    r.n_soft = 1;
    soft_w[0] = 6.0;
    CHECK(ckm_soft_greedy_start(&r, cost, lab));
    CHECK(fixture_feasible(&r, lab));
}

/* Random tiny steps: whenever the greedy start returns a labelling it keeps every hard row;
 * with unit weights, no cannot-links and sum lo <= s <= sum hi it always returns one. */
static void greedy_random(void)
{
    int promised = 0, returned = 0, tried = 0;
    for (int inst = 0; inst < 400; inst++) {
        size_t s = 2 + (size_t)(unif() * 7), k = 1 + (size_t)(unif() * 4), weight[8], cl[16], lo[4], hi[4], soft[16];
        double soft_w[8], cost[32];
        size_t n = 0, n_cl = 0, sum_lo = 0, sum_hi = 0;
        bool unit = inst % 2 == 0;
        for (size_t t = 0; t < s; t++)
            n += weight[t] = unit ? 1 : 1 + (unif() < 0.3 ? 1 : 0);
        for (int q = 0; q < 4 && !unit; q++) {
            size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
            if (a == b)
                continue;
            cl[2 * n_cl] = a < b ? a : b;
            cl[2 * n_cl++ + 1] = a < b ? b : a;
        }
        for (size_t j = 0; j < k; j++) {
            lo[j] = (size_t)(unif() * (double)(n / k + 1));
            hi[j] = lo[j] + (size_t)(unif() * (double)n);
            sum_lo += lo[j];
            sum_hi += hi[j];
        }
        size_t n_soft = 0;
        for (int q = 0; q < 6; q++) {
            size_t a = (size_t)(unif() * (double)s), b = (size_t)(unif() * (double)s);
            if (a == b)
                continue;
            soft[2 * n_soft] = a < b ? a : b;
            soft[2 * n_soft + 1] = a < b ? b : a;
            soft_w[n_soft++] = (unif() < 0.5 ? -1.0 : 1.0) * (0.05 + unif());
        }
        for (size_t c = 0; c < s * k; c++)
            cost[c] = 10.0 * unif();
        ckm_reduced r = soft_fixture(s, k, n, weight, n_cl, cl, lo, hi, n_soft, soft, soft_w, 0.5 + 5.0 * unif());
        int32_t lab[8];
        tried++;
        bool got = ckm_soft_greedy_start(&r, cost, lab);
        if (got) {
            returned++;
            CHECK(fixture_feasible(&r, lab));
        }
        if (unit && sum_lo <= s && s <= sum_hi) {
            promised++;
            CHECK(got);
        }
    }
    printf("greedy start: %d of %d random steps labelled, %d of them promised\n", returned, tried, promised);
    CHECK(promised > 100 && returned > promised);
}

int main(void)
{
    greedy_by_hand();
    greedy_random();
    int used_mip = 0, lp_only = 0, infeasible = 0, violated_at_opt = 0, searched = 0, searched_moved = 0, by_split = 0;
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
        ckm_reduced r = soft_fixture(s, k, n, weight, n_cl, cl, lo, hi, n_soft, soft, soft_w, 0.5 + 10.0 * unif());
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
        int32_t labels[8];
        /* the chooser's route (the split route takes these: sized or not) and the full model's
           (CLP, then CBC where its LP is fractional) */
        for (int full = 0; full < 2; full++) {
            ckm_assign a;
            ckm_err err = {CKM_OK, ""};
            ckm_assign_result res;
            CHECK(ckm_assign_init(&a, &r, full ? &FULL : NULL, &err) == CKM_OK);
            CHECK(ckm_assign_solve(&a, cost, NULL, NULL, labels, &res, &err) == CKM_OK);
            if (isinf(best)) {
                CHECK(res.status == CKM_BK_INFEASIBLE);
                infeasible += full;
            } else {
                CHECK(res.status == CKM_BK_OPTIMAL);
                CHECK_NEAR(res.objective, best, 1e-7 * (1.0 + best));
                CHECK_NEAR(model_objective(&r, cost, labels), best, 1e-7 * (1.0 + best)); /* the labels' own */
                if (full)
                    res.used_mip ? used_mip++ : lp_only++;
                else
                    by_split += res.route && strcmp(res.route->name, "split") == 0;
                violated_at_opt += full && best_violates;
            }
            ckm_assign_free(&a);
        }
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
    printf("full model: %d solved by the LP, %d needed CBC, %d infeasible, %d optima violate a soft pair; the "
           "chooser's: %d by the split route\n",
           lp_only, used_mip, infeasible, violated_at_opt, by_split);
    printf("local search from %d perturbed optima: %d moved\n", searched, searched_moved);
    CHECK(used_mip > 0 && lp_only > 0 && violated_at_opt > 10 && searched_moved > 20 && by_split > 100);
    return ck_report();
}
