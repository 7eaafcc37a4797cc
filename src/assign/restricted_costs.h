/*
 * restricted_costs.h -- the restricted route's costs (restricted_costs.c has the formulas):
 * the caller's s x k matrix, or computed from the centers where needed.
 */
#ifndef CKM_ASSIGN_RESTRICTED_COSTS_H
#define CKM_ASSIGN_RESTRICTED_COSTS_H

#include "restricted.h"

/* The implicit costs' workspace for r (its means and masses); false when out of memory
 * (ckm_cg_free releases what was allocated). */
bool ckm_cg_costs_new(struct ckm_cg *cg, const ckm_reduced *r);
/* Rows per block of costs for k clusters (cg->blk_rows, set by ckm_cg_new; tests lower it). */
size_t ckm_cg_block_rows(size_t k);
void ckm_cg_costs_free(struct ckm_cg *cg);
/* This step's costs: the caller's s x k matrix, or (implicit workspace only) the centers C. */
void ckm_cg_use_matrix(struct ckm_cg *cg, const double *cost);
void ckm_cg_use_centers(struct ckm_cg *cg, const ckm_reduced *r, const double *C);
double ckm_cg_cost(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, size_t j);
/* Group t's k costs, valid until the next call; passes ask for ascending t. */
const double *ckm_cg_cost_row(struct ckm_cg *cg, const ckm_reduced *r, size_t t);
/* sum_t cost_{t, labels_t} plus the soft pairs' penalty. */
double ckm_cg_total(const struct ckm_cg *cg, const ckm_reduced *r, const int32_t *labels);

#endif
