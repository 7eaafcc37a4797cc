/*
 * solve.c -- the driver every algorithm runs under (design.md section 2):
 *   validate settings -> preprocess once (infeasible => result, not error) -> capability
 *   check -> algorithm on super-points -> expand labels to points -> independent checker
 *   (ckm_check) -> SSE, sizes and centers recomputed from the labels -> gap.
 * A labelling that fails the checker is never returned: that is CKM_ERR_INTERNAL.
 */
#include "fallback.h"
#include "memory.h"
#include "solve.h"
#include "objective.h"
#include "problem_impl.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_settings_default(ckm_settings *s)
{
    memset(s, 0, sizeof *s);
    s->struct_size = (uint32_t)sizeof *s;
    snprintf(s->algorithm, sizeof s->algorithm, "kmeans");
    s->seed = 0;
    s->n_init = 10;
    s->max_iter = 0;
    s->distance = CKM_DISTANCE_SQEUCLIDEAN;
    s->init = CKM_INIT_DEFAULT;
    s->tol = 1e-4;
    s->time_limit_s = 0.0;
    s->threads = 0;
    s->cut_rounds = 50;
    s->gap = 1e-4;
    s->node_limit = 0;
    s->verbosity = 0;
    s->step_limit_s = 2.0;
    s->memory_limit_mb = 0.0;
}

void ckm_result_free(ckm_result *r)
{
    if (!r)
        return;
    free(r->labels);
    free(r->centers);
    free(r->sizes);
    free(r->trace);
    free(r);
}

static ckm_error validate_settings(const ckm_settings *s, const ckm_algo **algo, ckm_err *err)
{
    if (memchr(s->algorithm, '\0', sizeof s->algorithm) == NULL)
        return ckm_fail(err, CKM_ERR_INVALID, "settings.algorithm is not NUL-terminated");
    *algo = ckm_algo_lookup(s->algorithm);
    if (!*algo) {
        char names[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < ckm_algorithm_count() && used < sizeof names; i++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                                     ckm_algorithm_at(i)->name);
        return ckm_fail(err, CKM_ERR_INVALID, "unknown algorithm '%s' (available: %s)", s->algorithm,
                        names);
    }
    if (s->n_init < 1)
        return ckm_fail(err, CKM_ERR_INVALID, "n_init = %d: need at least 1 restart", s->n_init);
    if (s->max_iter < 0)
        return ckm_fail(err, CKM_ERR_INVALID, "max_iter = %d: need >= 1 (or 0 for the algorithm's default)",
                        s->max_iter);
    if (s->distance != CKM_DISTANCE_SQEUCLIDEAN && s->distance != CKM_DISTANCE_EUCLIDEAN)
        return ckm_fail(err, CKM_ERR_INVALID, "distance = %d is not a ckm_distance", (int)s->distance);
    if (s->distance == CKM_DISTANCE_EUCLIDEAN && !((*algo)->info.honours & CKM_HONOURS_EUCLIDEAN))
        return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                        "algorithm '%s' minimises squared distances only; the euclidean assignment distance is "
                        "available with blpkm",
                        s->algorithm);
    if (s->init != CKM_INIT_DEFAULT && s->init != CKM_INIT_RANDOM && s->init != CKM_INIT_KMEANSPP)
        return ckm_fail(err, CKM_ERR_INVALID, "init = %d is not a ckm_init", (int)s->init);
    if (!(s->tol >= 0.0) || !isfinite(s->tol))
        return ckm_fail(err, CKM_ERR_INVALID, "tol = %g: need a finite value >= 0", s->tol);
    if (isnan(s->time_limit_s))
        return ckm_fail(err, CKM_ERR_INVALID, "time limit is NaN");
    if (s->cut_rounds < 0)
        return ckm_fail(err, CKM_ERR_INVALID, "cut_rounds = %d: need >= 0 (0 = no cutting planes)", s->cut_rounds);
    if (!(s->gap >= 0.0 && s->gap < 1.0))
        return ckm_fail(err, CKM_ERR_INVALID, "gap = %g: need a relative tolerance in [0, 1)", s->gap);
    if (s->node_limit < 0)
        return ckm_fail(err, CKM_ERR_INVALID, "node_limit = %d: need >= 0 (0 = no limit)", s->node_limit);
    if (s->lloyd != CKM_LLOYD_AUTO && s->lloyd != CKM_LLOYD_PLAIN && s->lloyd != CKM_LLOYD_BOUNDS)
        return ckm_fail(err, CKM_ERR_INVALID, "lloyd = %d is not a ckm_lloyd", (int)s->lloyd);
    if (s->precision != CKM_PRECISION_DOUBLE && s->precision != CKM_PRECISION_SINGLE)
        return ckm_fail(err, CKM_ERR_INVALID, "precision = %d is not a ckm_precision", (int)s->precision);
    if (!(s->soft_penalty >= 0.0) || !isfinite(s->soft_penalty))
        return ckm_fail(err, CKM_ERR_INVALID, "soft_penalty = %g: need a finite value >= 0 (0 = the default)",
                        s->soft_penalty);
    if (!(s->step_limit_s >= 0.0) || !isfinite(s->step_limit_s))
        return ckm_fail(err, CKM_ERR_INVALID, "step_limit_s = %g: need a finite value >= 0 (0 = no limit)",
                        s->step_limit_s);
    if (s->async_nodes != 0 && s->async_nodes != 1)
        return ckm_fail(err, CKM_ERR_INVALID, "async_nodes = %d: need 0 (synchronous batches) or 1 (node pool)",
                        s->async_nodes);
    if (!(s->memory_limit_mb >= 0.0) || !isfinite(s->memory_limit_mb))
        return ckm_fail(err, CKM_ERR_INVALID, "memory_limit_mb = %g: need a finite value >= 0 (0 = no budget)",
                        s->memory_limit_mb);
    if (s->threads < 0 || s->threads > CKM_MAX_THREADS)
        return ckm_fail(err, CKM_ERR_INVALID, "threads = %d: need 0 (the available cores) to %d", s->threads,
                        CKM_MAX_THREADS);
    return CKM_OK;
}

