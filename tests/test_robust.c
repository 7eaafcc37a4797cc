/*
 * test_robust.c -- hostile and degenerate inputs through the public API (issue 14):
 *   - extreme magnitudes: the same points times 2^e for e from -400 to 400 give the SAME
 *     labels in every algorithm (power-of-two rescaling is exact) and SSE times 4^e; points
 *     whose squared distances overflow are refused (CKM_ERR_INVALID, with the reason);
 *   - zero SSE (k = number of distinct points): ipc and exact prove it optimal at once;
 *   - a time limit and a stop request that must bite, for every algorithm: the status, a
 *     checked labelling, and the time taken (limit + the documented 1 s grace + slack for
 *     the sanitizers; ipc / exact answer a stop request after the SDP iteration under way);
 *   - settings.threads out of range, and a solve whose memory model exceeds the machine.
 */
#include "check.h"

#include <time.h>

static const char *ALGOS[] = {"kmeans", "blpkm", "cop", "bckm", "admm", "sizeflow", "ipc", "exact"};
#define N_ALGOS (sizeof ALGOS / sizeof ALGOS[0])

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What algorithm a honours: kmeans nothing, sizeflow sizes only, cop pairs only. */
static int takes_pairs(const char *a) { return strcmp(a, "kmeans") != 0 && strcmp(a, "sizeflow") != 0; }
static int takes_sizes(const char *a) { return strcmp(a, "kmeans") != 0 && strcmp(a, "cop") != 0; }

/* n points of d blobs around k centers (uniform in [-5, 5]), times 2^e; labels truth. */
static double *blobs(size_t n, size_t d, size_t k, int e, uint64_t seed, int32_t *truth)
{
    double *X = malloc(n * d * sizeof(double)), *C = malloc(k * d * sizeof(double));
    uint64_t st = seed;
    for (size_t q = 0; q < k * d; q++)
        C[q] = 10.0 * ck_unif(&st) - 5.0;
    for (size_t i = 0; i < n; i++) {
        size_t c = i % k;
        if (truth)
            truth[i] = (int32_t)c;
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = ldexp(C[c * d + f] + 2.0 * (ck_unif(&st) - 0.5) * 1.5, e);
    }
    free(C);
    return X;
}

/* problem on X with must-links / cannot-links drawn from truth (pairs of each kind) and,
 * when sizes, bounds n/k - slack .. n/k + slack */
static ckm_problem *build(const double *X, size_t n, size_t d, size_t k, const int32_t *truth, size_t pairs,
                          size_t cl_pairs, int sizes, size_t slack, uint64_t seed)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK)
        return NULL;
    uint64_t st = seed;
    size_t ml = 0, cl = 0;
    while (ml < pairs || cl < cl_pairs) {
        size_t i = (size_t)(ck_unif(&st) * (double)n), j = (size_t)(ck_unif(&st) * (double)n);
        if (i == j)
            continue;
        int same = truth[i] == truth[j];
        if (same && ml < pairs && ckm_problem_add_pair(p, i, j, CKM_MUST_LINK, &err) == CKM_OK)
            ml++;
        else if (!same && cl < cl_pairs && ckm_problem_add_pair(p, i, j, CKM_CANNOT_LINK, &err) == CKM_OK)
            cl++;
    }
    if (sizes)
        CHECK(ckm_problem_set_size_range(p, n / k - slack, n / k + slack, &err) == CKM_OK);
    return p;
}

static ckm_result *run(const ckm_problem *p, const char *algo, int n_init, double limit, ckm_stop_fn stop,
                       void *user, ckm_error *rc_out, ckm_err *err)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
    s.n_init = n_init;
    s.time_limit_s = limit;
    s.should_stop = stop;
    s.stop_user = user;
    s.threads = 2;
    ckm_result *r = NULL;
    *rc_out = ckm_solve(p, &s, &r, err);
    return r;
}

