/*
 * test_checker.c -- the independent checker against hand-counted violations and a
 * hand-computed SSE.
 */
#include "check.h"

int main(void)
{
    /* points on a line: 0, 1, 2 | 10, 12 ; means 1 and 11 -> SSE = (1+0+1) + (1+1) = 4 */
    double X[5] = {0, 1, 2, 10, 12};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 5, 1, 2, &p, &err) == CKM_OK);
    if (!p)
        return ck_report();
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 2, 3, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 4, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 3, 4, CKM_CANNOT_LINK, &err) == CKM_OK);
    int32_t lab[5] = {0, 0, 0, 1, 1};
    ckm_check_report *r = NULL;
    CHECK(ckm_check(p, lab, &r, &err) == CKM_OK);
    if (r) {
        CHECK_NEAR(r->sse, 4.0, 1e-12);
        CHECK(r->sizes[0] == 3 && r->sizes[1] == 2);
        CHECK(r->must_link_violated == 1 && r->cannot_link_violated == 1);
        CHECK(r->size_violated == 0 && r->label_invalid == 0 && r->count == 2);
        CHECK(r->violations[0].kind == CKM_VIOLATION_PAIR && r->violations[0].index == 1);
        CHECK(r->violations[1].kind == CKM_VIOLATION_PAIR && r->violations[1].index == 3);
    }
    ckm_check_report_free(r);
    /* size bounds: at most 2 per cluster */
    CHECK(ckm_problem_set_size_range(p, 1, 2, &err) == CKM_OK);
    int32_t ok[5] = {0, 0, 1, 1, 0};
    CHECK(ckm_check(p, ok, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->size_violated == 1 && r->violations[r->count - 1].kind == CKM_VIOLATION_SIZE);
        CHECK(r->violations[r->count - 1].index == 0 && r->violations[r->count - 1].value == 3);
        CHECK(r->cannot_link_violated == 1); /* 0 and 4 together */
        /* clusters {0,1,4} mean 13/3 and {2,3} mean 6 */
        double m = 13.0 / 3.0;
        CHECK_NEAR(r->sse, m * m + (1 - m) * (1 - m) + (12 - m) * (12 - m) + 16 + 16, 1e-12);
    }
    ckm_check_report_free(r);
    /* labels outside [0, k) */
    int32_t badl[5] = {0, 1, 2, -1, 0};
    CHECK(ckm_check(p, badl, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->label_invalid == 2 && isnan(r->sse));
        CHECK(r->violations[0].kind == CKM_VIOLATION_LABEL && r->violations[0].index == 2 &&
              r->violations[0].value == 2);
    }
    ckm_check_report_free(r);
    ckm_check_report_free(NULL);
    /* ckm_sse on its own */
    double sse;
    CHECK(ckm_sse(X, 5, 1, lab, 2, &sse, &err) == CKM_OK);
    CHECK_NEAR(sse, 4.0, 1e-12);
    CHECK(ckm_sse(X, 5, 1, badl, 2, &sse, &err) == CKM_ERR_INVALID);
    ckm_problem_free(p);
    return ck_report();
}
