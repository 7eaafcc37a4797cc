/*
 * ipc.c -- `ipc`: IPC-k-means (Piccialli, Russo Russo & Sudoso 2022, Algorithm 1) with the
 * safe SDP lower bound, so every result carries a certified gap.
 *   bound    the Peng-Wei relaxation on must-link groups (src/sdp; docs/formulations.md),
 *            solved by the sGS-ADMM to relative KKT 1e-5 (at most 3000 iterations or the
 *            time limit); the reported lower bound is the best SAFE bound, never the raw
 *            dual value. Size bounds enter through the size rows 1/c_max <= Z_ii <= 1/c_min
 *            and the clique right-hand side (sdp_cuts.c); it needs every cluster non-empty
 *            (lo_j >= 1, the default).
 *   init     rank-k approximation of the SDP solution: X_k = top-k eigenpairs of Xhat
 *            (Eckart-Young in the expanded space, since Z_full = U X U' with U'U = I),
 *            Z_k = D^{-1/2} X_k D^{-1/2}, centroid estimates M = Z_k P (P_t = w_t m_t);
 *            weighted k-means on the rows of M (k-means++ seeds (seed, r), Lloyd).
 *   refine   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every constraint,
 *            means) from those centers until the assignment total stops decreasing.
 *   restarts n_init k-means seeds on M, each refined; the lowest SSE wins.
 *   cuts     then up to settings.cut_rounds cutting-plane rounds (default 50, the paper's
 *            root limit): at most 1000 new pair / triangle / clique / size rows per round
 *            (sdp_cuts.c), each round a warm-started INEXACT solve of 200 ADMM iterations
 *            (the safe bound is valid after any iteration; measured on connectionist
 *            ml_0_cl_100_0 in 60 s: 6 rounds at up to 3000 iterations reach a 0.44 % gap,
 *            rounds of 200 reach 0.003 % in 47 s), until the gap is <= 1e-4, no cut is
 *            violated, or 3 rounds together raise the bound by less than 1e-5 (relative).
 *            IPC-k-means runs again every 5 rounds (a better incumbent lets the solver stop
 *            at it); then one full-accuracy solve polishes the bound and IPC-k-means runs
 *            from the final solution; the best labelling is kept.
 *   status   optimal when (SSE - bound) / SSE <= 1e-4 (the paper's tolerance), else
 *            feasible with the gap reported by the driver.
 * Trivial cases: k = 1 or s = k have one partition (up to relabelling); its SSE is the bound.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "exact_step.h"
#include "linalg.h"
#include "sdp.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IPC_GAP_TOL 1e-4
#define IPC_CUTS_PER_ROUND 1000
#define IPC_ROUND_ITERS 200    /* ADMM iterations per cutting-plane round (inexact rounds) */
#define IPC_PATIENCE 3         /* stall test over this many rounds */
#define IPC_HEURISTIC_EVERY 5  /* IPC-k-means again every this many rounds */
#define IPC_STALL 1e-5         /* stop when IPC_PATIENCE rounds raise the bound by less (relative) */

