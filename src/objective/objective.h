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
ckm_error ckm_centers_from_labels(const double *X, const double *w, size_t n, size_t d,
                                  const int32_t *labels, size_t k, double *centers, size_t *sizes,
                                  ckm_err *err);

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

/* The data as the algorithms see them (scale.c): X itself, or a copy transformed by
 * x -> (x - mu) 2^-e (center) or x -> x 2^-e, with the way back for objectives (times 4^e)
 * and centers. */
typedef struct ckm_scaled {
    const double *X; /* n*d: the points to cluster (the caller's, or own) */
    double *own;     /* the transformed copy, or NULL */
    double *mu;      /* d column means (used when center) */
    size_t d;
    int e;
    bool center;
} ckm_scaled;

ckm_error ckm_scaled_init(ckm_scaled *sc, const double *X, size_t n, size_t d, ckm_err *err);
bool ckm_scaled_active(const ckm_scaled *sc);
void ckm_scaled_free(ckm_scaled *sc);
/* an objective (SSE, bound) of the transformed data in the data's units */
double ckm_scaled_objective(const ckm_scaled *sc, double v);
/* k*d centers of the transformed data, in place, to the data's coordinates */
void ckm_scaled_centers(const ckm_scaled *sc, double *C, size_t k);

#endif
