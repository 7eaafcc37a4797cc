/*
 * test_route_split.c -- the split route of the assignment step (src/assign/route_split.c) and
 * its exact search per part (split_search.c) against independent truth:
 *   - the search alone on random parts (up to 8 groups, 3 clusters, forbidden clusters, soft
 *     must-/cannot-links, hard cannot-links, a second edge beside some: a soft pair next to
 *     a hard one or two soft pairs on the same groups): its value equals enumeration of every labelling,
 *     the labels' own value is recomputed here, a search cut by a node budget reports not
 *     done and a value never below the optimum, a search with budget 0 still labels a
 *     feasible part (its first labelling), and the rows come back unchanged every time;
 *   - the branch and cut alone (part_cuts.c) on random dense parts (up to 12 groups, k = 2
 *     and 3): its value equals enumeration, with one LP it is never below the optimum; on
 *     parts of 24 groups it equals the search run to its end;
 *   - the tabu search (part_tabu.c) on the same random parts from a random labelling that
 *     keeps the hard rows: the value it reports is the labels' own, recomputed here, never
 *     above the start's; its labels keep every hard row, admit no single move that lowers F,
 *     and reach the enumerated optimum on at least 95 % of the parts without hard
 *     cannot-links; the branch and cut above runs with and without it (without: the branching);
 *   - the same three on sized parts (split_search.h: groups of 1 or 2 points, size rows 0-2
 *     points around a random labelling's sizes, some exact, some infeasible): the branch and
 *     cut against enumeration with the rows, the tabu search's labels inside the rows;
 *   - the route on tiny steps (4-9 groups, 2-4 clusters, lower size bounds 0 or 1, hard
 *     cannot-links, soft pairs, costs with clear favourites so that dominance fixes groups):
 *     its objective and the labels' recomputed one equal enumeration over the labellings that
 *     keep every hard row; infeasible steps say so; steps it proved itself, steps with groups
 *     fixed by dominance, with two or more parts, and steps it handed on (a cluster left
 *     empty) are counted and required to occur;
 *   - tiny sized steps (bounds 0-2 points around a random labelling's sizes): every feasible
 *     one proven by the split route itself (its one branch and cut; the few with most groups
 *     unpaired by its prices first, test_split_prices.c) at enumeration's optimum,
 *     infeasible ones reported infeasible;
 *   - medium steps (300 groups, 8 clusters, squared distances to random centers, 120 soft
 *     pairs and 15 hard cannot-links): the full route's CBC optimum, whether the split route
 *     proved the step (required twice of three) or handed it on past its work budget.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "part_cuts.h"
#include "part_tabu.h"
#include "reduced.h"
#include "reduced_fixture.h"
#include "route_split.h"
#include "split_search.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint64_t st = 23;
static double unif(void) { return ck_unif(&st); }

/* ---- the search alone ---- */

/* F(lab) of a part, computed here from its definition (a sized part: INFINITY where a
 * cluster's points leave its row) */
static double part_value_here(const ckm_part *pt, const double *a, const int32_t *lab)
{
    double f = 0.0;
    if (pt->w) {
        size_t pts[4] = {0};
        for (size_t i = 0; i < pt->m; i++)
            pts[lab[i]] += pt->w[i];
        for (size_t j = 0; j < pt->k; j++)
            if (pts[j] < pt->lo[j] || pts[j] > pt->hi[j])
                return INFINITY;
    }
    for (size_t i = 0; i < pt->m; i++) {
        f += a[i * pt->k + (size_t)lab[i]];
        for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
            size_t u = pt->nbr[q];
            bool same = lab[u] == lab[i];
            if (u < i)
                continue;
            if (pt->kind[q] == CKM_EDGE_HARD && same)
                return INFINITY;
            if ((pt->kind[q] == CKM_EDGE_MUST && !same) || (pt->kind[q] == CKM_EDGE_CANNOT && same))
                f += pt->p[q];
        }
    }
    return f;
}

/* The least value(ctx, l) over every labelling l of m <= 12 groups into k clusters, by
 * enumeration; opt (or NULL) gets one labelling that has it. */
static double enumerate(size_t m, size_t k, double (*value)(const void *ctx, const int32_t *lab), const void *ctx,
                        int32_t *opt)
{
    double best = INFINITY;
    size_t total = 1;
    for (size_t i = 0; i < m; i++)
        total *= k;
    for (size_t code = 0; code < total; code++) {
        int32_t lab[12];
        size_t c = code;
        for (size_t i = 0; i < m; i++, c /= k)
            lab[i] = (int32_t)(c % k);
        double f = value(ctx, lab);
        if (f < best) {
            best = f;
            if (opt)
                memcpy(opt, lab, m * sizeof(int32_t));
        }
    }
    return best;
}

