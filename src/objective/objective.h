/*
 * objective.h -- internal objective kernels: centers from labels, nearest-center
 * assignment through BLAS dgemm, weighted point sets.
 */
#ifndef CKM_OBJECTIVE_H
#define CKM_OBJECTIVE_H

#include "ckm.h"

/* centers (k*d) = means of the labelled points; sizes (k) filled when non-NULL. An empty
 * cluster gets a zero center. Labels must be in [0, k). */
ckm_error ckm_centers_from_labels(const double *X, size_t n, size_t d, const int32_t *labels,
                                  size_t k, double *centers, size_t *sizes, ckm_err *err);

/* Workspace for nearest-center search on m points of dimension d with k centers. */
typedef struct ckm_nearest_ws {
    size_t chunk;     /* rows per dgemm block */
    double *gram;     /* chunk * k */
    double *cnorm;    /* k */
} ckm_nearest_ws;

ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, ckm_err *err);
void ckm_nearest_ws_free(ckm_nearest_ws *ws);

/* For every point i: label[i] = argmin_j ||y_i - c_j||^2 (ties to the lowest j) and
 * dist[i] = that squared distance (clamped at 0), using ||y||^2 - 2 y.c + ||c||^2 with the
 * cross term from dgemm. ynorm holds ||y_i||^2. */
void ckm_nearest(const double *Y, const double *ynorm, size_t m, size_t d, const double *C,
                 size_t k, ckm_nearest_ws *ws, int32_t *label, double *dist);

#endif