/* rows of M = Z_k P: the centroid estimates of every group's cluster */
static ckm_error centroid_estimates(const ckm_reduced *r, const double *Xhat, double *M, ckm_err *err)
{
    size_t s = r->s, k = r->k, d = r->d;
    double *Q = ckm_alloc_array(s * s, sizeof(double)), *ev = ckm_alloc_array(s, sizeof(double));
    double *Zk = ckm_calloc_array(s * s, sizeof(double));
    if (!Q || !ev || !Zk) {
        free(Q);
        free(ev);
        free(Zk);
        return ckm_fail(err, CKM_ERR_NOMEM, "ipc: out of memory");
    }
    memcpy(Q, Xhat, s * s * sizeof(double));
    if (ckm_eig_sym(s, Q, ev, 1) != 0) {
        free(Q);
        free(ev);
        free(Zk);
        return ckm_fail(err, CKM_ERR_INTERNAL, "ipc: the eigensolver failed on the SDP solution");
    }
    for (size_t c = s - (k < s ? k : s); c < s; c++) /* the k largest eigenpairs */
        for (size_t i = 0; i < s; i++) {
            double qi = ev[c] * Q[i * s + c];
            for (size_t j = 0; j < s; j++)
                Zk[i * s + j] += qi * Q[j * s + c];
        }
    for (size_t i = 0; i < s; i++) {
        double *mi = M + i * d;
        memset(mi, 0, d * sizeof(double));
        double vi = sqrt((double)r->weight[i]);
        for (size_t j = 0; j < s; j++) {
            /* Z_k,ij w_j m_j with Z_k,ij = X_k,ij / (v_i v_j): the factor is X_k,ij v_j / v_i */
            double f = Zk[i * s + j] * sqrt((double)r->weight[j]) / vi;
            for (size_t q = 0; q < d; q++)
                mi[q] += f * r->mean[j * d + q];
        }
    }
    free(Q);
    free(ev);
    free(Zk);
    return CKM_OK;
}

typedef struct ipc_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    ckm_assign *asg;
    double *C, *wsum, *cost, *M;
    int32_t *cur, *kept;
    int max_iter;
    double best_sse;
    size_t lp_steps, mip_steps;
    int stopped;
    ckm_status why;
    int infeasible;
} ipc_run;

/* IPC-k-means from the current SDP solution: centroid estimates, n_init weighted k-means
 * seeds on them, each refined by the BLPKM iteration; the best labels go to out. */
static ckm_error ipc_heuristic(ipc_run *run, const ckm_sdp *sdp, ckm_algo_out *out, ckm_err *err)
{
    const ckm_reduced *r = run->r;
    const ckm_settings *set = run->ctx->s;
    ckm_error rc = centroid_estimates(r, ckm_sdp_xhat(sdp), run->M, err);
    if (rc != CKM_OK)
        return rc;
    ckm_reduced est = *r; /* the rows of M as weighted points for seeding and Lloyd */
    est.mean = run->M;
    est.n_cl = 0;
    est.has_sizes = 0;
    ckm_seeder seeder;
    memset(&seeder, 0, sizeof seeder);
    if ((rc = ckm_seeder_init(&seeder, &est, set->threads, err)) != CKM_OK)
        return rc;
    for (int rs = 0; rs < set->n_init && (rs == 0 || !run->stopped); rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_centers(&seeder, CKM_INIT_KMEANSPP, &rng, run->C);
        ckm_group_lloyd(&est, run->C, run->wsum, run->cur);
        if ((rc = ckm_order_centers_by_size(r, run->C, err)) != CKM_OK)
            break;
        ckm_lloyd_stats st;
        if ((rc = ckm_exact_lloyd(run->ctx, run->asg, r, CKM_DISTANCE_SQEUCLIDEAN, run->max_iter, "ipc", rs, run->C,
                                  run->wsum, run->cost, run->cur, run->kept, &st, out, err)) != CKM_OK)
            break;
        run->lp_steps += st.lp_steps;
        run->mip_steps += st.mip_steps;
        if (st.infeasible) {
            run->infeasible = 1;
            break;
        }
        if (st.stopped) {
            run->why = st.why;
            run->stopped = 1;
        }
        if (!st.have)
            continue;
        double sse = ckm_group_sse(r, run->kept, run->C, run->wsum);
        ckm_restart_done(run->ctx, "ipc", rs, run->kept, r->s, sse, st.iterations, &run->best_sse, out);
    }
    ckm_seeder_free(&seeder);
    return rc;
}

/* One SDP solve; a deadline or stop request met inside it stops the whole run. */
static ckm_error solve_sdp(ipc_run *run, ckm_sdp *sdp, const ckm_sdp_params *par, ckm_sdp_info *si, ckm_err *err)
{
    ckm_error rc = ckm_sdp_solve(sdp, run->ctx, par, si, err);
    if (rc == CKM_OK && si->stopped) {
        run->stopped = 1;
        ckm_ctx_stop(run->ctx, &run->why);
    }
    return rc;
}