typedef struct part_ctx {
    const ckm_part *pt;
    const double *a;
} part_ctx;

static double part_ctx_value(const void *ctx, const int32_t *lab)
{
    const part_ctx *c = ctx;
    return part_value_here(c->pt, c->a, lab);
}

/* The least F over every labelling of part pt (m <= 12) with the costs a, by enumeration. */
static double enumerate_best(const ckm_part *pt, const double *a)
{
    part_ctx c = {pt, a};
    return enumerate(pt->m, pt->k, part_ctx_value, &c, NULL);
}

/* How random_part draws: a pair's probability, a cluster forbidden, a pair hard, a second
 * pair beside one, and the scale of the penalties. */
typedef struct part_mix {
    double dens, forbid, hard, par, scale;
} part_mix;

/* A random part of m <= 12 groups into a, start, nbr, p, kind: costs 10 U (INFINITY with
 * probability forbid), each pair of groups an edge with probability dens (hard, else a soft
 * must- or cannot-link of penalty scale U), some with a second soft edge beside. Returns the
 * edge entries (each edge twice). */
static size_t random_part(size_t m, size_t k, const part_mix *mx, double *a, size_t *start, size_t *nbr, double *p,
                          unsigned char *kind)
{
    enum { MM = 12 };
    bool edge[MM][MM] = {{false}}, par[MM][MM] = {{false}};
    unsigned char ek[MM][MM], pk[MM][MM];
    double ep[MM][MM], pp[MM][MM];
    for (size_t c = 0; c < m * k; c++)
        a[c] = unif() < mx->forbid ? INFINITY : 10.0 * unif();
    for (size_t i = 0; i < m; i++)
        for (size_t j = i + 1; j < m; j++)
            if (unif() < mx->dens) {
                edge[i][j] = edge[j][i] = true;
                ek[i][j] = ek[j][i] = (unsigned char)(unif() < mx->hard ? CKM_EDGE_HARD : unif() < 0.5 ? CKM_EDGE_MUST
                                                                                                   : CKM_EDGE_CANNOT);
                ep[i][j] = ep[j][i] = ek[i][j] == CKM_EDGE_HARD ? 0.0 : mx->scale * unif();
                if (unif() < mx->par) {
                    par[i][j] = par[j][i] = true;
                    pk[i][j] = pk[j][i] = (unsigned char)(unif() < 0.5 ? CKM_EDGE_MUST : CKM_EDGE_CANNOT);
                    pp[i][j] = pp[j][i] = mx->scale * unif();
                }
            }
    size_t ne = 0;
    for (size_t i = 0; i < m; i++) {
        start[i] = ne;
        for (size_t j = 0; j < m; j++)
            if (edge[i][j]) {
                nbr[ne] = j;
                kind[ne] = ek[i][j];
                p[ne++] = ep[i][j];
                if (par[i][j]) {
                    nbr[ne] = j;
                    kind[ne] = pk[i][j];
                    p[ne++] = pp[i][j];
                }
            }
    }
    start[m] = ne;
    return ne;
}

