/*
 * test_kmeans.c -- k-means against independent truth: brute-force optimum on tiny
 * instances (every labelling with k non-empty clusters enumerated), the Lloyd fixed-point
 * property of every returned labelling, iris's known optimum SSE 78.851, and determinism.
 * The bounded Lloyd step (Yinyang) against the plain one: the same labels, iterations and
 * SSE bits from the same seeds and from given initial centers, on shapes that stress it
 * (many iterations, high d, exact ties on grid data, a large offset, weights, d = 1,
 * thread counts, empty-cluster repairs).
 */
#include "check.h"
#include "oracle.h"

#include <stdint.h>

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

/* Minimum SSE over all labellings with every cluster non-empty (k^n enumeration). */
static double brute_force(const double *X, size_t n, size_t d, size_t k)
{
    size_t lo[3] = {1, 1, 1}, hi[3] = {n, n, n};
    return oracle_best(X, (int)n, (int)d, (int)k, NULL, 0, lo, hi, NULL);
}

static ckm_result *run(const double *X, size_t n, size_t d, size_t k, uint64_t seed, int n_init)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_result *r = NULL;
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    s.seed = seed;
    s.n_init = n_init;
    s.tol = 0.0;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    ckm_problem_free(p);
    return r;
}

/* Lloyd fixed point: each point's own center is (one of) its nearest centers. */
static int is_lloyd_fixed_point(const double *X, size_t n, size_t d, const ckm_result *r)
{
    for (size_t i = 0; i < n; i++) {
        double own = 0.0, best = INFINITY;
        for (size_t j = 0; j < r->k; j++) {
            double s = 0.0;
            for (size_t f = 0; f < d; f++) {
                double t = X[i * d + f] - r->centers[j * d + f];
                s += t * t;
            }
            if ((int32_t)j == r->labels[i])
                own = s;
            if (s < best)
                best = s;
        }
        if (own > best + 1e-9 * (1.0 + best))
            return 0;
    }
    return 1;
}

static void test_brute_force(void)
{
    int matched = 0, runs = 0;
    for (int inst = 0; inst < 30; inst++) {
        sm_state = 1000 + (uint64_t)inst;
        size_t n = 6 + (size_t)inst % 5, d = 1 + (size_t)inst % 3, k = 2 + (size_t)inst % 2;
        double X[40];
        for (size_t i = 0; i < n * d; i++)
            X[i] = 10.0 * unif();
        double opt = brute_force(X, n, d, k);
        ckm_result *r = run(X, n, d, k, (uint64_t)inst, 20);
        if (!r)
            continue;
        runs++;
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->has_labels);
        CHECK(r->sse >= opt - 1e-9);          /* never below the true optimum */
        CHECK(is_lloyd_fixed_point(X, n, d, r));
        for (size_t j = 0; j < k; j++)
            CHECK(r->sizes[j] >= 1);
        if (fabs(r->sse - opt) <= 1e-9 * (1.0 + opt))
            matched++;
        ckm_result_free(r);
    }
    /* 20 greedy k-means++ restarts find the optimum of such tiny instances; allow one miss */
    CHECK(runs == 30);
    CHECK(matched >= 29);
    if (matched < 29)
        fprintf(stderr, "k-means matched the brute-force optimum on %d of %d instances\n", matched, runs);
}

static void test_iris(void)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(CKM_SOURCE_DIR "/data/iris.csv", NULL, &ds, &err) == CKM_OK);
    if (!ds)
        return;
    CHECK(ds->n == 150 && ds->d == 4);
    ckm_result *r = run(ds->X, ds->n, ds->d, 3, 1, 10);
    if (r) {
        CHECK_NEAR(r->sse, 78.851441, 5e-6); /* known optimum of raw iris, k = 3 */
        CHECK(is_lloyd_fixed_point(ds->X, ds->n, ds->d, r));
        /* determinism: same seed -> identical labels */
        ckm_result *r2 = run(ds->X, ds->n, ds->d, 3, 1, 10);
        CHECK(r2 && memcmp(r->labels, r2->labels, 150 * sizeof(int32_t)) == 0);
        CHECK(r2 && r2->sse == r->sse && r2->iterations == r->iterations);
        ckm_result_free(r2);
    }
    ckm_result_free(r);
    /* one restart from a different seed gives a valid, possibly different, local optimum */
    r = run(ds->X, ds->n, ds->d, 7, 99, 1);
    if (r) {
        CHECK(r->restarts == 1 && is_lloyd_fixed_point(ds->X, ds->n, ds->d, r));
        for (size_t j = 0; j < 7; j++)
            CHECK(r->sizes[j] >= 1);
    }
    ckm_result_free(r);
    ckm_dataset_free(ds);
}

