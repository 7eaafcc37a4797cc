/*
 * transport.h -- exact solver for the size-constrained assignment (transportation) problem
 *   min sum_ij c_ij x_ij  s.t.  sum_j x_ij = 1 (i < n),  lo_j <= sum_i x_ij <= hi_j (j < k),
 *   x >= 0,
 * whose matrix is totally unimodular, so an optimal vertex is integral: every point gets
 * one cluster. Returns labels and a dual certificate: cluster prices p_j such that with
 * u_i = c_{i,l(i)} - p_{l(i)}
 *   c_ij - u_i - p_j >= 0 for all i, j            (dual feasibility; = 0 on the labels)
 *   p_j > 0  =>  |C_j| = lo_j,  p_j < 0  =>  |C_j| = hi_j   (complementary slackness)
 * which proves optimality (LP duality). Method: successive shortest paths on the k cluster
 * nodes plus an overflow node (see transport.c). Memory O(n k).
 */
#ifndef CKM_TRANSPORT_H
#define CKM_TRANSPORT_H

#include "ckm.h"

typedef struct ckm_transport_stats {
    size_t augmentations; /* shortest-path augmentations performed */
    size_t moves;         /* points moved between clusters by augmentations */
    size_t clamped;       /* negative reduced costs (rounding) clamped to 0 in the searches */
    double seconds;
} ckm_transport_stats;

/* cost: n*k row-major. price: k entries, read as a warm start (zeros for none) and
 * overwritten with the certificate. labels: n. *infeasible = 1 (and nothing else written)
 * when sum lo > n or sum hi < n. */
ckm_error ckm_transport_solve(size_t n, size_t k, const double *cost, const size_t *lo,
                              const size_t *hi, double *price, int32_t *labels, int *infeasible,
                              ckm_transport_stats *stats, ckm_err *err);

/* Independent check of a labelling + prices as above, with absolute tolerance tol.
 * Returns 1 when the certificate proves optimality, else 0 with the reason in why. */
int ckm_transport_verify(size_t n, size_t k, const double *cost, const size_t *lo,
                         const size_t *hi, const double *price, const int32_t *labels, double tol,
                         char *why, size_t why_len);

#endif
