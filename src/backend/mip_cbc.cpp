/*
 * mip_cbc.cpp -- MILP through COIN-OR CBC's C++ class CbcModel over OsiClpSolverInterface
 * (Debian coinor-libcbc-dev): branch-and-cut with CBC's default branching (strong
 * branching, then pseudo-costs), root cut generators (probing, Gomory, knapsack covers,
 * cliques -- cannot-link rows are edge cliques --, MIR, flow covers) and two cheap
 * heuristics (rounding, feasibility pump).
 *
 * Why CbcModel and not CBC's C API: the C API runs CBC's command-line driver (CbcMain1),
 * which keeps global state (two threads gave wrong results, measured 7/30) and whose
 * preprocessing and root LP called no callback, so a stop waited seconds. Here:
 *  - No lock: every solve owns its model, solvers, handlers and stop watch; nothing is
 *    shared between threads (tests/embed: concurrent solves equal sequential ones).
 *  - Stops from the first instruction: the CLP handler (coin_stop.hpp) ends any simplex
 *    -- root LP, cut-loop re-solves, strong branching, heuristics' sub-LPs -- at the next
 *    iteration, and a CBC handler ends the search at the next node. A fired watch voids
 *    CBC's verdict; the result is LIMIT_FEASIBLE with the best point found before (or the
 *    start), or LIMIT_NONE. Latency: one simplex iteration or one cut pass.
 *  - No output: every handler is Quiet. No signal handler: CLP's own (ClpSimplex::initialSolve)
 *    is switched off by a solve option (tests/internal/test_backend.c checks the disposition).
 *  - A known feasible point is passed as an objective cutoff (search only strictly better
 *    points). With a cutoff, "infeasible" means "nothing better than the start", i.e. the
 *    start is optimal.
 *  - Every point returned is re-checked here (integral, within column and row bounds, to
 *    1e-6) before it is believed: a point that fails is not returned.
 * No exception leaves this file: COIN-OR's are turned into ckm errors.
 */
#include "coin_stop.hpp"

#include <CbcEventHandler.hpp>
#include <CbcHeuristic.hpp>
#include <CbcHeuristicFPump.hpp>
#include <CbcModel.hpp>
#include <CglClique.hpp>
#include <CglFlowCover.hpp>
#include <CglGomory.hpp>
#include <CglKnapsackCover.hpp>
#include <CglMixedIntegerRounding2.hpp>
#include <CglProbing.hpp>
#include <ClpSimplex.hpp>
#include <ClpSolve.hpp>
#include <OsiClpSolverInterface.hpp>

#include <CbcConfig.h>
#include <ClpConfig.h>

#include <cmath>
#include <cstring>
#include <vector>

using ckm_coin::ClpStop;
using ckm_coin::Quiet;
using ckm_coin::StopWatch;

extern "C" const char *ckm_bk_versions(void)
{
    return "Clp " CLP_VERSION ", Cbc " CBC_VERSION;
}

