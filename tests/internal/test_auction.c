/*
 * test_auction.c -- the auction of src/transport/auction.c, which only supplies starting prices
 * for SSP, judged by what it promises: its prices p are dual feasible and, when every phase
 * ends with every point placed (n < 512: no tail), their dual value
 *   D(p) = sum_i min_j (c_ij - p_j) + sum_j (p_j >= 0 ? p_j lo_j : p_j hi_j)
 * lies within n eps of the optimum (eps-complementary slackness) when the maximums sum to
 * n, so D(0) <= D(p) <= OPT and OPT - D(p) is tiny next to OPT - D(0), OPT from the exact
 * solver with its certificate verified; with slack in the maximums D(p) closes at least 99 %
 * of the gap (measured: 99.98 % with CKM_AUCTION_EPS0 = 0.05; 97.4 % with eps0 = 2). Also:
 * points whose candidates all cost more than their rest bound do not bid; ckm_transport_start runs the auction only when it pays; a stop
 * request ends the bidding.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "objective.h"
#include "auction.h"
#include "transport.h"

#include <stdint.h>

static uint64_t st = 5;
static double unif(void) { return ck_unif(&st); }

static double dual_value(const double *c, size_t n, size_t k, const size_t *lo, const size_t *hi, const double *p)
{
    double D = 0.0;
    for (size_t i = 0; i < n; i++) {
        double m = INFINITY;
        for (size_t j = 0; j < k; j++)
            m = c[i * k + j] - p[j] < m ? c[i * k + j] - p[j] : m;
        D += m;
    }
    for (size_t j = 0; j < k; j++)
        D += p[j] >= 0.0 ? p[j] * (double)lo[j] : p[j] * (double)hi[j];
    return D;
}

/* Skewed blobs: cluster j draws points with weight ~ (j + 1)^2, so sizes bind. */
static void instance(size_t n, size_t k, size_t d, double *Y, double *C)
{
    for (size_t q = 0; q < k * d; q++)
        C[q] = 10.0 * unif();
    double tot = 0.0;
    for (size_t j = 0; j < k; j++)
        tot += (double)((j + 1) * (j + 1));
    for (size_t i = 0; i < n; i++) {
        double u = unif() * tot, acc = 0.0;
        size_t j = 0;
        for (; j + 1 < k; j++) {
            acc += (double)((j + 1) * (j + 1));
            if (u < acc)
                break;
        }
        for (size_t f = 0; f < d; f++)
            Y[i * d + f] = C[j * d + f] + 1.5 * (unif() - 0.5);
    }
}

static void dual_case(size_t n, size_t k, int upper_only)
{
    size_t d = 3;
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *c = malloc(n * k * sizeof *c);
    double *p = calloc(k, sizeof *p), *q = calloc(k, sizeof *q);
    int32_t *lab = malloc(n * sizeof *lab);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    if (!Y || !C || !c || !p || !q || !lab || !lo || !hi)
        goto done;
    instance(n, k, d, Y, C);
    for (size_t j = 0; j < k; j++) {
        lo[j] = upper_only ? 0 : n / k;
        hi[j] = upper_only ? n / k + n / (4 * k) : (n + k - 1) / k;
    }
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sqdist_matrix(Y, n, d, C, k, c, 1, &err) == CKM_OK);
    int infeasible = -1;
    CHECK(ckm_transport_solve(n, k, c, lo, hi, q, lab, &infeasible, NULL, &err) == CKM_OK && infeasible == 0);
    char why[256] = "";
    CHECK(ckm_transport_verify(n, k, c, lo, hi, q, lab, 1e-9, why, sizeof why));
    double opt = 0.0;
    for (size_t i = 0; i < n; i++)
        opt += c[i * k + (size_t)lab[i]];
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    CHECK(ckm_transport_auction(n, k, k, NULL, c, NULL, hi, CKM_AUCTION_EPS0, NULL, p, &ts, &err) == CKM_OK);
    CHECK(ts.auction_phases >= 2 && ts.bids >= n && !ts.stopped);
    double zero[64] = {0};
    double D0 = dual_value(c, n, k, lo, hi, zero), D = dual_value(c, n, k, lo, hi, p);
    for (size_t j = 0; j < k; j++)
        CHECK(p[j] <= 0.0); /* maximums only: prices fall from the start, so p stays feasible */
    CHECK(D <= opt + 1e-9 * opt);          /* weak duality */
    CHECK(opt - D0 > 0.01 * opt);          /* the instance does bind */
    /* sum hi = n: every phase fills every slot, eps-CS gives OPT - D <= n eps. With slack
       (maximums only) one correction pass, not a reverse auction: the dual improves, far
       when the first eps is fine (CKM_AUCTION_EPS0 = 0.05: 99.98 % of the gap closed;
       eps0 = 2: 97.4 %, which fails here) */
    double close = upper_only ? 0.01 : 1e-4;
    CHECK(opt - D <= close * (opt - D0));
    if (getenv("CKM_TEST_VERBOSE") || !(opt - D <= close * (opt - D0)))
        fprintf(stderr, "  auction n %zu k %zu: OPT %.9g D(0) %.9g D(p) %.9g\n", n, k, opt, D0, D);
