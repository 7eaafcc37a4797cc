/*
 * test_greedy_sizes.c -- the greedy sized labelling (src/transport/greedy_sizes.c), the stop
 * fallback's fast answer: every size bound met on random instances (counted here), the
 * nearest center when no bound binds (brute force), the labels of the rule computed by brute
 * force under tight bounds, the hand-solved case where the regret
 * order decides, separated blobs of exact sizes recovered, the same labels on 1 and 2
 * threads across several chunks; a limit (deadline gone, or a stop callback) before the
 * pass still meets every bound, one during it keeps the ranked rows' choices.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "backend.h"
#include "objective.h"
#include "greedy_sizes.h"

#include <stdint.h>

static uint64_t st = 5;
static double unif(void) { return ck_unif(&st); }

/* labels in range and every cluster's count within [lo_j, hi_j] */
static int sizes_ok(const int32_t *l, size_t n, size_t k, const size_t *lo, const size_t *hi)
{
    size_t *cnt = calloc(k, sizeof *cnt);
    int ok = cnt != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        if (l[i] < 0 || (size_t)l[i] >= k)
            ok = 0;
        else
            cnt[l[i]]++;
    }
    for (size_t j = 0; ok && j < k; j++)
        if (cnt[j] < lo[j] || cnt[j] > hi[j])
            ok = 0;
    free(cnt);
    return ok;
}

static size_t nearest(const double *y, const double *C, size_t k, size_t d, double *gap)
{
    size_t b = 0;
    double b1 = INFINITY, b2 = INFINITY;
    for (size_t j = 0; j < k; j++) {
        double v = ckm_sqdist(y, C + j * d, d);
        if (v < b1) {
            b2 = b1;
            b1 = v;
            b = j;
        } else if (v < b2) {
            b2 = v;
        }
    }
    *gap = b2 - b1;
    return b;
}

static void test_random(void)
{
    ckm_err err = {CKM_OK, ""};
    double Y[40 * 3], C[6 * 3];
    int32_t l[40];
    size_t lo[6], hi[6];
    int bad = 0, loose_bad = 0;
    for (int inst = 0; inst < 400; inst++) {
        size_t n = 1 + (size_t)(unif() * 40), k = 1 + (size_t)(unif() * 6), d = 1 + (size_t)(unif() * 3);
        if (k > n)
            k = n;
        for (size_t q = 0; q < n * d; q++)
            Y[q] = unif();
        for (size_t q = 0; q < k * d; q++)
            C[q] = unif();
        /* random bounds around n / k with sum lo <= n <= sum hi */
        size_t slo = 0, shi = 0;
        for (size_t j = 0; j < k; j++) {
            lo[j] = (size_t)(unif() * (double)(2 * n / k + 1));
            hi[j] = lo[j] + (size_t)(unif() * (double)(n / k + 2));
            slo += lo[j];
            shi += hi[j];
        }
        for (size_t j = 0; slo > n; j = (j + 1) % k)
            if (lo[j] > 0)
                lo[j]--, slo--;
        for (size_t j = 0; shi < n; j = (j + 1) % k)
            hi[j]++, shi++;
        size_t rough = 1;
        CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1 + inst % 2, NULL, l, &rough, &err) == CKM_OK);
        CHECK(rough == 0);
        bad += !sizes_ok(l, n, k, lo, hi);
        /* no bound binds: each point's nearest center (up to near-ties, which the float
           products may round either way: within about (d + 8) 2^-23 (||y'||^2 + ||c'||^2)) */
        for (size_t j = 0; j < k; j++)
            lo[j] = 0, hi[j] = n;
        CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1, NULL, l, &rough, &err) == CKM_OK);
        for (size_t i = 0; i < n; i++) {
            double gap;
            size_t b = nearest(Y + i * d, C, k, d, &gap);
            loose_bad += gap > 1e-5 && (size_t)l[i] != b;
        }
    }
    CHECK(bad == 0);
    CHECK(loose_bad == 0);
}

