/*
 * test_split_prices.c -- the split route's sized step by prices (src/assign/split_prices.c,
 * route_split.c past CKM_PART_CUTS_MAX groups) against independent truth:
 *   - the priced step alone on tiny sized steps (5-10 groups, 2-4 clusters, weights 1 and 2,
 *     soft pairs and hard cannot-links among a few groups, the rest free; size rows 0-2 points
 *     around a random labelling's sizes, some exact, some infeasible), with the unsized step
 *     done here by enumeration of the bound groups' labellings: its bound is never above the
 *     optimum found by enumerating every labelling with the rows; its labels keep every row and
 *     their objective is their own, recomputed here; a step it calls proven is at that optimum;
 *     at least a third of the feasible steps are proven (so few free groups leave wide
 *     duality gaps: 377 of 756 when written) and some only after branching; infeasible steps
 *     return no labels; a second step on moved costs from the first's prices too;
 *   - the route on tiny sized steps with pairs among two or three of 8-10 groups (the prices
 *     first, then the branch and cut over every group when they prove nothing): every
 *     feasible step proven by the split route at enumeration's optimum, both ways occurring;
 *     on steps of 400 groups with 20 soft pairs, against the full route's CBC optimum;
 *   - the route on steps of 1200 groups (k = 3, squared distances to random centers, soft
 *     pairs and hard cannot-links, exact and ranged sizes), against the full route's CBC
 *     optimum, twice in a row (the prices carried over): proven by the split route itself; and
 *     with every group paired (no free group: no prices), handed on to the full route.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "reduced.h"
#include "reduced_fixture.h"
#include "route_split.h"
#include "split_prices.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t st = 31;
static double unif(void) { return ck_unif(&st); }

enum { SMAX = 10, KMAX = 4 };

typedef struct inst {
    size_t s, k, n, weight[SMAX], cl[16], n_cl, lo[KMAX], hi[KMAX], soft[40], n_soft;
    double soft_w[20], cost[SMAX * KMAX], P;
} inst;

/* costs plus the soft penalty of labels under costs c (INFINITY entries allowed), or
 * INFINITY where a cannot-link is inside a cluster; rows not checked */
static double free_value(const inst *x, const double *c, const int32_t *lab)
{
    double f = 0.0;
    for (size_t e = 0; e < x->n_cl; e++)
        if (lab[x->cl[2 * e]] == lab[x->cl[2 * e + 1]])
            return INFINITY;
    for (size_t t = 0; t < x->s; t++)
        f += c[t * x->k + (size_t)lab[t]];
    for (size_t e = 0; e < x->n_soft; e++)
        if ((lab[x->soft[2 * e]] == lab[x->soft[2 * e + 1]]) != (x->soft_w[e] > 0.0))
            f += x->P * fabs(x->soft_w[e]);
    return f;
}

/* the step's objective of labels: INFINITY outside a row */
static double value(const inst *x, const ckm_reduced *r, const int32_t *lab)
{
    return fixture_feasible(r, lab) ? free_value(x, x->cost, lab) : INFINITY;
}

/* Labellings of the groups listed in idx (m of them) by enumeration, the others as in lab:
 * the least of score(lab), written into lab; INFINITY when none is finite. */
static double enumerate(const inst *x, const size_t *idx, size_t m, double (*score)(const void *, const int32_t *),
                        const void *ctx, int32_t *lab)
{
    size_t total = 1;
    for (size_t i = 0; i < m; i++)
        total *= x->k;
    int32_t cur[SMAX], best_lab[SMAX];
    memcpy(cur, lab, x->s * sizeof(int32_t));
    double best = INFINITY;
    for (size_t code = 0; code < total; code++) {
        size_t c = code;
        for (size_t i = 0; i < m; i++, c /= x->k)
            cur[idx[i]] = (int32_t)(c % x->k);
        double f = score(ctx, cur);
        if (f < best) {
            best = f;
            memcpy(best_lab, cur, sizeof cur);
        }
    }
    if (best < INFINITY)
        memcpy(lab, best_lab, x->s * sizeof(int32_t));
    return best;
}

typedef struct truth_ctx {
    const inst *x;
    const ckm_reduced *r;
} truth_ctx;

