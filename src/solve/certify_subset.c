/*
 * certify_subset.c -- one subset of ckm_certify's decomposition (certify.h, docs/certify.md):
 * its problem (its points, weights, demands, the pairs inside it, its size range
 * [max(0, lo_j - (n - |S_t|)), min(hi_j, |S_t|)] and capacity range
 * [max(0, L_j - (Q - Q_t)), min(U_j, Q_t)] widened by twice the load tolerance; lower bounds
 * dropped -- sizes 1, capacities 0 -- when some per-subset lower size bound is 0, see
 * certify.c) and its bound: the groups' own scatter, raised by ipc's safe SDP bound with cuts
 * (ckm_ipc_node, bound_only) when the subset has more groups than clusters, within the
 * subset's fair share of the time left. With k = 1 the subset's only labelling puts every
 * point in one cluster: its optimum is its total scatter (tss), exact without the SDP. The workers pull subsets from one atomic counter.
 */
#include "certify_subset.h"
#include "ipc.h"
#include "problem_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* local index of global point i in subset t's ascending list */
static size_t local_index(const cert_job *J, size_t t, size_t i)
{
    const size_t *a = J->pts + J->pt_start[t];
    size_t lo = 0, hi = J->pt_start[t + 1] - J->pt_start[t];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* the size bounds of subset t (m points); *lower: every per-subset lower bound is >= 1 */
static void subset_sizes(const ckm_problem *p, size_t m, size_t *lo, size_t *hi, bool *lower)
{
    size_t k = p->k, out = p->n - m;
    *lower = true;
    for (size_t j = 0; j < k; j++) {
        lo[j] = p->lo[j] > out ? p->lo[j] - out : 0;
        hi[j] = p->hi[j] < m ? p->hi[j] : m;
        if (lo[j] == 0)
            *lower = false;
    }
    if (!*lower) /* see the header: splitting clusters needs no lower bound */
        for (size_t j = 0; j < k; j++)
            lo[j] = 1;
    for (size_t j = 0; j < k; j++)
        if (hi[j] < lo[j])
            hi[j] = lo[j]; /* cannot happen for a feasible problem; keeps the call valid */
}

/* the capacity bounds of subset t: loads within [L_j - (Q - Q_t), min(U_j, Q_t)], widened by
 * twice the whole problem's load tolerance (so rounding never excludes L|S_t) */
static ckm_error subset_capacities(const cert_job *J, size_t t, ckm_problem *sub, bool lower, ckm_err *err)
{
    const ckm_problem *p = J->p;
    size_t k = p->k;
    double Q = J->demand_total, Qt = 0.0;
    for (size_t a = J->pt_start[t]; a < J->pt_start[t + 1]; a++)
        Qt += p->q ? p->q[J->pts[a]] : 1.0;
    double tol = 2.0 * J->r->cap_tol;
    double lo[k], hi[k];
    for (size_t j = 0; j < k; j++) {
        lo[j] = lower ? fmax(0.0, p->cap_lo[j] - (Q - Qt) - tol) : 0.0;
        hi[j] = fmin(p->cap_hi[j] + tol, Qt + tol);
        if (hi[j] < lo[j])
            hi[j] = lo[j];
    }
    return ckm_problem_set_capacities(sub, lo, hi, err);
}

ckm_error ckm_certify_subset_problem(const cert_job *J, size_t t, ckm_problem **out, ckm_err *err)
{
    const ckm_problem *p = J->p;
    size_t m = J->pt_start[t + 1] - J->pt_start[t], d = p->d, k = p->k;
    const size_t *pts = J->pts + J->pt_start[t];
    *out = NULL;
    double *Xs = ckm_alloc_array(m * d, sizeof(double)), *ws = ckm_alloc_array(m, sizeof(double));
    size_t *lo = ckm_alloc_array(k, sizeof(size_t)), *hi = ckm_alloc_array(k, sizeof(size_t));
    ckm_problem *sub = NULL;
    ckm_error rc = CKM_OK;
    if (!Xs || !ws || !lo || !hi) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for subset %zu (%zu points)", t, m);
        goto done;
    }
    for (size_t a = 0; a < m; a++)
        memcpy(Xs + a * d, J->X + pts[a] * d, d * sizeof(double));
    if ((rc = ckm_problem_create(Xs, m, d, k, &sub, err)) != CKM_OK)
        goto done;
    if (p->w) {
        for (size_t a = 0; a < m; a++)
            ws[a] = p->w[pts[a]];
        if ((rc = ckm_problem_set_weights(sub, ws, err)) != CKM_OK)
            goto done;
    }
    for (size_t e = J->pr_start[t]; e < J->pr_start[t + 1] && rc == CKM_OK; e++) {
        const ckm_pair *pr = &p->pairs[J->prs[e]];
        rc = ckm_problem_add_pair(sub, local_index(J, t, pr->i), local_index(J, t, pr->j), pr->type, err);
    }
    bool lower;
    subset_sizes(p, m, lo, hi, &lower);
    if (rc == CKM_OK)
        rc = ckm_problem_set_sizes(sub, lo, hi, err);
    if (rc == CKM_OK && p->q) {
        for (size_t a = 0; a < m; a++)
            ws[a] = p->q[pts[a]];
        rc = ckm_problem_set_demands(sub, ws, err);
    }
    if (rc == CKM_OK && p->cap_lo)
        rc = subset_capacities(J, t, sub, lower, err);
done:
    free(Xs);
    free(ws);
    free(lo);
    free(hi);
    if (rc == CKM_OK)
        *out = sub;
    else
        ckm_problem_free(sub);
    return rc;
}

