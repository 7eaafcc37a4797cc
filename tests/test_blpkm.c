/*
 * test_blpkm.c -- BLPKM_CC through the public API against a brute-force oracle on tiny
 * random instances (must-links, cannot-links, size bounds, mixed): feasible exactly when
 * the oracle finds a feasible labelling, never below the optimum, usually equal with
 * restarts; infeasible cases proven; time limit honoured; determinism.
 */
#include "check.h"
#include "oracle.h"

#include <stdint.h>

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static ckm_result *solve(const double *X, int n, int d, int k, const oracle_pair *pairs, int np,
                         const size_t *lo, const size_t *hi, const char *algo, int n_init, ckm_init init,
                         double time_limit, ckm_error *rc_out)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_result *r = NULL;
    CHECK(ckm_problem_create(X, (size_t)n, (size_t)d, (size_t)k, &p, &err) == CKM_OK);
    for (int q = 0; q < np; q++)
        CHECK(ckm_problem_add_pair(p, (size_t)pairs[q].i, (size_t)pairs[q].j,
                                   pairs[q].ml ? CKM_MUST_LINK : CKM_CANNOT_LINK, &err) == CKM_OK);
    if (lo)
        CHECK(ckm_problem_set_sizes(p, lo, hi, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
    s.n_init = n_init;
    s.init = init;
    s.time_limit_s = time_limit;
    ckm_error rc = ckm_solve(p, &s, &r, &err);
    if (rc_out)
        *rc_out = rc;
    else
        CHECK(rc == CKM_OK);
    if (rc != CKM_OK && !rc_out)
        fprintf(stderr, "  solve: %s\n", err.message);
    ckm_problem_free(p);
    return r;
}

static void test_oracle(void)
{
    int feasible = 0, infeasible = 0, matched = 0;
    for (int inst = 0; inst < 60; inst++) {
        sm_state = 5000 + (uint64_t)inst;
        int n = 6 + inst % 4, d = 2, k = 2 + inst % 2;
        double X[20];
        for (int i = 0; i < n * d; i++)
            X[i] = 10.0 * unif();
        oracle_pair pairs[8];
        int np = 0, kind = inst % 4; /* 0 ML, 1 CL, 2 sizes, 3 mixed */
        for (int q = 0; q < 3 + inst % 3; q++) {
            int i = (int)(unif() * n), j = (int)(unif() * n);
            if (i == j || kind == 2)
                continue;
            int ml = kind == 0 ? 1 : kind == 1 ? 0 : unif() < 0.5;
            int dup = 0;
            for (int r = 0; r < np; r++)
                dup |= (pairs[r].i == i && pairs[r].j == j) || (pairs[r].i == j && pairs[r].j == i);
            if (!dup)
                pairs[np++] = (oracle_pair){i, j, ml};
        }
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        if (kind >= 2)
            for (int j = 0; j < k; j++) {
                lo[j] = (size_t)(1 + (int)(unif() * 2));
                hi[j] = lo[j] + (size_t)(1 + (int)(unif() * 3));
            }
        double opt = oracle_best(X, n, d, k, pairs, np, lo, hi, NULL);
        ckm_result *r = solve(X, n, d, k, pairs, np, lo, hi, "blpkm", 20, CKM_INIT_KMEANSPP, 0.0, NULL);
        if (!r)
            continue;
        if (isinf(opt)) {
            infeasible++;
            CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
        } else {
            feasible++;
            CHECK(r->status == CKM_STATUS_FEASIBLE && r->has_labels && r->violations == 0);
            CHECK(r->sse >= opt - 1e-9);
            matched += fabs(r->sse - opt) <= 1e-9 * (1.0 + opt);
        }
        ckm_result_free(r);
    }
    CHECK(feasible >= 30 && infeasible >= 3); /* the generator exercises both outcomes */
    CHECK(matched >= feasible - 3);
    printf("blpkm oracle: %d feasible (%d at the optimum), %d infeasible\n", feasible, matched, infeasible);
}

static void test_infeasible_cases(void)
{
    double X[12] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0};
    /* size bounds that the must-link groups cannot meet: two groups of 3, sizes 2 and 4 */
    oracle_pair ml[4] = {{0, 1, 1}, {1, 2, 1}, {3, 4, 1}, {4, 5, 1}};
    size_t lo[2] = {2, 4}, hi[2] = {2, 4};
    ckm_result *r = solve(X, 6, 2, 2, ml, 4, lo, hi, "blpkm", 1, CKM_INIT_DEFAULT, 0.0, NULL);
    if (r) {
        CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
        CHECK(strstr(r->message, "assignment model is infeasible") != NULL);
    }
    ckm_result_free(r);
    /* odd cannot-link cycle with k = 2, and a cannot-link clique of k + 1 */
    oracle_pair cyc[5] = {{0, 1, 0}, {1, 2, 0}, {2, 3, 0}, {3, 4, 0}, {4, 0, 0}};
    r = solve(X, 6, 2, 2, cyc, 5, NULL, NULL, "blpkm", 1, CKM_INIT_DEFAULT, 0.0, NULL);
    CHECK(r && r->status == CKM_STATUS_INFEASIBLE && strstr(r->message, "odd cycle"));
    ckm_result_free(r);
    oracle_pair clq[6] = {{0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {1, 2, 0}, {1, 3, 0}, {2, 3, 0}};
    r = solve(X, 6, 2, 3, clq, 6, NULL, NULL, "blpkm", 1, CKM_INIT_DEFAULT, 0.0, NULL);
    CHECK(r && r->status == CKM_STATUS_INFEASIBLE && strstr(r->message, "clique of 4"));
    ckm_result_free(r);
}

static void test_limits_and_determinism(void)
{
    size_t n = 400, d = 2;
    double *X = malloc(n * d * sizeof *X);
    sm_state = 99;
    for (size_t i = 0; i < n * d; i++)
        X[i] = unif() * 10.0;
    oracle_pair cl[40];
    for (int q = 0; q < 40; q++)
        cl[q] = (oracle_pair){q, q + 200, 0};
    /* an already-expired limit: status time limit, the stop fallback's checked labelling */
    ckm_result *r = solve(X, (int)n, (int)d, 4, cl, 40, NULL, NULL, "blpkm", 1, CKM_INIT_DEFAULT, 1e-9, NULL);
    CHECK(r && r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0 &&
          strstr(r->message, "stopped before a labelling was found"));
    ckm_result_free(r);
    /* many restarts under a short limit: stops in time with the best feasible labelling */
    r = solve(X, (int)n, (int)d, 4, cl, 40, NULL, NULL, "blpkm", 1000000, CKM_INIT_DEFAULT, 0.3, NULL);
    if (r) {
        CHECK(r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0);
        CHECK(r->restarts >= 1 && r->restarts < 1000000); /* the limit, not the count, ended it */
    }
    ckm_result_free(r);
    /* same seed, same labels */
    ckm_result *a = solve(X, (int)n, (int)d, 4, cl, 40, NULL, NULL, "blpkm", 3, CKM_INIT_DEFAULT, 0.0, NULL);
    ckm_result *b = solve(X, (int)n, (int)d, 4, cl, 40, NULL, NULL, "blpkm", 3, CKM_INIT_DEFAULT, 0.0, NULL);
    CHECK(a && b && memcmp(a->labels, b->labels, n * sizeof(int32_t)) == 0 && a->sse == b->sse);
    ckm_result_free(a);
    ckm_result_free(b);
    free(X);
}

/* Greedy COP-KMeans dead-ends where BLPKM_CC does not: three pairs of points far apart and
 * point 6 in the middle, cannot-linked to one point of each pair, which the geometry puts into
 * three different clusters. (k = 3: with k = 2 preprocessing would already join the two
 * points that a cannot-link chain forces together.) */
static void test_cop(void)
{
    double T[14] = {0, 0, 0.5, 0, 10, 0, 9.5, 0, 5, 8.66, 5, 8.16, 5, 2.9};
    oracle_pair cl[3] = {{0, 6, 0}, {2, 6, 0}, {4, 6, 0}};
    ckm_result *r = solve(T, 7, 2, 3, cl, 3, NULL, NULL, "cop", 5, CKM_INIT_DEFAULT, 0.0, NULL);
    if (r) {
        CHECK(r->status == CKM_STATUS_NO_SOLUTION && !r->has_labels);
        CHECK(strstr(r->message, "failed in all 5 restarts") != NULL);
        CHECK(strstr(r->message, "point 6 is cannot-linked into every cluster") != NULL);
    }
    ckm_result_free(r);
    double opt = oracle_best(T, 7, 2, 3, cl, 3, (size_t[]){1, 1, 1}, (size_t[]){7, 7, 7}, NULL);
    r = solve(T, 7, 2, 3, cl, 3, NULL, NULL, "blpkm", 10, CKM_INIT_KMEANSPP, 0.0, NULL);
    CHECK(r && r->status == CKM_STATUS_FEASIBLE && r->violations == 0 && r->sse >= opt - 1e-9);
    ckm_result_free(r);
    double X[16] = {0, 0, 10, 0, 5, 0, 0.5, 0, 9.5, 0, 0, 0.5, 10, 0.5, 5, 0.2};
    /* on easy instances COP succeeds and never breaks a constraint */
    oracle_pair ok[3] = {{0, 3, 1}, {1, 4, 1}, {0, 1, 0}};
    r = solve(X, 8, 2, 2, ok, 3, NULL, NULL, "cop", 5, CKM_INIT_DEFAULT, 0.0, NULL);
    CHECK(r && r->status == CKM_STATUS_FEASIBLE && r->violations == 0);
    ckm_result_free(r);
    /* COP does not honour size bounds: refused, not ignored */
    ckm_error rc;
    size_t lo[2] = {4, 4}, hi[2] = {4, 4};
    r = solve(X, 8, 2, 2, ok, 3, lo, hi, "cop", 5, CKM_INIT_DEFAULT, 0.0, &rc);
    CHECK(rc == CKM_ERR_UNSUPPORTED && r == NULL);
}

int main(void)
{
    test_oracle();
    test_infeasible_cases();
    test_limits_and_determinism();
    test_cop();
    return ck_report();
}
