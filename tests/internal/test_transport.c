/*
 * test_transport.c -- the transportation solver (src/transport/transport.c) against
 * enumeration on tiny instances and against CLP on random medium ones (same optimal
 * objective), with its dual certificate verified every time; infeasible bounds,
 * degenerate cases (identical points, lo = hi, k = 1, k = n), warm starts. The route without
 * a cost matrix (transport_points.c, forced) against the matrix solver: the same optimal
 * objective and a certificate verified over every arc, also when the candidate lists must
 * widen (a far cluster no point lists) and from the auction's prices (test_auction.c tests the
 * auction itself); SSP's searches backward from few deficits, several augmentations each;
 * Lloyd-like steps through one ckm_transport_cache (rows reused, still exact, also after
 * the epochs' slots run out and every row's bound moves to one epoch: a case built by hand
 * where a rebase that lost the drift so far would keep a point off its nearer cluster); on
 * separated blobs at k = 500, a cold call's wider lists and an auction after an SSP round
 * whose prices left the argmin far off the bounds, each answer's certificate verified.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "backend.h"
#include "objective.h"
#include "transport.h"
#include "transport_points.h"

#include <stdint.h>

/* ckm_transport_points with every option spelled out, as the tests vary them */
static ckm_error points_ex(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                           const size_t *hi, int threads, size_t matrix_max, size_t cand, const ckm_bk_limits *lim,
                           ckm_transport_cache *cache, double *price, int32_t *labels, int *infeasible,
                           ckm_transport_stats *stats, ckm_err *err)
{
    ckm_transport_points_problem pp = {Y, n, d, C, k, lo, hi};
    ckm_transport_points_opts o = {threads, lim, cache, matrix_max, SIZE_MAX, cand}; /* n k alone picks the route */
    return ckm_transport_points(&pp, &o, price, labels, infeasible, stats, err);
}

static uint64_t st = 11;
/* over all points-route solves: auction bids, SSP searches (backward ones), augmentations */
static size_t g_bids, g_searches, g_backward, g_aug;
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
    ckm_lp m = {(int)cols, (int)rows, c, clo, chi, rlo, rhi, cs, ri, v, NULL, NULL, false};
    ckm_bk_result res;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_bk_lp(&m, NULL, x, NULL, &res, &err) == CKM_OK && res.status == CKM_BK_OPTIMAL);
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

/* Points route (matrix_max = 0) vs the matrix solver on the same points and centers. */
static void points_case(size_t n, size_t d, size_t k, int bounds, int far, int threads, size_t cand, size_t matrix_max,
                        size_t *widened, size_t *rounds, size_t *quick)
{
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *cost = malloc(n * k * sizeof *cost);
    double *p1 = calloc(k, sizeof *p1), *p2 = calloc(k, sizeof *p2);
    int32_t *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    if (!Y || !C || !cost || !p1 || !p2 || !l1 || !l2 || !lo || !hi)
        goto done;
    for (size_t q = 0; q < k * d; q++)
        C[q] = 10.0 * unif();
    if (far == 1) /* one center far off: no point lists it among its nearest few */
        for (size_t f = 0; f < d; f++)
            C[f] = 1000.0;
    for (size_t i = 0; i < n; i++) { /* far == 2: skewed, most points near the first centers */
        double u = unif();
        size_t j = 1 + (size_t)((far == 2 ? u * u * u : u) * (double)(k - 1));
        for (size_t f = 0; f < d; f++)
            Y[i * d + f] = C[j * d + f] + 2.0 * (unif() - 0.5);
    }
    size_t sum_lo = 0, sum_hi = 0;
    for (size_t j = 0; j < k; j++) {
        size_t m = n / k;
        lo[j] = bounds == 0 ? m : bounds == 1 ? m / 2 : 0; /* balanced, ragged, max-only, random */
        hi[j] = bounds == 0 ? (n + k - 1) / k : bounds == 1 ? m + m / 2 + 1 : m + m / 4 + 1;
        if (bounds == 3) {
            lo[j] = (size_t)(unif() * 2.0 * (double)m);
            lo[j] = sum_lo + lo[j] > n ? 0 : lo[j];
            hi[j] = lo[j] + (size_t)(unif() * (double)m);
        }
        sum_lo += lo[j];
        sum_hi += hi[j];
    }
    if (sum_hi < n)
        hi[0] += n - sum_hi;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sqdist_matrix(Y, n, d, C, k, cost, 2, &err) == CKM_OK);
    int inf1 = -1, inf2 = -1;
    ckm_transport_stats ts;
    CHECK(ckm_transport_solve(n, k, cost, lo, hi, p1, l1, &inf1, NULL, &err) == CKM_OK && inf1 == 0);
    CHECK(points_ex(Y, n, d, C, k, lo, hi, threads, matrix_max, cand, NULL, NULL, p2, l2, &inf2, &ts, &err) == CKM_OK && inf2 == 0);
    char why[256] = "";
    int ok = ckm_transport_verify(n, k, cost, lo, hi, p2, l2, 1e-7, why, sizeof why);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  points route, n %zu k %zu bounds %d: %s\n", n, k, bounds, why);
    double f1 = objective(cost, n, k, l1), f2 = objective(cost, n, k, l2);
    CHECK(fabs(f1 - f2) <= 1e-9 * f1);
    /* a second pass or the bound confirms, unless the lists hold all k */
    CHECK(ts.passes >= 2 || ts.quick || ts.widened || k <= cand);
    *quick += ts.quick;
    *widened += ts.widened;
    g_bids += ts.bids;
    g_searches += ts.searches;
    g_backward += ts.backward;
    g_aug += ts.augmentations;
    *rounds += ts.repriced; /* passes that found arcs the lists lacked */
    bool widened_cold = ts.widened > 0;
    /* warm start from the optimum's prices: SSP only settles ties, one pass confirms */
    CHECK(points_ex(Y, n, d, C, k, lo, hi, threads, matrix_max, cand, NULL, NULL, p2, l2, &inf2, &ts, &err) == CKM_OK);
    CHECK(fabs(objective(cost, n, k, l2) - f1) <= 1e-9 * f1 && ts.passes <= 2 && !ts.widened);
    if (widened_cold) { /* through a cache: the lists widened by the cold call go back to cand */
        ckm_transport_cache *cache = ckm_transport_cache_new();
        CHECK(cache != NULL);
        memset(p2, 0, k * sizeof *p2);
        CHECK(cache && points_ex(Y, n, d, C, k, lo, hi, threads, matrix_max, cand, NULL, cache, p2, l2, &inf2, &ts,
                                 &err) == CKM_OK && ts.widened);
        size_t bytes = ckm_transport_cache_bytes(cache);
        CHECK(cache && points_ex(Y, n, d, C, k, lo, hi, threads, matrix_max, cand, NULL, cache, p2, l2, &inf2, &ts,
                                 &err) == CKM_OK);
        /* every row priced again at cand (the kept bounds would have spared rows), in the
           same buffers (alloc_case's allowance), and still the optimum */
        CHECK(!ts.widened && ts.rows_priced >= n);
        CHECK(ckm_transport_cache_bytes(cache) - bytes <= 8 * n + 16 * k * k); /* member lists' growth only */
        CHECK(ckm_transport_verify(n, k, cost, lo, hi, p2, l2, 1e-7, why, sizeof why));
        CHECK(fabs(objective(cost, n, k, l2) - f1) <= 1e-9 * f1);
        ckm_transport_cache_free(cache);
    }
