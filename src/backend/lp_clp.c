/*
 * lp_clp.c -- LP through COIN-OR CLP's C API (Debian coinor-libclp-dev). Dual simplex
 * from a fresh model each call; CLP's own output silenced.
 * Status mapping: Clp_status 0 optimal, 1 primal infeasible, 2 dual infeasible
 * (unbounded), 3 stopped on iterations/time, 4 stopped due to errors.
 */
#include "backend.h"
#include "core.h"

#include <Clp_C_Interface.h>
#include <string.h>

ckm_error ckm_bk_lp(const ckm_lp *m, double time_limit_s, double *x, ckm_bk_result *res,
                    ckm_err *err)
{
    double t0 = ckm_now();
    memset(res, 0, sizeof *res);
    Clp_Simplex *clp = Clp_newModel();
    if (!clp)
        return ckm_fail(err, CKM_ERR_NOMEM, "CLP: cannot create a model");
    Clp_setLogLevel(clp, 0);
    Clp_loadProblem(clp, m->ncols, m->nrows, m->col_start, m->row_index, m->value, m->col_lo,
                    m->col_hi, m->obj, m->row_lo, m->row_hi);
    if (time_limit_s > 0.0)
        Clp_setMaximumSeconds(clp, time_limit_s);
    Clp_dual(clp, 0);
    int st = Clp_status(clp);
    if (st == 0 && Clp_isProvenOptimal(clp)) {
        res->status = CKM_BK_OPTIMAL;
        memcpy(x, Clp_getColSolution(clp), (size_t)m->ncols * sizeof(double));
        res->objective = res->bound = Clp_getObjValue(clp);
    } else if (st == 1 || Clp_isProvenPrimalInfeasible(clp)) {
        res->status = CKM_BK_INFEASIBLE;
    } else if (st == 3) {
        res->status = CKM_BK_LIMIT_NONE;
    } else {
        res->status = CKM_BK_FAILED;
    }
    Clp_deleteModel(clp);
    res->seconds = ckm_now() - t0;
    return CKM_OK;
}
