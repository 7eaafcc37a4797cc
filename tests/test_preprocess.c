/*
 * test_preprocess.c -- constraint preprocessing through ckm_problem_analyze and
 * ckm_solve: must-link components, lifted cannot-links, and every quick infeasibility
 * proof with its reason; feasible look-alikes must not be called infeasible; with k = 2 the
 * groups that cannot-link chains force together are merged (checked against brute force:
 * every labelling that satisfies the constraints keeps them together), only with k = 2.
 */
#include "check.h"

static double X10[20] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0};

static ckm_problem *make(size_t n, size_t k, const char *cons)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X10, n, 2, k, &p, &err) == CKM_OK);
    if (cons) {
        ckm_constraints *c = NULL;
        CHECK(ckm_constraints_read(ck_file("c.txt", cons), n, &c, &err) == CKM_OK);
        CHECK(ckm_problem_add_constraints(p, c, &err) == CKM_OK);
        ckm_constraints_free(c);
    }
    return p;
}

static ckm_analysis *analyze(ckm_problem *p)
{
    ckm_analysis *a = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_analyze(p, &a, &err) == CKM_OK);
    return a;
}

static void expect_infeasible(ckm_problem *p, const char *needle)
{
    ckm_analysis *a = analyze(p);
    CHECK(a && a->infeasible);
    if (a && !strstr(a->reason, needle)) {
        ck_failed++;
        fprintf(stderr, "reason '%s' lacks '%s'\n", a->reason, needle);
    }
    ckm_analysis_free(a);
    /* the solver reports the same thing as a status, not an error */
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, NULL, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels && r->labels == NULL);
        CHECK(strstr(r->message, needle) != NULL);
    }
    ckm_result_free(r);
}

static void test_components(void)
{
    ckm_problem *p = make(10, 3, "ML 0 1\nML 1 2\nML 5 4\nML 8 9\nCL 0 4\nCL 2 5\nCL 9 3\n");
    ckm_analysis *a = analyze(p);
    if (a) {
        CHECK(!a->infeasible);
        CHECK(a->groups == 6); /* {0,1,2} {3} {4,5} {6} {7} {8,9} */
        CHECK(a->group_of[0] == 0 && a->group_of[1] == 0 && a->group_of[2] == 0);
        CHECK(a->group_of[3] == 1 && a->group_of[4] == 2 && a->group_of[5] == 2);
        CHECK(a->group_of[6] == 3 && a->group_of[7] == 4 && a->group_of[8] == 5 && a->group_of[9] == 5);
        CHECK(a->group_size[0] == 3 && a->group_size[2] == 2 && a->group_size[3] == 1);
        CHECK(a->lifted_cannot_links == 2); /* CL 0 4 and CL 2 5 both join groups 0 and 2 */
    }
    ckm_analysis_free(a);
    ckm_problem_free(p);
}

/* no must-link (none at all, or cannot-links only): every point its own group, in order */
static void test_singletons(void)
{
    const char *cons[] = {NULL, "CL 0 4\nCL 2 5\n"};
    for (int c = 0; c < 2; c++)
        for (size_t k = 2; k <= 3; k++) {
            ckm_problem *p = make(10, k, cons[c]);
            ckm_analysis *a = analyze(p);
            CHECK(a && !a->infeasible && a->groups == 10);
            for (size_t i = 0; a && i < 10; i++)
                CHECK(a->group_of[i] == i && a->group_size[i] == 1);
            CHECK(a && a->lifted_cannot_links == (c ? 2u : 0u));
            ckm_analysis_free(a);
            ckm_problem_free(p);
        }
}

