/*
 * ipc.c -- `ipc`: IPC-k-means (Piccialli, Russo Russo & Sudoso 2022, Algorithm 1) with the
 * safe SDP lower bound, so every result carries a certified gap.
 *   bound    the Peng-Wei relaxation on must-link groups (src/sdp; docs/formulations.md),
 *            solved by the sGS-ADMM to relative KKT 1e-5 (at most 3000 iterations or the
 *            time limit; certify's bound-only subsets solve the first time to 3e-4 when
 *            cutting-plane rounds follow: they go on from its iterate, and a full-accuracy
 *            solve ends them); the reported lower bound is the best SAFE bound, never the
 *            raw dual value. Size bounds enter through the size rows 1/c_max <= Z_ii <=
 *            1/c_min and the clique right-hand side (sdp_cuts.c); it needs every cluster
 *            non-empty (lo_j >= 1, the default).
 *   init     rank-k approximation of the SDP solution: X_k = top-k eigenpairs of Xhat
 *            (Eckart-Young in the expanded space, since Z_full = U X U' with U'U = I),
 *            Z_k = D^{-1/2} X_k D^{-1/2}, centroid estimates M = Z_k P (P_t = w_t m_t);
 *            weighted k-means on the rows of M (k-means++ seeds (seed, r), Lloyd).
 *   refine   the BLPKM_CC iteration (exact CLP/CBC assignment honouring every constraint,
 *            means) from those centers until the assignment total stops decreasing.
 *   restarts n_init k-means seeds on M, each refined; the lowest SSE wins.
 *   cuts     then up to settings.cut_rounds cutting-plane rounds (default 50, the paper's
 *            root limit): at most 1000 new pair / triangle / clique / size rows per round
 *            (sdp_cuts.c), each round a warm-started INEXACT solve of 50 ADMM iterations
 *            (the safe bound is valid after any iteration; measured on connectionist
 *            ml_0_cl_100_0 in 60 s: 6 rounds at up to 3000 iterations reach a 0.44 % gap,
 *            rounds of 200 reach 0.003 % in 47 s; on accent ml_50_cl_50_0 with at most 3000
 *            rows the root took 62.5 / 42.6 / 29.3 s with rounds of 200 / 100 / 50
 *            iterations, bound 28683.00 / 28683.73 / 28684.06), until the gap is
 *            <= 1e-4, no cut is violated or can be added (CKM_SDP_MAX_CUTS rows, none
 *            inactive), or 3 rounds together raise the bound by less than 1e-5 (relative).
 *            A bound-only node with a deadline (certify's subsets, each with a share of the
 *            time) runs a shorter schedule: first solve to 1e-2, rounds of 25 iterations adding up to
 *            s^2 / 75 rows (at least 1000, at most the 5000 the pool holds), twice as many
 *            rounds, and a pool that doubles (to CKM_SDP_GROWN_CUTS rows at most) when the
 *            rounds stall with it full or it keeps turning violated rows away; see
 *            IPC_FIRST_TOL and node_schedule below.
 *            IPC-k-means runs again every 5 rounds (a better incumbent lets the solver stop
 *            at it); then one full-accuracy solve polishes the bound (also when no round
 *            ran after a loose first solve) and IPC-k-means runs
 *            from the final solution; the best labelling is kept.
 *   status   optimal when (SSE - bound) / SSE <= settings.gap (default 1e-4, the paper's), else
 *            feasible with the gap reported by the driver.
 * Trivial cases: k = 1 or s = k have one partition (up to relabelling); its SSE is the bound.
 */