static double truth_score(const void *ctx, const int32_t *lab)
{
    const truth_ctx *c = ctx;
    return value(c->x, c->r, lab);
}

/* the optimum over every labelling that keeps the rows (INFINITY: none), one in opt */
static double optimum(const inst *x, const ckm_reduced *r, int32_t *opt)
{
    size_t all[SMAX];
    for (size_t t = 0; t < x->s; t++)
        all[t] = t;
    memset(opt, 0, x->s * sizeof(int32_t));
    truth_ctx c = {x, r};
    return enumerate(x, all, x->s, truth_score, &c, opt);
}

/* The unsized step done here: every labelling of the bound groups under the priced costs, each
 * free group at its cheapest priced cluster; exact, so proven whenever a labelling is finite. */
typedef struct unsized_here {
    const inst *x;
    const ckm_split_prices *P;
    const double *cost;
    size_t calls;
} unsized_here;

static double unsized_score(const void *ctx, const int32_t *lab)
{
    const unsized_here *u = ctx;
    return free_value(u->x, u->cost, lab);
}

static ckm_error unsized(void *ctx, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                         int32_t *labels, bool *proven, bool *timed_out, ckm_err *err)
{
    (void)start;
    (void)lim;
    (void)err;
    unsized_here *u = ctx;
    const inst *x = u->x;
    size_t bound[SMAX], m = 0;
    u->cost = cost;
    u->calls++;
    for (size_t t = 0; t < x->s; t++) {
        labels[t] = 0;
        if (!u->P->isfree[t]) {
            bound[m++] = t;
            continue;
        }
        for (size_t j = 1; j < x->k; j++)
            if (cost[t * x->k + j] < cost[t * x->k + (size_t)labels[t]])
                labels[t] = (int32_t)j;
    }
    *proven = enumerate(x, bound, m, unsized_score, u, labels) < INFINITY;
    *timed_out = false;
    return CKM_OK;
}

/* A tiny sized step (at least s_min groups, k = 4: at most 8): pairs among the first 2 to
 * nb_max groups only (the others free unless of weight 2), rows 0-2 points around a random
 * labelling's sizes, with probability 0.04 infeasible. */
static void random_inst(inst *x, size_t nb_max, size_t s_min)
{
    x->k = 2 + (size_t)(unif() * 3);
    x->s = x->k == 4 ? 5 + (size_t)(unif() * 4) : 5 + (size_t)(unif() * 6);
    x->s = x->s < s_min ? s_min : x->s;
    x->n = 0;
    for (size_t t = 0; t < x->s; t++)
        x->n += x->weight[t] = 1 + (unif() < 0.15);
    size_t nb = 2 + (size_t)(unif() * (double)(nb_max - 1)), pts[KMAX] = {0};
    x->n_cl = x->n_soft = 0;
    for (size_t a = 0; a < nb; a++)
        for (size_t b = a + 1; b < nb; b++) {
            double u = unif();
            if (u < 0.1 && x->n_cl < 8) {
                x->cl[2 * x->n_cl] = a;
                x->cl[2 * x->n_cl++ + 1] = b;
            } else if (u < 0.7 && x->n_soft < 20) {
                x->soft[2 * x->n_soft] = a;
                x->soft[2 * x->n_soft + 1] = b;
                x->soft_w[x->n_soft++] = (unif() < 0.5 ? -1.0 : 1.0) * (0.1 + 0.9 * unif());
            }
        }
    x->P = 0.5 + 5.0 * unif();
    for (size_t c = 0; c < x->s * x->k; c++)
        x->cost[c] = 10.0 * unif();
    for (size_t t = 0; t < x->s; t++)
        pts[(size_t)(unif() * (double)x->k)] += x->weight[t];
    for (size_t j = 0; j < x->k; j++) {
        size_t below = (size_t)(unif() * 3), above = (size_t)(unif() * 3);
        x->lo[j] = pts[j] > below ? pts[j] - below : 0;
        x->hi[j] = pts[j] + above;
    }
    if (unif() < 0.04)
        x->lo[0] = x->n;
}

