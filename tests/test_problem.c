/*
 * test_problem.c -- problem construction and its boundary validation.
 */
#include "check.h"

#include <math.h>
#include <stdint.h>

int main(void)
{
    double X[6] = {0, 0, 1, 1, 5, 5};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 0, 2, 1, &p, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "n = 0");
    CHECK(ckm_problem_create(X, 3, 0, 1, &p, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "d = 0");
    CHECK(ckm_problem_create(X, 3, 2, 0, &p, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "k = 0");
    /* more clusters than points: a problem of new points for given centers (ckm_predict), but
       no clustering */
    CHECK(ckm_problem_create(X, 3, 2, 4, &p, &err) == CKM_OK && p);
    ckm_result *res = NULL;
    CHECK(ckm_solve(p, NULL, &res, &err) == CKM_ERR_INVALID && res == NULL);
    CHECK_MSG(err, "k = 4 is larger than the number of points n = 3");
    ckm_problem_free(p);
    p = NULL;
    /* n*d overflowing size_t is refused before anything is read */
    CHECK(ckm_problem_create(X, SIZE_MAX / 2, 4, 1, &p, &err) == CKM_ERR_NOMEM);
    CHECK_MSG(err, "overflows");
    X[3] = INFINITY;
    CHECK(ckm_problem_create(X, 3, 2, 2, &p, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "point 1, feature 1 is not finite");
    X[3] = 1;
    CHECK(ckm_problem_create(X, 3, 2, 2, &p, &err) == CKM_OK);
    if (!p)
        return ck_report();
    CHECK(ckm_problem_n(p) == 3 && ckm_problem_d(p) == 2 && ckm_problem_k(p) == 2);
    X[0] = 42; /* the problem holds a copy */
    CHECK(ckm_problem_points(p)[0] == 0.0);
    /* ckm_problem_wrap borrows: the same array, validated like a copy */
    ckm_problem *pw = NULL;
    CHECK(ckm_problem_wrap(X, 3, 2, 2, &pw, &err) == CKM_OK && ckm_problem_points(pw) == X);
    ckm_problem_free(pw);
    double bad[2] = {1.0, NAN};
    CHECK(ckm_problem_wrap(bad, 1, 2, 1, &pw, &err) == CKM_ERR_INVALID && pw == NULL);
    CHECK_MSG(err, "point 0, feature 1 is not finite");
    size_t lo, hi;
    CHECK(ckm_problem_size_bounds(p, 1, &lo, &hi, &err) == CKM_OK);
    CHECK(lo == 1 && hi == 3);
    CHECK(ckm_problem_size_bounds(p, 2, &lo, &hi, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "cluster 2 is out of range (k = 2)");

    CHECK(ckm_problem_add_pair(p, 0, 3, CKM_MUST_LINK, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "index out of range (n = 3)");
    CHECK(ckm_problem_add_pair(p, 1, 1, CKM_CANNOT_LINK, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "links a point with itself");
    CHECK(ckm_problem_add_pair(p, 0, 1, (ckm_link)7, &err) == CKM_ERR_INVALID);
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 1, 0, CKM_MUST_LINK, &err) == CKM_OK); /* duplicate: kept once */
    CHECK(ckm_problem_must_link_count(p) == 1);
    CHECK(ckm_problem_add_pair(p, 1, 0, CKM_CANNOT_LINK, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "pair (1, 0) is both must-link and cannot-link");
    CHECK(ckm_problem_add_pair(p, 1, 2, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_cannot_link_count(p) == 1);
    ckm_pair pr;
    CHECK(ckm_problem_pair(p, 1, &pr, &err) == CKM_OK);
    CHECK(pr.i == 1 && pr.j == 2 && pr.type == CKM_CANNOT_LINK);
    CHECK(ckm_problem_pair(p, 2, &pr, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "pair index 2 is out of range (the problem holds 2 pairs)");
    /* sample weights: finite and > 0, copied */
    double w[3] = {1.0, 2.5, 0.0};
    CHECK(ckm_problem_set_weights(p, w, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "sample weight 2 is 0");
    w[2] = NAN;
    CHECK(ckm_problem_set_weights(p, w, &err) == CKM_ERR_INVALID);
    w[2] = -1.0;
    CHECK(ckm_problem_set_weights(p, w, &err) == CKM_ERR_INVALID);
    CHECK(ckm_problem_weights(p) == NULL);
    w[2] = 3.0;
    CHECK(ckm_problem_set_weights(p, w, &err) == CKM_OK);
    w[1] = 9.0;
    CHECK(ckm_problem_weights(p) && ckm_problem_weights(p)[1] == 2.5);
    CHECK(ckm_problem_set_weights(p, NULL, &err) == CKM_OK && ckm_problem_weights(p) == NULL);

    /* a constraint set names the source line of the bad pair */
    ckm_constraints *c = NULL;
    CHECK(ckm_constraints_read(ck_file("c.txt", "ML 0 2\nCL 0 1\n"), 0, &c, &err) == CKM_OK);
    CHECK(ckm_problem_add_constraints(p, c, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "constraint on line 2: pair (0, 1) is both must-link and cannot-link");
    ckm_constraints_free(c);

    CHECK(ckm_problem_set_size_range(p, 3, 2, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "minimum 3 > maximum 2");
    size_t los[2] = {1, 2}, his[2] = {2, 1};
    CHECK(ckm_problem_set_sizes(p, los, his, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "cluster 1: minimum 2 > maximum 1");
    his[1] = 2;
    CHECK(ckm_problem_set_sizes(p, los, his, &err) == CKM_OK);
    CHECK(ckm_problem_size_bounds(p, 1, &lo, &hi, &err) == CKM_OK);
    CHECK(lo == 2 && hi == 2);
    ckm_problem_free(p);
    ckm_problem_free(NULL);
    ck_cleanup();
    return ck_report();
}
