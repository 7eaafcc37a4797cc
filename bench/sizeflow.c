/*
 * sizeflow.c -- size-constrained k-means benchmarks through the public API.
 *   sizeflow check N K SEED      transportation solver vs CLP on one random instance
 *                                (uniform points, random centers, ragged bounds); prints
 *                                n,k,objective_transport,objective_clp,rel_diff,s_transport,s_clp
 *   sizeflow scale N D K BOUNDS  Gaussian blobs (K centers uniform in [-10,10]^D, unit
 *                                variance); BOUNDS = balanced | ragged (lo = 0.5 n/K,
 *                                hi = 1.5 n/K); one assignment step from K random data points
 *                                as centers, then a whole sizeflow run (n_init 1); prints
 *                                n,d,k,bounds,s_assign_step,s_run,iterations,sse,peak_rss_mb
 *   sizeflow clp N D K           one balanced assignment step with both solvers;
 *                                prints n,d,k,s_transport,s_clp,speedup
 *   sizeflow le N D K SIGMA SEED Le et al. synthetic: K clusters of N/K points, centers
 *                                uniform in [-1,1]^D, Gaussian noise with covariance SIGMA I
 *                                (as the paper: std sqrt(SIGMA)); balanced sizeflow
 *                                vs kmeans (n_init 10); prints k,sigma,alg,sse,nmi,seconds
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t st;
static double unif(void) { return bench_unif(&st); }
static double gauss(void) { return sqrt(-2.0 * log(unif())) * cos(6.283185307179586 * unif()); }

static double now(void) { return bench_now(); }

static void log_stderr(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "%s\n", line);
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* blobs: K centers uniform in [-scale, scale]^D, noise sigma; truth labels optional */
static double *blobs(size_t n, size_t d, size_t k, double scale, double sigma, int32_t *truth, int equal)
{
    double *C = malloc(k * d * sizeof *C), *X = malloc(n * d * sizeof *X);
    for (size_t q = 0; q < k * d; q++)
        C[q] = scale * (2.0 * unif() - 1.0);
    for (size_t i = 0; i < n; i++) {
        size_t c = equal ? i % k : (size_t)(unif() * (double)k);
        if (truth)
            truth[i] = (int32_t)c;
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = C[c * d + f] + sigma * gauss();
    }
    free(C);
    return X;
}

static void bounds(size_t n, size_t k, int balanced, size_t *lo, size_t *hi)
{
    for (size_t j = 0; j < k; j++) {
        lo[j] = balanced ? n / k : (size_t)(0.5 * (double)n / (double)k);
        hi[j] = balanced ? (n + k - 1) / k : (size_t)(1.5 * (double)n / (double)k);
    }
}

static double *random_centers(const double *X, size_t n, size_t d, size_t k)
{
    double *C = malloc(k * d * sizeof *C);
    for (size_t j = 0; j < k; j++) {
        size_t i = (size_t)(unif() * (double)n);
        memcpy(C + j * d, X + i * d, d * sizeof *C);
    }
    return C;
}

