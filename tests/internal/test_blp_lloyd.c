/*
 * test_blp_lloyd.c -- the BLPKM_CC iteration (src/lloyd/blp_lloyd.c) on the restricted model
 * with its steps' costs from the centers (job.cost = NULL: ckm_assign_solve_centers, what
 * blpkm does past sizeflow's matrix limit, where no s x k cost matrix is stored) against the
 * same iteration with the s x k matrix (ckm_group_costs): from the same centers, every step
 * is the same proven optimum, so the same iterations, labels and SSE; the labels meet every
 * constraint (the public checker). Blobs in 3-D, must-links (groups of several points),
 * cannot-links and size bounds of n/k +- 10 %, with and without sample weights (with them
 * the groups' masses differ from their head counts).
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "assign.h"
#include "restricted.h"
#include "blp_lloyd.h"
#include "centers.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t st = 11;
static double unif(void) { return ck_unif(&st); }

enum { N = 1500, D = 3, K = 8 };

static void one_case(int weighted)
{
    static double X[N * D], w[N];
    double centers[K * D];
    for (size_t j = 0; j < K; j++)
        for (size_t q = 0; q < D; q++)
            centers[j * D + q] = 10.0 * unif();
    for (size_t i = 0; i < N; i++) {
        size_t g = (size_t)(unif() * K);
        for (size_t q = 0; q < D; q++)
            X[i * D + q] = centers[g * D + q] + 3.0 * (unif() - 0.5) + 2.0 * (unif() - 0.5);
        w[i] = 0.5 + unif();
    }
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, N, D, K, &p, &err) == CKM_OK);
    if (weighted)
        CHECK(ckm_problem_set_weights(p, w, &err) == CKM_OK);
    for (size_t q = 0; q < 60; q++) { /* must-links between neighbours in index order */
        size_t a = (size_t)(unif() * (N - 1));
        CHECK(ckm_problem_add_pair(p, a, a + 1, CKM_MUST_LINK, &err) == CKM_OK);
    }
    for (size_t q = 0; q < 300; q++) {
        size_t a = (size_t)(unif() * N), b = (size_t)(unif() * N);
        if (a != b && ckm_problem_add_pair(p, a, b, CKM_CANNOT_LINK, &err) != CKM_OK)
            err.code = CKM_OK; /* a pair contradicting a must-link: skipped */
    }
    CHECK(ckm_problem_set_size_range(p, N / K - N / K / 10, N / K + N / K / 10, &err) == CKM_OK);
    ckm_reduced *r = NULL;
    int infeasible = 0;
    char why[256];
    CHECK(ckm_reduce(p, &r, &infeasible, why, sizeof why, &err) == CKM_OK && !infeasible && r);
    if (!r) {
        ckm_problem_free(p);
        return;
    }
    ckm_settings set;
    ckm_settings_default(&set);
    set.threads = 2;
    ckm_context ctx = {.s = &set, .start = ckm_now(), .deadline = INFINITY, .max_iter = 100};
    size_t s = r->s;
    int32_t *labels[2];
    double sse[2];
    ckm_lloyd_stats stats[2];
    for (int route = 0; route < 2; route++) {
        ckm_assign asg;
        ckm_assign_want want = {"restricted", false, true};
        CHECK(ckm_assign_init(&asg, r, &want, &err) == CKM_OK && asg.state);
        if (route == 1)
            ((struct ckm_cg *)asg.state)->blk_rows = 50; /* several blocks of rows per pass */
        double C[K * D], wsum[K];
        for (size_t j = 0; j < K; j++) /* the same first centers: points 0, 100, ... */
            memcpy(C + j * D, X + j * 100 * D, D * sizeof(double));
        double *cost = route == 0 ? malloc(s * K * sizeof(double)) : NULL;
        int32_t *cur = malloc(s * sizeof(int32_t));
        labels[route] = malloc(s * sizeof(int32_t));
        ckm_blp_job job = {.asg = &asg, .dist = CKM_DISTANCE_SQEUCLIDEAN, .max_iter = 100, .name = "test",
                           .C = C, .kept = labels[route], .wsum = wsum, .cost = cost, .cur = cur};
        ckm_algo_out out;
        memset(&out, 0, sizeof out);
        CHECK(ckm_blp_lloyd(&ctx, r, &job, &stats[route], &out, &err) == CKM_OK);
        CHECK(stats[route].have && !stats[route].stopped && !stats[route].infeasible);
        CHECK(stats[route].proven_steps == stats[route].lp_steps + stats[route].mip_steps);
        sse[route] = ckm_group_sse(r, labels[route], C, wsum);
        free(cost);
        free(cur);
        ckm_assign_free(&asg);
    }
    printf("%s: %d iterations, SSE %.9g (matrix) and %.9g (centers), %zu + %zu steps via CBC\n",
           weighted ? "weighted" : "unweighted", stats[0].iterations, sse[0], sse[1], stats[0].mip_steps,
           stats[1].mip_steps);
    CHECK(stats[0].iterations == stats[1].iterations && stats[0].iterations >= 2);
    CHECK(memcmp(labels[0], labels[1], s * sizeof(int32_t)) == 0);
    CHECK_NEAR(sse[1], sse[0], 1e-9 * sse[0]);
    int32_t *full = malloc(N * sizeof(int32_t));
    for (size_t i = 0; i < N; i++)
        full[i] = labels[1][r->comp[i]];
    ckm_check_report *rep = NULL;
    CHECK(ckm_check(p, full, &rep, &err) == CKM_OK && rep && rep->count == 0);
    ckm_check_report_free(rep);
    free(full);
    free(labels[0]);
    free(labels[1]);
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

int main(void)
{
    one_case(0);
    one_case(1);
    return ck_report();
}
