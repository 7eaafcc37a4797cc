/*
 * objective.h -- internal objective kernels: centers from labels, nearest-center
 * assignment through BLAS dgemm.
 */
#ifndef CKM_OBJECTIVE_H
#define CKM_OBJECTIVE_H

#include "ckm.h"

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

/* Power-of-two exponent e for rescaling data x -> x 2^-e (scale.c): 0 when the largest
 * magnitude M of the count values is 0 or lies in [1, 2^20]; otherwise the e that brings M
 * into [1, 2). */
int ckm_scale_exponent(const double *X, size_t count);
/* out[i] = X[i] * 2^-e (exact unless a value leaves the normal range). */
void ckm_scale_copy(const double *X, size_t count, int e, double *out);

#endif
