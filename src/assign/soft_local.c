/*
 * soft_local.c -- first labellings (trivial, greedy) and 1-opt local search for the
 * assignment model with soft pairs (soft_local.h), used to give CBC a good first labelling
 * within a step budget, and as the local route's step.
 *   objective  F(l) = sum_t cost[t, l_t] + P sum_e |w_e| [e violated by l]
 *   move       group t to cluster j when it keeps every hard row (no cannot-linked group in
 *              j, sizes and loads of l_t and j within their bounds) and lowers F by more than
 *              1e-12 |F|
 *   sweeps     groups in index order, until a sweep moves none (at most 100 sweeps) or the
 *              deadline passes (checked every 4096 groups)
 * F never increases, so the result is at least as good as the given feasible labelling and
 * still feasible; it is a local optimum for single moves, not the step's optimum (CBC then
 * improves or proves it).
 * Cost per sweep: O(s k + pairs incident to the groups) with incidence lists built once
 * (ckm_incidence).
 */
#include "core.h"
#include "incidence.h"
#include "soft_local.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* A feasible start for a model whose only hard rows are "one cluster each" and "no cluster
 * empty" (soft pairs, no cannot-links, default sizes): each group at its cheapest cluster,
 * then every empty cluster j takes the group whose move there costs least among those
 * whose cluster keeps another group. CBC cannot always find a first labelling of the soft
 * model within a step budget (measured: none in 2 s on 569 points, 3,655 soft pairs); with
 * one, the budget applies from the first step. false when r has other hard rows or s < k. */
bool ckm_soft_trivial_start(const ckm_reduced *r, const double *cost, int32_t *lab)
{
    size_t s = r->s, k = r->k;
    if (r->n_cl > 0 || r->has_sizes || r->has_caps || s < k)
        return false;
    size_t *count = ckm_calloc_array(k, sizeof(size_t));
    if (!count)
        return false;
    for (size_t t = 0; t < s; t++) {
        size_t b = 0;
        for (size_t j = 1; j < k; j++)
            if (cost[t * k + j] < cost[t * k + b])
                b = j;
        lab[t] = (int32_t)b;
        count[b]++;
    }
    for (size_t j = 0; j < k; j++) {
        if (count[j] > 0)
            continue;
        size_t best = SIZE_MAX;
        for (size_t t = 0; t < s; t++)
            if (count[lab[t]] > 1 && (best == SIZE_MAX || cost[t * k + j] - cost[t * k + (size_t)lab[t]] <
                                                              cost[best * k + j] - cost[best * k + (size_t)lab[best]]))
                best = t;
        count[lab[best]]--; /* s >= k: some cluster has two groups while one is empty */
        lab[best] = (int32_t)j;
        count[j]++;
    }
    free(count);
    return true;
}

/* What the greedy start and the local search share: cluster sizes (points), a group's row of
 * move prices and blocked clusters, and the pairs' incidence lists. */
typedef struct soft_ws {
    size_t *size, *ss, *sadj, *cs, *cadj;
    double *delta;
    unsigned char *blocked;
} soft_ws;

static void ws_close(soft_ws *w)
{
    free(w->size);
    free(w->delta);
    free(w->blocked);
    free(w->ss);
    free(w->sadj);
    free(w->cs);
    free(w->cadj);
}

/* false on allocation failure (w then closed) */
static bool ws_open(soft_ws *w, const ckm_reduced *r)
{
    *w = (soft_ws){0};
    w->size = ckm_calloc_array(r->k, sizeof(size_t));
    w->delta = ckm_alloc_array(r->k, sizeof(double));
    w->blocked = ckm_alloc_array(r->k, 1);
    bool ok = w->size && w->delta && w->blocked && ckm_incidence(r->s, r->n_soft, r->soft, &w->ss, &w->sadj) &&
              ckm_incidence(r->s, r->n_cl, r->cl, &w->cs, &w->cadj);
    if (!ok)
        ws_close(w);
    return ok;
}

/* Group t's prices against the labelled groups (lab >= 0; unlabelled ones ignored):
 * delta_j = cost_tj + the soft pairs it would pay in j, blocked_j when a cannot-linked group
 * is in j. */
