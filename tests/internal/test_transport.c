/*
 * test_transport.c -- the transportation solver (src/assign/transport.c) against
 * enumeration on tiny instances and against CLP on random medium ones (same optimal
 * objective), with its dual certificate verified every time; infeasible bounds,
 * degenerate cases (identical points, lo = hi, k = 1, k = n), warm starts.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "backend.h"
#include "transport.h"

#include <stdint.h>

static uint64_t st = 11;
static double unif(void) { return ck_unif(&st); }

static double objective(const double *c, size_t n, size_t k, const int32_t *lab)
{
    double f = 0;
    for (size_t i = 0; i < n; i++)
        f += c[i * k + (size_t)lab[i]];
    return f;
}

static double solve_checked(const double *c, size_t n, size_t k, const size_t *lo, const size_t *hi,
                            double *price, int32_t *lab)
{
    ckm_err err = {CKM_OK, ""};
    int infeasible = -1;
    ckm_transport_stats stats;
    CHECK(ckm_transport_solve(n, k, c, lo, hi, price, lab, &infeasible, &stats, &err) == CKM_OK);
    CHECK(infeasible == 0);
    char why[256] = "";
    int ok = ckm_transport_verify(n, k, c, lo, hi, price, lab, 1e-9, why, sizeof why);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  certificate: %s\n", why);
    return objective(c, n, k, lab);
}

static void test_tiny(void)
{
    for (int inst = 0; inst < 200; inst++) {
        size_t n = 3 + (size_t)inst % 6, k = 1 + (size_t)inst % 3, lo[3], hi[3], sum_lo = 0, sum_hi = 0;
        double c[24];
        for (size_t q = 0; q < n * k; q++)
            c[q] = inst % 5 == 0 ? (double)(int)(unif() * 3) : 10 * unif(); /* ties too */
        for (size_t j = 0; j < k; j++) {
            lo[j] = (size_t)(unif() * 3);
            hi[j] = lo[j] + (size_t)(unif() * 4);
            sum_lo += lo[j];
            sum_hi += hi[j];
        }
        double best = INFINITY;
        size_t total = 1;
        for (size_t i = 0; i < n; i++)
            total *= k;
        for (size_t code = 0; code < total; code++) {
            size_t cc = code, size[3] = {0, 0, 0};
            double f = 0;
            for (size_t i = 0; i < n; i++) {
                size_t j = cc % k;
                cc /= k;
                size[j]++;
                f += c[i * k + j];
            }
            int ok = 1;
            for (size_t j = 0; j < k; j++)
                ok &= size[j] >= lo[j] && size[j] <= hi[j];
            if (ok && f < best)
                best = f;
        }
        double price[3] = {0, 0, 0};
        int32_t lab[8];
        if (sum_lo > n || sum_hi < n) {
            ckm_err err = {CKM_OK, ""};
            int infeasible = 0;
            CHECK(ckm_transport_solve(n, k, c, lo, hi, price, lab, &infeasible, NULL, &err) == CKM_OK);
            CHECK(infeasible == 1 && isinf(best));
            continue;
        }
        CHECK(!isinf(best));
        double f = solve_checked(c, n, k, lo, hi, price, lab);
        CHECK_NEAR(f, best, 1e-9);
        /* warm start from the certificate: same optimum */
        double f2 = solve_checked(c, n, k, lo, hi, price, lab);
        CHECK_NEAR(f2, best, 1e-9);
    }
}

