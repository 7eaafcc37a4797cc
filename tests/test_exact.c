/*
 * test_exact.c -- the branch-and-cut (`exact`) through the public API, against brute force:
 *   - random tiny instances (n = 7..12, k = 2..4) with must-links, cannot-links, size bounds
 *     and mixes: every feasible one is solved to status optimal with the brute-force optimum
 *     (same SSE to 1e-9 with gap 0, i.e. no tolerance: the search closes a node only within
 *     the absolute floor 1e-12 TSS), the lower bound never above it and within that floor of
 *     it, gap = (SSE - bound) / SSE; every
 *     infeasible one is reported infeasible;
 *   - 1 and 2 worker threads agree, and a rerun with the same thread count repeats the
 *     labels exactly;
 *   - limits: node_limit stops with status "iteration limit", the incumbent and its certified
 *     gap; a stop request gives "interrupted" likewise; gap / node_limit out of range are
 *     refused;
 *   - iris with exact sizes 50/50/50 (CC-SOS-SDP's instance, optimum 81.2778 to 4 decimals):
 *     proven optimal at that value;
 *   - the memory budget: refused below the root's need, "memory limit" with a checked
 *     labelling and certified gap a little above it, nothing changed by a large one;
 *   - the asynchronous node pool (async_nodes = 1, 2 workers): the brute-force optimum with
 *     gap 0 on every run, and the node limit, a stop request and the budget as in batches.
 */
#include "check.h"
#include "oracle.h"

#include <stdatomic.h>

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static ckm_result *solve_exact(const ckm_problem *p, double gap, int threads, int node_limit)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.n_init = 3;
    s.gap = gap;
    s.threads = threads;
    s.node_limit = node_limit;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (!r)
        fprintf(stderr, "exact: %s\n", err.message);
    return r;
}