/* The rule by brute force, straight from its definition: points by decreasing regret
 * (second-nearest minus nearest squared distance; ties by index), each to its nearest cluster
 * j with |j| < hi_j and (|j| < lo_j or slack > 0), ties to the lower index. tol > 0: returns
 * 0 when a near-tie (distances or regrets within tol, which the float products may round
 * either way) makes it ambiguous; tol = 0 for data on which they are exact (small integers,
 * mean 0), where ties are real and go by index. */
static int reference(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo, const size_t *hi,
                     int32_t *l, double tol)
{
    double *reg = malloc(n * sizeof *reg), *D = malloc(n * k * sizeof *D), *row = malloc(k * sizeof *row);
    size_t *order = malloc(n * sizeof *order), *cnt = calloc(k, sizeof *cnt), deficit = 0;
    int ok = reg && D && row && order && cnt;
    for (size_t i = 0; ok && i < n; i++) {
        for (size_t j = 0; j < k; j++)
            D[i * k + j] = ckm_sqdist(Y + i * d, C + j * d, d);
        nearest(Y + i * d, C, k, d, &reg[i]);
        if (k == 1)
            reg[i] = 0.0;
        memcpy(row, D + i * k, k * sizeof *row); /* any two distances within tol: ambiguous */
        for (size_t a = 1; a < k; a++)
            for (size_t b = a; b > 0 && row[b] < row[b - 1]; b--) {
                double t = row[b];
                row[b] = row[b - 1];
                row[b - 1] = t;
            }
        for (size_t a = 1; tol > 0 && a < k; a++)
            ok &= !(row[a] - row[a - 1] < tol);
        order[i] = i;
    }
    for (size_t a = 1; ok && a < n; a++) /* insertion sort: decreasing regret, ties by index */
        for (size_t b = a; b > 0 && reg[order[b]] > reg[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    for (size_t a = 1; ok && tol > 0 && a < n; a++)
        ok &= !(fabs(reg[order[a]] - reg[order[a - 1]]) < tol);
    for (size_t j = 0; ok && j < k; j++)
        deficit += lo[j];
    for (size_t q = 0; ok && q < n; q++) {
        size_t i = order[q], best = k;
        int slack = n - q > deficit;
        for (size_t j = 0; j < k; j++)
            if (cnt[j] < hi[j] && (cnt[j] < lo[j] || slack) && (best == k || D[i * k + j] < D[i * k + best]))
                best = j;
        if (best == k) {
            ok = 0;
            break;
        }
        deficit -= cnt[best] < lo[best];
        cnt[best]++;
        l[i] = (int32_t)best;
    }
    free(reg), free(D), free(row), free(order), free(cnt);
    return ok;
}

/* Tight bounds (many points find their two nearest clusters closed, so the open-list scan
 * decides), exact sizes or ranges (slack > 0 for a while), up to 8 clusters: the labels are
 * the reference's. */
static void test_vs_reference(void)
{
    ckm_err err = {CKM_OK, ""};
    double Y[40 * 3], C[8 * 3];
    int32_t l[40], r[40];
    size_t lo[8], hi[8];
    int compared = 0, differ = 0;
    for (int inst = 0; inst < 300; inst++) {
        size_t n = 10 + (size_t)(unif() * 30), k = 3 + (size_t)(unif() * 6), d = 1 + (size_t)(unif() * 3);
        for (size_t q = 0; q < n * d; q++)
            Y[q] = unif();
        for (size_t q = 0; q < k * d; q++)
            C[q] = unif() * unif(); /* crowded toward a corner: the natural sizes are uneven */
        for (size_t j = 0; j < k; j++) { /* exact sizes n / k (+1), or a range around them */
            size_t m = n / k + (j < n % k), lose = inst % 2 ? (size_t)(unif() * 3) : 0;
            lo[j] = m > lose ? m - lose : 0;
            hi[j] = m + (inst % 2 ? (size_t)(unif() * 3) : 0);
        }
        if (!reference(Y, n, d, C, k, lo, hi, r, 1e-5))
            continue;
        size_t rough = 1;
        CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1 + inst % 2, NULL, l, &rough, &err) == CKM_OK && rough == 0);
        compared++;
        differ += memcmp(l, r, n * sizeof *l) != 0;
    }
    CHECK(compared >= 200);
    CHECK(differ == 0);
}

