/*
 * kmeans_speed.c -- k-means per-iteration time on Gaussian blobs (default n = 10^6,
 * d = 16, k = 100), through the public API only.
 *   per-iteration time = median interval between successive Lloyd iterations (taken
 * from the library's per-iteration progress lines, verbosity 2) over m iterations;
 * tol = 0, n_init = 1, so k-means++ seeding is excluded; plain Lloyd (every distance each
 * iteration: the bounded variant's iterations cost what their bounds save). Writes the data as raw float64
 * (for the scikit-learn side of bench/run.sh) and the centers after the first iteration,
 * and prints one CSV row:
 *   impl,n,d,k,iterations,seconds_per_iteration,seconds_total
 * usage: kmeans_speed N D K M OUT_PREFIX
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t st = 20261122;
static double unif(void) { return bench_unif(&st); }

static double now(void) { return bench_now(); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double stamps[100000];
static int nstamps;
static void on_log(void *user, const char *line)
{
    (void)user;
    if (strstr(line, " iter ") && nstamps < 100000)
        stamps[nstamps++] = now();
}

static ckm_result *solve(const ckm_problem *p, int max_iter, double *secs)
{
    ckm_settings s;
    ckm_settings_default(&s);
    s.verbosity = 2;
    s.log = on_log;
    nstamps = 0;
    s.n_init = 1;
    s.max_iter = max_iter;
    s.tol = 0.0;
    s.seed = 1;
    s.lloyd = CKM_LLOYD_PLAIN; /* the cost of one full Lloyd iteration (kmeans_fit.c measures whole fits) */
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = now();
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "kmeans_speed: %s\n", err.message);
        exit(1);
    }
    *secs = now() - t0;
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: kmeans_speed N D K M OUT_PREFIX\n");
        return 2;
    }
    size_t n = strtoull(argv[1], NULL, 10), d = strtoull(argv[2], NULL, 10),
           k = strtoull(argv[3], NULL, 10);
    int m = atoi(argv[4]);
    double *C = malloc(k * d * sizeof *C), *X = malloc(n * d * sizeof *X);
    if (!C || !X || m < 1)
        return 1;
    for (size_t i = 0; i < k * d; i++)
        C[i] = 20.0 * unif() - 10.0;
    for (size_t i = 0; i < n; i++) {
        size_t c = (size_t)(unif() * (double)k);
        for (size_t f = 0; f < d; f++) {
            double g = sqrt(-2.0 * log(unif())) * cos(6.283185307179586 * unif());
            X[i * d + f] = C[c * d + f] + g;
        }
    }
    char path[512];
    snprintf(path, sizeof path, "%s.X.f64", argv[5]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(X, sizeof *X, n * d, f) != n * d)
        return 1;
    fclose(f);
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK) {
        fprintf(stderr, "kmeans_speed: %s\n", err.message);
        return 1;
    }
    double t1, tm;
    ckm_result *r1 = solve(p, 1, &t1);
    ckm_result *rm = solve(p, m, &tm);
    if (nstamps < 2) {
        fprintf(stderr, "kmeans_speed: converged after %d iterations; nothing to time\n", nstamps);
        return 1;
    }
    /* median interval: robust to a stray slow iteration on a shared machine */
    static double gaps[100000];
    for (int i = 1; i < nstamps; i++)
        gaps[i - 1] = stamps[i] - stamps[i - 1];
    qsort(gaps, (size_t)(nstamps - 1), sizeof gaps[0], cmp_double);
    double per_iter = gaps[(nstamps - 1) / 2];
    /* the centers after the first iteration seed the scikit-learn run identically */
    snprintf(path, sizeof path, "%s.init.f64", argv[5]);
    f = fopen(path, "wb");
    if (!f || fwrite(r1->centers, sizeof(double), k * d, f) != k * d)
        return 1;
    fclose(f);
    printf("ckm-%s,%zu,%zu,%zu,%d,%.6f,%.3f\n", ckm_version(), n, d, k, nstamps - 1, per_iter, tm);
    ckm_result_free(r1);
    ckm_result_free(rm);
    ckm_problem_free(p);
    free(C);
    free(X);
    return 0;
}