static void test_proofs(void)
{
    ckm_problem *p = make(6, 2, "ML 0 1\nML 1 2\nML 2 3\nCL 3 0\n");
    expect_infeasible(p, "cannot-link (3, 0) contradicts the must-links joining them (3-2-1-0)");
    ckm_problem_free(p);

    ckm_err err = {CKM_OK, ""};
    p = make(10, 3, NULL);
    CHECK(ckm_problem_set_size_range(p, 4, 10, &err) == CKM_OK);
    expect_infeasible(p, "sum of minimums 12 > n = 10");
    CHECK(ckm_problem_set_size_range(p, 0, 3, &err) == CKM_OK);
    expect_infeasible(p, "sum of maximums 9 < n = 10");
    CHECK(ckm_problem_set_size_range(p, 0, 4, &err) == CKM_OK);
    ckm_analysis *a = analyze(p);
    CHECK(a && !a->infeasible);
    ckm_analysis_free(a);
    ckm_problem_free(p);

    p = make(10, 3, "ML 0 1\nML 1 2\nML 2 3\nML 3 4\n");
    CHECK(ckm_problem_set_size_range(p, 0, 4, &err) == CKM_OK);
    expect_infeasible(p, "must-link component of point 0 has 5 points, more than the largest cluster maximum 4");
    ckm_problem_free(p);

    p = make(4, 3, "ML 0 1\nML 2 3\n");
    expect_infeasible(p, "only 2 groups of points for 3 clusters");
    ckm_problem_free(p);

    /* K4 of cannot-links needs 4 clusters */
    p = make(10, 3, "CL 0 1\nCL 0 2\nCL 0 3\nCL 1 2\nCL 1 3\nCL 2 3\n");
    expect_infeasible(p, "clique of 4 groups of points that need 4 different clusters but k = 3");
    ckm_problem_free(p);
    /* the same clique through must-link groups */
    p = make(10, 2, "ML 0 5\nML 1 6\nCL 5 1\nCL 0 2\nCL 6 2\n");
    expect_infeasible(p, "clique of 3 groups");
    ckm_problem_free(p);
    /* k = 2: odd cycle of length 5 (no triangle) */
    p = make(10, 2, "CL 0 1\nCL 1 2\nCL 2 3\nCL 3 4\nCL 4 0\n");
    expect_infeasible(p, "odd cycle");
    ckm_problem_free(p);
    /* even cycle with k = 2 is feasible, and so is a K4 with k = 4 */
    p = make(10, 2, "CL 0 1\nCL 1 2\nCL 2 3\nCL 3 0\n");
    a = analyze(p);
    CHECK(a && !a->infeasible);
    ckm_analysis_free(a);
    ckm_problem_free(p);
    p = make(10, 4, "CL 0 1\nCL 0 2\nCL 0 3\nCL 1 2\nCL 1 3\nCL 2 3\n");
    a = analyze(p);
    CHECK(a && !a->infeasible);
    ckm_analysis_free(a);
    ckm_problem_free(p);
}

/* brute force over all 2^n labellings with both clusters used: are points i and j together in
 * every one that satisfies the constraints (and is there one)? */
static int forced_together(size_t n, const size_t (*cl)[2], size_t ncl, size_t i, size_t j)
{
    int any = 0;
    for (unsigned mask = 1; mask + 1 < (1u << n); mask++) {
        int ok = 1;
        for (size_t e = 0; e < ncl && ok; e++)
            ok = ((mask >> cl[e][0]) & 1u) != ((mask >> cl[e][1]) & 1u);
        if (!ok)
            continue;
        any = 1;
        if (((mask >> i) & 1u) != ((mask >> j) & 1u))
            return 0;
    }
    return any;
}

static void test_k2_merge(void)
{
    /* chain 0-1-2-3-4 and the pair 6-7: {0,2,4} {1,3} {5} {6} {7} {8} {9} */
    const char *cons = "CL 0 1\nCL 1 2\nCL 2 3\nCL 3 4\nCL 6 7\n";
    const size_t cl[5][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {6, 7}};
    ckm_problem *p = make(10, 2, cons);
    ckm_analysis *a = analyze(p);
    if (a) {
        CHECK(!a->infeasible && a->groups == 7 && a->lifted_cannot_links == 2);
        for (size_t i = 0; i < 10; i++)
            for (size_t j = i + 1; j < 10; j++)
                CHECK((a->group_of[i] == a->group_of[j]) == (forced_together(10, cl, 5, i, j) == 1));
        CHECK(a->group_of[0] == 0 && a->group_of[1] == 1 && a->group_size[0] == 3 && a->group_size[1] == 2);
    }
    ckm_analysis_free(a);
    ckm_problem_free(p);
    /* the merged group {0,2,3,4} cannot fit clusters of at most 3 (each must-link part can) */
    ckm_err err = {CKM_OK, ""};
    p = make(6, 2, "CL 0 1\nCL 1 2\nML 2 3\nML 0 4\n");
    CHECK(ckm_problem_set_size_range(p, 1, 3, &err) == CKM_OK);
    expect_infeasible(p, "group (must-links and, with k = 2, cannot-links) of point 0 has 4 points, more than "
                         "the largest cluster maximum 3");
    ckm_problem_free(p);
    /* ...and merging goes through must-link groups: ML 0 5, CL 5 1, CL 1 2 -> {0,2,5} {1} */
    p = make(6, 2, "ML 0 5\nCL 5 1\nCL 1 2\n");
    a = analyze(p);
    CHECK(a && !a->infeasible && a->groups == 4 && a->group_of[2] == a->group_of[0] &&
          a->group_of[5] == a->group_of[0] && a->group_size[a->group_of[0]] == 3);
    ckm_analysis_free(a);
    ckm_problem_free(p);
    /* k = 3: a cannot-link chain forces nothing */
    p = make(10, 3, cons);
    a = analyze(p);
    CHECK(a && !a->infeasible && a->groups == 10 && a->lifted_cannot_links == 5);
    ckm_analysis_free(a);
    ckm_problem_free(p);
}

int main(void)
{
    test_components();
    test_singletons();
    test_proofs();
    test_k2_merge();
    ck_cleanup();
    return ck_report();
}
