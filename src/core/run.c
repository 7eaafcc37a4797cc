/*
 * run.c -- a run's stop requests (deadline, user callback), work counters, progress
 * logging, progress events and restart bookkeeping (run.h).
 * Progress events go to settings.progress as they happen and, with settings.trace, into a
 * trace of at most CKM_TRACE_MAX events handed to the result. Thinning: when the trace is
 * full, the kind with the most events loses every other one (its first and latest kept) and
 * from then on keeps one event in twice as many; an event that falls between two kept ones
 * stays provisionally while it is the trace's last entry and is replaced by the next of its
 * kind, so a run's trace ends on its latest events. O(1) per event, O(CKM_TRACE_MAX) per
 * thinning (at most a few dozen per run).
 */
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_counters_init(ckm_counters *c)
{
    for (int i = 0; i < CKM_COUNT_N; i++)
        atomic_init(&c->v[i], 0);
}

void ckm_ctx_count(const ckm_context *ctx, ckm_count c, uint64_t n)
{
    if (ctx && ctx->count && n)
        atomic_fetch_add_explicit(&ctx->count->v[c], n, memory_order_relaxed);
}

int ckm_ctx_stop(const ckm_context *ctx, ckm_status *why)
{
    if (ctx->s->should_stop && ctx->s->should_stop(ctx->s->stop_user)) {
        *why = CKM_STATUS_INTERRUPTED;
        return 1;
    }
    if (ckm_now() >= ctx->deadline) {
        *why = CKM_STATUS_TIME_LIMIT;
        return 1;
    }
    return 0;
}

int ckm_ctx_poll(void *user)
{
    ckm_ctx_poll_state *ps = user;
    return ckm_ctx_stop(ps->ctx, &ps->why);
}

int ckm_ctx_stop_ahead(const ckm_context *ctx, double ahead_s, ckm_status *why)
{
    if (ckm_ctx_stop(ctx, why))
        return 1;
    if (isfinite(ctx->deadline) && ckm_now() + ahead_s >= ctx->deadline) {
        *why = CKM_STATUS_TIME_LIMIT;
        return 1;
    }
    return 0;
}

void ckm_restart_done(const ckm_context *ctx, const char *name, int rs, const int32_t *labels, size_t s,
                      double sse, int iterations, double *best_sse, ckm_algo_out *out)
{
    out->restarts = rs + 1;
    ckm_ctx_count(ctx, CKM_COUNT_ITERATIONS, iterations > 0 ? (uint64_t)iterations : 0);
    ckm_ctx_log(ctx, 1, "%s restart %d/%d: objective %.10g after %d iterations (%.2f s)", name, rs + 1, ctx->s->n_init,
                sse, iterations, ckm_now() - ctx->start);
    if (sse < *best_sse) {
        *best_sse = sse;
        memcpy(out->labels, labels, s * sizeof(int32_t));
        out->has_labels = 1;
        out->iterations = iterations;
    }    ckm_ctx_progress(ctx, (ckm_progress){.kind = CKM_PROGRESS_RESTART, .restart = rs, .iteration = iterations,
                                         .objective = sse, .incumbent = *best_sse, .lower_bound = -INFINITY,
                                         .done = (size_t)rs + 1, .total = (size_t)ctx->s->n_init});
}

ckm_error ckm_run_restarts(const ckm_context *ctx, const char *name, size_t s, ckm_restart_fn body, void *self,
                           ckm_algo_out *out, ckm_status *why, ckm_err *err)
{
    double best = INFINITY;
    ckm_status stop = CKM_STATUS_FEASIBLE;
    out->status = CKM_STATUS_FEASIBLE;
    for (int rs = 0; rs < ctx->s->n_init; rs++) {
        if (ckm_ctx_stop(ctx, &stop)) /* no restart begins after a stop */
            break;
        ckm_restart rt = {.rs = rs, .why = CKM_STATUS_FEASIBLE};
        ckm_rng_seed(&rt.rng, ctx->s->seed, (uint64_t)rs);
        ckm_error rc = body(self, &rt, out, err);
        if (rc != CKM_OK || rt.end)
            return rc;
        if (rt.labels)
            ckm_restart_done(ctx, name, rs, rt.labels, s, rt.objective, rt.iterations, &best, out);
        if (rt.stopped) {
            stop = rt.why;
            break;
        }
    }
    if (stop != CKM_STATUS_FEASIBLE)
        out->status = stop;
    if (why)
        *why = stop;
    return CKM_OK;
}

