/*
 * split_prices.c -- see split_prices.h: the free groups, their transportation problem on the
 * size rows less what the bound groups take, and the Lagrangian bound L(p) that proves a
 * labelling of the sized step optimal.
 */
#include "split_prices.h"

#include "core.h"
#include "route.h"
#include "transport.h"
#include "transport_ws.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Rounds of the root and of any other node, rounds of a step over all its nodes, and the depth
 * of the branching. On 10^5 x 8, k = 20, 7000 soft pairs, sizes 4000-6000 (bench/README.md),
 * 45 of 47 steps settled in 2-7 rounds without branching; with 2 x 10^4 hard cannot-links and
 * 2000 must-links beside them, the first step's root needed 7 rounds to bring the groups that
 * move from 7884 to 7. */
#define CKM_SPLIT_PRICE_ROOT_ROUNDS 16
#define CKM_SPLIT_PRICE_ROUNDS 8
#define CKM_SPLIT_PRICE_ALL 256
#define CKM_SPLIT_PRICE_DEPTH 6
/* Past this many bound groups moved by a round, the next prices are halfway between the
 * transportation certificate and the last prices: the bound groups answer a price change as a
 * whole, and with many of them (hard cannot-links: 40 % of the groups) the certificate's full
 * step overshoots, and the rounds swing (hundreds moving after 20 rounds, where halving brought
 * them under ten in seven). A round after a damped one is not a fixed point: its prices certify
 * no labelling, so the rounds go on. */
#define CKM_SPLIT_PRICE_DAMP_ABOVE 16
/* A labelling within this fraction of a bound counts as proven: the proof's tolerance, as
 * CBC's proofs have theirs, not rounding alone (the sums of 10^5 costs in the objective and in
 * L(p) round by 1e-11 of them at worst). On the overlapping data of bench/README.md the steps
 * it proved closed at 0 to 6e-10; those left open stopped at 1e-9 to 4e-8. */
#define CKM_SPLIT_PRICE_TOL 1e-9

bool ckm_split_prices_init(ckm_split_prices *P, const ckm_reduced *r)
{
    size_t s = r->s, k = r->k;
    memset(P, 0, sizeof *P);
    P->isfree = ckm_alloc_array(s + 1, 1);
    if (!P->isfree)
        return false;
    for (size_t t = 0; t < s; t++)
        P->isfree[t] = r->weight[t] == 1;
    for (int hard = 0; hard < 2; hard++) {
        size_t np = hard ? r->n_cl : r->n_soft;
        const size_t *ab = hard ? r->cl : r->soft;
        for (size_t e = 0; e < 2 * np; e++)
            P->isfree[ab[e]] = 0;
    }
    for (size_t t = 0; t < s; t++)
        P->nf += P->isfree[t];
    P->free = ckm_alloc_array(P->nf + 1, sizeof(size_t));
    P->price = calloc(k, sizeof(double));
    P->keep = ckm_alloc_array(k, sizeof(double));
    P->pcost = ckm_alloc_array(s * k, sizeof(double));
    P->fcost = ckm_alloc_array(P->nf * k + 1, sizeof(double));
    P->flab = ckm_alloc_array(P->nf + 1, sizeof(int32_t));
    P->prev = ckm_alloc_array(s, sizeof(int32_t));
    P->best = ckm_alloc_array(s, sizeof(int32_t));
    P->lo = ckm_alloc_array(k, sizeof(size_t));
    P->hi = ckm_alloc_array(k, sizeof(size_t));
    P->wsum = ckm_alloc_array(k, sizeof(double));
    P->ws = ckm_transport_ws_new();
    if (!P->free || !P->price || !P->keep || !P->pcost || !P->fcost || !P->flab || !P->prev || !P->best || !P->lo || !P->hi || !P->wsum || !P->ws)
        return false;
    for (size_t t = 0, f = 0; t < s; t++)
        if (P->isfree[t])
            P->free[f++] = t;
    return true;
}

