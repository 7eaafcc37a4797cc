/*
 * test_nearest_fused.c -- the fused nearest-center pass (src/objective/nearest_fused.c)
 * against a brute force written here.
 *   For every row: the label's squared distance, summed directly in long double, is within
 *   rounding (1e-12 relative, plus the expansion's error) of the least one, and the returned
 *   distance is that least distance to within the same; on integer data (every value
 *   exact) the label is exactly the brute force's, ties to the lowest index. Both kernels
 *   (AVX2 + FMA where the CPU has it, and the portable one) are checked, on row ranges that
 *   start and end off a multiple of four (padded rows), and ckm_nearest on 1 and 2 threads
 *   gives the same labels and distances bit for bit.
 * Cases: d = 4, 5, 16, 31, 32; k = 1, 7, 8, 9, 23, 64 (panels of 8 with padding); points
 * around k centers with noise, an offset of 1e4, and an integer grid with duplicated
 * centers (exact ties).
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "objective.h"

#include <float.h>
#include <stdbool.h>

static uint64_t st = 17;
static double unif(void) { return ck_unif(&st); }

typedef struct fixture {
    size_t m, d, k;
    double *Y, *C, *yn, *cn, *panel, *pnorm;
    bool integer;
} fixture;

static bool fixture_make(fixture *f, size_t m, size_t d, size_t k, double offset, bool integer)
{
    size_t padded = (k + 7) / 8 * 8;
    *f = (fixture){m, d, k, malloc(m * d * sizeof(double)), malloc(k * d * sizeof(double)),
                   malloc(m * sizeof(double)), malloc(k * sizeof(double)), malloc(padded * d * sizeof(double)),
                   malloc(padded * sizeof(double)), integer};
    if (!f->Y || !f->C || !f->yn || !f->cn || !f->panel || !f->pnorm)
        return false;
    for (size_t j = 0; j < k; j++)
        for (size_t q = 0; q < d; q++) /* integer: every third center repeats the one before */
            f->C[j * d + q] = integer ? (j % 3 == 2 ? f->C[(j - 1) * d + q] : floor(7.0 * unif()))
                                      : offset + 10.0 * (2.0 * unif() - 1.0);
    for (size_t i = 0; i < m; i++) {
        size_t j = (size_t)(unif() * (double)k);
        for (size_t q = 0; q < d; q++)
            f->Y[i * d + q] = integer ? floor(7.0 * unif()) : f->C[j * d + q] + 3.0 * (unif() - 0.5);
    }
    ckm_row_norms(f->Y, m, d, f->yn);
    ckm_row_norms(f->C, k, d, f->cn);
    ckm_fused_panels(f->C, f->cn, k, d, f->panel, f->pnorm);
    return true;
}

static void fixture_free(fixture *f)
{
    free(f->Y), free(f->C), free(f->yn), free(f->cn), free(f->panel), free(f->pnorm);
}

static long double direct(const fixture *f, size_t i, size_t j)
{
    long double s = 0.0L;
    for (size_t q = 0; q < f->d; q++) {
        long double e = (long double)f->Y[i * f->d + q] - (long double)f->C[j * f->d + q];
        s += e * e;
    }
    return s;
}

/* rows [r0, r1) by one kernel: counts of rows off the brute force */
static size_t check_rows(const fixture *f, size_t r0, size_t r1, bool fma)
{
    int32_t *lab = malloc(f->m * sizeof(int32_t));
    double *dist = malloc(f->m * sizeof(double));
    if (!lab || !dist) {
        free(lab), free(dist);
        return 1;
    }
    ckm_fused_rows(f->Y, f->yn, r0, r1, f->d, f->panel, f->pnorm, f->k, fma, lab, dist);
    size_t bad = 0;
    for (size_t i = r0; i < r1; i++) {
        long double best = INFINITY;
        size_t at = 0;
        double scale = f->yn[i];
        for (size_t j = 0; j < f->k; j++) {
            long double v = direct(f, i, j);
            if (v < best) {
                best = v;
                at = j;
            }
            scale = fmax(scale, f->cn[j]);
        }
        /* the expansion ||y||^2 - 2 y.c + ||c||^2 loses about (d + 4) eps of the norms */
        long double tol = 1e-12L * (best + 1.0L) + (long double)(4.0 * (double)(f->d + 4) * DBL_EPSILON * scale);
        bool ok = lab[i] >= 0 && (size_t)lab[i] < f->k && direct(f, i, (size_t)lab[i]) <= best + tol &&
                  fabsl((long double)dist[i] - best) <= tol;
        if (f->integer)
            ok = ok && (size_t)lab[i] == at && (long double)dist[i] == best;
        bad += !ok;
    }
    free(lab), free(dist);
    return bad;
}

/* ckm_nearest on 1 and 2 threads: identical labels and distances */
static bool threads_agree(const fixture *f)
{
    ckm_nearest_ws ws[2];
    ckm_err err = {CKM_OK, ""};
    int32_t *lab[2] = {malloc(f->m * sizeof(int32_t)), malloc(f->m * sizeof(int32_t))};
    double *dist[2] = {malloc(f->m * sizeof(double)), malloc(f->m * sizeof(double))};
    bool same = lab[0] && lab[1] && dist[0] && dist[1];
    for (int t = 0; same && t < 2; t++) {
        CHECK(ckm_nearest_ws_init(&ws[t], f->k, f->d, t + 1, &err) == CKM_OK);
        CHECK(ws[t].panel != NULL); /* this d takes the fused pass */
        ckm_nearest(f->Y, f->yn, f->m, f->C, &ws[t], lab[t], dist[t]);
        ckm_nearest_ws_free(&ws[t]);
    }
    same = same && memcmp(lab[0], lab[1], f->m * sizeof(int32_t)) == 0 &&
           memcmp(dist[0], dist[1], f->m * sizeof(double)) == 0;
    free(lab[0]), free(lab[1]), free(dist[0]), free(dist[1]);
    return same;
}

int main(void)
{
    size_t ds[] = {4, 5, 16, 31, 32}, ks[] = {1, 7, 8, 9, 23, 64};
    bool fma_here = ckm_fused_available();
    fprintf(stderr, "AVX2 + FMA kernel %s on this CPU\n", fma_here ? "checked" : "not available");
    for (size_t a = 0; a < sizeof ds / sizeof ds[0]; a++)
        for (size_t b = 0; b < sizeof ks / sizeof ks[0]; b++)
            for (int kind = 0; kind < 3; kind++) {
                fixture f;
                size_t m = 1203; /* not a multiple of four */
                if (!fixture_make(&f, m, ds[a], ks[b], kind == 1 ? 1e4 : 0.0, kind == 2)) {
                    fixture_free(&f);
                    CHECK(false);
                    continue;
                }
                for (int v = 0; v < 2; v++) {
                    bool fma = v == 1;
                    if (fma && !fma_here)
                        continue;
                    size_t bad = check_rows(&f, 0, m, fma) + check_rows(&f, 3, 590, fma);
                    if (bad)
                        fprintf(stderr, "d = %zu, k = %zu, kind %d, %s kernel: %zu rows off\n", ds[a], ks[b], kind,
                                fma ? "FMA" : "portable", bad);
                    CHECK(bad == 0);
                }
                CHECK(threads_agree(&f));
                fixture_free(&f);
            }
    return ck_report();
}