/* On a line: centers 0 and 4, one place each. Point 0 at 1.9 costs 3.61 / 4.41 (regret 0.8),
 * point 1 at 1 costs 1 / 9 (regret 8): point 1 chooses first and takes center 0, so point 0
 * goes to center 1 (SSE to the centers 5.41; the index order would give 3.61 + 9 = 12.61). */
static void test_regret_order(void)
{
    ckm_err err = {CKM_OK, ""};
    double Y[2] = {1.9, 1.0}, C[2] = {0.0, 4.0};
    size_t lo[2] = {1, 1}, hi[2] = {1, 1};
    int32_t l[2] = {-1, -1};
    size_t rough = 1;
    CHECK(ckm_transport_greedy(Y, 2, 1, C, 2, lo, hi, 1, NULL, l, &rough, &err) == CKM_OK);
    CHECK(rough == 0 && l[0] == 1 && l[1] == 0);
}

/* k blobs far apart of exactly m points each, centers at the blobs: lo = hi = m recovers them */
static void test_blobs(void)
{
    size_t k = 7, m = 50, n = k * m, d = 2;
    double *Y = malloc(n * d * sizeof *Y), C[7 * 2];
    int32_t *l = malloc(n * sizeof *l);
    size_t lo[7], hi[7];
    ckm_err err = {CKM_OK, ""};
    if (!Y || !l)
        goto done;
    for (size_t j = 0; j < k; j++) {
        C[2 * j] = 100.0 * (double)j;
        C[2 * j + 1] = -50.0 * (double)j;
        lo[j] = hi[j] = m;
    }
    for (size_t i = 0; i < n; i++) { /* blob of point i: (i * 3) mod k, spread over the input */
        size_t j = (i * 3) % k;
        Y[2 * i] = C[2 * j] + unif() - 0.5;
        Y[2 * i + 1] = C[2 * j + 1] + unif() - 0.5;
    }
    size_t rough = 1;
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 2, NULL, l, &rough, &err) == CKM_OK && rough == 0);
    int wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += (size_t)l[i] != (i * 3) % k;
    CHECK(wrong == 0);
done:
    free(Y), free(l);
}

/* Small integer coordinates, every point beside its negation (mean 0: the centred float
 * copy is exact, and so are the float products and distances), k from 40 to 520: every
 * kept-list length (k / 64 clamped to 2..8) and the open-list scan past it, exact ties
 * included (by index on both sides), exact sizes or ranges: the labels are the
 * reference's, with no instance skipped. */
static void test_integer_vs_reference(void)
{
    ckm_err err = {CKM_OK, ""};
    size_t ks[4] = {40, 200, 300, 520}, d = 2;
    for (int inst = 0; inst < 8; inst++) {
        size_t k = ks[inst % 4], n = 4 * k + 2 * (size_t)inst; /* even */
        double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C);
        int32_t *l = malloc(n * sizeof *l), *r = malloc(n * sizeof *r);
        size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
        if (!Y || !C || !l || !r || !lo || !hi) {
            CHECK(0);
            free(Y), free(C), free(l), free(r), free(lo), free(hi);
            return;
        }
        for (size_t i = 0; i < n / 2; i++)
            for (size_t f = 0; f < d; f++) {
                Y[2 * i * d + f] = floor(unif() * 41.0) - 20.0;
                Y[(2 * i + 1) * d + f] = -Y[2 * i * d + f];
            }
        for (size_t q = 0; q < k * d; q++)
            C[q] = floor(unif() * unif() * 31.0) - 10.0; /* crowded: uneven natural sizes */
        for (size_t j = 0; j < k; j++) {
            size_t m = n / k + (j < n % k), lose = inst % 2 ? (size_t)(unif() * 3) : 0;
            lo[j] = m > lose ? m - lose : 0;
            hi[j] = m + (inst % 2 ? (size_t)(unif() * 3) : 0);
        }
        CHECK(reference(Y, n, d, C, k, lo, hi, r, 0.0));
        size_t rough = 1;
        CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1 + inst % 2, NULL, l, &rough, &err) == CKM_OK && rough == 0);
        CHECK(memcmp(l, r, n * sizeof *l) == 0);
        CHECK(sizes_ok(l, n, k, lo, hi));
        free(Y), free(C), free(l), free(r), free(lo), free(hi);
    }
}

