/*
 * fix.h -- the one reduced-cost fixing of the assignment step: the MILP of every route that
 * has a bound and reduced costs (full model with a fractional LP vertex, restricted model,
 * Lagrangian prices), proven for the whole model without building it.
 *
 * Bound. A route hands over a value z and reduced costs rc_tj such that every labelling l
 * keeping the step's rows costs
 *   cost(l) >= z + sum_t rc_{t, l(t)}^+ + sum_{(t, j): rc_tj < 0, l(t) != j} |rc_tj|
 * (the LP: z its value, rc = c - A'y with the final duals y, because y_i > 0 only on rows at
 * their lower bound and y_i < 0 only at their upper one; soft slacks' terms are >= 0 and
 * dropped; the prices: z = g(p), rc >= 0, assign's priced route proves it). So a labelling of
 * cost <= z + delta uses no column with rc > delta and every column with rc < -delta.
 * Rounds. On that column set a presolve fixes each group left with one column or a forced
 * one (its cannot-link partners lose that cluster, cascading; its weight and demand leave the
 * size and capacity rows; groups with soft pairs are never fixed, model.h), and CBC gets the
 * rest as a compact model (model.h). An optimum of cost <= z + delta there is the whole
 * model's. delta starts at 1e-8 (|z| + 1) and grows 4x, capped at the best labelling's excess
 * (the incumbent's, or one CBC found, which becomes CBC's next start): at the cap the
 * incumbent's columns are kept in and nothing is forced, so every labelling that could beat
 * it is in the set and CBC's verdict is proven. At a limit the better of CBC's labels and
 * the incumbent is returned, unproven. Tolerance: rc counts past delta by
 * tol_tj + 1e-9 |delta| (tol_tj the route's: its costs' rounding and its solver's scale).
 * Memory: the candidate columns (O(s + kept columns)), never s x k.
 */
#ifndef CKM_ASSIGN_FIX_H
#define CKM_ASSIGN_FIX_H

#include "route.h"

/* The step's costs and reduced costs as the route has them. */
typedef struct ckm_fix_src {
    const ckm_reduced *r;
    void *u;
    /* group t's k costs (*cost, valid until the next call), reduced costs and tolerances;
       passes ask for ascending t */
    void (*row)(void *u, size_t t, const double **cost, double *rc, double *tol);
    /* the step's objective of group labels */
    double (*total)(void *u, const int32_t *labels);
} ckm_fix_src;

/* A source over dense s x k arrays: rc_tj from rc, tol_tj = 1e-9 (1 + |cost_tj|). */
typedef struct ckm_fix_dense {
    const ckm_reduced *r;
    const double *cost, *rc;
} ckm_fix_dense;
ckm_fix_src ckm_fix_dense_src(ckm_fix_dense *d);

/* The rounds of the header from bound z and the feasible incumbent start (or NULL: delta then
 * grows until every column is in). labels (s) and res->status: OPTIMAL (proven), INFEASIBLE
 * (no labelling keeps the rows), LIMIT_FEASIBLE, LIMIT_NONE, FAILED; used_mip, mip_nodes and
 * stopped are added to res. */
ckm_error ckm_fix_rounds(const ckm_fix_src *src, double z, const int32_t *start, const ckm_bk_limits *lim,
                         int32_t *labels, ckm_assign_result *res, ckm_err *err);

/* A labelling to start from: the LP on the columns with rc <= delta (the others' groups fixed
 * by the presolve), delta from 1e-5 (|z| + 1), 4x until that LP is feasible (at most 8
 * tries), its point rounded (each open group at its largest value; a basic point splits at
 * most k + m groups). It may break size and capacity rows: the caller repairs it. false when
 * no LP was feasible or memory ran out (lab is then scratch). */
bool ckm_fix_lp_guess(const ckm_fix_src *src, double z, const ckm_bk_limits *lim, int32_t *lab);

#endif