static ckm_reduced inst_reduced(inst *x)
{
    ckm_reduced r = fixture_reduced(x->s, x->k, x->n, x->weight, x->n_cl, x->cl, x->lo, x->hi);
    r.n_soft = x->n_soft;
    r.soft = x->soft;
    r.soft_w = x->soft_w;
    r.soft_P = x->P;
    return r;
}

typedef struct tally {
    int proven, branched, feasible, infeasible, second;
} tally;

/* One priced step on x from start (or NULL), checked against enumeration. */
static void check_step(inst *x, const ckm_reduced *r, ckm_split_prices *P, const int32_t *start, tally *tl)
{
    int32_t opt[SMAX], labels[SMAX];
    double best = optimum(x, r, opt);
    unsized_here u = {x, P, NULL, 0};
    ckm_split_priced_out out;
    ckm_err err = {CKM_OK, ""};
    ckm_bk_limits none = ckm_bk_no_limits();
    CHECK(ckm_split_prices_step(P, r, x->cost, start, &none, 0.0, unsized, &u, labels, &out, &err) == CKM_OK);
    double tol = 1e-9 * (1.0 + fabs(best));
    CHECK(out.bound <= best + tol || (isinf(best) && !out.have)); /* never above the optimum */
    if (isinf(best)) {
        CHECK(!out.have && !out.proven);
        tl->infeasible++;
        return;
    }
    tl->feasible++;
    if (out.have) {
        CHECK(fixture_feasible(r, labels));
        CHECK_NEAR(value(x, r, labels), out.objective, tol);
        CHECK(out.objective >= best - tol);
    }
    if (out.proven) {
        CHECK(out.have);
        CHECK_NEAR(out.objective, best, tol);
        tl->proven++;
        tl->branched += out.nodes > 1;
    }
    CHECK(out.rounds >= 1 && out.rounds <= 256 && u.calls == out.rounds);
}

static void priced_alone(void)
{
    tally tl = {0, 0, 0, 0, 0};
    for (int it = 0; it < 400; it++) {
        inst x;
        random_inst(&x, 5, 0);
        ckm_reduced r = inst_reduced(&x);
        ckm_split_prices P;
        CHECK(ckm_split_prices_init(&P, &r));
        int32_t opt[SMAX];
        bool feasible = optimum(&x, &r, opt) < INFINITY;
        check_step(&x, &r, &P, it % 3 == 0 && feasible ? opt : NULL, &tl);
        if (feasible) { /* a second step on moved costs from the first's prices */
            for (size_t c = 0; c < x.s * x.k; c++)
                x.cost[c] += 3.0 * unif();
            int before = tl.proven;
            check_step(&x, &r, &P, NULL, &tl);
            tl.second += tl.proven > before;
        }
        ckm_split_prices_free(&P);
    }
    printf("priced alone: %d of %d feasible steps proven (%d after branching, %d second steps), %d infeasible\n",
           tl.proven, tl.feasible, tl.branched, tl.second, tl.infeasible);
    CHECK(tl.proven >= tl.feasible / 3 && tl.branched > 0 && tl.second > 100 && tl.infeasible > 0);
}

/* ---- the route past CKM_PART_CUTS_MAX groups ---- */

static const ckm_assign_want SPLIT = {"split", false, false}, FULL = {"full", false, false};

/* Tiny sized steps through the route with pairs among two or three groups only: the prices
 * first (most groups free), the branch and cut after them when they prove nothing; every
 * feasible step proven by the split route at enumeration's optimum, infeasible ones so
 * reported. */
