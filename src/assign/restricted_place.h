/*
 * restricted_place.h -- where each step of the restricted route starts (restricted_place.c).
 */
#ifndef CKM_ASSIGN_RESTRICTED_PLACE_H
#define CKM_ASSIGN_RESTRICTED_PLACE_H

#include "restricted.h"

/* Keep the cap least keys (ascending, *m of them so far) and their clusters. */
void ckm_cg_keep_least(double *key, int32_t *jj, int *m, int cap, double v, int32_t j);
/* The step's first prices into cg->v_prev (and, with capacities, cg->p_prev) and, when the
 * solver that priced them labelled the groups, those labels in *guide (to free): with
 * capacities and the s x k costs the Lagrangian prices (prices.h), else with size bounds the
 * transportation problem's; otherwise the last step's duals stay. */
ckm_error ckm_cg_first_prices(struct ckm_cg *cg, const ckm_reduced *r, const ckm_bk_limits *lim, int32_t **guide,
                              ckm_err *err);
/* First columns: the start label and the CG_Q cheapest by the first prices. */
void ckm_cg_first_columns(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start);
/* The decomposition: the groups placed by the prices, guided by guide (or none). */
void ckm_cg_place(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *guide);
/* sum_t cost_tf over the groups placed (no columns, so not in the LP's objective). */
double ckm_cg_placed_cost(const struct ckm_cg *cg, const ckm_reduced *r);

#endif
