/*
 * test_admm.c -- lp-box ADMM (`admm`) through the public API: on random tiny instances
 * (must-links, cannot-links, sizes) every result satisfies all constraints and is never
 * below the brute-force optimum, infeasible instances are proven; the cannot-link triangle
 * that stalls BCKM ends feasible; same seed => same labels, other seeds still feasible;
 * the euclidean distance is refused (admm minimises the SSE only); time limit and stop
 * requests end the run with a feasible labelling (or none) and the right status.
 */
#include "check.h"
#include "fixtures.h"

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static void test_oracle(void)
{
    int feasible = 0, infeasible = 0, optimal = 0;
    for (int inst = 0; inst < 40; inst++) {
        sm_state = 9100 + (uint64_t)inst;
        int n = 6 + inst % 4, k = 2 + inst % 2;
        double X[20];
        oracle_pair pairs[6];
        int np = oracle_random_instance(unif, n, 4, X, pairs);
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        if (inst % 2)
            for (int j = 0; j < k; j++)
                hi[j] = (size_t)(n / k + 1);
        if (inst % 5 == 0)
            lo[0] = hi[0] = (size_t)(n / k); /* an exact size */
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = oracle_problem(X, n, 2, k, pairs, np, lo, hi);
        CHECK(p != NULL);
        ckm_result *r = p ? ck_solve(p, "admm", 3) : NULL;
        if (r) {
            if (isinf(opt)) {
                infeasible++;
                CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
            } else {
                feasible++;
                CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0 && r->sse >= opt - 1e-9);
                optimal += r->sse <= opt + 1e-9 * (1 + opt);
            }
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    CHECK(feasible >= 25 && infeasible >= 1);
    /* a heuristic, but on these tiny instances it should usually find the optimum */
    CHECK(optimal * 10 >= feasible * 7);
    printf("admm oracle: %d feasible (%d at the optimum), %d infeasible\n", feasible, optimal, infeasible);
}

static void test_cannot_link_triangle(void)
{
    /* three nearly identical points, pairwise cannot-linked, next to two tight groups: the
     * BCKM stall case; admm must end on a feasible labelling */
    ckm_problem *p = ck_cl_triangle();
    CHECK(p != NULL);
    ckm_result *r = p ? ck_solve(p, "admm", 2) : NULL;
    if (r) {
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0);
        CHECK(r->labels[0] != r->labels[1] && r->labels[1] != r->labels[2] && r->labels[0] != r->labels[2]);
        int restarts = 0, iters = 0, conv = 0, repaired = 0;
        CHECK(sscanf(r->message, "%d restarts, %d ADMM iterations; %d converged to a binary point, %d rounded",
                     &restarts, &iters, &conv, &repaired) == 4);
        CHECK(restarts == 2 && conv + repaired >= 1 && repaired <= restarts);
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
    ckm_err err = {CKM_OK, ""};
    ckm_result *r[3] = {NULL, NULL, NULL};
    for (int a = 0; a < 3; a++) {
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "admm");
        s.n_init = 3;
        s.seed = a == 2 ? 5 : 1;
        s.threads = a == 1 ? 1 : 0;
        CHECK(ckm_solve(p, &s, &r[a], &err) == CKM_OK);
    }
    if (r[0] && r[1] && r[2]) {
        CHECK(r[0]->status == CKM_STATUS_FEASIBLE && r[0]->violations == 0);
        CHECK(r[2]->status == CKM_STATUS_FEASIBLE && r[2]->violations == 0);
        CHECK(memcmp(r[0]->labels, r[1]->labels, 60 * sizeof(int32_t)) == 0 && r[0]->sse == r[1]->sse);
    }
    for (int a = 0; a < 3; a++)
        ckm_result_free(r[a]);
    /* the euclidean assignment distance is blpkm's; admm refuses it */
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "admm");
    s.distance = CKM_DISTANCE_EUCLIDEAN;
    ckm_result *bad = NULL;
    CHECK(ckm_solve(p, &s, &bad, &err) == CKM_ERR_UNSUPPORTED && bad == NULL);
    CHECK(strstr(err.message, "squared distances") != NULL);
    ckm_problem_free(p);
}

static int polls_left;
static int stop_after(void *user)
{
    (void)user;
    return --polls_left < 0;
}

static void test_limits(void)
{
    size_t n = 400;
    double *X = malloc(n * 2 * sizeof *X);
    sm_state = 99;
    for (size_t i = 0; i < n * 2; i++)
        X[i] = unif() * 10.0;
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, 2, 4, &p, &err) == CKM_OK);
    for (size_t q = 0; q < 40; q++)
        CHECK(ckm_problem_add_pair(p, q, q + 200, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_set_size_range(p, 80, 120, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "admm");
    ckm_result *r = NULL;
    /* an already-expired limit: status time limit, the stop fallback's checked labelling */
    s.time_limit_s = 1e-9;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0 &&
          strstr(r->message, "stopped before a labelling was found"));
    ckm_result_free(r);
    /* many restarts under a short limit: the best feasible labelling so far */
    s.time_limit_s = 0.3;
    s.n_init = 1000000;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0);
        CHECK(r->restarts >= 1 && r->restarts < 1000000); /* the limit, not the count, ended it */
    }
    ckm_result_free(r);
    /* a stop request in the middle of the ADMM iterations of the first restart */
    s.time_limit_s = 0.0;
    s.n_init = 3;
    s.should_stop = stop_after;
    polls_left = 20;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->violations == 0);
        CHECK(r->restarts == 1);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
    free(X);
}

int main(void)
{
    test_oracle();
    test_cannot_link_triangle();
    test_determinism();
    test_limits();
    return ck_report();
}