/* Which constraint kinds p uses that algo cannot honour; 0 when none. */
static ckm_error check_capability(const ckm_problem *p, const ckm_reduced *r, const ckm_algo *a,
                                  ckm_err *err)
{
    const char *kind = NULL;
    size_t count = 0;
    unsigned need = 0;
    if (p->n_ml > 0 && !(a->info.honours & CKM_HONOURS_MUST_LINK)) {
        kind = "must-link constraints";
        count = p->n_ml;
        need = CKM_HONOURS_MUST_LINK;
    } else if (p->n_cl > 0 && !(a->info.honours & CKM_HONOURS_CANNOT_LINK)) {
        kind = "cannot-link constraints";
        count = p->n_cl;
        need = CKM_HONOURS_CANNOT_LINK;
    } else if (r->has_sizes && !(a->info.honours & CKM_HONOURS_SIZE_BOUNDS)) {
        kind = "cluster-size bounds";
        need = CKM_HONOURS_SIZE_BOUNDS;
    } else if (p->n_soft > 0 && !(a->info.honours & CKM_HONOURS_SOFT_PAIRS)) {
        kind = "soft (confidence-weighted) pairs";
        count = p->n_soft;
        need = CKM_HONOURS_SOFT_PAIRS;
    } else if (r->has_caps && !(a->info.honours & CKM_HONOURS_CAPACITIES)) {
        kind = "capacity bounds (demands per cluster)";
        need = CKM_HONOURS_CAPACITIES;
    }
    if (!kind)
        return CKM_OK;
    char names[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < ckm_algorithm_count() && used < sizeof names; i++)
        if (ckm_algorithm_at(i)->honours & need)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     ckm_algorithm_at(i)->name);
    char cnt[48] = "";
    if (count)
        snprintf(cnt, sizeof cnt, " (the problem has %zu)", count);
    return ckm_fail(err, CKM_ERR_UNSUPPORTED, "algorithm '%s' does not honour %s%s; %s%s",
                    a->info.name, kind, cnt,
                    used ? "algorithms that do: " : "no algorithm in this build does yet",
                    names);
}

/* A soft pair's cost P |w_e| is an objective coefficient of the LP/MILP: CLP aborts the
 * process on one of 1e25 or more (measured: an assertion in ClpSimplex::createRim with
 * --soft-penalty 1e30 on iris). Costs past CKM_SOFT_COST_MAX (in the algorithm's units, where
 * every group cost is at most the total scatter, below 2^40 n) are refused instead. */
