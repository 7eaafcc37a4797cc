/*
 * certify_floor.h -- the split's floor (certify_floor.c; docs/certify.md "The split's floor").
 */
#ifndef CKM_CERTIFY_FLOOR_H
#define CKM_CERTIFY_FLOOR_H

#include "certify_subset.h"

/* k-means starts from k-means++ seeds per subset (besides the one from the labels' centroids) */
#define CKM_CERTIFY_FLOOR_RESTARTS 10
/* at most this many passes of one-group moves after each kmeans run (ckm_group_moves) */
#define CKM_CERTIFY_FLOOR_PASSES 50

/* Whether the floor can be measured on r: no size bounds or capacities (kmeans keeps must-link
 * groups whole and the moves keep cannot-links apart, but neither honours sizes or loads). */
bool ckm_certify_floor_applies(const ckm_reduced *r);

/* least[t] (T entries, scaled units, the units of J->incumbent) = the least SSE found for
 * subset t alone: min(J->incumbent[t], kmeans on its groups from the centroids of `labels`
 * restricted to it, kmeans from each of CKM_CERTIFY_FLOOR_RESTARTS k-means++ seeds; each kmeans
 * labelling improved by one-group moves, each kept only when it meets the subset's
 * cannot-links). Subsets with no
 * more groups than clusters (or k = 1) take their optimum (ckm_certify_subset_exact). Every least[t] is the SSE of a labelling the subset's problem allows, so
 * least[t] >= the subset's optimum >= any bound of it. `threads` subsets at once (each kmeans
 * on one thread). Needs ckm_certify_floor_applies(J->r) and J->p. */
ckm_error ckm_certify_floor(const cert_job *J, const int32_t *labels, int threads, double *least, ckm_err *err);

#endif
