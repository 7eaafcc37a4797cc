/*
 * fuzz_readers.c -- libFuzzer target for every file reader of the public API. The first
 * byte picks the reader (points: auto / delimited with and without header and label
 * column / KEEL / PC-SOS-SDP; constraints; sizes; labels), the rest is the file, handed
 * over through an in-memory file (memfd) so no disk is touched. A reader must return
 * CKM_OK with a consistent object or an error with a message; the sanitizers catch the
 * rest. Built only with clang (tests/fuzz/run_fuzz.sh).
 */
#define _GNU_SOURCE
#include "ckm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void must(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int which = data[0] % 9;
    int fd = memfd_create("ckm-fuzz", 0);
    if (fd < 0)
        return 0;
    size_t left = size - 1;
    const uint8_t *p = data + 1;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w <= 0)
            break;
        p += w;
        left -= (size_t)w;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ckm_err err = {CKM_OK, ""};
    if (which <= 5) {
        ckm_read_options ro;
        ckm_read_options_default(&ro);
        const ckm_format fmts[] = {CKM_FORMAT_AUTO, CKM_FORMAT_DELIMITED, CKM_FORMAT_DELIMITED,
                                   CKM_FORMAT_DELIMITED, CKM_FORMAT_KEEL, CKM_FORMAT_PCSOS};
        ro.format = fmts[which];
        if (which == 2)
            ro.header = CKM_HEADER_YES;
        if (which == 3)
            ro.label_column = CKM_LABEL_COLUMN_LAST;
        ckm_dataset *ds = NULL;
        ckm_error rc = ckm_dataset_read(path, &ro, &ds, &err);
        must(rc == CKM_OK ? ds != NULL : (ds == NULL && err.message[0]));
        if (ds) {
            must(ds->n >= 1 && ds->d >= 1);
            for (size_t i = 0; i < ds->n * ds->d; i++)
                must(ds->X[i] - ds->X[i] == 0.0);
            for (size_t i = 0; ds->labels && i < ds->n; i++)
                must(ds->labels[i] >= 0 && (size_t)ds->labels[i] < ds->n_classes);
        }
        ckm_dataset_free(ds);
    } else if (which == 6) {
        ckm_constraints *c = NULL;
        ckm_error rc = ckm_constraints_read(path, 50, &c, &err);
        must(rc == CKM_OK ? c != NULL : (c == NULL && err.message[0]));
        for (size_t q = 0; c && q < c->count; q++)
            must(c->pairs[q].i < 50 && c->pairs[q].j < 50 && c->pairs[q].i != c->pairs[q].j);
        ckm_constraints_free(c);
    } else if (which == 7) {
        size_t lo[4], hi[4];
        ckm_error rc = ckm_sizes_read(path, 4, lo, hi, &err);
        must(rc == CKM_OK || err.message[0]);
        for (int j = 0; rc == CKM_OK && j < 4; j++)
            must(lo[j] <= hi[j]);
    } else {
        int32_t *lab = NULL;
        size_t n = 0;
        ckm_error rc = ckm_labels_read(path, &lab, &n, &err);
        must(rc == CKM_OK ? lab != NULL : err.message[0] != 0);
        for (size_t i = 0; rc == CKM_OK && i < n; i++)
            must(lab[i] >= 0);
        free(lab);
    }
    close(fd);
    return 0;
}