#define CKM_SOFT_COST_MAX 1e18
static ckm_error check_soft_cost(const ckm_reduced *r, double given, ckm_err *err)
{
    double wmax = 0.0;
    for (size_t e = 0; e < r->n_soft; e++)
        wmax = fmax(wmax, fabs(r->soft_w[e]));
    if (!(r->soft_P * wmax > CKM_SOFT_COST_MAX))
        return CKM_OK;
    return ckm_fail(err, CKM_ERR_INVALID,
                    "soft_penalty = %g is too large for these points: a soft pair would cost %.3g times their total "
                    "scatter, beyond what the LP solver takes; a P of the total scatter already outweighs any change "
                    "of the SSE per unit of confidence",
                    given, r->soft_P * wmax / fmax(r->tss, DBL_MIN));
}

ckm_error ckm_read_settings(const ckm_settings *in, ckm_settings *s, ckm_err *err)
{
    ckm_settings_default(s);
    if (!in)
        return CKM_OK;
    if (in->struct_size < CKM_SETTINGS_SIZE_0_2 || in->struct_size > sizeof *s)
        return ckm_fail(err, CKM_ERR_INVALID,
                        "settings.struct_size = %u is not a ckm_settings layout this library knows (%u..%zu): "
                        "call ckm_settings_default first",
                        (unsigned)in->struct_size, (unsigned)CKM_SETTINGS_SIZE_0_2, sizeof *s);
    memcpy(s, in, in->struct_size);
    s->struct_size = (uint32_t)sizeof *s;
    return CKM_OK;
}

int ckm_chained_stop(void *u)
{
    const ckm_stop_chain *c = u;
    if (__atomic_load_n((const int *)c->flag, __ATOMIC_RELAXED))
        return 1;
    return c->fn ? c->fn(c->user) : 0;
}

void ckm_stop_chain_install(ckm_settings *s, ckm_stop_chain *chain)
{
    *chain = (ckm_stop_chain){s->interrupt, s->should_stop, s->stop_user};
    if (s->interrupt) {
        s->should_stop = ckm_chained_stop;
        s->stop_user = chain;
    }
}

static void copy_stats(const ckm_counters *c, ckm_stats *st)
{
    uint64_t *dst[CKM_COUNT_N] = {&st->lp_solves,       &st->mip_solves,     &st->mip_nodes,  &st->transport_solves,
                                  &st->admm_iterations, &st->sdp_iterations, &st->cut_rounds, &st->cuts_added,
                                  &st->iterations,      &st->repairs,        &st->fallback,   &st->numeric_fallbacks};
    for (int i = 0; i < CKM_COUNT_N; i++)
        *dst[i] = atomic_load(&c->v[i]);
}

/* settings.init_centers checked (finite) and mapped to the algorithms' coordinates. */
static ckm_error given_centers(const double *C, const ckm_problem *p, const ckm_scaled *sc, double **out,
                               ckm_err *err)
{
    size_t kd = p->k * p->d;
    for (size_t q = 0; q < kd; q++)
        if (!isfinite(C[q]))
            return ckm_fail(err, CKM_ERR_INVALID, "init_centers: center %zu, feature %zu is %g (need finite values)",
                            q / p->d, q % p->d, C[q]);
    double *own = ckm_alloc_array(kd, sizeof(double));
    if (!own)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    for (size_t q = 0; q < kd; q++)
        own[q] = ckm_scaled_active(sc) ? ldexp(sc->center ? C[q] - sc->mu[q % p->d] : C[q], -sc->e) : C[q];
    *out = own;
    return CKM_OK;
}

/* Every SSE is at most the total scatter: one beyond double precision in the data's units
 * is refused; a rescaled run says so in the log. */
static ckm_error check_scale(const ckm_context *ctx, const ckm_reduced *r, const ckm_scaled *sc, ckm_err *err)
{
    if (r && !isfinite(ckm_scaled_objective(sc, r->tss)))
        return ckm_fail(err, CKM_ERR_INVALID,
                        "the points are too far apart for double precision: their total sum of squared distances "
                        "to the mean is about 2^%.0f (> %g), so no SSE can be represented; center or rescale the data",
                        log2(r->tss) + 2.0 * sc->e, DBL_MAX);
    if (ckm_scaled_active(sc))
        ckm_ctx_log(ctx, 1, "the data's magnitude or spread is outside [2^-8, 2^20]: the algorithm works on the "
                            "points %stimes 2^%d (same labels); objective values in this log are in those units, "
                            "reported ones in the data's",
                    sc->center ? "minus their mean " : "", -sc->e);
    return CKM_OK;
}

