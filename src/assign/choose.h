/*
 * choose.h -- the one place a route of the assignment step is picked (choose.c): the routes
 * in order of preference, each taken when its applies() says so, the full model last; a
 * caller may name one instead. The memory model asks the same chooser (ckm_assign_bytes).
 */
#ifndef CKM_ASSIGN_CHOOSE_H
#define CKM_ASSIGN_CHOOSE_H

#include "route.h"

/* What a caller needs of the steps. */
typedef struct ckm_assign_want {
    const char *route;  /* a route by name ("full", "restricted", "priced", "local"; tests and
                           comparisons), or NULL: the chooser's */
    bool lp;            /* the caller also solves LP relaxations (ckm_assign_lp: bckm) */
    bool centers;       /* the caller can give the step's centers instead of an s x k matrix
                           (squared distances), which routes with by_centers_from use past it */
} ckm_assign_want;

/* The route for r under w (NULL: no wishes): the named one when it exists and takes r, else
 * NULL; without a name the first in the list whose applies(r, w->lp) holds. */
const ckm_route *ckm_route_choose(const ckm_reduced *r, const ckm_assign_want *w);
/* Whether the steps on route take their costs from the centers: the caller allows it and
 * s k is past the route's by_centers_from. */
bool ckm_route_by_centers(const ckm_route *route, const ckm_reduced *r, const ckm_assign_want *w);
/* The route a step goes to when route hands it on: the first after route in the list whose
 * applies(r, false) holds (the full model at the latest). */
const ckm_route *ckm_route_after(const ckm_reduced *r, const ckm_route *route);
/* The routes in the chooser's order (*n of them, at most CKM_ROUTES_MAX). */
const ckm_route *const *ckm_routes(size_t *n);
#define CKM_ROUTES_MAX 8
/* route's place in that order (per-route counts of the steps; 0 for an unknown route). */
size_t ckm_route_index(const ckm_route *route);

#endif
