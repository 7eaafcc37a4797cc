/*
 * test_write.c -- atomic writers (content, no temp file left, old file kept on failure),
 * the label reader, constraint writing round trip.
 */
#include "check.h"

#include <dirent.h>
#include <sys/stat.h>

static size_t count_entries(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(void)
{
    ckm_err err = {CKM_OK, ""};
    const char *p = ck_file("labels.txt", "old content\n");
    char path[512];
    snprintf(path, sizeof path, "%s", p);
    int32_t lab[4] = {0, 2, 1, 0};
    CHECK(ckm_write_labels(path, lab, 4, &err) == CKM_OK);
    char *s = slurp(path);
    CHECK(s && strcmp(s, "0\n2\n1\n0\n") == 0);
    CHECK(count_entries(ck_dir) == 1); /* no temporary left behind */

    /* every width and sign against printf's "%d\n" (the writer formats without printf) */
    int32_t wide[] = {7, 9, 10, 99, 100, 999, 1000, 12345, 987654321, INT32_MAX, -1, -10, INT32_MIN};
    size_t nw = sizeof wide / sizeof wide[0];
    char want[256] = "";
    for (size_t q = 0; q < nw; q++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%d\n", (int)wide[q]);
    CHECK(ckm_write_labels(path, wide, nw, &err) == CKM_OK);
    s = slurp(path);
    CHECK(s && strcmp(s, want) == 0);
    CHECK(ckm_write_labels(path, wide, 0, &err) == CKM_OK); /* no labels: an empty file */
    s = slurp(path);
    CHECK(s && strcmp(s, "") == 0);
    CHECK(ckm_write_labels(path, lab, 4, &err) == CKM_OK);

    int32_t *back = NULL;
    size_t n = 0;
    CHECK(ckm_labels_read(path, &back, &n, &err) == CKM_OK);
    CHECK(n == 4 && back && memcmp(back, lab, sizeof lab) == 0);
    ckm_free(back);
    CHECK(ckm_labels_read(ck_file("bad.txt", "0\n1 2\n"), &back, &n, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "bad.txt:2: expected one label per line, got 2 fields");
    CHECK(ckm_labels_read(ck_file("bad.txt", "0\n-1\n"), &back, &n, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "bad.txt:2:1: '-1' is not a label");
    CHECK(ckm_labels_read(ck_file("bad.txt", "\n# none\n"), &back, &n, &err) == CKM_ERR_PARSE);

    double C[4] = {1.5, -2, 0.1, 3};
    char cpath[512];
    snprintf(cpath, sizeof cpath, "%s/centers.csv", ck_dir);
    CHECK(ckm_write_centers(cpath, C, 2, 2, &err) == CKM_OK);
    s = slurp(cpath);
    CHECK(s && strcmp(s, "1.5,-2\n0.10000000000000001,3\n") == 0);

    /* permissions as a plain open gives them: a new file 0666 less the umask (not mkstemp's
       0600), an existing file keeps its mode */
    umask(027);
    char mpath[512];
    snprintf(mpath, sizeof mpath, "%s/mode.txt", ck_dir);
    CHECK(ckm_write_file_atomic(mpath, "x", 1, &err) == CKM_OK);
    struct stat st;
    CHECK(stat(mpath, &st) == 0 && (st.st_mode & 07777) == 0640);
    CHECK(chmod(mpath, 0604) == 0);
    CHECK(ckm_write_file_atomic(mpath, "y", 1, &err) == CKM_OK);
    CHECK(stat(mpath, &st) == 0 && (st.st_mode & 07777) == 0604);
    umask(022);
    CHECK(unlink(mpath) == 0);
    CHECK(ckm_write_file_atomic(mpath, "z", 1, &err) == CKM_OK);
    CHECK(stat(mpath, &st) == 0 && (st.st_mode & 07777) == 0644);
    CHECK(unlink(mpath) == 0);

    /* writing into a directory that does not exist fails cleanly */
    CHECK(ckm_write_labels("/nonexistent-dir/x.txt", lab, 4, &err) == CKM_ERR_IO);
    CHECK_MSG(err, "/nonexistent-dir/x.txt");
    /* failure keeps the old file: make the directory read-only (skipped when root) */
    if (geteuid() != 0) {
        chmod(ck_dir, 0500);
        CHECK(ckm_write_labels(path, lab, 2, &err) == CKM_ERR_IO);
        chmod(ck_dir, 0700);
        s = slurp(path);
        CHECK(s && strcmp(s, "0\n2\n1\n0\n") == 0);
    }

    /* constraints: write then read back */
    ckm_constraints *c = NULL, *c2 = NULL;
    int32_t truth[6] = {0, 0, 0, 1, 1, 1};
    CHECK(ckm_constraints_generate(truth, 6, 4, 0.5, 7, &c, &err) == CKM_OK);
    char kpath[512];
    snprintf(kpath, sizeof kpath, "%s/cons.txt", ck_dir);
    if (c) {
        CHECK(ckm_constraints_write(kpath, c, &err) == CKM_OK);
        CHECK(ckm_constraints_read(kpath, 6, &c2, &err) == CKM_OK);
        CHECK(c2 && c2->count == 4);
        for (size_t q = 0; c2 && q < 4; q++)
            CHECK(c2->pairs[q].i == c->pairs[q].i && c2->pairs[q].j == c->pairs[q].j &&
                  c2->pairs[q].type == c->pairs[q].type);
    }
    ckm_constraints_free(c);
    ckm_constraints_free(c2);
    ck_cleanup();
    return ck_report();
}
