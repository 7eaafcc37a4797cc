/*
 * test_seeding.c -- the pruned greedy k-means++ of src/algo/seeding.c against the rule it
 * must reproduce, written here plainly: each step draws 2 + floor(ln k) trials from the
 * running sum of w_t D(t)^2 in point order and keeps the trial whose potential
 * sum_t w_t min(D(t)^2, ||y_t - y||^2) is least (first on ties), every distance measured.
 * The seeder skips points by the triangle inequality, switches from full scans to member
 * lists and sums gains instead of potentials; none of that may change a single center.
 * Checked bit for bit with 1 and 2 threads on: separated blobs with k large enough for
 * the list mode, weighted points, many duplicate points (ties), a single blob, k = 1 and
 * k = s.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "objective.h"
#include "reduced.h"
#include "seeding.h"

#include <stdint.h>

static uint64_t st = 11;
static double unif(void) { return ck_unif(&st); }

/* The first t with cumsum[t] > x (the last one when rounding leaves none), by a plain scan. */
static size_t ref_draw(const double *cumsum, size_t s, double x)
{
    for (size_t t = 0; t < s; t++)
        if (cumsum[t] > x)
            return t;
    return s - 1;
}

/* The plain rule, O(k trials s d). */
static void reference(const double *Y, const double *w, size_t s, size_t d, size_t k, uint64_t seed, double *C)
{
    size_t trials = 2 + (size_t)floor(log((double)k));
    double *D = malloc(s * sizeof(double)), *cum = malloc(s * sizeof(double)), *best_D = malloc(s * sizeof(double)),
           *tD = malloc(s * sizeof(double));
    ckm_rng rng;
    ckm_rng_seed(&rng, seed, 0);
    double tot = 0.0;
    for (size_t t = 0; t < s; t++)
        cum[t] = tot += w[t];
    size_t first = ref_draw(cum, s, ckm_rng_uniform(&rng) * tot);
    memcpy(C, Y + first * d, d * sizeof(double));
    for (size_t t = 0; t < s; t++)
        D[t] = ckm_sqdist(Y + t * d, C, d);
    for (size_t c = 1; c < k; c++) {
        double acc = 0.0;
        for (size_t t = 0; t < s; t++)
            cum[t] = acc += w[t] * D[t];
        size_t cand[64];
        for (size_t q = 0; q < trials; q++)
            cand[q] = acc > 0.0 ? ref_draw(cum, s, ckm_rng_uniform(&rng) * acc) : (size_t)ckm_rng_below(&rng, s);
        double best_pot = INFINITY;
        size_t best = 0;
        for (size_t q = 0; q < trials; q++) {
            double pot = 0.0;
            for (size_t t = 0; t < s; t++) {
                double dd = ckm_sqdist(Y + t * d, Y + cand[q] * d, d);
                tD[t] = dd < D[t] ? dd : D[t];
                pot += w[t] * tD[t];
            }
            if (pot < best_pot) {
                best_pot = pot;
                best = q;
                memcpy(best_D, tD, s * sizeof(double));
            }
        }
        memcpy(C + c * d, Y + cand[best] * d, d * sizeof(double));
        memcpy(D, best_D, s * sizeof(double));
    }
    free(D), free(cum), free(best_D), free(tD);
}

static void same_seeds(const char *what, const double *Y, double *w, size_t s, size_t d, size_t k)
{
    ckm_reduced r;
    memset(&r, 0, sizeof r);
    r.n = r.s = s;
    r.d = d;
    r.k = k;
    r.X = r.mean = Y;
    r.mass = w;
    double *ref = malloc(k * d * sizeof(double)), *got = malloc(k * d * sizeof(double));
    reference(Y, w, s, d, k, 7, ref);
    for (int threads = 1; threads <= 2; threads++) {
        ckm_seeder ws;
        ckm_err err;
        if (ckm_seeder_init(&ws, &r, threads, &err) != CKM_OK) {
            CHECK(!"seeder_init");
            break;
        }
        ckm_rng rng;
        ckm_rng_seed(&rng, 7, 0);
        ckm_seed_centers(&ws, CKM_INIT_KMEANSPP, &rng, got);
        ckm_seeder_free(&ws);
        bool same = memcmp(ref, got, k * d * sizeof(double)) == 0;
        if (!same)
            fprintf(stderr, "%s, %d thread(s): centers differ from the plain rule\n", what, threads);
        CHECK(same);
    }
    free(ref), free(got);
}

/* ckm_rng_in draws exactly what ckm_rng_below draws, for ranges up to 2^64 - 1 (its remainder
 * is computed without a division, rng.c) */
static void test_rng_range(void)
{
    const uint64_t ms[] = {1, 2, 3, 7, 500, 1000003, (1ULL << 32) + 15, 1ULL << 40, (1ULL << 63) + 1, UINT64_MAX - 1,
                           UINT64_MAX};
    size_t same = 0, draws = 0;
    for (size_t q = 0; q < sizeof ms / sizeof ms[0]; q++) {
        ckm_rng a, b;
        ckm_rng_seed(&a, 11, q);
        ckm_rng_seed(&b, 11, q);
        ckm_rng_range range = ckm_rng_range_make(ms[q]);
        for (int t = 0; t < 20000; t++) {
            uint64_t x = ckm_rng_below(&a, ms[q]), y = ckm_rng_in(&b, &range);
            same += x == y && y < ms[q];
            draws++;
        }
    }
    CHECK(same == draws);
    printf("rng range: %zu of %zu draws equal to ckm_rng_below's\n", same, draws);
}

int main(void)
{
    test_rng_range();
    /* separated blobs: 300 centers in [0, 100]^3, 20 points each within 0.5: the lists
       take over after the first centers */
    size_t s = 6000, d = 3, nb = 300;
    double *Y = malloc(s * d * sizeof(double)), *w = malloc(s * sizeof(double)), *B = malloc(nb * d * sizeof(double));
    for (size_t q = 0; q < nb * d; q++)
        B[q] = 100.0 * unif();
    for (size_t t = 0; t < s; t++) {
        for (size_t f = 0; f < d; f++)
            Y[t * d + f] = B[(t % nb) * d + f] + unif() - 0.5;
        w[t] = 1.0;
    }
    same_seeds("blobs k = 250", Y, w, s, d, 250);
    same_seeds("blobs k = 40", Y, w, s, d, 40);
    for (size_t t = 0; t < s; t++)
        w[t] = 0.25 + 4.0 * unif();
    same_seeds("weighted blobs k = 250", Y, w, s, d, 250);
    /* duplicates: 600 points on 12 distinct sites, k = 30 > sites (ties, zero gains) */
    for (size_t t = 0; t < 600; t++) {
        for (size_t f = 0; f < d; f++)
            Y[t * d + f] = B[(t % 12) * d + f];
        w[t] = 1.0;
    }
    same_seeds("duplicates k = 30", Y, w, 600, d, 30);
    same_seeds("duplicates k = 12", Y, w, 600, d, 12);
    /* one blob (no pruning), k = 1, k = s */
    for (size_t t = 0; t < 2000; t++)
        for (size_t f = 0; f < d; f++)
            Y[t * d + f] = unif();
    same_seeds("one blob k = 64", Y, w, 2000, d, 64);
    same_seeds("k = 1", Y, w, 2000, d, 1);
    same_seeds("k = s", Y, w, 50, d, 50);
    free(Y), free(w), free(B);
    return ck_report();
}
