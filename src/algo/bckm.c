/*
 * bckm.c -- BCKM (Le, Eriksson, Do & Milford 2018, Algorithms 1 and 2) on must-link groups.
 *   outer   C = X S^T (S S^T + lambda I)^-1, lambda = 1e-4: for a 0/1 assignment S this is
 *           c_j = (sum of cluster j's points) / (|C_j| + lambda); stop when
 *           ||C - C_prev||_F^2 <= eps_c (1e-10 (1 + ||C||_F^2)) or max_iter (default: its row in registry.c)
 *   inner   Y_tj = w_t ||m_t - c_j||^2; V = S; rho+ = rho- = rho0 = 0.5 elementwise; repeat
 *           (13) S = argmin <Y, S> + sum rho+ [S - V]^- + rho- [V - S]^-  over 0 <= S <= 1,
 *                S in Omega (one cluster per group, size bounds, cannot-links, and the
 *                capacity rows L_j <= sum_t Q_t S_tj <= U_j when set: the paper's linear
 *                constraints, of which these are more). For binary V
 *                the penalty is exactly rho+ (1 - S) where V = 1 and rho- S where V = 0 (as
 *                0 <= S <= 1), so the gamma variables of (13) are eliminated and (13) is the
 *                LP of assign.h with costs Y - rho+ [V = 1] + rho- [V = 0] (scaled by w_t
 *                per group: every member carries its own penalty);
 *           (15) V_tj = 0 if rho-_tj S_tj <= rho+_tj (1 - S_tj), else 1;
 *           (16) rho- *= kappa where V = 0, rho+ *= kappa where V = 1 (kappa = 1.1);
 *           until ||S - S_prev||^2 + ||V - V_prev||^2 <= eps_s (1e-9) or 100 rounds.
 *   guard   the paper's rule can stall on a half-integral vertex (S stays at 0.5 while V
 *           flips, e.g. cannot-link triangles whose points prefer one cluster). Whenever
 *           the final V is not a labelling that satisfies every constraint, the step is
 *           finished by the exact assignment (CLP, then CBC) with costs Y and counted. With
 *           capacities the LP is rarely integral and this step (src/assign/fix.c, under the
 *           step limit, blp_lloyd.c) decides most outer iterations.
 *   init    unconstrained k-means on the groups (greedy k-means++ seeds, Lloyd to a fixed
 *           point), as the paper initialises from k-means; with bounds that differ between
 *           clusters its centers are matched to the size slots (centers.h) and relabelled.
 *   restarts n_init, seeded (seed, r); lowest SSE wins.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BCKM_LAMBDA 1e-4
#define BCKM_RHO0 0.5
#define BCKM_KAPPA 1.1
#define BCKM_INNER 100

typedef struct bckm_ws {
    const ckm_context *ctx;
    const ckm_reduced *r;
    size_t stalls, inner_total, steps; /* over all restarts, for the message */
    double *C, *Cprev, *wsum, *Y, *cost, *S, *Sprev, *V, *Vprev, *rp, *rm;
    int32_t *lab, *best_lab;
    ckm_assign asg;
    ckm_seeder seeder;
} bckm_ws;

/* c_j = sum_{l(t)=j} w_t m_t / (sum_{l(t)=j} w_t + lambda) */
static void regularized_centers(const ckm_reduced *r, const int32_t *lab, double *C, double *wsum)
{
    size_t d = r->d, k = r->k;
    memset(C, 0, k * d * sizeof(double));
    memset(wsum, 0, k * sizeof(double));
    for (size_t t = 0; t < r->s; t++) {
        size_t j = (size_t)lab[t];
        double w = r->mass[t];
        wsum[j] += w;
        for (size_t f = 0; f < d; f++)
            C[j * d + f] += w * r->mean[t * d + f];
    }
    for (size_t j = 0; j < k; j++)
        for (size_t f = 0; f < d; f++)
            C[j * d + f] /= wsum[j] + BCKM_LAMBDA;
}

/* V as a labelling, if it is one and it satisfies every constraint. */
static bool v_labelling(const ckm_reduced *r, const double *V, double *wsum, int32_t *lab)
{
    size_t k = r->k;
    for (size_t t = 0; t < r->s; t++) {
        int ones = 0;
        for (size_t j = 0; j < k; j++)
            if (V[t * k + j] > 0.5) {
                ones++;
                lab[t] = (int32_t)j;
            }
        if (ones != 1)
            return false;
    }
    return ckm_group_labels_feasible(r, lab, wsum);
}

static double sqdiff(const double *a, const double *b, size_t m)
{
    double s = 0.0;
    for (size_t q = 0; q < m; q++)
        s += (a[q] - b[q]) * (a[q] - b[q]);
    return s;
}

