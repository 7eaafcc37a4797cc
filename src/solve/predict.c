/*
 * predict.c -- ckm_predict: the points of a problem assigned to fixed centers under every
 * hard constraint (the "predict" of constrained k-means, and of capacitated clustering:
 * docs/capacities.md), and ckm_assign_to_centers, the 0.2 entry kept for binary
 * compatibility, on top of it.
 *   min sum_t cost_tj y_tj,  cost_tj = W_t ||m_t - c_j||^2  (groups t: must-link components,
 *   W_t their mass, m_t their weighted mean; sum_{i in t} w_i ||x_i - c_j||^2 = cost_tj + q_t)
 * subject to the rows of src/assign (one cluster per group, size bounds, cannot-links,
 * capacities). Without pairs, capacities or sample weights the groups are the points and the
 * rows are the transportation problem's: its own solver from the points (src/transport,
 * to_centers.h), certified by prices; otherwise the assignment step on its chooser's route.
 * Preprocessing's proofs (ckm_reduce) come first; the labels, expanded to points, pass
 * ckm_check before they are returned, and the objective is recomputed from them.
 * Cost: the transportation route O(n k d) per pricing pass; the other the s x k costs (one
 * blocked dgemm) and the step.
 */
#include "assign.h"
#include "objective.h"
#include "problem_impl.h"
#include "solve.h"
#include "to_centers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_prediction_free(ckm_prediction *r)
{
    if (!r)
        return;
    free(r->labels);
    free(r->prices);
    free(r);
}

/* sum_i w_i ||x_i - c_l(i)||^2 in data units, from the point labels */
static double objective_of(const ckm_problem *p, const double *C, const int32_t *labels)
{
    double f = 0.0;
    for (size_t i = 0; i < p->n; i++)
        f += (p->w ? p->w[i] : 1.0) * ckm_sqdist(p->X + i * p->d, C + (size_t)labels[i] * p->d, p->d);
    return f;
}

/* The transportation route (no pairs, capacities or weights: the groups are the points). */
static ckm_error by_transport(const ckm_problem *p, const double *C, const ckm_settings *s, const ckm_bk_limits *lim,
                              ckm_prediction *r, ckm_err *err)
{
    snprintf(r->route, sizeof r->route, "transport");
    if (!(r->prices = ckm_alloc_array(p->k, sizeof(double))))
        return ckm_fail(err, CKM_ERR_NOMEM, "predict: out of memory");
    int infeasible = 0;
    bool stopped = false;
    double f = 0.0;
    ckm_error rc = ckm_transport_to_centers(p->X, p->n, p->d, C, p->k, p->lo, p->hi, s->threads, lim, r->labels,
                                            r->prices, &f, &infeasible, &stopped, err);
    if (rc != CKM_OK || infeasible || stopped) {
        free(r->prices);
        r->prices = NULL;
        r->status = infeasible ? CKM_STATUS_INFEASIBLE : ckm_bk_limit_hit(lim) == 2 ? CKM_STATUS_INTERRUPTED
                                                                                      : CKM_STATUS_TIME_LIMIT;
        size_t sum_lo = 0, sum_hi = 0;
        ckm_bound_sums(p->lo, p->hi, p->k, &sum_lo, &sum_hi);
        if (infeasible)
            snprintf(r->message, sizeof r->message, "the size bounds cannot hold the %zu points: the sum of minimums is "
                     "%zu, of maximums %zu", p->n, sum_lo, sum_hi);
        else
            snprintf(r->message, sizeof r->message, "stopped before a labelling was found");
        return rc;
    }
    r->status = CKM_STATUS_OPTIMAL;
    r->has_labels = 1;
    r->lower_bound = f;
    return CKM_OK;
}

/* The assignment step on r's groups (route: a name, or NULL for the chooser's): the costs,
 * the memory check, the step; group labels into lab. */
