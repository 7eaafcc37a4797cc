/*
 * to_centers.c -- ckm_assign_to_centers: size-bounded assignment of points to fixed centers
 *   min sum_i ||x_i - c_l(i)||^2  s.t.  lo_j <= |C_j| <= hi_j,
 * the transportation problem of transport.h on the squared-distance matrix (dgemm), or the
 * same LP through CLP for comparison (its optimal vertex is integral: the matrix is
 * totally unimodular).
 */
#include "backend.h"
#include "core.h"
#include "objective.h"
#include "transport_points.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The transportation LP through CLP; labels from its (integral) vertex. */
static ckm_error assign_lp(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                           int32_t *labels, ckm_err *err)
{
    size_t cols = n * k, rows = n + k;
    if (cols > INT32_MAX / 2)
        return ckm_fail(err, CKM_ERR_INVALID, "LP assignment: n k = %zu too large for the LP backend", cols);
    int *cs = ckm_alloc_array(cols + 1, sizeof(int)), *ri = ckm_alloc_array(2 * cols, sizeof(int));
    double *v = ckm_alloc_array(2 * cols, sizeof(double)), *clo = ckm_calloc_array(cols, sizeof(double));
    double *chi = ckm_alloc_array(cols, sizeof(double)), *rlo = ckm_alloc_array(rows, sizeof(double));
    double *rhi = ckm_alloc_array(rows, sizeof(double)), *x = ckm_alloc_array(cols, sizeof(double));
    ckm_error rc = CKM_OK;
    if (!cs || !ri || !v || !clo || !chi || !rlo || !rhi || !x) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "LP assignment: out of memory");
        goto done;
    }
    for (size_t q = 0; q < cols; q++) {
        cs[q] = (int)(2 * q);
        ri[2 * q] = (int)(q / k);
        ri[2 * q + 1] = (int)(n + q % k);
        v[2 * q] = v[2 * q + 1] = 1.0;
        chi[q] = 1.0;
    }
    cs[cols] = (int)(2 * cols);
    for (size_t i = 0; i < n; i++)
        rlo[i] = rhi[i] = 1.0;
    for (size_t j = 0; j < k; j++) {
        rlo[n + j] = (double)lo[j];
        rhi[n + j] = (double)hi[j];
    }
    ckm_lp m = {(int)cols, (int)rows, cost, clo, chi, rlo, rhi, cs, ri, v, NULL, NULL};
    ckm_bk_result res;
    if ((rc = ckm_bk_lp(&m, NULL, x, NULL, &res, err)) != CKM_OK)
        goto done;
    if (res.status != CKM_BK_OPTIMAL) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "LP assignment: CLP did not reach an optimum");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        labels[i] = -1;
        for (size_t j = 0; j < k; j++)
            if (x[i * k + j] > 0.5)
                labels[i] = (int32_t)j;
        if (labels[i] < 0) {
            rc = ckm_fail(err, CKM_ERR_INTERNAL, "LP assignment: fractional vertex for point %zu", i);
            goto done;
        }
    }
done:
    free(cs);
    free(ri);
    free(v);
    free(clo);
    free(chi);
    free(rlo);
    free(rhi);
    free(x);
    return rc;
}

ckm_error ckm_assign_to_centers(const double *X, size_t n, size_t d, const double *centers,
                                size_t k, const size_t *lo, const size_t *hi,
                                ckm_assign_method method, int32_t *labels, double *objective,
                                double *prices, ckm_status *status, ckm_err *err)
{
    if (n == 0 || d == 0 || k == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "assignment needs n, d, k >= 1 (got %zu, %zu, %zu)", n, d, k);
    if ((lo == NULL) != (hi == NULL))
        return ckm_fail(err, CKM_ERR_INVALID, "give both lo and hi, or neither");
    if (method != CKM_ASSIGN_AUTO && method != CKM_ASSIGN_TRANSPORT && method != CKM_ASSIGN_LP)
        return ckm_fail(err, CKM_ERR_INVALID, "unknown assignment method %d", (int)method);
    size_t nk, nd, kd;
    if (!ckm_mul_ok(n, k, &nk) || !ckm_mul_ok(n, d, &nd) || !ckm_mul_ok(k, d, &kd))
        return ckm_fail(err, CKM_ERR_NOMEM, "n * k overflows");
    for (size_t q = 0; q < nd; q++)
        if (!isfinite(X[q]))
            return ckm_fail(err, CKM_ERR_INVALID, "point %zu, feature %zu is not finite", q / d, q % d);
    for (size_t q = 0; q < kd; q++)
        if (!isfinite(centers[q]))
            return ckm_fail(err, CKM_ERR_INVALID, "center %zu, feature %zu is not finite", q / d, q % d);
    size_t *l = NULL, *h = NULL;
    if (!lo) {
        l = ckm_calloc_array(k, sizeof(size_t));
        h = ckm_alloc_array(k, sizeof(size_t));
        if (!l || !h) {
            free(l);
            free(h);
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        }
        for (size_t j = 0; j < k; j++)
            h[j] = n;
        lo = l;
        hi = h;
    }
    for (size_t j = 0; j < k; j++)
        if (lo[j] > hi[j]) {
            free(l);
            free(h);
            return ckm_fail(err, CKM_ERR_INVALID, "size bounds of cluster %zu: minimum %zu > maximum %zu", j, lo[j], hi[j]);
        }
    /* the LP route stores the n x k costs; the transportation route prices from the points
       (no matrix once n k > 2^28, transport_points.c) */
    double *cost = method == CKM_ASSIGN_LP ? ckm_alloc_array(nk, sizeof(double)) : NULL;
    double *pr = ckm_calloc_array(k, sizeof(double));
    ckm_error rc = CKM_OK;
    if ((method == CKM_ASSIGN_LP && !cost) || !pr) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the %zu x %zu cost matrix", n, k);
        goto done;
    }
    if (cost && (rc = ckm_sqdist_matrix(X, n, d, centers, k, cost, 0, err)) != CKM_OK)
        goto done;
    int infeasible = 0;
    if (method == CKM_ASSIGN_LP) {
        size_t sum_lo, sum_hi;
        ckm_bound_sums(lo, hi, k, &sum_lo, &sum_hi);
        infeasible = sum_lo > n || sum_hi < n;
        if (!infeasible)
            rc = assign_lp(n, k, cost, lo, hi, labels, err);
    } else {
        ckm_transport_points_problem pp = {X, n, d, centers, k, lo, hi};
        ckm_transport_points_opts o = ckm_transport_points_defaults(k);
        rc = ckm_transport_points(&pp, &o, pr, labels, &infeasible, NULL, err);
    }
    if (rc != CKM_OK)
        goto done;
    *status = infeasible ? CKM_STATUS_INFEASIBLE : CKM_STATUS_OPTIMAL;
    if (!infeasible) {
        double f = 0.0;
        for (size_t i = 0; i < n; i++)
            f += ckm_sqdist(X + i * d, centers + (size_t)labels[i] * d, d);
        if (objective)
            *objective = f;
        if (prices)
            memcpy(prices, pr, k * sizeof(double));
    }
done:
    free(cost);
    free(pr);
    free(l);
    free(h);
    return rc;
}