done:
    free(Y), free(C), free(cost), free(p1), free(p2), free(l1), free(l2), free(lo), free(hi);
}

static int stop_now(void *user)
{
    (*(int *)user)++;
    return 1;
}

static int stop_second(void *user)
{
    return ++*(int *)user >= 2;
}

static bool poll_second(const void *user) /* user: a pointer to the counter's address */
{
    int *calls = *(int *const *)user;
    return ++*calls >= 2;
}

/* n points uniform in [0, 10]^d, the k centers the first points times cscale (1: a poor
 * start; 0.1: crowded near the origin, where most points pick the same few), exact sizes
 * n / k, prices 0. ok is false when out of memory. */
typedef struct {
    size_t n, d, k;
    double *Y, *C, *p;
    int32_t *l;
    size_t *lo, *hi;
    bool ok;
} stop_case;

static stop_case stop_case_new(size_t n, size_t d, size_t k, double cscale)
{
    stop_case c = {n, d, k, malloc(n * d * sizeof(double)), malloc(k * d * sizeof(double)),
                   calloc(k, sizeof(double)), malloc(n * sizeof(int32_t)), malloc(k * sizeof(size_t)),
                   malloc(k * sizeof(size_t)), false};
    c.ok = c.Y && c.C && c.p && c.l && c.lo && c.hi;
    for (size_t q = 0; c.ok && q < n * d; q++)
        c.Y[q] = 10.0 * unif();
    for (size_t q = 0; c.ok && q < k * d; q++)
        c.C[q] = cscale * c.Y[q];
    for (size_t j = 0; c.ok && j < k; j++)
        c.lo[j] = c.hi[j] = n / k;
    return c;
}

static void stop_case_free(stop_case *c)
{
    free(c->Y), free(c->C), free(c->p), free(c->l), free(c->lo), free(c->hi);
}

/* c on the candidate route (matrix_max 0) or the matrix route (2^28), 8 candidates */
static ckm_error stop_solve(stop_case *c, int threads, size_t matrix_max, const ckm_bk_limits *lim, int *inf,
                            ckm_transport_stats *ts)
{
    ckm_err err = {CKM_OK, ""};
    return points_ex(c->Y, c->n, c->d, c->C, c->k, c->lo, c->hi, threads, matrix_max, 8, lim, NULL, c->p, c->l, inf, ts, &err);
}

/* A stop request ends both routes with stats.stopped, without an error; one that comes
 * during a pricing pass ends the pass (polled per block of rows, both thread paths). */
static void test_stop(void)
{
    stop_case c = stop_case_new(4000, 3, 40, 1.0);
    int calls = 0, inf = -1;
    ckm_bk_limits lim = {INFINITY, stop_now, &calls};
    ckm_transport_stats ts;
    if (!c.ok)
        goto done;
    CHECK(stop_solve(&c, 1, 0, &lim, &inf, &ts) == CKM_OK);
    CHECK(ts.stopped == 1 && calls >= 1 && ts.passes == 0);
    calls = 0;
    CHECK(stop_solve(&c, 1, (size_t)1 << 28, &lim, &inf, &ts) == CKM_OK);
    CHECK(ts.stopped == 1 && calls >= 1 && ts.augmentations == 0);
    for (int threads = 1; threads <= 2; threads++) {
        calls = 0;
        ckm_bk_limits mid = {INFINITY, stop_second, &calls};
        CHECK(stop_solve(&c, threads, 0, &mid, &inf, &ts) == CKM_OK);
        CHECK(ts.stopped == 1 && calls >= 2 && ts.passes == 0);
    }
    ckm_bk_limits past = {0.0, NULL, NULL}; /* a deadline already gone */
    CHECK(stop_solve(&c, 1, 0, &past, &inf, &ts) == CKM_OK && ts.stopped);
done:
    stop_case_free(&c);
}

/* The matrix route's two long unpolled pieces of before (10^6 x 100: the fill 0.5 s, the
 * sample's solve 0.5 s) now poll. Sample: 24,000 points from a poor start, stopped at the
 * second poll (the fill's is the first), inside the sample's auction: the sample's SSP must
 * not have run (unpolled, it ran to its end: 75 augmentations in 73 searches here). */
static void test_stop_sample(void)
{
    stop_case c = stop_case_new(24000, 3, 40, 0.1);
    int calls = 0, inf = -1;
    ckm_bk_limits mid = {INFINITY, stop_second, &calls};
    ckm_transport_stats ts;
    if (!c.ok)
        goto done;
    CHECK(stop_solve(&c, 1, (size_t)1 << 28, &mid, &inf, &ts) == CKM_OK);
    CHECK(ts.stopped == 1 && calls == 2 && ts.augmentations == 0 && ts.searches == 0);
    /* unstopped, the same call solves it (the sample ran: the start was poor) */
    memset(c.p, 0, c.k * sizeof *c.p);
    CHECK(stop_solve(&c, 1, (size_t)1 << 28, NULL, &inf, &ts) == CKM_OK);
    CHECK(!ts.stopped && inf == 0 && ts.augmentations + ts.bids > 0);
done:
    stop_case_free(&c);
}

