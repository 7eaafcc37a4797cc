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
#include "certify_run.h"
#include "certify_floor.h"
#include "certify_split.h"
#include "problem_impl.h"
#include "sdp.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    free(L->floor);
    L->floor = NULL;
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

static ckm_error check_args(const ckm_problem *p, const int32_t *labels, ckm_err *err)
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
    return CKM_OK;
}

static ckm_error check_settings(const ckm_settings *s, ckm_err *err)
{
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
    c->split_floor_sse = NAN;
    c->ranks = 1;
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

void ckm_cert_job(ckm_cert_run *R, cert_job *J)
{
    *J = (cert_job){.p = R->p, .X = R->sc.X, .r = R->r, .ctx = &R->ctx, .sub_s = &R->sub_s, .T = R->c->subsets,
                    .k = R->p->k, .count = R->c->subsets, .pt_start = R->L.pt_start, .pts = R->L.pts,
                    .pr_start = R->L.pr_start, .prs = R->L.prs, .incumbent = R->L.incumbent,
                    .scatter = R->L.scatter, .groups = R->L.groups, .bound = R->L.bound, .rec = R->c->subset,
                    .workers = R->c->workers, .rc = CKM_OK};
    atomic_init(&J->failed, 0);
    J->sse = isfinite(R->c->sse) ? ldexp(R->c->sse, -2 * R->sc.e) : NAN;
    for (size_t a = 0; R->r->has_caps && a < R->r->s; a++)
        J->demand_total += R->r->demand[a];
}

void ckm_cert_bound(cert_job *J)
{
    atomic_init(&J->next, J->from);
    pthread_mutex_init(&J->lock, NULL);
    if (J->from == 0) { /* a later range (ckm_certify's re-plan) continues the count and the curve */
        J->done = 0;
        J->bound_so_far = 0.0;
        for (size_t t = 0; !J->ids && t < J->T; t++)
            J->bound_so_far += J->scatter[t];
        if (!J->ids) /* the start of the bound's curve: every subset at its groups' scatter */
            ckm_ctx_progress(J->ctx, (ckm_progress){.kind = CKM_PROGRESS_BOUND, .objective = NAN, .incumbent = J->sse,
                                                    .lower_bound = J->bound_so_far, .restarts = 1, .total = J->T});
    }
    size_t upto = J->upto ? J->upto : J->count, left = upto > J->from ? upto - J->from : 0;
    int workers = (size_t)J->workers < left ? J->workers : (int)left;
    J->launched = workers;
    for (int w = 0; w < CKM_MAX_THREADS; w++)
        J->until[w] = -INFINITY;
    if (workers > 0)
        ckm_parallel_for(workers, (size_t)workers, ckm_certify_worker, J);
    pthread_mutex_destroy(&J->lock);
}

/* the subsets' records and bounds summed into c (data units), its status and message */
static void sum_bounds(ckm_cert_run *R, const cert_job *J)
{
    ckm_certificate *c = R->c;
    const cert_lists *L = &R->L;
    const ckm_reduced *r = R->r;
    size_t T = c->subsets;
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
        rec->lower_bound = ckm_scaled_objective(&R->sc, L->bound[t]);
        rec->labels_sse = ckm_scaled_objective(&R->sc, L->incumbent[t] < INFINITY ? L->incumbent[t] : NAN);
        lb += L->bound[t];
        bool halted = rec->status == CKM_STATUS_TIME_LIMIT || rec->status == CKM_STATUS_INTERRUPTED;
        stopped += halted;
        sdp += (size_t)(rec->sdp && !halted);
        if (rec->status == CKM_STATUS_INTERRUPTED) /* a stop request outranks the time shares */
            c->status = CKM_STATUS_INTERRUPTED;
        else if (halted && c->status == CKM_STATUS_FEASIBLE)
            c->status = rec->status;
    }
    if (J->infeasible) {
        c->status = CKM_STATUS_INFEASIBLE;
        c->lower_bound = INFINITY;
        snprintf(c->message, sizeof c->message, "%s", J->reason);
        return;
    }
    c->lower_bound = ckm_scaled_objective(&R->sc, lb);
    char groups[48];
    size_t glo = r->s / T, ghi = (r->s + T - 1) / T;
    if (glo == ghi)
        snprintf(groups, sizeof groups, "%zu", glo);
    else
        snprintf(groups, sizeof groups, "%zu-%zu", glo, ghi);
    /* what the split costs the bound at least: the floor where measured, else the split loss */
    bool measured = isfinite(c->split_floor_sse);
    double least = measured ? c->split_floor_sse : c->labels_split_sse;
    double cost = c->sse > 0.0 ? fmax(0.0, 100.0 * (c->sse - least) / c->sse) : 0.0;
    snprintf(c->message, sizeof c->message,
             "%s%zu subset%s of %s groups: %zu bounded by the SDP, %zu exact without it, %zu stopped by the time or "
             "a stop; the split costs the bound at least %.3g %% of the labels' SSE (%s)",
             stopped ? ckm_stop_prefix(c->status) : "", T, T == 1 ? "" : "s", groups, sdp, T - sdp - stopped, stopped,
             cost,
             measured ? "its floor: k-means and one-group moves on each subset alone"
                      : "the labels restricted to the subsets");
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

void ckm_cert_finish(ckm_cert_run *R, const cert_job *J, ckm_certificate **out)
{
    ckm_certificate *c = R->c;
    if (!R->settled) {
        sum_bounds(R, J);
        finish_gap(c, R->r, &R->sc, R->s.gap);
    }
    if (c->violations > 0) {
        size_t used = strlen(c->message);
        snprintf(c->message + used, sizeof c->message - used,
                 "%sthe labels violate %zu constraint(s): the bound holds, no gap", used ? "; " : "", c->violations);
    }
    c->stats.sdp_iterations = atomic_load(&R->counters.v[CKM_COUNT_SDP_ITER]);
    c->stats.cut_rounds = atomic_load(&R->counters.v[CKM_COUNT_CUT_ROUNDS]);
    c->stats.cuts_added = atomic_load(&R->counters.v[CKM_COUNT_CUTS]);
    c->total_s = ckm_now() - R->ctx.start;
    ckm_progress_sink_take(&R->sink, &c->trace, &c->trace_len);
    *out = c;
    R->c = NULL;
}

ckm_error ckm_cert_start(ckm_cert_run *R, const ckm_settings *s_caller, ckm_err *err)
{
    memset(R, 0, sizeof *R);
    pthread_mutex_init(&R->log_lock, NULL);
    R->live = 1;
    ckm_error rc = ckm_read_settings(s_caller, &R->s, err);
    if (rc != CKM_OK || (rc = check_settings(&R->s, err)) != CKM_OK)
        return rc;
    ckm_stop_chain_install(&R->s, &R->chain);
    ckm_counters_init(&R->counters);
    R->ctx = (ckm_context){.s = &R->s, .start = ckm_now(), .deadline = INFINITY, .count = &R->counters,
                           .log_lock = &R->log_lock, .max_iter = 100};
    if (R->s.time_limit_s > 0.0)
        R->ctx.deadline = R->ctx.start + R->s.time_limit_s;
    if ((rc = ckm_progress_sink_init(&R->sink, &R->s, 1, err)) != CKM_OK)
        return rc;
    R->ctx.sink = &R->sink;
    R->sub_s = R->s;
    R->sub_s.verbosity = R->s.verbosity > 0 ? R->s.verbosity - 1 : 0;
    return CKM_OK;
}

/* T subsets: the workers and memory model, the split and lists (a previous split's released),
 * the labels' restricted SSEs and, where it applies, the split's floor (certify_floor.c) in
 * c->split_floor_sse (NAN when not measured). */
static ckm_error split_with_floor(ckm_cert_run *R, const int32_t *labels, size_t T, int threads, ckm_err *err)
{
    const ckm_problem *p = R->p;
    ckm_certificate *c = R->c;
    lists_free(&R->L);
    free(c->subset_of);
    free(c->subset);
    c->subset_of = NULL;
    c->subset = NULL;
    c->subsets = T;
    c->workers = (size_t)threads < T ? threads : (int)T;
    size_t m = (R->r->s + T - 1) / T;
    /* with a time limit a subset's pool may grow (ipc.c): counted at its most */
    double pool = isfinite(R->ctx.deadline) ? CKM_SDP_GROWN_CUTS * CKM_SDP_CUT_ROW_BYTES : 0.0;
    c->memory_mb = (c->workers * (120.0 * (double)m * (double)m + pool) + 64.0 * (double)p->n) / 1e6;
    ckm_ctx_log(&R->ctx, 1, "certify: n = %zu, d = %zu, k = %zu, %zu groups, %zu pairs; %zu subsets on %d threads, "
                            "about %.0f MB",
                p->n, p->d, p->k, R->r->s, p->n_pairs, T, c->workers, c->memory_mb);
    ckm_error rc = prepare(&R->ctx, p, R->sc.X, R->r, labels, c, &R->L, err);
    if (rc != CKM_OK)
        return rc;
    double split_sse = 0.0;
    for (size_t t = 0; t < T; t++) {
        split_sse += R->L.incumbent[t];
        if (c->violations > 0) /* not an upper bound of the subset's optimum then */
            R->L.incumbent[t] = INFINITY;
    }
    c->labels_split_sse = ckm_scaled_objective(&R->sc, split_sse);
    c->split_floor_sse = NAN;
    if (c->violations > 0 || !ckm_certify_floor_applies(R->r) || !(c->sse > 0.0))
        return CKM_OK;
    double *least = R->L.floor = ckm_alloc_array(T, sizeof(double));
    if (!least)
        return ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
    cert_job J;
    ckm_cert_job(R, &J);
    double t0 = ckm_now(), sum = 0.0;
    if ((rc = ckm_certify_floor(&J, labels, threads, least, err)) == CKM_OK) {
        for (size_t t = 0; t < T; t++)
            sum += least[t];
        c->split_floor_sse = ckm_scaled_objective(&R->sc, sum);
        ckm_ctx_log(&R->ctx, 1, "certify: the split's floor: no bound through it exceeds %.10g, %.3g %% below the "
                                "labels' SSE (k-means and one-group moves on each subset alone, %.2f s)",
                    c->split_floor_sse, 100.0 * (c->sse - c->split_floor_sse) / c->sse, ckm_now() - t0);
    }
    return rc;
}

/* the groups, T and the workers, the split and the lists (c open) */
static ckm_error plan(ckm_cert_run *R, const int32_t *labels, size_t subsets, ckm_err *err)
{
    const ckm_problem *p = R->p;
    ckm_certificate *c = R->c;
    ckm_error rc = ckm_scaled_init(&R->sc, p->X, p->n, p->d, err);
    if (rc != CKM_OK)
        return rc;
    R->have_sc = 1;
    R->sink.obj_exp = R->sc.e;
    struct ckm_problem scaled = *p;
    scaled.X = R->sc.X;
    int infeasible = 0;
    if ((rc = ckm_reduce(&scaled, &R->r, &infeasible, c->message, sizeof c->message, err)) != CKM_OK)
        return rc;
    if (infeasible) {
        c->status = CKM_STATUS_INFEASIBLE;
        c->lower_bound = INFINITY;
        c->groups = R->r ? R->r->s : 0;
        R->settled = 1;
        return CKM_OK;
    }
    c->groups = R->r->s;
    if (subsets > R->r->s)
        return ckm_fail(err, CKM_ERR_INVALID, "certify: %zu subsets but only %zu must-link groups to split", subsets,
                        R->r->s);
    int threads = ckm_thread_count(R->s.threads);
    double mem = ckm_memory_available();
    R->threads = threads;
    R->mem = mem;
    size_t T = subsets ? subsets : ckm_certify_subset_count(R->r->s, p->k, R->s.time_limit_s, threads, mem);
    R->labels = labels;
    R->replan = subsets == 0 && R->s.time_limit_s > 0.0;
    return split_with_floor(R, labels, T, threads, err);
}

ckm_error ckm_cert_begin(ckm_cert_run *R, const ckm_problem *p, const int32_t *labels, size_t subsets,
                         const ckm_settings *s, ckm_err *err)
{
    ckm_error rc = ckm_cert_start(R, s, err);
    if (rc != CKM_OK || (rc = check_args(p, labels, err)) != CKM_OK)
        return rc;
    R->p = p;
    ckm_check_report *chk = NULL;
    if ((rc = ckm_check(p, labels, &chk, err)) != CKM_OK)
        return rc;
    R->c = new_certificate(p, chk);
    ckm_check_report_free(chk);
    if (!R->c)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    return plan(R, labels, subsets, err);
}

void ckm_cert_end(ckm_cert_run *R)
{
    lists_free(&R->L);
    ckm_reduced_free(R->r);
    if (R->have_sc)
        ckm_scaled_free(&R->sc);
    ckm_certificate_free(R->c);
    ckm_progress_sink_free(&R->sink);
    if (R->live)
        pthread_mutex_destroy(&R->log_lock);
}

/* The first W subsets' bounds and records of a split (its probes), kept while a coarser split
 * is tried, with what they say of the gap: floor = SSE - sum_t U_t (U_t: the least SSE found
 * for subset t alone) and the SDP part, sum over the probes of U_t - LB_t scaled to T
 * subsets (both in the labels' units). */
typedef struct probe_set {
    size_t T, W;
    double floor, sdp;
    bool finished;                /* every probe ended within its share */
    double bound[CKM_MAX_THREADS];
    ckm_certify_subset rec[CKM_MAX_THREADS];
} probe_set;

static void probe_take(const ckm_cert_run *R, probe_set *ps)
{
    const ckm_certificate *c = R->c;
    ps->T = c->subsets;
    ps->W = (size_t)c->workers;
    ps->floor = c->sse - c->split_floor_sse;
    ps->finished = true;
    double part = 0.0;
    for (size_t t = 0; t < ps->W; t++) {
        ps->bound[t] = R->L.bound[t];
        ps->rec[t] = c->subset[t];
        part += fmax(0.0, R->L.floor[t] - R->L.bound[t]);
        ps->finished = ps->finished && c->subset[t].status != CKM_STATUS_TIME_LIMIT &&
                       c->subset[t].status != CKM_STATUS_INTERRUPTED;
    }
    ps->sdp = ckm_scaled_objective(&R->sc, part) * (double)ps->T / (double)ps->W;
}

/* the split at ps->T made again (seeded: the same subsets) with its probes' results */
static ckm_error probe_restore(ckm_cert_run *R, const probe_set *ps, ckm_err *err)
{
    ckm_error rc = split_with_floor(R, R->labels, ps->T, R->threads, err);
    if (rc != CKM_OK)
        return rc;
    for (size_t t = 0; t < ps->W; t++) {
        R->L.bound[t] = ps->bound[t];
        R->c->subset[t] = ps->rec[t];
    }
    return CKM_OK;
}

/* Bound the first W subsets of the current split (the job J set up for it) */
static bool probe_run(ckm_cert_run *R, cert_job *J, size_t W)
{
    ckm_cert_job(R, J);
    J->upto = W;
    ckm_cert_bound(J);
    return J->rc == CKM_OK;
}

/* J set up for the subsets after the first W of the current split, whose bounds are in: the
 * progress count and curve go on from them (a point of the curve marks the split's bounds) */
static void resume_job(ckm_cert_run *R, cert_job *J, size_t W)
{
    ckm_cert_job(R, J);
    J->from = W;
    J->done = W;
    for (size_t t = 0; t < J->T; t++)
        J->bound_so_far += t < W ? J->bound[t] : J->scatter[t];
    ckm_ctx_progress(J->ctx, (ckm_progress){.kind = CKM_PROGRESS_BOUND, .objective = NAN, .incumbent = J->sse,
                                            .lower_bound = J->bound_so_far, .restarts = 1, .done = W,
                                            .total = J->T});
}

/* Whether a split of T subsets may be coarsened to T2: T chosen here for a time limit, its
 * floor measured, W probes possible at T2, within the memory cap */
static bool may_coarsen(const ckm_cert_run *R, size_t T, size_t T2, size_t W)
{
    return R->replan && isfinite(R->c->split_floor_sse) && R->c->sse > 0.0 && T2 >= W && T2 < T &&
           (R->r->s + T2 - 1) / T2 <= ckm_certify_groups_cap(R->threads, R->mem);
}

/* The subsets' bounds in one process (J filled for ckm_cert_finish). Re-planning (docs/
 * certify.md, certify_split.h): when T was chosen for a time limit and the floor is measured,
 * the first W (= workers) subsets are bounded first with their usual share (the probes). Then
 * the split may be coarsened, at most CKM_CERTIFY_COARSEN times:
 *   - at once to T2 = ceil(T/2) when the floor exceeds CKM_CERTIFY_FLOOR_MAX and every probe
 *     finished or their SDP part is below CKM_CERTIFY_SDP_SMALL times the floor (the
 *     relaxations converge here: the split, not the SDPs, holds the gap);
 *   - else after measuring, to T2 = ckm_certify_coarser(T): the split at T2 and its floor are
 *     made (cheap); when its floor is below T's by more than CKM_CERTIFY_WORTH times T's SDP
 *     part and W probes at T2 take at most CKM_CERTIFY_PROBE_SHARE of the time, they run, and
 *     T2 is kept when its floor plus its probes' SDP part is below T's.
 * A split not kept is made again with its probes' bounds; then its other subsets follow. (The
 * floor is measured only for labels that meet every constraint, so no subset can be proven
 * infeasible here: the probes' records and bounds are all a re-made split needs back.) */
static ckm_error bound_replanned(ckm_cert_run *R, cert_job *J, ckm_err *err)
{
    ckm_certificate *c = R->c;
    size_t W = (size_t)c->workers;
    size_t T = c->subsets; /* probes only where either step below may follow */
    if (!(may_coarsen(R, T, (T + 1) / 2, W) || may_coarsen(R, T, ckm_certify_coarser(T), W)) || T < 2 * W) {
        ckm_cert_job(R, J);
        ckm_cert_bound(J);
        if (J->rc != CKM_OK && err)
            *err = J->err;
        return J->rc;
    }
    probe_set *cur = malloc(sizeof *cur), *next = malloc(sizeof *next);
    ckm_error rc = CKM_OK;
    if (!cur || !next) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
        goto done;
    }
    if (!probe_run(R, J, W))
        goto failed;
    probe_take(R, cur);
    for (int step = 0; step < CKM_CERTIFY_COARSEN; step++) {
        bool at_once = ckm_certify_halve_at_once(c->sse, cur->floor, cur->sdp, cur->finished);
        size_t T2 = at_once ? (cur->T + 1) / 2 : ckm_certify_coarser(cur->T);
        if (!may_coarsen(R, cur->T, T2, W))
            break;
        if ((rc = split_with_floor(R, R->labels, T2, R->threads, err)) != CKM_OK)
            goto done;
        double floor2 = c->sse - c->split_floor_sse;
        bool worth = at_once || (cur->floor - floor2 > CKM_CERTIFY_WORTH * cur->sdp &&
                                 (double)W / (double)T2 <= CKM_CERTIFY_PROBE_SHARE);
        if (!worth) {
            ckm_ctx_log(&R->ctx, 1, "certify: %zu subsets kept: %zu would lower the floor by %.3g %% of the SSE, "
                                    "the first subsets' SDPs leave %.3g %%",
                        cur->T, T2, 100.0 * (cur->floor - floor2) / c->sse, 100.0 * cur->sdp / c->sse);
            break;
        }
        if (!probe_run(R, J, W))
            goto failed;
        probe_take(R, next);
        bool keep = at_once || next->floor + next->sdp < cur->floor + cur->sdp;
        ckm_ctx_log(&R->ctx, 1, "certify: %zu subsets: floor %.3g %% + the first subsets' SDP part %.3g %%; %zu: "
                                "%.3g %% + %.3g %%%s: %zu subsets",
                    cur->T, 100.0 * cur->floor / c->sse, 100.0 * cur->sdp / c->sse, T2, 100.0 * next->floor / c->sse,
                    100.0 * next->sdp / c->sse, !at_once ? "" : cur->finished ? " (the first finished within their share)"
                                                                               : " (the first left little to their SDPs)",
                    keep ? T2 : cur->T);
        if (!keep)
            break;
        probe_set *tmp = cur;
        cur = next;
        next = tmp;
    }
    if (c->subsets != cur->T && (rc = probe_restore(R, cur, err)) != CKM_OK)
        goto done;
    resume_job(R, J, W);
    ckm_cert_bound(J);
    if (J->rc == CKM_OK)
        goto done;
failed:
    rc = J->rc;
    if (err)
        *err = J->err;
done:
    free(cur);
    free(next);
    return rc;
}

ckm_error ckm_certify(const ckm_problem *p, const int32_t *labels, size_t subsets, const ckm_settings *s,
                      ckm_certificate **out, ckm_err *err)
{
    *out = NULL;
    ckm_cert_run R;
    ckm_error rc = ckm_cert_begin(&R, p, labels, subsets, s, err);
    if (rc == CKM_OK) {
        cert_job J;
        memset(&J, 0, sizeof J);
        if (!R.settled) {
            double t0 = ckm_now();
            rc = bound_replanned(&R, &J, err);
            R.c->bound_s = ckm_now() - t0;
        }
        if (rc == CKM_OK)
            ckm_cert_finish(&R, &J, out);
    }
    ckm_cert_end(&R);
    return rc;
}

void ckm_certificate_free(ckm_certificate *c)
{
    if (!c)
        return;
    free(c->subset_of);
    free(c->subset);
    free(c->trace);
    free(c);
}