#include "algo.h"
#include "assign.h"
#include "centers.h"
#include "blp_lloyd.h"
#include "ipc.h"
#include "linalg.h"
#include "sdp.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IPC_CUTS_PER_ROUND 1000
#define IPC_ROUND_ITERS 50     /* ADMM iterations per cutting-plane round (inexact rounds) */
#define IPC_PATIENCE 3         /* stall test over this many rounds */
#define IPC_HEURISTIC_EVERY 5  /* IPC-k-means again every this many rounds */
#define IPC_STALL 1e-5         /* stop when IPC_PATIENCE rounds raise the bound by less (relative) */
#define IPC_GROW_ROUNDS 40     /* a crowded pool grows only with this many rounds' time left */
#define IPC_HOPELESS_WINDOW 100 /* exact's children: the hopeless stop's window (sdp_admm.c) */
/* The schedule of a bound-only node (certify's subsets, each with a share of the time) when
 * cut rounds follow: a loose first solve, then short rounds that add many rows. What raises
 * such a bound within its share is reaching the triangle rows (the pair rows, the most
 * violated at first, are separated before them), not a precise first solve: late in a solve
 * the safe bound creeps (a 250-group subset of overlapping blobs, k = 10, was at 10986 of its
 * final 10993 after 160 of 431 iterations) while each round's cuts raise it by more.
 * Measured on four 473-group subsets of 10^6 x 10 overlapping blobs (k = 10) with the 6.6 s
 * share a 2-hour certify gave them, two at a time on 2 cores: mean 0.93 % below their labels
 * with 3e-4, 50 iterations and 1000 rows a round (3 rounds, pair rows only), 0.45-0.62 % with
 * 1e-2, 25 and 3000 (6 rounds, the pool full of triangles from the third); on 109- and
 * 249-group subsets with 1.1-1.5 s, 1000 rows a round did better than 2000-3000
 * (bench/README.md "Shorter cut rounds for certify's subsets"). exact's and ipc's roots keep
 * 1e-5, 50 and 1000: a first solve to 3e-4 took accent ml_50_cl_50_0's root from 43.6 to
 * 36.9 s for a bound lower by 4e-6, a gain not worth a weaker bound there. */
#define IPC_FIRST_TOL 1e-2
#define IPC_FIRST_TOL_NO_LIMIT 3e-4 /* a bound-only node without a deadline (node_schedule) */
#define IPC_BOUND_ROUND_ITERS 25
#define IPC_BOUND_CUTS_PER_S2 (1.0 / 75.0)

/* How a node's SDP runs its first solve and cut rounds, chosen once per node. */
typedef struct ipc_schedule {
    double first_tol; /* the first solve's tolerance when cut rounds follow (0: the full one) */
    int round_iters;  /* ADMM iterations per cut round */
    long max_rounds;  /* rounds at most: settings.cut_rounds rounds' worth of IPC_ROUND_ITERS */
    size_t max_add;   /* rows a round may add */
    size_t grow_to;   /* the pool's cap may double up to this when the rounds stall (0: never) */
} ipc_schedule;

/* exact's and ipc's roots and nodes: a full first solve, rounds of 50 iterations and 1000 rows.
 * A bound-only node (certify's subsets) with a deadline (its share of certify's time): the
 * short schedule, rows s^2 / 75 within [1000, CKM_SDP_MAX_CUTS], twice as many rounds of half
 * the iterations (settings.cut_rounds counts rounds of 50), and a pool that grows to
 * CKM_SDP_GROWN_CUTS rows once the rounds stall with the pool full: on Electric's subsets the
 * 5000-row pool stalled after 50-55 rounds (about 20 s) whatever the time left, where more rows
 * kept raising the bound (sdp.h); and once a full pool keeps turning more violated rows away
 * than it lets in (a 1112-group subset of standardized Electric: the bound still rose 1-4 a
 * round, above the stall test's 1e-5, while each round swapped 10-150 of the 5000 rows; 1.90 %
 * below its labels after 200 s, 1.25 % after 400 s grown this way to 40,000 rows). Without a
 * deadline nothing binds and the earlier schedule converges sooner: 150 points, k = 3, T = 3, 3 cut rounds, no
 * limit took 1.93-2.06 s with the short schedule and 1.35-1.42 s with 3e-4 / 50 / 1000, the same
 * bound (the final full-accuracy solve from the looser iterate costs more). */
static ipc_schedule node_schedule(const ckm_context *ctx, const ckm_ipc_opts *o, size_t s)
{
    ipc_schedule sch = {0.0, IPC_ROUND_ITERS, o->cut_rounds, IPC_CUTS_PER_ROUND, 0};
    if (!o->bound_only)
        return sch;
    if (!isfinite(ctx->deadline)) {
        sch.first_tol = IPC_FIRST_TOL_NO_LIMIT;
        return sch;
    }
    double m = IPC_BOUND_CUTS_PER_S2 * (double)s * (double)s;
    sch.first_tol = IPC_FIRST_TOL;
    sch.round_iters = IPC_BOUND_ROUND_ITERS;
    sch.max_rounds = (long)o->cut_rounds * (IPC_ROUND_ITERS / IPC_BOUND_ROUND_ITERS);
    sch.grow_to = CKM_SDP_GROWN_CUTS;
    sch.max_add = m < IPC_CUTS_PER_ROUND ? IPC_CUTS_PER_ROUND : m > CKM_SDP_MAX_CUTS ? CKM_SDP_MAX_CUTS : (size_t)m;
    return sch;
}