static void route_tiny(void)
{
    int priced = 0, after = 0, infeasible = 0;
    st = 77;
    for (int it = 0; it < 300; it++) {
        inst x;
        random_inst(&x, 3, 8); /* room for free groups: s >= 8 (k = 4: 8) */
        ckm_reduced r = inst_reduced(&x);
        int32_t opt[SMAX], labels[SMAX];
        for (size_t t = 0; t < x.s; t++)
            opt[t] = 0;
        double best = optimum(&x, &r, opt);
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        ckm_assign_result res;
        CHECK(ckm_assign_init(&a, &r, &SPLIT, &err) == CKM_OK);
        CHECK(ckm_assign_solve(&a, x.cost, it % 3 == 0 && !isinf(best) ? opt : NULL, NULL, labels, &res, &err) ==
              CKM_OK);
        if (isinf(best)) {
            CHECK(res.status == CKM_BK_INFEASIBLE);
            infeasible++;
        } else {
            CHECK(res.status == CKM_BK_OPTIMAL && res.route && strcmp(res.route->name, "split") == 0);
            CHECK_NEAR(res.objective, best, 1e-9 * (1.0 + best));
            CHECK_NEAR(value(&x, &r, labels), best, 1e-9 * (1.0 + best));
            priced += res.stat[CKM_SPLIT_PRICED] > 0;
            after += res.stat[CKM_SPLIT_PRICED] > 0 && res.stat[CKM_SPLIT_WHOLE] == 1;
        }
        ckm_assign_free(&a);
    }
    printf("tiny through the route: %d priced first, %d of them proven by the branch and cut after the prices, %d "
           "infeasible\n",
           priced, after, infeasible);
    CHECK(priced >= 150 && after >= 10 && infeasible > 0);
}

/* Two steps of r by the split route and by the full route's CBC (the second on the costs
 * moved by 2 U, the split route from its first labels and with its prices): both proven, the
 * split route's labels inside the rows at CBC's optimum, its bound (when it solved the step
 * itself) not above it. res: the split route's results. */
static void split_beside_full(const char *name, const ckm_reduced *r, double *cost, int32_t *la, int32_t *lb,
                              ckm_assign_result res[2])
{
    ckm_assign a, b;
    ckm_err err = {CKM_OK, ""};
    ckm_assign_result rb;
    CHECK(ckm_assign_init(&a, r, &SPLIT, &err) == CKM_OK && ckm_assign_init(&b, r, &FULL, &err) == CKM_OK);
    for (int step = 0; step < 2; step++) {
        ckm_assign_result *ra = &res[step];
        if (step == 1)
            for (size_t c = 0; c < r->s * r->k; c++)
                cost[c] += 2.0 * unif();
        CHECK(ckm_assign_solve(&a, cost, step ? la : NULL, NULL, la, ra, &err) == CKM_OK);
        CHECK(ckm_assign_solve(&b, cost, NULL, NULL, lb, &rb, &err) == CKM_OK);
        CHECK(ra->status == CKM_BK_OPTIMAL && rb.status == CKM_BK_OPTIMAL);
        CHECK(fixture_feasible(r, la));
        CHECK_NEAR(ra->objective, rb.objective, 1e-9 * rb.objective);
        bool here = ra->route && strcmp(ra->route->name, "split") == 0;
        CHECK(!here || (ra->has_bound && ra->bound <= rb.objective * (1.0 + 1e-9)));
        printf("%s step %d: optimum %.6f (full route %.6f) by the %s route, %zu rounds, %zu nodes\n", name, step,
               ra->objective, rb.objective, ra->route ? ra->route->name : "?", here ? ra->stat[CKM_SPLIT_PRICED] : 0,
               here ? ra->stat[CKM_SPLIT_PRICE_NODES] : 0);
    }
    ckm_assign_free(&a);
    ckm_assign_free(&b);
}

/* Steps of 400 groups with 20 soft pairs (most groups free: the prices first, the branch and
 * cut over every group after them when they prove nothing), exact and ranged sizes, against
 * the full route's CBC optimum. */
