/*
 * solve.h -- the driver's own parts (internal to src/solve): the stop fallback, the
 * memory model with its refusal, the settings as read and the stop chain (shared with
 * assign_problem.c).
 */
#ifndef CKM_SOLVE_H
#define CKM_SOLVE_H

#include "algo.h"

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

/* Memory model (memory.c, docs/memory.md): estimated peak bytes of a solve of r by a with
 * threads workers and the assignment distance dist (the driver's share + a->bytes), and the refusal (CKM_ERR_NOMEM naming it
 * and ckm_memory_available) of a solve whose estimate exceeds what is available. */
double ckm_memory_estimate(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled);
ckm_error ckm_memory_check(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled,
                           ckm_err *err);

/* The caller's settings (NULL: the defaults), read up to its struct_size (docs/abi.md):
 * members it does not know keep their defaults (solve.c). */
ckm_error ckm_read_settings(const ckm_settings *in, ckm_settings *s, ckm_err *err);

/* should_stop as the library's loops see it: the caller's interrupt flag, then its callback
 * (solve.c; used as should_stop with the chain as stop_user when settings.interrupt is set). */
typedef struct ckm_stop_chain {
    const volatile int *flag;
    ckm_stop_fn fn;
    void *user;
} ckm_stop_chain;
int ckm_chained_stop(void *u);

#endif