static void search_alone(void)
{
    int cut_seen = 0, infeasible = 0, first_seen = 0;
    for (int it = 0; it < 300; it++) {
        size_t m = 1 + (size_t)(unif() * 8), k = 1 + (size_t)(unif() * 3);
        double a[24], a0[24], p[128];
        size_t start[9], nbr[128];
        unsigned char kind[128];
        const part_mix mx = {0.5, 0.1, 0.15, 0.2, 8.0};
        size_t ne = random_part(m, k, &mx, a, start, nbr, p, kind);
        memcpy(a0, a, sizeof a);
        ckm_part pt = {m, k, a, start, nbr, p, kind, NULL, NULL, NULL};
        double best = enumerate_best(&pt, a0);
        int32_t lab[8];
        ckm_part_result res;
        CHECK(ckm_part_search(&pt, NULL, SIZE_MAX, NULL, lab, &res));
        CHECK(res.done);
        CHECK(memcmp(a, a0, m * k * sizeof(double)) == 0);
        if (isinf(best)) {
            CHECK(isinf(res.value));
            infeasible++;
        } else {
            CHECK_NEAR(res.value, best, 1e-9 * (1.0 + best));
            CHECK_NEAR(part_value_here(&pt, a0, lab), best, 1e-9 * (1.0 + best));
            CHECK_NEAR(ckm_part_value(&pt, lab), best, 1e-9 * (1.0 + best));
        }
        /* budget 0: no search but the first labelling, found whenever the whole search took no
           more than the four dives' work it is allowed (it follows the same tree up to there) */
        ckm_part_result first;
        size_t dives = 4 * (m * m + ne) * k;
        CHECK(ckm_part_search(&pt, NULL, 0, NULL, lab, &first));
        CHECK(memcmp(a, a0, m * k * sizeof(double)) == 0);
        if (!isinf(best) && res.work <= dives) {
            first_seen++;
            CHECK(!isinf(first.value));
            CHECK(first.value >= best - 1e-9 * (1.0 + best));
            CHECK_NEAR(part_value_here(&pt, a0, lab), first.value, 1e-9 * (1.0 + first.value));
        }
        /* cut by a budget of 2 nodes: not done (when it needed more), never below the optimum */
        ckm_part_result cut;
        CHECK(ckm_part_search(&pt, NULL, 2, NULL, lab, &cut));
        CHECK(memcmp(a, a0, m * k * sizeof(double)) == 0);
        if (!cut.done) {
            cut_seen++;
            CHECK(cut.value >= best - 1e-9 * (1.0 + fabs(best)) || isinf(best));
            if (!isinf(cut.value))
                CHECK_NEAR(part_value_here(&pt, a0, lab), cut.value, 1e-9 * (1.0 + cut.value));
        }
    }
    printf("search alone: %d infeasible parts, %d searches cut by the budget, %d first labellings\n", infeasible,
           cut_seen, first_seen);
    CHECK(infeasible > 0 && cut_seen > 0 && first_seen > 100);
}

/* ---- branch and cut on a part (part_cuts.c) ---- */

/* A random part of m <= 12 groups and k <= 3 clusters drawn by mx, its costs' copy and its
 * optimum by enumeration (pt points into the case: used in place). */
typedef struct dense_case {
    double a[36], a0[36], p[300], best;
    size_t start[13], nbr[300], w[12], lo[4], hi[4];
    unsigned char kind[300];
    ckm_part pt;
} dense_case;

static void dense_draw(dense_case *c, size_t m, size_t k, const part_mix *mx)
{
    random_part(m, k, mx, c->a, c->start, c->nbr, c->p, c->kind);
    memcpy(c->a0, c->a, m * k * sizeof(double));
    c->pt = (ckm_part){m, k, c->a, c->start, c->nbr, c->p, c->kind, NULL, NULL, NULL};
    c->best = enumerate_best(&c->pt, c->a0);
}

/* A sized case: dense_draw's part with group sizes 1 or 2 and size rows around the sizes of a
 * random labelling (within 0-2 points either side, some exact), so most are feasible; with
 * probability 0.05 the lower bounds sum past the points (infeasible). */
static void sized_draw(dense_case *c, size_t m, size_t k, const part_mix *mx)
{
    dense_draw(c, m, k, mx);
    size_t pts[4] = {0}, n = 0;
    for (size_t i = 0; i < m; i++) {
        c->w[i] = 1 + (unif() < 0.25);
        pts[(size_t)(unif() * (double)k)] += c->w[i];
        n += c->w[i];
    }
    for (size_t j = 0; j < k; j++) {
        size_t below = (size_t)(unif() * 3), above = (size_t)(unif() * 3);
        c->lo[j] = pts[j] > below ? pts[j] - below : 0;
        c->hi[j] = pts[j] + above;
        if (unif() < 0.05)
            c->lo[j] = n;
    }
    c->pt.w = c->w;
    c->pt.lo = c->lo;
    c->pt.hi = c->hi;
    c->best = enumerate_best(&c->pt, c->a0);
}

/* ckm_part_cuts against enumeration of every labelling: dense parts (the frustrated cycles
 * its cuts are for), k = 2 (odd cycles) and k = 3 (triangles only), hard cannot-links,
 * forbidden clusters, parallel edges; with an ample LP budget it proves the optimum, with one
 * LP it is never below it; the rows come back unchanged. */
