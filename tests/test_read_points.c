/*
 * test_read_points.c -- the dense point readers: every supported format, header and label
 * column handling, and every malformed case with its specific message and location.
 */
#include "check.h"

static ckm_dataset *read_ok(const char *name, const char *content, const ckm_read_options *o)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = ckm_dataset_read(ck_file(name, content), o, &ds, &err);
    CHECK(rc == CKM_OK);
    if (rc != CKM_OK)
        fprintf(stderr, "  unexpected error: %s\n", err.message);
    return ds;
}

/* Reading must fail with code and a message containing needle. */
static void read_bad(const char *name, const char *content, const ckm_read_options *o,
                     ckm_error code, const char *needle)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = ckm_dataset_read(ck_file(name, content), o, &ds, &err);
    CHECK(rc == code);
    CHECK(ds == NULL);
    CHECK_MSG(err, needle);
    CHECK(strchr(err.message, '\n') == NULL);
}

static void test_delimited(void)
{
    ckm_dataset *ds = read_ok("a.csv", "1,2\n3,4.5\n-1e3,0\n", NULL);
    if (ds) {
        CHECK(ds->n == 3 && ds->d == 2 && !ds->had_header && ds->labels == NULL);
        CHECK(ds->X[3] == 4.5 && ds->X[4] == -1000.0);
        CHECK(ds->format == CKM_FORMAT_DELIMITED);
    }
    ckm_dataset_free(ds);
    /* header, comments, CRLF, blank lines, TSV */
    ds = read_ok("b.tsv", "# comment\nx\ty\r\n\n1\t2\r\n3\t4 # trailing\n", NULL);
    if (ds) {
        CHECK(ds->n == 2 && ds->d == 2 && ds->had_header);
        CHECK(ds->X[2] == 3.0 && ds->X[3] == 4.0);
    }
    ckm_dataset_free(ds);
    /* whitespace and semicolons */
    ds = read_ok("c.txt", "  1   2 3\n4 5\t6\n", NULL);
    if (ds)
        CHECK(ds->n == 2 && ds->d == 3 && ds->X[5] == 6.0);
    ckm_dataset_free(ds);
    ds = read_ok("d.txt", "1;2\n3;4\n", NULL);
    if (ds)
        CHECK(ds->n == 2 && ds->d == 2);
    ckm_dataset_free(ds);
}

static void test_labels(void)
{
    ckm_read_options o;
    ckm_read_options_default(&o);
    o.label_column = CKM_LABEL_COLUMN_LAST;
    ckm_dataset *ds = read_ok("l.csv", "a,b,species\n1,2,setosa\n3,4,virginica\n5,6,setosa\n", &o);
    if (ds) {
        CHECK(ds->n == 3 && ds->d == 2 && ds->n_classes == 2);
        CHECK(ds->labels[0] == 0 && ds->labels[1] == 1 && ds->labels[2] == 0);
        CHECK(strcmp(ds->class_names[1], "virginica") == 0);
        CHECK(ds->X[2] == 3.0 && ds->X[3] == 4.0);
    }
    ckm_dataset_free(ds);
    o.label_column = 0;
    ds = read_ok("l0.csv", "7,1,2\n9,3,4\n", &o);
    if (ds)
        CHECK(ds->d == 2 && ds->labels[0] == 0 && ds->labels[1] == 1 && ds->X[0] == 1.0);
    ckm_dataset_free(ds);
    o.label_column = 5;
    read_bad("l5.csv", "1,2\n3,4\n", &o, CKM_ERR_INVALID, "label column 5 does not exist");
    o.label_column = 0;
    read_bad("lonly.csv", "1\n2\n", &o, CKM_ERR_PARSE, "no feature columns");
}

static void test_keel(void)
{
    const char *keel = "@relation iris\n@attribute a real [0, 9]\n@attribute b real [0, 9]\n"
                       "@attribute class {x, y}\n@inputs a, b\n@outputs class\n@data\n"
                       "5.1, 3.5, x\n4.9, 3.0, y\n";
    ckm_dataset *ds = read_ok("k.dat", keel, NULL);
    if (ds) {
        CHECK(ds->format == CKM_FORMAT_KEEL && ds->n == 2 && ds->d == 2 && ds->n_classes == 2);
        CHECK(ds->X[2] == 4.9 && ds->labels[1] == 1);
    }
    ckm_dataset_free(ds);
    /* the column-name row some copies carry after @data is skipped */
    ds = read_ok("k2.dat", "@relation t\n@data\nAt1,At2,Class\n1,2,a\n3,4,b\n", NULL);
    if (ds)
        CHECK(ds->n == 2 && ds->had_header);
    ckm_dataset_free(ds);
    read_bad("k3.dat", "@relation t\n@attribute a real\n", NULL, CKM_ERR_PARSE, "without an '@data'");
    read_bad("k4.dat", "@relation t\n@data\n1,2,a\n1,zz,b\n", NULL, CKM_ERR_PARSE, "k4.dat:4:3: field 2: not a number");
}