static void ws_free(bckm_ws *w)
{
    double *arrs[] = {w->C, w->Cprev, w->wsum, w->Y, w->cost, w->S, w->Sprev, w->V, w->Vprev, w->rp, w->rm};
    for (size_t q = 0; q < sizeof arrs / sizeof arrs[0]; q++)
        free(arrs[q]);
    free(w->lab);
    free(w->best_lab);
    ckm_assign_free(&w->asg);
    ckm_seeder_free(&w->seeder);
}

/* Algorithm 2 (the LP / penalty alternation) from S = V = the current labels, against the
 * costs w->Y: until S and V stop moving, BCKM_INNER rounds, or an LP that is not optimal
 * (a limit or numerical trouble: the exact step decides). Returns the rounds it took, or -1
 * with *infeasible when CLP proves the model's relaxation infeasible. */
static int lp_rounds(bckm_ws *w, bool *infeasible, ckm_error *rc, ckm_err *err)
{
    const ckm_context *ctx = w->ctx;
    const ckm_reduced *r = w->r;
    size_t s = r->s, k = r->k, sk = s * k;
    for (size_t q = 0; q < sk; q++) {
        w->V[q] = 0.0;
        w->rp[q] = w->rm[q] = BCKM_RHO0;
    }
    for (size_t t = 0; t < s; t++)
        w->V[t * k + (size_t)w->lab[t]] = 1.0;
    memcpy(w->S, w->V, sk * sizeof(double));
    int inner = 0;
    for (; inner < BCKM_INNER; inner++) {
        memcpy(w->Sprev, w->S, sk * sizeof(double));
        memcpy(w->Vprev, w->V, sk * sizeof(double));
        for (size_t t = 0; t < s; t++)
            for (size_t j = 0; j < k; j++) {
                size_t q = t * k + j;
                w->cost[q] = w->Y[q] + r->mass[t] * (w->V[q] > 0.5 ? -w->rp[q] : w->rm[q]);
            }
        ckm_bk_limits lim = {ctx->deadline, ctx->s->should_stop, ctx->s->stop_user};
        ckm_bk_status bs;
        ckm_ctx_count(ctx, CKM_COUNT_LP, 1);
        if ((*rc = ckm_assign_lp(&w->asg, w->cost, &lim, w->S, &bs, err)) != CKM_OK)
            return -1;
        if (bs == CKM_BK_INFEASIBLE) {
            *infeasible = true;
            return -1;
        }
        if (bs != CKM_BK_OPTIMAL)
            break; /* time limit or numerical trouble: the exact step below decides */
        for (size_t q = 0; q < sk; q++) {
            w->V[q] = w->rm[q] * w->S[q] <= w->rp[q] * (1.0 - w->S[q]) ? 0.0 : 1.0; /* (15) */
            if (w->V[q] > 0.5)                                                     /* (16) */
                w->rp[q] *= BCKM_KAPPA;
            else
                w->rm[q] *= BCKM_KAPPA;
        }
        if (sqdiff(w->S, w->Sprev, sk) + sqdiff(w->V, w->Vprev, sk) <= 1e-9)
            break;
    }
    return inner;
}

/* One restart: k-means seeds (matched to the size slots), then outer iterations of
 * Algorithm 2 until the regularised centers settle or max_iter. */