static void test_oracle(void)
{
    int feasible = 0, infeasible = 0, branched = 0, searched = 0;
    size_t nodes = 0;
    for (int inst = 0; inst < 40; inst++) {
        sm_state = 7700 + (uint64_t)inst;
        int kind = inst % 4; /* 0 must-links, 1 cannot-links, 2 sizes, 3 all */
        int n = 7 + inst % 6, k = 2 + inst % 3;
        if (k == 4 && n > 10)
            n = 10; /* 4^10 labellings for the oracle */
        double X[24];
        oracle_pair pairs[24];
        int np = oracle_random_instance(unif, n, kind == 2 ? 0 : kind == 3 ? 2 * n : 5, X, pairs);
        for (int q = 0; q < np; q++)
            pairs[q].ml = kind == 0 ? 1 : kind == 1 ? 0 : pairs[q].ml;
        size_t lo[4], hi[4];
        for (int j = 0; j < k; j++) {
            lo[j] = 1;
            hi[j] = (size_t)n;
        }
        if (kind == 2)
            for (int j = 0; j < k; j++) {
                lo[j] = (size_t)(n / k - 1 > 1 ? n / k - 1 : 1);
                hi[j] = (size_t)(n / k + (j == 0 ? 2 : 0));
            }
        if (kind == 3) /* exact sizes: with the pairs, often infeasible */
            for (int j = 0; j < k; j++)
                lo[j] = hi[j] = (size_t)(n / k + (j < n % k));
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = oracle_problem(X, n, 2, k, pairs, np, lo, hi);
        CHECK(p != NULL);
        ckm_result *r = p ? solve_exact(p, 0.0, 1, 0) : NULL;
        if (r) {
            if (isinf(opt)) {
                infeasible++;
                searched += r->nodes > 0; /* not settled by preprocessing */
                CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels && r->message[0]);
            } else {
                feasible++;
                nodes += r->nodes;
                branched += r->nodes > 1;
                CHECK(r->status == CKM_STATUS_OPTIMAL && r->has_labels && r->violations == 0);
                CHECK(fabs(r->sse - opt) <= 1e-9 * (1 + opt));
                CHECK(r->lower_bound <= opt + 1e-9 * (1 + opt));
                /* gap 0 closes a node within the absolute floor 1e-12 TSS only (core.h ckm_gap_closed) */
                double mean[2] = {0.0, 0.0}, tss = 0.0;
                for (int i = 0; i < n; i++)
                    for (int f = 0; f < 2; f++)
                        mean[f] += X[2 * i + f] / n;
                for (int i = 0; i < n; i++)
                    for (int f = 0; f < 2; f++)
                        tss += (X[2 * i + f] - mean[f]) * (X[2 * i + f] - mean[f]);
                CHECK(fabs(r->gap - (r->sse - r->lower_bound) / r->sse) <= 1e-12);
                CHECK(r->sse - r->lower_bound <= 1e-12 * tss * (1.0 + 1e-9));
                if (fabs(r->sse - opt) > 1e-9 * (1 + opt))
                    printf("instance %d (n %d, k %d, kind %d): exact %.10f vs brute force %.10f, gap %.3g\n", inst, n,
                           k, kind, r->sse, opt, r->gap);
            }
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    CHECK(feasible >= 25 && infeasible >= 2 && branched >= 5);
    printf("exact oracle: %d feasible (all at the brute-force optimum), %d branched, %zu nodes in all; %d infeasible "
           "(%d of them after preprocessing)\n",
           feasible, branched, nodes, infeasible, searched);
}

/* 12 points, k = 3, 4 pairs: the search needs 35 nodes with gap 0; its optimum into *opt */
static ckm_problem *branching_instance(double *opt)
{
    sm_state = 991;
    double X[24];
    oracle_pair pairs[8];
    int n = 12, k = 3;
    int np = oracle_random_instance(unif, n, 4, X, pairs);
    *opt = oracle_best(X, n, 2, k, pairs, np, (size_t[]){1, 1, 1}, (size_t[]){12, 12, 12}, NULL);
    ckm_problem *p = oracle_problem(X, n, 2, k, pairs, np, NULL, NULL);
    CHECK(p && isfinite(*opt));
    return p;
}

static void test_threads_and_limits(void)
{
    int n = 12;
    double opt;
    ckm_problem *p = branching_instance(&opt);
    if (!p)
        return;
    ckm_result *a = solve_exact(p, 0.0, 1, 0), *b = solve_exact(p, 0.0, 2, 0), *c = solve_exact(p, 0.0, 2, 0);
    CHECK(a && b && c);
    if (a && b && c) {
        CHECK(a->status == CKM_STATUS_OPTIMAL && b->status == CKM_STATUS_OPTIMAL);
        CHECK(fabs(a->sse - opt) <= 1e-9 * (1 + opt) && fabs(b->sse - opt) <= 1e-9 * (1 + opt));
        CHECK(b->nodes == c->nodes && memcmp(b->labels, c->labels, (size_t)n * sizeof(int32_t)) == 0);
        CHECK(b->lower_bound == c->lower_bound);
        printf("threads: 1 -> %zu nodes, 2 -> %zu nodes, SSE %.6f\n", a->nodes, b->nodes, a->sse);
        /* a node limit below what the search needs: the incumbent with its certified gap */
        if (a->nodes > 1) {
            ckm_result *l = solve_exact(p, 0.0, 1, 1);
            CHECK(l && l->status == CKM_STATUS_ITERATION_LIMIT && l->nodes == 1 && l->has_labels);
            CHECK(l && l->lower_bound <= opt + 1e-9 && l->sse >= opt - 1e-9 && isfinite(l->gap) && l->gap > 0.0);
            CHECK(l && strstr(l->message, "node limit"));
            ckm_result_free(l);
        } else {
            CHECK(!"the limit instance needs more than one node with gap 0");
        }
    }
    ckm_result_free(a);
    ckm_result_free(b);
    ckm_result_free(c);
    ckm_problem_free(p);
}

/* The memory budget (settings.memory_limit_mb): below the root's need the solve is refused
 * (CKM_ERR_NOMEM, naming the budget); a little above it the search stops with status memory
 * limit, a checked labelling and a certified gap; the nodes processed never decrease as the
 * budget grows, and a large budget changes nothing. */
/* exact with gap 0 and the given workers, node pool, node limit, budget and stop poll */
static ckm_error solve_with(const ckm_problem *p, int threads, int async, int node_limit, double mb,
                            ckm_stop_fn stop, ckm_result **r, ckm_err *err)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.n_init = 3;
    s.gap = 0.0;
    s.threads = threads;
    s.async_nodes = async;
    s.node_limit = node_limit;
    s.memory_limit_mb = mb;
    s.should_stop = stop;
    return ckm_solve(p, &s, r, err);
}