static void test_degenerate(void)
{
    /* all points identical: any labelling with non-empty clusters has SSE 0 */
    double same[12] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    ckm_result *r = run(same, 6, 2, 3, 5, 3);
    if (r) {
        CHECK(r->has_labels && r->sse == 0.0);
        for (size_t j = 0; j < 3; j++)
            CHECK(r->sizes[j] >= 1);
    }
    ckm_result_free(r);
    /* k = n: each point alone, provably optimal */
    double X[4] = {0, 1, 5, 9};
    r = run(X, 4, 1, 4, 0, 1);
    if (r) {
        CHECK(r->status == CKM_STATUS_OPTIMAL && r->sse == 0.0 && r->lower_bound == 0.0);
        CHECK(r->gap == 0.0);
    }
    ckm_result_free(r);
    /* k = 1: the mean */
    r = run(X, 4, 1, 1, 0, 2);
    if (r) {
        CHECK_NEAR(r->sse, 3.75 * 3.75 + 2.75 * 2.75 + 1.25 * 1.25 + 5.25 * 5.25, 1e-12);
        CHECK_NEAR(r->centers[0], 3.75, 1e-15);
    }
    ckm_result_free(r);
}

/* The labelling must not depend on the thread count (the distance blocks are split across
 * threads; each row is computed the same way), nor on repeated runs. */
static void test_threads(void)
{
    size_t n = 20000, d = 8, k = 40;
    double *X = malloc(n * d * sizeof *X);
    if (!X)
        return;
    sm_state = 77;
    for (size_t i = 0; i < n * d; i++)
        X[i] = unif() + (double)((i / d) % 13);
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    ckm_result *r[3] = {NULL, NULL, NULL};
    int threads[3] = {1, 2, 3};
    for (int t = 0; t < 3 && p; t++) {
        ckm_settings s;
        ckm_settings_default(&s);
        s.seed = 5;
        s.n_init = 2;
        s.threads = threads[t];
        CHECK(ckm_solve(p, &s, &r[t], &err) == CKM_OK);
    }
    for (int t = 1; t < 3; t++)
        CHECK(r[0] && r[t] && memcmp(r[0]->labels, r[t]->labels, n * sizeof(int32_t)) == 0 &&
              r[0]->sse == r[t]->sse && r[0]->iterations == r[t]->iterations);
    for (int t = 0; t < 3; t++)
        ckm_result_free(r[t]);
    ckm_problem_free(p);
    free(X);
}

/* Plain and bounded Lloyd on problem p (n points) with settings tweaked by the caller:
 * labels, SSE, iterations and restarts identical. */
static void same_as_plain(const ckm_problem *p, size_t n, const ckm_settings *base, const char *what)
{
    ckm_result *r[2] = {NULL, NULL};
    ckm_lloyd mode[2] = {CKM_LLOYD_PLAIN, CKM_LLOYD_BOUNDS};
    ckm_err err = {CKM_OK, ""};
    for (int v = 0; v < 2; v++) {
        ckm_settings s = *base;
        s.lloyd = mode[v];
        CHECK(ckm_solve(p, &s, &r[v], &err) == CKM_OK);
    }
    bool same = r[0] && r[1] && memcmp(r[0]->labels, r[1]->labels, n * sizeof(int32_t)) == 0 &&
                r[0]->sse == r[1]->sse && r[0]->iterations == r[1]->iterations &&
                r[0]->restarts == r[1]->restarts;
    if (!same)
        fprintf(stderr, "bounded Lloyd differs from plain on %s\n", what);
    CHECK(same);
    ckm_result_free(r[0]);
    ckm_result_free(r[1]);
}

