/*
 * sdp_fixture.h -- tiny instances for the SDP tests (internal: includes src headers):
 * the must-link-reduced problem, and the relaxation built and solved once at the root.
 * Needs check.h and oracle.h first.
 */
#ifndef CKM_TEST_SDP_FIXTURE_H
#define CKM_TEST_SDP_FIXTURE_H

#include "sdp.h"

/* The instance (sizes lo/hi unless lo is NULL) reduced on must-link groups; *pp receives the
 * problem (free both). NULL when the preprocessing proves it infeasible. */
__attribute__((unused)) static ckm_reduced *sdp_reduce(const double *X, int n, int d, int k, const oracle_pair *pairs,
                                                       int np, const size_t *lo, const size_t *hi, ckm_problem **pp)
{
    ckm_err err = {CKM_OK, ""};
    *pp = oracle_problem(X, n, d, k, pairs, np, lo, hi);
    CHECK(*pp != NULL);
    if (!*pp)
        return NULL;
    ckm_reduced *r = NULL;
    int infeasible = 0;
    char why[256];
    CHECK(ckm_reduce(*pp, &r, &infeasible, why, sizeof why, &err) == CKM_OK);
    return infeasible ? (ckm_reduced_free(r), NULL) : r;
}

/* The relaxation of r solved from a cold start with tolerance tol (and max_iter when > 0);
 * par and info receive the parameters and the result. NULL if it cannot be built. */
__attribute__((unused)) static ckm_sdp *sdp_root(const ckm_reduced *r, double tol, int max_iter, ckm_sdp_params *par,
                                                 ckm_sdp_info *info)
{
    ckm_err err = {CKM_OK, ""};
    ckm_sdp *sdp = NULL;
    CHECK(ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
    if (!sdp)
        return NULL;
    ckm_sdp_params_default(par);
    par->tol = tol;
    if (max_iter > 0)
        par->max_iter = max_iter;
    CHECK(ckm_sdp_solve(sdp, NULL, par, info, &err) == CKM_OK);
    return sdp;
}

#endif
