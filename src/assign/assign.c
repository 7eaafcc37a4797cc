/*
 * assign.c -- see assign.h: the route's state behind one handle, and what every step shares
 * whatever the route (the caller's labels when a limit left none, the time, the objective
 * recomputed from the labels, the next route when one hands a step on).
 */
#include "assign.h"
#include "core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ckm_error ckm_assign_init(ckm_assign *a, const ckm_reduced *r, const ckm_assign_want *w, ckm_err *err)
{
    memset(a, 0, sizeof *a);
    a->r = r;
    a->route = ckm_route_choose(r, w);
    if (!a->route)
        return ckm_fail(err, CKM_ERR_INVALID, "the assignment route '%s' does not exist or cannot take this problem",
                        w && w->route ? w->route : "(none)");
    a->centers = ckm_route_by_centers(a->route, r, w);
    ckm_error rc = a->route->init(&a->state, r, err);
    if (rc != CKM_OK)
        ckm_assign_free(a);
    return rc;
}

void ckm_assign_free(ckm_assign *a)
{
    if (a->route)
        a->route->free(a->state);
    if (a->next)
        a->next->free(a->next_state);
    memset(a, 0, sizeof *a);
}

/* A step the route handed on (res->hand_on): the next route's, built at the first such step,
 * from the route's labels when they keep every hard row, else from the caller's start. */
static ckm_error hand_on(ckm_assign *a, const ckm_step_costs *c, const int32_t *start, const ckm_bk_limits *lim,
                         int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    if (!a->next) {
        const ckm_route *next = ckm_route_after(a->r, a->route);
        ckm_error rc = next->init(&a->next_state, a->r, err);
        if (rc != CKM_OK) {
            next->free(a->next_state);
            a->next_state = NULL;
            return rc;
        }
        a->next = next;
    }
    int32_t *from = res->hand_on_labels ? ckm_alloc_array(a->r->s, sizeof(int32_t)) : NULL;
    if (from)
        memcpy(from, labels, a->r->s * sizeof(int32_t));
    memset(res, 0, sizeof *res);
    res->route = a->next;
    ckm_error rc = a->next->solve(a->next_state, a->r, c, from ? from : start, lim, labels, res, err);
    free(from);
    return rc;
}

/* The step's objective of labels: the costs' (matrix, or the route's from the centers) and the
 * soft pairs' penalty. */
static double total(const ckm_assign *a, const ckm_step_costs *c, const int32_t *labels)
{
    return c->cost ? ckm_step_total(a->r, c->cost, labels) : a->route->total(a->state, a->r, labels);
}

/* The step on costs c, and what every route's result shares. */
static ckm_error step(ckm_assign *a, const ckm_step_costs *c, const int32_t *start, const ckm_bk_limits *lim,
                      int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    double t0 = ckm_now();
    memset(res, 0, sizeof *res);
    res->route = a->route;
    ckm_bk_limits none = ckm_bk_no_limits();
    ckm_error rc = a->route->solve(a->state, a->r, c, start, lim ? lim : &none, labels, res, err);
    if (rc == CKM_OK && res->hand_on)
        rc = hand_on(a, c, start, lim ? lim : &none, labels, res, err);
    if (rc != CKM_OK)
        return rc;
    if (res->status == CKM_BK_LIMIT_NONE && start) {
        memcpy(labels, start, a->r->s * sizeof(int32_t));
        res->status = CKM_BK_LIMIT_FEASIBLE;
    }
    res->seconds = ckm_now() - t0;
    if (res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE)
        res->objective = total(a, c, labels);
    /* a step cut by a limit never returns labels worse than the caller's, whatever the route
       (the restricted route with capacities and soft pairs once did: cap_local.c) */
    double f0;
    if (res->status == CKM_BK_LIMIT_FEASIBLE && start && (f0 = total(a, c, start)) < res->objective) {
        memcpy(labels, start, a->r->s * sizeof(int32_t));
        res->objective = f0;
    }
    return CKM_OK;
}

ckm_error ckm_assign_solve(ckm_assign *a, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                           int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    ckm_step_costs c = {cost, NULL, 1, a->budget_s};
    return step(a, &c, start, lim, labels, res, err);
}

ckm_error ckm_assign_solve_centers(ckm_assign *a, const double *C, int threads, const int32_t *start,
                                   const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    if (!a->route->total) {
        memset(res, 0, sizeof *res);
        return ckm_fail(err, CKM_ERR_INTERNAL, "assignment step from centers on the %s route", a->route->name);
    }
    ckm_step_costs c = {NULL, C, threads, a->budget_s};
    return step(a, &c, start, lim, labels, res, err);
}

ckm_error ckm_assign_lp(ckm_assign *a, const double *cost, const ckm_bk_limits *lim, double *x,
                        ckm_bk_status *status, ckm_err *err)
{
    if (!a->route->lp)
        return ckm_fail(err, CKM_ERR_INTERNAL, "the LP relaxation of an assignment step on the %s route",
                        a->route->name);
    return a->route->lp(a->state, a->r, cost, lim, x, status, err);
}

double ckm_assign_bytes(const ckm_reduced *r, const ckm_assign_want *w)
{
    const ckm_route *route = ckm_route_choose(r, w);
    if (!route)
        return 0.0;
    double own = route->bytes(r, ckm_route_by_centers(route, r, w));
    return own + (route->hands_on ? ckm_route_after(r, route)->bytes(r, false) : 0.0); /* both may live */
}

bool ckm_assign_by_centers(const ckm_reduced *r, const ckm_assign_want *w)
{
    return ckm_route_by_centers(ckm_route_choose(r, w), r, w);
}

void ckm_assign_describe(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len)
{
    int used = 0;
    buf[0] = '\0';
    if (res->has_bound)
        used = snprintf(buf, len, ", bound %.10g (%s), %.3g %% above it, %zu moves and swaps", res->bound,
                        res->route && res->route->bound_name ? res->route->bound_name : "LP",
                        100.0 * (res->objective - res->bound) / fmax(fabs(res->bound), 1e-300), res->local_moves);
    if (used >= 0 && (size_t)used < len && res->route && res->route->describe)
        res->route->describe(res, r, buf + used, len - (size_t)used);
}
