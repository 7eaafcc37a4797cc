/*
 * mip_cbc.c -- MILP through COIN-OR CBC's C API (Debian coinor-libcbc-dev), default
 * settings (preprocessing, cuts, heuristics on: the measured best for hard cannot-link
 * models; callers avoid CBC entirely when the LP is already integral).
 *
 * Invariants:
 *  - CBC keeps global state in its driver and returned wrong results when two threads
 *    solved at once (measured 7/30), so every CBC call runs under one mutex. The time left
 *    is computed after the lock is taken: waiting for another thread's solve uses it up.
 *  - No process-wide side effect: CBC is silenced through its own means only -- log level
 *    0, the command-line parameters "log 0" and "slog 0" of its driver, and a message
 *    callback that discards every message, so nothing CBC reports reaches stdout
 *    (tests/embed/test_embed.c checks that another thread's stdout survives a MILP-heavy
 *    solve).
 *  - A known feasible point is passed as an objective cutoff (search only strictly better
 *    points), not through CBC's MIP-start API (in CBC 2.10 that path prints "row inf ... /
 *    slacks added" with printf). With a cutoff, "infeasible" means "nothing better than
 *    the start", i.e. the start is optimal.
 *  - Stops: the deadline goes to CBC as its wall-clock limit ("timeMode elapsed"); a stop
 *    request (or the deadline, checked by us too) is polled from a cut callback that CBC
 *    calls at every node it solves. When it fires, the callback adds the cut
 *    x_0 >= ub_0 + 1, which makes each remaining node infeasible, so the search ends at
 *    once; CBC's own verdict ("infeasible", "optimal") is then ignored and the result is
 *    LIMIT_FEASIBLE with the best point found before the stop (or the start), or
 *    LIMIT_NONE. Latency: one node, or CBC's preprocessing / root LP when it is still
 *    there (no callback runs in them).
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

ckm_bk_limits ckm_bk_no_limits(void)
{
    ckm_bk_limits l = {INFINITY, NULL, NULL};
    return l;
}

/* CBC's messages: discarded (the caller reports what matters from the result). */
static void discard_message(Cbc_Model *model, int msgno, int ndouble, const double *dvec, int nint,
                            const int *ivec, int nchar, char **cvec)
{
    (void)model, (void)msgno, (void)ndouble, (void)dvec, (void)nint, (void)ivec, (void)nchar, (void)cvec;
}

typedef struct stop_watch {
    const ckm_bk_limits *lim;
    int fired;     /* 1 once the infeasible cut has been added */
    int requested; /* 1 when the stop request (not the deadline) fired */
} stop_watch;

/* Cut callback, called by CBC at every node: when a stop is due, cut the node off. */
static void poll_stop(void *osi, void *cuts, void *app)
{
    stop_watch *w = app;
    if (!w->fired) {
        if (w->lim->stop && w->lim->stop(w->lim->stop_user))
            w->fired = w->requested = 1;
        else if (ckm_now() >= w->lim->deadline)
            w->fired = 1;
    }
    if (!w->fired || Osi_getNumCols(osi) < 1)
        return;
    int col = 0;
    double one = 1.0, rhs = Osi_getColUpper(osi)[0] + 1.0; /* x_0 >= ub_0 + 1: infeasible */
    OsiCuts_addRowCut(cuts, 1, &col, &one, 'G', rhs);
}

/* Status and point after CBC returned. cut_off: the stop callback ended the search, so
 * CBC's verdict ("optimal", "infeasible") is void and only its best point counts. */
