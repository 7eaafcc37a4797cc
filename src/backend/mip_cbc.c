/*
 * mip_cbc.c -- MILP through COIN-OR CBC's C API (Debian coinor-libcbc-dev), default
 * settings (preprocessing, cuts, heuristics on: the measured best for hard cannot-link
 * models; callers avoid CBC entirely when the LP is already integral).
 * CBC keeps global state in its driver and returned wrong results when two threads
 * solved at once (measured 7/30), so every CBC call runs under one mutex.
 * A known feasible point is passed as an objective cutoff (search only strictly better
 * points), not through CBC's MIP-start API: in CBC 2.10 that path prints "row inf ... /
 * slacks added" to stdout whatever the log level, which would corrupt the tool's output.
 * With a cutoff, "infeasible" means "nothing better than the start", i.e. the start is
 * optimal.
 * CBC 2.10 also prints diagnostics ("row inf", "N slacks added") from its heuristics with
 * printf, whatever the log level. While CBC runs (under the mutex) file descriptor 1 is
 * therefore pointed at /dev/null and restored afterwards, stdio flushed on both sides; the
 * price is that another thread's stdout output during a MILP solve is discarded.
 */
#include "backend.h"
#include "core.h"

#include <CbcConfig.h>
#include <Cbc_C_Interface.h>
#include <ClpConfig.h>
#include <Clp_C_Interface.h>
#include <math.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t cbc_lock = PTHREAD_MUTEX_INITIALIZER;

/* Point fd 1 at /dev/null; returns the saved descriptor or -1 (then nothing changed). */
static int mute_stdout(void)
{
    fflush(stdout);
    int saved = dup(1);
    int null = open("/dev/null", O_WRONLY);
    if (saved < 0 || null < 0 || dup2(null, 1) < 0) {
        if (saved >= 0)
            close(saved);
        if (null >= 0)
            close(null);
        return -1;
    }
    close(null);
    return saved;
}

static void unmute_stdout(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout); /* CBC's buffered printf output goes to /dev/null, not to the caller */
    dup2(saved, 1);
    close(saved);
}

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
    double start_obj = 0.0;
    if (start)
        for (int j = 0; j < m->ncols; j++)
            start_obj += m->obj[j] * start[j];
    pthread_mutex_lock(&cbc_lock);
    /* the time limit counts from the call: waiting for another thread's solve uses it up */
    double left = time_limit_s > 0.0 ? time_limit_s - (ckm_now() - t0) : 0.0;
    if (time_limit_s > 0.0 && left <= 0.0) {
        pthread_mutex_unlock(&cbc_lock);
        res->status = start ? CKM_BK_LIMIT_FEASIBLE : CKM_BK_LIMIT_NONE;
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
    Cbc_setLogLevel(cbc, 0);
    if (time_limit_s > 0.0)
        Cbc_setMaximumSeconds(cbc, left);
    if (start)
        Cbc_setCutoff(cbc, start_obj + 1e-9 * (1.0 + fabs(start_obj)));
    int muted = mute_stdout();
    Cbc_solve(cbc);
    unmute_stdout(muted);
    const double *sol = Cbc_bestSolution(cbc);
    if (Cbc_isProvenOptimal(cbc) && sol) {
        res->status = CKM_BK_OPTIMAL;
    } else if (Cbc_isProvenInfeasible(cbc) || (start && !sol && Cbc_isProvenOptimal(cbc))) {
        /* with a cutoff: nothing better than the start exists, so the start is optimal */
        res->status = start ? CKM_BK_OPTIMAL : CKM_BK_INFEASIBLE;
        if (start) {
            sol = start;
            res->objective = start_obj;
            res->bound = start_obj;
        }
    } else if (Cbc_isAbandoned(cbc)) {
        res->status = CKM_BK_FAILED;
    } else if (sol) {
        res->status = CKM_BK_LIMIT_FEASIBLE;
    } else if (start) {
        res->status = CKM_BK_LIMIT_FEASIBLE; /* time limit, nothing better: keep the start */
        sol = start;
        res->objective = start_obj;
    } else {
        res->status = CKM_BK_LIMIT_NONE;
    }
    if (sol && (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)) {
        memcpy(x, sol, (size_t)m->ncols * sizeof(double));
        if (sol != start) {
            res->objective = Cbc_getObjValue(cbc);
            res->bound = Cbc_getBestPossibleObjValue(cbc);
        }
    }
    Cbc_deleteModel(cbc);
    pthread_mutex_unlock(&cbc_lock);
    res->seconds = ckm_now() - t0;
    return CKM_OK;
}
