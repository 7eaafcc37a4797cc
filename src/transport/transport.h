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
 * nodes plus an overflow node (see transport.c), started from an auction's prices when the
 * start is far off the bounds (auction.c). Memory O(n k).
 */
#ifndef CKM_TRANSPORT_H
#define CKM_TRANSPORT_H

#include "transport_types.h"

/* cost: n*k row-major. price: k entries, read as a warm start (zeros for none) and
 * overwritten with the certificate. labels: n. *infeasible = 1 (and nothing else written)
 * when sum lo > n or sum hi < n. */
ckm_error ckm_transport_solve(size_t n, size_t k, const double *cost, const size_t *lo,
                              const size_t *hi, double *price, int32_t *labels, int *infeasible,
                              ckm_transport_stats *stats, ckm_err *err);
/* The same under limits (deadline, stop request; NULL = none), polled every 64
 * augmentations and between passes: a stop sets stats->stopped (then nothing returned is
 * usable). stats must not be NULL. ws: the buffers to use (or NULL). */
ckm_error ckm_transport_solve_lim(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                                  const ckm_bk_limits *lim, ckm_transport_ws *ws, double *price, int32_t *labels,
                                  int *infeasible, ckm_transport_stats *stats, ckm_err *err);

/* The successive-shortest-path core on candidate arcs: point i may take the clusters
 * cj[i*c .. i*c+c) (ascending) at costs cc[i*c ..] -- or every cluster at cost cc[i*k + j]
 * when cj is NULL (then c is ignored). labels: in, a start where each point sits in one of
 * its candidates (the argmin of cost - price is the good one); out, optimal for the
 * candidate arcs. price: in, the start's prices; out, the certificate as above over the
 * candidate arcs. *stuck = 1 when no augmenting path reaches a deficit through candidate
 * arcs (never with all arcs and feasible bounds). Adds to st's counters. ws: as above.
 * threads (>= 1): for the move lists' build on candidate arcs when they are large (the
 * same lists on any number; the searches run on the caller's thread). */
ckm_error ckm_transport_ssp(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const size_t *lo,
                            const size_t *hi, const ckm_bk_limits *lim, int threads, ckm_transport_ws *ws,
                            double *price, int32_t *labels, ckm_transport_stats *st, int *stuck, ckm_err *err);
/* The checks both solvers start with: *infeasible when sum lo > n or sum hi < n (then
 * nothing else is done); CKM_ERR_INVALID past 2^31 - 1 points; non-finite warm-start
 * prices reset to 0. */
ckm_error ckm_transport_precheck(size_t n, size_t k, const size_t *lo, const size_t *hi, double *price,
                                 int *infeasible, ckm_err *err);

/* Whether an auction is expected to be cheaper than SSP for a labelling off the bounds by
 * off units, scan the cost of reading one member's cost to a cluster (1 with the matrix,
 * c on c candidate arcs: a binary search per lookup): off / 2 (k^2 + n scan / (k L)) >
 * 4 n k, L the move-list length. */
bool ckm_transport_auction_pays(size_t n, size_t k, size_t scan, size_t off);
/* Labels for SSP on the n x k costs: the argmin under price; when these are off the bounds
 * by more than n / 64 (n >= 20000), prices from every 8th point first (recursively); and
 * when still so far off that SSP would take longer than an auction
 * (ckm_transport_auction_pays), prices from ckm_transport_auction, then the argmin again. */
ckm_error ckm_transport_start(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                              const ckm_bk_limits *lim, ckm_transport_ws *ws, double *price, int32_t *labels,
                              ckm_transport_stats *st, ckm_err *err);
/* Units off the bounds of a labelling (sum over clusters of the excess or shortfall),
 * counted in ws's buffer (NULL: its own); SIZE_MAX when out of memory. */
size_t ckm_transport_imbalance(size_t n, size_t k, const int32_t *labels, const size_t *lo, const size_t *hi,
                               ckm_transport_ws *ws);
/* Entries per move list for k clusters: min(16, 2^25 / k^2) with the cost matrix,
 * min(128, 2^24 / k^2) on candidate arcs; at least 2. */
size_t ckm_transport_list_len(size_t k, bool candidates);

/* Independent check of a labelling + prices as above, with absolute tolerance tol.
 * Returns 1 when the certificate proves optimality, else 0 with the reason in why. */
int ckm_transport_verify(size_t n, size_t k, const double *cost, const size_t *lo,
                         const size_t *hi, const double *price, const int32_t *labels, double tol,
                         char *why, size_t why_len);

#endif