static ckm_error restart(void *self, ckm_restart *rt, ckm_algo_out *out, ckm_err *err)
{
    bckm_ws *w = self;
    const ckm_context *ctx = w->ctx;
    const ckm_reduced *r = w->r;
    size_t s = r->s, d = r->d, k = r->k;
    ckm_error rc = CKM_OK;
    ckm_seed_start(ctx, &w->seeder, ctx->s->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP, &rt->rng,
                   w->C);
    ckm_group_lloyd(r, w->C, w->wsum, w->lab); /* S(0): may violate constraints; only a start */
    if (r->has_sizes) { /* match the k-means clusters to the size slots, then relabel */
        if (!ctx->init_centers && (rc = ckm_order_centers_by_size(r, w->C, err)) != CKM_OK)
            return rc;
        ckm_group_lloyd(r, w->C, w->wsum, w->lab);
    }
    bool have = false; /* w->lab holds a feasible labelling */
    int it = 0;
    for (; it < ctx->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &rt->why)) {
            rt->stopped = true;
            break;
        }
        memcpy(w->Cprev, w->C, k * d * sizeof(double));
        regularized_centers(r, w->lab, w->C, w->wsum);
        for (size_t t = 0; t < s; t++)
            for (size_t j = 0; j < k; j++)
                w->Y[t * k + j] = r->mass[t] * ckm_sqdist(r->mean + t * d, w->C + j * d, d);
        bool infeasible = false;
        int inner = lp_rounds(w, &infeasible, &rc, err);
        if (rc != CKM_OK)
            return rc;
        if (infeasible) {
            out->status = CKM_STATUS_INFEASIBLE;
            snprintf(out->message, sizeof out->message,
                     "no labelling satisfies the constraints: the LP relaxation of the assignment "
                     "model is infeasible (proved by CLP)");
            rt->end = true;
            return CKM_OK;
        }
        w->inner_total += (size_t)inner + 1;
        w->steps++;
        if (!v_labelling(r, w->V, w->wsum, w->lab)) {
            /* the stall guard: finish this assignment exactly */
            w->stalls++;
            ckm_ctx_count(ctx, CKM_COUNT_REPAIRS, 1);
            ckm_assign_result ar;
            ckm_step step;
            if ((rc = ckm_blp_step(ctx, &w->asg, w->Y, have ? w->best_lab : NULL, w->lab, &ar, &step, out, err)) !=
                CKM_OK)
                return rc;
            if (step == CKM_STEP_INFEASIBLE) {
                rt->end = true;
                return CKM_OK;
            }
            if (step == CKM_STEP_STOP) {
                rt->why = ar.stopped ? CKM_STATUS_INTERRUPTED : CKM_STATUS_TIME_LIMIT;
                rt->stopped = true;
                break;
            }
        }
        have = true;
        memcpy(w->best_lab, w->lab, s * sizeof(int32_t)); /* the latest feasible labelling */
        ckm_ctx_log(ctx, 2, "bckm restart %d iter %d: %d inner rounds", rt->rs + 1, it + 1, inner + 1);
        regularized_centers(r, w->lab, w->C, w->wsum);
        double cn = 0.0;
        for (size_t q = 0; q < k * d; q++)
            cn += w->C[q] * w->C[q];
        if (sqdiff(w->C, w->Cprev, k * d) <= 1e-10 * (1.0 + cn))
            break;
    }
    if (have) {
        rt->labels = w->best_lab;
        rt->objective = ckm_group_sse(r, w->best_lab, w->C, w->wsum);
        rt->iterations = it + 1;
    }
    return CKM_OK;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, d = r->d, k = r->k, sk = s * k;
    out->lower_bound = -INFINITY;
    bckm_ws w;
    memset(&w, 0, sizeof w);
    w.ctx = ctx;
    w.r = r;
    w.C = ckm_alloc_array(k * d, sizeof(double));
    w.Cprev = ckm_alloc_array(k * d, sizeof(double));
    w.wsum = ckm_alloc_array(k, sizeof(double));
    double **big[] = {&w.Y, &w.cost, &w.S, &w.Sprev, &w.V, &w.Vprev, &w.rp, &w.rm};
    bool ok = w.C && w.Cprev && w.wsum;
    for (size_t q = 0; q < sizeof big / sizeof big[0]; q++)
        ok = ok && (*big[q] = ckm_alloc_array(sk, sizeof(double))) != NULL;
    w.lab = ckm_alloc_array(s, sizeof(int32_t));
    w.best_lab = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!ok || !w.lab || !w.best_lab) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "bckm: out of memory");
        goto done;
    }
    /* a route with an LP relaxation for the rounds (the chooser's, asked for one) */
    ckm_assign_want want = {.route = NULL, .lp = true, .centers = false};
    if ((rc = ckm_assign_init(&w.asg, r, &want, err)) != CKM_OK ||
        (rc = ckm_seeder_init(&w.seeder, r, set->threads, err)) != CKM_OK)
        goto done;
    ckm_status why;
    if ((rc = ckm_run_restarts(ctx, "bckm", s, restart, &w, out, &why, err)) != CKM_OK ||
        out->status == CKM_STATUS_INFEASIBLE)
        goto done;
    snprintf(out->message, sizeof out->message,
             "%s%zu assignment steps (%zu LP rounds); %zu stalled on a fractional point and were finished by the "
             "exact assignment step",
             ckm_stop_prefix(why),
             w.steps, w.inner_total, w.stalls);
done:
    ws_free(&w);
    return rc;
}

/* the LP/MILP model (the LP steps and the exact step when it stalls) on a route with an LP
 * relaxation */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    (void)threads;
    ckm_assign_want want = {.route = NULL, .lp = true, .centers = false};
    return ckm_assign_bytes(r, &want);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_bckm = {
    .info = {.name = "bckm",
             .summary = "BCKM (Le et al. 2018): LP / penalty alternation for the assignment; exact step when it stalls",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                        CKM_HONOURS_CAPACITIES,
             .proves_optimality = 0,
             .default_max_iter = 100,
             .traits = 0},
    .run = run,
    .bytes = bytes,
};
