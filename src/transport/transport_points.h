/*
 * transport_points.h -- the transportation problem of transport.h with the costs
 * c_ij = ||y_i - c_j||^2 of points and centers, solved without the n x k matrix past
 * CKM_TRANSPORT_MATRIX_MAX or at large k (transport_points.c), and its cache between
 * Lloyd steps.
 */
#ifndef CKM_TRANSPORT_POINTS_H
#define CKM_TRANSPORT_POINTS_H

#include "transport_types.h"

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
typedef struct ckm_transport_points_problem {
    const double *Y;
    size_t n, d;
    const double *C;
    size_t k;
    const size_t *lo, *hi;
} ckm_transport_points_problem;

/* How ckm_transport_points solves it: threads as settings; lim (NULL: none); cache as
 * above, or NULL; the matrix route only for n k <= matrix_max and k^3 <= matrix_cube n;
 * cand candidate clusters per point to start the other route with.
 * ckm_transport_points_defaults: no limits, no cache, 2^28 (CKM_TRANSPORT_MATRIX_MAX), 5
 * (CKM_TRANSPORT_MATRIX_CUBE) and 16 candidates (tests force either route and short
 * lists: matrix_cube SIZE_MAX lets n k alone decide). */
typedef struct ckm_transport_points_opts {
    int threads;
    const ckm_bk_limits *lim;
    ckm_transport_cache *cache;
    size_t matrix_max, matrix_cube, cand;
} ckm_transport_points_opts;
ckm_transport_points_opts ckm_transport_points_defaults(void);

/* Whether ckm_transport_points takes the matrix route for n points and k clusters under o
 * (sizeflow's memory estimate asks it with the defaults). */
bool ckm_transport_points_matrix(size_t n, size_t k, const ckm_transport_points_opts *o);

/* Solved without storing the n x k costs off the matrix route (transport_points.c: pricing
 * passes and SSP on candidate arcs, the same optimum and certificate). */
ckm_error ckm_transport_points(const ckm_transport_points_problem *pp, const ckm_transport_points_opts *o,
                               double *price, int32_t *labels, int *infeasible, ckm_transport_stats *stats,
                               ckm_err *err);

#endif
