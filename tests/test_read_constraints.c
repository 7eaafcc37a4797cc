/*
 * test_read_constraints.c -- constraint files (both syntaxes) and size-bound files,
 * including every malformed case with its line/column.
 */
#include "check.h"

static void bad(const char *content, size_t n, const char *needle)
{
    ckm_constraints *c = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_constraints_read(ck_file("bad.txt", content), n, &c, &err) == CKM_ERR_PARSE);
    CHECK(c == NULL);
    CHECK_MSG(err, needle);
}

static void test_constraints(void)
{
    ckm_constraints *c = NULL;
    ckm_err err = {CKM_OK, ""};
    const char *p = ck_file("c.txt", "# header\nML 0 1\nCL 1 2 # why\n\n3 4 1\n4 5 -1\nml 6 7\nML 1 0\n");
    CHECK(ckm_constraints_read(p, 10, &c, &err) == CKM_OK);
    if (c) {
        CHECK(c->count == 5); /* "ML 1 0" duplicates "ML 0 1" */
        CHECK(c->pairs[0].type == CKM_MUST_LINK && c->pairs[0].i == 0 && c->pairs[0].j == 1);
        CHECK(c->pairs[1].type == CKM_CANNOT_LINK && c->pairs[1].line == 3);
        CHECK(c->pairs[2].type == CKM_MUST_LINK && c->pairs[2].i == 3);
        CHECK(c->pairs[3].type == CKM_CANNOT_LINK && c->pairs[3].j == 5);
        CHECK(c->pairs[4].type == CKM_MUST_LINK && c->pairs[4].line == 7);
    }
    ckm_constraints_free(c);
    c = NULL;
    /* n = 0 disables range checks */
    CHECK(ckm_constraints_read(ck_file("big.txt", "CL 100 200\n"), 0, &c, &err) == CKM_OK);
    ckm_constraints_free(c);
    c = NULL;
    CHECK(ckm_constraints_read(ck_file("none.txt", "# nothing\n"), 5, &c, &err) == CKM_OK);
    if (c)
        CHECK(c->count == 0);
    ckm_constraints_free(c);

    bad("ML 0 1\nML 0 10\n", 10, "bad.txt:2:6: point index 10 out of range (n = 10");
    bad("ML 3 3\n", 10, "bad.txt:1: constraint links point 3 with itself");
    bad("ML 0 1 2\n", 10, "bad.txt:1:8: confidence '2' is not a number in (0, 1]");
    bad("ML 0 1 0.5 3\n", 10, "bad.txt:1: expected 'ML i j'");
    bad("ML 0\n", 10, "got 2 fields");
    bad("XX 0 1\n", 10, "bad.txt:1:1: 'XX' is not a point index");
    bad("0 1 2\n", 10, "bad.txt:1:5: constraint type '2' must be 1");
    bad("ML -1 2\n", 10, "'-1' is not a point index");
    bad("ML 0 1.5\n", 10, "'1.5' is not a point index");
    bad("ML 0 1\nCL 1 0\n", 10, "bad.txt:2: pair (1, 0) is cannot-link here but must-link on line 1");
    bad("ML 0 99999999999999999999999\n", 10, "is not a point index");
    CHECK(ckm_constraints_read("/nonexistent/c.txt", 3, &c, &err) == CKM_ERR_IO);
}

static void test_sizes(void)
{
    size_t lo[3], hi[3];
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sizes_read(ck_file("s.txt", "# lo hi\n1 5\n2 2\n0 9\n"), 3, lo, hi, &err) == CKM_OK);
    CHECK(lo[0] == 1 && hi[0] == 5 && lo[1] == 2 && hi[1] == 2 && lo[2] == 0 && hi[2] == 9);
    CHECK(ckm_sizes_read(ck_file("s.txt", "50\n50\n50\n"), 3, lo, hi, &err) == CKM_OK);
    CHECK(lo[2] == 50 && hi[2] == 50);
    CHECK(ckm_sizes_read(ck_file("s.txt", "1 5\n2 2\n"), 3, lo, hi, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "2 size lines for k = 3 clusters");
    CHECK(ckm_sizes_read(ck_file("s.txt", "1 5\n3 2\n1 1\n"), 3, lo, hi, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "s.txt:2: cluster 1: lower bound 3 > upper bound 2");
    CHECK(ckm_sizes_read(ck_file("s.txt", "1 5\n2 x\n1 1\n"), 3, lo, hi, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "s.txt:2:3: 'x' is not a cluster size");
    CHECK(ckm_sizes_read(ck_file("s.txt", "1 2 3\n1\n1\n"), 3, lo, hi, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "got 3 fields");
}

int main(void)
{
    test_constraints();
    test_sizes();
    ck_cleanup();
    return ck_report();
}
