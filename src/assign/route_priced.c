/*
 * route_priced.c -- the priced route of capacity steps (route.h): the step's bound and first
 * labelling from Lagrangian prices on the capacity and size rows (prices.h: g(p, pi), a lower
 * bound on the step's optimum for any prices, cannot-links relaxed, and reduced costs
 * rc_tj = v_tj - min_i v_ti >= 0 for which the fixing is valid), in O(s k) memory and time per
 * sweep, instead of CLP on the full model's s k columns (at 10^5 groups, k = 50, CLP had not
 * solved the first step's LP in 250 s; bench/README.md). The prices carry over to the next
 * step (the centers move little), so later steps take few sweeps.
 * Then the fixing's rounds (fix.h: CBC on the columns with rc within the gap) prove the step
 * optimal or return the best labelling at a limit. Their incumbent is the cheapest of the
 * previous step's labels, the argmin labels repaired, and the LP on the columns of small rc
 * rounded and repaired (ckm_fix_lp_guess), improved by moves and swaps (cap_local.h). The
 * argmin labels alone break rows by far more than a rounding: near-optimal prices leave
 * many groups within a hair of a tie.
 * Step limit: once the step holds a labelling (the previous step's, or the argmin labels
 * repaired), that LP only improves it, so it shares the proof's budget (route.h); only a step
 * without one gives it the run's limits. (Held to the run's limits, the LP took 8-51 s a step
 * at 10^5 x 8, k = 20, heavily overlapping blobs, capacities +-5 %, against a 2 s limit.)
 */
#include "cap_local.h"
#include "core.h"
#include "fix.h"
#include "incidence.h"
#include "model.h"
#include "prices.h"
#include "route.h"
#include "route_priced.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct priced {
    ckm_prices *P;
    int32_t *lp, *best;       /* s: the LP guess, the incumbent */
    size_t *inc_start, *inc;  /* cannot-link incidence */
} priced;

static void price_free(void *state)
{
    priced *q = state;
    if (!q)
        return;
    ckm_prices_free(q->P);
    free(q->lp);
    free(q->best);
    free(q->inc_start);
    free(q->inc);
    free(q);
}

static ckm_error price_init(void **state, const ckm_reduced *r, ckm_err *err)
{
    priced *q = calloc(1, sizeof *q);
    *state = q;
    if (!q || !(q->P = ckm_prices_new(r)) || !(q->lp = ckm_alloc_array(r->s, sizeof(int32_t))) ||
        !(q->best = ckm_alloc_array(r->s, sizeof(int32_t))) || !ckm_incidence(r->s, r->n_cl, r->cl, &q->inc_start, &q->inc))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the capacity step's prices");
    return CKM_OK;
}

static double price_bytes(const ckm_reduced *r, bool by_centers)
{
    (void)by_centers;
    /* v, then rc in its place (8), and the fixer's: states (1), compact map (8), queue
       (8 (k+1)/k) per (t, j); per group about 60 bytes */
    return 25.0 * (double)r->s * (double)r->k + 60.0 * (double)r->s;
}

static ckm_error price_solve(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                             const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    priced *q = state;
    ckm_prices *P = q->P;
    const double *cost = c->cost;
    size_t s = P->s, k = P->k, sweeps = 0;
    for (size_t rho = 0; rho < P->nrow; rho++)
        if (!isfinite(P->p[rho]))
            P->p[rho] = 0.0;
    double g = ckm_prices_ascend(P, r, cost, lim, &sweeps);
    res->has_bound = 1;
    res->bound = g;
    res->stat[CKM_PRICED_SWEEPS] = sweeps;
    for (size_t t = 0; t < s; t++) /* rc in v's place: the next step refreshes v from its costs */
        for (size_t j = 0; j < k; j++)
            P->v[t * k + j] -= P->bv[t];
    /* the incumbent: the caller's labels, the argmin labels repaired, the LP on the columns of
       small rc rounded and repaired -- the cheapest, improved by moves and swaps */
    ckm_fix_dense d = {r, cost, P->v};
    ckm_fix_src src = ckm_fix_dense_src(&d);
    bool guess = ckm_cap_repair(r, cost, q->inc_start, q->inc, P->arg), held = guess || start;
    ckm_bk_limits search = ckm_proof_limits(lim, c->budget_s, held);
    bool lp = ckm_fix_lp_guess(&src, g, &search, q->lp) && ckm_cap_repair(r, cost, q->inc_start, q->inc, q->lp);
    const int32_t *cand[] = {start, guess ? P->arg : NULL, lp ? q->lp : NULL};
    bool nomem = false;
    bool have = ckm_cap_best(r, cost, q->inc_start, q->inc, cand, 3, &search, q->best, &res->local_moves, &nomem);
    if (nomem)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's local search");
    ckm_bk_limits proof = have && held ? search : ckm_proof_limits(lim, c->budget_s, have);
    return ckm_fix_rounds(&src, g, have ? q->best : NULL, &proof, labels, res, err);
}

static void price_describe(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len)
{
    (void)r;
    snprintf(buf, len, ", %zu sweeps of the prices", res->stat[CKM_PRICED_SWEEPS]);
}

/* capacities without soft pairs on a model of at least CKM_PRICED_FROM_NNZ nonzeros, for a
   caller that needs no LP relaxation */
static bool price_applies(const ckm_reduced *r, bool lp)
{
    return !lp && r->has_caps && r->n_soft == 0 && ckm_model_full_nnz(r) >= CKM_PRICED_FROM_NNZ;
}

static bool price_takes(const ckm_reduced *r)
{
    return r->has_caps && r->n_soft == 0;
}

const ckm_route ckm_route_priced = {
    .name = "priced",
    .applies = price_applies,
    .takes = price_takes,
    .bytes = price_bytes,
    .init = price_init,
    .solve = price_solve,
    .free = price_free,
    .proves = true,
    .bound_name = "prices",
    .describe = price_describe,
    .summary = "on the price route (capacities: Lagrangian bound, no LP of all s k columns)",
    .summary_proven = false,
};
