/*
 * test_npy.c -- numpy .npy points and labels: round trips through the writers, files built
 * byte by byte here as numpy documents the format (versions 1.0 and 2.0, float32, 1-D,
 * small integer labels), and every refusal with its message (Fortran order, big-endian,
 * unsupported dtype, truncated or trailing data, NaN, a label column, negative labels).
 */
#include "check.h"

#include <stdint.h>

/* a .npy file: header dict + padding (version 1 or 2) + raw data */
static const char *npy_file(const char *name, int version, const char *dict, const void *data, size_t bytes)
{
    static char paths[4][512];
    static int next;
    const char *dir = ck_file("probe", "");
    char *p = paths[next++ % 4];
    snprintf(p, 512, "%.*s%s", (int)(strrchr(dir, '/') - dir + 1), dir, name);
    size_t pre = version == 1 ? 10 : 12, dl = strlen(dict);
    size_t total = (pre + dl + 1 + 63) / 64 * 64, hl = total - pre;
    unsigned char head[512];
    memcpy(head, "\x93NUMPY", 6);
    head[6] = (unsigned char)version;
    head[7] = 0;
    if (version == 1) {
        head[8] = (unsigned char)(hl & 0xff);
        head[9] = (unsigned char)(hl >> 8);
    } else {
        for (int b = 0; b < 4; b++)
            head[8 + b] = (unsigned char)(hl >> (8 * b));
    }
    memcpy(head + pre, dict, dl);
    memset(head + pre + dl, ' ', total - pre - dl - 1);
    head[total - 1] = '\n';
    FILE *f = fopen(p, "wb");
    fwrite(head, 1, total, f);
    if (bytes)
        fwrite(data, 1, bytes, f);
    fclose(f);
    return p;
}

static void expect_error(const char *path, ckm_error code, const char *needle)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(path, NULL, &ds, &err) == code && ds == NULL);
    CHECK(strstr(err.message, needle) != NULL);
    if (!strstr(err.message, needle))
        fprintf(stderr, "  expected '%s' in: %s\n", needle, err.message);
}