/* A result with nothing found yet: NaN objectives, no bound, the run's identity. */
static ckm_result *new_result(const ckm_problem *p, const ckm_settings *s, const ckm_algo *algo)
{
    ckm_result *res = calloc(1, sizeof *res);
    if (!res)
        return NULL;
    res->struct_size = (uint32_t)sizeof *res;
    res->weighted = p->w != NULL;
    res->n = p->n;
    res->d = p->d;
    res->k = p->k;
    res->sse = NAN;
    res->objective = NAN;
    res->lower_bound = -INFINITY;
    res->gap = NAN;
    res->root_gap = NAN;
    res->seed = s->seed;
    snprintf(res->algorithm, sizeof res->algorithm, "%s", algo->info.name);
    return res;
}

/* The soft-pair penalty P in the algorithm's units (r->soft_P) and in the data's
 * (res->soft_penalty): the caller's, or the mean squared distance between two points,
 * sum_ij w_i w_j ||x_i - x_j||^2 / W^2 = 2 TSS / W. When all points coincide every SSE is 0
 * and any P gives the same labels: the model uses 1 (a caller's P, scaled, could exceed what
 * CLP takes), the caller's P is reported. */
static void soft_penalty(const ckm_problem *p, const ckm_settings *s, const ckm_scaled *sc, ckm_reduced *r,
                         ckm_result *res)
{
    r->soft_P = r->tss == 0.0 ? 1.0
                : s->soft_penalty > 0.0 ? (ckm_scaled_active(sc) ? ldexp(s->soft_penalty, -2 * sc->e) : s->soft_penalty)
                                        : 2.0 * r->tss / r->total_mass;
    res->soft_penalty = p->n_soft == 0 ? 0.0 : s->soft_penalty > 0.0 ? s->soft_penalty : ckm_scaled_objective(sc, r->soft_P);
}

/* The algorithm's run, then the stop fallback for a run stopped without labels; its
 * outcome copied into res (the bound back in the data's units). */
static ckm_error run_algorithm(const ckm_context *ctx, const ckm_algo *algo, const ckm_reduced *r,
                               const ckm_scaled *sc, ckm_algo_out *ao, ckm_result *res, ckm_err *err)
{
    double t_solve = ckm_now();
    ckm_error rc = algo->run(ctx, r, ao, err);
    res->time.solve_s = ckm_now() - t_solve;
    if (rc != CKM_OK)
        return rc;
    if ((ao->status == CKM_STATUS_TIME_LIMIT || ao->status == CKM_STATUS_INTERRUPTED) && !ao->has_labels) {
        ckm_ctx_log(ctx, 1, "stopped without a labelling: a first one from seeds (fallback.c; until the deadline, "
                            "or at most %g s after it)",
                    ao->status == CKM_STATUS_INTERRUPTED ? CKM_GRACE_STOP_S : CKM_GRACE_S);
        if ((rc = ckm_fallback_labels(ctx, r, ao, err)) != CKM_OK)
            return rc;
        if (ao->has_labels)
            ckm_ctx_count(ctx, CKM_COUNT_FALLBACK, 1);
        res->time.solve_s = ckm_now() - t_solve;
    }
    res->status = ao->status;
    res->iterations = ao->iterations;
    res->restarts = ao->restarts;
    res->nodes = ao->nodes;
    res->root_gap = ao->root_gap;
    res->lower_bound = ckm_scaled_objective(sc, ao->lower_bound);
    snprintf(res->message, sizeof res->message, "%s", ao->message);
    if (r->soft_redundant + r->soft_contradicted > 0) {
        size_t used = strlen(res->message);
        snprintf(res->message + used, sizeof res->message - used,
                 "%s%zu soft pair%s always violated and %zu always satisfied by the hard constraints",
                 used ? "; " : "", r->soft_contradicted, r->soft_contradicted == 1 ? "" : "s", r->soft_redundant);
    }
    if (ao->status == CKM_STATUS_INFEASIBLE || ao->status == CKM_STATUS_NO_SOLUTION)
        ao->has_labels = 0;
    return CKM_OK;
}

/* The algorithm's labels (one per group) expanded to the points, checked by the independent
 * checker (a violation is a bug: CKM_ERR_INTERNAL), and the result's SSE, objective, centers,
 * sizes and gap computed from them alone. X: the points the algorithm saw (scaled). */