/* The same transportation LP through CLP. */
static double clp_objective(const double *c, size_t n, size_t k, const size_t *lo, const size_t *hi)
{
    size_t cols = n * k, rows = n + k;
    int *cs = malloc((cols + 1) * sizeof *cs), *ri = malloc(2 * cols * sizeof *ri);
    double *v = malloc(2 * cols * sizeof *v), *clo = calloc(cols, sizeof *clo), *chi = malloc(cols * sizeof *chi);
    double *rlo = malloc(rows * sizeof *rlo), *rhi = malloc(rows * sizeof *rhi), *x = malloc(cols * sizeof *x);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < k; j++) {
            size_t col = i * k + j;
            cs[col] = (int)(2 * col);
            ri[2 * col] = (int)i;
            v[2 * col] = 1;
            ri[2 * col + 1] = (int)(n + j);
            v[2 * col + 1] = 1;
            chi[col] = 1;
        }
    cs[cols] = (int)(2 * cols);
    for (size_t i = 0; i < n; i++)
        rlo[i] = rhi[i] = 1;
    for (size_t j = 0; j < k; j++) {
        rlo[n + j] = (double)lo[j];
        rhi[n + j] = (double)hi[j];
    }
    ckm_lp m = {(int)cols, (int)rows, c, clo, chi, rlo, rhi, cs, ri, v};
    ckm_bk_result res;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_bk_lp(&m, 0.0, x, &res, &err) == CKM_OK && res.status == CKM_BK_OPTIMAL);
    free(cs);
    free(ri);
    free(v);
    free(clo);
    free(chi);
    free(rlo);
    free(rhi);
    free(x);
    return res.objective;
}

static void test_vs_clp(void)
{
    size_t sizes[3][2] = {{200, 4}, {1000, 7}, {3000, 10}};
    for (int t = 0; t < 3; t++) {
        size_t n = sizes[t][0], k = sizes[t][1];
        double *c = malloc(n * k * sizeof *c), *price = calloc(k, sizeof *price);
        int32_t *lab = malloc(n * sizeof *lab);
        size_t lo[10], hi[10];
        for (size_t q = 0; q < n * k; q++)
            c[q] = 100 * unif();
        for (size_t j = 0; j < k; j++) {
            lo[j] = t == 1 ? n / k : (size_t)(0.5 * (double)n / (double)k); /* t == 1: balanced */
            hi[j] = t == 1 ? (n + k - 1) / k : (size_t)(1.6 * (double)n / (double)k);
        }
        double mine = solve_checked(c, n, k, lo, hi, price, lab);
        double ref = clp_objective(c, n, k, lo, hi);
        CHECK(fabs(mine - ref) <= 1e-9 * fabs(ref));
        if (fabs(mine - ref) > 1e-9 * fabs(ref))
            fprintf(stderr, "  n = %zu: transport %.12g vs CLP %.12g\n", n, mine, ref);
        free(c);
        free(price);
        free(lab);
    }
}

static void test_degenerate(void)
{
    /* identical points: all costs equal per cluster */
    double c[12] = {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2};
    size_t lo[2] = {3, 3}, hi[2] = {3, 3};
    double price[2] = {0, 0};
    int32_t lab[6];
    CHECK_NEAR(solve_checked(c, 6, 2, lo, hi, price, lab), 9.0, 1e-12);
    /* k = 1 */
    size_t lo1[1] = {0}, hi1[1] = {6};
    double p1[1] = {0};
    CHECK_NEAR(solve_checked(c, 6, 1, lo1, hi1, p1, lab), 9.0, 1e-12); /* costs 1,2,1,2,1,2 */
    /* k = n, every cluster exactly one point: an assignment problem */
    double a[9] = {4, 1, 3, 2, 0, 5, 3, 2, 2};
    size_t lo3[3] = {1, 1, 1}, hi3[3] = {1, 1, 1};
    double p3[3] = {0, 0, 0};
    int32_t l3[3];
    CHECK_NEAR(solve_checked(a, 3, 3, lo3, hi3, p3, l3), 5.0, 1e-12); /* 1 + 2 + 2 */
    /* a warm start far from the optimum still ends at the optimum */
    double pw[3] = {100, -50, 3};
    CHECK_NEAR(solve_checked(a, 3, 3, lo3, hi3, pw, l3), 5.0, 1e-12);
    /* a tampered certificate is rejected */
    char why[128];
    p3[0] += 10;
    CHECK(!ckm_transport_verify(3, 3, a, lo3, hi3, p3, l3, 1e-9, why, sizeof why));
}

int main(void)
{
    test_tiny();
    test_vs_clp();
    test_degenerate();
    return ck_report();
}