static ckm_error solve_budget_err(const ckm_problem *p, double mb, int node_limit, ckm_result **r, ckm_err *err)
{
    return solve_with(p, 1, 0, node_limit, mb, NULL, r, err);
}

static ckm_error solve_budget(const ckm_problem *p, double mb, int node_limit, ckm_result **r)
{
    ckm_err err = {CKM_OK, ""};
    return solve_budget_err(p, mb, node_limit, r, &err);
}

static void test_memory_budget(void)
{
    double opt;
    ckm_problem *p = branching_instance(&opt);
    if (!p)
        return;
    ckm_result *full = solve_exact(p, 0.0, 1, 0);
    /* the root's need: the smallest budget not refused, by bisection (node limit 1: the
     * refusal comes before any solve) */
    double lo = 1e-3, hi = 100.0;
    size_t refused = 0, limited = 0, last_nodes = 0;
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi);
        ckm_result *r = NULL;
        ckm_error rc = solve_budget(p, mid, 1, &r);
        if (rc == CKM_ERR_NOMEM) {
            lo = mid;
            refused++;
        } else {
            CHECK(rc == CKM_OK && r);
            hi = mid;
        }
        ckm_result_free(r);
    }
    double budgets[] = {lo * 0.5, hi + 1e-4, hi + 1e-3, hi + 1e-2, hi + 0.05, hi + 0.2, 100.0};
    for (size_t q = 0; q < sizeof budgets / sizeof budgets[0] && full; q++) {
        ckm_result *r = NULL;
        ckm_err err = {CKM_OK, ""};
        ckm_error rc = solve_budget_err(p, budgets[q], 0, &r, &err);
        if (rc == CKM_ERR_NOMEM) {
            CHECK(!r && strstr(err.message, "memory budget") != NULL && q == 0);
            continue;
        }
        CHECK(rc == CKM_OK && r && r->has_labels && r->violations == 0);
        if (!r)
            continue;
        CHECK(r->nodes >= last_nodes);
        last_nodes = r->nodes;
        if (r->status == CKM_STATUS_MEMORY_LIMIT) {
            limited++;
            CHECK(r->nodes < full->nodes && strstr(r->message, "memory limit") && strstr(r->message, "budget"));
            CHECK(r->lower_bound <= opt + 1e-9 * (1 + opt) && r->sse >= opt - 1e-9 * (1 + opt));
            CHECK(isfinite(r->gap) && r->gap > 0.0);
        } else {
            CHECK(r->status == CKM_STATUS_OPTIMAL && r->nodes == full->nodes && fabs(r->sse - full->sse) <= 0.0);
        }
        printf("memory budget %.4f MB (root need %.4f): %s, %zu nodes, gap %.3g\n", budgets[q], hi,
               ckm_status_string(r->status), r->nodes, r->gap);
        ckm_result_free(r);
    }
    CHECK(refused >= 1 && limited >= 1);
    /* invalid budgets */
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    s.memory_limit_mb = -1.0;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r && strstr(err.message, "memory_limit_mb"));
    s.memory_limit_mb = NAN;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r);
    ckm_result_free(full);
    ckm_problem_free(p);
}