/* SSP with exact sizes n / k from labels l, stopped at the limits' second poll: it must stop
 * during the build of its lists (at most ~2^17 points in), before any search. */
static void stops_in_build(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, int32_t *l,
                           double *price)
{
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    ckm_err err = {CKM_OK, ""};
    if (lo && hi) {
        for (size_t j = 0; j < k; j++)
            lo[j] = hi[j] = n / k;
        int calls = 0, stuck = 0;
        ckm_bk_limits mid = {INFINITY, stop_second, &calls};
        ckm_transport_stats ts;
        memset(&ts, 0, sizeof ts);
        CHECK(ckm_transport_ssp(n, k, c, cj, cc, lo, hi, &mid, 1, NULL, price, l, &ts, &stuck, &err) == CKM_OK);
        CHECK(ts.stopped == 1 && calls == 2 && ts.searches == 0 && ts.augmentations == 0);
    }
    free(lo), free(hi);
}

/* SSP's build of its member and move lists is O(n k) (0.3-0.4 s at 10^6 x 100) and polls
 * every 2^16 points: 200,000 points, stopped at the second poll (during the build, at point
 * 131,071), run no search; unpolled, the first poll came after the build and let a phase
 * run. */
static void test_stop_build(void)
{
    size_t n = 200000, k = 4;
    double *cost = malloc(n * k * sizeof *cost), price[4] = {0.0, 0.0, 0.0, 0.0};
    int32_t *l = malloc(n * sizeof *l);
    if (!cost || !l)
        goto done;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < k; j++)
            cost[i * k + j] = unif() + (j == 0 ? 0.0 : 0.5); /* most points prefer cluster 0 */
        l[i] = 0;
        for (size_t j = 1; j < k; j++)
            if (cost[i * k + j] < cost[i * k + (size_t)l[i]])
                l[i] = (int32_t)j;
    }
    stops_in_build(n, k, k, NULL, cost, l, price);
done:
    free(cost), free(l);
}

/* The same on candidate arcs with large move lists (k = 200: k^2 L = 5.1 x 10^6 entries, built
 * cluster by cluster, polled about every 2^16 members): 200,000 points with 8 candidate
 * clusters each, stopped at the second poll (during the build, about 131,000 members in), run
 * no search. (test_points_route's k = 200 cases check that build's answers against the matrix
 * solver.) */
static void test_stop_build_by_cluster(void)
{
    size_t n = 200000, k = 200, c = 8;
    int32_t *cj = malloc(n * c * sizeof *cj), *l = malloc(n * sizeof *l);
    double *cc = malloc(n * c * sizeof *cc), *price = calloc(k, sizeof *price);
    if (!cj || !l || !cc || !price)
        goto done;
    for (size_t i = 0; i < n; i++) {
        size_t first = (size_t)(unif() * (double)(k - c)); /* c consecutive clusters: ascending, distinct */
        for (size_t q = 0; q < c; q++) {
            cj[i * c + q] = (int32_t)(first + q);
            cc[i * c + q] = unif();
        }
        l[i] = cj[i * c];
    }
    stops_in_build(n, k, c, cj, cc, l, price);
done:
    free(cj), free(l), free(cc), free(price);
}

/* Fill: 2^20 + 100 rows against 8 centers in R^1 are two runs of blocks (2^23 entries a run);
 * stopped at the second poll, the first run is written and the second untouched; unstopped,
 * every value is ckm_sqdist_matrix's, on 1 and 2 threads. */
static void test_matrix_poll(void)
{
    size_t m = ((size_t)1 << 20) + 100, d = 1, k = 8, split = (size_t)1 << 20;
    double *Y = malloc(m * sizeof *Y), C[8], *a = malloc(m * k * sizeof *a), *b = malloc(m * k * sizeof *b);
    ckm_err err = {CKM_OK, ""};
    if (!Y || !a || !b)
        goto done;
    for (size_t i = 0; i < m; i++)
        Y[i] = unif();
    for (size_t j = 0; j < k; j++)
        C[j] = (double)j / 8.0;
    CHECK(ckm_sqdist_matrix(Y, m, d, C, k, a, 1, &err) == CKM_OK);
    for (int threads = 1; threads <= 2; threads++) {
        int calls = 0, *pc = &calls;
        bool stopped = true;
        memset(b, 0xff, m * k * sizeof *b); /* NaN sentinels */
        CHECK(ckm_sqdist_matrix_poll(Y, m, d, C, k, b, threads, NULL, NULL, &stopped, &err) == CKM_OK && !stopped);
        CHECK(memcmp(a, b, m * k * sizeof *a) == 0);
        memset(b, 0xff, m * k * sizeof *b);
        CHECK(ckm_sqdist_matrix_poll(Y, m, d, C, k, b, threads, poll_second, &pc, &stopped, &err) == CKM_OK);
        CHECK(stopped && calls == 2);
        CHECK(memcmp(a, b, split * k * sizeof *a) == 0);
        size_t untouched = 0;
        for (size_t q = split * k; q < m * k; q++)
            untouched += isnan(b[q]);
        CHECK(untouched == 100 * k);
    }
done:
    free(Y), free(a), free(b);
}

/* A Lloyd step's centers: the means of the labels' points (W: k scratch counts); an empty
 * cluster keeps its center. */
static void lloyd_means(const double *P, size_t n, size_t d, size_t k, const int32_t *l, double *W, double *C)
{
    memset(W, 0, k * sizeof *W);
    for (size_t i = 0; i < n; i++)
        W[l[i]] += 1.0;
    for (size_t j = 0; j < k; j++)
        if (W[j] > 0.0)
            memset(C + j * d, 0, d * sizeof *C);
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            C[(size_t)l[i] * d + f] += P[i * d + f] / W[l[i]];
}

/* Lloyd-like steps with one ckm_transport_cache: each step's solve, pricing only the rows
 * the drift bounds leave in doubt, must match the matrix solver at those centers (same
 * optimal objective, certificate verified over every arc). Later steps must reuse rows;
 * other points under the same cache, and a solve stopped midway, must not leak stale
 * lists into the next answer. steps > 10: the later steps run until the epochs' slots run
 * out, and rows must still be reused after every row's bound was moved to one epoch. */
