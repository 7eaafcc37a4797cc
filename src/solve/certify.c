/*
 * certify.c -- ckm_certify: a safe lower bound on the constrained MSSC optimum and the
 * certified gap of a given labelling, at any scale, by decomposition (Croella, Piccialli &
 * Sudoso, "Strong bounds for large-scale MSSC", arXiv 2502.08397; docs/certify.md).
 *   Split the must-link groups into subsets S_1..S_T (certify_split.c). For any labelling L
 *   of X that meets the constraints,
 *     SSE(L) = sum_t sum_{i in S_t} w_i ||x_i - c_l(i)||^2 >= sum_t SSE_t(L|S_t)
 *   (inside S_t each cluster's own mean is its best center), and L|S_t meets every must-link
 *   (groups are whole), every cannot-link inside S_t, the size range
 *   [max(0, lo_j - (n - |S_t|)), min(hi_j, |S_t|)] and the capacity range
 *   [max(0, L_j - (Q - Q_t)), min(U_j, Q_t)] (Q, Q_t: total demand, of S_t; widened by the
 *   load tolerance). So OPT >= sum_t OPT_t, and any bounds LB_t <= OPT_t add up to a bound.
 *   LB_t: ipc's safe SDP bound with cuts (ckm_ipc_node, bound_only) on the subset's problem,
 *   stopped early when it reaches the labels' restricted SSE (no higher bound can exist then).
 *   The SDP assumes k non-empty clusters while L|S_t may leave some empty. When a per-subset
 *   lower size bound is 0, the subset's problem gets lower size bounds 1 and no lower
 *   capacity bounds: with s_t > k groups, splitting a cluster of >= 2 groups never raises
 *   the SSE and keeps every pair and every upper bound, so the optimum over <= k clusters is
 *   reached with k non-empty ones, which the SDP bounds. With s_t <= k groups the optimum is
 *   the groups' own scatter (each group alone), exact without the SDP.
 * Every subset's bound is a safe value or its groups' scatter (always valid: a stop before
 * its SDP ran); the maximum of both is kept. Subsets run on `workers` threads, each taking
 * the next subset with a fair share of the time left.
 */
#include "certify_split.h"
#include "certify_subset.h"
#include "objective.h"
#include "problem_impl.h"
#include "solve.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The subsets' point and pair lists (CSR, points ascending), group counts, the point map. */
typedef struct cert_lists {
    size_t *pt_start, *pts, *pr_start, *prs, *groups;
    double *incumbent, *scatter, *bound;
} cert_lists;

static void lists_free(cert_lists *L)
{
    free(L->pt_start);
    free(L->pts);
    free(L->pr_start);
    free(L->prs);
    free(L->groups);
    free(L->incumbent);
    free(L->scatter);
    free(L->bound);
}

/* Counting sort of items 0..count-1 by key[item] < T (SIZE_MAX: left out) into CSR form:
 * the items of key t are items[start[t] .. start[t + 1]), ascending. start: T + 1 zeros. */
static void bucket(const size_t *key, size_t count, size_t T, size_t *start, size_t *items)
{
    for (size_t q = 0; q < count; q++)
        if (key[q] != SIZE_MAX)
            start[key[q] + 1]++;
    for (size_t t = 0; t < T; t++)
        start[t + 1] += start[t];
    for (size_t q = 0; q < count; q++) /* start[t] is the cursor of key t, shifted back below */
        if (key[q] != SIZE_MAX)
            items[start[key[q]]++] = q;
    for (size_t t = T; t > 0; t--)
        start[t] = start[t - 1];
    start[0] = 0;
}

