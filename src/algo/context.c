/*
 * context.c -- stop requests (deadline, user callback) and progress logging for a run.
 */
#include "algo.h"

#include <stdio.h>

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

void ckm_ctx_log(const ckm_context *ctx, int level, const char *fmt, ...)
{
    if (!ctx->s->log || ctx->s->verbosity < level)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    ctx->s->log(ctx->s->log_user, line);
}