int main(void)
{
    ckm_err err = {CKM_OK, ""};
    /* round trip: the centers writer (.npy path) -> ckm_dataset_read */
    double X[12] = {0.5, -1, 2, 1e300, -0.0, 3.25, 7, 8, 9, 10, 11, 1e-300};
    const char *dir = ck_file("probe", "");
    char path[600];
    snprintf(path, sizeof path, "%.*sround.npy", (int)(strrchr(dir, '/') - dir + 1), dir);
    CHECK(ckm_write_centers(path, X, 4, 3, &err) == CKM_OK);
    ckm_dataset *ds = NULL;
    CHECK(ckm_dataset_read(path, NULL, &ds, &err) == CKM_OK);
    CHECK(ds && ds->n == 4 && ds->d == 3 && ds->format == CKM_FORMAT_NPY && !ds->labels &&
          memcmp(ds->X, X, sizeof X) == 0);
    ckm_dataset_free(ds);
    /* the file is what numpy writes: magic, version 1.0, header padded to 64 bytes */
    FILE *f = fopen(path, "rb");
    char head[128] = {0};
    CHECK(f && fread(head, 1, 128, f) == 128);
    if (f)
        fclose(f);
    CHECK(memcmp(head, "\x93NUMPY\x01\x00", 8) == 0 && (10 + ((unsigned char)head[8] | (unsigned char)head[9] << 8)) % 64 == 0);
    CHECK(strstr(head + 10, "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 3), }") != NULL);
    /* labels round trip */
    int32_t lab[5] = {0, 2, 1, 2, 0}, *back = NULL;
    size_t n = 0;
    snprintf(path, sizeof path, "%.*slab.npy", (int)(strrchr(dir, '/') - dir + 1), dir);
    CHECK(ckm_write_labels(path, lab, 5, &err) == CKM_OK);
    CHECK(ckm_labels_read(path, &back, &n, &err) == CKM_OK && n == 5 && back && memcmp(back, lab, sizeof lab) == 0);
    ckm_free(back);

    /* hand-made files: version 2.0, float32, 1-D, keys in another order, no trailing comma */
    float f32[4] = {1.5f, -2.0f, 0.25f, 8.0f};
    const char *p = npy_file("v2.npy", 2, "{'shape': (2, 2), 'fortran_order': False, 'descr': '<f4'}", f32, sizeof f32);
    CHECK(ckm_dataset_read(p, NULL, &ds, &err) == CKM_OK && ds && ds->n == 2 && ds->d == 2 && ds->X[1] == -2.0 &&
          ds->X[2] == 0.25);
    ckm_dataset_free(ds);
    double one[3] = {1, 2, 3};
    p = npy_file("oned.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }", one, sizeof one);
    CHECK(ckm_dataset_read(p, NULL, &ds, &err) == CKM_OK && ds && ds->n == 3 && ds->d == 1 && ds->X[2] == 3.0);
    ckm_dataset_free(ds);
    /* labels of every integer width */
    int8_t i1[3] = {0, 1, 2};
    uint64_t u8[3] = {2, 0, 1};
    int64_t i8[3] = {1, 1, 0};
    const void *ld[3] = {i1, u8, i8};
    const char *ldict[3] = {"{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }",
                            "{'descr': '<u8', 'fortran_order': False, 'shape': (3,), }",
                            "{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }"};
    size_t lsz[3] = {3, 24, 24};
    for (int q = 0; q < 3; q++) {
        p = npy_file("labs.npy", 1, ldict[q], ld[q], lsz[q]);
        CHECK(ckm_labels_read(p, &back, &n, &err) == CKM_OK && n == 3);
        if (back)
            CHECK(back[0] == (q == 0 ? 0 : q == 1 ? 2 : 1) && back[2] == (q == 0 ? 2 : q == 1 ? 1 : 0));
        ckm_free(back);
        back = NULL;
    }
    int32_t neg[2] = {0, -3};
    p = npy_file("neg.npy", 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", neg, sizeof neg);
    CHECK(ckm_labels_read(p, &back, &n, &err) == CKM_ERR_PARSE && strstr(err.message, "label 1 (0-based) is -3"));

    /* refusals */
    double four[4] = {1, 2, 3, 4};
    expect_error(npy_file("fortran.npy", 1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }", four, 32),
                 CKM_ERR_PARSE, "Fortran order");
    expect_error(npy_file("big.npy", 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }", four, 32),
                 CKM_ERR_PARSE, "dtype '>f8' is not supported");
    expect_error(npy_file("cplx.npy", 1, "{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", four, 32),
                 CKM_ERR_PARSE, "dtype '<c16' is not supported");
    expect_error(npy_file("ints.npy", 1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 2), }", four, 32),
                 CKM_ERR_PARSE, "points must be floating point");
    expect_error(npy_file("short.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", four, 24),
                 CKM_ERR_PARSE, "needs 32 data bytes, the file has 24");
    double five[5] = {1, 2, 3, 4, 5};
    expect_error(npy_file("long.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", five, 40),
                 CKM_ERR_PARSE, "needs 32 data bytes, the file has 40");
    expect_error(npy_file("noshape.npy", 1, "{'descr': '<f8', 'fortran_order': False}", four, 32), CKM_ERR_PARSE,
                 "no 'shape' tuple");
    expect_error(npy_file("3d.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2, 2), }", four, 32),
                 CKM_ERR_PARSE, "'shape' must be (n,) or (n, d)");
    expect_error(npy_file("empty.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4), }", four, 0),
                 CKM_ERR_PARSE, "no data");
    expect_error(npy_file("huge.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999, 2), }",
                          four, 32),
                 CKM_ERR_PARSE, "overflows");
    double nan4[4] = {1, 2, NAN, 4};
    expect_error(npy_file("nan.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", nan4, 32),
                 CKM_ERR_PARSE, "row 1, column 0 (0-based): value is not finite");
    /* a .npy has no label column; a truncated magic is not a .npy (read as text: NUL byte) */
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    ro.label_column = CKM_LABEL_COLUMN_LAST;
    p = npy_file("ok.npy", 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", four, 32);
    CHECK(ckm_dataset_read(p, &ro, &ds, &err) == CKM_ERR_INVALID && strstr(err.message, "no label column"));
    ro.label_column = CKM_LABEL_COLUMN_NONE;
    ro.format = CKM_FORMAT_NPY;
    CHECK(ckm_dataset_read(ck_file("text.npy", "1,2\n3,4\n"), &ro, &ds, &err) == CKM_ERR_PARSE &&
          strstr(err.message, "no \\x93NUMPY magic"));
    ck_cleanup();
    return ck_report();
}
