/*
 * part_tabu.c -- see part_tabu.h (the moves, the tabu rule, the invariants).
 * State: the labels, g (m x k: a_ij plus the soft edges' costs with i in j; 0 where a_ij is
 * INFINITY, never chosen there), hard (m x k: i's hard cannot-link neighbours in j), and for
 * each group the iteration from which it may move again; on a sized part the points per
 * cluster and their excess (ckm_part_excess).
 */
#include "part_tabu.h"

#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITERATIONS 20000
#define MAX_ENTRIES 20000000.0
#define PER_GROUP 100.0

size_t ckm_part_tabu_iterations(size_t m, size_t k)
{
    double fit = MAX_ENTRIES / ((double)m * (double)k + 1.0), most = fmin(MAX_ITERATIONS, PER_GROUP * (double)m);
    return fit < most ? (size_t)fit + 1 : (size_t)most;
}

typedef struct tabu {
    const ckm_part *pt;
    int32_t *lab;
    double *g;
    uint32_t *hard;
    size_t *free_at; /* the iteration from which the group may move again */
    double *bd;      /* m: the group's least-cost move's change of F */
    size_t *bj;      /* m: its cluster (SIZE_MAX: no move allowed) */
    size_t *count;   /* k: a sized part's points per cluster */
    double *dout, *din; /* 2k: how a point leaving / joining cluster j changes the excess */
    size_t excess;   /* their points outside the size rows */
    double pen;      /* what a point of excess costs in a move's value */
} tabu;

/* g and hard from the labels. */
static void fill(tabu *t)
{
    const ckm_part *pt = t->pt;
    size_t k = pt->k;
    for (size_t i = 0; i < pt->m; i++)
        for (size_t j = 0; j < k; j++) {
            double a = pt->a[i * k + j], g = a < INFINITY ? a : 0.0;
            uint32_t h = 0;
            for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
                bool same = (size_t)t->lab[pt->nbr[q]] == j;
                if (pt->kind[q] == CKM_EDGE_HARD)
                    h += same;
                else
                    g += ckm_edge_cost(pt->kind[q], pt->p[q], same);
            }
            t->g[i * k + j] = g;
            t->hard[i * k + j] = h;
        }
}

/* Group i's least-cost move: bd[i] and bj[i] (SIZE_MAX: none allowed). */
static void best_of(tabu *t, size_t i)
{
    const ckm_part *pt = t->pt;
    size_t k = pt->k, l = (size_t)t->lab[i];
    const double *g = t->g + i * k;
    double least = INFINITY;
    t->bj[i] = SIZE_MAX;
    for (size_t j = 0; j < k; j++)
        if (j != l && pt->a[i * k + j] < INFINITY && t->hard[i * k + j] == 0 && g[j] - g[l] < least) {
            least = g[j] - g[l];
            t->bj[i] = j;
        }
    t->bd[i] = least;
}

/* Group i from its cluster to j: its neighbours' rows at both clusters follow. */
static void move(tabu *t, size_t i, size_t j)
{
    const ckm_part *pt = t->pt;
    size_t k = pt->k, l = (size_t)t->lab[i];
    for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
        size_t u = pt->nbr[q];
        if (pt->kind[q] == CKM_EDGE_HARD) {
            t->hard[u * k + l]--;
            t->hard[u * k + j]++;
            continue;
        }
        /* u in l was with i, now apart; u in j was apart, now with i */
        double together = ckm_edge_cost(pt->kind[q], pt->p[q], true);
        double apart = ckm_edge_cost(pt->kind[q], pt->p[q], false);
        t->g[u * k + l] += apart - together;
        t->g[u * k + j] += together - apart;
    }
    t->lab[i] = (int32_t)j;
    best_of(t, i);
    for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++)
        best_of(t, pt->nbr[q]);
}

/* The excess after moving group i to j. */
static size_t excess_after(const tabu *t, size_t i, size_t j)
{
    ptrdiff_t change = ckm_part_excess_change(t->pt, t->count, (size_t)t->lab[i], j, t->pt->w[i]);
    return (size_t)((ptrdiff_t)t->excess + change);
}

/* A sized part's best allowed move (every group and cluster scanned: the excess of a move
 * changes with every move): least change of F plus pen per point of excess it adds (minus per
 * point it removes), not tabu or reaching below best with no excess. false: none. */
static bool choose_sized(const tabu *t, size_t it, double f, double best, size_t *at, size_t *to)
{
    const ckm_part *pt = t->pt;
    size_t k = pt->k;
    double least = INFINITY;
    for (size_t j = 0; j < k; j++) { /* ckm_part_excess_change at w = 1, in two terms per cluster */
        double miss = (double)ckm_part_miss(pt, j, t->count[j]);
        t->dout[j] = t->count[j] > 0 ? (double)ckm_part_miss(pt, j, t->count[j] - 1) - miss : 0.0;
        t->din[j] = (double)ckm_part_miss(pt, j, t->count[j] + 1) - miss;
    }
    for (size_t i = 0; i < pt->m; i++) {
        size_t l = (size_t)t->lab[i];
        const double *g = t->g + i * k;
        for (size_t j = 0; j < k; j++) {
            if (j == l || !(pt->a[i * k + j] < INFINITY) || t->hard[i * k + j] > 0)
                continue;
            double dex = pt->w[i] == 1 ? t->dout[l] + t->din[j] : (double)excess_after(t, i, j) - (double)t->excess;
            double d = g[j] - g[l], v = d + t->pen * dex;
            bool none = (double)t->excess + dex < 0.5; /* no excess after the move */
            if (v < least && (t->free_at[i] <= it || (none && f + d < best - 1e-9 * (1.0 + fabs(best))))) {
                least = v;
                *at = i;
                *to = j;
            }
        }
    }
    return least < INFINITY;
}

