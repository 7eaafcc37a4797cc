/*
 * restricted_model.h -- the restricted route's state and model (restricted_model.c): its
 * storage, the CLP model of the active columns (model.h's rows), the last optimal model kept
 * for the next round's basis, and reduced costs under that model's duals.
 */
#ifndef CKM_ASSIGN_RESTRICTED_MODEL_H
#define CKM_ASSIGN_RESTRICTED_MODEL_H

#include "restricted.h"

/* implicit: with the workspace of costs from centers (else made by the first such step) */
struct ckm_cg *ckm_cg_new(const ckm_reduced *r, int implicit);
void ckm_cg_free(struct ckm_cg *cg);
/* Estimated peak bytes of the restricted model's steps (docs/memory.md), with the caller's
 * s x k costs (implicit 0) or from centers (1). */
double ckm_cg_bytes(const ckm_reduced *r, int implicit);
/* Keep the model just solved to optimality (phase 2) for the next round's basis. */
bool ckm_cg_keep(struct ckm_cg *cg, const ckm_reduced *r);
/* The kept model's reduced costs rc = c - A' y, once the LP is final (for ckm_cg_rc). */
void ckm_cg_kept_rc(struct ckm_cg *cg);
/* Build the restricted model: y columns (the step's costs, or 0 in phase 1), in phase 1 also
 * the artificials (cost 1). CKM_ERR_NOMEM on allocation failure, int overflow or a model
 * that outgrows the memory. */
ckm_error ckm_cg_build(struct ckm_cg *cg, const ckm_reduced *r, int phase1, ckm_err *err);
ckm_lp ckm_cg_model(const struct ckm_cg *cg);
/* Reduced cost of (t, j) of cost c under the duals of the kept (last optimal) LP; adj: the
 * group's soft must-link duals (ckm_cg_soft_adjust), or NULL. */
double ckm_cg_rc(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j, const double *adj);
/* A column (t, j) outside the model built last still enters the soft must-link rows
 * y_bj - y_tj - z_e <= 0 of its partners' columns (b, j) in it (coefficient -1): adj[j] (k)
 * gets the sum of those rows' duals (<= 0), to be added to its reduced cost. false (adj
 * untouched) when t has no soft must-link pair. */
bool ckm_cg_soft_adjust(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, double *adj);
/* The last model's LP point rounded: the integral groups keep their cluster, then each other
 * group (in index order) takes its column of largest value whose cluster no labelled
 * cannot-link partner holds. false when some group has no such column. It may break size and
 * capacity rows (the caller repairs them). */
bool ckm_cg_round(const struct ckm_cg *cg, const ckm_reduced *r, int32_t *lab);
/* Labels from the last model's 0/1 point; false when some y is fractional. */
bool ckm_cg_labels(const struct ckm_cg *cg, size_t s, int32_t *labels);

#endif