/* rows of M = Z_k P: the centroid estimates of every group's cluster. *stopped (and *why) when
 * the run's stop came during the eigendecomposition (M is then not written). */
static ckm_error centroid_estimates(const ckm_context *ctx, const ckm_reduced *r, const double *Xhat, double *M,
                                   int *stopped, ckm_status *why, ckm_err *err)
{
    size_t s = r->s, k = r->k < r->s ? r->k : r->s, d = r->d;
    double *A = ckm_alloc_array(s * s, sizeof(double)), *ev = ckm_alloc_array(s, sizeof(double));
    double *Q = ckm_alloc_array(s * k, sizeof(double)), *Zk = ckm_calloc_array(s * s, sizeof(double));
    void *work = malloc(ckm_eig_work_bytes(s));
    ckm_error rc = CKM_OK;
    if (!A || !ev || !Q || !Zk || !work) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "ipc: out of memory");
        goto done;
    }
    memcpy(A, Xhat, s * s * sizeof(double));
    ckm_ctx_poll_state es = {ctx, CKM_STATUS_FEASIBLE};
    int how = ckm_eig_sym_top(s, A, k, ev, Q, work, ckm_ctx_poll, &es);
    if (how == -3) {
        *stopped = 1;
        *why = es.why;
        goto done;
    }
    if (how != 0) {
        rc = how == -1 ? ckm_fail(err, CKM_ERR_NOMEM, "ipc: out of memory in the eigensolver (s = %zu)", s)
                       : ckm_fail(err, CKM_ERR_INTERNAL, "ipc: the eigensolver failed on the SDP solution");
        goto done;
    }
    for (size_t c = 0; c < k; c++) /* the k largest eigenpairs: X_k = sum_c lambda_c q_c q_c' */
        for (size_t i = 0; i < s; i++) {
            double qi = ev[c] * Q[c * s + i];
            for (size_t j = 0; j < s; j++)
                Zk[i * s + j] += qi * Q[c * s + j];
        }
    for (size_t i = 0; i < s; i++) {
        double *mi = M + i * d;
        memset(mi, 0, d * sizeof(double));
        double vi = sqrt(r->mass[i]);
        for (size_t j = 0; j < s; j++) {
            /* Z_k,ij w_j m_j with Z_k,ij = X_k,ij / (v_i v_j): the factor is X_k,ij v_j / v_i */
            double f = Zk[i * s + j] * sqrt(r->mass[j]) / vi;
            for (size_t q = 0; q < d; q++)
                mi[q] += f * r->mean[j * d + q];
        }
    }
done:
    free(A);
    free(ev);
    free(Q);
    free(Zk);
    free(work);
    return rc;
}

typedef struct ipc_run {
    const ckm_context *ctx;
    const ckm_reduced *r;
    ckm_assign *asg;
    double *C, *wsum, *cost, *M;
    int32_t *cur, *kept;
    int max_iter;
    double best_sse;
    size_t lp_steps, mip_steps;
    int stopped;
    ckm_status why;
    int infeasible;
    bool progress;   /* ckm_ipc_opts.progress */
} ipc_run;

/* The BLPKM iteration from the centers in run->C (name / rs label its log lines): its step
 * counts, a proven infeasibility or a stop go into run; st tells whether run->kept holds labels. */
static ckm_error refine(ipc_run *run, const char *name, int rs, ckm_lloyd_stats *st, ckm_algo_out *out, ckm_err *err)
{
    ckm_blp_job job = {.asg = run->asg, .dist = CKM_DISTANCE_SQEUCLIDEAN, .max_iter = run->max_iter, .name = name,
                       .rs = rs, .C = run->C, .kept = run->kept, .wsum = run->wsum, .cost = run->cost, .cur = run->cur};
    ckm_error rc = ckm_blp_lloyd(run->ctx, run->r, &job, st, out, err);
    if (rc != CKM_OK)
        return rc;
    run->lp_steps += st->lp_steps;
    run->mip_steps += st->mip_steps;
    if (st->infeasible) {
        run->infeasible = 1;
    } else if (st->stopped) {
        run->why = st->why;
        run->stopped = 1;
    }
    return CKM_OK;
}

/* IPC-k-means from the current SDP solution: centroid estimates, n_init weighted k-means
 * seeds on them, each refined by the BLPKM iteration; the best labels go to out. */