/* pen: more than any move's change of F can offset, twice over (2 max_i of the spread of a_i
 * plus i's penalties), so a move that lowers the excess always beats one that does not. */
static double excess_penalty(const ckm_part *pt)
{
    double most = 0.0;
    for (size_t i = 0; i < pt->m; i++) {
        double lo = INFINITY, hi = -INFINITY, sp = 0.0;
        for (size_t j = 0; j < pt->k; j++)
            if (pt->a[i * pt->k + j] < INFINITY) {
                lo = fmin(lo, pt->a[i * pt->k + j]);
                hi = fmax(hi, pt->a[i * pt->k + j]);
            }
        for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++)
            sp += pt->kind[q] == CKM_EDGE_HARD ? 0.0 : pt->p[q];
        most = fmax(most, (hi > lo ? hi - lo : 0.0) + sp);
    }
    return 1.0 + 2.0 * most;
}

/* The best allowed move at iteration it with the current F f and best F best: the group of
 * least bd (the first of equals) that is not tabu or reaches below best. false: none. */
static bool choose(const tabu *t, size_t it, double f, double best, size_t *at)
{
    double least = INFINITY;
    for (size_t i = 0; i < t->pt->m; i++)
        if (t->bj[i] != SIZE_MAX && t->bd[i] < least &&
            (t->free_at[i] <= it || f + t->bd[i] < best - 1e-9 * (1.0 + fabs(best)))) {
            least = t->bd[i];
            *at = i;
        }
    return least < INFINITY;
}

bool ckm_part_tabu(const ckm_part *pt, size_t iters, uint64_t seed, int32_t *lab, double *value)
{
    size_t m = pt->m, k = pt->k;
    tabu t = {pt, ckm_alloc_array(m + 1, sizeof(int32_t)), ckm_alloc_array(m * k + 1, sizeof(double)),
              ckm_alloc_array(m * k + 1, sizeof(uint32_t)), ckm_alloc_array(m + 1, sizeof(size_t)),
              ckm_alloc_array(m + 1, sizeof(double)), ckm_alloc_array(m + 1, sizeof(size_t)),
              ckm_alloc_array(k + 1, sizeof(size_t)), ckm_alloc_array(k + 1, sizeof(double)),
              ckm_alloc_array(k + 1, sizeof(double)), 0, 0.0};
    int32_t *best = ckm_alloc_array(m + 1, sizeof(int32_t));
    bool ok = t.lab && t.g && t.hard && t.free_at && t.bd && t.bj && t.count && t.dout && t.din && best;
    if (ok) {
        memcpy(t.lab, lab, m * sizeof(int32_t));
        memcpy(best, lab, m * sizeof(int32_t));
        memset(t.free_at, 0, m * sizeof(size_t));
        fill(&t);
        for (size_t i = 0; i < m; i++)
            best_of(&t, i);
        if (pt->w) {
            t.excess = ckm_part_excess(pt, lab, t.count);
            t.pen = excess_penalty(pt);
        }
        ckm_rng rng;
        ckm_rng_seed(&rng, seed, 0x7ab0);
        size_t base = m / 10 + 5, spread = m / 20 + 5, most = m - 1;
        double f = 0.0; /* F less its constant F(start): only differences matter here */
        double fbest = 0.0;
        for (size_t it = 0; it < iters; it++) {
            size_t i = 0, j = 0;
            if (pt->w ? !choose_sized(&t, it, f, fbest, &i, &j) : !choose(&t, it, f, fbest, &i))
                break;
            if (!pt->w)
                j = t.bj[i];
            f += t.g[i * k + j] - t.g[i * k + (size_t)t.lab[i]];
            if (pt->w) {
                t.excess = excess_after(&t, i, j);
                t.count[t.lab[i]] -= pt->w[i];
                t.count[j] += pt->w[i];
            }
            move(&t, i, j);
            size_t tenure = base + (size_t)ckm_rng_below(&rng, spread);
            t.free_at[i] = it + 1 + (tenure < most ? tenure : most);
            if (t.excess == 0 && f < fbest - 1e-9 * (1.0 + fabs(fbest))) {
                fbest = f;
                memcpy(best, t.lab, m * sizeof(int32_t));
            }
        }
        double start = ckm_part_value(pt, lab), found = ckm_part_value(pt, best);
        if (found < start)
            memcpy(lab, best, m * sizeof(int32_t));
        *value = found < start ? found : start;
    }
    free(t.lab);
    free(t.g);
    free(t.hard);
    free(t.free_at);
    free(t.bd);
    free(t.bj);
    free(t.count);
    free(t.dout);
    free(t.din);
    free(best);
    return ok;
}