typedef struct stop_count {
    int calls, limit; /* limit < 0: never stop */
} stop_count;

static int stop_after(void *user)
{
    stop_count *c = user;
    return ++c->calls > c->limit && c->limit >= 0;
}

static void test_interrupt_and_refusals(void)
{
    sm_state = 4242;
    double X[24];
    oracle_pair pairs[8];
    int np = oracle_random_instance(unif, 12, 5, X, pairs);
    ckm_problem *p = oracle_problem(X, 12, 2, 3, pairs, np, NULL, NULL);
    CHECK(p != NULL);
    if (!p)
        return;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.gap = 0.0;
    s.threads = 1;
    /* count the stop polls of the whole search, then stop at 3/4 of them (one thread: the
     * same sequence of polls) */
    stop_count sc = {0, -1};
    s.should_stop = stop_after;
    s.stop_user = &sc;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK && r && r->status == CKM_STATUS_OPTIMAL && r->nodes > 2);
    size_t full_nodes = r ? r->nodes : 0;
    double opt = r ? r->sse : NAN;
    ckm_result_free(r);
    r = NULL;
    sc.limit = sc.calls * 3 / 4;
    sc.calls = 0;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK && r);
    if (r) {
        CHECK(r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->nodes < full_nodes);
        CHECK(r->violations == 0 && r->sse >= opt - 1e-9 && r->lower_bound <= opt + 1e-9 && isfinite(r->gap));
        CHECK(strstr(r->message, "interrupted") != NULL);
        printf("interrupt: %s after %zu of %zu nodes, SSE %.6f, gap %.3g\n", ckm_status_string(r->status), r->nodes,
               full_nodes, r->sse, r->gap);
    }
    ckm_result_free(r);
    s.should_stop = NULL;
    s.gap = 1.0;
    r = NULL;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r && strstr(err.message, "gap"));
    s.gap = -1e-3;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r && strstr(err.message, "gap"));
    s.gap = 1e-4;
    s.node_limit = -1;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r && strstr(err.message, "node_limit"));
    s.node_limit = 0;
    /* clusters allowed to be empty: the bound assumes k non-empty clusters */
    CHECK(ckm_problem_set_size_range(p, 0, 12, &err) == CKM_OK);
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_UNSUPPORTED && !r && strstr(err.message, "non-empty"));
    ckm_problem_free(p);
}

/* The asynchronous node pool on 2 workers. Which incumbent a node starts from depends on
 * timing, so the node count may differ between runs; the optimum (gap 0) may not. */
static atomic_int pool_polls, pool_poll_limit;

static int pool_stop(void *user)
{
    (void)user;
    return atomic_fetch_add(&pool_polls, 1) + 1 > atomic_load(&pool_poll_limit);
}

static ckm_error solve_async(const ckm_problem *p, int node_limit, double mb, bool stop, ckm_result **r, ckm_err *err)
{
    return solve_with(p, 2, 1, node_limit, mb, stop ? pool_stop : NULL, r, err);
}