static ckm_error ipc_heuristic(ipc_run *run, const ckm_sdp *sdp, ckm_algo_out *out, ckm_err *err)
{
    const ckm_reduced *r = run->r;
    const ckm_settings *set = run->ctx->s;
    ckm_error rc = centroid_estimates(run->ctx, r, ckm_sdp_xhat(sdp), run->M, &run->stopped, &run->why, err);
    if (rc != CKM_OK || run->stopped)
        return rc;
    ckm_reduced est = *r; /* the rows of M as weighted points for seeding and Lloyd */
    est.mean = run->M;
    est.n_cl = 0;
    est.has_sizes = 0;
    ckm_seeder seeder;
    memset(&seeder, 0, sizeof seeder);
    if ((rc = ckm_seeder_init(&seeder, &est, set->threads, err)) != CKM_OK)
        return rc;
    for (int rs = 0; rs < set->n_init && (rs == 0 || !run->stopped); rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        ckm_seed_centers(&seeder, CKM_INIT_KMEANSPP, &rng, run->C);
        ckm_group_lloyd(&est, run->C, run->wsum, run->cur);
        if ((rc = ckm_order_centers_by_size(r, run->C, err)) != CKM_OK)
            break;
        ckm_lloyd_stats st;
        if ((rc = refine(run, "ipc", rs, &st, out, err)) != CKM_OK || run->infeasible)
            break;
        if (!st.have)
            continue;
        double sse = ckm_group_sse(r, run->kept, run->C, run->wsum);
        ckm_restart_done(run->ctx, "ipc", rs, run->kept, r->s, sse, st.iterations, &run->best_sse, out);
    }
    ckm_seeder_free(&seeder);
    return rc;
}

/* how a solve ended, for the log */
static const char *solve_end(const ckm_sdp_info *si)
{
    return si->converged ? "converged" : si->hopeless ? "stopped: the bound would not reach the incumbent" : "not converged";
}

/* One SDP solve; a deadline or stop request met inside it stops the whole run. */
static ckm_error solve_sdp(ipc_run *run, ckm_sdp *sdp, const ckm_sdp_params *par, ckm_sdp_info *si, ckm_err *err)
{
    ckm_error rc = ckm_sdp_solve(sdp, run->ctx, par, si, err);
    if (rc == CKM_OK && si->stopped) {
        run->stopped = 1;
        run->why = si->why;
    }
    if (rc == CKM_OK && run->progress)
        ckm_ctx_progress(run->ctx, (ckm_progress){.kind = CKM_PROGRESS_BOUND, .objective = NAN,
                                                  .incumbent = isfinite(run->best_sse) ? run->best_sse : NAN,
                                                  .lower_bound = fmax(si->lower_bound, 0.0), .restarts = 1});
    return rc;
}


/* The BLPKM iteration from given centers (the incumbent's): the node's exact feasibility
 * check (its first assignment is the MILP of the node's constraints) and a cheap labelling. */
static ckm_error from_centers(ipc_run *run, const double *centers, ckm_algo_out *out, ckm_err *err)
{
    const ckm_reduced *r = run->r;
    memcpy(run->C, centers, r->k * r->d * sizeof(double));
    ckm_lloyd_stats st;
    ckm_error rc = refine(run, "ipc-start", 0, &st, out, err);
    if (rc != CKM_OK || run->infeasible)
        return rc;
    if (st.have) {
        double sse = ckm_group_sse(r, run->kept, run->C, run->wsum);
        if (sse < run->best_sse) {
            run->best_sse = sse;
            memcpy(out->labels, run->kept, r->s * sizeof(int32_t));
            out->has_labels = 1;
            out->iterations = st.iterations;
        }
    }
    return CKM_OK;
}

/* k = 1 or s = k: one partition up to relabelling (all groups together, or one group per
 * cluster); its SSE is the bound, or the constraints (sizes) exclude it. */
static ckm_error single_partition(ipc_run *run, ckm_algo_out *out, ckm_err *err)
{
    const ckm_reduced *r = run->r;
    size_t s = r->s, k = r->k;
    for (size_t t = 0; t < s; t++)
        run->cur[t] = k == 1 ? 0 : (int32_t)t;
    ckm_group_means(r, run->cur, run->C, run->wsum);
    ckm_lloyd_stats st;
    ckm_error rc = refine(run, "ipc", 0, &st, out, err);
    if (rc != CKM_OK || run->infeasible)
        return rc;
    if (!st.have) {
        run->stopped = 1;
        run->why = st.why;
        return CKM_OK;
    }
    double sse = ckm_group_sse(r, run->kept, run->C, run->wsum);
    ckm_restart_done(run->ctx, "ipc", 0, run->kept, s, sse, st.iterations, &run->best_sse, out);
    out->lower_bound = sse;
    out->status = CKM_STATUS_OPTIMAL;
    snprintf(out->message, sizeof out->message, "%s: a single partition is possible, so it is optimal",
             k == 1 ? "k = 1" : "as many must-link groups as clusters");
    return CKM_OK;
}

