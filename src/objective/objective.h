/*
 * objective.h -- internal objective kernels: centers from labels, nearest-center
 * assignment through BLAS dgemm.
 */
#ifndef CKM_OBJECTIVE_H
#define CKM_OBJECTIVE_H

#include "ckm.h"

#include <stdbool.h>

/* centers (k*d) = means of the labelled points; sizes (k) filled when non-NULL. An empty
 * cluster gets a zero center. Labels must be in [0, k). */
ckm_error ckm_centers_from_labels(const double *X, size_t n, size_t d, const int32_t *labels,
                                  size_t k, double *centers, size_t *sizes, ckm_err *err);

/* Workspace for nearest-center search with k centers of dimension d. */
typedef struct ckm_nearest_ws {
    size_t k, d;
    int threads;      /* worker threads (>= 1) */
    size_t block;     /* rows per dgemm call */
    double *gram;     /* threads * block * k */
    double *cnorm;    /* k */
} ckm_nearest_ws;

/* threads: 0 = all cores. */
ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, size_t d, int threads, ckm_err *err);
void ckm_nearest_ws_free(ckm_nearest_ws *ws);

/* For every point i < m: label[i] = argmin_j ||y_i - c_j||^2 (ties to the lowest j) and
 * dist[i] = that squared distance (clamped at 0), using ||y||^2 - 2 y.c + ||c||^2 with the
 * cross term from dgemm. ynorm holds ||y_i||^2. The result does not depend on the
 * thread count. */
void ckm_nearest(const double *Y, const double *ynorm, size_t m, const double *C,
                 ckm_nearest_ws *ws, int32_t *label, double *dist);

/* out (m*k) = squared distances ||y_i - c_j||^2 (clamped at 0), by one dgemm. */
ckm_error ckm_sqdist_matrix(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out,
                            ckm_err *err);

/* How to present data to the algorithms (scale.c): returns the exponent e of the transform
 * x -> (x - mu) 2^-e when *center, x -> x 2^-e otherwise; e = 0 and !*center: as it is. mu:
 * d column means (written). */
int ckm_scale_plan(const double *X, size_t n, size_t d, double *mu, bool *center);
void ckm_scale_copy(const double *X, size_t n, size_t d, const double *mu, bool center, int e, double *out);

#endif
