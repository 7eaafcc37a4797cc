/*
 * route_full.c -- the full route: the assignment model with every (group, cluster) column and
 * every row (model.h), built once per problem; each step solves its LP with CLP from the
 * argmin basis (model.h) and uses the vertex when it is integral (y within 1e-6 of 0 or 1).
 * A fractional vertex goes to reduced-cost fixing (fix.h) from the LP's value and duals when
 * the model has capacity rows (a generalized assignment problem: its LP is rarely integral,
 * and CBC on all s k columns did not prove one step of 2000 points, k = 10, loads within
 * +-5 % in 300 s), else to CBC on the whole model, warm-started from the caller's labels.
 * The model's rows do not depend on the costs, so an infeasible LP proves the clustering
 * problem infeasible.
 * Incumbent of the fixing: the cheapest of the caller's labels and the LP point rounded (each
 * group at its largest value) and repaired (cap_local.h), improved by moves and swaps;
 * without one the first step's rounds had no cap, and at 5000 points, k = 20 one round ran CBC
 * for 90 s.
 * Memory: CLP's copies of the model, about 190 bytes per nonzero and 175 per column, fitted
 * to the peak RSS of blpkm's LP steps (20,000 and 40,000 points, k = 50, 10^5 and 3 x 10^5
 * cannot-links: 2.2, 6.0 and 2.8 GB; this estimate is 4-11 % above them), and with capacities
 * the fixing's 25 bytes per (t, j).
 */
#include "cap_local.h"
#include "core.h"
#include "fix.h"
#include "incidence.h"
#include "model.h"
#include "route.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct full {
    ckm_model m;
    double *x, *start, *dual, *rc;
    unsigned char *basis;
    int32_t *guess, *best;
    size_t *inc_start, *inc; /* cannot-link incidence (capacity steps' local search) */
} full;

static void full_free(void *state)
{
    full *f = state;
    if (!f)
        return;
    ckm_model_free(&f->m);
    free(f->x);
    free(f->start);
    free(f->dual);
    free(f->rc);
    free(f->basis);
    free(f->guess);
    free(f->best);
    free(f->inc_start);
    free(f->inc);
    free(f);
}

/* The fixing route of a fractional vertex: capacities without soft pairs. */
static bool fixes(const ckm_reduced *r)
{
    return r->has_caps && r->n_soft == 0;
}

static ckm_error full_init(void **state, const ckm_reduced *r, ckm_err *err)
{
    full *f = calloc(1, sizeof *f);
    bool too_large = false;
    ckm_colset all = {NULL, NULL, NULL};
    *state = f;
    if (!f || !ckm_model_build(&f->m, r, &all, false, &too_large)) {
        if (too_large)
            return ckm_fail(err, CKM_ERR_INVALID,
                            "assignment model too large for the LP backend (%zu groups x %zu clusters, %zu "
                            "cannot-links, %zu soft pairs)",
                            r->s, r->k, r->n_cl, r->n_soft);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model");
    }
    size_t cols = f->m.cols, rows = f->m.rows, sk = r->s * r->k;
    f->x = ckm_alloc_array(cols, sizeof(double));
    f->start = ckm_alloc_array(cols, sizeof(double));
    f->dual = ckm_alloc_array(rows, sizeof(double));
    f->basis = ckm_alloc_array(cols + rows, 1);
    bool ok = f->x && f->start && f->dual && f->basis;
    if (ok && fixes(r)) {
        f->rc = ckm_alloc_array(sk, sizeof(double));
        f->guess = ckm_alloc_array(r->s, sizeof(int32_t));
        f->best = ckm_alloc_array(r->s, sizeof(int32_t));
        ok = f->rc && f->guess && f->best && ckm_incidence(r->s, r->n_cl, r->cl, &f->inc_start, &f->inc);
    }
    return ok ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model");
}

/* Labels from a 0/1 vector; false when some y is fractional. */
static bool integral_labels(const ckm_reduced *r, const double *x, int32_t *labels)
{
    size_t s = r->s, k = r->k;
    for (size_t t = 0; t < s; t++) {
        int32_t lab = -1;
        for (size_t j = 0; j < k; j++) {
            double v = x[t * k + j];
            if (v > 1e-6 && v < 1.0 - 1e-6)
                return false;
            if (v >= 0.5)
                lab = (int32_t)j;
        }
        if (lab < 0)
            return false;
        labels[t] = lab;
    }
    return true;
}

/* The LP from the argmin basis on the costs; *br its outcome (duals into f->dual when asked). */
static ckm_error relax(full *f, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim, double *x,
                       bool duals, ckm_bk_result *br, ckm_err *err)
{
    size_t ycols = r->s * r->k;
    memcpy(f->m.obj, cost, ycols * sizeof(double)); /* the soft slacks' costs are fixed */
    ckm_argmin_basis(cost, NULL, r->s, r->k, r->s, f->m.cols, f->m.rows, f->basis);
    ckm_lp lp = ckm_model_lp(&f->m, f->basis, NULL);
    return ckm_bk_lp(&lp, lim, x, duals ? f->dual : NULL, br, err);
}

/* The fixing of a fractional vertex (fix.h): reduced costs c - A'y of the y columns, the
 * incumbent (the caller's labels or the LP point rounded and repaired, improved by moves and
 * swaps), then the rounds. */