/* the node is settled: an incumbent exists within the tolerance of the bound lb (the one
 * gap rule, core.h; until then the bound and the heuristics have work to do) */
static bool closed(const ipc_run *run, double lb, double tol)
{
    return ckm_gap_closed(run->best_sse, lb, tol, run->r->gap_scale);
}

/* The node's relaxation with the parent's cuts and warm start, in *sdp; NULL (run->stopped)
 * when its first iteration would end past the deadline or a stop came while it was set up. */
static ckm_error relaxation(ipc_run *run, const ckm_ipc_opts *o, ckm_ipc_stats *stats, ckm_sdp **sdp, ckm_err *err)
{
    const ckm_reduced *r = run->r;
    *sdp = NULL;
    if (ckm_ctx_stop_ahead(run->ctx, ckm_sdp_iteration_estimate_s(r->s), &run->why)) {
        run->stopped = 1;
        return CKM_OK;
    }
    ckm_error rc = ckm_sdp_create(r, run->ctx, sdp, &run->why, err);
    if (rc != CKM_OK)
        return rc;
    if (!*sdp) { /* stopped while the relaxation was set up */
        run->stopped = 1;
        return CKM_OK;
    }
    if (o->inherit && (rc = ckm_sdp_import_cuts(*sdp, r->comp, o->inherit, &stats->inherited, err)) != CKM_OK)
        return rc; /* *sdp is the caller's to free */
    if (o->warm_X)
        ckm_sdp_warm_start(*sdp, o->warm_X, o->warm_sigma);
    return CKM_OK;
}

/* what the caller learns of the node's run */
static void node_stats(const ipc_run *run, const ckm_sdp_info *si, ckm_ipc_stats *stats)
{
    stats->last_iterations = si->iterations;
    stats->converged = si->converged;
    stats->pruned = si->pruned;
    stats->lp_steps = run->lp_steps;
    stats->mip_steps = run->mip_steps;
    stats->stopped = run->stopped;
    stats->best_sse = run->best_sse;
}

/* The stall test's window: the bound after the last rounds (hist) and the rounds since the
 * start or the pool's last growth (since). */
typedef struct stall_window {
    double hist[IPC_PATIENCE + 1];
    int since;
    int crowded; /* rounds in a row whose full pool turned away at least as many rows as it let in */
} stall_window;

/* The pool's cap doubled (at most sch->grow_to rows) when the schedule lets it grow and the run
 * goes on: *grown, and the stall window starts again from the current bound. */
static ckm_error grow_pool(ipc_run *run, ckm_sdp *sdp, const ipc_schedule *sch, const ckm_sdp_info *si,
                           const char *why, stall_window *w, bool *grown, ckm_err *err)
{
    size_t cap = ckm_sdp_max_cuts(sdp), to = 2 * cap < sch->grow_to ? 2 * cap : sch->grow_to;
    *grown = !run->stopped && to > cap;
    if (!*grown)
        return CKM_OK;
    ckm_error rc = ckm_sdp_grow_cuts(sdp, to, err);
    if (rc != CKM_OK)
        return rc;
    ckm_ctx_log(run->ctx, 1, "ipc: %s at safe bound %.10g with %zu rows: the pool grows to %zu", why,
                si->lower_bound, cap, to);
    w->since = 0;
    w->crowded = 0;
    w->hist[0] = si->lower_bound;
    return CKM_OK;
}

/* A full pool that keeps turning violated rows away grows before the rounds stall: the rows
 * it lets in (as many as went inactive) are then too few to move the bound, which still rises
 * by more than the stall test's 1e-5 a round. Only with many rounds left to use the rows (the
 * node's deadline at least IPC_GROW_ROUNDS rounds of the last one's length away): a doubled
 * pool slows every round, and pays only over many. With 10 rounds, Frogs' 276-group subsets
 * (11 s shares, 300 s on one thread) grew to 10,000 rows, ran 18.8 rounds instead of 30.6 and
 * ended 1.06 % below their labels instead of 0.96 %; Electric's 1112-group ones (800 s
 * shares) have about 100 rounds of 7 s left when their pool first crowds. */
bool ckm_ipc_pool_crowded(size_t active, size_t cap, size_t turned_away, size_t added, int *streak, int patience,
                          double time_left, double rounds_left, double round_s)
{
    *streak = active >= cap && turned_away >= added ? *streak + 1 : 0;
    return *streak >= patience && time_left >= rounds_left * round_s;
}

