/*
 * run.h -- one solve's run: its context (settings, deadline, stop requests, counters, log),
 * what an algorithm hands back (ckm_algo_out) and the bookkeeping of its restarts. Below
 * every algorithm and building block that polls for a stop or counts its work; the
 * algorithm contract itself is algo.h (src/algo).
 * Invariant: a context is read-only during a run, but for its counters (atomic adds) and
 * its log (serialised by log_lock), so that every thread of a solve may share it.
 */
#ifndef CKM_RUN_H
#define CKM_RUN_H

#include "ckm.h"
#include "core.h"

#include <pthread.h>
#include <stdatomic.h>

/* Work counters of one solve (ckm_stats), shared by its threads: atomic adds. (nodes and
 * restarts are not counted here: the driver copies them from the algorithm's output.) */
typedef enum ckm_count {
    CKM_COUNT_LP, CKM_COUNT_MIP, CKM_COUNT_MIP_NODES, CKM_COUNT_TRANSPORT, CKM_COUNT_ADMM_ITER,
    CKM_COUNT_SDP_ITER, CKM_COUNT_CUT_ROUNDS, CKM_COUNT_CUTS, CKM_COUNT_ITERATIONS, CKM_COUNT_REPAIRS,
    CKM_COUNT_FALLBACK, CKM_COUNT_NUMERIC, CKM_COUNT_N
} ckm_count;

typedef struct ckm_counters {
    atomic_uint_least64_t v[CKM_COUNT_N];
} ckm_counters;

void ckm_counters_init(ckm_counters *c);

/* Where a run's progress events go (run.c): settings.progress and, with settings.trace, the
 * trace handed to the result. Written under the context's log_lock only. */
typedef struct ckm_progress_sink {
    ckm_progress_fn fn;  /* settings.progress, or NULL */
    void *user;
    int restarts;        /* settings.n_init (1 for exact, certify) */
    double incumbent;    /* the latest event's incumbent (data units), NAN before one */
    int obj_exp;         /* objective values are reported times 2^(2 obj_exp): the data's units */
    ckm_progress *ev;    /* the trace (CKM_TRACE_MAX entries), or NULL without settings.trace */
    size_t len;
    size_t seen[4], stride[4]; /* per kind: events seen, and one kept per stride */
    ptrdiff_t prov[4];   /* per kind: the index of a provisional event (kept only while it is the
                            kind's latest, to end the trace on it), or -1 */
} ckm_progress_sink;

/* Set up a sink for settings s (the trace allocated when s->trace): CKM_ERR_NOMEM. */
ckm_error ckm_progress_sink_init(ckm_progress_sink *k, const ckm_settings *s, int restarts, ckm_err *err);
/* Hand the trace over (*ev, *len; NULL, 0 without one); the sink keeps nothing. */
void ckm_progress_sink_take(ckm_progress_sink *k, ckm_progress **ev, size_t *len);
void ckm_progress_sink_free(ckm_progress_sink *k);

typedef struct ckm_context {
    const ckm_settings *s;
    double start;    /* ckm_now() when the solve began */
    double deadline; /* absolute ckm_now() value, or INFINITY */
    ckm_counters *count; /* the solve's counters (never NULL inside a solve) */
    pthread_mutex_t *log_lock; /* serialises settings.log across the solve's threads, or NULL */
    const double *init_centers; /* settings.init_centers in the algorithms' coordinates
                                   (scale.c), or NULL */
    int max_iter;    /* iterations per restart: settings.max_iter, or when that is 0 the
                        algorithm's default_max_iter (its registry row) */
    ckm_progress_sink *sink; /* progress events, or NULL (none wanted; inner runs such as
                                certify's subsets) */
} ckm_context;

/* Add n to counter c of the run (ctx may be NULL: internal callers without a run). */
void ckm_ctx_count(const ckm_context *ctx, ckm_count c, uint64_t n);

/* 0 to continue; 1 to stop, with *why = CKM_STATUS_TIME_LIMIT or _INTERRUPTED. */
int ckm_ctx_stop(const ckm_context *ctx, ckm_status *why);
/* Like ckm_ctx_stop, but also stops (as TIME_LIMIT) when work expected to take ahead_s
 * seconds would end past the deadline: loops whose steps take seconds (an SDP iteration on
 * thousands of groups) call it with the last step's duration, so they return within the
 * limit instead of one step after it. */