static ckm_error build_lists(const ckm_problem *p, const ckm_reduced *r, const size_t *gsub, size_t T,
                             size_t *subset_of, cert_lists *L, ckm_err *err)
{
    size_t n = p->n;
    L->pt_start = ckm_calloc_array(T + 1, sizeof(size_t));
    L->pts = ckm_alloc_array(n, sizeof(size_t));
    L->pr_start = ckm_calloc_array(T + 1, sizeof(size_t));
    L->prs = ckm_alloc_array(p->n_pairs ? p->n_pairs : 1, sizeof(size_t));
    L->groups = ckm_calloc_array(T, sizeof(size_t));
    L->incumbent = ckm_alloc_array(T, sizeof(double));
    L->scatter = ckm_calloc_array(T, sizeof(double));
    L->bound = ckm_calloc_array(T, sizeof(double));
    size_t *pair_sub = ckm_alloc_array(p->n_pairs ? p->n_pairs : 1, sizeof(size_t));
    if (!L->pt_start || !L->pts || !L->pr_start || !L->prs || !L->groups || !L->incumbent || !L->scatter ||
        !L->bound || !pair_sub) {
        free(pair_sub);
        return ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for the subsets' lists");
    }
    for (size_t a = 0; a < r->s; a++)
        L->groups[gsub[a]]++;
    for (size_t i = 0; i < n; i++)
        subset_of[i] = gsub[r->comp[i]];
    bucket(subset_of, n, T, L->pt_start, L->pts);
    for (size_t q = 0; q < p->n_pairs; q++) /* a pair across subsets is dropped */
        pair_sub[q] = subset_of[p->pairs[q].i] == subset_of[p->pairs[q].j] ? subset_of[p->pairs[q].i] : SIZE_MAX;
    bucket(pair_sub, p->n_pairs, T, L->pr_start, L->prs);
    free(pair_sub);
    return CKM_OK;
}

/* Per subset, in the algorithms' units: the labels' restricted SSE (every cluster with the
 * subset's weighted mean; two passes) and the groups' own scatter. */
static ckm_error subset_sses(const ckm_problem *p, const double *X, const ckm_reduced *r, const int32_t *labels,
                             const size_t *subset_of, size_t T, double *restricted, double *scatter, ckm_err *err)
{
    size_t n = p->n, d = p->d, k = p->k, tk = 0, tkd = 0;
    if (!ckm_mul_ok(T, k, &tk) || !ckm_mul_ok(tk, d, &tkd))
        return ckm_fail(err, CKM_ERR_NOMEM, "certify: %zu subsets x %zu clusters x %zu features overflow", T, k, d);
    double *mean = ckm_calloc_array(tkd, sizeof(double)), *mass = ckm_calloc_array(tk, sizeof(double));
    if (!mean || !mass) {
        free(mean);
        free(mass);
        return ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for the subsets' means");
    }
    for (size_t i = 0; i < n; i++) {
        double w = p->w ? p->w[i] : 1.0;
        size_t cell = subset_of[i] * k + (size_t)labels[i];
        mass[cell] += w;
        for (size_t c = 0; c < d; c++)
            mean[cell * d + c] += w * X[i * d + c];
    }
    for (size_t cell = 0; cell < tk; cell++)
        for (size_t c = 0; c < d && mass[cell] > 0.0; c++)
            mean[cell * d + c] /= mass[cell];
    memset(restricted, 0, T * sizeof(double));
    memset(scatter, 0, T * sizeof(double));
    for (size_t i = 0; i < n; i++) {
        double w = p->w ? p->w[i] : 1.0, e = 0.0, g = 0.0;
        const double *mu = mean + (subset_of[i] * k + (size_t)labels[i]) * d, *m = r->mean + r->comp[i] * d;
        for (size_t c = 0; c < d; c++) {
            double a = X[i * d + c] - mu[c], b = X[i * d + c] - m[c];
            e += a * a;
            g += b * b;
        }
        restricted[subset_of[i]] += w * e;
        scatter[subset_of[i]] += w * g;
    }
    free(mean);
    free(mass);
    return CKM_OK;
}

static ckm_error check_args(const ckm_problem *p, const int32_t *labels, const ckm_settings *s, ckm_err *err)
{
    ckm_error rc = ckm_problem_check_k(p, err);
    if (rc != CKM_OK)
        return rc;
    if (!labels)
        return ckm_fail(err, CKM_ERR_INVALID, "certify: labels are required (n entries in [0, k))");
    for (size_t i = 0; i < p->n; i++)
        if (labels[i] < 0 || (size_t)labels[i] >= p->k)
            return ckm_fail(err, CKM_ERR_INVALID, "certify: label %d of point %zu is outside [0, %zu)", (int)labels[i],
                            i, p->k);
    if (p->n_soft > 0)
        return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                        "certify: the problem has soft pairs; the bound is of the SSE under hard constraints only "
                        "(remove the soft pairs to certify that)");
    if (!isfinite(s->time_limit_s))
        return ckm_fail(err, CKM_ERR_INVALID, "time_limit_s must be finite (got %g)", s->time_limit_s);
    if (s->threads < 0 || s->threads > CKM_MAX_THREADS)
        return ckm_fail(err, CKM_ERR_INVALID, "threads must be in [0, %d] (got %d)", CKM_MAX_THREADS, s->threads);
    if (s->cut_rounds < 0)
        return ckm_fail(err, CKM_ERR_INVALID, "cut_rounds must be >= 0 (got %d)", s->cut_rounds);
    if (!(s->gap >= 0.0 && s->gap < 1.0))
        return ckm_fail(err, CKM_ERR_INVALID, "gap must be in [0, 1) (got %g)", s->gap);
    return CKM_OK;
}

