/*
 * test_dataset.c -- constraint generation from labels (Wagstaff protocol): distinct
 * pairs, types agreeing with the labels, exact ML share, determinism, refusals.
 */
#include "check.h"

int main(void)
{
    int32_t truth[30];
    for (int i = 0; i < 30; i++)
        truth[i] = i % 3;
    ckm_err err = {CKM_OK, ""};
    ckm_constraints *c = NULL, *c2 = NULL;
    CHECK(ckm_constraints_generate(truth, 30, 40, 0.25, 11, &c, &err) == CKM_OK);
    if (c) {
        CHECK(c->count == 40);
        size_t ml = 0;
        for (size_t q = 0; q < c->count; q++) {
            const ckm_pair *p = &c->pairs[q];
            CHECK(p->i < p->j && p->j < 30);
            CHECK((p->type == CKM_MUST_LINK) == (truth[p->i] == truth[p->j]));
            ml += p->type == CKM_MUST_LINK;
            for (size_t r = 0; r < q; r++)
                CHECK(!(c->pairs[r].i == p->i && c->pairs[r].j == p->j));
        }
        CHECK(ml == 10);
    }
    CHECK(ckm_constraints_generate(truth, 30, 40, 0.25, 11, &c2, &err) == CKM_OK);
    CHECK(c && c2 && memcmp(c->pairs, c2->pairs, 40 * sizeof(ckm_pair)) == 0);
    ckm_constraints_free(c2);
    c2 = NULL;
    CHECK(ckm_constraints_generate(truth, 30, 40, 0.25, 12, &c2, &err) == CKM_OK);
    CHECK(c && c2 && memcmp(c->pairs, c2->pairs, 40 * sizeof(ckm_pair)) != 0);
    ckm_constraints_free(c);
    ckm_constraints_free(c2);
    /* random types */
    CHECK(ckm_constraints_generate(truth, 30, 20, -1.0, 1, &c, &err) == CKM_OK);
    CHECK(c && c->count == 20);
    ckm_constraints_free(c);
    /* refusals: 3 classes of 10 -> 135 same-label pairs, 300 different */
    CHECK(ckm_constraints_generate(truth, 30, 200, 1.0, 1, &c, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "200 must-links requested but only 135 same-label pairs exist");
    CHECK(ckm_constraints_generate(truth, 30, 10, 1.5, 1, &c, &err) == CKM_ERR_INVALID);
    CHECK(ckm_constraints_generate(truth, 1, 1, 0.5, 1, &c, &err) == CKM_ERR_INVALID);
    CHECK(ckm_constraints_generate(truth, 30, 400, -1.0, 1, &c, &err) == CKM_ERR_INVALID);
    return ck_report();
}