void ckm_split_prices_free(ckm_split_prices *P)
{
    free(P->free);
    free(P->isfree);
    free(P->price);
    free(P->keep);
    free(P->pcost);
    free(P->fcost);
    free(P->flab);
    free(P->prev);
    free(P->best);
    free(P->lo);
    free(P->hi);
    free(P->wsum);
    ckm_transport_ws_free(P->ws);
    memset(P, 0, sizeof *P);
}

double ckm_split_prices_bytes(const ckm_reduced *r)
{
    /* pcost and fcost (8 s k each at most), isfree, free, flab, prev and best (21 s); the transportation
       workspace: 16 s of positions and member lists, k^2 (12 L + 25) of move lists with L <= 16,
       and its every-8th-row sample's costs (s k) */
    double s = (double)r->s, k = (double)r->k;
    return 17.0 * s * k + 37.0 * s + 217.0 * k * k;
}

void ckm_split_prices_costs(ckm_split_prices *P, const ckm_reduced *r, const double *cost)
{
    size_t k = r->k;
    for (size_t f = 0; f < P->nf; f++)
        memcpy(P->fcost + f * k, cost + P->free[f] * k, k * sizeof(double));
}

void ckm_split_prices_apply(ckm_split_prices *P, const ckm_reduced *r, const double *cost)
{
    size_t k = r->k;
    for (size_t t = 0; t < r->s; t++) {
        double w = (double)r->weight[t];
        for (size_t j = 0; j < k; j++)
            P->pcost[t * k + j] = cost[t * k + j] - w * P->price[j];
    }
}

ckm_error ckm_split_prices_transport(ckm_split_prices *P, const ckm_reduced *r, int32_t *labels,
                                     const ckm_bk_limits *lim, bool *ok, ckm_err *err)
{
    size_t k = r->k;
    *ok = false;
    memset(P->hi, 0, k * sizeof(size_t)); /* first the bound groups' points per cluster */
    for (size_t t = 0; t < r->s; t++)
        if (!P->isfree[t])
            P->hi[labels[t]] += r->weight[t];
    for (size_t j = 0; j < k; j++) {
        size_t took = P->hi[j];
        if (took > r->hi[j])
            return CKM_OK;
        P->lo[j] = r->lo[j] > took ? r->lo[j] - took : 0;
        P->hi[j] = r->hi[j] - took;
    }
    memcpy(P->keep, P->price, k * sizeof(double));
    int infeasible = 0;
    ckm_transport_stats st;
    ckm_error rc = ckm_transport_solve_lim(P->nf, k, P->fcost, P->lo, P->hi, lim, P->ws, P->price, P->flab,
                                           &infeasible, &st, err);
    if (rc != CKM_OK)
        return rc;
    if (infeasible || st.stopped) {
        memcpy(P->price, P->keep, k * sizeof(double));
        return CKM_OK;
    }
    for (size_t f = 0; f < P->nf; f++)
        labels[P->free[f]] = P->flab[f];
    *ok = true;
    return CKM_OK;
}

double ckm_split_prices_bound(const ckm_split_prices *P, const ckm_reduced *r, const double *cost,
                              const int32_t *labels)
{
    size_t k = r->k;
    double L = ckm_soft_cost(r, labels);
    for (size_t t = 0; t < r->s; t++) {
        if (!P->isfree[t]) {
            L += P->pcost[t * k + (size_t)labels[t]];
            continue;
        }
        double least = INFINITY;
        for (size_t j = 0; j < k; j++)
            least = fmin(least, cost[t * k + j] - P->price[j]);
        L += least;
    }
    for (size_t j = 0; j < k; j++)
        L += P->price[j] > 0.0 ? P->price[j] * (double)r->lo[j] : P->price[j] < 0.0 ? P->price[j] * (double)r->hi[j] : 0.0;
    return L;
}