static ckm_error by_step(const ckm_reduced *rd, const double *C, const ckm_settings *s, const ckm_bk_limits *lim,
                         const char *route, int32_t *lab, ckm_assign_result *res, ckm_prediction *r, ckm_err *err)
{
    size_t sk;
    ckm_assign_want want = {.route = route, .lp = false, .centers = false};
    if (!ckm_mul_ok(rd->s, rd->k, &sk))
        return ckm_fail(err, CKM_ERR_NOMEM, "predict: %zu groups x %zu clusters overflows", rd->s, rd->k);
    double need = (double)sk * 8.0 + ckm_assign_bytes(rd, &want), have = ckm_memory_available();
    if (have >= 0.0 && need > have)
        return ckm_fail(err, CKM_ERR_NOMEM,
                        "assignment to centers would need about %.0f MB for %zu groups x %zu clusters, %zu lifted "
                        "cannot-links (memory model: docs/memory.md), but only %.0f MB are available",
                        need / 1048576.0, rd->s, rd->k, rd->n_cl, have / 1048576.0);
    double *cost = ckm_alloc_array(sk, sizeof(double));
    if (!cost)
        return ckm_fail(err, CKM_ERR_NOMEM, "predict: out of memory for the %zu x %zu costs", rd->s, rd->k);
    ckm_error rc = ckm_sqdist_matrix(rd->mean, rd->s, rd->d, C, rd->k, cost, s->threads, err);
    for (size_t t = 0; rc == CKM_OK && t < rd->s; t++)
        for (size_t j = 0; j < rd->k; j++)
            cost[t * rd->k + j] *= rd->mass[t];
    ckm_assign a;
    if (rc == CKM_OK && (rc = ckm_assign_init(&a, rd, &want, err)) == CKM_OK) {
        snprintf(r->route, sizeof r->route, "%s", a.route->name);
        rc = ckm_assign_solve(&a, cost, NULL, lim, lab, res, err);
        ckm_assign_free(&a);
    }
    free(cost);
    return rc;
}

/* The step's outcome as the prediction's status; true when it has labels. */
static bool step_outcome(const ckm_assign_result *res, ckm_prediction *r)
{
    r->status = res->status == CKM_BK_OPTIMAL ? CKM_STATUS_OPTIMAL
                : res->status == CKM_BK_INFEASIBLE ? CKM_STATUS_INFEASIBLE
                : res->stopped                     ? CKM_STATUS_INTERRUPTED
                                                   : CKM_STATUS_TIME_LIMIT;
    if (res->status == CKM_BK_INFEASIBLE)
        snprintf(r->message, sizeof r->message, "no labelling meets the constraints (proven by the assignment model)");
    else if (res->status == CKM_BK_LIMIT_NONE)
        snprintf(r->message, sizeof r->message, "stopped before a labelling was found");
    else if (res->status == CKM_BK_LIMIT_FEASIBLE)
        snprintf(r->message, sizeof r->message, "a limit ended the solve: the best labelling found, not proven optimal");
    if (res->has_bound && res->status == CKM_BK_LIMIT_FEASIBLE)
        r->lower_bound = res->bound;
    return res->status == CKM_BK_OPTIMAL || res->status == CKM_BK_LIMIT_FEASIBLE;
}

/* Every route but the transportation one: preprocessing, the step, the labels expanded. */
static ckm_error by_route(const ckm_problem *p, const double *C, const ckm_settings *s, const ckm_bk_limits *lim,
                          const char *route, ckm_prediction *r, ckm_err *err)
{
    ckm_reduced *rd = NULL;
    int infeasible = 0;
    ckm_error rc = ckm_reduce(p, &rd, &infeasible, r->message, sizeof r->message, err);
    int32_t *lab = NULL;
    if (rc != CKM_OK || infeasible) {
        r->status = CKM_STATUS_INFEASIBLE;
        goto done;
    }
    if (!(lab = ckm_alloc_array(rd->s, sizeof(int32_t)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "predict: out of memory");
        goto done;
    }
    ckm_assign_result res;
    if ((rc = by_step(rd, C, s, lim, route, lab, &res, r, err)) != CKM_OK)
        goto done;
    if (res.status == CKM_BK_FAILED) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "predict: the LP/MILP solver failed");
        goto done;
    }
    if (step_outcome(&res, r)) {
        for (size_t i = 0; i < p->n; i++)
            r->labels[i] = lab[rd->comp[i]];
        r->has_labels = 1;
    }
done:
    free(lab);
    ckm_reduced_free(rd);
    return rc;
}

/* The labels through the independent checker (a violation is a bug), the objective
 * recomputed from them, and an optimum its own bound. */
static ckm_error checked(const ckm_problem *p, const double *C, ckm_prediction *r, ckm_err *err)
{
    ckm_check_report *chk = NULL;
    ckm_error rc = ckm_check(p, r->labels, &chk, err);
    if (rc != CKM_OK)
        return rc;
    size_t bad = chk->count;
    ckm_check_report_free(chk);
    if (bad > 0)
        return ckm_fail(err, CKM_ERR_INTERNAL, "predict: the labels violate %zu constraint(s): this is a bug", bad);
    r->objective = objective_of(p, C, r->labels);
    if (r->status == CKM_STATUS_OPTIMAL)
        r->lower_bound = r->objective;
    return CKM_OK;
}

/* ckm_predict on a given route (NULL: the transportation solver where it applies, else the
 * assignment step's chooser). */