bool ckm_certify_subset_exact(const ckm_reduced *rs, double *opt)
{
    if (rs->s > rs->k && rs->k != 1)
        return false;
    *opt = rs->s <= rs->k ? rs->scatter : rs->tss;
    return true;
}

/* the SDP bound of subset t's problem (more groups than clusters), into J->bound[t] / rec */
static ckm_error subset_sdp(cert_job *J, size_t t, const ckm_context *sctx, ckm_certify_subset *rec, ckm_err *err)
{
    ckm_problem *sub = NULL;
    ckm_reduced *rs = NULL;
    int infeasible = 0;
    char reason[CKM_MESSAGE_LEN] = "";
    ckm_algo_out ao;
    memset(&ao, 0, sizeof ao);
    ckm_error rc = CKM_OK;
    if (J->given) { /* handed over: this worker alone takes subset t */
        sub = J->given[t];
        J->given[t] = NULL;
        if (!sub)
            return ckm_fail(err, CKM_ERR_INTERNAL, "certify: subset %zu's problem was not handed over", t);
    } else {
        rc = ckm_certify_subset_problem(J, t, &sub, err);
    }
    if (rc == CKM_OK)
        rc = ckm_reduce(sub, &rs, &infeasible, reason, sizeof reason, err);
    if (rc != CKM_OK)
        goto done;
    if (infeasible) { /* a relaxation of the whole problem's restriction: the whole is infeasible */
        rec->status = CKM_STATUS_INFEASIBLE;
        pthread_mutex_lock(&J->lock);
        if (!J->infeasible)
            snprintf(J->reason, sizeof J->reason, "infeasible: subset %zu: %.400s", t, reason);
        J->infeasible = 1;
        pthread_mutex_unlock(&J->lock);
        goto done;
    }
    double opt;
    if (ckm_certify_subset_exact(rs, &opt)) {
        rec->status = CKM_STATUS_OPTIMAL;
        J->bound[t] = fmax(J->bound[t], opt);
        goto done;
    }
    if (!(ao.labels = ckm_alloc_array(rs->s, sizeof(int32_t)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
        goto done;
    }
    ckm_ipc_opts o = {.cut_rounds = sctx->s->cut_rounds, .incumbent = J->incumbent[t], .gap = sctx->s->gap,
                      .bound_only = true, .sdp_threads = 1};
    ckm_ipc_stats st;
    if ((rc = ckm_ipc_node(sctx, rs, &o, &ao, &st, NULL, err)) != CKM_OK)
        goto done;
    rec->sdp = 1;
    rec->cut_rounds = st.rounds;
    rec->status = ao.status;
    if (isfinite(ao.lower_bound))
        J->bound[t] = fmax(J->bound[t], ao.lower_bound);
done:
    free(ao.labels);
    ckm_reduced_free(rs);
    ckm_problem_free(sub);
    return rc;
}

double ckm_certify_share_end(double t0, double D, const double *until, int W, int self, size_t left)
{
    if (!(D > t0) || left == 0)
        return D;
    double avail = D - t0;
    for (int w = 0; w < W; w++)
        if (w != self)
            avail += D - fmax(t0, fmin(D, until[w]));
    return fmin(D, t0 + avail / (double)left);
}

/* Bound subset t, the job's pos-th, on worker tid, with its share of the time left
 * (ckm_certify_share_end over the job's workers; the positions after J->upto count as left). */
static ckm_error bound_subset(cert_job *J, size_t pos, int tid, ckm_err *err)
{
    const ckm_context *ctx = J->ctx;
    size_t t = J->ids ? J->ids[pos] : pos;
    ckm_certify_subset *rec = &J->rec[t];
    double t0 = ckm_now();
    rec->points = J->given ? J->points[t] : J->pt_start[t + 1] - J->pt_start[t];
    rec->groups = J->groups[t];
    J->bound[t] = J->scatter[t]; /* valid whatever happens next */
    rec->status = CKM_STATUS_FEASIBLE;
    ckm_status why;
    if (ckm_ctx_stop(ctx, &why)) {
        rec->status = why;
        return CKM_OK;
    }
    ckm_context sctx = *ctx;
    sctx.s = J->sub_s;
    sctx.sink = NULL; /* certify reports subsets, not their SDPs' solves */
    if (isfinite(ctx->deadline)) {
        pthread_mutex_lock(&J->lock);
        sctx.deadline = ckm_certify_share_end(t0, ctx->deadline, J->until, J->launched, tid, J->count - pos);
        J->until[tid] = sctx.deadline;
        pthread_mutex_unlock(&J->lock);
    }
    ckm_error rc = CKM_OK;
    if (J->groups[t] <= J->k)
        rec->status = CKM_STATUS_OPTIMAL; /* exact: each group alone */
    else
        rc = subset_sdp(J, t, &sctx, rec, err);
    rec->seconds = ckm_now() - t0;
    pthread_mutex_lock(&J->lock);
    J->until[tid] = -INFINITY; /* idle: its time to the deadline is the others' again */
    pthread_mutex_unlock(&J->lock);
    if (!J->ids && ckm_ctx_progress_wanted(ctx)) { /* one process: the whole bound so far */
        pthread_mutex_lock(&J->lock);
        J->bound_so_far += J->bound[t] - J->scatter[t];
        ckm_ctx_progress(ctx, (ckm_progress){.kind = CKM_PROGRESS_BOUND, .objective = NAN, .incumbent = J->sse,
                                             .lower_bound = J->bound_so_far, .restarts = 1, .done = ++J->done,
                                             .total = J->T});
        pthread_mutex_unlock(&J->lock);
    }
    ckm_ctx_log(ctx, 1, "certify: subset %zu/%zu: %zu points, %zu groups: bound %.10g, labels %.10g (%.3g %%), %s, "
                        "%d cut rounds, %.2f s",
                t + 1, J->T, rec->points, rec->groups, J->bound[t], J->incumbent[t],
                isfinite(J->incumbent[t]) && J->incumbent[t] > 0.0
                    ? 100.0 * (J->incumbent[t] - J->bound[t]) / J->incumbent[t] : NAN,
                ckm_status_string(rec->status), rec->cut_rounds, rec->seconds);
    return rc;
}

void ckm_certify_worker(void *arg, size_t begin, size_t end, int tid)
{
    (void)begin;
    (void)end;
    cert_job *J = arg;
    for (;;) {
        size_t pos = atomic_fetch_add(&J->next, 1);
        if (pos >= (J->upto ? J->upto : J->count))
            return;
        pthread_mutex_lock(&J->lock);
        bool failed = J->rc != CKM_OK;
        pthread_mutex_unlock(&J->lock);
        if (failed)
            return;
        ckm_err e = {CKM_OK, ""};
        ckm_error rc = bound_subset(J, pos, tid, &e);
        if (rc != CKM_OK) {
            pthread_mutex_lock(&J->lock);
            if (J->rc == CKM_OK) {
                J->rc = rc;
                J->err = e;
                atomic_store(&J->failed, 1);
            }
            pthread_mutex_unlock(&J->lock);
            return;
        }
    }
}