static ckm_error report_labels(const ckm_problem *p, const double *X, const ckm_reduced *r, const ckm_algo *algo,
                               const ckm_scaled *sc, const int32_t *labels, ckm_result *res, ckm_check_report **chk,
                               ckm_err *err)
{
    double t_check = ckm_now();
    res->labels = ckm_alloc_array(p->n, sizeof(int32_t));
    res->centers = ckm_alloc_array(p->k * p->d, sizeof(double));
    res->sizes = ckm_alloc_array(p->k, sizeof(size_t));
    if (!res->labels || !res->centers || !res->sizes)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < p->n; i++)
        res->labels[i] = labels[r->comp[i]];
    ckm_error rc;
    if ((rc = ckm_check(p, res->labels, chk, err)) != CKM_OK)
        return rc;
    const ckm_check_report *c = *chk;
    res->violations = c->count;
    if (c->count > 0)
        return ckm_fail(err, CKM_ERR_INTERNAL,
                        "algorithm '%s' returned a labelling that violates %zu constraint(s) "
                        "(%zu must-link, %zu cannot-link, %zu size, %zu capacity, %zu label): this is a bug",
                        algo->info.name, c->count, c->must_link_violated, c->cannot_link_violated, c->size_violated,
                        c->capacity_violated, c->label_invalid);
    res->sse = c->sse;
    res->soft_must_link_violated = c->soft_must_link_violated;
    res->soft_cannot_link_violated = c->soft_cannot_link_violated;
    res->penalty = res->soft_penalty * c->soft_violated_confidence;
    res->objective = res->sse + res->penalty;
    if ((rc = ckm_centers_from_labels(X, p->w, p->n, p->d, res->labels, p->k, res->centers, res->sizes, err)) !=
        CKM_OK)
        return rc;
    ckm_scaled_centers(sc, res->centers, p->k);
    res->has_labels = 1;
    /* every valid lower bound is <= the optimum <= this SSE: a certified bound above the
     * SSE by no more than the gap rule's absolute floor is the bound's rounding
     * (identical points: both are noise of 0), reported as the SSE, gap 0; one above it
     * by more stays as it is, for the checks to see */
    double noise = CKM_GAP_ABS * ckm_scaled_objective(sc, r->gap_scale);
    if (isfinite(res->lower_bound) && res->lower_bound > res->sse && res->lower_bound <= res->sse + noise)
        res->lower_bound = res->sse;
    if (isfinite(res->lower_bound) && res->sse <= noise)
        res->gap = 0.0; /* an SSE at rounding level of 0: no relative gap to speak of */
    else if (isfinite(res->lower_bound) && res->sse > 0.0)
        res->gap = (res->sse - res->lower_bound) / res->sse;
    else if (isfinite(res->lower_bound))
        res->gap = 0.0;
    res->time.check_s = ckm_now() - t_check;
    return CKM_OK;
}

