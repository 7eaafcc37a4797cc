/*
 * part_cycles.h -- the cycle inequalities of part_cuts.h, separated on a part's pair graph with
 * the anchors of its clusters (part_cycles.c: the graph, the two searches):
 *   k = 2, the odd cycles of the cut polytope (Barahona & Mahjoub 1986): for a cycle C and an
 *   odd set F of its edges, sum_F x + sum_{C \ F} (1 - x) >= 1;
 *   k >= 3, the cycles of the multicut polytope (Chopra & Rao 1993): for a cycle C and an edge
 *   e of it, 1 - x_e <= sum_{C \ e} (1 - x_f);
 * where x of a soft pair is its "together" column, x of a group's edge to anchor j its y_ij, and
 * x of a hard cannot-link (and of two anchors) the constant 0. Each is exact separation: every
 * node's most violated cycle is found.
 */
#ifndef CKM_ASSIGN_PART_CYCLES_H
#define CKM_ASSIGN_PART_CYCLES_H

#include "part_pool.h"

typedef struct ckm_part_graph ckm_part_graph;

/* The graph of a part of m groups and k >= 2 clusters: soft pair e joins groups xa[e] and xb[e]
 * (column col0 + e), hard cannot-link h joins ha[h] and hb[h]; group i's column of cluster j is
 * i k + j. NULL: out of memory. */
ckm_part_graph *ckm_part_graph_new(size_t m, size_t k, size_t nx, const int32_t *xa, const int32_t *xb, size_t col0,
                                   size_t nhard, const int32_t *ha, const int32_t *hb);
void ckm_part_graph_free(ckm_part_graph *g);

/* The cycles the LP solution x violates by more than eps, appended to cand as rows
 * sum coef x <= rhs (entries in column order, viol: the violation). false: out of memory. */
bool ckm_part_cycles(ckm_part_graph *g, const double *x, double eps, ckm_part_pool *cand);

#endif
