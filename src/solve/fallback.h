/*
 * fallback.h -- the labelling of a run stopped before it had one (fallback.c), for the driver.
 */
#ifndef CKM_FALLBACK_H
#define CKM_FALLBACK_H

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

#endif