static int stop_now(void *user)
{
    (*(int *)user)++;
    return 1;
}

/* stops at its *user-th call */
static int stop_at(void *user)
{
    return --*(int *)user <= 0;
}

/* n = 10^5, k = 200: rows in three chunks; exact sizes n / k; the same labels on 1 and 2
 * threads; a stop before the pass still gives exact sizes; a stop during it keeps the ranked
 * rows' choices */
static void test_large(void)
{
    size_t n = 100000, k = 200, d = 3;
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C);
    int32_t *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    ckm_err err = {CKM_OK, ""};
    if (!Y || !C || !l1 || !l2 || !lo || !hi)
        goto done;
    for (size_t q = 0; q < n * d; q++)
        Y[q] = unif() * unif(); /* skewed: natural cluster sizes far from equal */
    for (size_t q = 0; q < k * d; q++)
        C[q] = unif();
    for (size_t j = 0; j < k; j++)
        lo[j] = hi[j] = n / k;
    size_t rough = 1;
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1, NULL, l1, &rough, &err) == CKM_OK && rough == 0);
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 2, NULL, l2, &rough, &err) == CKM_OK && rough == 0);
    CHECK(memcmp(l1, l2, n * sizeof *l1) == 0);
    size_t *cnt = calloc(k, sizeof *cnt);
    int off = 0;
    for (size_t i = 0; cnt && i < n; i++)
        cnt[l1[i]]++;
    for (size_t j = 0; cnt && j < k; j++)
        off += cnt[j] != n / k;
    CHECK(cnt && off == 0);
    free(cnt);
    /* a limit before the pass: no row ranked, every point placed by the rough rule, every
       size still exact */
    ckm_bk_limits past = {0.0, NULL, NULL};
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 2, &past, l2, &rough, &err) == CKM_OK && rough == n);
    CHECK(sizes_ok(l2, n, k, lo, hi));
    int calls = 0;
    ckm_bk_limits cb = {INFINITY, stop_now, &calls};
    rough = 0;
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1, &cb, l2, &rough, &err) == CKM_OK && rough == n && calls == 1);
    CHECK(sizes_ok(l2, n, k, lo, hi));
    /* a stop at the pass's second poll, bounds that never bind: the rows of the first chunk
       take their nearest center (brute force), the others the nearest of a few first seeds */
    int after = 2;
    ckm_bk_limits mid = {INFINITY, stop_at, &after};
    for (size_t j = 0; j < k; j++)
        lo[j] = 0, hi[j] = n;
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 2, &mid, l2, &rough, &err) == CKM_OK);
    CHECK(rough > 0 && rough < n);
    size_t wrong = 0, far = 0;
    for (size_t i = 0; i < n; i++) {
        double gap;
        size_t best = nearest(Y + i * d, C, k, d, &gap);
        if (i < n - rough) /* float products: a near-tie may go either way */
            wrong += (size_t)l2[i] != best &&
                     ckm_sqdist(Y + i * d, C + (size_t)l2[i] * d, d) > ckm_sqdist(Y + i * d, C + best * d, d) + 1e-5;
        else
            far += l2[i] < 0 || l2[i] >= 8;
    }
    CHECK(wrong == 0 && far == 0);
    /* bounds that cannot hold n points: a precondition broken, an internal error */
    lo[0] = n + 1;
    CHECK(ckm_transport_greedy(Y, n, d, C, k, lo, hi, 1, NULL, l2, &rough, &err) == CKM_ERR_INTERNAL);
done:
    free(Y), free(C), free(l1), free(l2), free(lo), free(hi);
}

int main(void)
{
    test_random();
    test_vs_reference();
    test_integer_vs_reference();
    test_regret_order();
    test_blobs();
    test_large();
    return ck_report();
}