static void route_mid(void)
{
    enum { S = 400, K = 3, M = 20 };
    static double cost[S * K], soft_w[M];
    static size_t weight[S], soft[2 * M], lo[K], hi[K];
    int by_prices = 0, after = 0;
    for (int it = 0; it < 8; it++) {
        double cx[K], cy[K], px, py;
        for (size_t j = 0; j < K; j++) {
            cx[j] = 10.0 * unif();
            cy[j] = 10.0 * unif();
        }
        for (size_t t = 0; t < S; t++) {
            weight[t] = 1;
            px = 10.0 * unif();
            py = 10.0 * unif();
            for (size_t j = 0; j < K; j++)
                cost[t * K + j] = (px - cx[j]) * (px - cx[j]) + (py - cy[j]) * (py - cy[j]);
        }
        for (size_t j = 0; j < K; j++) {
            lo[j] = it % 2 == 0 ? (j == 0 ? 134 : 133) : 120;
            hi[j] = it % 2 == 0 ? lo[j] : 146;
        }
        for (size_t e = 0; e < M; e++) {
            soft[2 * e] = 3 * e;
            soft[2 * e + 1] = 3 * e + 1 + (e % 2);
            soft_w[e] = (unif() < 0.5 ? -1.0 : 1.0) * (0.5 + 0.5 * unif());
        }
        ckm_reduced r = fixture_reduced(S, K, S, weight, 0, NULL, lo, hi);
        r.n_soft = M;
        r.soft = soft;
        r.soft_w = soft_w;
        r.soft_P = 5.0 + 5.0 * it;
        static int32_t la[S], lb[S];
        ckm_assign_result res[2];
        split_beside_full("mid", &r, cost, la, lb, res);
        for (int step = 0; step < 2; step++) {
            CHECK(res[step].route && strcmp(res[step].route->name, "split") == 0 && res[step].stat[CKM_SPLIT_PRICED] >= 1);
            by_prices += res[step].stat[CKM_SPLIT_WHOLE] == 0;
            after += res[step].stat[CKM_SPLIT_WHOLE] == 1;
        }
    }
    printf("mid: %d steps proven by the prices, %d by the branch and cut after them\n", by_prices, after);
    CHECK(by_prices >= 8);
}

static void route_large(void)
{
    enum { S = 1200, K = 3, MMAX = 600, NCL = 10 };
    static double cost[S * K], soft_w[MMAX], pts[S * 2], ctr[K * 2];
    static size_t weight[S], soft[2 * MMAX], cl[2 * NCL], lo[K], hi[K];
    int by_split = 0, handed_on = 0;
    for (int it = 0; it < 3; it++) {
        size_t M = it < 2 ? 60 : MMAX; /* the third: every group paired */
        for (size_t c = 0; c < S * 2; c++)
            pts[c] = 10.0 * unif();
        for (size_t c = 0; c < K * 2; c++)
            ctr[c] = 10.0 * unif();
        for (size_t t = 0; t < S; t++) {
            weight[t] = 1;
            for (size_t j = 0; j < K; j++) {
                double dx = pts[2 * t] - ctr[2 * j], dy = pts[2 * t + 1] - ctr[2 * j + 1];
                cost[t * K + j] = dx * dx + dy * dy;
            }
        }
        for (size_t j = 0; j < K; j++) { /* exact thirds, then 380-420 */
            lo[j] = it == 0 ? S / K : S / K - 20;
            hi[j] = it == 0 ? S / K : S / K + 20;
        }
        for (size_t e = 0; e < NCL; e++) { /* distinct pairs among groups 0-139 (soft) and 140-159 (hard) */
            cl[2 * e] = 140 + 2 * e;
            cl[2 * e + 1] = 141 + 2 * e;
        }
        for (size_t e = 0; e < M; e++) {
            soft[2 * e] = 2 * e;
            soft[2 * e + 1] = 2 * e + 1 + (e % 3 == 0 && M < MMAX ? 2 : 0);
            soft_w[e] = (unif() < 0.5 ? -1.0 : 1.0) * (0.5 + 0.5 * unif());
        }
        ckm_reduced r = fixture_reduced(S, K, S, weight, NCL, cl, lo, hi);
        r.n_soft = M;
        r.soft = soft;
        r.soft_w = soft_w;
        r.soft_P = 20.0;
        static int32_t la[S], lb[S];
        ckm_assign_result res[2];
        split_beside_full("large", &r, cost, la, lb, res);
        for (int step = 0; step < 2; step++) {
            bool here = res[step].route && strcmp(res[step].route->name, "split") == 0;
            by_split += here;
            handed_on += it == 2 && !here;
            CHECK(!here || res[step].stat[CKM_SPLIT_PRICED] >= 1);
        }
    }
    CHECK(by_split >= 3 && handed_on == 2);
}

int main(void)
{
    priced_alone();
    route_tiny();
    route_mid();
    route_large();
    return ck_report();
}
