/*
 * split_search.h -- exact search on one part of a split assignment step (route_split.c).
 * A part: m groups, k clusters, costs a_ij (the group's step cost plus the penalties that its
 * pairs to groups outside the part already decide; INFINITY where a hard cannot-link to such
 * a group forbids j), and the edges inside the part:
 *   soft must-link   costs p when its ends are apart
 *   soft cannot-link costs p when its ends are together
 *   hard cannot-link its ends never together
 * The search minimises F(l) = sum_i a_{i, l_i} + sum_edges cost over the part's labellings
 * (split_search.c: depth-first branch and bound, the bound below).
 * A sized part (w set: a step with size bounds, one part of all its groups, route_split.c)
 * also has size rows: lo_j <= sum_{i: l_i = j} w_i <= hi_j for every cluster j. Only the branch
 * and cut (part_cuts.h) and the tabu search (part_tabu.h) take such parts; ckm_part_search
 * requires w NULL.
 */
#ifndef CKM_ASSIGN_SPLIT_SEARCH_H
#define CKM_ASSIGN_SPLIT_SEARCH_H

#include "backend.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { CKM_EDGE_MUST = 0, CKM_EDGE_CANNOT = 1, CKM_EDGE_HARD = 2 };

typedef struct ckm_part {
    size_t m, k;
    double *a;                 /* m*k costs; changed during the search and restored by it */
    const size_t *start;       /* m+1: the edges of i are [start[i], start[i+1]) */
    const size_t *nbr;         /* their other ends (local indices) */
    const double *p;           /* their penalties (> 0; unused for hard ones) */
    const unsigned char *kind; /* CKM_EDGE_* */
    const size_t *w;           /* m group sizes (points), or NULL: no size rows */
    const size_t *lo, *hi;     /* k bounds on a cluster's points (read only when w is set) */
} ckm_part;

typedef struct ckm_part_result {
    bool done;    /* the search ran to its end: value is the part's optimum (INFINITY: no
                     labelling keeps the hard cannot-links) */
    double value; /* F of lab (INFINITY: none found) */
    size_t nodes; /* labels tried */
    size_t work;  /* row entries they read and wrote, (m + edges of the group) k each: what the
                     budget counts (a node's cost grows with the part and k) */
} ckm_part_result;

/* Search part pt from the labelling start (m labels, or NULL; an incumbent when F(start) is
 * finite) until its work passes budget (res->work) while it holds a labelling, polling lim every
 * 1024 nodes: lab (m) gets the best labelling found when res->value is finite. Without one at
 * the budget (budget 0: no search, the first labelling only) it goes on to its first, for at
 * most four times a plain dive's work, so a part whose cannot-links leave room is labelled
 * whatever the budget. false on allocation failure. */
bool ckm_part_search(ckm_part *pt, const int32_t *start, size_t budget, const ckm_bk_limits *lim, int32_t *lab,
                     ckm_part_result *res);
/* What an edge of kind (CKM_EDGE_*) and penalty p costs with its ends together (same) or
 * apart: p for a broken soft pair, INFINITY for a hard cannot-link together, else 0. */
static inline double ckm_edge_cost(unsigned char kind, double p, bool same)
{
    if (kind == CKM_EDGE_HARD)
        return same ? INFINITY : 0.0;
    return (kind == CKM_EDGE_MUST) != same ? p : 0.0;
}

/* F(lab) on part pt (INFINITY when lab breaks a hard cannot-link, takes a forbidden cluster
 * or, on a sized part, breaks a size row). */
double ckm_part_value(const ckm_part *pt, const int32_t *lab);
/* What group i costs in cluster j with its neighbours at lab: a_ij plus its edges' costs
 * (INFINITY: forbidden, or a hard cannot-link neighbour in j). Size rows are not counted. */
double ckm_part_move_cost(const ckm_part *pt, const int32_t *lab, size_t i, size_t j);
/* How many points a count of c misses cluster j's size row by (a sized part). */
static inline size_t ckm_part_miss(const ckm_part *pt, size_t j, size_t c)
{
    return c < pt->lo[j] ? pt->lo[j] - c : c > pt->hi[j] ? c - pt->hi[j] : 0;
}
/* Sized part at count (k points per cluster): by how many points moving w of them from
 * cluster l to j (l != j, count[l] >= w) changes the excess (ckm_part_excess). */
static inline ptrdiff_t ckm_part_excess_change(const ckm_part *pt, const size_t *count, size_t l, size_t j, size_t w)
{
    size_t before = ckm_part_miss(pt, l, count[l]) + ckm_part_miss(pt, j, count[j]);
    size_t after = ckm_part_miss(pt, l, count[l] - w) + ckm_part_miss(pt, j, count[j] + w);
    return (ptrdiff_t)after - (ptrdiff_t)before;
}
/* Sized part: count (k) gets the clusters' points at lab, and the return is by how many
 * points they miss their rows: sum_j max(0, lo_j - count_j) + max(0, count_j - hi_j). */
size_t ckm_part_excess(const ckm_part *pt, const int32_t *lab, size_t *count);
/* A sized part's labels into its size rows by single moves, each lowering the excess and,
 * among those, raising F least (ckm_part_move_cost: hard cannot-links and forbidden clusters
 * kept); at most one move per point of excess. count (k) is scratch and ends as the clusters'
 * points. false: stuck (no such move) with points still outside the rows. */
bool ckm_part_repair(const ckm_part *pt, int32_t *lab, size_t *count);

#endif
