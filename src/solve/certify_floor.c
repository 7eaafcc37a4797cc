/*
 * certify_floor.c -- the split's floor: what no bound through a given split can beat
 * (docs/certify.md "The split's floor").
 *   certify bounds OPT from below by sum_t LB_t with LB_t <= OPT_t, the optimum of subset S_t
 *   alone (its problem: its points, the pairs inside it, its ranges; certify_subset.c). For
 *   any labelling of S_t that its problem allows, with SSE U_t:
 *       LB_t <= OPT_t <= U_t,   so   lower_bound <= sum_t U_t   and
 *       gap >= floor = (SSE - sum_t U_t) / SSE,
 *   whatever the subsets' relaxations. The labels restricted to S_t are one such labelling
 *   (sum: labels_split_sse, the split loss's side); k-means on S_t alone usually finds
 *   cheaper ones, since a few hundred points re-partition more freely than the whole (on
 *   AVOC's Facebook at T = 18: restricted 0.24 % below the SSE, k-means 6.5 %).
 *   U_t = min(restricted SSE, kmeans from the restricted labels' centroids, kmeans from each
 *   of CKM_CERTIFY_FLOOR_RESTARTS k-means++ seeds), kmeans on the subset's reduced problem
 *   (must-link groups whole, with their masses and sample weights), each kmeans labelling
 *   then improved by one-group moves (moves.c: Lloyd's local optima on a hundred points and
 *   k = 10 sit percents above the subset's optimum, and labellings that far off understate
 *   what the split costs and overstate what the SDPs leave -- the two numbers re-planning
 *   weighs, certify.c); a labelling that puts the two ends of one of the subset's
 *   cannot-links together is not one its problem allows and is not counted (a subset holds
 *   few of them: 1000 pairs among 918 subsets of 10^5 points leave about one per subset).
 *   Only without size bounds or capacities, which kmeans does not honour
 *   (ckm_certify_floor_applies).
 *   Deterministic: each subset's kmeans is seeded from (settings.seed, t), one thread each,
 *   and runs to its end whatever the time limit (it plans the bounds' time); a stop request
 *   is polled between subsets and leaves the rest at their restricted SSE (still >= OPT_t).
 * Cost: 11 kmeans runs on every subset, O(n k d) per Lloyd iteration or pass of moves over
 * all subsets.
 */
#include "certify_floor.h"
#include "algo.h"
#include "centers.h"
#include "moves.h"
#include "problem_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ckm_certify_floor_applies(const ckm_reduced *r)
{
    return !r->has_sizes && !r->has_caps;
}

typedef struct floor_job {
    const cert_job *J;
    const ckm_algo *km; /* the kmeans algorithm's registry row */
    const int32_t *labels;
    double *least;
    atomic_size_t next;
    atomic_int failed;
    pthread_mutex_t lock;
    ckm_error rc;
    ckm_err err;
} floor_job;

/* one kmeans run (F->km) on rs from init, or from k-means++ seeds (the r-th start) when init is
 * NULL, then one-group moves (ckm_group_moves); its SSE (ckm_group_sse), or INFINITY when it
 * returned no labels or labels that break a cannot-link */