static void test_pcsos(void)
{
    ckm_dataset *ds = read_ok("p.txt", "3 2 2\n1 2\n3 4\n5 6\n", NULL);
    if (ds) {
        CHECK(ds->format == CKM_FORMAT_PCSOS && ds->n == 3 && ds->d == 2 && ds->k_hint == 2);
        CHECK(ds->X[5] == 6.0);
    }
    ckm_dataset_free(ds);
    ds = read_ok("p2.txt", "2 3\n1 2 3\n4 5 6\n", NULL);
    if (ds)
        CHECK(ds->format == CKM_FORMAT_PCSOS && ds->n == 2 && ds->d == 3 && ds->k_hint == 0);
    ckm_dataset_free(ds);
    ckm_read_options o;
    ckm_read_options_default(&o);
    o.format = CKM_FORMAT_PCSOS;
    read_bad("p3.txt", "4 2 2\n1 2\n3 4\n5 6\n", &o, CKM_ERR_PARSE, "header says n = 4 rows but the file has 3");
    read_bad("p4.txt", "x y\n1 2\n", &o, CKM_ERR_PARSE, "PC-SOS-SDP header");
}

static void test_malformed(void)
{
    read_bad("empty.csv", "", NULL, CKM_ERR_PARSE, "no data (file is empty");
    read_bad("comments.csv", "# only\n\n   # comments\n", NULL, CKM_ERR_PARSE, "no data");
    read_bad("header_only.csv", "a,b\n", NULL, CKM_ERR_PARSE, "no data rows after the header");
    read_bad("ragged.csv", "1,2,3\n4,5,6\n7,8\n", NULL, CKM_ERR_PARSE, "ragged.csv:3: ragged row: 2 fields, expected 3");
    read_bad("word.csv", "1,2\n3,abc\n", NULL, CKM_ERR_PARSE, "word.csv:2:3: field 2: not a number: 'abc'");
    read_bad("nan.csv", "1,2\nnan,4\n", NULL, CKM_ERR_PARSE, "nan.csv:2:1: field 1: value is not finite: 'nan'");
    read_bad("inf.csv", "1,2\n3,-inf\n", NULL, CKM_ERR_PARSE, "value is not finite: '-inf'");
    read_bad("huge.csv", "1,2\n3,1e999\n", NULL, CKM_ERR_PARSE, "value is not finite: '1e999'");
    read_bad("emptyfield.csv", "1,2\n3,\n", NULL, CKM_ERR_PARSE, "field 2: empty value");
    read_bad("trail.csv", "1,2\n3,4x\n", NULL, CKM_ERR_PARSE, "not a number: '4x'");
    ckm_read_options o;
    ckm_read_options_default(&o);
    o.header = CKM_HEADER_NO;
    read_bad("noheader.csv", "a,b\n1,2\n", &o, CKM_ERR_PARSE, "noheader.csv:1:1: field 1: not a number: 'a'");
    /* auto mode: a first row with a typo is an error, not a header that hides a row */
    read_bad("typo.csv", "1,2x\n3,4\n", NULL, CKM_ERR_PARSE, "typo.csv:1:3: field 2: not a number: '2x'");
    /* the scikit-learn bundle's first line mixes counts and names: needs --header yes */
    o.header = CKM_HEADER_YES;
    ckm_dataset *sk = read_ok("sk.csv", "2,2,a,b\n1,2\n3,4\n", &o);
    if (sk)
        CHECK(sk->n == 2 && sk->had_header);
    ckm_dataset_free(sk);
    /* binary content */
    const char *p = ck_file("bin.csv", "1,2\n");
    FILE *f = fopen(p, "ab");
    fputc('\0', f);
    fputs("3,4\n", f);
    fclose(f);
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(p, NULL, &ds, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "NUL byte");
    CHECK(ckm_dataset_read("/nonexistent/ckm/file.csv", NULL, &ds, &err) == CKM_ERR_IO);
    CHECK_MSG(err, "cannot open");
    /* tiny values underflow to denormals but are finite: accepted */
    ds = read_ok("tiny.csv", "1e-320,2\n", NULL);
    if (ds)
        CHECK(ds->X[0] > 0.0);
    ckm_dataset_free(ds);
}

static void test_from_array(void)
{
    double X[4] = {1, 2, 3, NAN};
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_from_array(X, 2, 2, NULL, &ds, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "point 1, feature 1 is not finite");
    CHECK(ckm_dataset_from_array(X, 0, 2, NULL, &ds, &err) == CKM_ERR_INVALID);
    int32_t lab[2] = {0, -1};
    X[3] = 4;
    CHECK(ckm_dataset_from_array(X, 2, 2, lab, &ds, &err) == CKM_ERR_INVALID);
    lab[1] = 1;
    CHECK(ckm_dataset_from_array(X, 2, 2, lab, &ds, &err) == CKM_OK);
    if (ds) {
        CHECK(ds->n_classes == 2 && ds->X[3] == 4.0);
        ckm_dataset_standardize(ds);
        /* column 0: values 1, 3 -> mean 2, population std 1 -> -1, 1 */
        CHECK_NEAR(ds->X[0], -1.0, 1e-15);
        CHECK_NEAR(ds->X[2], 1.0, 1e-15);
    }
    ckm_dataset_free(ds);
    ckm_dataset_free(NULL);
}

int main(void)
{
    test_delimited();
    test_labels();
    test_keel();
    test_pcsos();
    test_malformed();
    test_from_array();
    ck_cleanup();
    return ck_report();
}