static void extreme_magnitudes(void)
{
    const size_t n = 24, d = 2, k = 3;
    int32_t truth[24];
    const int exps[] = {-400, -30, 0, 30, 400};
    for (size_t a = 0; a < N_ALGOS; a++) {
        const char *algo = ALGOS[a];
        int32_t ref[24];
        double ref_sse = 0.0;
        for (size_t q = 0; q < sizeof exps / sizeof exps[0]; q++) {
            double *X = blobs(n, d, k, exps[q], 7, truth);
            ckm_problem *p = build(X, n, d, k, truth, takes_pairs(algo) ? 3 : 0, takes_pairs(algo) ? 3 : 0,
                                   takes_sizes(algo), 1, 11);
            ckm_err err = {CKM_OK, ""};
            ckm_error rc;
            ckm_result *r = p ? run(p, algo, 3, 0.0, NULL, NULL, &rc, &err) : NULL;
            CHECK(r && rc == CKM_OK && r->has_labels && r->violations == 0);
            if (r && r->has_labels) {
                if (q == 0) {
                    memcpy(ref, r->labels, sizeof ref);
                    ref_sse = ldexp(r->sse, -2 * exps[q]);
                } else {
                    int same = memcmp(ref, r->labels, sizeof ref) == 0;
                    CHECK(same);
                    CHECK_NEAR(ldexp(r->sse, -2 * exps[q]) / ref_sse, 1.0, 1e-12);
                    if (!same)
                        fprintf(stderr, "  %s: labels differ at scale 2^%d\n", algo, exps[q]);
                }
            }
            ckm_result_free(r);
            ckm_problem_free(p);
            free(X);
        }
    }
    /* squared distances beyond double precision: refused with the reason, for every algorithm */
    double X[8] = {0.0, 0.0, 1.7e308, -1.7e308, 1.0, 2.0, -1.6e308, 1.6e308};
    for (size_t a = 0; a < N_ALGOS; a++) {
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, 4, 2, 2, &p, &err) == CKM_OK);
        ckm_error rc;
        ckm_result *r = run(p, ALGOS[a], 1, 0.0, NULL, NULL, &rc, &err);
        CHECK(rc == CKM_ERR_INVALID && r == NULL);
        CHECK_MSG(err, "too far apart for double precision");
        ckm_problem_free(p);
    }
    printf("extreme magnitudes: %zu algorithms, identical labels at 2^-400 .. 2^400, overflow refused\n", N_ALGOS);
}

/* Zero-SSE optima (k >= the number of distinct positions): ipc and exact prove them at once,
 * at the root (exact: one node), even where every computed SSE and the total scatter are
 * rounding noise of 0 (identical points; positions such as 0.1 or 1000/3 whose means do not
 * round back to themselves), with or without must-links between equal points. The lower
 * bound never exceeds the SSE and the gap is 0. */
static void zero_sse_case(const double *X, size_t n, size_t k, size_t ml_step, const char *what)
{
    const char *algos[] = {"ipc", "exact"};
    for (int a = 0; a < 2; a++) {
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, n, 2, k, &p, &err) == CKM_OK);
        for (size_t i = 0; ml_step && i + ml_step < n / 2; i++) /* i and i + step share a position */
            CHECK(ckm_problem_add_pair(p, i, i + ml_step, CKM_MUST_LINK, &err) == CKM_OK);
        ckm_error rc;
        ckm_result *r = run(p, algos[a], 10, 0.0, NULL, NULL, &rc, &err);
        CHECK(rc == CKM_OK && r && r->status == CKM_STATUS_OPTIMAL && r->gap == 0.0);
        CHECK(r && r->lower_bound <= r->sse && r->sse <= 1e-20);
        if (r && strcmp(algos[a], "exact") == 0)
            CHECK(r->nodes == 1);
        if (r && (r->status != CKM_STATUS_OPTIMAL || r->gap != 0.0 || r->lower_bound > r->sse))
            fprintf(stderr, "  %s, %s: %s, SSE %g, bound %g, gap %g: %s\n", what, algos[a],
                    ckm_status_string(r->status), r->sse, r->lower_bound, r->gap, r->message);
        ckm_result_free(r);
        ckm_problem_free(p);
    }
}

static void zero_sse(void)
{
    double X[120];
    for (int i = 0; i < 20; i++) { /* 4 exactly representable positions, k = 4 */
        X[2 * i] = i % 4;
        X[2 * i + 1] = 2.0 * (i % 4) + 0.5;
    }
    zero_sse_case(X, 20, 4, 0, "4 positions");
    for (int i = 0; i < 60; i++) { /* 60 identical points, k = 3 */
        X[2 * i] = 1.5;
        X[2 * i + 1] = 2.5;
    }
    zero_sse_case(X, 60, 3, 0, "identical");
    zero_sse_case(X, 60, 3, 1, "identical, must-links");
    const double pos[3][2] = {{0.1, 0.3}, {7.7, -2.2}, {1000.0 / 3.0, 2.0 / 3.0}};
    for (int i = 0; i < 60; i++) {
        X[2 * i] = pos[i % 3][0];
        X[2 * i + 1] = pos[i % 3][1];
    }
    zero_sse_case(X, 60, 3, 0, "3 inexact positions, k = 3");
    zero_sse_case(X, 60, 4, 3, "3 inexact positions, k = 4, must-links");
    printf("zero SSE: ipc and exact prove 5 zero-SSE optima at the root\n");
}

typedef struct stopper {
    double at; /* now_s() after which the callback asks to stop */
    int calls;
} stopper;

static int stop_after(void *user)
{
    stopper *st = user;
    st->calls++;
    return now_s() >= st->at;
}