static void price(const ckm_reduced *r, const double *cost, const int32_t *lab, soft_ws *w, size_t t)
{
    size_t k = r->k;
    for (size_t j = 0; j < k; j++) {
        w->delta[j] = cost[t * k + j];
        w->blocked[j] = 0;
    }
    for (size_t q = w->cs[t]; q < w->cs[t + 1]; q++) {
        int32_t o = lab[ckm_pair_other(r->cl, w->cadj[q], t)];
        if (o >= 0)
            w->blocked[o] = 1;
    }
    for (size_t q = w->ss[t]; q < w->ss[t + 1]; q++) {
        size_t e = w->sadj[q];
        int32_t o = lab[ckm_pair_other(r->soft, e, t)];
        if (o >= 0)
            ckm_pair_pay(w->delta, k, (size_t)o, r->soft_P * fabs(r->soft_w[e]), r->soft_w[e] > 0.0);
    }
}

/* a group and its regret, for the greedy start's order */
typedef struct regret {
    double v;
    size_t t;
} regret;

/* larger regret first; ties by index (the order does not depend on qsort) */
static int by_regret(const void *a, const void *b)
{
    const regret *x = a, *y = b;
    if (x->v != y->v)
        return x->v > y->v ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* The groups in decreasing regret (second least cost - least: those that lose most by a
 * second choice choose first); NULL on allocation failure. */
static regret *regret_order(const ckm_reduced *r, const double *cost)
{
    size_t s = r->s, k = r->k;
    regret *g = ckm_alloc_array(s, sizeof(regret));
    if (!g)
        return NULL;
    for (size_t t = 0; t < s; t++) {
        double a = INFINITY, b = INFINITY;
        for (size_t j = 0; j < k; j++) {
            double c = cost[t * k + j];
            b = c < a ? a : (c < b ? c : b);
            a = c < a ? c : a;
        }
        g[t] = (regret){k > 1 ? b - a : 0.0, t};
    }
    qsort(g, s, sizeof *g, by_regret);
    return g;
}

/* The cluster group t (weight w) takes in the greedy start: the least price (price above)
 * among the clusters without a cannot-linked placed group, with room for w under hi and, with
 * reserve, that leave enough weight for the lower bounds (deficit after the move <= weight
 * left after it); SIZE_MAX when none does. The open rule of ckm_transport_greedy
 * (greedy_sizes.c: unit points, their kept nearest centers, no pairs), here for weighted
 * groups on the step's cost matrix, with cannot-links and soft pairs. */
static size_t greedy_choice(const ckm_reduced *r, const double *cost, const int32_t *lab, soft_ws *ws,
                            size_t deficit, size_t left, size_t t, bool reserve)
{
    size_t k = r->k, w = r->weight[t], best = SIZE_MAX, *size = ws->size;
    price(r, cost, lab, ws, t);
    for (size_t j = 0; j < k; j++) {
        size_t short_j = size[j] < r->lo[j] ? r->lo[j] - size[j] : 0, fill = short_j < w ? short_j : w;
        if (ws->blocked[j] || size[j] + w > r->hi[j] || (reserve && deficit - fill > left - w))
            continue;
        if (best == SIZE_MAX || ws->delta[j] < ws->delta[best])
            best = j;
    }
    return best;
}

/* Whether group t has a cannot-linked group in cluster j. */
static bool linked_into(const ckm_reduced *r, const int32_t *lab, const size_t *cs, const size_t *cadj, size_t t,
                        size_t j)
{
    for (size_t q = cs[t]; q < cs[t + 1]; q++)
        if (lab[ckm_pair_other(r->cl, cadj[q], t)] == (int32_t)j)
            return true;
    return false;
}

/* The greedy start's second phase, when its cannot-links kept groups from the clusters still
 * short of lo: each such cluster j takes groups by least cost increase cost_tj - cost_t,l_t
 * among those whose cluster keeps lo without them and that have no cannot-linked group in j,
 * until it holds lo (work: the s-array of order, re-keyed). false when one cannot be filled. */
static bool fill_short(const ckm_reduced *r, const double *cost, const size_t *cs, const size_t *cadj, size_t *size,
                       int32_t *lab, regret *work)
{
    size_t s = r->s, k = r->k;
    for (size_t j = 0; j < k; j++) {
        if (size[j] >= r->lo[j])
            continue;
        for (size_t t = 0; t < s; t++) /* least increase first: by_regret sorts larger first */
            work[t] = (regret){-(cost[t * k + j] - cost[t * k + (size_t)lab[t]]), t};
        qsort(work, s, sizeof *work, by_regret);
        for (size_t i = 0; i < s && size[j] < r->lo[j]; i++) {
            size_t t = work[i].t, from = (size_t)lab[t], w = r->weight[t];
            if (from == j || size[from] < r->lo[from] + w || size[j] + w > r->hi[j] || linked_into(r, lab, cs, cadj, t, j))
                continue;
            size[from] -= w;
            size[j] += w;
            lab[t] = (int32_t)j;
        }
        if (size[j] < r->lo[j])
            return false;
    }
    return true;
}

bool ckm_soft_greedy_start(const ckm_reduced *r, const double *cost, int32_t *lab)
{
    size_t s = r->s, k = r->k;
    if (r->has_caps)
        return false;
    soft_ws ws;
    regret *order = regret_order(r, cost);
    bool ok = order && ws_open(&ws, r);
    if (!ok) {
        free(order);
        return false;
    }
    size_t left = 0, deficit = 0;
    for (size_t t = 0; t < s; t++) {
        left += r->weight[t];
        lab[t] = -1;
    }
    for (size_t j = 0; j < k; j++)
        deficit += r->lo[j];
    for (size_t i = 0; i < s && ok; i++) {
        size_t t = order[i].t, w = r->weight[t];
        size_t j = greedy_choice(r, cost, lab, &ws, deficit, left, t, true);
        if (j == SIZE_MAX) /* its cannot-links keep it from the clusters the rest must fill */
            j = greedy_choice(r, cost, lab, &ws, deficit, left, t, false);
        ok = j != SIZE_MAX;
        if (!ok)
            break;
        size_t short_j = ws.size[j] < r->lo[j] ? r->lo[j] - ws.size[j] : 0;
        deficit -= short_j < w ? short_j : w;
        left -= w;
        ws.size[j] += w;
        lab[t] = (int32_t)j;
    }
    ok = ok && (deficit == 0 || fill_short(r, cost, ws.cs, ws.cadj, ws.size, lab, order));
    free(order);
    ws_close(&ws);
    return ok;
}

/* Moving group t from cluster a to b keeps both clusters' loads within their capacities (the
 * checker's tolerance r->cap_tol, as cap_local.c). */
static bool loads_hold(const ckm_reduced *r, const double *load, size_t t, size_t a, size_t b)
{
    if (!r->has_caps)
        return true;
    double q = r->demand[t];
    return load[a] - q >= r->cap_lo[a] - r->cap_tol && load[b] + q <= r->cap_hi[b] + r->cap_tol;
}

bool ckm_soft_local_search(const ckm_reduced *r, const double *cost, double deadline, int32_t *lab, size_t *moves)
{
    size_t s = r->s, k = r->k;
    soft_ws ws;
    double *load = ckm_calloc_array(k, sizeof(double));
    *moves = 0;
    if (!load || !ws_open(&ws, r)) {
        free(load);
        return false;
    }
    size_t *size = ws.size;
    for (size_t t = 0; t < s; t++) {
        size[lab[t]] += r->weight[t];
        load[lab[t]] += r->has_caps ? r->demand[t] : 0.0;
    }
    double scale = 0.0;
    for (size_t t = 0; t < s; t++)
        scale += fabs(cost[t * k + (size_t)lab[t]]);
    bool late = false;
    for (int sweep = 0; sweep < 100 && !late; sweep++) {
        size_t moved = 0;
        for (size_t t = 0; t < s && !late; t++) {
            if ((t & 4095) == 4095 && ckm_now() > deadline)
                late = true; /* every labelling on the way is feasible and no worse */
            size_t from = (size_t)lab[t], best = from;
            price(r, cost, lab, &ws, t);
            for (size_t j = 0; j < k; j++) {
                if (j == from || ws.blocked[j] || size[from] - r->weight[t] < r->lo[from] ||
                    size[j] + r->weight[t] > r->hi[j] || !loads_hold(r, load, t, from, j))
                    continue;
                if (ws.delta[j] < ws.delta[best] - 1e-12 * (scale + fabs(ws.delta[best])))
                    best = j;
            }
            if (best != from) {
                size[from] -= r->weight[t];
                size[best] += r->weight[t];
                if (r->has_caps) {
                    load[from] -= r->demand[t];
                    load[best] += r->demand[t];
                }
                lab[t] = (int32_t)best;
                moved++;
            }
        }
        *moves += moved;
        if (moved == 0)
            break;
    }
    free(load);
    ws_close(&ws);
    return true;
}
