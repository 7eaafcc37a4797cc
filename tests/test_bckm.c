/*
 * test_bckm.c -- BCKM through the public API: every result on random tiny instances
 * (must-links, cannot-links, sizes) satisfies all constraints and is never below the
 * brute-force optimum; infeasible instances are proven; the known half-integral stall
 * (a cannot-link triangle whose points prefer one cluster) is detected and finished by the
 * exact step, never returned as a constraint-violating "feasible" labelling; same seed =>
 * same labels.
 */
#include "check.h"
#include "fixtures.h"

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static void test_oracle(void)
{
    int feasible = 0, infeasible = 0;
    for (int inst = 0; inst < 40; inst++) {
        sm_state = 7000 + (uint64_t)inst;
        int n = 6 + inst % 4, k = 2 + inst % 2;
        double X[20];
        oracle_pair pairs[6];
        int np = oracle_random_instance(unif, n, 4, X, pairs);
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        if (inst % 2)
            for (int j = 0; j < k; j++)
                hi[j] = (size_t)(n / k + 1);
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = oracle_problem(X, n, 2, k, pairs, np, lo, hi);
        CHECK(p != NULL);
        ckm_result *r = p ? ck_solve(p, "bckm", 5) : NULL;
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
    ckm_problem *p = ck_cl_triangle();
    CHECK(p != NULL);
    ckm_result *r = p ? ck_solve(p, "bckm", 2) : NULL;
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
    ckm_problem *p = ck_linked();
    CHECK(p != NULL);
    if (!p)
        return;
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
