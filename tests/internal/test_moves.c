/*
 * test_moves.c -- one-group moves (src/lloyd/moves.c) against what they must give:
 *   - a hand-computed case where Lloyd's iteration is stuck and one move is not: points 0, 2
 *     and 3.1 on a line in clusters {0, 2} and {3.1} (every point nearest to its own center,
 *     SSE 2); moving 2 gives {0} and {2, 3.1}, SSE 0.605;
 *   - random small instances (masses, must-link groups as weighted means, cannot-links),
 *     from random starts that meet the cannot-links: the SSE, recomputed here from scratch,
 *     never rises; no cannot-link is broken; no cluster is emptied; and no single allowed
 *     move of one group lowers the SSE (checked by recomputing the SSE of every such move:
 *     the result is a local optimum of the rule, whatever formula the code uses).
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "moves.h"
#include "reduced.h"

#include <stdint.h>

static uint64_t st = 5;

/* the SSE of group labels computed plainly: sum_t m_t ||x_t - c_l(t)||^2 (scatter 0) */
static double plain_sse(const ckm_reduced *r, const int32_t *lab)
{
    size_t d = r->d, k = r->k;
    double W[8] = {0}, C[8 * 4] = {0}, f = 0.0;
    for (size_t t = 0; t < r->s; t++) {
        W[lab[t]] += r->mass[t];
        for (size_t g = 0; g < d; g++)
            C[lab[t] * d + g] += r->mass[t] * r->mean[t * d + g];
    }
    for (size_t j = 0; j < k; j++)
        for (size_t g = 0; g < d && W[j] > 0.0; g++)
            C[j * d + g] /= W[j];
    for (size_t t = 0; t < r->s; t++)
        for (size_t g = 0; g < d; g++) {
            double v = r->mean[t * d + g] - C[lab[t] * d + g];
            f += r->mass[t] * v * v;
        }
    return f;
}

static bool meets(const ckm_reduced *r, const int32_t *lab)
{
    for (size_t e = 0; e < r->n_cl; e++)
        if (lab[r->cl[2 * e]] == lab[r->cl[2 * e + 1]])
            return false;
    return true;
}

static size_t nonempty(const ckm_reduced *r, const int32_t *lab)
{
    size_t cnt[8] = {0}, m = 0;
    for (size_t t = 0; t < r->s; t++)
        cnt[lab[t]]++;
    for (size_t j = 0; j < r->k; j++)
        m += cnt[j] > 0;
    return m;
}

static ckm_reduced make(size_t s, size_t d, size_t k, double *mean, double *mass, size_t n_cl, size_t *cl)
{
    ckm_reduced r;
    memset(&r, 0, sizeof r);
    r.s = r.n = s;
    r.d = d;
    r.k = k;
    r.mean = mean;
    r.mass = mass;
    r.n_cl = n_cl;
    r.cl = cl;
    return r;
}

static void hand_case(void)
{
    double x[3] = {0.0, 2.0, 3.1}, m[3] = {1.0, 1.0, 1.0};
    ckm_reduced r = make(3, 1, 2, x, m, 0, NULL);
    int32_t lab[3] = {0, 0, 1};
    CHECK_NEAR(plain_sse(&r, lab), 2.0, 1e-12);
    long moves = ckm_group_moves(&r, lab, 50);
    CHECK(moves == 1);
    CHECK(lab[0] == 0 && lab[1] == 1 && lab[2] == 1);
    CHECK_NEAR(plain_sse(&r, lab), 0.605, 1e-12);
    /* a cannot-link between 2 and 3.1 forbids that move: nothing else lowers the SSE */
    size_t cl[2] = {1, 2};
    ckm_reduced rc = make(3, 1, 2, x, m, 1, cl);
    int32_t lab2[3] = {0, 0, 1};
    CHECK(ckm_group_moves(&rc, lab2, 50) == 0);
    CHECK(lab2[1] == 0);
}

/* whether some allowed single move lowers the SSE of lab by more than a relative 1e-9 */
static bool improvable(const ckm_reduced *r, int32_t *lab)
{
    double f = plain_sse(r, lab);
    size_t cnt[8] = {0};
    for (size_t t = 0; t < r->s; t++)
        cnt[lab[t]]++;
    for (size_t t = 0; t < r->s; t++) {
        int32_t a = lab[t];
        if (cnt[a] < 2)
            continue;
        for (int32_t b = 0; b < (int32_t)r->k; b++) {
            if (b == a)
                continue;
            lab[t] = b;
            bool ok = meets(r, lab);
            double g = plain_sse(r, lab);
            lab[t] = a;
            if (ok && g < f - 1e-9 * f)
                return true;
        }
    }
    return false;
}

static void random_cases(void)
{
    int checked = 0;
    for (int rep = 0; rep < 400; rep++) {
        size_t s = 4 + (size_t)(ck_unif(&st) * 9), d = 1 + (size_t)(ck_unif(&st) * 3),
               k = 2 + (size_t)(ck_unif(&st) * 3);
        double mean[12 * 4], mass[12];
        for (size_t t = 0; t < s; t++) {
            mass[t] = rep % 2 ? 0.2 + 3.0 * ck_unif(&st) : 1.0;
            for (size_t g = 0; g < d; g++)
                mean[t * d + g] = 4.0 * ck_unif(&st) + (t % 3 == 0 ? 3.0 : 0.0);
        }
        size_t cl[2 * 6], n_cl = rep % 3 == 0 ? 0 : (size_t)(ck_unif(&st) * 4);
        for (size_t e = 0; e < n_cl; e++) {
            size_t a = (size_t)(ck_unif(&st) * (double)s), b = (size_t)(ck_unif(&st) * (double)s);
            if (a == b)
                b = (a + 1) % s;
            cl[2 * e] = a < b ? a : b;
            cl[2 * e + 1] = a < b ? b : a;
        }
        ckm_reduced r = make(s, d, k, mean, mass, n_cl, cl);
        int32_t lab[12];
        bool found = false;
        for (int tries = 0; tries < 50 && !found; tries++) {
            for (size_t t = 0; t < s; t++)
                lab[t] = (int32_t)(ck_unif(&st) * (double)k);
            found = meets(&r, lab);
        }
        if (!found)
            continue;
        double f0 = plain_sse(&r, lab);
        size_t ne = nonempty(&r, lab);
        long moves = ckm_group_moves(&r, lab, 1000);
        CHECK(moves >= 0);
        double f1 = plain_sse(&r, lab);
        CHECK(f1 <= f0 + 1e-12 * f0);
        CHECK(meets(&r, lab));
        CHECK(nonempty(&r, lab) >= ne);
        CHECK(!improvable(&r, lab));
        checked++;
    }
    CHECK(checked > 300);
    printf("moves: %d random instances at a local optimum of single moves\n", checked);
}

int main(void)
{
    hand_case();
    random_cases();
    return ck_report();
}
