/*
 * to_centers.c -- see to_centers.h:
 *   min sum_i ||y_i - c_l(i)||^2  s.t.  lo_j <= |C_j| <= hi_j,
 * the transportation problem of transport.h, whose matrix is totally unimodular (an optimal
 * vertex is integral), on the squared distances (blocked dgemm; no n x k matrix past 2^28
 * costs, transport_points.c). Cost: O(n k d) per pricing pass, O(n) memory beyond the
 * candidate lists.
 */
#include "core.h"
#include "objective.h"
#include "to_centers.h"
#include "transport_points.h"

#include <string.h>

ckm_error ckm_transport_to_centers(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                                   const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels,
                                   double *prices, double *objective, int *infeasible, bool *stopped, ckm_err *err)
{
    ckm_transport_points_problem pp = {Y, n, d, C, k, lo, hi};
    ckm_transport_points_opts o = ckm_transport_points_defaults();
    o.threads = threads;
    o.lim = lim;
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    memset(prices, 0, k * sizeof(double));
    *infeasible = 0;
    ckm_error rc = ckm_transport_points(&pp, &o, prices, labels, infeasible, &ts, err);
    *stopped = rc == CKM_OK && ts.stopped;
    if (rc != CKM_OK || *infeasible || *stopped)
        return rc;
    double f = 0.0;
    for (size_t i = 0; i < n; i++)
        f += ckm_sqdist(Y + i * d, C + (size_t)labels[i] * d, d);
    *objective = f;
    return CKM_OK;
}