static ckm_error predict(const ckm_problem *p, const double *centers, const ckm_settings *s_in, const char *route,
                         ckm_prediction **out, ckm_err *err)
{
    *out = NULL;
    ckm_settings s;
    double t0 = ckm_now();
    ckm_error rc = ckm_read_settings(s_in, &s, err);
    if (rc != CKM_OK)
        return rc;
    for (size_t q = 0; q < p->k * p->d; q++)
        if (!isfinite(centers[q]))
            return ckm_fail(err, CKM_ERR_INVALID, "center %zu, feature %zu is not finite", q / p->d, q % p->d);
    if (p->n_soft > 0)
        return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                        "assignment to centers takes hard constraints only; the problem has %zu soft pairs", p->n_soft);
    ckm_prediction *r = calloc(1, sizeof *r);
    if (!r || !(r->labels = ckm_alloc_array(p->n, sizeof(int32_t)))) {
        ckm_prediction_free(r);
        return ckm_fail(err, CKM_ERR_NOMEM, "predict: out of memory for %zu labels", p->n);
    }
    r->struct_size = sizeof *r;
    r->objective = NAN;
    r->lower_bound = -INFINITY;
    ckm_stop_chain chain;
    ckm_stop_chain_install(&s, &chain);
    ckm_bk_limits lim = {s.time_limit_s > 0.0 ? ckm_now() + s.time_limit_s : INFINITY, s.should_stop, s.stop_user};
    bool transport = !route && p->n_ml == 0 && p->n_cl == 0 && !p->w && !ckm_problem_has_capacities(p);
    rc = transport ? by_transport(p, centers, &s, &lim, r, err) : by_route(p, centers, &s, &lim, route, r, err);
    if (rc == CKM_OK && r->has_labels)
        rc = checked(p, centers, r, err);
    r->seconds = ckm_now() - t0;
    if (rc != CKM_OK) {
        ckm_prediction_free(r);
        return rc;
    }
    if (!r->has_labels) {
        free(r->labels);
        r->labels = NULL;
    }
    *out = r;
    return CKM_OK;
}

ckm_error ckm_predict(const ckm_problem *p, const double *centers, const ckm_settings *s, ckm_prediction **out,
                      ckm_err *err)
{
    return predict(p, centers, s, NULL, out, err);
}

/* ckm_assign_to_centers' own arguments (the problem checks the rest). */
static ckm_error check_plain(size_t n, size_t d, size_t k, const size_t *lo, const size_t *hi, ckm_assign_method method,
                             ckm_err *err)
{
    if (n == 0 || d == 0 || k == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "assignment needs n, d, k >= 1 (got %zu, %zu, %zu)", n, d, k);
    if ((lo == NULL) != (hi == NULL))
        return ckm_fail(err, CKM_ERR_INVALID, "give both lo and hi, or neither");
    if (method != CKM_ASSIGN_AUTO && method != CKM_ASSIGN_TRANSPORT && method != CKM_ASSIGN_LP)
        return ckm_fail(err, CKM_ERR_INVALID, "unknown assignment method %d", (int)method);
    for (size_t j = 0; lo && j < k; j++)
        if (lo[j] > hi[j])
            return ckm_fail(err, CKM_ERR_INVALID, "size bounds of cluster %zu: minimum %zu > maximum %zu", j, lo[j],
                            hi[j]);
    return CKM_OK;
}

ckm_error ckm_assign_to_centers(const double *X, size_t n, size_t d, const double *centers, size_t k, const size_t *lo,
                                const size_t *hi, ckm_assign_method method, int32_t *labels, double *objective,
                                double *prices, ckm_status *status, ckm_err *err)
{
    ckm_problem *p = NULL;
    ckm_prediction *r = NULL;
    ckm_error rc = check_plain(n, d, k, lo, hi, method, err);
    if (rc == CKM_OK && (rc = ckm_problem_wrap(X, n, d, k, &p, err)) == CKM_OK)
        rc = lo ? ckm_problem_set_sizes(p, lo, hi, err) : ckm_problem_set_size_range(p, 0, n, err);
    if (rc == CKM_OK)
        rc = predict(p, centers, NULL, method == CKM_ASSIGN_LP ? "full" : NULL, &r, err);
    if (rc == CKM_OK) {
        *status = r->status == CKM_STATUS_OPTIMAL ? CKM_STATUS_OPTIMAL : CKM_STATUS_INFEASIBLE;
        if (r->has_labels) {
            memcpy(labels, r->labels, n * sizeof(int32_t));
            if (objective)
                *objective = r->objective;
        }
        if (prices && r->has_labels) {
            if (r->prices)
                memcpy(prices, r->prices, k * sizeof(double));
            else
                memset(prices, 0, k * sizeof(double));
        }
    }
    ckm_prediction_free(r);
    ckm_problem_free(p);
    return rc;
}

