/*
 * fallback.c -- a feasible labelling for a run that a time limit or a stop request ended
 * before it had found one (an SDP iteration on thousands of groups can take seconds, and
 * ipc / exact skip a relaxation whose first iteration would end past the deadline).
 *   k-means++ seeds on the groups (seed settings.seed), centers ordered by size slots, then
 *   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every must-link, cannot-link
 *   and size bound; means) -- until the run's own deadline when time is left, else for at
 *   most CKM_GRACE_S seconds, ignoring further stop requests: a user who stops a run wants
 *   the best labelling now, and any feasible one beats none. Only a first assignment that
 *   cannot finish within that time (or a proof that none exists) leaves no labels.
 * Cost: seeding O(s k d), one LP of s*k columns per iteration.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "exact_step.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ckm_error ckm_fallback_labels(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    ckm_settings s = *ctx->s;
    s.should_stop = NULL; /* the stop was already asked for: these steps are the answer to it */
    double t0 = ckm_now();
    ckm_context grace = {&s, ctx->start, fmax(ctx->deadline, t0 + CKM_GRACE_S)};
    if (out->status == CKM_STATUS_INTERRUPTED)
        grace.deadline = t0 + CKM_GRACE_S;
    size_t k = r->k, d = r->d;
    ckm_assign asg;
    memset(&asg, 0, sizeof asg);
    ckm_seeder seeder;
    memset(&seeder, 0, sizeof seeder);
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    double *cost = ckm_alloc_array(r->s * k, sizeof(double));
    int32_t *cur = ckm_alloc_array(r->s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!C || !wsum || !cost || !cur) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the stop fallback (%zu groups, k = %zu)", r->s, k);
        goto done;
    }
    if ((rc = ckm_seeder_init(&seeder, r, s.threads, err)) != CKM_OK)
        goto done;
    ckm_rng rng;
    ckm_rng_seed(&rng, s.seed, 0xfa11bacc);
    ckm_seed_centers(&seeder, CKM_INIT_KMEANSPP, &rng, C);
    if ((rc = ckm_order_centers_by_size(r, C, err)) != CKM_OK || (rc = ckm_assign_init(&asg, r, err)) != CKM_OK)
        goto done;
    ckm_lloyd_stats st;
    ckm_algo_out tmp = *out; /* a proof of infeasibility becomes the run's outcome */
    if ((rc = ckm_exact_lloyd(&grace, &asg, r, CKM_DISTANCE_SQEUCLIDEAN, s.max_iter > 0 ? s.max_iter : 100, "fallback",
                              0, C, wsum, cost, cur, out->labels, &st, &tmp, err)) != CKM_OK)
        goto done;
    if (st.infeasible) {
        out->status = CKM_STATUS_INFEASIBLE;
        snprintf(out->message, sizeof out->message, "%s", tmp.message);
    } else if (st.have) {
        out->has_labels = 1;
        out->iterations = st.iterations;
        size_t used = strlen(out->message);
        snprintf(out->message + used, sizeof out->message - used,
                 "%sstopped before a labelling was found: labels from the BLPKM iteration on k-means++ seeds "
                 "(%d assignment steps, %.2f s)",
                 used ? "; " : "", st.iterations, ckm_now() - t0);
    }
done:
    ckm_seeder_free(&seeder);
    ckm_assign_free(&asg);
    free(C);
    free(wsum);
    free(cost);
    free(cur);
    return rc;
}