/* The answer (p, l) to the points' problem at centers C: its certificate verified over all
 * n k arcs and, with vs_matrix, its objective the matrix solver's (cost: n k scratch). */
static void check_answer(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                         const size_t *hi, const double *p, const int32_t *l, double *cost, bool vs_matrix,
                         const char *what, int step)
{
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_sqdist_matrix(Y, n, d, C, k, cost, 1, &err) == CKM_OK);
    char why[256] = "";
    int ok = ckm_transport_verify(n, k, cost, lo, hi, p, l, 1e-7, why, sizeof why);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  %s, step %d, n %zu k %zu: %s\n", what, step, n, k, why);
    if (!vs_matrix)
        return;
    double *p1 = calloc(k, sizeof *p1);
    int32_t *l1 = malloc(n * sizeof *l1);
    int inf1 = -1;
    CHECK(p1 && l1 && ckm_transport_solve(n, k, cost, lo, hi, p1, l1, &inf1, NULL, &err) == CKM_OK && inf1 == 0);
    if (p1 && l1) {
        double f = objective(cost, n, k, l), f1 = objective(cost, n, k, l1);
        CHECK(fabs(f - f1) <= 1e-9 * f1);
    }
    free(p1), free(l1);
}

static void cache_case(size_t n, size_t d, size_t k, int bounds, int threads, size_t cand, int steps)
{
    double *Y = malloc(n * d * sizeof *Y), *Y2 = malloc(n * d * sizeof *Y2), *C = malloc(k * d * sizeof *C),
           *cost = malloc(n * k * sizeof *cost), *p = calloc(k, sizeof *p), *W = malloc(k * sizeof *W);
    int32_t *l = malloc(n * sizeof *l);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    ckm_transport_cache *cache = ckm_transport_cache_new();
    if (!Y || !Y2 || !C || !cost || !p || !W || !l || !lo || !hi || !cache)
        goto done;
    for (size_t i = 0; i < n; i++) { /* k / 2 blobs: Lloyd keeps moving the centers */
        size_t b = (size_t)(unif() * (double)(k / 2));
        for (size_t f = 0; f < d; f++)
            Y[i * d + f] = (double)(b * 7 % 13) + (double)((b + f) % 5) + 1.5 * (unif() - 0.5);
    }
    for (size_t q = 0; q < n * d; q++)
        Y2[q] = Y[q] + 0.5 * unif();
    for (size_t j = 0; j < k; j++) {
        memcpy(C + j * d, Y + (j * 37 % n) * d, d * sizeof *C);
        lo[j] = bounds == 0 ? n / k : 0;
        hi[j] = bounds == 0 ? (n + k - 1) / k : n / k + n / (4 * k) + 1;
    }
    ckm_err err = {CKM_OK, ""};
    ckm_transport_stats ts;
    size_t reused = 0, rebased = 0, reused_after = 0, vouched = 0;
    for (int it = 0; it < steps; it++) {
        const double *P = it == 6 ? Y2 : Y; /* other points once: nothing may carry over */
        int inf = -1;
        if (it == 8) { /* a stop midway leaves half-priced rows behind */
            int calls = 0;
            ckm_bk_limits mid = {INFINITY, stop_second, &calls};
            CHECK(points_ex(P, n, d, C, k, lo, hi, threads, 0, cand, &mid, cache, p, l, &inf, &ts, &err) ==
                  CKM_OK);
            CHECK(ts.stopped);
        }
        CHECK(points_ex(P, n, d, C, k, lo, hi, threads, 0, cand, NULL, cache, p, l, &inf, &ts, &err) ==
                  CKM_OK &&
              inf == 0 && !ts.stopped);
        check_answer(P, n, d, C, k, lo, hi, p, l, cost, true, "cached points route", it);
        if (it == 6 || it == 7)
            CHECK(ts.rows_priced >= n); /* new points: every row priced again */
        if (it >= 2 && it != 6 && it != 7)
            reused += ts.rows_priced < n;
        reused_after += rebased > 0 && ts.rows_priced < n;
        rebased += ts.rebased;
        vouched += ts.vouched;
        lloyd_means(P, n, d, k, l, W, C);
        if (it >= 10) /* the centers drift a little every step, as late Lloyd steps do */
            for (size_t q = 0; q < k * d; q++)
                C[q] += 0.2 * (unif() - 0.5);
    }
    CHECK(reused > 0);
    /* the check after SSP passed rows on their margins (the answers verified above) */
    CHECK(vouched > 0);
    if (steps > 10)
        CHECK(rebased > 0 && reused_after > 0);
done:
    ckm_transport_cache_free(cache);
    free(Y), free(Y2), free(C), free(cost), free(p), free(W), free(l), free(lo), free(hi);
}

/* Separated blobs, one per cluster (30,000 x 16, k = 500, balanced, 8 candidates), Lloyd
 * steps through one cache from centers at random points: the cold call's wider lists
 * (k > 256: 2 x 8 candidates, no widening), back to 8 in the next calls, and an auction
 * after an SSP round whose prices left the argmin far off the bounds (the second step for
 * this seed, as measured). Every step's answer carries a certificate verified over all n k
 * arcs. */
