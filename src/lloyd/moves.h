/*
 * moves.h -- one-group moves (Hartigan's rule) on a labelling of super-points (moves.c).
 */
#ifndef CKM_MOVES_H
#define CKM_MOVES_H

#include "reduced.h"

#include <stdint.h>

/* Improve the group labelling `labels` (r->s entries in [0, k)) by moving one group at a time
 * to the cluster that lowers the SSE most, until no move lowers it by more than a relative
 * 1e-12 or max_passes passes over the groups have run; a move never empties a cluster and
 * never puts a group beside one of its lifted cannot-link partners (r->cl). Size bounds,
 * capacities and soft pairs are not looked at: call it only where they do not apply.
 * Returns the number of moves, or -1 on allocation failure (labels unchanged then). */
long ckm_group_moves(const ckm_reduced *r, int32_t *labels, int max_passes);

#endif