namespace {

/* Ends the search at the next node (or tree-status / heuristic pass) once the watch fires. */
class CbcStop : public CbcEventHandler {
public:
    explicit CbcStop(StopWatch *w) : watch_(w) {}
    CbcStop(const CbcStop &o) : CbcEventHandler(o), watch_(o.watch_) {}
    CbcStop &operator=(const CbcStop &) = delete;
    CbcEventHandler *clone() const override { return new CbcStop(*this); }
    CbcAction event(CbcEvent e) override
    {
        /* only events whose answer means "stop"; a solution event's answer would judge
         * the solution instead */
        bool pollable = e == node || e == treeStatus || e == afterHeuristic || e == heuristicPass ||
                        e == generatedCuts;
        return pollable && watch_->due() ? stop : noAction;
    }

private:
    StopWatch *watch_;
};

/* x integral and within every bound of m (tolerance 1e-6). */
bool feasible_point(const ckm_lp *m, const double *x)
{
    const double tol = 1e-6;
    std::vector<double> ax((size_t)m->nrows, 0.0);
    for (int j = 0; j < m->ncols; j++) {
        if (!std::isfinite(x[j]) || std::fabs(x[j] - std::round(x[j])) > tol || x[j] < m->col_lo[j] - tol ||
            x[j] > m->col_hi[j] + tol)
            return false;
        for (int p = m->col_start[j]; p < m->col_start[j + 1]; p++)
            ax[(size_t)m->row_index[p]] += m->value[p] * x[j];
    }
    for (int i = 0; i < m->nrows; i++)
        if (ax[(size_t)i] < m->row_lo[i] - tol || ax[(size_t)i] > m->row_hi[i] + tol)
            return false;
    return true;
}

/* The generators and heuristics CbcModel runs (it keeps copies). */
void configure(CbcModel &model)
{
    CglProbing probing;
    probing.setUsingObjective(1);
    probing.setMaxPass(1);
    probing.setMaxPassRoot(3);
    probing.setMaxProbe(10);
    probing.setMaxProbeRoot(50);
    probing.setMaxLook(10);
    probing.setMaxLookRoot(50);
    probing.setRowCuts(3);
    CglGomory gomory;
    gomory.setLimit(300);
    CglKnapsackCover knapsack;
    CglClique clique;
    clique.setStarCliqueReport(false);
    clique.setRowCliqueReport(false);
    CglMixedIntegerRounding2 mir;
    CglFlowCover flow;
    /* howOften -1: at the root, and later only where CBC finds them effective */
    model.addCutGenerator(&probing, -1, "Probing");
    model.addCutGenerator(&gomory, -1, "Gomory");
    model.addCutGenerator(&knapsack, -1, "Knapsack");
    model.addCutGenerator(&clique, -1, "Clique");
    model.addCutGenerator(&mir, -1, "MIR");
    model.addCutGenerator(&flow, -1, "FlowCover");
    CbcRounding rounding(model);
    CbcHeuristicFPump pump(model);
    model.addHeuristic(&rounding, "Rounding");
    model.addHeuristic(&pump, "FPump");
}

struct Outcome {
    ckm_bk_status status;
    std::vector<double> x;
    double objective, bound;
    long nodes;
};

void solve_mip(const ckm_lp *m, StopWatch *watch, const double *start, double start_obj, Outcome *out)
{
    Quiet quiet;
    OsiClpSolverInterface solver;
    solver.passInMessageHandler(&quiet);
    solver.getModelPtr()->passInMessageHandler(&quiet);
    solver.loadProblem(m->ncols, m->nrows, m->col_start, m->row_index, m->value, m->col_lo, m->col_hi, m->obj,
                       m->row_lo, m->row_hi);
    for (int j = 0; j < m->ncols; j++)
        solver.setInteger(j);
    solver.setHintParam(OsiDoReducePrint, true, OsiHintTry);
    /* ClpSimplex::initialSolve (CbcModel::initialSolve, and every copy's) installs a SIGINT
     * handler of its own for the solve and points it at the model through a static: a host's
     * Ctrl-C went to CLP (measured: Python's KeyboardInterrupt lost) and two threads shared
     * that pointer. ClpSolve's special option 2 = 1 ("no interrupt handling, for threadsafe")
     * turns it off; copies of the solver keep it. */
    ClpSolve options;
    options.setSpecialOption(2, 1);
    solver.setSolveOptions(options);
    ClpStop clp_stop(watch);
    solver.getModelPtr()->passInEventHandler(&clp_stop); /* cloned into every copy of the LP */

    CbcModel model(solver); /* copies solver */
    model.passInMessageHandler(&quiet);
    model.setLogLevel(0);
    model.solver()->passInMessageHandler(&quiet);
    CbcStop cbc_stop(watch);
    model.passInEventHandler(&cbc_stop); /* cloned */
    model.setUseElapsedTime(true);
    if (std::isfinite(watch->lim->deadline))
        model.setMaximumSeconds(std::fmax(watch->lim->deadline - ckm_now(), 1e-3));
    if (start)
        model.setCutoff(start_obj + 1e-9 * (1.0 + std::fabs(start_obj)));
    configure(model);
    model.setNumberThreads(0);
    model.initialSolve();
    if (!watch->due())
        model.branchAndBound();
    out->nodes = model.getNodeCount();

    const double *sol = model.bestSolution();
    if (sol && !feasible_point(m, sol))
        sol = nullptr; /* never believed unchecked */
    bool fired = watch->fired;
    if (!fired && model.isProvenOptimal() && sol) {
        out->status = CKM_BK_OPTIMAL;
    } else if (!fired && (model.isProvenInfeasible() || (start && !sol && model.isProvenOptimal()))) {
        /* with a cutoff: nothing better than the start exists, so the start is optimal */
        out->status = start ? CKM_BK_OPTIMAL : CKM_BK_INFEASIBLE;
        sol = nullptr;
        if (start)
            out->objective = out->bound = start_obj;
    } else if (!fired && model.isAbandoned()) {
        out->status = CKM_BK_FAILED;
        return;
    } else {
        out->status = sol || start ? CKM_BK_LIMIT_FEASIBLE : CKM_BK_LIMIT_NONE;
    }
    if (sol) {
        out->x.assign(sol, sol + m->ncols);
        out->objective = 0.0;
        for (int j = 0; j < m->ncols; j++)
            out->objective += m->obj[j] * sol[j];
        out->bound = out->status == CKM_BK_OPTIMAL ? model.getBestPossibleObjValue() : -INFINITY;
    } else if (start && out->status != CKM_BK_INFEASIBLE && out->status != CKM_BK_LIMIT_NONE) {
        out->x.assign(start, start + m->ncols); /* nothing better: keep the start */
        out->objective = start_obj;
    }
}

} // namespace

extern "C" ckm_error ckm_bk_mip(const ckm_lp *m, const ckm_bk_limits *lim, const double *start, double *x,
                                ckm_bk_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_bk_limits none = ckm_bk_no_limits();
    StopWatch watch(lim ? lim : &none);
    std::memset(res, 0, sizeof *res);
    res->bound = -INFINITY;
    double start_obj = 0.0;
    if (start)
        for (int j = 0; j < m->ncols; j++)
            start_obj += m->obj[j] * start[j];
    ckm_error rc = CKM_OK;
    Outcome out{start ? CKM_BK_LIMIT_FEASIBLE : CKM_BK_LIMIT_NONE, {}, start_obj, -INFINITY, 0};
    if (!watch.due()) {
        rc = ckm_coin::guarded("CBC", m, err, [&] {
            solve_mip(m, &watch, start, start_obj, &out);
            return CKM_OK;
        });
    } else if (start) {
        out.x.assign(start, start + m->ncols);
    }
    if (rc == CKM_OK) {
        res->status = out.status;
        res->objective = out.objective;
        res->bound = out.bound;
        res->nodes = out.nodes;
        if (!out.x.empty())
            std::memcpy(x, out.x.data(), (size_t)m->ncols * sizeof(double));
    }
    res->stopped = watch.requested;
    res->seconds = ckm_now() - t0;
    return rc;
}
