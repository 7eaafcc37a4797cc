/*
 * cap_local.h -- repair and improvement of labellings of an assignment step with capacity
 * rows (cap_local.c), and the choice of the incumbent the reduced-cost fixing starts from.
 * Every function needs r->has_caps (demands); costs are the dense s x k matrix.
 */
#ifndef CKM_ASSIGN_CAP_LOCAL_H
#define CKM_ASSIGN_CAP_LOCAL_H

#include "backend.h"
#include "reduced.h"

#include <stdbool.h>
#include <stdint.h>

/* Improve the feasible labelling lab by moves and swaps that keep every row and lower the
 * total; inc_start/inc: the cannot-link incidence (incidence.h). *moves counts the changes.
 * false on allocation failure (lab unchanged). */
bool ckm_cap_local_search(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                          const ckm_bk_limits *lim, int32_t *lab, size_t *moves);
/* Repair lab's broken size and capacity rows by cheapest moves, cluster by cluster; true when
 * lab then keeps every row (cannot-links included). */
bool ckm_cap_repair(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc, int32_t *lab);
/* The cheapest of the feasible labellings pool[0 .. n) by the step's objective (costs + soft
 * penalty; NULL entries skipped; the earlier one wins a tie) copied to best and improved by
 * ckm_cap_local_search, its changes added to *moves; with soft pairs the result is kept only
 * if that objective did not rise. false when there is none, or (*nomem) memory ran out. */
bool ckm_cap_best(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                  const int32_t *const *pool, size_t n, const ckm_bk_limits *lim, int32_t *best, size_t *moves,
                  bool *nomem);

#endif
