/*
 * ipc.c -- `ipc`: IPC-k-means (Piccialli, Russo Russo & Sudoso 2022, Algorithm 1) with the
 * safe SDP lower bound, so every result carries a certified gap.
 *   bound    the Peng-Wei relaxation on must-link groups (src/sdp; docs/formulations.md),
 *            solved by the sGS-ADMM to relative KKT 1e-5 (at most 3000 iterations or the
 *            time limit); the reported lower bound is the best SAFE bound, never the raw
 *            dual value. The relaxation ignores size bounds (still a valid bound, maybe
 *            weaker); it needs every cluster non-empty (lo_j >= 1, the default).
 *   init     rank-k approximation of the SDP solution: X_k = top-k eigenpairs of Xhat
 *            (Eckart-Young in the expanded space, since Z_full = U X U' with U'U = I),
 *            Z_k = D^{-1/2} X_k D^{-1/2}, centroid estimates M = Z_k P (P_t = w_t m_t);
 *            weighted k-means on the rows of M (k-means++ seeds (seed, r), Lloyd).
 *   refine   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every constraint,
 *            means) from those centers until the assignment total stops decreasing.
 *   restarts n_init k-means seeds on M, each refined; the lowest SSE wins.
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
    ckm_seeder seeder;
    ckm_sdp *sdp = NULL;
    memset(&asg, 0, sizeof asg);
    memset(&seeder, 0, sizeof seeder);
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
    /* 1. the bound */
    if ((rc = ckm_sdp_create(r, &sdp, err)) != CKM_OK)
        goto done;
    ckm_sdp_params par;
    ckm_sdp_params_default(&par);
    ckm_sdp_info si;
    double t0 = ckm_now();
    if ((rc = ckm_sdp_solve(sdp, ctx, &par, &si, err)) != CKM_OK)
        goto done;
    out->lower_bound = si.lower_bound;
    ckm_ctx_log(ctx, 1, "ipc: SDP safe bound %.10g after %d iterations (%s, %.2f s)", si.lower_bound, si.iterations,
                si.converged ? "converged" : "not converged", ckm_now() - t0);
    /* 2. centroid estimates, k-means on them, 3. BLPKM refinement */
    if ((rc = centroid_estimates(r, ckm_sdp_xhat(sdp), M, err)) != CKM_OK)
        goto done;
    ckm_reduced est = *r; /* the rows of M as weighted points for seeding and Lloyd */
    est.mean = M;
    est.n_cl = 0;
    est.has_sizes = 0;
    if ((rc = ckm_seeder_init(&seeder, &est, set->threads, err)) != CKM_OK)
        goto done;
    double best_sse = INFINITY;
    size_t lp_steps = 0, mip_steps = 0;
    int stopped = si.stopped;
    ckm_status why = CKM_STATUS_FEASIBLE;
    if (stopped)
        ckm_ctx_stop(ctx, &why);
    for (int rs = 0; rs < set->n_init && (rs == 0 || !stopped); rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_centers(&seeder, CKM_INIT_KMEANSPP, &rng, C);
        ckm_group_lloyd(&est, C, wsum, cur);
        if ((rc = ckm_order_centers_by_size(r, C, err)) != CKM_OK)
            goto done;
        ckm_lloyd_stats st;
        if ((rc = ckm_exact_lloyd(ctx, &asg, r, CKM_DISTANCE_SQEUCLIDEAN, max_iter, "ipc", rs, C, wsum, cost, cur,
                                  kept, &st, out, err)) != CKM_OK)
            goto done;
        lp_steps += st.lp_steps;
        mip_steps += st.mip_steps;
        if (st.infeasible)
            goto done;
        if (st.stopped) {
            why = st.why;
            stopped = 1;
        }
        if (!st.have)
            continue;
        double sse = ckm_group_sse(r, kept, C, wsum);
        ckm_restart_done(ctx, "ipc", rs, kept, s, sse, st.iterations, &best_sse, out);
    }
    double gap = isfinite(best_sse) ? (best_sse - si.lower_bound) / fmax(best_sse, 1e-300) : INFINITY;
    if (stopped)
        out->status = why;
    else if (gap <= IPC_GAP_TOL)
        out->status = CKM_STATUS_OPTIMAL;
    snprintf(out->message, sizeof out->message,
             "%sSDP: safe bound after %d ADMM iterations (%s, eta %.1e); IPC-k-means: %d restart%s, %zu assignment "
             "steps with an integral LP, %zu with CBC",
             stopped ? (why == CKM_STATUS_TIME_LIMIT ? "time limit; " : "interrupted; ") : "", si.iterations,
             si.converged ? "converged" : "not converged", fmax(si.eta_p, fmax(si.eta_d, si.eta_g)), out->restarts,
             out->restarts == 1 ? "" : "s", lp_steps, mip_steps);
done:
    ckm_sdp_free(sdp);
    ckm_assign_free(&asg);
    ckm_seeder_free(&seeder);
    free(C);
    free(wsum);
    free(cost);
    free(M);
    free(cur);
    free(kept);
    return rc;
}