static void test_bounds_same_labels(void)
{
    struct {
        const char *what;
        size_t n, d, k;
        double spread, noise, offset;
        int grid, weights;
    } cases[] = {
        {"overlapping 2-d blobs (many iterations)", 4000, 2, 10, 10.0, 3.0, 0.0, 0, 0},
        /* most points near many centers: steps measure whole rows (yinyang.c hard_row) */
        {"heavily overlapping 8-d blobs, k = 60", 6000, 8, 60, 1.0, 3.5, 0.0, 0, 0},
        {"50-d blobs, k = 40", 2000, 50, 40, 10.0, 2.0, 0.0, 0, 0},
        {"integer grid (exact ties)", 3000, 3, 12, 0.0, 0.0, 0.0, 1, 0},
        {"offset 1e6 (rounding margin)", 3000, 4, 20, 2.0, 1.0, 1e6, 0, 0},
        {"offset 1e6, d = 40 (single-precision screen)", 2000, 40, 20, 2.0, 1.0, 1e6, 0, 0},
        {"weighted points", 3000, 5, 16, 10.0, 2.0, 0.0, 0, 1},
        {"1-d, k = 30", 5000, 1, 30, 10.0, 2.0, 0.0, 0, 0},
        {"k = 1", 500, 3, 1, 10.0, 1.0, 0.0, 0, 0},
        {"k = n / 2 (repairs)", 600, 2, 300, 1.0, 1.0, 0.0, 1, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].n, d = cases[c].d, k = cases[c].k;
        double *X = malloc(n * d * sizeof *X), *C = malloc(k * d * sizeof *C), *w = malloc(n * sizeof *w);
        if (!X || !C || !w) {
            free(X), free(C), free(w);
            continue;
        }
        sm_state = 1000 + c;
        for (size_t q = 0; q < k * d; q++)
            C[q] = cases[c].spread * (2.0 * unif() - 1.0);
        for (size_t i = 0; i < n; i++) {
            size_t j = (size_t)(unif() * (double)k);
            for (size_t f = 0; f < d; f++)
                X[i * d + f] = cases[c].grid ? floor(6.0 * unif())
                                             : cases[c].offset + C[j * d + f] + cases[c].noise * (unif() - 0.5);
            w[i] = 0.5 + unif();
        }
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
        if (p && cases[c].weights)
            CHECK(ckm_problem_set_weights(p, w, &err) == CKM_OK);
        ckm_settings s;
        ckm_settings_default(&s);
        s.seed = 11;
        s.n_init = 3;
        for (int threads = 1; p && threads <= 2; threads++) {
            s.threads = threads;
            s.tol = 0.0; /* to the fixed point */
            same_as_plain(p, n, &s, cases[c].what);
            s.tol = 1e-4;
            s.init = CKM_INIT_RANDOM; /* far-off starts: the first steps refuse bounds */
            same_as_plain(p, n, &s, cases[c].what);
            s.max_iter = 9; /* capped: no rebuild in the last steps, refusals in between */
            same_as_plain(p, n, &s, cases[c].what);
            s.max_iter = 0;
            s.init = CKM_INIT_DEFAULT;
        }
        ckm_problem_free(p);
        free(X);
        free(C);
        free(w);
    }
}

/* init_centers: one restart from exactly these centers (a Lloyd fixed point stays put,
 * also when the data are shifted and scaled internally); non-finite centers refused. */
static void test_init_centers(void)
{
    size_t n = 2000, d = 3, k = 6;
    double *X = malloc(n * d * sizeof *X);
    if (!X)
        return;
    sm_state = 4242;
    for (size_t i = 0; i < n * d; i++)
        X[i] = 3e7 + 5.0 * (double)((i / d) % k) + unif(); /* large offset: scale.c centers */
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    s.tol = 0.0;
    ckm_result *a = NULL, *b = NULL;
    CHECK(p && ckm_solve(p, &s, &a, &err) == CKM_OK);
    if (a) {
        s.init_centers = a->centers;
        s.n_init = 10;
        CHECK(ckm_solve(p, &s, &b, &err) == CKM_OK);
        CHECK(b && b->restarts == 1 && b->iterations == 1 &&
              memcmp(a->labels, b->labels, n * sizeof(int32_t)) == 0);
        CHECK(b && fabs(b->sse - a->sse) <= 1e-9 * a->sse);
        double bad[18];
        memcpy(bad, a->centers, sizeof bad);
        bad[7] = NAN;
        s.init_centers = bad;
        ckm_result *c = NULL;
        CHECK(ckm_solve(p, &s, &c, &err) == CKM_ERR_INVALID && c == NULL &&
              strstr(err.message, "init_centers: center 2, feature 1") != NULL);
    }
    ckm_result_free(a);
    ckm_result_free(b);
    ckm_problem_free(p);
    free(X);
}

/* precision = single: float32 passes decide; on well-separated data the result equals the
 * double one, and every returned labelling is still a Lloyd fixed point in double up to
 * float rounding; an unknown precision is refused. */
static void test_single_precision(void)
{
    size_t n = 6000, d = 40, k = 12;
    double *X = malloc(n * d * sizeof *X);
    if (!X)
        return;
    sm_state = 99;
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = 10.0 * (double)((i * 7 + f) % k == 0) + unif();
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    s.seed = 3;
    s.n_init = 2;
    ckm_result *a = NULL, *b = NULL;
    CHECK(p && ckm_solve(p, &s, &a, &err) == CKM_OK);
    s.precision = CKM_PRECISION_SINGLE;
    CHECK(p && ckm_solve(p, &s, &b, &err) == CKM_OK);
    CHECK(a && b && fabs(a->sse - b->sse) <= 1e-6 * a->sse);
    CHECK(b && is_lloyd_fixed_point(X, n, d, b));
    s.precision = (ckm_precision)5;
    ckm_result *c = NULL;
    CHECK(ckm_solve(p, &s, &c, &err) == CKM_ERR_INVALID && strstr(err.message, "precision = 5"));
    ckm_result_free(a);
    ckm_result_free(b);
    ckm_problem_free(p);
    free(X);
}

int main(void)
{
    test_single_precision();
    test_bounds_same_labels();
    test_init_centers();
    test_threads();
    test_brute_force();
    test_iris();
    test_degenerate();
    return ck_report();
}