static ckm_error fix_vertex(full *f, const ckm_reduced *r, const double *cost, double z, const int32_t *start,
                            const ckm_bk_limits *lim, double budget_s, int32_t *labels, ckm_assign_result *res,
                            ckm_err *err)
{
    size_t s = r->s, k = r->k;
    for (size_t c = 0; c < s * k; c++) {
        double v = f->m.obj[c];
        for (int p = f->m.col_start[c]; p < f->m.col_start[c + 1]; p++)
            v -= f->m.value[p] * f->dual[f->m.row_index[p]];
        f->rc[c] = v;
    }
    for (size_t t = 0; t < s; t++) { /* each group at its largest LP value */
        size_t b = 0;
        for (size_t j = 1; j < k; j++)
            if (f->x[t * k + j] > f->x[t * k + b])
                b = j;
        f->guess[t] = (int32_t)b;
    }
    bool nomem = false;
    const int32_t *cand[] = {start, ckm_cap_repair(r, cost, f->inc_start, f->inc, f->guess) ? f->guess : NULL};
    bool have = ckm_cap_best(r, cost, f->inc_start, f->inc, cand, 2, lim, f->best, &res->local_moves, &nomem);
    if (nomem)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's local search");
    ckm_fix_dense d = {r, cost, f->rc};
    ckm_fix_src src = ckm_fix_dense_src(&d);
    ckm_bk_limits proof = ckm_proof_limits(lim, budget_s, have);
    return ckm_fix_rounds(&src, z, have ? f->best : NULL, &proof, labels, res, err);
}

/* CBC on the whole model, warm-started from the caller's feasible labels (then within the
 * proof's budget). */
static ckm_error whole_mip(full *f, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *run,
                           double budget_s, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    size_t k = r->k, ycols = r->s * k;
    if (start) {
        memset(f->start, 0, f->m.cols * sizeof(double));
        for (size_t t = 0; t < r->s; t++)
            f->start[t * k + (size_t)start[t]] = 1.0;
        for (size_t e = 0; e < r->n_soft; e++) { /* slack = violated */
            bool same = start[r->soft[2 * e]] == start[r->soft[2 * e + 1]];
            f->start[ycols + e] = same != (r->soft_w[e] > 0.0) ? 1.0 : 0.0;
        }
    }
    res->used_mip = 1;
    ckm_bk_result br;
    ckm_lp lp = ckm_model_lp(&f->m, f->basis, NULL);
    ckm_bk_limits lim = ckm_proof_limits(run, budget_s, start != NULL);
    ckm_error rc = ckm_bk_mip(&lp, &lim, start ? f->start : NULL, f->x, &br, err);
    if (rc != CKM_OK)
        return rc;
    res->status = br.status;
    res->stopped = br.stopped;
    res->mip_nodes = br.nodes;
    if ((br.status == CKM_BK_OPTIMAL || br.status == CKM_BK_LIMIT_FEASIBLE) && !integral_labels(r, f->x, labels))
        res->status = CKM_BK_FAILED;
    return CKM_OK;
}

static ckm_error full_solve(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                            const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    full *f = state;
    ckm_bk_result br;
    ckm_error rc = relax(f, r, c->cost, lim, f->x, fixes(r), &br, err);
    if (rc != CKM_OK)
        return rc;
    res->status = br.status;
    res->stopped = br.stopped;
    res->lp_solves = 1;
    if (br.status != CKM_BK_OPTIMAL || integral_labels(r, f->x, labels))
        return CKM_OK;
    if (fixes(r)) {
        res->used_mip = 1;
        res->has_bound = 1;
        res->bound = br.objective;
        return fix_vertex(f, r, c->cost, br.objective, start, lim, c->budget_s, labels, res, err);
    }
    return whole_mip(f, r, start, lim, c->budget_s, labels, res, err);
}

static ckm_error full_lp(void *state, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim, double *x,
                         ckm_bk_status *status, ckm_err *err)
{
    ckm_bk_result br;
    ckm_error rc = relax(state, r, cost, lim, x, false, &br, err);
    if (rc == CKM_OK)
        *status = br.status;
    return rc;
}

static double full_bytes(const ckm_reduced *r, bool by_centers)
{
    (void)by_centers;
    double cols = (double)r->s * (double)r->k + (double)r->n_soft;
    /* capacity steps' reduced-cost fixing: reduced costs, the fixing's column set (states,
       clusters, costs) and its compact model's columns, 25 bytes per (t, j) */
    double fix = fixes(r) ? 25.0 * (double)r->s * (double)r->k : 0.0;
    return 190.0 * ckm_model_full_nnz(r) + 175.0 * cols + fix;
}

static bool full_applies(const ckm_reduced *r, bool lp)
{
    (void)r;
    (void)lp;
    return true; /* the last resort: every problem */
}

static bool full_takes(const ckm_reduced *r)
{
    (void)r;
    return true;
}

const ckm_route ckm_route_full = {
    .name = "full",
    .applies = full_applies,
    .takes = full_takes,
    .bytes = full_bytes,
    .init = full_init,
    .solve = full_solve,
    .lp = full_lp,
    .free = full_free,
    .proves = true,
    .bound_name = "LP",
};
