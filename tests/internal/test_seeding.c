/*
 * test_seeding.c -- the pruned greedy k-means++ of src/lloyd/seeding.c against the rule it
 * must reproduce, written here plainly: each step draws 2 + floor(ln k) trials from the
 * running sum of w_t D(t)^2 in point order and keeps the trial whose potential
 * sum_t w_t min(D(t)^2, ||y_t - y||^2) is least (first on ties), every distance measured.
 * The seeder skips points by the triangle inequality, switches from full scans to member
 * lists and sums gains instead of potentials; none of that may change a single center.
 * Checked bit for bit with 1 and 2 threads on: separated blobs with k large enough for
 * the list mode, weighted points, many duplicate points (ties), a single blob, k = 1 and
 * k = s; and from d = 32, where full scans go through the bf16 filter (a bound decides
 * which distances are measured in double): overlapping blobs (many pairs within the
 * filter's margin), far from the origin, tiny and huge coordinates (underflow, and the
 * filter turned off), duplicates, weights and 9 trials (two vectors of eight lanes).
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "objective.h"
#include "reduced.h"
#include "seeding.h"

#include <stdint.h>

static uint64_t st = 11;
static double unif(void) { return ck_unif(&st); }
/* standard normal by Box-Muller */
static double normal(void) { return sqrt(-2.0 * log(1.0 - unif())) * cos(6.283185307179586 * unif()); }

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

/* filter: whether the bf16 filter must have run (1), must not (0), or either (-1) */
static void same_seeds_fs(const char *what, const double *Y, double *w, size_t s, size_t d, size_t k, int filter,
                          uint64_t seed)
{
    ckm_reduced r;
    memset(&r, 0, sizeof r);
    r.n = r.s = s;
    r.d = d;
    r.k = k;
    r.X = r.mean = Y;
    r.mass = w;
    double *ref = malloc(k * d * sizeof(double)), *got = malloc(k * d * sizeof(double));
    reference(Y, w, s, d, k, seed, ref);
    for (int threads = 1; threads <= 2; threads++) {
        ckm_seeder ws;
        ckm_err err;
        if (ckm_seeder_init(&ws, &r, threads, &err) != CKM_OK) {
            CHECK(!"seeder_init");
            break;
        }
        ckm_rng rng;
        ckm_rng_seed(&rng, seed, 0);
        ckm_seed_centers(&ws, CKM_INIT_KMEANSPP, &rng, got);
        if (filter >= 0 && ws.filter != (filter == 1)) {
            fprintf(stderr, "%s: the bf16 filter was %s\n", what, ws.filter ? "on" : "off");
            CHECK(!"filter state");
        }
        ckm_seeder_free(&ws);
        bool same = memcmp(ref, got, k * d * sizeof(double)) == 0;
        if (!same)
            fprintf(stderr, "%s, seed %llu, %d thread(s): centers differ from the plain rule\n", what,
                    (unsigned long long)seed, threads);
        CHECK(same);
    }
    free(ref), free(got);
}

static void same_seeds_f(const char *what, const double *Y, double *w, size_t s, size_t d, size_t k, int filter)
{
    same_seeds_fs(what, Y, w, s, d, k, filter, 7);
}

static void same_seeds(const char *what, const double *Y, double *w, size_t s, size_t d, size_t k)
{
    same_seeds_f(what, Y, w, s, d, k, d >= CKM_SEED_FLOAT_FROM_D ? -1 : 0);
}

/* d = 40: nb overlapping blobs (centers N(0, 1), unit noise: most trials are near many
   points' current distance), times scale, plus offset */
static void high_d(const char *what, size_t s, size_t nb, size_t k, double scale, double offset, int filter)
{
    size_t d = 40;
    double *Y = malloc(s * d * sizeof(double)), *w = malloc(s * sizeof(double)), *B = malloc(nb * d * sizeof(double));
    for (size_t q = 0; q < nb * d; q++)
        B[q] = normal();
    for (size_t t = 0; t < s; t++) {
        for (size_t f = 0; f < d; f++)
            Y[t * d + f] = offset + scale * (B[(t % nb) * d + f] + normal());
        w[t] = 1.0;
    }
    same_seeds_f(what, Y, w, s, d, k, filter);
    free(Y), free(w), free(B);
}

/* bf16's worst case: coordinates a hair below and above a rounding midpoint of bf16 round
   apart by one bf16 unit while their true distance is tiny (A = m - delta and B = m + delta
   round to m -+ half a unit; C = m - 4 delta rounds with A). A's distance to B (4 d delta^2)
   is below its distance to C (9 d delta^2), but the bf16 values put B a whole unit away and
   C on top of A: only a bound with the full rounding term lets the pair (A, B) through.
   Mirrored points keep the mean exactly 0, so the centred values are the constructed ones;
   six points, k = 3..6, twelve seeds, eight midpoints (checked: with v halved in
   seeding.c, 16 runs differ from the plain rule). */
static void test_filter_midpoints(void)
{
    size_t d = 32, s = 6;
    double Y[6 * 32], w[6] = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
    for (int g = 0; g < 8; g++) {
        double mid = (1.0 + (double)(g % 4) / 4.0) * ldexp(1.0, g / 4) * (1.0 + 0x1p-8), /* a midpoint */
            delta = ldexp(mid, -22 - g % 3);
        const double v[3] = {mid - delta, mid + delta, mid - 4.0 * delta};
        for (size_t q = 0; q < 3; q++)
            for (size_t f = 0; f < d; f++) {
                Y[(2 * q) * d + f] = v[q];
                Y[(2 * q + 1) * d + f] = -v[q];
            }
        for (uint64_t seed = 1; seed <= 12; seed++) /* a bound with half the rounding term fails 16 */
            same_seeds_fs("bf16 midpoints", Y, w, s, d, 3 + seed % 4, 1, seed);
    }
}

static void test_filter(void)
{
    test_filter_midpoints();
    high_d("d = 40 overlapping k = 60", 3000, 60, 60, 1.0, 0.0, 1);
    high_d("d = 40 one blob k = 30", 2000, 1, 30, 1.0, 0.0, 1);
    high_d("d = 40 far from the origin k = 40", 2000, 40, 40, 1.0, 1e6, 1);
    high_d("d = 40 tiny k = 30", 1500, 30, 30, 1e-150, 0.0, 1);
    high_d("d = 40 huge (filter off) k = 20", 1000, 20, 20, 1e18, 0.0, 0);
    high_d("d = 40 k = 1500 (9 trials)", 3000, 300, 1500, 1.0, 0.0, 1);
    /* duplicates and weights at d = 40 */
    size_t d = 40, s = 800;
    double *Y = malloc(s * d * sizeof(double)), *w = malloc(s * sizeof(double));
    for (size_t t = 0; t < s; t++) {
        for (size_t f = 0; f < d; f++)
            Y[t * d + f] = t % 16 == 0 ? unif() : (double)((t % 7) * (f % 3));
        w[t] = 0.25 + 4.0 * unif();
    }
    same_seeds_f("d = 40 duplicates, weights k = 25", Y, w, s, d, 25, 1);
    free(Y), free(w);
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
    test_filter();
    return ck_report();
}
