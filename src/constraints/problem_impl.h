/*
 * problem_impl.h -- the concrete layout of the opaque ckm_problem (internal).
 * Invariants: 1 <= k <= n, d >= 1, X finite (n*d copy), pairs deduplicated (index i
 * of the pair list is what checker reports refer to), lo[j] <= hi[j] for every j, sample
 * weights (when set) finite and > 0; size bounds count points, whatever their weights.
 * Soft pairs: i != j, both < n, confidence in (0, 1], kept as added (docs/soft.md).
 * Capacities (docs/capacities.md): demands q (when set) finite and >= 0; cap_lo / cap_hi
 * (when set) 0 <= cap_lo[j] <= cap_hi[j], cap_lo finite, cap_hi possibly INFINITY.
 */
#ifndef CKM_PROBLEM_IMPL_H
#define CKM_PROBLEM_IMPL_H

#include "ckm.h"
#include "pairset.h"

struct ckm_problem {
    size_t n, d, k;
    const double *X;   /* n*d: X_owned, or the caller's array (ckm_problem_wrap) */
    double *X_owned;   /* the copy ckm_problem_create made, or NULL */
    ckm_pair *pairs;
    size_t n_pairs, pairs_cap, n_ml, n_cl;
    ckm_pairset index; /* {i, j} -> position in pairs */
    size_t *lo, *hi;   /* k each */
    double *w;         /* n sample weights (finite, > 0), or NULL: all 1 */
    ckm_pair *soft;    /* soft pairs as added (not deduplicated: repeats add up) */
    double *soft_conf; /* their confidences, each in (0, 1] */
    size_t n_soft, soft_cap, soft_conf_cap, n_sml, n_scl;
    double *q;         /* n demands (finite, >= 0), or NULL: all 1 */
    double *cap_lo, *cap_hi; /* k capacity bounds each, or NULL: none */
};

/* Tolerance on a load against its capacity bounds: 1e-9 times the total demand (at least
 * 1e-9), the rounding of a sum of doubles; the checker and every solver use it. */
double ckm_problem_capacity_tol(const ckm_problem *p);

/* True when some bound differs from the default lo = 1, hi = n. */
int ckm_problem_has_size_bounds(const ckm_problem *p);

/* A clustering of p needs k <= n (a problem may have more clusters than points when its
 * points are assigned to given centers, ckm_predict): CKM_ERR_INVALID otherwise. */
ckm_error ckm_problem_check_k(const ckm_problem *p, ckm_err *err);

#endif