static double assign_time(const double *X, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                          const size_t *hi, ckm_assign_method m, double *obj)
{
    int32_t *lab = malloc(n * sizeof *lab);
    ckm_status status;
    ckm_err err = {CKM_OK, ""};
    double t0 = now();
    if (ckm_assign_to_centers(X, n, d, C, k, lo, hi, m, lab, obj, NULL, &status, &err) != CKM_OK ||
        status != CKM_STATUS_OPTIMAL) {
        fprintf(stderr, "sizeflow bench: assignment failed: %s\n", err.message);
        exit(1);
    }
    double t = now() - t0;
    free(lab);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *mode = argv[1];
    if (strcmp(mode, "check") == 0 && argc == 5) {
        size_t n = strtoull(argv[2], NULL, 10), k = strtoull(argv[3], NULL, 10), d = 4;
        st = strtoull(argv[4], NULL, 10);
        double *X = malloc(n * d * sizeof *X);
        for (size_t q = 0; q < n * d; q++)
            X[q] = unif();
        double *C = random_centers(X, n, d, k);
        size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
        bounds(n, k, 0, lo, hi);
        double ot, oc;
        double tt = assign_time(X, n, d, C, k, lo, hi, CKM_ASSIGN_TRANSPORT, &ot);
        double tc = assign_time(X, n, d, C, k, lo, hi, CKM_ASSIGN_LP, &oc);
        printf("%zu,%zu,%.15g,%.15g,%.3g,%.4f,%.4f\n", n, k, ot, oc, fabs(ot - oc) / fabs(oc), tt, tc);
        return 0;
    }
    if (strcmp(mode, "scale") == 0 && argc == 6) {
        size_t n = strtoull(argv[2], NULL, 10), d = strtoull(argv[3], NULL, 10), k = strtoull(argv[4], NULL, 10);
        int balanced = strcmp(argv[5], "balanced") == 0;
        st = 1;
        double *X = blobs(n, d, k, 10.0, 1.0, NULL, 0);
        double *C = random_centers(X, n, d, k);
        size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
        bounds(n, k, balanced, lo, hi);
        double obj;
        double ta = assign_time(X, n, d, C, k, lo, hi, CKM_ASSIGN_TRANSPORT, &obj);
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        ckm_result *r = NULL;
        if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK || ckm_problem_set_sizes(p, lo, hi, &err) != CKM_OK)
            return 1;
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "sizeflow");
        s.n_init = 1;
        if (getenv("CKM_BENCH_VERBOSE")) {
            s.verbosity = 2;
            s.log = log_stderr;
        }
        double t0 = now();
        if (ckm_solve(p, &s, &r, &err) != CKM_OK || !r->has_labels) {
            fprintf(stderr, "sizeflow bench: %s\n", err.message);
            return 1;
        }
        printf("%zu,%zu,%zu,%s,%.3f,%.3f,%d,%.10g,%.0f\n", n, d, k, argv[5], ta, now() - t0, r->iterations, r->sse,
               peak_mb());
        return 0;
    }
    if (strcmp(mode, "clp") == 0 && argc == 5) {
        size_t n = strtoull(argv[2], NULL, 10), d = strtoull(argv[3], NULL, 10), k = strtoull(argv[4], NULL, 10);
        st = 2;
        double *X = blobs(n, d, k, 10.0, 1.0, NULL, 0);
        double *C = random_centers(X, n, d, k);
        size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
        bounds(n, k, 1, lo, hi);
        double ot, oc;
        double tt = assign_time(X, n, d, C, k, lo, hi, CKM_ASSIGN_TRANSPORT, &ot);
        double tc = assign_time(X, n, d, C, k, lo, hi, CKM_ASSIGN_LP, &oc);
        printf("%zu,%zu,%zu,%.3f,%.3f,%.0f,%.3g\n", n, d, k, tt, tc, tc / tt, fabs(ot - oc) / fabs(oc));
        return 0;
    }
    if (strcmp(mode, "le") == 0 && argc == 7) {
        size_t n = strtoull(argv[2], NULL, 10), d = strtoull(argv[3], NULL, 10), k = strtoull(argv[4], NULL, 10);
        double sigma = atof(argv[5]);
        st = strtoull(argv[6], NULL, 10);
        n = n / k * k;
        int32_t *truth = malloc(n * sizeof *truth);
        double *X = blobs(n, d, k, 1.0, sqrt(sigma), truth, 1); /* covariance sigma I */
        const char *algs[2] = {"kmeans", "sizeflow"};
        for (int a = 0; a < 2; a++) {
            ckm_problem *p = NULL;
            ckm_err err = {CKM_OK, ""};
            ckm_result *r = NULL;
            if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK)
                return 1;
            if (a == 1)
                ckm_problem_set_balanced(p);
            ckm_settings s;
            ckm_settings_default(&s);
            snprintf(s.algorithm, sizeof s.algorithm, "%s", algs[a]);
            s.seed = st;
            double t0 = now();
            if (ckm_solve(p, &s, &r, &err) != CKM_OK || !r->has_labels)
                return 1;
            ckm_scores sc;
            ckm_compare(truth, r->labels, n, &sc, &err);
            printf("%zu,%g,%s,%.10g,%.6f,%.3f\n", k, sigma, algs[a], r->sse, sc.nmi, now() - t0);
            ckm_result_free(r);
            ckm_problem_free(p);
        }
        return 0;
    }
    fprintf(stderr, "usage: see the header of bench/sizeflow.c\n");
    return 2;
}
