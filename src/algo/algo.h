/*
 * algo.h -- the ONE internal interface every algorithm implements, and the run context.
 * An algorithm receives the reduced problem (super-points, lifted cannot-links, bounds)
 * and writes one label per super-point. It never expands labels, computes the reported
 * SSE or checks constraints: the driver (solve.c) does that, identically for all.
 */
#ifndef CKM_ALGO_H
#define CKM_ALGO_H

#include "ckm.h"
#include "core.h"
#include "reduced.h"

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

typedef struct ckm_context {
    const ckm_settings *s;
    double start;    /* ckm_now() when the solve began */
    double deadline; /* absolute ckm_now() value, or INFINITY */
    ckm_counters *count; /* the solve's counters (never NULL inside a solve) */
    pthread_mutex_t *log_lock; /* serialises settings.log across the solve's threads, or NULL */
    const double *init_centers; /* settings.init_centers in the algorithms' coordinates
                                   (scale.c), or NULL */
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
/* Progress line to settings.log when verbosity >= level. */
void ckm_ctx_log(const ckm_context *ctx, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

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

typedef ckm_error (*ckm_algo_run)(const ckm_context *ctx, const ckm_reduced *r,
                                  ckm_algo_out *out, ckm_err *err);

typedef struct ckm_algo {
    ckm_algorithm_info info;
    ckm_algo_run run;
} ckm_algo;

const ckm_algo *ckm_algo_lookup(const char *name);

/* End of a successful restart rs (0-based) of a restarting algorithm: count it in
 * out->restarts, log "NAME restart r/N: objective f after it iterations (t s)", and make
 * labels (s entries) the result when sse < *best_sse (ties keep the earlier restart). sse is
 * the objective the algorithm minimises: the SSE, plus the soft-pair penalty where the
 * algorithm honours soft pairs (reduced.h). */
void ckm_restart_done(const ckm_context *ctx, const char *name, int rs, const int32_t *labels, size_t s,
                      double sse, int iterations, double *best_sse, ckm_algo_out *out);

/* The grace period after a stop: the longest the driver spends finding a first feasible
 * labelling for a run stopped without one (fallback.c), and so the documented margin by
 * which a solve may exceed settings.time_limit_s (plus the final check, O(n d + pairs)). */
#define CKM_GRACE_S 1.0
/* The same after a stop request (Ctrl-C): shorter, so that a stop is answered within a
 * second even when the fallback has to run (the SDP's own pieces take <= 0.1 s to notice). */
#define CKM_GRACE_STOP_S 0.5
/* The BLPKM iteration on k-means++ seeds for a run stopped without labels (fallback.c):
 * labels into out->labels (has_labels set, message appended), or out->status INFEASIBLE with
 * the proof; nothing when the first assignment cannot finish in time. Runs until the
 * deadline when time is left (a run that skipped work it could not finish), else at most
 * CKM_GRACE_S seconds (CKM_GRACE_STOP_S after a stop request). */
ckm_error ckm_fallback_labels(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err);

/* Memory model (memory.c, docs/memory.md): estimated peak bytes of algorithm on r with
 * threads workers; the bytes this process may still allocate (-1 when unknown); and the
 * refusal (CKM_ERR_NOMEM naming both sizes) of a solve whose estimate exceeds them. */
double ckm_memory_estimate(const char *algorithm, const ckm_reduced *r, int threads, int rescaled);
double ckm_memory_available(void);
ckm_error ckm_memory_check(const char *algorithm, const ckm_reduced *r, int threads, int rescaled, ckm_err *err);

/* Algorithms (one file each). */
ckm_error ckm_algo_kmeans(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                          ckm_err *err);
ckm_error ckm_algo_blpkm(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                         ckm_err *err);
ckm_error ckm_algo_sizeflow(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                            ckm_err *err);
ckm_error ckm_algo_bckm(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                        ckm_err *err);
ckm_error ckm_algo_admm(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                        ckm_err *err);
ckm_error ckm_algo_ipc(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                       ckm_err *err);
ckm_error ckm_algo_exact(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                         ckm_err *err);
ckm_error ckm_algo_cop(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out,
                       ckm_err *err);

#endif