/* Cutting-plane rounds: separate (at most sch->max_add rows), add, solve again (capped at
 * sch->round_iters iterations; node_schedule), IPC-k-means every IPC_HEURISTIC_EVERY rounds;
 * until sch->max_rounds, no violated row (or a full pool that may not grow), a stop, the node
 * closes, or IPC_PATIENCE rounds together raise the bound by <= IPC_STALL of it (where the pool
 * may grow, it grows instead, once per stall). Where it may grow, a full pool also grows after
 * IPC_PATIENCE rounds in a row that turned away at least as many violated rows as they let in
 * (ckm_ipc_pool_crowded).
 * (Without an incumbent, a child before its heuristic, the rounds run to their limit.) */
static ckm_error cut_rounds(ipc_run *run, ckm_sdp *sdp, const ckm_ipc_opts *o, const ipc_schedule *sch,
                            ckm_sdp_params *par, ckm_sdp_info *si, ckm_ipc_stats *stats, double t0, ckm_algo_out *out,
                            ckm_err *err)
{
    const ckm_context *ctx = run->ctx;
    ckm_error rc = CKM_OK;
    ckm_rng crng;
    ckm_rng_seed(&crng, ctx->s->seed, 0x5d9);
    stall_window w = {.since = 0};
    w.hist[0] = si->lower_bound;
    bool grown;
    par->max_iter = sch->round_iters;
    while (!run->stopped && stats->rounds < sch->max_rounds && !closed(run, si->lower_bound, o->gap)) {
        double round_t0 = ckm_now();
        ckm_cut_stats cs;
        if ((rc = ckm_sdp_separate(sdp, &crng, par->threads, sch->max_add, &cs, err)) != CKM_OK)
            return rc;
        size_t added = cs.added_pair + cs.added_triangle + cs.added_clique + cs.added_size + cs.added_capacity;
        if (added == 0) { /* nothing violated, or a full pool of active rows */
            bool full = cs.active >= ckm_sdp_max_cuts(sdp) && cs.max_violation > 0.0;
            if (!full || (rc = grow_pool(run, sdp, sch, si, "nothing could be added", &w, &grown, err)) != CKM_OK ||
                !grown)
                return rc;
            continue;
        }
        int rounds = ++stats->rounds, since = ++w.since;
        stats->cuts_added += added;
        ckm_ctx_count(ctx, CKM_COUNT_CUT_ROUNDS, 1);
        ckm_ctx_count(ctx, CKM_COUNT_CUTS, (uint64_t)added);
        par->upper_bound = run->best_sse;
        if ((rc = solve_sdp(run, sdp, par, si, err)) != CKM_OK)
            return rc;
        ckm_ctx_log(ctx, 1,
                    "ipc: cut round %d: +%zu pair +%zu triangle +%zu clique +%zu size +%zu capacity, -%zu inactive, %zu "
                    "active; safe bound %.10g (%d iterations, %llu CG steps, %.2f s)",
                    rounds, cs.added_pair, cs.added_triangle, cs.added_clique, cs.added_size, cs.added_capacity,
                    cs.removed, cs.active,
                    si->lower_bound, si->iterations, (unsigned long long)si->cg_steps, ckm_now() - t0);
        /* stalled: the last IPC_PATIENCE rounds together raised the bound by too little; a pool
         * that may grow does, and the rounds go on */
        w.hist[since % (IPC_PATIENCE + 1)] = si->lower_bound; /* the bound is monotone (best seen) */
        if (since >= IPC_PATIENCE &&
            si->lower_bound - w.hist[(since - IPC_PATIENCE) % (IPC_PATIENCE + 1)] <=
                IPC_STALL * fabs(si->lower_bound) &&
            ((rc = grow_pool(run, sdp, sch, si, "the rounds stalled", &w, &grown, err)) != CKM_OK || !grown))
            return rc;
        double now = ckm_now();
        if (sch->grow_to &&
            ckm_ipc_pool_crowded(cs.active, ckm_sdp_max_cuts(sdp), cs.turned_away, added, &w.crowded, IPC_PATIENCE,
                                 ctx->deadline - now, IPC_GROW_ROUNDS, now - round_t0) &&
            (rc = grow_pool(run, sdp, sch, si, "the full pool turned rows away", &w, &grown, err)) != CKM_OK)
            return rc;
        /* a better incumbent closes the gap sooner (and lets the solver stop at it) */
        if (rounds % IPC_HEURISTIC_EVERY == 0 && !run->stopped && !o->bound_only &&
            ((rc = ipc_heuristic(run, sdp, out, err)) != CKM_OK || run->infeasible))
            return rc;
    }
    return CKM_OK;
}

