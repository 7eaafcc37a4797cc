/*
 * soft_local.c -- 1-opt local search on a labelling of the assignment model with soft pairs
 * (soft_local.h), used to give CBC a good first labelling within a step budget, and as the
 * local route's step.
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
    size_t *ss = NULL, *sadj = NULL, *cs = NULL, *cadj = NULL;
    size_t *size = ckm_calloc_array(k, sizeof(size_t));
    double *delta = ckm_alloc_array(k, sizeof(double)), *load = ckm_calloc_array(k, sizeof(double));
    unsigned char *blocked = ckm_alloc_array(k, 1);
    bool ok = size && delta && load && blocked && ckm_incidence(s, r->n_soft, r->soft, &ss, &sadj) &&
              ckm_incidence(s, r->n_cl, r->cl, &cs, &cadj);
    *moves = 0;
    if (ok) {
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
                size_t from = (size_t)lab[t];
                for (size_t j = 0; j < k; j++) {
                    delta[j] = cost[t * k + j];
                    blocked[j] = 0;
                }
                for (size_t q = cs[t]; q < cs[t + 1]; q++) {
                    size_t o = ckm_pair_other(r->cl, cadj[q], t);
                    blocked[lab[o]] = 1;
                }
                for (size_t q = ss[t]; q < ss[t + 1]; q++) {
                    size_t e = sadj[q], o = ckm_pair_other(r->soft, e, t);
                    double c = r->soft_P * fabs(r->soft_w[e]);
                    if (r->soft_w[e] > 0.0) { /* must-link: paid unless t joins o */
                        for (size_t j = 0; j < k; j++)
                            delta[j] += (int32_t)j == lab[o] ? 0.0 : c;
                    } else { /* cannot-link: paid if t joins o */
                        delta[lab[o]] += c;
                    }
                }
                size_t best = from;
                for (size_t j = 0; j < k; j++) {
                    if (j == from || blocked[j] || size[from] - r->weight[t] < r->lo[from] ||
                        size[j] + r->weight[t] > r->hi[j] || !loads_hold(r, load, t, from, j))
                        continue;
                    if (delta[j] < delta[best] - 1e-12 * (scale + fabs(delta[best])))
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
    }
    free(size);
    free(delta);
    free(load);
    free(blocked);
    free(ss);
    free(sadj);
    free(cs);
    free(cadj);
    return ok;
}
