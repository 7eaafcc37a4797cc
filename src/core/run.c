/*
 * run.c -- a run's stop requests (deadline, user callback), work counters, progress
 * logging and restart bookkeeping (run.h).
 */
#include "run.h"

#include <math.h>
#include <stdio.h>
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
    }
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
