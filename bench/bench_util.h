/*
 * bench_util.h -- helpers shared by the benchmark programs: a splitmix64 stream for
 * generating data (independent of the library's RNG) and normal draws from it, a
 * monotonic clock, a comma-list membership test and the reader of the labelled benchmark
 * datasets.
 */
#ifndef CKM_BENCH_UTIL_H
#define CKM_BENCH_UTIL_H

#include "ckm.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* Uniform in (0, 1): never 0, so log() of it is safe. */
static inline double bench_unif(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) * 0x1.0p-53;
}

/* Standard normal (Box-Muller's cosine branch), two uniforms of the stream. */
static inline double bench_gauss(uint64_t *state)
{
    double r = sqrt(-2.0 * log(bench_unif(state)));
    return r * cos(6.283185307179586 * bench_unif(state));
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Is name one of the comma-separated entries of list? */
static inline bool bench_in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == len && strncmp(p, name, len) == 0)
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

/* A labelled dataset of a benchmark's instances file (class in the last column; header
 * "yes", "no" or "auto"), standardised; NULL after printing "prog: reason". */
static inline ckm_dataset *bench_read_standardized(const char *prog, const char *path, const char *header)
{
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    ro.label_column = CKM_LABEL_COLUMN_LAST;
    ro.header = strcmp(header, "yes") == 0 ? CKM_HEADER_YES : strcmp(header, "no") == 0 ? CKM_HEADER_NO
                                                                                       : CKM_HEADER_AUTO;
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_dataset_read(path, &ro, &ds, &err) != CKM_OK) {
        fprintf(stderr, "%s: %s\n", prog, err.message);
        return NULL;
    }
    ckm_dataset_standardize(ds);
    return ds;
}

#endif
