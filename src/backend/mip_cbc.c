/*
 * mip_cbc.c -- MILP through COIN-OR CBC's C API (Debian coinor-libcbc-dev), default
 * settings (preprocessing, cuts, heuristics on: the measured best for hard cannot-link
 * models; callers avoid CBC entirely when the LP is already integral).
 * CBC keeps global state in its driver and returned wrong results when two threads
 * solved at once (measured 7/30), so every CBC call runs under one mutex.
 */
#include "backend.h"
#include "core.h"

#include <CbcConfig.h>
#include <Cbc_C_Interface.h>
#include <ClpConfig.h>
#include <Clp_C_Interface.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t cbc_lock = PTHREAD_MUTEX_INITIALIZER;

const char *ckm_bk_versions(void)
{
    return "Clp " CLP_VERSION ", Cbc " CBC_VERSION;
}

ckm_error ckm_bk_mip(const ckm_lp *m, double time_limit_s, const double *start, double *x,
                     ckm_bk_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    memset(res, 0, sizeof *res);
    res->bound = -INFINITY;
    int *idx = NULL;
    if (start && !(idx = ckm_alloc_array((size_t)m->ncols, sizeof(int))))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&cbc_lock);
    Cbc_Model *cbc = Cbc_newModel();
    if (!cbc) {
        pthread_mutex_unlock(&cbc_lock);
        free(idx);
        return ckm_fail(err, CKM_ERR_NOMEM, "CBC: cannot create a model");
    }
    Cbc_loadProblem(cbc, m->ncols, m->nrows, m->col_start, m->row_index, m->value, m->col_lo,
                    m->col_hi, m->obj, m->row_lo, m->row_hi);
    for (int j = 0; j < m->ncols; j++)
        Cbc_setInteger(cbc, j);
    Cbc_setLogLevel(cbc, 0);
    if (time_limit_s > 0.0)
        Cbc_setMaximumSeconds(cbc, time_limit_s);
    if (start) {
        for (int j = 0; j < m->ncols; j++)
            idx[j] = j;
        Cbc_setMIPStartI(cbc, m->ncols, idx, start);
    }
    Cbc_solve(cbc);
    const double *sol = Cbc_bestSolution(cbc);
    if (Cbc_isProvenOptimal(cbc) && sol) {
        res->status = CKM_BK_OPTIMAL;
    } else if (Cbc_isProvenInfeasible(cbc)) {
        res->status = CKM_BK_INFEASIBLE;
    } else if (Cbc_isAbandoned(cbc)) {
        res->status = CKM_BK_FAILED;
    } else {
        res->status = sol ? CKM_BK_LIMIT_FEASIBLE : CKM_BK_LIMIT_NONE;
    }
    if (sol && (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)) {
        memcpy(x, sol, (size_t)m->ncols * sizeof(double));
        res->objective = Cbc_getObjValue(cbc);
        res->bound = Cbc_getBestPossibleObjValue(cbc);
    }
    Cbc_deleteModel(cbc);
    pthread_mutex_unlock(&cbc_lock);
    free(idx);
    res->seconds = ckm_now() - t0;
    return CKM_OK;
}