static void cuts_alone(bool sized)
{
    int branched = 0, infeasible = 0, cut_short = 0;
    for (int it = 0; it < 160; it++) {
        size_t k = it % 4 == 3 ? 3 : 2, m = 2 + (size_t)(unif() * (k == 2 ? 11 : 7));
        const part_mix mx = {0.4 + 0.6 * unif(), 0.05, 0.08, 0.1, 10.0};
        dense_case dc;
        (sized ? sized_draw : dense_draw)(&dc, m, k, &mx);
        ckm_part pt = dc.pt;
        double *a = dc.a, *a0 = dc.a0, best = dc.best;
        int32_t lab[12];
        ckm_part_result res;
        ckm_err err = {CKM_OK, ""};
        for (int tabu = 0; tabu < 2; tabu++) { /* without: the branching; with: the route's */
            CHECK(ckm_part_cuts(&pt, NULL, 100000, tabu, NULL, NULL, lab, &res, &err) == CKM_OK);
            CHECK(res.done);
            CHECK(memcmp(a, a0, m * k * sizeof(double)) == 0);
            branched += !tabu && res.nodes > 1;
            if (isinf(best)) {
                infeasible += !tabu;
                CHECK(isinf(res.value));
            } else {
                CHECK_NEAR(res.value, best, 1e-9 * (1.0 + best));
                CHECK_NEAR(part_value_here(&pt, a0, lab), best, 1e-9 * (1.0 + best));
            }
        }
        ckm_part_result one;
        CHECK(ckm_part_cuts(&pt, NULL, 1, false, NULL, NULL, lab, &one, &err) == CKM_OK);
        if (!one.done) {
            cut_short++;
            CHECK(isinf(best) || one.value >= best - 1e-9 * (1.0 + best));
        } else {
            CHECK(isinf(best) ? isinf(one.value) : fabs(one.value - best) <= 1e-9 * (1.0 + best));
        }
    }
    printf("branch and cut alone%s: %d of 160 parts branched, %d infeasible, %d cut short by one LP\n",
           sized ? " (size rows)" : "", branched, infeasible, cut_short);
    CHECK(branched > 0 && infeasible > 0 && cut_short > 0);
}

/* Larger parts (24 groups, k = 2 and 3, half the pairs present): ckm_part_cuts against the
 * depth-first search run to its end (the odd cycles and the multicut cycles' shortest paths
 * on graphs with long zero-weight chains, which enumeration cannot reach). */
static void cuts_larger(void)
{
    enum { M = 24, K = 3, E = M * (M - 1) };
    static double a[M * K], p[E];
    static size_t start[M + 1], nbr[E];
    static unsigned char kind[E];
    for (int it = 0; it < 6; it++) {
        size_t k = it % 2 ? 3 : 2, ne = 0;
        bool edge[M][M] = {{false}};
        double ep[M][M];
        unsigned char ek[M][M];
        for (size_t c = 0; c < M * k; c++)
            a[c] = 10.0 * unif();
        for (size_t i = 0; i < M; i++)
            for (size_t j = i + 1; j < M; j++)
                if (unif() < 0.5) {
                    edge[i][j] = edge[j][i] = true;
                    ek[i][j] = ek[j][i] = (unsigned char)(unif() < 0.5 ? CKM_EDGE_MUST : CKM_EDGE_CANNOT);
                    ep[i][j] = ep[j][i] = 6.0 * unif();
                }
        for (size_t i = 0; i < M; i++) {
            start[i] = ne;
            for (size_t j = 0; j < M; j++)
                if (edge[i][j]) {
                    nbr[ne] = j;
                    kind[ne] = ek[i][j];
                    p[ne++] = ep[i][j];
                }
        }
        start[M] = ne;
        ckm_part pt = {M, k, a, start, nbr, p, kind, NULL, NULL, NULL};
        int32_t ls[M], lc[M];
        ckm_part_result rs, rc;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_part_search(&pt, NULL, SIZE_MAX, NULL, ls, &rs));
        CHECK(rs.done);
        for (int tabu = 0; tabu < 2; tabu++) {
            CHECK(ckm_part_cuts(&pt, NULL, 100000, tabu, NULL, NULL, lc, &rc, &err) == CKM_OK);
            CHECK(rc.done);
            CHECK_NEAR(rc.value, rs.value, 1e-9 * (1.0 + rs.value));
            CHECK_NEAR(ckm_part_value(&pt, lc), rs.value, 1e-9 * (1.0 + rs.value));
        }
        printf("larger part %d (k = %zu, %zu pairs): optimum %.6f, search %zu nodes, branch and cut %zu nodes, %zu LPs\n",
               it, k, ne / 2, rs.value, rs.nodes, rc.nodes, rc.work);
    }
}

/* ---- the tabu search on a part (part_tabu.c) ---- */