int ckm_ctx_stop_ahead(const ckm_context *ctx, double ahead_s, ckm_status *why);
/* The run's stop as a poll function for code below the algorithms (the linear algebra's
 * ckm_poll_fn: user = a ckm_ctx_poll_state): ckm_ctx_stop, its reason kept in why. */
typedef struct ckm_ctx_poll_state {
    const ckm_context *ctx;
    ckm_status why;
} ckm_ctx_poll_state;
int ckm_ctx_poll(void *user);
/* "time limit; ", "interrupted; " or "" (why FEASIBLE): the start of a stopped run's message. */
const char *ckm_stop_prefix(ckm_status why);
/* Progress line to settings.log when verbosity >= level. */
void ckm_ctx_log(const ckm_context *ctx, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Whether anyone receives progress events (computing an event's numbers costs something). */
static inline bool ckm_ctx_progress_wanted(const ckm_context *ctx)
{
    return ctx && ctx->sink && (ctx->sink->fn || ctx->sink->ev);
}
/* Report one event (ev.seconds is set here, objective values are scaled to the data's
 * units): to settings.progress and the trace, under the log lock. */
void ckm_ctx_progress(const ckm_context *ctx, ckm_progress ev);

/* What an algorithm hands back to the driver (solve.c), one label per super-point. */
typedef struct ckm_algo_out {
    ckm_status status;   /* FEASIBLE, OPTIMAL, TIME_LIMIT, ... */
    int has_labels;
    int32_t *labels;     /* s entries, allocated by the driver */
    double lower_bound;  /* -INFINITY unless proven */
    int iterations;      /* of the kept restart */
    int restarts;        /* run */
    size_t nodes;        /* branch-and-cut nodes processed (exact) */
    double root_gap;     /* exact: gap after the root node; NAN otherwise */
    char message[CKM_MESSAGE_LEN];
} ckm_algo_out;

/* End of a successful restart rs (0-based) of a restarting algorithm: count it in
 * out->restarts, log "NAME restart r/N: objective f after it iterations (t s)", and make
 * labels (s entries) the result when sse < *best_sse (ties keep the earlier restart). sse is
 * the objective the algorithm minimises: the SSE, plus the soft-pair penalty where the
 * algorithm honours soft pairs (reduced.h). */
void ckm_restart_done(const ckm_context *ctx, const char *name, int rs, const int32_t *labels, size_t s,
                      double sse, int iterations, double *best_sse, ckm_algo_out *out);

/* One restart of a restarting algorithm (ckm_run_restarts): the body reads rs and draws its
 * randomness from rng only, then says what the restart gave. */
typedef struct ckm_restart {
    int rs;                /* in: 0-based restart index */
    ckm_rng rng;           /* in: seeded with (settings.seed, rs) */
    const int32_t *labels; /* out: s labels competing for the result, or NULL (none) */
    double objective;      /* out: what the algorithm minimises, for labels (ckm_restart_done) */
    int iterations;        /* out: of labels */
    bool stopped;          /* out: a stop was met (why): no restart follows */
    ckm_status why;
    bool end;              /* out: end the run now, out->status and message already say why
                              (a proven infeasibility) */
} ckm_restart;
typedef ckm_error (*ckm_restart_fn)(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err);

/* The restart loop of every restarting algorithm: out->status = FEASIBLE; for r = 0 ..
 * n_init - 1, unless a stop is met before it begins, body(self, {r, rng(seed, r)}); its
 * labels compete through ckm_restart_done (the lowest objective wins, ties keep the earlier
 * restart); a stopped restart is the last, and out->status becomes the stop's reason. *why
 * (NULL: not wanted) receives that reason, CKM_STATUS_FEASIBLE when nothing stopped. An
 * error of body, or its end, returns at once (out as body left it). */
ckm_error ckm_run_restarts(const ckm_context *ctx, const char *name, size_t s, ckm_restart_fn body, void *self,
                           ckm_algo_out *out, ckm_status *why, ckm_err *err);

#endif