/* an incumbent exists and its gap to the bound lb is above the optimality tolerance */
static bool gap_open(const ipc_run *run, double lb)
{
    return isfinite(run->best_sse) && run->best_sse - lb > IPC_GAP_TOL * run->best_sse;
}

ckm_error ckm_algo_ipc(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k;
    int max_iter = set->max_iter > 0 ? set->max_iter : 100;
    out->lower_bound = -INFINITY;
    for (size_t j = 0; j < k; j++)
        if (r->lo[j] == 0)
            return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                            "ipc: the SDP bound assumes every cluster is non-empty, but cluster %zu may be empty "
                            "(lower size bound 0); use blpkm, or a lower bound >= 1",
                            j);
    ckm_assign asg;
    ckm_sdp *sdp = NULL;
    memset(&asg, 0, sizeof asg);
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    double *cost = ckm_alloc_array(s * k, sizeof(double)), *M = ckm_alloc_array(s * d, sizeof(double));
    int32_t *cur = ckm_alloc_array(s, sizeof(int32_t)), *kept = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!C || !wsum || !cost || !M || !cur || !kept) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "ipc: out of memory");
        goto done;
    }
    if ((rc = ckm_assign_init(&asg, r, err)) != CKM_OK)
        goto done;
    out->status = CKM_STATUS_FEASIBLE;
    if (k == 1 || s == k) {
        /* one partition up to relabelling: all groups together, or one group per cluster */
        for (size_t t = 0; t < s; t++)
            cur[t] = k == 1 ? 0 : (int32_t)t;
        ckm_group_means(r, cur, C, wsum);
        ckm_lloyd_stats st;
        if ((rc = ckm_exact_lloyd(ctx, &asg, r, CKM_DISTANCE_SQEUCLIDEAN, max_iter, "ipc", 0, C, wsum, cost, cur, kept,
                                  &st, out, err)) != CKM_OK || st.infeasible)
            goto done;
        if (!st.have) {
            out->status = st.why;
            goto done;
        }
        double sse = ckm_group_sse(r, kept, C, wsum), best = INFINITY;
        ckm_restart_done(ctx, "ipc", 0, kept, s, sse, st.iterations, &best, out);
        out->lower_bound = sse;
        out->status = CKM_STATUS_OPTIMAL;
        snprintf(out->message, sizeof out->message, "%s: a single partition is possible, so it is optimal",
                 k == 1 ? "k = 1" : "as many must-link groups as clusters");
        goto done;
    }
    /* 1. the root bound, 2. IPC-k-means from it, 3. cutting-plane rounds, IPC again */
    if ((rc = ckm_sdp_create(r, &sdp, err)) != CKM_OK)
        goto done;
    ckm_sdp_params par;
    ckm_sdp_params_default(&par);
    ckm_sdp_info si;
    double t0 = ckm_now();
    ipc_run run = {ctx, r, &asg, C, wsum, cost, M, cur, kept, max_iter, INFINITY, 0, 0, 0, CKM_STATUS_FEASIBLE, 0};
    if ((rc = solve_sdp(&run, sdp, &par, &si, err)) != CKM_OK)
        goto done;
    ckm_ctx_log(ctx, 1, "ipc: SDP safe bound %.10g after %d iterations (%s, %.2f s)", si.lower_bound, si.iterations,
                si.converged ? "converged" : "not converged", ckm_now() - t0);
    if ((rc = ipc_heuristic(&run, sdp, out, err)) != CKM_OK || run.infeasible)
        goto done;
    ckm_rng crng;
    ckm_rng_seed(&crng, set->seed, 0x5d9);
    int rounds = 0;
    size_t cuts_total = 0;
    double hist[IPC_PATIENCE + 1]; /* the bound after the last rounds, for the stall test */
    hist[0] = si.lower_bound;
    par.max_iter = IPC_ROUND_ITERS;
    while (!run.stopped && rounds < set->cut_rounds && gap_open(&run, si.lower_bound)) {
        ckm_cut_stats cs;
        if ((rc = ckm_sdp_separate(sdp, &crng, IPC_CUTS_PER_ROUND, &cs, err)) != CKM_OK)
            goto done;
        size_t added = cs.added_pair + cs.added_triangle + cs.added_clique + cs.added_size;
        if (added == 0)
            break;
        rounds++;
        cuts_total += added;
        par.upper_bound = run.best_sse;
        if ((rc = solve_sdp(&run, sdp, &par, &si, err)) != CKM_OK)
            goto done;
        ckm_ctx_log(ctx, 1,
                    "ipc: cut round %d: +%zu pair +%zu triangle +%zu clique +%zu size, -%zu inactive, %zu active; safe bound "
                    "%.10g (%d iterations, %.2f s)",
                    rounds, cs.added_pair, cs.added_triangle, cs.added_clique, cs.added_size, cs.removed, cs.active, si.lower_bound,
                    si.iterations, ckm_now() - t0);
        /* stalled: the last IPC_PATIENCE rounds together raised the bound by too little */
        hist[rounds % (IPC_PATIENCE + 1)] = si.lower_bound; /* the bound is monotone (best seen) */
        if (rounds >= IPC_PATIENCE &&
            si.lower_bound - hist[(rounds - IPC_PATIENCE) % (IPC_PATIENCE + 1)] <= IPC_STALL * fabs(si.lower_bound))
            break;
        /* a better incumbent closes the gap sooner (and lets the solver stop at it) */
        if (rounds % IPC_HEURISTIC_EVERY == 0 && !run.stopped &&
            ((rc = ipc_heuristic(&run, sdp, out, err)) != CKM_OK || run.infeasible))
            goto done;
    }
    /* polish: the rounds were solved inexactly; one solve to full accuracy from the last iterate */
    if (rounds > 0 && !run.stopped && gap_open(&run, si.lower_bound)) {
        ckm_sdp_params_default(&par);
        par.upper_bound = run.best_sse;
        if ((rc = solve_sdp(&run, sdp, &par, &si, err)) != CKM_OK)
            goto done;
        ckm_ctx_log(ctx, 1, "ipc: final solve: safe bound %.10g (%d iterations, %s, %.2f s)", si.lower_bound,
                    si.iterations, si.converged ? "converged" : "not converged", ckm_now() - t0);
    }
    if (rounds > 0 && !run.stopped && gap_open(&run, si.lower_bound))
        if ((rc = ipc_heuristic(&run, sdp, out, err)) != CKM_OK || run.infeasible)
            goto done;
    out->lower_bound = si.lower_bound;
    double gap = isfinite(run.best_sse) ? (run.best_sse - si.lower_bound) / fmax(run.best_sse, 1e-300) : INFINITY;
    if (run.stopped)
        out->status = run.why;
    else if (gap <= IPC_GAP_TOL)
        out->status = CKM_STATUS_OPTIMAL;
    snprintf(out->message, sizeof out->message,
             "%sSDP: %d cutting-plane round%s (%zu cuts added), last solve %d ADMM iterations (%s); IPC-k-means: %d "
             "restart%s, %zu assignment steps with an integral LP, %zu with CBC",
             run.stopped ? (run.why == CKM_STATUS_TIME_LIMIT ? "time limit; " : "interrupted; ") : "", rounds,
             rounds == 1 ? "" : "s", cuts_total, si.iterations,
             si.pruned ? "stopped: the bound reached the incumbent" : si.converged ? "converged" : "not converged",
             out->restarts, out->restarts == 1 ? "" : "s", run.lp_steps, run.mip_steps);
done:
    ckm_sdp_free(sdp);
    ckm_assign_free(&asg);
    free(C);
    free(wsum);
    free(cost);
    free(M);
    free(cur);
    free(kept);
    return rc;
}