static ckm_certificate *new_certificate(const ckm_problem *p, const ckm_check_report *chk)
{
    ckm_certificate *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->struct_size = (uint32_t)sizeof *c;
    c->status = CKM_STATUS_FEASIBLE;
    c->n = p->n;
    c->d = p->d;
    c->k = p->k;
    c->weighted = p->w != NULL;
    c->sse = chk->sse;
    c->violations = chk->count;
    c->lower_bound = -INFINITY;
    c->gap = NAN;
    c->labels_split_sse = NAN;
    return c;
}

/* groups' labels (their first member's), the split, the lists and the subsets' SSEs */
static ckm_error prepare(const ckm_context *ctx, const ckm_problem *p, const double *X, const ckm_reduced *r,
                         const int32_t *labels, ckm_certificate *c, cert_lists *L, ckm_err *err)
{
    size_t T = c->subsets;
    int32_t *glab = ckm_alloc_array(r->s, sizeof(int32_t));
    size_t *gsub = ckm_alloc_array(r->s, sizeof(size_t));
    c->subset_of = ckm_alloc_array(p->n, sizeof(size_t));
    c->subset = ckm_calloc_array(T, sizeof(ckm_certify_subset));
    ckm_error rc = CKM_OK;
    if (!glab || !gsub || !c->subset_of || !c->subset) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
        goto done;
    }
    for (size_t a = 0; a < r->s; a++)
        glab[a] = labels[r->members[r->member_start[a]]];
    ckm_split_stats st;
    double t0 = ckm_now();
    if ((rc = ckm_certify_split(r, glab, T, ctx->s->seed, gsub, &st, err)) != CKM_OK ||
        (rc = build_lists(p, r, gsub, T, c->subset_of, L, err)) != CKM_OK ||
        (rc = subset_sses(p, X, r, labels, c->subset_of, T, L->incumbent, L->scatter, err)) != CKM_OK)
        goto done;
    c->split_s = ckm_now() - t0;
    ckm_ctx_log(ctx, 1, "certify: %zu subsets of %zu-%zu groups; split loss %.6g after %d sweeps (%zu swaps), "
                        "%.6g when dealt (%.2f s)",
                T, r->s / T, (r->s + T - 1) / T, st.loss, st.sweeps, st.swaps, st.loss_dealt, c->split_s);
done:
    free(glab);
    free(gsub);
    return rc;
}