static void separated_case(uint64_t seed, int steps)
{
    enum { D = 16 };
    size_t n = 30000, k = 500, cand = 8;
    double *Y = malloc(n * D * sizeof *Y), *C = malloc(k * D * sizeof *C), *B = malloc(k * D * sizeof *B),
           *cost = malloc(n * k * sizeof *cost), *p = calloc(k, sizeof *p), *W = malloc(k * sizeof *W);
    int32_t *l = malloc(n * sizeof *l);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    ckm_transport_cache *cache = ckm_transport_cache_new();
    if (!Y || !C || !B || !cost || !p || !W || !l || !lo || !hi || !cache)
        goto done;
    uint64_t r = seed;
    for (size_t q = 0; q < k * D; q++)
        B[q] = 10.0 * (2.0 * ck_unif(&r) - 1.0);
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)(ck_unif(&r) * (double)k);
        for (size_t f = 0; f < D; f++)
            Y[i * D + f] = B[b * D + f] + 2.0 * (ck_unif(&r) + ck_unif(&r) + ck_unif(&r) - 1.5);
    }
    for (size_t j = 0; j < k; j++) {
        memcpy(C + j * D, Y + (size_t)(ck_unif(&r) * (double)n) * D, D * sizeof *C);
        lo[j] = hi[j] = n / k;
    }
    ckm_err err = {CKM_OK, ""};
    ckm_transport_stats ts;
    size_t reauctions = 0;
    for (int it = 0; it < steps; it++) {
        int inf = -1;
        CHECK(points_ex(Y, n, D, C, k, lo, hi, 2, 0, cand, NULL, cache, p, l, &inf, &ts, &err) == CKM_OK &&
              inf == 0 && !ts.stopped);
        /* the cold call starts with twice the candidates (not a widening), the next ones
           go back to cand */
        CHECK(!ts.widened && ts.width == (it == 0 ? 2 * cand : cand));
        reauctions += ts.reauctions;
        check_answer(Y, n, D, C, k, lo, hi, p, l, cost, false, "separated blobs", it);
        lloyd_means(Y, n, D, k, l, W, C);
    }
    CHECK(reauctions > 0);
done:
    ckm_transport_cache_free(cache);
    free(Y), free(C), free(B), free(cost), free(p), free(W), free(l), free(lo), free(hi);
}

/* A few centers jump, the others move a little (k = 100 > 2 MOVERS, 3000 points in the
 * square [0, 10]^2, through one cache): the bound over all clusters then vouches for no row
 * (its drift is a jump), the bound over the clusters that did not jump, with the jumpers'
 * exact costs, for most. loose: sizes at most 1.5 n / k, 8 candidates, small moves, 40
 * steps: rows are reused, not all priced, at every step, also after the epochs' slots ran
 * out (the rebased bounds keep the jumpers' exact costs). Else balanced sizes (prices
 * that move), 4 candidates, moves of up to 0.05 a coordinate. Each answer's certificate
 * is verified over all arcs and its objective is the matrix solver's (a row a jumper lands
 * next to must follow it). movers_hand isolates the others' drift and price rise. */
static void movers_case(bool loose)
{
    enum { N = 3000, K = 100, D = 2 };
    int steps = loose ? 40 : 12; /* 40: the epochs' slots run out (rebases) */
    double *Y = malloc(N * D * sizeof *Y), *C = malloc(K * D * sizeof *C), *cost = malloc(N * K * sizeof *cost),
           *p = calloc(K, sizeof *p);
    int32_t *l = malloc(N * sizeof *l);
    size_t lo[K], hi[K];
    ckm_transport_cache *cache = ckm_transport_cache_new();
    if (!Y || !C || !cost || !p || !l || !cache)
        goto done;
    uint64_t r = 77;
    for (size_t q = 0; q < N * D; q++)
        Y[q] = 10.0 * ck_unif(&r);
    for (size_t j = 0; j < K; j++) {
        memcpy(C + j * D, Y + (size_t)(ck_unif(&r) * N) * D, D * sizeof *C);
        lo[j] = loose ? 0 : N / K;
        hi[j] = loose ? 3 * N / (2 * K) : N / K;
    }
    ckm_err err = {CKM_OK, ""};
    ckm_transport_stats ts;
    size_t reused = 0, reused_rebased = 0;
    for (int it = 0; it < steps; it++) {
        int inf = -1;
        CHECK(points_ex(Y, N, D, C, K, lo, hi, 1, 0, loose ? 8 : 4, NULL, cache, p, l, &inf, &ts, &err) == CKM_OK &&
              inf == 0);
        check_answer(Y, N, D, C, K, lo, hi, p, l, cost, true, "movers case", it);
        reused += it > 0 && ts.rows_priced < N;
        reused_rebased += ts.rebased && ts.rows_priced < N;
        for (size_t q = 0; q < K * D; q++) /* every center a little */
            C[q] += (loose ? 0.002 : 0.1) * (ck_unif(&r) - 0.5);
        for (int m = 0; m < 3; m++) /* and three of them across the square */
            memcpy(C + (size_t)(ck_unif(&r) * K) * D, Y + (size_t)(ck_unif(&r) * N) * D, D * sizeof *C);
    }
    if (loose)
        CHECK(reused + 3 >= (size_t)steps && reused_rebased > 0);
done:
    ckm_transport_cache_free(cache);
    free(Y), free(C), free(cost), free(p), free(l);
}

/* The scene of movers_hand and margin_hand (k clusters in the plane, 311 points): B =
 * (0, -1) and X = (3, 0) are clusters 0 and 1, point v sits at the origin, and 31 static
 * clusters from s0 on hold 10 points each, far from v; maximums that never bind. */
static void hand_scene(double *C, double *Y, size_t *hi, size_t k, size_t s0)
{
    C[0] = 0.0, C[1] = -1.0; /* B */
    C[2] = 3.0, C[3] = 0.0;  /* X */
    Y[0] = Y[1] = 0.0;       /* v */
    for (size_t s = 0; s < 31; s++) {
        C[(s0 + s) * 2] = 100.0 + 10.0 * (double)s, C[(s0 + s) * 2 + 1] = 100.0;
        for (size_t m = 0; m < 10; m++)
            Y[(1 + s * 10 + m) * 2] = C[(s0 + s) * 2] + 0.01 * (double)m, Y[(1 + s * 10 + m) * 2 + 1] = 100.0;
    }
    for (size_t j = 0; j < k; j++)
        hi[j] = 1 + 31 * 10;
}

/* One call on that scene through the cache, one candidate per point: solved, feasible. */
static bool hand_solve(const double *Y, const double *C, size_t k, const size_t *lo, const size_t *hi,
                       ckm_transport_cache *cache, double *p, int32_t *l, ckm_transport_stats *ts)
{
    ckm_err err = {CKM_OK, ""};
    int inf = -1;
    return cache && points_ex(Y, 1 + 31 * 10, 2, C, k, lo, hi, 1, 0, 1, NULL, cache, p, l, &inf, ts, &err) == CKM_OK &&
           inf == 0;
}

