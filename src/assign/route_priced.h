/*
 * route_priced.h -- what the priced route (route_priced.c) reports and when the chooser takes
 * it; the route itself is the object ckm_route_priced, which choose.c lists.
 */
#ifndef CKM_ASSIGN_ROUTE_PRICED_H
#define CKM_ASSIGN_ROUTE_PRICED_H

/* Capacity steps whose full model has at least this many nonzeros take the priced route
 * (at 10^5 groups, k = 50, CLP had not solved the first step's LP in 250 s). */
#define CKM_PRICED_FROM_NNZ 2.5e5

/* its statistics in ckm_assign_result.stat */
enum { CKM_PRICED_SWEEPS = 0 /* sweeps of the coordinate ascent */ };

#endif