static ckm_error kmeans_sse(const floor_job *F, const ckm_reduced *rs, size_t t, const double *init, int r,
                            int32_t *lab, double *C, double *M, double *sse, ckm_err *err)
{
    const cert_job *J = F->J;
    const ckm_algo *km = F->km;
    ckm_settings s = *J->ctx->s;
    s.n_init = 1;
    s.init = CKM_INIT_KMEANSPP;
    s.threads = 1;
    s.verbosity = 0;
    s.max_iter = 0;
    s.seed = (J->ctx->s->seed ^ ((uint64_t)t * 0x9e3779b97f4a7c15ULL)) + (uint64_t)r;
    s.should_stop = NULL; /* polled between subsets (floor_worker): each kmeans is short */
    s.interrupt = NULL;
    ckm_context ctx = *J->ctx;
    ctx.s = &s;
    ctx.deadline = INFINITY; /* part of the plan, not of the bounds' time */
    ctx.sink = NULL;
    ctx.init_centers = init;
    ctx.max_iter = km->info.default_max_iter;
    ckm_algo_out out;
    memset(&out, 0, sizeof out);
    out.labels = lab;
    ckm_error rc = km->run(&ctx, rs, &out, err);
    *sse = INFINITY;
    if (rc != CKM_OK || !out.has_labels)
        return rc;
    if (ckm_group_moves(rs, lab, CKM_CERTIFY_FLOOR_PASSES) < 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for the split's floor (%zu groups)", rs->s);
    if (ckm_group_cannot_links_met(rs, lab))
        *sse = ckm_group_sse(rs, lab, C, M);
    return CKM_OK;
}

/* least[t] for one subset (see the header) */
static ckm_error subset_least(floor_job *F, size_t t, ckm_err *err)
{
    const cert_job *J = F->J;
    double best = J->incumbent[t];
    ckm_problem *sub = NULL;
    ckm_reduced *rs = NULL;
    int32_t *lab = NULL;
    double *C = NULL, *M = NULL;
    int infeasible = 0;
    char reason[CKM_MESSAGE_LEN];
    ckm_error rc = ckm_certify_subset_problem(J, t, &sub, err);
    if (rc == CKM_OK)
        rc = ckm_reduce(sub, &rs, &infeasible, reason, sizeof reason, err);
    if (rc != CKM_OK || infeasible || !rs)
        goto done; /* infeasible: the certify run itself reports it */
    double opt;
    if (ckm_certify_subset_exact(rs, &opt)) { /* its optimum: nothing cheaper exists */
        best = fmin(best, opt);
        goto done;
    }
    size_t s = rs->s, k = rs->k, d = rs->d;
    lab = ckm_alloc_array(s, sizeof(int32_t));
    C = ckm_alloc_array(k * d, sizeof(double));
    M = ckm_alloc_array(k, sizeof(double));
    double *init = ckm_alloc_array(k * d, sizeof(double));
    if (!lab || !C || !M || !init) {
        free(init);
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for the split's floor (%zu groups)", s);
        goto done;
    }
    /* the restricted labels' centroids (a cluster absent from the subset: no such start) */
    const size_t *pts = J->pts + J->pt_start[t];
    for (size_t a = 0; a < s; a++)
        lab[a] = F->labels[pts[rs->members[rs->member_start[a]]]];
    bool all = ckm_group_means(rs, lab, init, M) == 0;
    double sse;
    if (all && (rc = kmeans_sse(F, rs, t, init, 0, lab, C, M, &sse, err)) == CKM_OK)
        best = fmin(best, sse);
    free(init);
    for (int r = 0; r < CKM_CERTIFY_FLOOR_RESTARTS && rc == CKM_OK; r++)
        if ((rc = kmeans_sse(F, rs, t, NULL, r, lab, C, M, &sse, err)) == CKM_OK)
            best = fmin(best, sse);
done:
    F->least[t] = best;
    free(lab);
    free(C);
    free(M);
    ckm_reduced_free(rs);
    ckm_problem_free(sub);
    return rc;
}

static void floor_worker(void *arg, size_t begin, size_t end, int tid)
{
    (void)begin;
    (void)end;
    (void)tid;
    floor_job *F = arg;
    ckm_context poll = *F->J->ctx;
    poll.deadline = INFINITY; /* only a stop request: the floor plans the time, it does not spend it */
    for (;;) {
        size_t t = atomic_fetch_add(&F->next, 1);
        if (t >= F->J->T || atomic_load(&F->failed))
            return;
        ckm_status why;
        if (ckm_ctx_stop(&poll, &why)) { /* a stop: the restricted labels' SSE stands */
            F->least[t] = F->J->incumbent[t];
            continue;
        }
        ckm_err e;
        ckm_error rc = subset_least(F, t, &e);
        if (rc != CKM_OK) {
            pthread_mutex_lock(&F->lock);
            if (!atomic_load(&F->failed)) {
                F->rc = rc;
                F->err = e;
                atomic_store(&F->failed, 1);
            }
            pthread_mutex_unlock(&F->lock);
        }
    }
}

ckm_error ckm_certify_floor(const cert_job *J, const int32_t *labels, int threads, double *least, ckm_err *err)
{
    floor_job F = {.J = J, .km = ckm_algo_lookup("kmeans"), .labels = labels, .least = least, .rc = CKM_OK};
    atomic_init(&F.next, 0);
    atomic_init(&F.failed, 0);
    pthread_mutex_init(&F.lock, NULL);
    int w = threads < 1 ? 1 : ((size_t)threads < J->T ? threads : (int)J->T);
    ckm_parallel_for(w, (size_t)w, floor_worker, &F);
    pthread_mutex_destroy(&F.lock);
    if (F.rc != CKM_OK && err)
        *err = F.err;
    return F.rc;
}