/* The search over the prices' rounds (ckm_split_prices_step): its inputs, its incumbent and
 * the path of restrictions to the node it is at. */
typedef struct priced_search {
    ckm_split_prices *P;
    const ckm_reduced *r;
    const double *cost;
    const int32_t *start;
    ckm_bk_limits run, proof; /* the run's limits; the step's proof budget once it holds labels */
    bool holding;
    double budget_s;
    ckm_split_unsized_fn unsized;
    void *ctx;
    int32_t *labels;          /* the round's labels (the caller's buffer) */
    ckm_split_priced_out *out;
    struct {
        size_t g;
        int32_t j;
        bool at;
    } path[CKM_SPLIT_PRICE_DEPTH];
    size_t depth;
} priced_search;

/* pcost under the node's restrictions: group g only at j (at), or never at j */
static void restrict_path(priced_search *q)
{
    size_t k = q->r->k;
    for (size_t d = 0; d < q->depth; d++) {
        double *row = q->P->pcost + q->path[d].g * k;
        for (size_t j = 0; j < k; j++)
            if (q->path[d].at ? j != (size_t)q->path[d].j : j == (size_t)q->path[d].j)
                row[j] = INFINITY;
    }
}

/* the incumbent is within CKM_SPLIT_PRICE_TOL of bound */
static bool closed(const priced_search *q, double bound)
{
    double f = q->out->objective;
    return q->out->have && f - bound <= CKM_SPLIT_PRICE_TOL * fmax(1.0, fabs(f));
}

/* labels keep every row: the incumbent when cheaper */
static void offer(priced_search *q, const int32_t *labels)
{
    double f = ckm_step_total(q->r, q->cost, labels);
    if (q->out->have && f >= q->out->objective)
        return;
    memcpy(q->P->best, labels, q->r->s * sizeof(int32_t));
    q->out->objective = f;
    q->out->have = true;
    if (!q->holding) {
        q->proof = ckm_proof_limits(&q->run, q->budget_s, true);
        q->holding = true;
    }
}

/* The step's proof budget (not the run's limits) has ended the search: its labels go back
 * unproven, as a CBC step's at the step limit. */
static void budget_spent(priced_search *q)
{
    if (q->holding && ckm_bk_limits_reached(&q->proof) && !ckm_bk_limits_reached(&q->run))
        q->out->timed_out = true;
}

/* Bound groups that labels and P->prev put in different clusters; *g, *j: the first, and its
 * cluster in P->prev */
static size_t moved(const ckm_split_prices *P, const ckm_reduced *r, const int32_t *labels, size_t *g, int32_t *j)
{
    size_t n = 0;
    *g = SIZE_MAX;
    for (size_t t = 0; t < r->s; t++)
        if (!P->isfree[t] && labels[t] != P->prev[t] && n++ == 0) {
            *g = t;
            *j = P->prev[t];
        }
    return n;
}

/* One node: rounds under its path's restrictions, until its bound meets the incumbent or its
 * bound groups hold still under an undamped certificate. Returns its lower bound
 * (-INFINITY: none); *g, *j: a bound group the last two rounds put in different clusters and
 * its cluster in the last labelling inside the rows (*g = SIZE_MAX: none, the node is closed
 * or cannot go on). */
