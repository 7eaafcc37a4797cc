/*
 * to_centers.h -- points assigned to fixed centers under size bounds (to_centers.c): the
 * transportation problem of transport.h with c_ij = ||y_i - c_j||^2, solved from the points
 * (transport_points.h), certified by its prices. ckm_predict's route without pairs,
 * capacities or sample weights.
 */
#ifndef CKM_TRANSPORT_TO_CENTERS_H
#define CKM_TRANSPORT_TO_CENTERS_H

#include "transport_types.h"

/* Labels (n) and prices (k: the certificate) of the n points Y (n*d) for the k centers C
 * (k*d) under lo_j <= |C_j| <= hi_j, and *objective their sum of squared distances;
 * *infeasible (nothing else written) when sum lo > n or sum hi < n; *stopped when lim
 * (NULL: none) ended the solve first (nothing usable then). threads: as settings. */
ckm_error ckm_transport_to_centers(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                                   const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels,
                                   double *prices, double *objective, int *infeasible, bool *stopped, ckm_err *err);

#endif