const char *ckm_stop_prefix(ckm_status why)
{
    return why == CKM_STATUS_TIME_LIMIT ? "time limit; " : why == CKM_STATUS_INTERRUPTED ? "interrupted; " : "";
}

void ckm_ctx_log(const ckm_context *ctx, int level, const char *fmt, ...)
{
    if (!ctx->s->log || ctx->s->verbosity < level)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (ctx->log_lock) /* the caller's log function need not be thread-safe */
        pthread_mutex_lock(ctx->log_lock);
    ctx->s->log(ctx->s->log_user, line);
    if (ctx->log_lock)
        pthread_mutex_unlock(ctx->log_lock);
}

ckm_error ckm_progress_sink_init(ckm_progress_sink *k, const ckm_settings *s, int restarts, ckm_err *err)
{
    memset(k, 0, sizeof *k);
    k->fn = s->progress;
    k->user = s->progress_user;
    k->restarts = restarts;
    k->incumbent = NAN;
    for (int q = 0; q < 4; q++) {
        k->stride[q] = 1;
        k->prov[q] = -1;
    }
    if (s->trace && !(k->ev = ckm_alloc_array(CKM_TRACE_MAX, sizeof *k->ev)))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory (the progress trace)");
    return CKM_OK;
}

void ckm_progress_sink_take(ckm_progress_sink *k, ckm_progress **ev, size_t *len)
{
    *ev = k->len ? k->ev : NULL;
    *len = k->len;
    if (!k->len)
        free(k->ev);
    k->ev = NULL;
    k->len = 0;
}

void ckm_progress_sink_free(ckm_progress_sink *k)
{
    if (k)
        free(k->ev);
}

/* Drop every other event of the most frequent kind (its first and latest kept). */
static void thin(ckm_progress_sink *k)
{
    size_t count[4] = {0};
    for (size_t i = 0; i < k->len; i++)
        count[k->ev[i].kind & 3]++;
    int K = 1;
    for (int q = 2; q < 4; q++)
        if (count[q] > count[K])
            K = q;
    size_t seen = 0, out = 0;
    for (size_t i = 0; i < k->len; i++) {
        bool mine = (int)(k->ev[i].kind & 3) == K;
        bool keep = !mine || seen % 2 == 0 || seen + 1 == count[K];
        seen += mine;
        if (keep)
            k->ev[out++] = k->ev[i];
    }
    k->len = out;
    k->stride[K] *= 2;
    for (int q = 0; q < 4; q++)
        k->prov[q] = -1; /* every event left is a kept one now */
}

static void record(ckm_progress_sink *k, const ckm_progress *ev)
{
    int K = (int)ev->kind & 3;
    bool kept = k->seen[K]++ % k->stride[K] == 0;
    if (k->prov[K] >= 0 && (size_t)k->prov[K] + 1 == k->len) {
        k->ev[k->len - 1] = *ev; /* the provisional event gives way to its successor */
    } else {
        if (k->len == CKM_TRACE_MAX)
            thin(k);
        k->ev[k->len++] = *ev;
    }
    k->prov[K] = kept ? -1 : (ptrdiff_t)k->len - 1;
}

static double in_data_units(double v, int e) { return isfinite(v) ? ldexp(v, 2 * e) : v; }

void ckm_ctx_progress(const ckm_context *ctx, ckm_progress ev)
{
    ckm_progress_sink *k = ctx ? ctx->sink : NULL;
    if (!k || (!k->fn && !k->ev))
        return;
    ev.seconds = ckm_now() - ctx->start;
    ev.objective = in_data_units(ev.objective, k->obj_exp);
    ev.incumbent = in_data_units(ev.incumbent, k->obj_exp);
    ev.lower_bound = in_data_units(ev.lower_bound, k->obj_exp);
    if (ev.restarts == 0)
        ev.restarts = k->restarts;
    if (ctx->log_lock)
        pthread_mutex_lock(ctx->log_lock);
    if (isnan(ev.incumbent)) /* a step's event: the best restart's so far */
        ev.incumbent = k->incumbent;
    else
        k->incumbent = ev.incumbent;
    if (k->ev)
        record(k, &ev);
    if (k->fn)
        k->fn(k->user, &ev);
    if (ctx->log_lock)
        pthread_mutex_unlock(ctx->log_lock);
}