/* The bound over the clusters that did not jump, by hand (k = 65, no size bounds, one
 * candidate per point). 32 jumpers J_s, far from every point, move by 100 between two calls
 * through one cache: the bound over all clusters vouches for no row, the movers are exactly
 * the jumpers. Point v at the origin lists B (cost 1); X, left out, costs 9 (rest 9). Then
 * either X comes to (0.5, 0) (drift 2.5: bound 9 + 2.5 (2.5 - 6) = 0.25 < 1) or v's start
 * price for X rises by 8.5 (bound 0.5 < 1): v must be priced, and the answer (v on X in
 * the first, back on B with X's price lowered in the second) certified over all arcs. A
 * bound that took the jumpers' drift or price rise for the others' would vouch for B. 31
 * static clusters, 10 points on each, are vouched for and not priced. */
static void movers_hand(bool rise)
{
    enum { K = 65, J0 = 2, S0 = 34, N = 1 + 31 * 10 };
    double C[K * 2], Y[N * 2], p[K] = {0}, cost[N * K];
    int32_t l[N];
    size_t lo[K] = {0}, hi[K];
    hand_scene(C, Y, hi, K, S0);
    for (size_t s = 0; s < 32; s++)
        C[(J0 + s) * 2] = -100.0 - 10.0 * (double)s, C[(J0 + s) * 2 + 1] = -100.0;
    ckm_transport_cache *cache = ckm_transport_cache_new();
    ckm_transport_stats ts;
    CHECK(hand_solve(Y, C, K, lo, hi, cache, p, l, &ts) && l[0] == 0);
    for (size_t s = 0; s < 32; s++)
        C[(J0 + s) * 2 + 1] = -200.0;
    if (rise)
        p[1] += 8.5;
    else
        C[2] = 0.5;
    CHECK(hand_solve(Y, C, K, lo, hi, cache, p, l, &ts));
    CHECK(ts.rows_priced < N); /* the static points were vouched for */
    CHECK(l[0] == (rise ? 0 : 1));
    check_answer(Y, N, 2, C, K, lo, hi, p, l, cost, false, "movers by hand", rise);
    ckm_transport_cache_free(cache);
}

/* The margins carried across a Lloyd step (margin_vouches), by hand: movers_hand's v, B, X
 * and 31 static clusters without the jumpers. Between two calls through one cache one
 * static center moves by 10^-3 (the margins' drift) and v's start price for X rises by 8.5:
 * v's margin (X at 9 against B at 1) must lose that rise, 9 - 8.5 < 1, so v is checked
 * again, not vouched for, and the answer at the returned prices is certified over all arcs
 * (a bound without the rise kept v on B at prices where X is cheaper: no row priced, the
 * certificate false). The static points are vouched for by their margins in every check
 * of the call, the first across the step. */
static void margin_hand(void)
{
    enum { K = 33, S0 = 2, N = 1 + 31 * 10 };
    double C[K * 2], Y[N * 2], p[K] = {0}, cost[N * K];
    int32_t l[N];
    size_t lo[K] = {0}, hi[K];
    hand_scene(C, Y, hi, K, S0);
    ckm_transport_cache *cache = ckm_transport_cache_new();
    ckm_transport_stats ts;
    CHECK(hand_solve(Y, C, K, lo, hi, cache, p, l, &ts) && l[0] == 0);
    C[S0 * 2 + 1] += 1e-3;
    p[1] += 8.5;
    CHECK(hand_solve(Y, C, K, lo, hi, cache, p, l, &ts));
    /* the static points, by their margins in each of the call's three checks (across the
       step; after pricing v, at the same prices; after SSP): without the carry across the
       step, 2 (N - 1) */
    CHECK(ts.vouched >= 3 * (N - 1));
    CHECK(l[0] == 0);
    check_answer(Y, N, 2, C, K, lo, hi, p, l, cost, false, "margins by hand", 1);
    ckm_transport_cache_free(cache);
}

/* The epochs' slots running out, by hand (bounds that never bind: prices stay 0, so a row's
 * bound on the clusters left out of its list is (sqrt(rest) - D)^2, D the largest center
 * move since its epoch). Point v at the origin lists only B (cost 1) and leaves out L, 10
 * away; point w sits halfway between X and Y, far from both, and is in doubt at every move,
 * so each call opens an epoch. L comes 0.25 closer per call: v stays certified ((10 -
 * D)^2 >= 1) up to the call that moves every bound to one epoch: call 31, whose second
 * round finds the 32 slots used, at D = 7.75 (v's rest becomes 5.06); then L comes to 2 and
 * jumps to 0.5 from v, nearer than B. The answer must follow: a rebase that
 * kept v's rest at 100 (the drift not folded in) or dropped it would leave v on B. */
static void rebase_case(void)
{
    enum { K = 4, STEPS = 40 };
    double Y[] = {0.0, 0.0, 0.5, 100.0};
    double C[K * 2] = {0.0, -1.0, 10.0, 0.0, 0.0, 100.0, 1.0, 100.0}; /* B, L, X, Y */
    size_t lo[K] = {0}, hi[K] = {2, 2, 2, 2};
    double p[K] = {0}, cost[2 * K];
    int32_t l[2];
    ckm_transport_cache *cache = ckm_transport_cache_new();
    CHECK(cache != NULL);
    if (!cache)
        return;
    ckm_err err = {CKM_OK, ""};
    size_t rebased = 0;
    int at = -1;
    for (int it = 0; it < STEPS; it++) {
        ckm_transport_stats ts;
        int inf = -1;
        C[2] = it <= 32 ? 10.0 - 0.25 * it : 0.5;
        C[4] = it % 2 ? 0.01 : 0.0; /* X wobbles: w in doubt at every call */
        CHECK(points_ex(Y, 2, 2, C, K, lo, hi, 1, 0, 1, NULL, cache, p, l, &inf, &ts, &err) == CKM_OK &&
              inf == 0);
        CHECK(ckm_sqdist_matrix(Y, 2, 2, C, K, cost, 1, &err) == CKM_OK);
        char why[256] = "";
        int ok = ckm_transport_verify(2, K, cost, lo, hi, p, l, 1e-9, why, sizeof why);
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  rebase case, call %d: %s\n", it, why);
        if (ts.rebased && at < 0)
            at = it;
        rebased += ts.rebased;
    }
    CHECK(at == 31 && l[0] == 1); /* the slots ran out where the case needs it; v on L */
    CHECK(rebased >= 1);
    ckm_transport_cache_free(cache);
}

