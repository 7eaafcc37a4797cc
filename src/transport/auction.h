/*
 * auction.h -- starting prices for the transportation problem by an auction with
 * epsilon-scaling (auction.c).
 */
#ifndef CKM_TRANSPORT_AUCTION_H
#define CKM_TRANSPORT_AUCTION_H

#include "transport_types.h"

/* Starting prices for SSP when the argmin labelling is far off the bounds (auction.c):
 * an auction of the maximums hi with epsilon-scaling over the same candidate arcs as
 * ckm_transport_ssp (cj NULL: all k, cc the n x k costs). price: in, the start; out,
 * prices under which the argmin labelling is near the maximums (unchanged when there is
 * nothing to auction: ties everywhere, a point without a cluster). rest (NULL with the
 * matrix): per point a lower bound on c_ij - price_j over the clusters outside its
 * candidates. eps0: the first phase's eps over the mean gap. A stop sets st->stopped. Adds
 * bids and phases to st. */
ckm_error ckm_transport_auction(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const double *rest,
                                const size_t *hi, double eps0, const ckm_bk_limits *lim, double *price,
                                ckm_transport_stats *st, ckm_err *err);
/* The solvers' eps0. Prices only rise within an auction, so a coarse first phase
 * overshoots where the maximums leave slack, and on candidate arcs the points whose
 * candidates all overshoot rest_i stop bidding. Measured (sizeflow, cold first step): at
 * 10^6 x 128, k = 4096, --max-size 256, eps0 = 2 left 445,000 of the 10^6 points
 * unplaced and a labelling 349,419 units off the maximums (SSP did not finish in 300 s);
 * 0.05 placed all but 1953 and two auctions left 140 units: the step took 90 s. At
 * 10^6 x 16, k = 1000 balanced (c1000) the first step went from 59.3 s to 14.2-14.4 s (two
 * runs), the same SSE; the n x k matrix route (10^6 x 16, k = 50 / 100, balanced and ragged) and
 * 10^7 x 16, k = 100 were level or faster with the same SSE. */
#define CKM_AUCTION_EPS0 0.05

#endif