static void test_async_pool(void)
{
    double opt;
    ckm_problem *p = branching_instance(&opt);
    if (!p)
        return;
    ckm_err err = {CKM_OK, ""};
    size_t polls_full = 0;
    for (int run = 0; run < 4; run++) {
        ckm_result *r = NULL;
        atomic_store(&pool_polls, 0);
        atomic_store(&pool_poll_limit, 1 << 30);
        CHECK(solve_async(p, 0, 0.0, true, &r, &err) == CKM_OK && r);
        if (!r)
            continue;
        CHECK(r->status == CKM_STATUS_OPTIMAL && r->has_labels && r->violations == 0 && r->nodes > 1);
        CHECK(fabs(r->sse - opt) <= 1e-9 * (1 + opt) && r->lower_bound <= opt + 1e-9 * (1 + opt));
        CHECK(strstr(r->message, "asynchronous node pool") != NULL);
        polls_full = (size_t)atomic_load(&pool_polls);
        printf("async pool run %d: %zu nodes, SSE %.6f (brute force %.6f)\n", run, r->nodes, r->sse, opt);
        ckm_result_free(r);
    }
    /* node limits: exactly that many nodes, the incumbent and its certified gap */
    int limits[] = {1, 2, 5};
    for (size_t q = 0; q < sizeof limits / sizeof limits[0]; q++) {
        ckm_result *r = NULL;
        CHECK(solve_async(p, limits[q], 0.0, false, &r, &err) == CKM_OK && r);
        if (!r)
            continue;
        CHECK(r->status == CKM_STATUS_ITERATION_LIMIT && r->nodes == (size_t)limits[q] && r->has_labels);
        CHECK(r->lower_bound <= opt + 1e-9 * (1 + opt) && r->sse >= opt - 1e-9 * (1 + opt) && r->gap > 0.0);
        ckm_result_free(r);
    }
    /* a stop request halfway through the polls: interrupted, with what was proven */
    ckm_result *r = NULL;
    atomic_store(&pool_polls, 0);
    atomic_store(&pool_poll_limit, (int)(polls_full / 2));
    CHECK(solve_async(p, 0, 0.0, true, &r, &err) == CKM_OK && r);
    if (r) {
        CHECK(r->status == CKM_STATUS_INTERRUPTED && strstr(r->message, "interrupted"));
        CHECK(r->lower_bound <= opt + 1e-9 * (1 + opt) && (!r->has_labels || r->sse >= opt - 1e-9 * (1 + opt)));
        printf("async pool stopped after %d of %zu polls: %zu nodes, gap %.3g\n", atomic_load(&pool_poll_limit),
               polls_full, r->nodes, r->gap);
    }
    ckm_result_free(r);
    /* the budget: refused below the root's need, a large one changes nothing */
    r = NULL;
    CHECK(solve_async(p, 0, 1e-3, false, &r, &err) == CKM_ERR_NOMEM && !r && strstr(err.message, "memory budget"));
    CHECK(solve_async(p, 0, 100.0, false, &r, &err) == CKM_OK && r && r->status == CKM_STATUS_OPTIMAL &&
          fabs(r->sse - opt) <= 1e-9 * (1 + opt));
    ckm_result_free(r);
    /* 0 or 1 only */
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.async_nodes = 2;
    r = NULL;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && !r && strstr(err.message, "async_nodes"));
    ckm_problem_free(p);
}

/* CC-SOS-SDP's instance: iris (bundled data/iris.csv), k = 3, every cluster exactly 50. */
static void test_iris_sizes(void)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(CKM_SOURCE_DIR "/data/iris.csv", NULL, &ds, &err) == CKM_OK);
    if (!ds)
        return;
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(ds->X, ds->n, ds->d, 3, &p, &err) == CKM_OK);
    CHECK(p && ckm_problem_set_size_range(p, 50, 50, &err) == CKM_OK);
    ckm_result *r = p ? solve_exact(p, 1e-4, 0, 0) : NULL;
    if (r) {
        CHECK(r->status == CKM_STATUS_OPTIMAL && r->violations == 0 && r->gap <= 1e-4);
        CHECK(fabs(r->sse - 81.2778) <= 1e-3 && r->lower_bound <= 81.2778 + 5e-5);
        printf("iris 50/50/50: SSE %.6f, bound %.6f, %zu nodes\n", r->sse, r->lower_bound, r->nodes);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
}

int main(void)
{
    test_oracle();
    test_threads_and_limits();
    test_interrupt_and_refusals();
    test_iris_sizes();
    test_memory_budget();
    test_async_pool();
    return ck_report();
}