/* No large allocation inside the Lloyd loop (issue 33): Lloyd steps through one cache
 * allocate the matrix (matrix route) or the candidate lists (candidate route) once; a later
 * step adds at most member-list growth, 8 n + 16 k^2 bytes, unless the lists widen. The
 * counter must see the first step's matrix (a counter that counts nothing cannot pass). */
static void alloc_case(size_t n, size_t d, size_t k, size_t matrix_max, size_t cand)
{
    double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *p = calloc(k, sizeof *p),
           *W = malloc(k * sizeof *W);
    int32_t *l = malloc(n * sizeof *l);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    ckm_transport_cache *cache = ckm_transport_cache_new();
    if (!Y || !C || !p || !W || !l || !lo || !hi || !cache)
        goto done;
    for (size_t i = 0; i < n; i++) { /* overlapping blobs: many labels change at every step */
        size_t b = (size_t)(unif() * (double)k);
        for (size_t f = 0; f < d; f++)
            Y[i * d + f] = 0.3 * (double)((b * 7 + f * 3) % 11) + 2.0 * (unif() - 0.5);
    }
    for (size_t j = 0; j < k; j++) {
        memcpy(C + j * d, Y + (j * 37 % n) * d, d * sizeof *C);
        lo[j] = n / k;
        hi[j] = (n + k - 1) / k;
    }
    ckm_err err = {CKM_OK, ""};
    ckm_transport_stats ts;
    size_t before = 0, moved = 0;
    for (int it = 0; it < 5; it++) {
        int inf = -1;
        CHECK(points_ex(Y, n, d, C, k, lo, hi, 1, matrix_max, cand, NULL, cache, p, l, &inf, &ts, &err) ==
                  CKM_OK &&
              inf == 0);
        size_t now = ckm_transport_cache_bytes(cache);
        if (it == 0 && matrix_max > 0)
            CHECK(now >= n * k * sizeof(double));
        if (it > 0 && !ts.widened) {
            CHECK(now - before <= 8 * n + 16 * k * k);
            if (now - before > 8 * n + 16 * k * k)
                fprintf(stderr, "  step %d (n %zu, k %zu, matrix_max %zu) allocated %zu bytes\n", it, n, k, matrix_max,
                        now - before);
        }
        before = now;
        moved += it > 0 ? ts.moves : 0;
        lloyd_means(Y, n, d, k, l, W, C);
    }
    CHECK(moved > 0); /* the later steps had work to do */
done:
    ckm_transport_cache_free(cache);
    free(Y), free(C), free(p), free(W), free(l), free(lo), free(hi);
}

static void test_points_route(void)
{
    size_t widened = 0, rounds = 0, quick = 0;
    for (int bounds = 0; bounds < 3; bounds++) {
        points_case(3000, 4, 30, bounds, 0, 1, 8, 0, &widened, &rounds, &quick);
        points_case(2000, 2, 7, bounds, 0, 2, 8, 0, &widened, &rounds, &quick);
        points_case(4000, 8, 60, bounds, 1, 2, 8, 0, &widened, &rounds, &quick);
        points_case(3000, 2, 25, bounds, 0, 2, 2, 0, &widened, &rounds, &quick); /* short lists: pricing rounds */
    }
    for (int inst = 0; inst < 30; inst++) /* random bounds, uniform points, two candidates */
        points_case(200 + 30 * (size_t)inst, 2, 3 + (size_t)inst % 17, 3, 0, 1, 2, 0, &widened, &rounds, &quick);
    points_case(30000, 3, 40, 0, 0, 2, 8, 0, &widened, &rounds, &quick); /* auction prices first */
    points_case(30000, 3, 40, 0, 0, 2, 8, (size_t)1 << 18, &widened, &rounds, &quick);
    points_case(20000, 3, 200, 0, 0, 2, 16, 0, &widened, &rounds, &quick);
    points_case(20000, 3, 200, 0, 2, 2, 16, 0, &widened, &rounds, &quick); /* far off the bounds: auction */
    points_case(20000, 3, 200, 1, 1, 2, 16, 0, &widened, &rounds, &quick);
    CHECK(widened > 0); /* the far cluster forced wider lists */
    CHECK(rounds > 0);  /* and pricing passes found missing arcs */
    CHECK(quick > 0);   /* and the bound spared passes */
    CHECK(g_bids > 0);  /* cold starts far off the bounds went through the auction */
    /* SSP searched backward from few deficits (the far cluster's), and one search served
       several augmentations */
    CHECK(g_backward > 0 && g_searches < g_aug);
}

/* The default route rule (CKM_TRANSPORT_MATRIX_MAX, CKM_TRANSPORT_MATRIX_CUBE): the matrix
 * only for n k <= 2^28 and k^3 <= 5 n, hand-computed at the edges; and a default solve on
 * each side of k^3 = 5 n takes that route (the matrix route reports width k, the candidate
 * route its 16 candidates) with the matrix solver's optimum. */
