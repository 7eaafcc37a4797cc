/*
 * part_tabu.h -- a tabu search of single moves on one part of a split assignment step
 * (split_search.h's ckm_part): labellings for the branch and cut (part_cuts.c) to prune with,
 * where the LP's roundings improved by single moves stop at a local optimum.
 *   F(l) = sum_i a_{i, l_i} + sum_edges cost_e(l)  (split_search.h)
 * A move puts one group i in another cluster j, allowed when a_ij is finite and no hard
 * cannot-link neighbour of i is in j; it changes F by g_ij - g_{i, l_i}, where
 *   g_ij = a_ij + sum over i's soft edges of their cost with i in j
 * (the edges not at i keep their cost). Each iteration takes the allowed move of least change
 * (ties: the lowest i, then j), even when it raises F, except moves of a group that moved in
 * the last `tenure` iterations (tabu) unless they reach an F below the best so far
 * (aspiration); tenure = m / 10 + 5 plus a draw in [0, m / 20 + 5), at most m - 1 (Glover's
 * one-flip tabu search for quadratic 0/1 problems, "Tabu search - part I", ORSA J. Computing 1
 * (1989); the k-label form moves a group between clusters). The best move of each group is
 * kept and refreshed for the moved group and its neighbours, so an iteration scans m groups.
 * Invariants: g, the hard counts and the best moves match the current labels after every move
 * (O(k) per edge at the moved group); the labelling returned never breaks a hard cannot-link
 * or takes a forbidden cluster, and its F, recomputed exactly by ckm_part_value, is at most
 * the start's (drift of the incremental F only decides which labelling is kept, never what
 * is reported).
 * Sized part (size rows, split_search.h): the search may leave the rows on the way
 * (strategic oscillation): a move's value is its change of F plus pen per point it puts
 * outside the rows (minus per point it brings back), pen = 1 + 2 max_i (spread of a_i + i's
 * penalties), so a move that brings points back beats every move that does not; only
 * labellings inside the rows become the best, and aspiration needs one. With exact sizes that
 * is a swap of two groups in two moves. Every group and cluster is scanned each iteration
 * (the excess of a move changes with every move): O(m k) an iteration.
 * Limits: a hard cannot-link is never broken on the way, so for k = 2 two linked groups never
 * trade clusters: on random parts with such links the search reached the optimum in 129 of
 * 208, without them in 175 of 179 (tests/internal/test_route_split.c); the branch and cut is
 * what proves.
 * Measured (bench/README.md "PCCC", "A tabu search for the incumbents"): over PCCC's noisy
 * protocol (264 runs) 23 runs end at a lower objective (0.1-8.5 %), 5 higher (at most 1.1 %);
 * circles at 15 %, l = 0.5 (parts of 259-300 groups, k = 2): 885.44 -> 873.82.
 */
#ifndef CKM_ASSIGN_PART_TABU_H
#define CKM_ASSIGN_PART_TABU_H

#include "split_search.h"

/* Iterations ckm_part_tabu takes on a part of m groups and k clusters: 100 m, at most 20,000,
 * and at most 2 x 10^7 / (m k) (about 4 ms a search at m = 200, k = 3: newthyroid's parts). */
size_t ckm_part_tabu_iterations(size_t m, size_t k);

/* Tabu search on part pt from lab (m labels with ckm_part_value(pt, lab) finite: inside a
 * sized part's rows) for at most
 * iters iterations, its tenures drawn from seed: lab gets the best labelling met, *value its F
 * (ckm_part_value). pt->a is not changed. false: out of memory (lab and *value untouched). */
bool ckm_part_tabu(const ckm_part *pt, size_t iters, uint64_t seed, int32_t *lab, double *value);

#endif