/* the subsets' bounds on `workers` threads, summed into c (data units) */
static ckm_error bound_all(const ckm_context *ctx, const ckm_problem *p, const double *X, const ckm_reduced *r,
                           const ckm_scaled *sc, ckm_certificate *c, cert_lists *L, ckm_err *err)
{
    size_t T = c->subsets;
    ckm_settings sub_s = *ctx->s;
    sub_s.verbosity = sub_s.verbosity > 0 ? sub_s.verbosity - 1 : 0;
    bool feasible_labels = c->violations == 0;
    double split_sse = 0.0;
    for (size_t t = 0; t < T; t++) {
        split_sse += L->incumbent[t];
        if (!feasible_labels) /* not an upper bound of the subset's optimum then */
            L->incumbent[t] = INFINITY;
    }
    c->labels_split_sse = ckm_scaled_objective(sc, split_sse);
    cert_job J = {.p = p, .X = X, .r = r, .ctx = ctx, .sub_s = &sub_s, .T = T, .pt_start = L->pt_start,
                  .pts = L->pts, .pr_start = L->pr_start, .prs = L->prs, .incumbent = L->incumbent,
                  .scatter = L->scatter, .groups = L->groups, .bound = L->bound, .c = c, .workers = c->workers,
                  .rc = CKM_OK};
    for (size_t a = 0; r->has_caps && a < r->s; a++)
        J.demand_total += r->demand[a];
    atomic_init(&J.next, 0);
    pthread_mutex_init(&J.lock, NULL);
    double t0 = ckm_now();
    ckm_parallel_for(c->workers, (size_t)c->workers, ckm_certify_worker, &J);
    c->bound_s = ckm_now() - t0;
    pthread_mutex_destroy(&J.lock);
    if (J.rc != CKM_OK) {
        if (err)
            *err = J.err;
        return J.rc;
    }
    double lb = 0.0;
    size_t stopped = 0, sdp = 0;
    for (size_t t = 0; t < T; t++) {
        ckm_certify_subset *rec = &c->subset[t];
        if (rec->points == 0) { /* never reached: a worker failed (not here) or a stop came first */
            rec->points = L->pt_start[t + 1] - L->pt_start[t];
            rec->groups = L->groups[t];
            rec->status = CKM_STATUS_INTERRUPTED;
            L->bound[t] = L->scatter[t];
        }
        rec->lower_bound = ckm_scaled_objective(sc, L->bound[t]);
        rec->labels_sse = ckm_scaled_objective(sc, L->incumbent[t] < INFINITY ? L->incumbent[t] : NAN);
        lb += L->bound[t];
        bool halted = rec->status == CKM_STATUS_TIME_LIMIT || rec->status == CKM_STATUS_INTERRUPTED;
        stopped += halted;
        sdp += (size_t)(rec->sdp && !halted);
        if (rec->status == CKM_STATUS_INTERRUPTED) /* a stop request outranks the time shares */
            c->status = CKM_STATUS_INTERRUPTED;
        else if (halted && c->status == CKM_STATUS_FEASIBLE)
            c->status = rec->status;
    }
    if (J.infeasible) {
        c->status = CKM_STATUS_INFEASIBLE;
        c->lower_bound = INFINITY;
        return CKM_OK;
    }
    c->lower_bound = ckm_scaled_objective(sc, lb);
    char groups[48];
    size_t glo = r->s / T, ghi = (r->s + T - 1) / T;
    if (glo == ghi)
        snprintf(groups, sizeof groups, "%zu", glo);
    else
        snprintf(groups, sizeof groups, "%zu-%zu", glo, ghi);
    double loss = c->sse > 0.0 ? fmax(0.0, 100.0 * (c->sse - c->labels_split_sse) / c->sse) : 0.0;
    snprintf(c->message, sizeof c->message,
             "%s%zu subset%s of %s groups: %zu bounded by the SDP, %zu exact without it, %zu stopped by the time or "
             "a stop; the split costs at most %.3g %% of the labels' SSE",
             stopped ? ckm_stop_prefix(c->status) : "", T, T == 1 ? "" : "s", groups, sdp, T - sdp - stopped, stopped,
             loss);
    return CKM_OK;
}

/* sse vs lower_bound: the gap, with the driver's rule for bounds at rounding level (a bound
 * within noise of the SSE, on either side, is a gap of 0: k = 1 or one group per cluster,
 * whose bound is the optimum itself, give exactly 0 for labels that reach it) */
static void finish_gap(ckm_certificate *c, const ckm_reduced *r, const ckm_scaled *sc, double gap)
{
    if (c->violations > 0 || !isfinite(c->lower_bound))
        return;
    double noise = CKM_GAP_ABS * ckm_scaled_objective(sc, r->gap_scale);
    if (c->lower_bound > c->sse && c->lower_bound <= c->sse + noise)
        c->lower_bound = c->sse;
    if (c->sse <= noise || c->sse - c->lower_bound <= noise)
        c->gap = 0.0; /* closed at rounding level: the driver's rule (ckm_gap_closed's absolute part) */
    else
        c->gap = (c->sse - c->lower_bound) / c->sse;
    if (c->status == CKM_STATUS_FEASIBLE && ckm_gap_closed(c->sse, c->lower_bound, gap, ckm_scaled_objective(sc, r->gap_scale)))
        c->status = CKM_STATUS_OPTIMAL; /* the labels are proven optimal within settings.gap */
}

