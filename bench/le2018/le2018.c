/*
 * le2018.c -- the synthetic experiment of Le, Eriksson, Do & Milford 2018 (Figure 1)
 * through the public API: k clusters of n = floor(N/k) points in R^d (N ~ 500, d = 512),
 * centers uniform in [-1,1]^d, Gaussian noise with covariance sigma I, lower size bound n
 * for every cluster (so sizes are exactly n). Constraints (the paper samples 20 % of each
 * cluster's points; how pairs are formed is not stated, this is ckm's rule): the sampled
 * points of a cluster are chained by must-links, and each sampled point gets one
 * cannot-link to a random sampled point of another cluster.
 * Algorithms get what they honour: kmeans nothing; cop the links; sizeflow sizes + must-links;
 * blpkm, bckm and admm everything. Prints CSV rows:
 *   sigma,k,algorithm,status,nmi,ari,sse,violations_all,seconds
 * where violations_all counts broken constraints of the full set (links and sizes).
 * usage: le2018 N D SIGMA K SEED [ALGORITHMS]   (comma list; default all six)
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t st;
static double unif(void) { return bench_unif(&st); }

int main(int argc, char **argv)
{
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: le2018 N D SIGMA K SEED [ALGORITHMS]\n");
        return 2;
    }
    size_t N = strtoull(argv[1], NULL, 10), d = strtoull(argv[2], NULL, 10), k = strtoull(argv[4], NULL, 10);
    double sigma = atof(argv[3]);
    st = strtoull(argv[5], NULL, 10);
    size_t n = N / k, total = n * k;
    double *C = malloc(k * d * sizeof *C), *X = malloc(total * d * sizeof *X);
    int32_t *truth = malloc(total * sizeof *truth);
    for (size_t q = 0; q < k * d; q++)
        C[q] = 2.0 * unif() - 1.0;
    double sd = sqrt(sigma);
    for (size_t i = 0; i < total; i++) {
        truth[i] = (int32_t)(i / n);
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = C[(i / n) * d + f] + sd * sqrt(-2.0 * log(unif())) * cos(6.283185307179586 * unif());
    }
    /* 20 % of each cluster, at least 2 points */
    size_t per = (size_t)ceil(0.2 * (double)n);
    if (per < 2)
        per = 2;
    size_t *sample = malloc(k * per * sizeof *sample);
    for (size_t c = 0; c < k; c++)
        for (size_t q = 0; q < per; q++) {
            size_t i;
            bool dup;
            do {
                i = c * n + (size_t)(unif() * (double)n);
                dup = false;
                for (size_t r = 0; r < q; r++)
                    dup |= sample[c * per + r] == i;
            } while (dup);
            sample[c * per + q] = i;
        }
    const char *algs[6] = {"kmeans", "cop", "sizeflow", "blpkm", "bckm", "admm"};
    for (int a = 0; a < 6; a++) {
        if (argc == 7 && !bench_in_list(argv[6], algs[a]))
            continue;
        bool links = a != 0, cls = a == 1 || a >= 3, sizes = a >= 2;
        ckm_problem *p = NULL, *full = NULL;
        ckm_err err = {CKM_OK, ""};
        if (ckm_problem_create(X, total, d, k, &p, &err) != CKM_OK ||
            ckm_problem_create(X, total, d, k, &full, &err) != CKM_OK)
            return 1;
        for (int pass = 0; pass < 2; pass++) {
            ckm_problem *t = pass ? full : p;
            bool use_ml = pass || links, use_cl = pass || cls, use_sz = pass || sizes;
            uint64_t keep = st;
            for (size_t c = 0; c < k; c++)
                for (size_t q = 0; q + 1 < per && use_ml; q++)
                    ckm_problem_add_pair(t, sample[c * per + q], sample[c * per + q + 1], CKM_MUST_LINK, &err);
            st = 999; /* same cannot-links for every algorithm */
            for (size_t q = 0; q < k * per && use_cl; q++) {
                size_t other = (size_t)(unif() * (double)(k * per));
                if (sample[other] / n != sample[q] / n)
                    ckm_problem_add_pair(t, sample[q], sample[other], CKM_CANNOT_LINK, &err);
            }
            st = keep;
            if (use_sz)
                ckm_problem_set_size_range(t, n, n, &err);
        }
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "%s", algs[a]);
        s.seed = strtoull(argv[5], NULL, 10);
        ckm_result *r = NULL;
        double t0 = bench_now();
        if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
            fprintf(stderr, "le2018: %s: %s\n", algs[a], err.message);
            return 1;
        }
        double secs = bench_now() - t0;
        ckm_scores sc = {0, 0, 0, 0, 0, 0};
        size_t viol = 0;
        if (r->has_labels) {
            ckm_compare(truth, r->labels, total, &sc, &err);
            ckm_check_report *rep = NULL;
            if (ckm_check(full, r->labels, &rep, &err) == CKM_OK)
                viol = rep->count;
            ckm_check_report_free(rep);
        }
        printf("%g,%zu,%s,%s,%.6f,%.6f,%.10g,%zu,%.4f\n", sigma, k, algs[a], ckm_status_string(r->status),
               r->has_labels ? sc.nmi : -1.0, r->has_labels ? sc.ari : -1.0, r->has_labels ? r->sse : -1.0, viol,
               secs);
        ckm_result_free(r);
        ckm_problem_free(p);
        ckm_problem_free(full);
    }
    free(C);
    free(X);
    free(truth);
    free(sample);
    return 0;
}