/* For every algorithm, on a problem it cannot finish quickly (many restarts; thousands of
 * groups for the SDP): a time limit of 0.5 s and a stop request at 0.4 s both bite. Asserted:
 * the mechanism (the stop function was polled, the status says why the run ended, the
 * labelling is checked), never a wall-clock bound -- a loaded or sanitized machine may take
 * longer; the latency itself is measured by bench/stop_latency.c. */
static void limits_and_interrupts(void)
{
    const size_t n = 3000, d = 8, k = 6;
    int32_t *truth = malloc(n * sizeof *truth);
    double *X = blobs(n, d, k, 0, 5, truth);
    for (size_t a = 0; a < N_ALGOS; a++) {
        const char *algo = ALGOS[a];
        int sdp = strcmp(algo, "ipc") == 0 || strcmp(algo, "exact") == 0;
        /* ipc / exact: 1500 must-links keep s near 1500 groups, so the stop lands inside
         * the SDP; the others get 300 must-links, 60 cannot-links and (sizeflow: only)
         * size bounds */
        size_t ml = takes_pairs(algo) ? (sdp ? 1500 : 300) : 0, cl = takes_pairs(algo) ? (sdp ? 1500 : 60) : 0;
        ckm_problem *p = build(X, n, d, k, truth, ml, cl, strcmp(algo, "sizeflow") == 0, 40, 3);
        int n_init = sdp ? 10 : 100000;
        for (int mode = 0; mode < 2; mode++) {
            ckm_err err = {CKM_OK, ""};
            ckm_error rc;
            stopper st = {now_s() + 0.4, 0};
            double t0 = now_s();
            ckm_result *r = mode == 0 ? run(p, algo, n_init, 0.5, NULL, NULL, &rc, &err)
                                      : run(p, algo, n_init, 0.0, stop_after, &st, &rc, &err);
            double took = now_s() - t0;
            ckm_status want = mode == 0 ? CKM_STATUS_TIME_LIMIT : CKM_STATUS_INTERRUPTED;
            CHECK(rc == CKM_OK && r);
            if (!r) {
                fprintf(stderr, "  %s: %s\n", algo, err.message);
                continue;
            }
            CHECK(r->status == want && r->has_labels && r->violations == 0 && isfinite(r->sse));
            if (mode == 1)
                CHECK(st.calls > 0);
            if (r->status != want || !r->has_labels)
                fprintf(stderr, "  %s %s: status %s, labels %d, %.2f s: %s\n", algo,
                        mode == 0 ? "time limit" : "interrupt", ckm_status_string(r->status), r->has_labels, took,
                        r->message);
            ckm_result_free(r);
        }
        ckm_problem_free(p);
    }
    free(X);
    free(truth);
    printf("limits and interrupts: %zu algorithms, each stopped with a checked labelling\n", N_ALGOS);
}

static void threads_and_memory(void)
{
    double X[6] = {0, 0, 1, 1, 5, 5};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 3, 2, 2, &p, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    ckm_result *r = NULL;
    s.threads = CKM_MAX_THREADS + 1;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && r == NULL);
    CHECK_MSG(err, "threads = 257");
    s.threads = 1000000000;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && r == NULL);
    s.threads = CKM_MAX_THREADS;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK && r && r->has_labels);
    ckm_result_free(r);
    r = NULL;
    ckm_problem_free(p);
    /* blpkm on 10^6 points with k = 10^4 and the euclidean distance: even the restricted
     * assignment model of the column generation (route_restricted.c) keeps the s x k costs twice
     * with it, ~160 GB by the memory model, and is refused before anything large is
     * allocated (the full model's 10^10 columns are never considered); with squared
     * distances the costs come from the centers (restricted_costs.c), and k = 10^5 is
     * refused by the model's own bitsets (25 GB) */
    const size_t n = 1000000;
    double *Y = malloc(n * sizeof(double));
    for (size_t i = 0; i < n; i++)
        Y[i] = (double)(i % 977);
    for (int sq = 0; sq < 2; sq++) {
        CHECK(ckm_problem_create(Y, n, 1, sq ? 100000 : 10000, &p, &err) == CKM_OK);
        snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
        s.threads = 0;
        s.distance = sq ? CKM_DISTANCE_SQEUCLIDEAN : CKM_DISTANCE_EUCLIDEAN;
        CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_NOMEM && r == NULL);
        CHECK_MSG(err, "blpkm would need about");
        CHECK_MSG(err, "MB are available");
        CHECK_MSG(err, "lifted cannot-links");
        ckm_problem_free(p);
    }
    free(Y);
}

int main(void)
{
    extreme_magnitudes();
    zero_sse();
    limits_and_interrupts();
    threads_and_memory();
    return ck_report();
}
