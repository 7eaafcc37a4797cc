/*
 * greedy_sizes.h -- a fast feasible (not optimal) labelling to fixed centers under size
 * bounds (greedy_sizes.c), for the stop fallback.
 */
#ifndef CKM_TRANSPORT_GREEDY_H
#define CKM_TRANSPORT_GREEDY_H

#include "transport_types.h"

/* A feasible, not optimal, labelling of the n x d points Y to the k centers C under size
 * bounds with sum lo <= n <= sum hi (greedy_sizes.c: points in decreasing regret take their
 * nearest cluster that can still take them), O(n k d) on `threads` threads plus O(n).
 * A limit reached (lim, NULL: none) ends the ranking, not the labelling: the rows left
 * compare with a few seeds at most (about 0.03 s in all) and a point that finds its kept
 * clusters full takes the first open one; *rough counts the points placed so (0: the whole
 * rule). The labels meet every bound either way.
 * Errors: out of memory; CKM_ERR_INTERNAL when the bounds' sums do not admit n points. */
ckm_error ckm_transport_greedy(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                           const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels, size_t *rough,
                           ckm_err *err);

#endif
