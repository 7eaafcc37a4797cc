/*
 * kmeans_fit.c -- full k-means fits from the same initial centers: ckm's plain Lloyd
 * (every distance by dgemm) against its bounded Lloyd (Yinyang), through the public API.
 *   data     n points around k centers drawn uniformly in [-10, 10]^d (or, with "normal",
 *            from N(0, 1)^d: heavily overlapping clusters, issue 55), N(0, sigma^2) noise
 *            (default sigma 1), splitmix64 stream seeded 20261123
 *   start    k distinct data rows drawn from the same stream (the same array is given to
 *            scikit-learn by sklearn_fit.py)
 *   fit      tol 1e-4 (scikit-learn's rule and default), max_iter 300, n_init 1; with
 *            "capped": tol 0, max_iter 20 (the per-step protocol: every fit runs 20 steps)
 * A third fit uses precision = single (float32 GEMM decides every full pass).
 * Writes PREFIX.X.f64, PREFIX.init.f64 (raw float64) and PREFIX.labels.i32 (plain Lloyd's
 * labels) and prints one CSV row per variant:
 *   impl,n,d,k,iterations,seconds,sse,same_labels_as_plain
 * usage: kmeans_fit N D K PREFIX [SIGMA] [bounds|auto] [normal] [capped]
 *   bounds: only the bounded fit; auto: only the default (lloyd = auto) fit; normal:
 *   centers from N(0, 1)^d; capped: 20 steps, tol 0
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_raw(const char *prefix, const char *ext, const void *a, size_t bytes)
{
    char path[512];
    snprintf(path, sizeof path, "%s.%s", prefix, ext);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(a, 1, bytes, f) == bytes;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok;
}

static bool has_arg(int argc, char **argv, const char *word)
{
    for (int a = 5; a < argc; a++)
        if (strcmp(argv[a], word) == 0)
            return true;
    return false;
}

static bool capped;

static ckm_result *fit(const ckm_problem *p, const double *init, ckm_lloyd lloyd, ckm_precision precision,
                       double *secs)
{
    ckm_settings s;
    ckm_settings_default(&s);
    s.n_init = 1;
    s.max_iter = capped ? 20 : 300;
    s.tol = capped ? 0.0 : 1e-4;
    s.lloyd = lloyd;
    s.precision = precision;
    s.init_centers = init;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = bench_now();
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "kmeans_fit: %s\n", err.message);
        exit(1);
    }
    *secs = bench_now() - t0;
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: kmeans_fit N D K PREFIX [SIGMA]\n");
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10), d = strtoull(argv[2], NULL, 10), k = strtoull(argv[3], NULL, 10);
    const char *prefix = argv[4];
    double sigma = argc > 5 && atof(argv[5]) > 0.0 ? atof(argv[5]) : 1.0;
    bool normal = has_arg(argc, argv, "normal");
    uint64_t st = 20261123;
    double *C = malloc(k * d * sizeof *C), *X = malloc(n * d * sizeof *X), *init = malloc(k * d * sizeof *init);
    char *taken = calloc(n, 1);
    if (!C || !X || !init || !taken || k < 1 || k > n)
        return 1;
    for (size_t i = 0; i < k * d; i++)
        C[i] = normal ? bench_gauss(&st) : 20.0 * bench_unif(&st) - 10.0;
    for (size_t i = 0; i < n; i++) {
        size_t c = (size_t)(bench_unif(&st) * (double)k);
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = C[c * d + f] + sigma * bench_gauss(&st);
    }
    for (size_t j = 0; j < k; j++) {
        size_t i;
        do
            i = (size_t)(bench_unif(&st) * (double)n);
        while (taken[i]);
        taken[i] = 1;
        memcpy(init + j * d, X + i * d, d * sizeof(double));
    }
    if (!write_raw(prefix, "X.f64", X, n * d * sizeof(double)) ||
        !write_raw(prefix, "init.f64", init, k * d * sizeof(double)))
        return 1;
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_problem_wrap(X, n, d, k, &p, &err) != CKM_OK) {
        fprintf(stderr, "kmeans_fit: %s\n", err.message);
        return 1;
    }
    double tp = 0.0, tb;
    bool only_bounds = has_arg(argc, argv, "bounds"), only_auto = has_arg(argc, argv, "auto");
    capped = has_arg(argc, argv, "capped");
    ckm_result *rp = only_bounds || only_auto ? NULL : fit(p, init, CKM_LLOYD_PLAIN, CKM_PRECISION_DOUBLE, &tp);
    ckm_result *rb = fit(p, init, only_auto ? CKM_LLOYD_AUTO : CKM_LLOYD_BOUNDS, CKM_PRECISION_DOUBLE, &tb);
    if (only_bounds || only_auto) {
        if (!write_raw(prefix, "labels.i32", rb->labels, n * sizeof(int32_t)))
            return 1;
        printf("ckm-%s-%s,%zu,%zu,%zu,%d,%.3f,%.10g,%s\n", ckm_version(), only_auto ? "auto" : "bounds", n, d, k,
               rb->iterations, tb, rb->sse, "-");
        return 0;
    }
    if (!write_raw(prefix, "labels.i32", rp->labels, n * sizeof(int32_t)))
        return 1;
    double tf;
    ckm_result *rf = fit(p, init, CKM_LLOYD_AUTO, CKM_PRECISION_SINGLE, &tf);
    size_t same = 0, same_f = 0;
    for (size_t i = 0; i < n; i++) {
        same += rp->labels[i] == rb->labels[i];
        same_f += rp->labels[i] == rf->labels[i];
    }
    fprintf(stderr, "plain: pre %.3f solve %.3f check %.3f total %.3f; bounds: pre %.3f solve %.3f check %.3f total %.3f\n", rp->time.preprocess_s, rp->time.solve_s, rp->time.check_s, rp->time.total_s, rb->time.preprocess_s, rb->time.solve_s, rb->time.check_s, rb->time.total_s);
    printf("ckm-%s-plain,%zu,%zu,%zu,%d,%.3f,%.10g,%s\n", ckm_version(), n, d, k, rp->iterations, tp, rp->sse,
           "yes");
    printf("ckm-%s-bounds,%zu,%zu,%zu,%d,%.3f,%.10g,%s\n", ckm_version(), n, d, k, rb->iterations, tb, rb->sse,
           same == n ? "yes" : "NO");
    if (same_f == n)
        printf("ckm-%s-single,%zu,%zu,%zu,%d,%.3f,%.10g,yes\n", ckm_version(), n, d, k, rf->iterations, tf, rf->sse);
    else
        printf("ckm-%s-single,%zu,%zu,%zu,%d,%.3f,%.10g,%.6f\n", ckm_version(), n, d, k, rf->iterations, tf, rf->sse,
               (double)same_f / (double)n);
    ckm_result_free(rf);
    ckm_result_free(rp);
    ckm_result_free(rb);
    ckm_problem_free(p);
    free(C);
    free(X);
    free(init);
    free(taken);
    return same == n ? 0 : 3;
}
