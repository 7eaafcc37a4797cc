/*
 * soft_local.h -- 1-opt local search on labellings of the assignment model with soft pairs
 * (soft_local.c): a good first labelling for CBC within a step budget, and the whole step of
 * the local route (route_local.c) when the model is too large to build.
 */
#ifndef CKM_ASSIGN_SOFT_LOCAL_H
#define CKM_ASSIGN_SOFT_LOCAL_H

#include "reduced.h"

#include <stdbool.h>
#include <stdint.h>

/* A feasible labelling when the model's only hard rows are one cluster per group and
 * lo_j <= 1 (no cannot-links, default sizes, no capacities): each group at its cheapest
 * cluster, empty clusters filled by the cheapest moves; false when other hard rows exist,
 * s < k, or on allocation failure. */
bool ckm_soft_trivial_start(const ckm_reduced *r, const double *cost, int32_t *lab);
/* A feasible labelling under cannot-links and size bounds (no capacities), for steps the
 * trivial start refuses: groups in decreasing regret (second least cost - least) each take
 * their cheapest cluster, costs plus the soft pairs' penalty against the groups placed
 * before, among those without a cannot-linked placed group, with room under hi, and leaving
 * enough weight to lift every cluster to lo. With unit weights, no cannot-links and
 * sum lo <= s <= sum hi it always succeeds; group weights (must-links) or cannot-links can
 * leave a group no cluster: false then (and on allocation failure or with capacities), lab
 * unusable. O(s k + s log s + pairs k). */
bool ckm_soft_greedy_start(const ckm_reduced *r, const double *cost, int32_t *lab);
/* Improve the feasible labelling lab (s groups) of the model with soft pairs by single-group
 * moves that keep every hard row (capacities included) and lower cost + penalty, until none
 * does or the deadline (ckm_now() units; INFINITY = none) passes; *moves counts them. false
 * on allocation failure (lab then unchanged or improved, still feasible). */
bool ckm_soft_local_search(const ckm_reduced *r, const double *cost, double deadline, int32_t *lab, size_t *moves);

#endif