/* Whether some single move (one group to another cluster) lowers F(lab) below f. */
static bool single_move_lowers(const ckm_part *pt, const double *a, int32_t *lab, double f)
{
    for (size_t i = 0; i < pt->m; i++) {
        int32_t l = lab[i];
        for (size_t j = 0; j < pt->k; j++) {
            lab[i] = (int32_t)j;
            double g = part_value_here(pt, a, lab);
            lab[i] = l;
            if (g < f - 1e-9 * (1.0 + fabs(f)))
                return true;
        }
    }
    return false;
}

static void tabu_alone(bool sized)
{
    int tried = 0, moved = 0, free_tried = 0, free_optimal = 0, hard_optimal = 0;
    for (int it = 0; it < 400; it++) {
        size_t k = 2 + (size_t)(unif() * 2), m = 2 + (size_t)(unif() * (k == 2 ? 11 : 7));
        const part_mix mx = {0.3 + 0.7 * unif(), 0.05, 0.1, 0.1, 10.0};
        dense_case dc;
        (sized ? sized_draw : dense_draw)(&dc, m, k, &mx);
        ckm_part pt = dc.pt;
        double *a = dc.a, *a0 = dc.a0, best = dc.best;
        if (isinf(best))
            continue;
        int32_t lab[12];
        double f0 = INFINITY;
        for (int draw = 0; draw < 5000 && isinf(f0); draw++) { /* a random start keeping the hard rows */
            for (size_t i = 0; i < m; i++)
                lab[i] = (int32_t)(unif() * (double)k);
            f0 = part_value_here(&pt, a0, lab);
        }
        if (isinf(f0))
            continue;
        tried++;
        double v = -1.0;
        CHECK(ckm_part_tabu(&pt, ckm_part_tabu_iterations(m, k), (uint64_t)it, lab, &v));
        CHECK(memcmp(a, a0, m * k * sizeof(double)) == 0);
        double f = part_value_here(&pt, a0, lab);
        CHECK(!isinf(f));
        CHECK_NEAR(v, f, 1e-9 * (1.0 + fabs(f)));
        CHECK(f <= f0 + 1e-9 * (1.0 + fabs(f0)));
        CHECK(f >= best - 1e-9 * (1.0 + fabs(best)));
        CHECK(!single_move_lowers(&pt, a0, lab, f));
        moved += f < f0 - 1e-9 * (1.0 + fabs(f0));
        bool hard = false;
        for (size_t q = 0; q < dc.start[m]; q++)
            hard = hard || dc.kind[q] == CKM_EDGE_HARD;
        bool reached = f <= best + 1e-9 * (1.0 + fabs(best));
        free_tried += !hard;
        free_optimal += !hard && reached;
        hard_optimal += hard && reached;
    }
    printf("tabu alone%s: %d parts, %d improved on their start; without hard cannot-links %d of %d reach the optimum, "
           "with them %d of %d\n",
           sized ? " (size rows)" : "", tried, moved, free_optimal, free_tried, hard_optimal, tried - free_tried);
    CHECK(tried >= 300 && moved > tried / 2 && free_tried >= 100);
    /* single moves cannot swap two hard-linked groups (k = 2): no share is asked of those */
    CHECK(free_optimal * 100 >= free_tried * 95);
}

/* ckm_part_repair on sized parts from random labellings that keep the hard rows but not the
 * size rows: when it succeeds the labels are inside the rows (counted here) and still keep
 * the hard rows and allowed clusters; on feasible parts it succeeds on most. */
static void repair_alone(void)
{
    int feasible = 0, repaired = 0, started_outside = 0;
    st = 303;
    for (int it = 0; it < 300; it++) {
        size_t k = 2 + (size_t)(unif() * 2), m = 2 + (size_t)(unif() * (k == 2 ? 11 : 7));
        const part_mix mx = {0.3 + 0.7 * unif(), 0.05, 0.1, 0.1, 10.0};
        dense_case dc;
        sized_draw(&dc, m, k, &mx);
        ckm_part loose = dc.pt; /* the same part without its size rows */
        loose.w = NULL;
        int32_t lab[12];
        double f0 = INFINITY;
        for (int draw = 0; draw < 1000 && isinf(f0); draw++) {
            for (size_t i = 0; i < m; i++)
                lab[i] = (int32_t)(unif() * (double)k);
            f0 = part_value_here(&loose, dc.a0, lab);
        }
        if (isinf(f0) || isinf(dc.best))
            continue;
        feasible++;
        started_outside += isinf(part_value_here(&dc.pt, dc.a0, lab));
        size_t count[4];
        if (!ckm_part_repair(&dc.pt, lab, count))
            continue;
        repaired++;
        size_t pts[4] = {0};
        for (size_t i = 0; i < m; i++)
            pts[lab[i]] += dc.w[i];
        for (size_t j = 0; j < k; j++) {
            CHECK(pts[j] >= dc.lo[j] && pts[j] <= dc.hi[j]);
            CHECK(count[j] == pts[j]);
        }
        CHECK(!isinf(part_value_here(&loose, dc.a0, lab)));
    }
    printf("repair alone: %d of %d feasible parts repaired (%d started outside their rows)\n", repaired, feasible,
           started_outside);
    CHECK(feasible >= 150 && started_outside >= feasible / 2 && repaired * 10 >= feasible * 9);
}