static ckm_error certify_run(const ckm_context *ctx, const ckm_problem *p, const int32_t *labels, size_t subsets,
                             ckm_certificate *c, ckm_err *err)
{
    ckm_scaled sc;
    ckm_reduced *r = NULL;
    cert_lists L;
    memset(&L, 0, sizeof L);
    ckm_error rc = ckm_scaled_init(&sc, p->X, p->n, p->d, err);
    if (rc != CKM_OK)
        return rc;
    struct ckm_problem scaled = *p;
    scaled.X = sc.X;
    int infeasible = 0;
    if ((rc = ckm_reduce(&scaled, &r, &infeasible, c->message, sizeof c->message, err)) != CKM_OK)
        goto done;
    if (infeasible) {
        c->status = CKM_STATUS_INFEASIBLE;
        c->lower_bound = INFINITY;
        c->groups = r ? r->s : 0;
        goto done;
    }
    c->groups = r->s;
    if (subsets > r->s) {
        rc = ckm_fail(err, CKM_ERR_INVALID, "certify: %zu subsets but only %zu must-link groups to split", subsets, r->s);
        goto done;
    }
    int threads = ckm_thread_count(ctx->s->threads);
    c->subsets = subsets ? subsets : ckm_certify_subset_count(r->s, p->k, ctx->s->time_limit_s, threads,
                                                              ckm_memory_available());
    c->workers = (size_t)threads < c->subsets ? threads : (int)c->subsets;
    size_t m = (r->s + c->subsets - 1) / c->subsets;
    c->memory_mb = (c->workers * 120.0 * (double)m * (double)m + 64.0 * (double)p->n) / 1e6;
    ckm_ctx_log(ctx, 1, "certify: n = %zu, d = %zu, k = %zu, %zu groups, %zu pairs; %zu subsets on %d threads, "
                        "about %.0f MB",
                p->n, p->d, p->k, r->s, p->n_pairs, c->subsets, c->workers, c->memory_mb);
    if ((rc = prepare(ctx, p, sc.X, r, labels, c, &L, err)) != CKM_OK ||
        (rc = bound_all(ctx, p, sc.X, r, &sc, c, &L, err)) != CKM_OK)
        goto done;
    finish_gap(c, r, &sc, ctx->s->gap);
done:
    lists_free(&L);
    ckm_reduced_free(r);
    ckm_scaled_free(&sc);
    return rc;
}

ckm_error ckm_certify(const ckm_problem *p, const int32_t *labels, size_t subsets, const ckm_settings *s_caller,
                      ckm_certificate **out, ckm_err *err)
{
    *out = NULL;
    ckm_settings s;
    ckm_error rc = ckm_read_settings(s_caller, &s, err);
    if (rc != CKM_OK || (rc = check_args(p, labels, &s, err)) != CKM_OK)
        return rc;
    ckm_stop_chain chain = {s.interrupt, s.should_stop, s.stop_user};
    if (s.interrupt) {
        s.should_stop = ckm_chained_stop;
        s.stop_user = &chain;
    }
    ckm_counters counters;
    ckm_counters_init(&counters);
    pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
    ckm_context ctx = {.s = &s, .start = ckm_now(), .deadline = INFINITY, .count = &counters, .log_lock = &log_lock,
                       .max_iter = 100};
    if (s.time_limit_s > 0.0)
        ctx.deadline = ctx.start + s.time_limit_s;
    ckm_check_report *chk = NULL;
    if ((rc = ckm_check(p, labels, &chk, err)) != CKM_OK)
        return rc;
    ckm_certificate *c = new_certificate(p, chk);
    ckm_check_report_free(chk);
    if (!c)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    if ((rc = certify_run(&ctx, p, labels, subsets, c, err)) != CKM_OK) {
        ckm_certificate_free(c);
        return rc;
    }
    if (c->violations > 0) {
        size_t used = strlen(c->message);
        snprintf(c->message + used, sizeof c->message - used,
                 "%sthe labels violate %zu constraint(s): the bound holds, no gap", used ? "; " : "", c->violations);
    }
    c->stats.sdp_iterations = atomic_load(&counters.v[CKM_COUNT_SDP_ITER]);
    c->stats.cut_rounds = atomic_load(&counters.v[CKM_COUNT_CUT_ROUNDS]);
    c->stats.cuts_added = atomic_load(&counters.v[CKM_COUNT_CUTS]);
    c->total_s = ckm_now() - ctx.start;
    *out = c;
    return CKM_OK;
}

void ckm_certificate_free(ckm_certificate *c)
{
    if (!c)
        return;
    free(c->subset_of);
    free(c->subset);
    free(c);
}
