/*
 * pca.c -- principal components (ckm_pca): the weighted covariance
 *   S = sum_i w_i (x_i - mu)(x_i - mu)' / W,  mu = sum_i w_i x_i / W,  W = sum_i w_i,
 * its m leading eigenpairs S v = lambda v (LAPACK dsyevd through ckm_eig_sym), and the
 * coordinates y_i = V' (x_i - mu). Each component's sign is fixed so that its entry of
 * largest magnitude is positive (the same input gives the same picture). S is accumulated
 * by dsyrk over blocks of CHUNK centered rows scaled by sqrt(w_i): O(n d^2 + d^3) time,
 * O(CHUNK d + d^2) memory beyond the output.
 */
#include "core.h"
#include "linalg.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK ((size_t)4096)

static void weighted_mean(const double *X, const double *w, size_t n, size_t d, double *mu)
{
    double W = 0.0;
    memset(mu, 0, d * sizeof *mu);
    for (size_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        W += wi;
        for (size_t q = 0; q < d; q++)
            mu[q] += wi * X[i * d + q];
    }
    for (size_t q = 0; q < d; q++)
        mu[q] /= W;
}

/* S (d x d, both triangles) of the points about mu */
static void covariance(const double *X, const double *w, size_t n, size_t d, const double *mu, double *B, double *S)
{
    double W = 0.0;
    memset(S, 0, d * d * sizeof *S);
    for (size_t i0 = 0; i0 < n; i0 += CHUNK) {
        size_t m = n - i0 < CHUNK ? n - i0 : CHUNK;
        for (size_t i = 0; i < m; i++) {
            double wi = w ? w[i0 + i] : 1.0, f = sqrt(wi);
            W += wi;
            for (size_t q = 0; q < d; q++)
                B[i * d + q] = f * (X[(i0 + i) * d + q] - mu[q]);
        }
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)d, (int)m, 1.0, B, (int)d, 1.0, S, (int)d);
    }
    for (size_t a = 0; a < d; a++)
        for (size_t b = 0; b <= a; b++)
            S[b * d + a] = S[a * d + b] = S[a * d + b] / W;
}

ckm_error ckm_pca(const double *X, const double *w, size_t n, size_t d, size_t m, double *proj, double *components,
                  double *variance, ckm_err *err)
{
    if (!X || !proj || n == 0 || d == 0 || m == 0 || m > d)
        return ckm_fail(err, CKM_ERR_INVALID, "pca: need points, n >= 1, d >= 1 and 1 <= m <= d (m = %zu, d = %zu)", m, d);
    for (size_t i = 0; w && i < n; i++)
        if (!(w[i] > 0.0) || !isfinite(w[i]))
            return ckm_fail(err, CKM_ERR_INVALID, "pca: weight %zu is %g (weights must be finite and > 0)", i, w[i]);
    double *mu = malloc(d * sizeof *mu), *S = malloc(d * d * sizeof *S), *ev = malloc(d * sizeof *ev);
    double *B = ckm_alloc_array((n < CHUNK ? n : CHUNK) * d, sizeof(double)), *V = malloc(m * d * sizeof *V);
    ckm_error rc = CKM_OK;
    if (!mu || !S || !ev || !B || !V) { /* V: the m leading vectors as rows */
        rc = ckm_fail(err, CKM_ERR_NOMEM, "pca: out of memory");
        goto done;
    }
    weighted_mean(X, w, n, d, mu);
    covariance(X, w, n, d, mu, B, S);
    int info = ckm_eig_sym(d, S, ev, 1); /* ascending; S now holds the vectors as columns */
    if (info != 0) {
        rc = ckm_fail(err, info == -1 ? CKM_ERR_NOMEM : CKM_ERR_INTERNAL, "pca: the eigensolver failed (%d)", info);
        goto done;
    }
    for (size_t c = 0; c < m; c++) {
        size_t col = d - 1 - c, big = 0;
        for (size_t q = 0; q < d; q++)
            if (fabs(S[q * d + col]) > fabs(S[big * d + col]))
                big = q;
        double sign = S[big * d + col] < 0.0 ? -1.0 : 1.0;
        for (size_t q = 0; q < d; q++)
            V[c * d + q] = sign * S[q * d + col];
        if (variance)
            variance[c] = fmax(ev[col], 0.0);
        if (components)
            memcpy(components + c * d, V + c * d, d * sizeof *V);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < m; c++) {
            double y = 0.0;
            for (size_t q = 0; q < d; q++)
                y += V[c * d + q] * (X[i * d + q] - mu[q]);
            proj[i * m + c] = y;
        }
done:
    free(mu);
    free(S);
    free(ev);
    free(B);
    free(V);
    return rc;
}