static void read_outcome(Cbc_Model *cbc, int cut_off, const double *start, double start_obj, const double **sol,
                         ckm_bk_result *res)
{
    *sol = Cbc_bestSolution(cbc);
    if (!cut_off && Cbc_isProvenOptimal(cbc) && *sol) {
        res->status = CKM_BK_OPTIMAL;
    } else if (!cut_off && (Cbc_isProvenInfeasible(cbc) || (start && !*sol && Cbc_isProvenOptimal(cbc)))) {
        /* with a cutoff: nothing better than the start exists, so the start is optimal */
        res->status = start ? CKM_BK_OPTIMAL : CKM_BK_INFEASIBLE;
        if (start) {
            *sol = start;
            res->objective = start_obj;
            res->bound = start_obj;
        }
    } else if (!cut_off && Cbc_isAbandoned(cbc)) {
        res->status = CKM_BK_FAILED;
    } else if (*sol) {
        res->status = CKM_BK_LIMIT_FEASIBLE;
    } else if (start) {
        res->status = CKM_BK_LIMIT_FEASIBLE; /* limit or stop, nothing better: keep the start */
        *sol = start;
        res->objective = start_obj;
    } else {
        res->status = CKM_BK_LIMIT_NONE;
    }
}

ckm_error ckm_bk_mip(const ckm_lp *m, const ckm_bk_limits *lim, const double *start, double *x,
                     ckm_bk_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_bk_limits none = ckm_bk_no_limits();
    if (!lim)
        lim = &none;
    memset(res, 0, sizeof *res);
    res->bound = -INFINITY;
    double start_obj = 0.0;
    if (start)
        for (int j = 0; j < m->ncols; j++)
            start_obj += m->obj[j] * start[j];
    pthread_mutex_lock(&cbc_lock);
    double left = lim->deadline - ckm_now(); /* measured after the lock */
    int stop_now = lim->stop && lim->stop(lim->stop_user);
    if (left <= 0.0 || stop_now) {
        pthread_mutex_unlock(&cbc_lock);
        res->status = start ? CKM_BK_LIMIT_FEASIBLE : CKM_BK_LIMIT_NONE;
        res->stopped = stop_now;
        if (start) {
            memcpy(x, start, (size_t)m->ncols * sizeof(double));
            res->objective = start_obj;
        }
        res->seconds = ckm_now() - t0;
        return CKM_OK;
    }
    Cbc_Model *cbc = Cbc_newModel();
    if (!cbc) {
        pthread_mutex_unlock(&cbc_lock);
        return ckm_fail(err, CKM_ERR_NOMEM, "CBC: cannot create a model");
    }
    Cbc_loadProblem(cbc, m->ncols, m->nrows, m->col_start, m->row_index, m->value, m->col_lo,
                    m->col_hi, m->obj, m->row_lo, m->row_hi);
    for (int j = 0; j < m->ncols; j++)
        Cbc_setInteger(cbc, j);
    Cbc_registerCallBack(cbc, discard_message);
    Cbc_setLogLevel(cbc, 0);
    /* CbcMain1 and its heuristics' sub-models print through handlers of their own unless
     * both the CBC and the solver log levels are 0 on its command line (measured: with
     * only Cbc_setLogLevel, preprocessing and the feasibility pump printed to stdout) */
    Cbc_setParameter(cbc, "log", "0");
    Cbc_setParameter(cbc, "slog", "0");
    Cbc_setParameter(cbc, "timeMode", "elapsed");
    if (isfinite(left))
        Cbc_setMaximumSeconds(cbc, left);
    if (start)
        Cbc_setCutoff(cbc, start_obj + 1e-9 * (1.0 + fabs(start_obj)));
    stop_watch watch = {lim, 0, 0};
    Cbc_addCutCallback(cbc, poll_stop, "ckm_stop", &watch);
    Cbc_solve(cbc);
    res->nodes = Cbc_getNodeCount(cbc);
    const double *sol = NULL;
    res->stopped = watch.requested;
    read_outcome(cbc, watch.fired, start, start_obj, &sol, res);
    if (sol && (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)) {
        memcpy(x, sol, (size_t)m->ncols * sizeof(double));
        if (sol != start) {
            res->objective = Cbc_getObjValue(cbc);
            res->bound = watch.fired ? -INFINITY : Cbc_getBestPossibleObjValue(cbc);
        }
    }
    Cbc_deleteModel(cbc);
    pthread_mutex_unlock(&cbc_lock);
    res->seconds = ckm_now() - t0;
    return CKM_OK;
}
