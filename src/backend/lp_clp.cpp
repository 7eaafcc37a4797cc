/*
 * lp_clp.cpp -- LP through COIN-OR CLP's C++ class ClpSimplex (Debian coinor-libclp-dev):
 * dual simplex from a fresh model each call, no presolve, every message discarded; from the
 * slack basis, or from the caller's dual feasible basis (ckm_lp.basis, whose CKM_LP_* codes
 * are CLP's status codes), or the primal simplex from a primal feasible one (ckm_lp.primal);
 * the optimal basis handed back on request (ckm_lp.basis_out).
 * C++ only because CLP's C API offers no way to stop a simplex in progress: here the stop
 * watch (coin_stop.hpp) ends it at the iteration during which the deadline passes or the
 * stop request answers yes, so a stop waits for one simplex iteration, not one LP.
 * Status mapping (ClpModel::status): 0 optimal, 1 primal infeasible, 2 dual infeasible
 * (unbounded), 3 iteration limit, 4 errors, 5 stopped by the event handler.
 * No exception leaves this file: COIN-OR's are turned into ckm errors.
 */
#include "coin_stop.hpp"

#include <ClpSimplex.hpp>

#include <cstring>

/* ckm_lp.basis is handed to CLP as its status array: the codes must be CLP's */
static_assert(CKM_LP_BASIC == int(ClpSimplex::basic) && CKM_LP_AT_UPPER == int(ClpSimplex::atUpperBound) &&
                  CKM_LP_AT_LOWER == int(ClpSimplex::atLowerBound),
              "CKM_LP_* codes differ from ClpSimplex::Status");

using ckm_coin::ClpStop;
using ckm_coin::Quiet;
using ckm_coin::StopWatch;

static ckm_error solve_lp(const ckm_lp *m, StopWatch *watch, double *x, double *dual, ckm_bk_result *res)
{
    Quiet quiet;
    ClpSimplex clp;
    clp.passInMessageHandler(&quiet); /* borrowed: outlives clp */
    clp.setLogLevel(0);
    clp.loadProblem(m->ncols, m->nrows, m->col_start, m->row_index, m->value, m->col_lo, m->col_hi,
                    m->obj, m->row_lo, m->row_hi);
    ClpStop stop(watch);
    clp.passInEventHandler(&stop); /* cloned */
    if (m->basis)
        clp.copyinStatus(m->basis);
    if (m->basis && m->primal)
        clp.primal(0);
    else
        clp.dual(0);
    int st = clp.status();
    if (st == 0 && clp.isProvenOptimal()) {
        res->status = CKM_BK_OPTIMAL;
        if (m->basis_out) {
            for (int j = 0; j < m->ncols; j++)
                m->basis_out[j] = (unsigned char)clp.getColumnStatus(j);
            for (int i = 0; i < m->nrows; i++)
                m->basis_out[m->ncols + i] = (unsigned char)clp.getRowStatus(i);
        }
        std::memcpy(x, clp.primalColumnSolution(), (size_t)m->ncols * sizeof(double));
        if (dual) /* CLP's row duals y: reduced cost c_j - sum_i a_ij y_i (minimisation) */
            std::memcpy(dual, clp.dualRowSolution(), (size_t)m->nrows * sizeof(double));
        res->objective = res->bound = clp.objectiveValue();
    } else if (watch->fired) {
        res->status = CKM_BK_LIMIT_NONE; /* cut short: no verdict */
    } else if (st == 1 || clp.isProvenPrimalInfeasible()) {
        res->status = CKM_BK_INFEASIBLE;
    } else if (st == 3) {
        res->status = CKM_BK_LIMIT_NONE;
    } else {
        res->status = CKM_BK_FAILED;
    }
    return CKM_OK;
}

extern "C" ckm_error ckm_bk_lp(const ckm_lp *m, const ckm_bk_limits *lim, double *x, double *dual,
                               ckm_bk_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    std::memset(res, 0, sizeof *res);
    ckm_bk_limits none = ckm_bk_no_limits();
    StopWatch watch(lim ? lim : &none);
    ckm_error rc = CKM_OK;
    if (watch.due()) {
        res->status = CKM_BK_LIMIT_NONE;
    } else {
        rc = ckm_coin::guarded("CLP", m, err, [&] { return solve_lp(m, &watch, x, dual, res); });
    }
    res->stopped = watch.requested;
    res->seconds = ckm_now() - t0;
    return rc;
}