/* ---- the route ---- */

static const ckm_assign_want SPLIT = {"split", false, false}, FULL = {"full", false, false};

typedef struct tiny_inst {
    size_t s, k, n, weight[9], cl[16], n_cl, lo[4], hi[4], soft[60], n_soft;
    double soft_w[30], cost[36], P;
} tiny_inst;

static double inst_value(const tiny_inst *x, const ckm_reduced *r, const int32_t *lab)
{
    if (!fixture_feasible(r, lab))
        return INFINITY;
    double f = 0.0;
    for (size_t t = 0; t < x->s; t++)
        f += x->cost[t * x->k + (size_t)lab[t]];
    for (size_t e = 0; e < x->n_soft; e++)
        if ((lab[x->soft[2 * e]] == lab[x->soft[2 * e + 1]]) != (x->soft_w[e] > 0.0))
            f += x->P * fabs(x->soft_w[e]);
    return f;
}

static void random_tiny(tiny_inst *x)
{
    x->s = 4 + (size_t)(unif() * 6);
    x->k = 2 + (size_t)(unif() * 3);
    x->n = 0;
    for (size_t t = 0; t < x->s; t++)
        x->n += x->weight[t] = 1 + (unif() < 0.3);
    for (size_t j = 0; j < x->k; j++) {
        x->lo[j] = unif() < 0.5 ? 0 : 1;
        x->hi[j] = x->n;
    }
    x->n_cl = x->n_soft = 0;
    bool used[9][9] = {{false}};
    int attempts = 2 + (int)(unif() * 12); /* few pairs: several parts */
    if (unif() < 0.04 && x->s >= 3) { /* a hard cannot-link triangle with k = 2: infeasible */
        x->k = 2;
        size_t tri[6] = {0, 1, 0, 2, 1, 2};
        memcpy(x->cl, tri, sizeof tri);
        x->n_cl = 3;
        used[0][1] = used[1][0] = used[0][2] = used[2][0] = used[1][2] = used[2][1] = true;
    }
    for (int q = 0; q < attempts; q++) {
        size_t a = (size_t)(unif() * (double)x->s), b = (size_t)(unif() * (double)x->s);
        if (a == b || used[a][b])
            continue;
        used[a][b] = used[b][a] = true;
        size_t lo = a < b ? a : b, hi = a < b ? b : a;
        if (unif() < 0.12 && x->n_cl < 8) {
            x->cl[2 * x->n_cl] = lo;
            x->cl[2 * x->n_cl++ + 1] = hi;
        } else {
            x->soft[2 * x->n_soft] = lo;
            x->soft[2 * x->n_soft + 1] = hi;
            x->soft_w[x->n_soft++] = (unif() < 0.5 ? -1.0 : 1.0) * (0.05 + 0.95 * unif());
        }
    }
    x->P = 0.5 + 6.0 * unif();
    for (size_t t = 0; t < x->s; t++) { /* half the groups have a clear favourite */
        bool clear = unif() < 0.5;
        size_t fav = (size_t)(unif() * (double)x->k);
        for (size_t j = 0; j < x->k; j++)
            x->cost[t * x->k + j] = clear ? (j == fav ? unif() : 40.0 + 10.0 * unif()) : 10.0 * unif();
    }
}

typedef struct tiny_ctx {
    const tiny_inst *x;
    const ckm_reduced *r;
} tiny_ctx;

static double tiny_ctx_value(const void *ctx, const int32_t *lab)
{
    const tiny_ctx *c = ctx;
    return inst_value(c->x, c->r, lab);
}

/* The least value over every labelling of a tiny step (x->s <= 9), and one labelling that has it. */
static double tiny_best(const tiny_inst *x, const ckm_reduced *r, int32_t *opt)
{
    tiny_ctx c = {x, r};
    return enumerate(x->s, x->k, tiny_ctx_value, &c, opt);
}

