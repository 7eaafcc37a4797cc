/*
 * centers.h -- small helpers shared by the Lloyd-type algorithms on super-points.
 */
#ifndef CKM_CENTERS_H
#define CKM_CENTERS_H

#include "objective.h" /* ckm_sqdist */
#include "reduced.h"

#include <stdbool.h>

/* C_j = sum_{l(t)=j} w_t m_t / sum_{l(t)=j} w_t; a cluster without points keeps its
 * previous center. Returns the number of empty clusters. */
size_t ckm_group_means(const ckm_reduced *r, const int32_t *labels, double *C, double *wsum);

/* SSE of a super-point labelling: sum_t w_t ||m_t - c_l(t)||^2 + scatter, with c the
 * weighted means of the labels (computed into C). */
double ckm_group_sse(const ckm_reduced *r, const int32_t *labels, double *C, double *wsum);


/* The center-shift tolerance (scikit-learn's rule): *out = tol * (the mean over the d
 * features of the mass-weighted variance of the super-points, summed in point order).
 * Lloyd-type algorithms stop when sum_j ||c_j - c_j'||^2 <= *out. CKM_ERR_NOMEM only. */
ckm_error ckm_shift_tol(const ckm_reduced *r, double tol, double *out, ckm_err *err);

/* argmin_j ||m_t - c_j||^2 over the k centers C, ties to the lowest j. O(k d). */
size_t ckm_nearest_center(const ckm_reduced *r, size_t t, const double *C);

/* Unconstrained weighted Lloyd on the groups from the centers in C until the labels stop
 * changing (at most 300 rounds); C, wsum and labels (s) hold the result. Used to start
 * bckm and admm "from k-means", as their papers do. O(s k d) per round. */
void ckm_group_lloyd(const ckm_reduced *r, double *C, double *wsum, int32_t *labels);

/* qsort helper: (key, index) pairs by key, descending, ties by index (the slot matching
 * below and its MPI twin, dist_seed.c). */
typedef struct ckm_keyed {
    double key;
    size_t idx;
} ckm_keyed;
int ckm_keyed_desc(const void *a, const void *b);

/* Size bounds name clusters (cluster j must have lo_j..hi_j points) but seeded centers come
 * in random order. When the bounds differ between clusters, permute the centers C so that
 * the center with the most (weighted) nearest points takes the slot with the largest
 * bound midpoint (lo_j + min(hi_j, n)) / 2, and so on down: any order of the initial
 * centers is a valid start, and this one does not pit a large natural cluster against a
 * small exact size. No-op without size bounds or with the same bounds everywhere.
 * O(s k d). */
ckm_error ckm_order_centers_by_size(const ckm_reduced *r, double *C, ckm_err *err);

#endif
