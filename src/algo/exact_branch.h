/*
 * exact_branch.h -- the branching rule of the branch-and-cut (exact_branch.c; exact.c uses it).
 */
#ifndef CKM_EXACT_BRANCH_H
#define CKM_EXACT_BRANCH_H

#include "ckm.h"
#include "reduced.h"

/* The branching rule of PC-SOS-SDP (exact_branch.c): Z = D^{-1/2} X D^{-1/2} of the node's
 * solution Xhat; the branching pair (a < b) maximising min{Z_ab, ||Z_a. - Z_b.||^2}
 * (point-level rows: sum_c w_c (Z_ac - Z_bc)^2), over pairs that are not cannot-links; when
 * every score is 0, the pair with the largest Z_ab.
 * *pa == *pb (both 0) when every pair is a cannot-link. O(s^3). */
ckm_error ckm_exact_branch_pair(const ckm_reduced *r, const double *Xhat, size_t *pa, size_t *pb, ckm_err *err);

#endif
