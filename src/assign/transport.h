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

#include "backend.h"
#include "ckm.h"

/* The solver's buffers, kept between solves of one shape (transport_ws.h): with one
 * workspace, Lloyd steps after the first allocate nothing. NULL wherever a workspace is
 * taken: the call allocates and frees its own. */
typedef struct ckm_transport_ws ckm_transport_ws;
ckm_transport_ws *ckm_transport_ws_new(void); /* NULL when out of memory */
void ckm_transport_ws_free(ckm_transport_ws *ws);
/* Bytes the workspace has allocated over its life (0 for NULL). */
size_t ckm_transport_ws_bytes(const ckm_transport_ws *ws);

typedef struct ckm_transport_stats {
    size_t augmentations; /* shortest-path augmentations performed */
    size_t searches;      /* Dijkstra searches (each serves one or more augmentations) */
    size_t backward;      /* of which backward, from the deficits */
    size_t moves;         /* points moved between clusters by augmentations */
    size_t clamped;       /* negative reduced costs (rounding) clamped to 0 in the searches */
    size_t passes;        /* ckm_transport_points: pricing rounds (each prices the rows in doubt) */
    size_t rows_priced;   /* ckm_transport_points: rows whose k costs were computed, summed
                             over the rounds (n per full pass) */
    size_t widened;       /* ckm_transport_points: times the candidate lists were doubled */
    size_t repriced;      /* ckm_transport_points: passes that found arcs the lists lacked */
    size_t quick;         /* ckm_transport_points: optimality shown without a second pass */
    size_t bids;          /* auction.c: bids made for starting prices */
    size_t auction_phases; /* auction.c: completed epsilon phases */
    int stopped;          /* the limits stopped the solve: labels and prices are unusable */
    double seconds;
} ckm_transport_stats;

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
 * arcs (never with all arcs and feasible bounds). Adds to st's counters. ws: as above. */
ckm_error ckm_transport_ssp(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const size_t *lo,
                            const size_t *hi, const ckm_bk_limits *lim, ckm_transport_ws *ws, double *price,
                            int32_t *labels, ckm_transport_stats *st, int *stuck, ckm_err *err);
/* The checks both solvers start with: *infeasible when sum lo > n or sum hi < n (then
 * nothing else is done); CKM_ERR_INVALID past 2^31 - 1 points; non-finite warm-start
 * prices reset to 0. */
ckm_error ckm_transport_precheck(size_t n, size_t k, const size_t *lo, const size_t *hi, double *price,
                                 int *infeasible, ckm_err *err);
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

/* Up to this many costs (2 GiB) ckm_transport_points stores the n x k matrix: the fast
 * route, whose time is bounded by the matrix solver's. */
#define CKM_TRANSPORT_MATRIX_MAX ((size_t)1 << 28)

/* What ckm_transport_points keeps between calls on the same points (sizeflow's Lloyd
 * steps): every point's candidate clusters, their costs and the bound on the others, with
 * the centers and prices they were priced at (transport_points.c: a later call prices only
 * the points whose lists the center drift and price change leave in doubt), the points'
 * norms, and the solver's workspace with the n x k matrix of the matrix route: a call of
 * the shape of the one before allocates nothing of size n or more. Owned by the caller;
 * NULL where no reuse is wanted. The points must not change between calls. */
typedef struct ckm_transport_cache ckm_transport_cache;
ckm_transport_cache *ckm_transport_cache_new(void); /* NULL when out of memory */
void ckm_transport_cache_free(ckm_transport_cache *cache);
/* Bytes the cache has allocated over its life, its workspace's included (tests: a Lloyd
 * step after the first adds nothing unless the candidate lists widen). */
size_t ckm_transport_cache_bytes(const ckm_transport_cache *cache);

/* The same problem with c_ij = ||y_i - c_j||^2 for n points Y (n*d) and k centers C (k*d),
 * sizes lo_j <= |j| <= hi_j. */
typedef struct ckm_points_problem {
    const double *Y;
    size_t n, d;
    const double *C;
    size_t k;
    const size_t *lo, *hi;
} ckm_points_problem;

/* How ckm_transport_points solves it: threads as settings; lim (NULL: none); cache as
 * above, or NULL; the matrix route for n k <= matrix_max only; cand candidate clusters per
 * point to start the other route with. ckm_points_defaults: no limits, no cache, 2^28
 * (CKM_TRANSPORT_MATRIX_MAX) and 16 candidates for k <= 256, else 32 (tests force the other
 * route and short lists). */
typedef struct ckm_points_opts {
    int threads;
    const ckm_bk_limits *lim;
    ckm_transport_cache *cache;
    size_t matrix_max, cand;
} ckm_points_opts;
ckm_points_opts ckm_points_defaults(size_t k);

/* Solved without storing the n x k costs when n k > matrix_max (transport_points.c: pricing
 * passes and SSP on candidate arcs, the same optimum and certificate). */
ckm_error ckm_transport_points(const ckm_points_problem *pp, const ckm_points_opts *o, double *price, int32_t *labels,
                               int *infeasible, ckm_transport_stats *stats, ckm_err *err);

/* Independent check of a labelling + prices as above, with absolute tolerance tol.
 * Returns 1 when the certificate proves optimality, else 0 with the reason in why. */
int ckm_transport_verify(size_t n, size_t k, const double *cost, const size_t *lo,
                         const size_t *hi, const double *price, const int32_t *labels, double tol,
                         char *why, size_t why_len);

/* A feasible, not optimal, labelling of the n x d points Y to the k centers C under size
 * bounds with sum lo <= n <= sum hi (greedy_sizes.c: points in decreasing regret take their
 * nearest cluster that can still take them), O(n k d) on `threads` threads plus O(n).
 * *stopped when lim (NULL: none) ended it first; then labels hold nothing usable.
 * Errors: out of memory; CKM_ERR_INTERNAL when the bounds' sums do not admit n points. */
ckm_error ckm_greedy_sizes(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                           const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels, bool *stopped,
                           ckm_err *err);

#endif