done:
    free(Y), free(C), free(c), free(p), free(q), free(lab), free(lo), free(hi);
}

/* A point whose every candidate costs more than its rest bound (a cluster outside its list
 * may be better) stays free: with rest = -inf for all, no bid and no price change. */
static void test_rest(void)
{
    size_t n = 50, k = 5, c = 2;
    int32_t cj[100];
    double cc[100], rest[50], p[5] = {0.5, -1, 0, 2, 0};
    size_t hi[5] = {10, 10, 10, 10, 10};
    for (size_t i = 0; i < n; i++) {
        cj[2 * i] = (int32_t)(i % k);
        cj[2 * i + 1] = (int32_t)((i + 1) % k);
        if (cj[2 * i] > cj[2 * i + 1]) { /* candidates ascending */
            int32_t t = cj[2 * i];
            cj[2 * i] = cj[2 * i + 1];
            cj[2 * i + 1] = t;
        }
        cc[2 * i] = unif();
        cc[2 * i + 1] = unif();
        rest[i] = -INFINITY;
    }
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_transport_auction(n, k, c, cj, cc, rest, hi, CKM_AUCTION_EPS0, NULL, p, &ts, &err) == CKM_OK);
    CHECK(ts.bids == 0 && p[0] == 0.5 && p[1] == -1 && p[3] == 2);
    /* with an honest bound the same points do bid, and only their candidates' prices move */
    for (size_t i = 0; i < n; i++)
        rest[i] = INFINITY;
    CHECK(ckm_transport_auction(n, k, c, cj, cc, rest, hi, CKM_AUCTION_EPS0, NULL, p, &ts, &err) == CKM_OK);
    CHECK(ts.bids >= n);
}

/* ckm_transport_start: no auction when the argmin labelling is nearly balanced, one when
 * it is far off; either way SSP from there reaches the verified optimum. */
static void test_start(void)
{
    size_t n = 400, k = 20, d = 3;
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *c = malloc(n * k * sizeof *c);
    double *p = calloc(k, sizeof *p);
    int32_t *lab = malloc(n * sizeof *lab);
    size_t lo[20], hi[20];
    if (!Y || !C || !c || !p || !lab)
        goto done;
    instance(n, k, d, Y, C);
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sqdist_matrix(Y, n, d, C, k, c, 1, &err) == CKM_OK);
    for (int loose = 1; loose >= 0; loose--) {
        for (size_t j = 0; j < k; j++) {
            lo[j] = loose ? 0 : n / k;
            hi[j] = loose ? n : n / k;
        }
        memset(p, 0, k * sizeof *p);
        ckm_transport_stats ts;
        memset(&ts, 0, sizeof ts);
        CHECK(ckm_transport_start(n, k, c, lo, hi, NULL, NULL, p, lab, &ts, &err) == CKM_OK);
        size_t off = ckm_transport_imbalance(n, k, lab, lo, hi, NULL);
        CHECK(loose ? ts.bids == 0 && off == 0 : ts.bids > 0 && off < n / 4);
        int stuck = 0;
        CHECK(ckm_transport_ssp(n, k, k, NULL, c, lo, hi, NULL, 1, NULL, p, lab, &ts, &stuck, &err) == CKM_OK && !stuck);
        char why[256] = "";
        CHECK(ckm_transport_verify(n, k, c, lo, hi, p, lab, 1e-9, why, sizeof why));
    }
done:
    free(Y), free(C), free(c), free(p), free(lab);
}

static int stop_now(void *user)
{
    (*(int *)user)++;
    return 1;
}

/* A stop request reaches the bidding (polled every 65536 bids): stopped set, prices as given. */
static void test_stop(void)
{
    size_t n = 30000, k = 60, d = 3;
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *c = malloc(n * k * sizeof *c);
    double *p = calloc(k, sizeof *p);
    size_t hi[60];
    if (!Y || !C || !c || !p)
        goto done;
    instance(n, k, d, Y, C);
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sqdist_matrix(Y, n, d, C, k, c, 1, &err) == CKM_OK);
    for (size_t j = 0; j < k; j++)
        hi[j] = n / k;
    int calls = 0;
    ckm_bk_limits lim = {INFINITY, stop_now, &calls};
    ckm_transport_stats ts;
    memset(&ts, 0, sizeof ts);
    CHECK(ckm_transport_auction(n, k, k, NULL, c, NULL, hi, CKM_AUCTION_EPS0, &lim, p, &ts, &err) == CKM_OK);
    CHECK(ts.stopped == 1 && calls == 1);
    for (size_t j = 0; j < k; j++)
        CHECK(p[j] == 0.0);
done:
    free(Y), free(C), free(c), free(p);
}

int main(void)
{
    test_stop();
    dual_case(300, 10, 0);
    dual_case(300, 10, 1);
    dual_case(480, 24, 0);
    test_rest();
    test_start();
    return ck_report();
}