/* The rounds (and a loose first solve) were inexact: one solve to full accuracy from the last
 * iterate, unless the node is settled or stopped. par: the rounds' (full tolerance). */
static ckm_error polish(ipc_run *run, ckm_sdp *sdp, ckm_sdp_params *par, ckm_sdp_info *si, double tol, double t0,
                        ckm_err *err)
{
    if (run->stopped || closed(run, si->lower_bound, tol))
        return CKM_OK;
    ckm_sdp_params full; /* the rounds changed only the iteration cap */
    ckm_sdp_params_default(&full);
    par->max_iter = full.max_iter;
    par->upper_bound = run->best_sse;
    ckm_error rc = solve_sdp(run, sdp, par, si, err);
    if (rc == CKM_OK)
        ckm_ctx_log(run->ctx, 1, "ipc: final solve: safe bound %.10g (%d iterations, %s, %.2f s)", si->lower_bound,
                    si->iterations, solve_end(si), ckm_now() - t0);
    return rc;
}

ckm_error ckm_ipc_node(const ckm_context *ctx, const ckm_reduced *r, const ckm_ipc_opts *o, ckm_algo_out *out,
                       ckm_ipc_stats *stats, ckm_sdp **sdp_out, ckm_err *err)
{
    size_t s = r->s, d = r->d, k = r->k;
    double tol = o->gap;
    memset(stats, 0, sizeof *stats);
    if (sdp_out)
        *sdp_out = NULL;
    out->lower_bound = -INFINITY;
    out->status = CKM_STATUS_FEASIBLE;
    for (size_t j = 0; j < k; j++)
        if (r->lo[j] == 0)
            return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                            "%s: the SDP bound assumes every cluster is non-empty, but cluster %zu may be empty "
                            "(lower size bound 0); use blpkm, or a lower bound >= 1",
                            ctx->s->algorithm, j);
    ckm_assign asg;
    ckm_sdp *sdp = NULL;
    memset(&asg, 0, sizeof asg);
    double *C = ckm_alloc_array(k * d, sizeof(double)), *wsum = ckm_alloc_array(k, sizeof(double));
    double *cost = ckm_alloc_array(s * k, sizeof(double)), *M = ckm_alloc_array(s * d, sizeof(double));
    int32_t *cur = ckm_alloc_array(s, sizeof(int32_t)), *kept = ckm_alloc_array(s, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    ipc_run run = {.ctx = ctx,
                   .r = r,
                   .asg = &asg,
                   .C = C,
                   .wsum = wsum,
                   .cost = cost,
                   .M = M,
                   .cur = cur,
                   .kept = kept,
                   .max_iter = ctx->max_iter,
                   .best_sse = o->incumbent,
                   .why = CKM_STATUS_FEASIBLE,
                   .progress = o->progress};
    ckm_sdp_info si;
    memset(&si, 0, sizeof si);
    si.lower_bound = -INFINITY;
    if (!C || !wsum || !cost || !M || !cur || !kept) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "ipc: out of memory");
        goto done;
    }
    if (o->bound_only && (k == 1 || s <= k)) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "ipc: a bound-only node needs k >= 2 and more groups than clusters");
        goto done;
    }
    if (!o->bound_only && (rc = ckm_assign_init(&asg, r, NULL, err)) != CKM_OK)
        goto done;
    if (k == 1 || s == k) {
        rc = single_partition(&run, out, err);
        goto done;
    }
    if (o->centers && ((rc = from_centers(&run, o->centers, out, err)) != CKM_OK || run.infeasible || run.stopped))
        goto done;
    /* 1. the bound, 2. IPC-k-means from it, 3. cutting-plane rounds, IPC again */
    if ((rc = relaxation(&run, o, stats, &sdp, err)) != CKM_OK || !sdp)
        goto done;
    ckm_sdp_params par;
    ckm_sdp_params_default(&par);
    par.prune_tol = tol;
    par.tss = r->gap_scale;
    par.upper_bound = run.best_sse;
    par.threads = o->sdp_threads > 1 ? 2 : 1;
    par.hopeless_window = o->hopeless_stop ? IPC_HOPELESS_WINDOW : 0;
    ipc_schedule sch = node_schedule(ctx, o, s);
    bool loose = o->cut_rounds > 0 && sch.first_tol > par.tol;
    double full_tol = par.tol;
    if (loose)
        par.tol = sch.first_tol;
    double t0 = ckm_now();
    if ((rc = solve_sdp(&run, sdp, &par, &si, err)) != CKM_OK)
        goto done;
    ckm_ctx_log(ctx, 1, "ipc: SDP safe bound %.10g after %d iterations (%s%s, %.2f s)", si.lower_bound, si.iterations,
                solve_end(&si), stats->inherited ? ", inherited cuts" : "", ckm_now() - t0);
    if (o->heuristic_first && !o->bound_only && !run.stopped && !closed(&run, si.lower_bound, tol))
        if ((rc = ipc_heuristic(&run, sdp, out, err)) != CKM_OK || run.infeasible)
            goto done;
    par.tol = full_tol; /* the rounds and the polish: full accuracy */
    if ((rc = cut_rounds(&run, sdp, o, &sch, &par, &si, stats, t0, out, err)) != CKM_OK || run.infeasible)
        goto done;
    if ((stats->rounds > 0 || loose) && (rc = polish(&run, sdp, &par, &si, tol, t0, err)) != CKM_OK)
        goto done;
    if ((stats->rounds > 0 || !o->heuristic_first) && !o->bound_only && !run.stopped &&
        !closed(&run, si.lower_bound, tol))
        if ((rc = ipc_heuristic(&run, sdp, out, err)) != CKM_OK || run.infeasible)
            goto done;
    if (isfinite(si.lower_bound))
        out->lower_bound = fmax(si.lower_bound, 0.0); /* SSE >= 0: 0 is a bound too */
    if (run.stopped)
        out->status = run.why;
    else if (closed(&run, si.lower_bound, tol))
        out->status = CKM_STATUS_OPTIMAL;