static ckm_reduced tiny_reduced(tiny_inst *x)
{
    ckm_reduced r = fixture_reduced(x->s, x->k, x->n, x->weight, x->n_cl, x->cl, x->lo, x->hi);
    r.n_soft = x->n_soft;
    r.soft = x->soft;
    r.soft_w = x->soft_w;
    r.soft_P = x->P;
    return r;
}

static void tiny(void)
{
    int proven_here = 0, fixed_seen = 0, multi_part = 0, handed_on = 0, infeasible = 0;
    st = 101; /* its own draws, whatever the sections before took */
    for (int it = 0; it < 600; it++) {
        tiny_inst x;
        random_tiny(&x);
        ckm_reduced r = tiny_reduced(&x);
        int32_t opt[9];
        double best = tiny_best(&x, &r, opt);
        ckm_assign a;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_assign_init(&a, &r, &SPLIT, &err) == CKM_OK);
        int32_t labels[9];
        ckm_assign_result res;
        /* every third step from the optimum as the caller's labels (the parts' incumbents) */
        CHECK(ckm_assign_solve(&a, x.cost, it % 3 == 0 && !isinf(best) ? opt : NULL, NULL, labels, &res, &err) ==
              CKM_OK);
        if (isinf(best)) {
            CHECK(res.status == CKM_BK_INFEASIBLE);
            infeasible++;
        } else {
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK_NEAR(res.objective, best, 1e-9 * (1.0 + best));
            CHECK_NEAR(inst_value(&x, &r, labels), best, 1e-9 * (1.0 + best));
        }
        bool here = res.route && strcmp(res.route->name, "split") == 0;
        if (here) {
            proven_here++;
            fixed_seen += res.stat[CKM_SPLIT_FIXED] > 0;
            multi_part += res.stat[CKM_SPLIT_PARTS] >= 2;
        } else {
            handed_on++;
        }
        ckm_assign_free(&a);
    }
    printf("tiny: %d proven by the split route (%d with groups fixed by dominance, %d with 2+ parts), %d handed on, "
           "%d infeasible\n",
           proven_here, fixed_seen, multi_part, handed_on, infeasible);
    CHECK(proven_here > 100 && fixed_seen > 20 && multi_part > 8 && handed_on > 5 && infeasible > 0);
}

/* Sized steps (size rows beyond "no cluster empty": the route's one branch and cut over every
 * group, route_split.c): tiny steps with bounds 0-2 points around a random labelling's sizes
 * (some exact; with probability 0.03 a lower bound of every point: infeasible). Every feasible
 * step is proven by the split route itself at enumeration's optimum; infeasible ones say so. */
static void tiny_sized(void)
{
    int proven_here = 0, second = 0, infeasible = 0, exact_rows = 0, priced_first = 0, after_prices = 0;
    st = 202;
    for (int it = 0; it < 300; it++) {
        tiny_inst x;
        random_tiny(&x);
        size_t pts[4] = {0};
        for (size_t t = 0; t < x.s; t++)
            pts[(size_t)(unif() * (double)x.k)] += x.weight[t];
        for (size_t j = 0; j < x.k; j++) {
            size_t below = (size_t)(unif() * 3), above = (size_t)(unif() * 3);
            x.lo[j] = pts[j] > below ? pts[j] - below : 0;
            x.hi[j] = pts[j] + above;
            exact_rows += below == 0 && above == 0;
        }
        if (unif() < 0.03)
            x.lo[0] = x.n;
        ckm_reduced r = tiny_reduced(&x);
        int32_t opt[9], labels[9];
        double best = tiny_best(&x, &r, opt);
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
            CHECK(res.status == CKM_BK_OPTIMAL);
            CHECK(res.route && strcmp(res.route->name, "split") == 0);
            CHECK_NEAR(res.objective, best, 1e-9 * (1.0 + best));
            CHECK_NEAR(inst_value(&x, &r, labels), best, 1e-9 * (1.0 + best));
            proven_here += res.route && strcmp(res.route->name, "split") == 0;
            priced_first += res.stat[CKM_SPLIT_PRICED] > 0;
            after_prices += res.stat[CKM_SPLIT_PRICED] > 0 && res.stat[CKM_SPLIT_WHOLE] == 1;
            /* a second step on moved costs from these labels: the kept cuts and basis */
            for (size_t c = 0; c < x.s * x.k; c++)
                x.cost[c] += 4.0 * unif();
            best = tiny_best(&x, &r, opt);
            int32_t from[9];
            memcpy(from, labels, sizeof from);
            CHECK(ckm_assign_solve(&a, x.cost, from, NULL, labels, &res, &err) == CKM_OK);
            CHECK(res.status == CKM_BK_OPTIMAL && res.route && strcmp(res.route->name, "split") == 0);
            CHECK_NEAR(res.objective, best, 1e-9 * (1.0 + best));
            CHECK_NEAR(inst_value(&x, &r, labels), best, 1e-9 * (1.0 + best));
            second += res.status == CKM_BK_OPTIMAL;
        }
        ckm_assign_free(&a);
    }
    printf("tiny sized: %d proven by the split route (%d second steps; %d priced first, %d of them by the branch and "
           "cut after the prices), %d infeasible, %d exact size rows\n",
           proven_here, second, priced_first, after_prices, infeasible, exact_rows);
    CHECK(proven_here >= 200 && second == proven_here && infeasible > 0 && exact_rows > 20);
}

