/*
 * part_cuts.h -- exact labelling of one part of a split assignment step (split_search.h's
 * ckm_part) by branch and cut on its clique-partition LP, for the parts the depth-first search
 * cannot close (PCCC's noisy protocol: 990-6441 random pairs over 150-569 points, one part of
 * nearly every point, where that search's bound, the rows' minima, ignores every pair between
 * unassigned groups).
 *   Nodes: the m groups and k anchors, one per cluster. Variables y_ij = [group i in cluster
 *   j] and, per soft edge e = (a, b), x_e = [a and b together]; a hard cannot-link has x = 0.
 *     min  sum_ij a_ij y_ij + sum_{must e} p_e (1 - x_e) + sum_{cannot e} p_e x_e
 *     s.t. sum_j y_ij = 1;  y_aj + y_bj <= 1 (hard cannot-link (a, b), every j);
 *          lo_j <= sum_i w_i y_ij <= hi_j (a sized part's size rows, every j);
 *          the triangle inequalities of the clique partition (Groetschel & Wakabayashi 1989,
 *          "A cutting plane algorithm for a clustering problem", Math. Programming 45) on
 *          every triple of nodes whose three pairs are variables or hard:
 *            (a, b, anchor j):  x_e + y_aj - y_bj <= 1,  x_e - y_aj + y_bj <= 1,
 *                               -x_e + y_aj + y_bj <= 1;
 *            (a, b, c):         x_ab + x_bc - x_ac <= 1 and its two rotations;
 *          0 <= y, x <= 1; y integer.
 *   For 0/1 y the anchor triangles force x_e = [l_a = l_b] in the direction its cost pulls,
 *   so the integer optimum is the part's F optimum; the anchor triangles alone are the LP of
 *   PCCC's model (the full route's), the group triangles are what make it tight on dense
 *   parts (a frustrated triangle, two must-links and a cannot-link, costs >= its least pair).
 * On sparse pair graphs few triples have three pairs; the cycles carry the strength there. For
 * k = 2 the odd-cycle inequalities of the cut polytope (Barahona & Mahjoub 1986, "On the cut
 * polytope", Math. Programming 36) on the pair graph with the anchor of cluster 0: for a cycle
 * C and an odd set F of its edges, sum_F x + sum_{C \ F} (1 - x) >= 1 (a cycle cannot
 * separate an odd number of its pairs), x of an anchor edge being y_i0. For k >= 3 the cycle
 * inequalities of the multicut polytope (Chopra & Rao 1993, "The partition problem", Math.
 * Programming 59) on the pair graph with the k anchors (pairwise apart): for a cycle C and an
 * edge e of it, (1 - x_e) <= sum_{C \ e} (1 - x_f) (a cycle never crosses a partition once).
 * Method: depth-first branch and bound over y; at each node the LP (CLP, dual simplex warm-
 * started from the last basis) and rounds of the most violated cuts (kept for every node:
 * they hold for every labelling); a node is pruned when its safe bound reaches the
 * incumbent - 1e-9 (1 + |incumbent|). The safe bound is the Lagrangian value of CLP's row
 * duals (a dual at the bound its sign belongs to: lo for y > 0, hi for y < 0; taken as 0 where
 * that bound is infinite), never CLP's objective: valid for any duals, since every variable
 * lies in [0, 1]. Incumbents: the caller's start, and each LP solution rounded (argmax y; on a
 * sized part repaired into the size rows by single moves that lower the points outside them,
 * not offered when that fails) and improved by single moves (keeping the size rows); a tabu
 * search (part_tabu.h) from the start (on a sized part once the root's first two LPs have not
 * proven it), and
 * from the last LP's rounding at each node that branches (on PCCC's noisy sets single moves
 * stop 1-2 % above the step's optimum, where the LP bound alone prunes nothing).
 */
#ifndef CKM_ASSIGN_PART_CUTS_H
#define CKM_ASSIGN_PART_CUTS_H

#include "part_pool.h"
#include "split_search.h"

/* Parts of more groups are not tried (the pair map is m^2 and the triangles' separation
 * O(m^3) a round: 0.17 G triples at 1000; PCCC's largest part, breast_cancer's, is 569). */
#define CKM_PART_CUTS_MAX 1000
/* A first call on a sized part starts its LP with every anchor triangle (PCCC's LP) when they
 * are at most this many rows (ckm_part_seed_rows), else with none (the rounds separate them). */
#define CKM_PART_SEED_ROWS 60000
/* The anchor triangles of a part with nx soft edges and k clusters: 4 an edge for k = 2 (the
 * three of cluster 0 and one of cluster 1), 3 k for k >= 3. */
static inline size_t ckm_part_seed_rows(size_t k, size_t nx) { return (k == 2 ? 4 : 3 * k) * nx; }

/* Branch and cut on part pt (m <= CKM_PART_CUTS_MAX) from the labelling start (m labels, or
 * NULL), for at most lp_budget LP solves, polling lim, with the tabu searches when tabu (the
 * route's choice; without them the tests reach the branching): lab (m) gets the best labelling found
 * (res->value, INFINITY: none), res->done when it is proven optimal (or no labelling keeps the
 * hard cannot-links: value INFINITY, done), res->nodes the branch-and-bound nodes and
 * res->work the LP solves. keep (or NULL): cuts of an earlier call on a part with the same
 * groups and edges (or none) to start from; it gets this call's pool back. pt->a is not
 * changed. Errors: out of memory, an LP backend error. */
ckm_error ckm_part_cuts(const ckm_part *pt, const int32_t *start, size_t lp_budget, bool tabu,
                        const ckm_bk_limits *lim, ckm_part_pool *keep, int32_t *lab, ckm_part_result *res, ckm_err *err);

#endif
