/*
 * assign_problem.c -- ckm_assign_problem: the points of a problem assigned to fixed centers
 * under every hard constraint (the "predict" of constrained k-means, and of capacitated
 * clustering: docs/capacities.md):
 *   min sum_t cost_tj y_tj,  cost_tj = W_t ||m_t - c_j||^2  (groups t: must-link components,
 *   W_t their mass, m_t their weighted mean; sum_{i in t} w_i ||x_i - c_j||^2 = cost_tj + q_t)
 * subject to the rows of assign.h: one cluster per group, size bounds, cannot-links and
 * capacity bounds; solved by ckm_assign_solve (CLP, CBC when the LP vertex is fractional; the
 * restricted model with its pricing proof when the full one is large). Preprocessing's
 * proofs (ckm_reduce) come first; the labels, expanded to points, pass ckm_check before they
 * are returned, and the objective is recomputed from them in data units.
 * Cost: the s x k costs (one blocked dgemm) and the step.
 */
#include "solve.h"
#include "assign.h"
#include "objective.h"
#include "problem_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void say(char *message, size_t len, const char *text)
{
    if (message && len)
        snprintf(message, len, "%s", text);
}

/* sum_i w_i ||x_i - c_l(i)||^2 in data units, from the point labels */
static double objective_of(const ckm_problem *p, const double *C, const int32_t *labels)
{
    double f = 0.0;
    for (size_t i = 0; i < p->n; i++) {
        f += (p->w ? p->w[i] : 1.0) * ckm_sqdist(p->X + i * p->d, C + (size_t)labels[i] * p->d, p->d);
    }
    return f;
}

/* The step on r's groups: costs, model, solve; group labels into lab, *st its outcome. */
static ckm_error step(const ckm_reduced *r, const double *C, const ckm_settings *s, const ckm_bk_limits *lim,
                      int32_t *lab, ckm_assign_result *res, ckm_err *err)
{
    size_t sk;
    if (!ckm_mul_ok(r->s, r->k, &sk))
        return ckm_fail(err, CKM_ERR_NOMEM, "assignment: %zu groups x %zu clusters overflows", r->s, r->k);
    double need = (double)sk * 8.0 + ckm_assign_bytes(r, NULL), have = ckm_memory_available();
    if (have >= 0.0 && need > have)
        return ckm_fail(err, CKM_ERR_NOMEM,
                        "assignment to centers would need about %.0f MB for %zu groups x %zu clusters, %zu lifted "
                        "cannot-links (memory model: docs/memory.md), but only %.0f MB are available",
                        need / 1048576.0, r->s, r->k, r->n_cl, have / 1048576.0);
    double *cost = ckm_alloc_array(sk, sizeof(double));
    if (!cost)
        return ckm_fail(err, CKM_ERR_NOMEM, "assignment: out of memory for the %zu x %zu costs", r->s, r->k);
    ckm_error rc = ckm_sqdist_matrix(r->mean, r->s, r->d, C, r->k, cost, s->threads, err);
    for (size_t t = 0; rc == CKM_OK && t < r->s; t++)
        for (size_t j = 0; j < r->k; j++)
            cost[t * r->k + j] *= r->mass[t];
    ckm_assign a;
    if (rc == CKM_OK && (rc = ckm_assign_init(&a, r, NULL, err)) == CKM_OK) {
        rc = ckm_assign_solve(&a, cost, NULL, lim, lab, res, err);
        ckm_assign_free(&a);
    }
    free(cost);
    return rc;
}

ckm_error ckm_assign_problem(const ckm_problem *p, const double *centers, const ckm_settings *s_in, int32_t *labels,
                             double *objective, int *has_labels, ckm_status *status, char *message,
                             size_t message_len, ckm_err *err)
{
    *has_labels = 0;
    *status = CKM_STATUS_INFEASIBLE;
    *objective = NAN;
    say(message, message_len, "");
    ckm_settings s;
    ckm_error rc = ckm_read_settings(s_in, &s, err);
    if (rc != CKM_OK)
        return rc;
    for (size_t q = 0; q < p->k * p->d; q++)
        if (!isfinite(centers[q]))
            return ckm_fail(err, CKM_ERR_INVALID, "center %zu, feature %zu is not finite", q / p->d, q % p->d);
    if (p->n_soft > 0)
        return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                        "assignment to centers takes hard constraints only; the problem has %zu soft pairs", p->n_soft);
    ckm_stop_chain chain = {s.interrupt, s.should_stop, s.stop_user};
    ckm_bk_limits lim = {s.time_limit_s > 0.0 ? ckm_now() + s.time_limit_s : INFINITY,
                         s.interrupt ? ckm_chained_stop : s.should_stop, s.interrupt ? (void *)&chain : s.stop_user};
    ckm_reduced *r = NULL;
    int infeasible = 0;
    char reason[CKM_MESSAGE_LEN];
    if ((rc = ckm_reduce(p, &r, &infeasible, reason, sizeof reason, err)) != CKM_OK)
        return rc;
    int32_t *lab = NULL;
    if (infeasible) {
        say(message, message_len, reason);
        goto done;
    }
    if (!(lab = ckm_alloc_array(r->s, sizeof(int32_t)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "assignment: out of memory");
        goto done;
    }
    ckm_assign_result res;
    if ((rc = step(r, centers, &s, &lim, lab, &res, err)) != CKM_OK)
        goto done;
    bool have = res.status == CKM_BK_OPTIMAL || res.status == CKM_BK_LIMIT_FEASIBLE;
    if (res.status == CKM_BK_INFEASIBLE) {
        say(message, message_len, "no labelling meets the constraints (proven by the assignment model)");
        goto done;
    }
    *status = res.status == CKM_BK_OPTIMAL ? CKM_STATUS_OPTIMAL
              : res.stopped                 ? CKM_STATUS_INTERRUPTED
                                            : CKM_STATUS_TIME_LIMIT;
    if (res.status == CKM_BK_FAILED) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "assignment: the LP/MILP solver failed");
        goto done;
    }
    if (!have) {
        say(message, message_len, "stopped before a labelling was found");
        goto done;
    }
    for (size_t i = 0; i < p->n; i++)
        labels[i] = lab[r->comp[i]];
    ckm_check_report *chk = NULL;
    if ((rc = ckm_check(p, labels, &chk, err)) != CKM_OK)
        goto done;
    size_t bad = chk->count;
    ckm_check_report_free(chk);
    if (bad > 0) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "assignment: the labels violate %zu constraint(s): this is a bug", bad);
        goto done;
    }
    *has_labels = 1;
    *objective = objective_of(p, centers, labels);
    if (res.status != CKM_BK_OPTIMAL)
        say(message, message_len, "a limit ended the solve: the best labelling found, not proven optimal");
done:
    free(lab);
    ckm_reduced_free(r);
    return rc;
}