ckm_error ckm_solve(const ckm_problem *p, const ckm_settings *s_caller, ckm_result **out, ckm_err *err)
{
    *out = NULL;
    ckm_settings s_full;
    ckm_error rc = ckm_read_settings(s_caller, &s_full, err);
    if (rc != CKM_OK)
        return rc;
    const ckm_settings *s_in = &s_full;
    ckm_stop_chain chain;
    if (s_full.init_centers)
        s_full.n_init = 1; /* restarts from the same centers would repeat each other */
    ckm_stop_chain_install(&s_full, &chain);
    const ckm_algo *algo = NULL;
    rc = validate_settings(s_in, &algo, err);
    if (rc != CKM_OK || (rc = ckm_problem_check_k(p, err)) != CKM_OK)
        return rc;
    ckm_counters counters;
    ckm_counters_init(&counters);
    pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
    ckm_context ctx = {.s = s_in,
                       .start = ckm_now(),
                       .deadline = INFINITY,
                       .count = &counters,
                       .log_lock = &log_lock,
                       .max_iter = s_in->max_iter > 0 ? s_in->max_iter : algo->info.default_max_iter};
    if (s_in->time_limit_s > 0.0)
        ctx.deadline = ctx.start + s_in->time_limit_s;
    ckm_progress_sink sink;
    if ((rc = ckm_progress_sink_init(&sink, s_in, s_in->n_init, err)) != CKM_OK)
        return rc;
    ctx.sink = &sink;

    ckm_result *res = new_result(p, s_in, algo);
    if (!res) {
        ckm_progress_sink_free(&sink);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }

    ckm_reduced *r = NULL;
    int infeasible = 0;
    ckm_algo_out ao;
    memset(&ao, 0, sizeof ao);
    ao.root_gap = NAN;
    ckm_check_report *chk = NULL;
    double *init_centers = NULL;
    /* the algorithms work on data scaled by 2^-e (scale.c): same labels, no overflow */
    struct ckm_problem scaled = *p;
    ckm_scaled sc;
    if ((rc = ckm_scaled_init(&sc, p->X, p->n, p->d, err)) != CKM_OK)
        goto fail;
    scaled.X = sc.X; /* read only: the reduced problem borrows it */
    sink.obj_exp = sc.e;
    if (s_in->init_centers && (rc = given_centers(s_in->init_centers, p, &sc, &init_centers, err)) != CKM_OK)
        goto fail;
    ctx.init_centers = init_centers;
    const ckm_problem *pw = &scaled;
    rc = ckm_reduce(pw, &r, &infeasible, res->message, sizeof res->message, err);
    res->time.preprocess_s = ckm_now() - ctx.start;
    if (rc != CKM_OK)
        goto fail;
    if ((rc = check_scale(&ctx, r, &sc, err)) != CKM_OK)
        goto fail;
    if (infeasible) {
        res->status = CKM_STATUS_INFEASIBLE;
        res->super_points = r ? r->s : 0;
        ckm_ctx_log(&ctx, 1, "proven infeasible in preprocessing: %s", res->message);
        goto finish;
    }
    res->super_points = r->s;
    soft_penalty(p, s_in, &sc, r, res);
    if ((rc = check_soft_cost(r, s_in->soft_penalty, err)) != CKM_OK)
        goto fail;
    if ((rc = check_capability(p, r, algo, err)) != CKM_OK ||
        (rc = ckm_memory_check(algo, r, s_in->distance, ckm_thread_count(s_in->threads), ckm_scaled_active(&sc), err)) != CKM_OK)
        goto fail;
    ckm_ctx_log(&ctx, 1, "%s: n = %zu, d = %zu, k = %zu, %zu must-link, %zu cannot-link, %zu groups after merging must-links%s",
                algo->info.name, p->n, p->d, p->k, p->n_ml, p->n_cl, r->s,
                r->k2_merged ? " and the points cannot-link chains force together (k = 2)" : "");
    ckm_ctx_log(&ctx, 2, "memory model: about %.0f MB for this solve (docs/memory.md), the problem's copy not counted",
                ckm_memory_estimate(algo, r, s_in->distance, ckm_thread_count(s_in->threads), ckm_scaled_active(&sc)) / 1048576.0);
    if (p->n_soft > 0)
        ckm_ctx_log(&ctx, 1,
                    "%zu soft must-link, %zu soft cannot-link: %zu group pairs in the model, %zu decided by the hard "
                    "constraints as satisfied, %zu as violated; penalty P = %.6g per unit of confidence",
                    p->n_sml, p->n_scl, r->n_soft, r->soft_redundant, r->soft_contradicted, res->soft_penalty);

    ao.labels = ckm_alloc_array(r->s, sizeof(int32_t));
    if (!ao.labels) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        goto fail;
    }
    if ((rc = run_algorithm(&ctx, algo, r, &sc, &ao, res, err)) != CKM_OK)
        goto fail;
    if (ao.has_labels && (rc = report_labels(p, pw->X, r, algo, &sc, ao.labels, res, &chk, err)) != CKM_OK)
        goto fail;
finish:
    res->time.total_s = ckm_now() - ctx.start;
    copy_stats(&counters, &res->stats);
    res->stats.nodes = res->nodes;
    res->stats.restarts = (uint64_t)(res->restarts > 0 ? res->restarts : 0);
    ckm_progress_sink_take(&sink, &res->trace, &res->trace_len);
    ckm_check_report_free(chk);
    ckm_reduced_free(r);
    free(ao.labels);
    free(init_centers);
    ckm_scaled_free(&sc);
    *out = res;
    return CKM_OK;
fail:
    ckm_progress_sink_free(&sink);
    ckm_check_report_free(chk);
    ckm_reduced_free(r);
    free(ao.labels);
    free(init_centers);
    ckm_scaled_free(&sc);
    ckm_result_free(res);
    return rc;
}
