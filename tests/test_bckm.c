/*
 * test_bckm.c -- BCKM through the public API: every result on random tiny instances
 * (must-links, cannot-links, sizes) satisfies all constraints and is never below the
 * brute-force optimum; infeasible instances are proven; the known half-integral stall
 * (a cannot-link triangle whose points prefer one cluster) is detected and finished by the
 * exact step, never returned as a constraint-violating "feasible" labelling; same seed =>
 * same labels.
 */
#include "check.h"
#include "oracle.h"

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static void test_oracle(void)
{
    int feasible = 0, infeasible = 0;
    for (int inst = 0; inst < 40; inst++) {
        sm_state = 7000 + (uint64_t)inst;
        int n = 6 + inst % 4, k = 2 + inst % 2;
        double X[20];
        for (int i = 0; i < 2 * n; i++)
            X[i] = 10 * unif();
        oracle_pair pairs[6];
        int np = 0;
        for (int q = 0; q < 4; q++) {
            int i = (int)(unif() * n), j = (int)(unif() * n), dup = 0;
            for (int t = 0; t < np; t++)
                dup |= (pairs[t].i == i && pairs[t].j == j) || (pairs[t].i == j && pairs[t].j == i);
            if (i != j && !dup)
                pairs[np++] = (oracle_pair){i, j, unif() < 0.5};
        }
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        if (inst % 2)
            for (int j = 0; j < k; j++)
                hi[j] = (size_t)(n / k + 1);
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, (size_t)n, 2, (size_t)k, &p, &err) == CKM_OK);
        for (int q = 0; q < np; q++)
            CHECK(ckm_problem_add_pair(p, (size_t)pairs[q].i, (size_t)pairs[q].j,
                                       pairs[q].ml ? CKM_MUST_LINK : CKM_CANNOT_LINK, &err) == CKM_OK);
        CHECK(ckm_problem_set_sizes(p, lo, hi, &err) == CKM_OK);
        ckm_result *r = ck_solve(p, "bckm", 5);
        if (r) {
            if (isinf(opt)) {
                infeasible++;
                CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
            } else {
                feasible++;
                CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0 && r->sse >= opt - 1e-9);
            }
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    CHECK(feasible >= 25 && infeasible >= 1);
    printf("bckm oracle: %d feasible, %d infeasible\n", feasible, infeasible);
}

static void test_stall(void)
{
    /* three nearly identical points, pairwise cannot-linked, next to two tight groups */
    double X[46];
    sm_state = 3;
    X[0] = 0;
    X[1] = 0;
    X[2] = 0.01;
    X[3] = 0;
    X[4] = 0;
    X[5] = 0.01;
    for (int i = 3; i < 23; i++) {
        X[2 * i] = (i < 13 ? 5.0 : 0.0) + 0.3 * (unif() - 0.5);
        X[2 * i + 1] = (i < 13 ? 0.0 : 5.0) + 0.3 * (unif() - 0.5);
    }
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 23, 2, 3, &p, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 1, 2, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 2, CKM_CANNOT_LINK, &err) == CKM_OK);
    ckm_result *r = ck_solve(p, "bckm", 2);
    if (r) {
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0);
        CHECK(r->labels[0] != r->labels[1] && r->labels[1] != r->labels[2] && r->labels[0] != r->labels[2]);
        /* the guard fired: "S assignment steps (R LP rounds); N stalled ..." with N >= 1 */
        size_t steps = 0, rounds = 0, stalled = 0;
        CHECK(sscanf(r->message, "%zu assignment steps (%zu LP rounds); %zu stalled", &steps, &rounds, &stalled) == 3);
        CHECK(stalled >= 1 && stalled <= steps);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
}

static void test_determinism(void)
{
    double X[120];
    sm_state = 77;
    for (int i = 0; i < 60; i++) {
        X[2 * i] = (i % 3) * 4.0 + unif();
        X[2 * i + 1] = (i % 2) * 3.0 + unif();
    }
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 60, 2, 4, &p, &err) == CKM_OK);
    for (int q = 0; q < 8; q++) {
        CHECK(ckm_problem_add_pair(p, (size_t)q, (size_t)q + 20, CKM_MUST_LINK, &err) == CKM_OK);
        CHECK(ckm_problem_add_pair(p, (size_t)q + 30, (size_t)q + 31, CKM_CANNOT_LINK, &err) == CKM_OK);
    }
    CHECK(ckm_problem_set_size_range(p, 12, 18, &err) == CKM_OK);
    ckm_result *a = ck_solve(p, "bckm", 3), *b = ck_solve(p, "bckm", 3);
    CHECK(a && b && a->status == CKM_STATUS_FEASIBLE && a->violations == 0);
    CHECK(a && b && memcmp(a->labels, b->labels, 60 * sizeof(int32_t)) == 0 && a->sse == b->sse);
    ckm_result_free(a);
    ckm_result_free(b);
    ckm_problem_free(p);
}

int main(void)
{
    test_oracle();
    test_stall();
    test_determinism();
    return ck_report();
}