done:
    if (rc == CKM_OK && run.infeasible)
        out->status = CKM_STATUS_INFEASIBLE; /* ckm_blp_lloyd wrote the reason */
    else if (rc == CKM_OK && run.stopped && out->status != CKM_STATUS_OPTIMAL)
        out->status = run.why;
    node_stats(&run, &si, stats);
    if (sdp_out && o->keep_sdp && rc == CKM_OK)
        *sdp_out = sdp;
    else
        ckm_sdp_free(sdp);
    ckm_assign_free(&asg);
    free(C);
    free(wsum);
    free(cost);
    free(M);
    free(cur);
    free(kept);
    return rc;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    ckm_ipc_opts o;
    memset(&o, 0, sizeof o);
    o.cut_rounds = ctx->s->cut_rounds;
    o.incumbent = INFINITY;
    o.gap = ctx->s->gap;
    o.heuristic_first = true;
    o.sdp_threads = ckm_thread_count(ctx->s->threads);
    o.progress = true;
    ckm_ipc_stats st;
    ckm_error rc = ckm_ipc_node(ctx, r, &o, out, &st, NULL, err);
    if (rc != CKM_OK || out->status == CKM_STATUS_INFEASIBLE || r->k == 1 || r->s == r->k)
        return rc;
    bool stopped = st.stopped;
    snprintf(out->message, sizeof out->message,
             "%sSDP: %d cutting-plane round%s (%zu cuts added), last solve %d ADMM iterations (%s); IPC-k-means: %d "
             "restart%s, %zu assignment steps with an integral LP, %zu with CBC",
             stopped ? (out->status == CKM_STATUS_TIME_LIMIT ? "time limit; " : "interrupted; ") : "", st.rounds,
             st.rounds == 1 ? "" : "s", st.cuts_added, st.last_iterations,
             st.pruned ? "stopped: the bound reached the incumbent" : st.converged ? "converged" : "not converged",
             out->restarts, out->restarts == 1 ? "" : "s", st.lp_steps, st.mip_steps);
    return rc;
}

/* the SDP relaxation, nine s x s matrices, a tenth while a round separates cuts
 * (sdp_separate.c), plus the eigensolver's work: ~120 s^2; plus the LP model of the BLPKM
 * iteration. Also one node of exact (exact.c's batches). */
double ckm_bytes_ipc(const ckm_reduced *r, int threads)
{
    (void)threads;
    return 120.0 * (double)r->s * (double)r->s + ckm_assign_bytes(r, NULL);
}

static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    return ckm_bytes_ipc(r, threads);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_ipc = {
    .info = {.name = "ipc",
             .summary = "IPC-k-means (Piccialli et al. 2022): SDP-seeded BLPKM with a safe SDP lower bound and certified "
                        "gap",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                        CKM_HONOURS_CAPACITIES,
             .proves_optimality = 1,
             .default_max_iter = 100,
             .traits = CKM_TRAIT_OWN_THREADS},
    .run = run,
    .bytes = bytes,
};
