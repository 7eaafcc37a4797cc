/*
 * check.h -- the tiny assertion harness of the test suite. Each test program counts its
 * checks and ends with the line "N passed, M failed"; exit status 1 on any failure.
 * Helpers write fixture files into a private temporary directory.
 */
#ifndef CKM_TEST_CHECK_H
#define CKM_TEST_CHECK_H

#include "ckm.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int ck_passed, ck_failed;

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (cond)                                                                             \
            ck_passed++;                                                                      \
        else {                                                                                \
            ck_failed++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                                     \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                 \
    do {                                                                                      \
        double ck_a = (a), ck_b = (b);                                                        \
        if (fabs(ck_a - ck_b) <= (tol))                                                       \
            ck_passed++;                                                                      \
        else {                                                                                \
            ck_failed++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.17g, %s = %.17g\n", __FILE__,   \
                    __LINE__, #a, ck_a, #b, ck_b);                                            \
        }                                                                                     \
    } while (0)

/* The message of a failed call contains needle. */
#define CHECK_MSG(err, needle)                                                                \
    do {                                                                                      \
        if (strstr((err).message, (needle)))                                                  \
            ck_passed++;                                                                      \
        else {                                                                                \
            ck_failed++;                                                                      \
            fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__,           \
                    (err).message, (needle));                                                 \
        }                                                                                     \
    } while (0)

/* splitmix64 stream: the tests' own generator, independent of the library's RNG. */
__attribute__((unused)) static double ck_unif(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* Solve p with algorithm algo and n_init restarts (other settings default); the call
 * itself must succeed. Returns the result (caller frees). */
__attribute__((unused)) static ckm_result *ck_solve(const ckm_problem *p, const char *algo, int n_init)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
    s.n_init = n_init;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    return r;
}

__attribute__((unused)) static int ck_report(void)
{
    printf("%d passed, %d failed\n", ck_passed, ck_failed);
    return ck_failed ? 1 : 0;
}

static char ck_dir[256];

/* Write content to a new file named name inside the test's temp dir; returns its path
 * (static buffer rotation: valid for the next 7 calls). */
__attribute__((unused)) static const char *ck_file(const char *name, const char *content)
{
    static char paths[8][512];
    static int next;
    if (!ck_dir[0]) {
        snprintf(ck_dir, sizeof ck_dir, "%s/ckm-test-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(ck_dir)) {
            perror("mkdtemp");
            exit(2);
        }
    }
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", ck_dir, name);
    FILE *f = fopen(p, "wb");
    if (!f) {
        perror(p);
        exit(2);
    }
    fwrite(content, 1, strlen(content), f);
    fclose(f);
    return p;
}

/* Remove the temp dir and its files (best effort). */
__attribute__((unused)) static void ck_cleanup(void)
{
    if (!ck_dir[0])
        return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", ck_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "warning: could not remove %s\n", ck_dir);
}

#endif