static void medium(void)
{
    enum { S = 300, K = 8, M = 120, NCL = 15 };
    static double cost[S * K], soft_w[M], pts[S * 2], ctr[K * 2];
    static size_t weight[S], soft[2 * M], cl[2 * NCL], lo[K], hi[K];
    int by_split = 0;
    for (int it = 0; it < 3; it++) {
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
        for (size_t j = 0; j < K; j++) {
            lo[j] = 1;
            hi[j] = S;
        }
        size_t m = 0, n_cl = 0;
        while (m < M || n_cl < NCL) { /* distinct pairs; the fixture's lists are small enough to scan */
            size_t a = (size_t)(unif() * S), b = (size_t)(unif() * S), l = a < b ? a : b, h = a < b ? b : a;
            bool dup = a == b;
            for (size_t e = 0; e < m && !dup; e++)
                dup = soft[2 * e] == l && soft[2 * e + 1] == h;
            for (size_t e = 0; e < n_cl && !dup; e++)
                dup = cl[2 * e] == l && cl[2 * e + 1] == h;
            if (dup)
                continue;
            if (n_cl < NCL) {
                cl[2 * n_cl] = l;
                cl[2 * n_cl++ + 1] = h;
            } else {
                soft[2 * m] = l;
                soft[2 * m + 1] = h;
                soft_w[m++] = (unif() < 0.5 ? -1.0 : 1.0) * (0.5 + 0.5 * unif());
            }
        }
        ckm_reduced r = fixture_reduced(S, K, S, weight, n_cl, cl, lo, hi);
        r.n_soft = m;
        r.soft = soft;
        r.soft_w = soft_w;
        r.soft_P = 4.0 + 8.0 * it; /* up to the spread of the costs: larger parts */
        ckm_assign a, b;
        ckm_err err = {CKM_OK, ""};
        int32_t la[S], lb[S];
        ckm_assign_result ra, rb;
        CHECK(ckm_assign_init(&a, &r, &SPLIT, &err) == CKM_OK && ckm_assign_init(&b, &r, &FULL, &err) == CKM_OK);
        CHECK(ckm_assign_solve(&a, cost, NULL, NULL, la, &ra, &err) == CKM_OK);
        CHECK(ckm_assign_solve(&b, cost, NULL, NULL, lb, &rb, &err) == CKM_OK);
        CHECK(ra.status == CKM_BK_OPTIMAL && rb.status == CKM_BK_OPTIMAL);
        by_split += ra.route && strcmp(ra.route->name, "split") == 0; /* or handed on past the budget */
        CHECK(fixture_feasible(&r, la));
        CHECK_NEAR(ra.objective, rb.objective, 1e-9 * rb.objective);
        printf("medium %d: optimum %.6f (full route %.6f) by the %s route, %zu of %zu paired groups fixed, %zu parts "
               "(largest %zu), %zu nodes\n",
               it, ra.objective, rb.objective, ra.route ? ra.route->name : "?", ra.stat[CKM_SPLIT_FIXED],
               ra.stat[CKM_SPLIT_PAIRED], ra.stat[CKM_SPLIT_PARTS], ra.stat[CKM_SPLIT_LARGEST], ra.stat[CKM_SPLIT_NODES]);
        ckm_assign_free(&a);
        ckm_assign_free(&b);
    }
    CHECK(by_split >= 2);
}

int main(void)
{
    search_alone();
    cuts_alone(false);
    cuts_alone(true);
    cuts_larger();
    tabu_alone(false);
    tabu_alone(true);
    repair_alone();
    tiny();
    tiny_sized();
    medium();
    return ck_report();
}