static void test_route_rule(void)
{
    ckm_transport_points_opts o = ckm_transport_points_defaults();
    CHECK(ckm_transport_points_matrix(100000, 79, &o));     /* 493039 <= 5 n */
    CHECK(!ckm_transport_points_matrix(100000, 80, &o));    /* 512000 > 5 n */
    CHECK(ckm_transport_points_matrix(1000000, 170, &o));   /* 4913000 */
    CHECK(!ckm_transport_points_matrix(1000000, 171, &o));  /* 5000211 */
    CHECK(ckm_transport_points_matrix(3125, 25, &o));       /* 15625 = 5 n */
    CHECK(ckm_transport_points_matrix((size_t)1 << 28, 1, &o));
    CHECK(!ckm_transport_points_matrix(((size_t)1 << 28) + 1, 1, &o)); /* n k > 2^28 */
    CHECK(!ckm_transport_points_matrix(SIZE_MAX / 2, 3, &o));           /* n k overflows */
    o.matrix_cube = SIZE_MAX; /* n k alone */
    CHECK(ckm_transport_points_matrix(100000, 1000, &o));
    CHECK(!ckm_transport_points_matrix(1000000, 300, &o));
    size_t d = 4, k = 25;
    for (size_t n = 3000; n <= 3125; n += 125) { /* k^3 = 15625: above 5 n, then equal */
        double *Y = malloc(n * d * sizeof *Y), *C = malloc(k * d * sizeof *C), *cost = malloc(n * k * sizeof *cost);
        double *p1 = calloc(k, sizeof *p1), *p2 = calloc(k, sizeof *p2);
        int32_t *l1 = malloc(n * sizeof *l1), *l2 = malloc(n * sizeof *l2);
        size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
        ckm_err err = {CKM_OK, ""};
        if (Y && C && cost && p1 && p2 && l1 && l2 && lo && hi) {
            for (size_t q = 0; q < k * d; q++)
                C[q] = 10.0 * unif();
            for (size_t q = 0; q < n * d; q++)
                Y[q] = 10.0 * unif();
            for (size_t j = 0; j < k; j++)
                lo[j] = n / k, hi[j] = n / k; /* n is a multiple of k */
            int inf1 = -1, inf2 = -1;
            ckm_transport_stats ts;
            ckm_transport_points_problem pp = {Y, n, d, C, k, lo, hi};
            ckm_transport_points_opts def = ckm_transport_points_defaults();
            CHECK(ckm_sqdist_matrix(Y, n, d, C, k, cost, 1, &err) == CKM_OK);
            bool ok1 = ckm_transport_solve(n, k, cost, lo, hi, p1, l1, &inf1, NULL, &err) == CKM_OK && inf1 == 0;
            bool ok2 = ckm_transport_points(&pp, &def, p2, l2, &inf2, &ts, &err) == CKM_OK && inf2 == 0;
            CHECK(ok1 && ok2);
            CHECK(n == 3125 ? ts.width == k : ts.width < k);
            double f1 = ok1 ? objective(cost, n, k, l1) : 0, f2 = ok2 ? objective(cost, n, k, l2) : 1;
            CHECK(fabs(f1 - f2) <= 1e-9 * f1);
        } else {
            CHECK(!"out of memory");
        }
        free(Y), free(C), free(cost), free(p1), free(p2), free(l1), free(l2), free(lo), free(hi);
    }
}

/* The cluster-order build on 1, 2 and 3 threads (k = 200, 8 candidate clusters per point:
 * large lists, so that build, in three rounds of clusters split between the threads,
 * 150,000 points cyclically consecutive candidates, sizes 700-800): the same labels,
 * prices, counters and stuck flag, bit for bit, and the sizes within their bounds. */
static void test_build_threads(void)
{
    size_t n = 150000, k = 200, c = 8;
    int32_t *cj = malloc(n * c * sizeof *cj), *start = malloc(n * sizeof *start);
    int32_t *ref = malloc(n * sizeof *ref), *l = malloc(n * sizeof *l);
    double *cc = malloc(n * c * sizeof *cc), *pref = malloc(k * sizeof *pref), *p = malloc(k * sizeof *p);
    size_t *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi), *cnt = calloc(k, sizeof *cnt);
    ckm_err err = {CKM_OK, ""};
    if (!cj || !start || !ref || !l || !cc || !pref || !p || !lo || !hi || !cnt)
        goto done;
    for (size_t i = 0; i < n; i++) { /* c cyclically consecutive clusters, ascending */
        size_t first = (size_t)(unif() * (double)k) % k, best = 0, wrap = first + c > k ? first + c - k : 0;
        for (size_t q = 0; q < c; q++) {
            cj[i * c + q] = (int32_t)(q < wrap ? q : first + q - wrap);
            cc[i * c + q] = unif();
            best = cc[i * c + q] < cc[i * c + best] ? q : best;
        }
        start[i] = cj[i * c + best]; /* the argmin at price 0 */
    }
    for (size_t j = 0; j < k; j++)
        lo[j] = 700, hi[j] = 800;
    ckm_transport_stats ref_ts;
    int ref_stuck = 0;
    for (int threads = 1; threads <= 3; threads++) {
        int stuck = 0;
        ckm_transport_stats ts;
        memset(&ts, 0, sizeof ts);
        memcpy(l, start, n * sizeof *l);
        memset(p, 0, k * sizeof *p);
        CHECK(ckm_transport_ssp(n, k, c, cj, cc, lo, hi, NULL, threads, NULL, p, l, &ts, &stuck, &err) == CKM_OK);
        if (threads == 1) {
            memcpy(ref, l, n * sizeof *l);
            memcpy(pref, p, k * sizeof *p);
            ref_ts = ts, ref_stuck = stuck;
            for (size_t i = 0; i < n; i++)
                cnt[l[i]]++;
            size_t off = 0;
            for (size_t j = 0; j < k; j++)
                off += cnt[j] < lo[j] || cnt[j] > hi[j];
            CHECK(!stuck && off == 0 && ts.augmentations > 0); /* the start was off the bounds */
            continue;
        }
        CHECK(stuck == ref_stuck && ts.augmentations == ref_ts.augmentations && ts.searches == ref_ts.searches);
        CHECK(memcmp(l, ref, n * sizeof *l) == 0 && memcmp(p, pref, k * sizeof *p) == 0);
    }
done:
    free(cj), free(start), free(ref), free(l), free(cc), free(pref), free(p), free(lo), free(hi), free(cnt);
}

int main(void)
{
    test_build_threads();
    test_stop();
    test_stop_sample();
    test_stop_build();
    test_stop_build_by_cluster();
    test_matrix_poll();
    test_points_route();
    test_route_rule();
    for (int threads = 1; threads <= 2; threads++) {
        cache_case(6000, 3, 60, 0, threads, 8, 10);
        cache_case(5000, 2, 40, 1, threads, 4, 60);
    }
    rebase_case();
    separated_case(5, 4);
    movers_case(true);
    movers_case(false);
    movers_hand(false);
    movers_hand(true);
    margin_hand();
    alloc_case(21000, 4, 32, (size_t)1 << 28, 16); /* matrix route, with a cold first step's sample */
    alloc_case(6000, 4, 40, 0, 8);                  /* candidate route */
    test_tiny();
    test_vs_clp();
    test_degenerate();
    return ck_report();
}
