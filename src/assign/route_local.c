/*
 * route_local.c -- the local route: a step with soft pairs whose model is too large to build
 * (more than CKM_LOCAL_FROM_NNZ nonzeros, about 2 GB with CLP's and CBC's copies) and whose
 * only hard rows a trivial labelling keeps (no cannot-links, default sizes, no capacities).
 * The step is the caller's labels, or the trivial start (each group at its cheapest cluster,
 * empty clusters filled), improved by 1-opt moves (soft_local.h) until none improves or the
 * run's deadline: feasible, never proven optimal (the result says cut), so the route is not
 * held to the step limit. Memory: the incidence lists of the pairs, O(s + pairs).
 * (Measured, bench/README.md "PCCC": 60,000 x 20, k = 100, 2 x 10^6 soft pairs, a model of
 * 6.95e8 nonzeros: 4.6 s and 292 MB a run.)
 */
#include "core.h"
#include "model.h"
#include "route.h"
#include "soft_local.h"

#include <stdlib.h>
#include <string.h>

/* Past this many nonzeros a model with soft pairs is not built. */
#define CKM_LOCAL_FROM_NNZ 3.0e7

static ckm_error local_init(void **state, const ckm_reduced *r, ckm_err *err)
{
    (void)r;
    (void)err;
    *state = NULL; /* nothing kept between steps */
    return CKM_OK;
}

static ckm_error local_solve(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                             const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    (void)state;
    if (start)
        memcpy(labels, start, r->s * sizeof(int32_t));
    else if (!ckm_soft_trivial_start(r, c->cost, labels))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for a first labelling");
    if (!ckm_soft_local_search(r, c->cost, lim->deadline, labels, &res->local_moves))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the local search");
    res->status = CKM_BK_LIMIT_FEASIBLE;
    res->cut = 1;
    return CKM_OK;
}

static void local_free(void *state)
{
    (void)state;
}

/* the caller's s x k costs it reads, its incidence lists and labels (16 s + 32 per soft
   pair) and k-arrays (docs/memory.md) */
static double local_bytes(const ckm_reduced *r, bool by_centers)
{
    (void)by_centers;
    return 8.0 * (double)r->s * (double)r->k + 16.0 * (double)r->s + 32.0 * (double)r->n_soft + 16.0 * (double)r->k;
}

static bool local_takes(const ckm_reduced *r)
{
    return r->n_soft > 0 && r->n_cl == 0 && !r->has_sizes && !r->has_caps;
}

static bool local_applies(const ckm_reduced *r, bool lp)
{
    return !lp && local_takes(r) && ckm_model_full_nnz(r) > CKM_LOCAL_FROM_NNZ;
}

const ckm_route ckm_route_local = {
    .name = "local",
    .applies = local_applies,
    .takes = local_takes,
    .bytes = local_bytes,
    .init = local_init,
    .solve = local_solve,
    .free = local_free,
    .proves = false,
};
