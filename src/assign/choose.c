/*
 * choose.c -- see choose.h. The list below is the only place that knows which routes exist
 * and in which order they are preferred: a route that suits a problem says so itself
 * (applies: its constraints and the model's size), so adding one is its file and one name
 * here. Order: the split route (soft pairs without capacities: the step split along its
 * pairs, each part searched; with size bounds up to 1000 groups one branch and cut with the
 * size rows; what it cannot prove goes to the next route that applies), the local route
 * (soft pairs on a model too large to build), the restricted model (large models: column
 * generation with a pricing proof), the priced route (large capacity steps: Lagrangian
 * prices), the full model (everything else, and every problem).
 */
#include "choose.h"

#include <string.h>

#define ROUTES(X) X(split) X(local) X(restricted) X(priced) X(full)

#define DECLARE(name) extern const ckm_route ckm_route_##name;
ROUTES(DECLARE)
#define ADDRESS(name) &ckm_route_##name,
static const ckm_route *const routes[] = {ROUTES(ADDRESS)};

const ckm_route *const *ckm_routes(size_t *n)
{
    *n = sizeof routes / sizeof routes[0];
    return routes;
}

const ckm_route *ckm_route_after(const ckm_reduced *r, const ckm_route *route)
{
    size_t n = sizeof routes / sizeof routes[0];
    for (size_t i = ckm_route_index(route) + 1; i < n; i++)
        if (routes[i]->applies(r, false))
            return routes[i];
    return routes[n - 1];
}

size_t ckm_route_index(const ckm_route *route)
{
    for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++)
        if (routes[i] == route)
            return i;
    return 0;
}

_Static_assert(sizeof routes / sizeof routes[0] <= CKM_ROUTES_MAX, "CKM_ROUTES_MAX too small");

const ckm_route *ckm_route_choose(const ckm_reduced *r, const ckm_assign_want *w)
{
    size_t n = sizeof routes / sizeof routes[0];
    for (size_t i = 0; i < n; i++) {
        if (w && w->route) {
            if (strcmp(w->route, routes[i]->name) == 0)
                return routes[i]->takes(r) ? routes[i] : NULL;
        } else if (routes[i]->applies(r, w && w->lp)) {
            return routes[i];
        }
    }
    return NULL;
}

bool ckm_route_by_centers(const ckm_route *route, const ckm_reduced *r, const ckm_assign_want *w)
{
    return w && w->centers && route && route->by_centers_from > 0 &&
           (double)r->s * (double)r->k > (double)route->by_centers_from;
}
