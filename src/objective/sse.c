/*
 * sse.c -- cluster means and the SSE objective computed from a labelling alone, with
 * optional sample weights w_i > 0 (NULL: all 1):
 *   c_j = sum_{i in C_j} w_i x_i / sum_{i in C_j} w_i,   SSE = sum_i w_i ||x_i - c_{l(i)}||^2.
 * An integer weight w_i is the same as w_i copies of row i (tests/test_weights.c).
 * Two passes (means, then squared deviations) avoid the cancellation of the
 * sum-of-squares shortcut. Cost O(n d). Points near the double range (whose sums overflow)
 * get their means from scaled sums (exact power-of-two scaling).
 */
#include "core.h"
#include "objective.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

ckm_error ckm_centers_from_labels(const double *X, const double *w, size_t n, size_t d,
                                  const int32_t *labels, size_t k, double *centers, size_t *sizes,
                                  ckm_err *err)
{
    size_t *cnt = sizes ? sizes : ckm_calloc_array(k, sizeof(size_t));
    double *mass = ckm_calloc_array(k, sizeof(double));
    if (!cnt || !mass) {
        if (!sizes)
            free(cnt);
        free(mass);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    memset(cnt, 0, k * sizeof *cnt);
    memset(centers, 0, k * d * sizeof *centers);
    for (size_t i = 0; i < n; i++) {
        if (labels[i] < 0 || (size_t)labels[i] >= k) {
            if (!sizes)
                free(cnt);
            free(mass);
            return ckm_fail(err, CKM_ERR_INVALID, "label %d of point %zu is outside [0, %zu)",
                            (int)labels[i], i, k);
        }
        double *c = centers + (size_t)labels[i] * d, wi = w ? w[i] : 1.0;
        const double *x = X + i * d;
        for (size_t f = 0; f < d; f++)
            c[f] += wi * x[f];
        cnt[labels[i]]++;
        mass[labels[i]] += wi;
    }
    bool overflow = false;
    for (size_t j = 0; j < k; j++)
        if (cnt[j] > 0)
            for (size_t f = 0; f < d; f++) {
                centers[j * d + f] /= mass[j];
                overflow |= !isfinite(centers[j * d + f]);
            }
    if (overflow) {
        /* finite points whose sum overflows (values near DBL_MAX): sum them times 2^-600, which
         * is exact for such values, and scale the means back (a mean is at most max |x|) */
        memset(centers, 0, k * d * sizeof *centers);
        for (size_t i = 0; i < n; i++)
            for (size_t f = 0; f < d; f++)
                centers[(size_t)labels[i] * d + f] += (w ? w[i] : 1.0) * ldexp(X[i * d + f], -600);
        for (size_t j = 0; j < k; j++)
            if (cnt[j] > 0)
                for (size_t f = 0; f < d; f++)
                    centers[j * d + f] = ldexp(centers[j * d + f] / mass[j], 600);
    }
    if (!sizes)
        free(cnt);
    free(mass);
    return CKM_OK;
}

ckm_error ckm_sse(const double *X, size_t n, size_t d, const int32_t *labels, size_t k,
                  double *sse, ckm_err *err)
{
    return ckm_sse_weighted(X, NULL, n, d, labels, k, sse, err);
}

ckm_error ckm_sse_weighted(const double *X, const double *w, size_t n, size_t d, const int32_t *labels,
                           size_t k, double *sse, ckm_err *err)
{
    size_t kd;
    if (!ckm_mul_ok(k, d, &kd))
        return ckm_fail(err, CKM_ERR_NOMEM, "k * d overflows");
    double *c = ckm_alloc_array(kd, sizeof(double));
    if (!c)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    ckm_error rc = ckm_centers_from_labels(X, w, n, d, labels, k, c, NULL, err);
    if (rc == CKM_OK) {
        double s = 0.0;
        for (size_t i = 0; i < n; i++) {
            const double *x = X + i * d, *m = c + (size_t)labels[i] * d;
            double wi = w ? w[i] : 1.0;
            for (size_t f = 0; f < d; f++) { /* term by term: w = 1 gives the unweighted bits */
                double t = x[f] - m[f];
                s += wi * t * t;
            }
        }
        *sse = s;
    }
    free(c);
    return rc;
}
