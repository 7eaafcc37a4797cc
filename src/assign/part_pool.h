/*
 * part_pool.h -- the cut pool of a part's branch and cut (part_cuts.h): rows sum coef x <= rhs
 * over the part LP's columns, stored one after another, and the basis kept with them.
 */
#ifndef CKM_ASSIGN_PART_POOL_H
#define CKM_ASSIGN_PART_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Cuts of a part's LP, rows sum coef x_col <= rhs stored one after another (the columns of
 * part_cuts.c: y_ij at i k + j, then the soft edges in the order of the part's lists). They
 * depend on the part's groups and edges only, not on its costs a: a step whose part has the
 * same groups and edges (the next Lloyd step, no group fixed differently) starts from them. */
typedef struct ckm_part_pool {
    size_t n;
    size_t *start;      /* n + 1 */
    int32_t *col;
    double *coef;
    double *rhs, *viol; /* n; viol: scratch of the branch and cut */
    size_t scap, ccap, fcap, rcap, vcap;
    unsigned char *basis; /* the last LP's basis over the columns and basis_rows rows (0: none):
                             with the same rows and bounds it is primal feasible for the next
                             call's costs, whose first LP starts there by the primal simplex */
    size_t basis_rows, bascap;
} ckm_part_pool;

void ckm_part_pool_free(ckm_part_pool *pool);
/* Append the row sum coef x_col <= rhs (nz entries) with its violation viol. false: out of
 * memory. */
bool ckm_part_pool_add(ckm_part_pool *pool, size_t nz, const int32_t *col, const double *coef, double rhs,
                       double viol);

#endif