static ckm_error node_rounds(priced_search *q, double *bound, size_t *g, int32_t *j, ckm_err *err)
{
    ckm_split_prices *P = q->P;
    const ckm_reduced *r = q->r;
    bool have = false, damped = false; /* P->prev: this node's last labelling inside the rows */
    size_t rounds = q->depth == 0 ? CKM_SPLIT_PRICE_ROOT_ROUNDS : CKM_SPLIT_PRICE_ROUNDS;
    *bound = -INFINITY;
    *g = SIZE_MAX;
    for (size_t round = 0; round < rounds && q->out->rounds < CKM_SPLIT_PRICE_ALL; round++) {
        const ckm_bk_limits *lim = q->holding ? &q->proof : &q->run;
        if (ckm_bk_limits_reached(lim)) {
            budget_spent(q);
            break;
        }
        bool searched, timed_out;
        ckm_split_prices_apply(P, r, q->cost);
        restrict_path(q);
        q->out->rounds++;
        ckm_error rc = q->unsized(q->ctx, P->pcost, have ? P->prev : q->start, lim, q->labels, &searched, &timed_out,
                                  err);
        if (rc != CKM_OK)
            return rc;
        q->out->timed_out = q->out->timed_out || timed_out;
        if (!searched || timed_out)
            return CKM_OK;
        *bound = fmax(*bound, ckm_split_prices_bound(P, r, q->cost, q->labels));
        if (closed(q, *bound))
            return CKM_OK;
        if (have && moved(P, r, q->labels, g, j) == 0 && !damped)
            return CKM_OK; /* held still but not closed: the rounding of L, nothing to branch on */
        bool ok;
        rc = ckm_split_prices_transport(P, r, q->labels, lim, &ok, err);
        if (rc != CKM_OK || !ok) {
            budget_spent(q);
            return rc;
        }
        offer(q, q->labels);
        size_t g2;
        int32_t j2;
        damped = have && moved(P, r, q->labels, &g2, &j2) > CKM_SPLIT_PRICE_DAMP_ABOVE;
        for (size_t c = 0; c < r->k && damped; c++)
            P->price[c] = 0.5 * (P->price[c] + P->keep[c]);
        memcpy(P->prev, q->labels, r->s * sizeof(int32_t));
        have = true;
    }
    if (!have)
        *g = SIZE_MAX;
    return CKM_OK;
}

/* A node and, when its rounds do not settle, its two children (g at j, g elsewhere), down to
 * CKM_SPLIT_PRICE_DEPTH. *bound: a lower bound on the node's problem. */
static ckm_error node(priced_search *q, double *bound, ckm_err *err)
{
    size_t g;
    int32_t j;
    q->out->nodes++;
    ckm_error rc = node_rounds(q, bound, &g, &j, err);
    if (rc != CKM_OK || g == SIZE_MAX || q->depth == CKM_SPLIT_PRICE_DEPTH || q->out->timed_out ||
        closed(q, *bound))
        return rc;
    double child[2];
    for (int side = 0; side < 2 && rc == CKM_OK; side++) {
        q->path[q->depth].g = g;
        q->path[q->depth].j = j;
        q->path[q->depth].at = side == 0;
        q->depth++;
        rc = node(q, &child[side], err);
        q->depth--;
    }
    if (rc == CKM_OK)
        *bound = fmax(*bound, fmin(child[0], child[1]));
    return rc;
}

ckm_error ckm_split_prices_step(ckm_split_prices *P, const ckm_reduced *r, const double *cost, const int32_t *start,
                                const ckm_bk_limits *lim, double budget_s, ckm_split_unsized_fn unsized, void *ctx,
                                int32_t *labels, ckm_split_priced_out *out, ckm_err *err)
{
    memset(out, 0, sizeof *out);
    out->bound = -INFINITY;
    out->objective = INFINITY;
    ckm_split_prices_costs(P, r, cost);
    priced_search q = {.P = P, .r = r, .cost = cost, .start = start, .run = *lim, .budget_s = budget_s,
                       .unsized = unsized, .ctx = ctx, .labels = labels, .out = out};
    /* with the caller's labels inside the rows the step's budget applies from the start */
    if (start && ckm_group_labels_feasible(r, start, P->wsum))
        offer(&q, start);
    double b;
    ckm_error rc = node(&q, &b, err);
    if (rc != CKM_OK)
        return rc;
    out->bound = b;
    out->proven = closed(&q, b);
    if (out->have)
        memcpy(labels, P->best, r->s * sizeof(int32_t));
    return CKM_OK;
}
