/*
 * transport_points.c -- the size-constrained assignment of transport.h from points and
 * centers, without an n x k cost matrix once n k is large (sizeflow at 10^6-10^7 points
 * and k in the thousands).
 *   costs c_ij = ||y_i||^2 - 2 y_i.c_j + ||c_j||^2 (clamped at 0), by dgemm in blocks of
 *   rows: the values ckm_sqdist_matrix stores.
 *   n k <= 2^28: the matrix and ckm_transport_solve (memory 8 n k bytes, at most 2 GiB:
 *   the fastest route where it fits). Beyond, rounds of pricing and SSP on candidate arcs (column generation):
 *     pass under prices p: every point keeps its C clusters of least reduced cost
 *       c_ij - p_j (C = min(k, 16) for k <= 256, else 32) with their costs, and its
 *       argmin; the same pass tests
 *       the previous round's solution for dual feasibility against every cluster,
 *       min_j (c_ij - p_j) >= c_il(i) - p_l(i) - tol;
 *     all points pass: that solution is optimal for the full problem (SSP's prices give
 *       complementary slackness with its sizes by construction; with dual feasibility over
 *       all arcs this is the LP optimality certificate of transport.h) and is returned;
 *     else SSP (ckm_transport_ssp) on the candidate arcs from the argmin labels, and again.
 *   Before that second pass, a bound often settles it: the pass also keeps rest_i, the least
 *   reduced cost left out of i's candidates; at SSP's prices p1 a left-out cluster costs at
 *   least rest_i - max_j (p1_j - p0_j), so when that and every candidate's exact reduced
 *   cost are >= the point's own, the pass is not needed (warm Lloyd steps).
 *   SSP that cannot balance the restricted problem (no candidate path to a deficit) or a
 *   20th round doubles C, up to k, where the arcs are all arcs and SSP's answer is final.
 *   A poor start (argmin labels so far off the bounds that SSP would be slow,
 *   ckm_transport_auction_pays) first gets prices from an auction on the candidate arcs
 *   (auction.c), where a point whose candidates all cost more than rest_i (a cluster left
 *   out may be better) stays free; then candidates again under those prices, and another
 *   auction while each cuts the imbalance by a quarter (at most 8). A stuck SSP's potentials are
 *   discarded (raised only where its search reached, they start the next round worse than
 *   the prices it began from).
 * tol = 1e-10 (||y_i||^2 + max ||c||^2 + max |p|): above the rounding of costs and prices.
 * Memory: 12 n C + 16 n bytes of candidates, argmin and rest + one block of costs per
 * thread + the solver's O(n + k^2 L) (transport.c) + the auction's 20 n (auction.c).
 */
#include "algo.h" /* ckm_memory_available */
#include "core.h"
#include "objective.h"
#include "transport.h"

#include <cblas.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* candidate clusters per point to start with: measured from random centers (cold) at
   10^6 x 16 balanced, k = 100: 16 and 32 both 10.8 s (no widening), so 16 for small k
   (half the memory at 10^7 points); k = 1000 was measured with 32 */
#define CAND_SMALL_K 16
#define CAND_MIN 32
#define MAX_ROUNDS 20
#define MAX_AUCTIONS 8
#define GEMM_SINGLE ((size_t)1 << 18)

typedef struct pricing {
    size_t n, d, k, c;
    const double *Y, *ynorm, *C, *cnorm, *price;
    int threads;
    bool own;                      /* our threads run single-threaded dgemm calls */
    size_t block;
    double *gram;                  /* block * k per thread (own) or one block */
    int32_t *cj;                   /* n * c */
    double *cc;                    /* n * c */
    int32_t *argmin;               /* n */
    const int32_t *prev;           /* the previous solution to test, or NULL */
    double cmax, pmax;
    size_t *viol;                  /* per thread */
    double *buf;                   /* per thread 3 k: reduced costs, costs, scratch */
    double *rest;                  /* n: least reduced cost outside the candidates, at the
                                      pass's prices */
    const ckm_bk_limits *lim;      /* polled once per block of rows */
    atomic_int stop;               /* set by the first block that sees the limits hit: the
                                      pass ends unfinished */
} pricing;

/* The m-th smallest of a[0..len) (0-based), reordering a: quickselect, O(len) on average. */
static double nth_smallest(double *a, size_t len, size_t m)
{
    size_t lo = 0, hi = len - 1;
    while (lo < hi) {
        double x = a[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < x)
                i++;
            while (a[j] > x)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (m <= j)
            hi = j;
        else if (m >= i)
            lo = i;
        else
            return a[m];
    }
    return a[m];
}

/* Rows [r0, r0 + rows) from their block of -2 y.c: the c least reduced costs (ties to the
 * lower cluster) and rest, the least reduced cost left out. Selection: a threshold T from
 * every 8th cluster (the sample's order statistic expected to leave 2c clusters <= T); the
 * clusters <= T are gathered in cluster order and the c-th smallest among them found by a
 * short quickselect. When fewer than c are <= T (unlucky sample), the c-th smallest of all
 * k instead. Entries are kept in cluster order. */
static void price_rows(pricing *pr, size_t r0, size_t rows, const double *g, int tid)
{
    size_t k = pr->k, c = pr->c;
    double *red = pr->buf + (size_t)tid * 4 * k, *val = red + k, *gr = val + k;
    int32_t *gj = (int32_t *)(gr + k); /* gathered clusters, with their reduced costs gr */
    size_t viol = 0;
    for (size_t r = 0; r < rows; r++) {
        size_t i = r0 + r;
        double yn = pr->ynorm[i];
        const double *o = g + r * k;
        for (size_t j = 0; j < k; j++) {
            double v = o[j] + yn + pr->cnorm[j];
            v = v > 0.0 ? v : 0.0;
            val[j] = v;
            red[j] = v - pr->price[j];
        }
        size_t bj = 0;
        for (size_t j = 1; j < k; j++)
            bj = red[j] < red[bj] ? j : bj;
        pr->argmin[i] = (int32_t)bj;
        if (pr->prev) {
            size_t a = (size_t)pr->prev[i];
            double tol = 1e-10 * (yn + pr->cmax + pr->pmax);
            viol += red[bj] < red[a] - tol;
        }
        int32_t *cj = pr->cj + i * c;
        double *cc = pr->cc + i * c;
        double rest = INFINITY;
        size_t m = 0;
        if (c >= k) {
            for (size_t j = 0; j < k; j++) {
                cj[j] = (int32_t)j;
                cc[j] = val[j];
            }
            pr->rest[i] = rest;
            continue;
        }
        size_t sm = 0, ng = 0;
        for (size_t j = 0; j < k; j += 8)
            gr[sm++] = red[j];
        size_t q = (2 * c * sm + k - 1) / k;
        double T = q < sm ? nth_smallest(gr, sm, q) : INFINITY;
        double above = INFINITY; /* least reduced cost > T */
        for (size_t j = 0; j < k; j++)
            if (red[j] <= T) {
                gr[ng] = red[j];
                gj[ng++] = (int32_t)j;
            } else if (red[j] < above)
                above = red[j];
        double thr;
        if (ng >= c) {
            memcpy(red, gr, ng * sizeof(double)); /* red is spent: selection scratch */
            thr = nth_smallest(red, ng, c - 1);
        } else {
            for (size_t j = 0; j < k; j++) {
                gr[j] = red[j];
                gj[j] = (int32_t)j;
            }
            ng = k;
            above = INFINITY;
            thr = nth_smallest(red, k, c - 1);
        }
        size_t below = 0;
        for (size_t e = 0; e < ng; e++)
            below += gr[e] < thr;
        size_t ties = c - below; /* entries equal to thr taken, lowest clusters first */
        for (size_t e = 0; e < ng; e++)
            if (m < c && (gr[e] < thr || (gr[e] == thr && ties > 0))) {
                ties -= gr[e] == thr;
                cj[m] = gj[e];
                cc[m++] = val[gj[e]];
            } else if (gr[e] < rest)
                rest = gr[e];
        pr->rest[i] = rest < above ? rest : above;
    }
    pr->viol[tid] += viol;
}

static void gemm_rows(const pricing *pr, size_t r0, size_t rows, double *g)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)pr->k, (int)pr->d, -2.0,
                pr->Y + r0 * pr->d, (int)pr->d, pr->C, (int)pr->d, 0.0, g, (int)pr->k);
}

static void own_blocks(void *ctx, size_t b0, size_t b1, int tid)
{
    pricing *pr = ctx;
    double *g = pr->gram + (size_t)tid * pr->block * pr->k;
    for (size_t b = b0; b < b1; b++) {
        if (atomic_load(&pr->stop))
            return;
        if (ckm_transport_should_stop(pr->lim)) {
            atomic_store(&pr->stop, 1);
            return;
        }
        size_t r0 = b * pr->block, rows = pr->n - r0 < pr->block ? pr->n - r0 : pr->block;
        gemm_rows(pr, r0, rows, g);
        price_rows(pr, r0, rows, g, tid);
    }
}

typedef struct part_job {
    pricing *pr;
    size_t r0;
} part_job;

static void part_rows(void *ctx, size_t a, size_t b, int tid)
{
    part_job *pj = ctx;
    price_rows(pj->pr, pj->r0 + a, b - a, pj->pr->gram + a * pj->pr->k, tid);
}

/* One pass: candidates, argmin and (with prev) the count of dual violations; pr->stop when
 * the limits ended it early (then nothing it wrote is usable). */
static size_t pass(pricing *pr)
{
    memset(pr->viol, 0, (size_t)pr->threads * sizeof(size_t));
    pr->pmax = 0.0;
    for (size_t j = 0; j < pr->k; j++)
        pr->pmax = fabs(pr->price[j]) > pr->pmax ? fabs(pr->price[j]) : pr->pmax;
    size_t nblocks = (pr->n + pr->block - 1) / pr->block;
    if (pr->own)
        ckm_parallel_for(pr->threads, nblocks, own_blocks, pr);
    else
        for (size_t r0 = 0; r0 < pr->n; r0 += pr->block) {
            if (ckm_transport_should_stop(pr->lim)) {
                atomic_store(&pr->stop, 1);
                break;
            }
            size_t rows = pr->n - r0 < pr->block ? pr->n - r0 : pr->block;
            gemm_rows(pr, r0, rows, pr->gram);
            part_job pj = {pr, r0};
            if (pr->threads > 1)
                ckm_parallel_for(pr->threads, rows, part_rows, &pj);
            else
                part_rows(&pj, 0, rows, 0);
        }
    size_t v = 0;
    for (int q = 0; q < pr->threads; q++)
        v += pr->viol[q];
    return v;
}

typedef struct quick_job {
    const pricing *pr;
    const int32_t *labels;
    const double *p1;
    double rise, pmax;
    size_t *fail; /* per thread */
} quick_job;

/* Points [i0, i1): can a point have an arc of negative reduced cost at the new prices p1?
 * Candidates are priced exactly; any other cluster j had reduced cost >= rest_i at the
 * pass's prices p0, so now >= rest_i - max_j (p1_j - p0_j). */
static void quick_rows(void *ctx, size_t i0, size_t i1, int tid)
{
    quick_job *q = ctx;
    const pricing *pr = q->pr;
    size_t c = pr->c, fail = 0;
    for (size_t i = i0; i < i1; i++) {
        const int32_t *cj = pr->cj + i * c;
        const double *cc = pr->cc + i * c;
        double u = INFINITY, least = pr->rest[i] - q->rise;
        for (size_t e = 0; e < c; e++) {
            double red = cc[e] - q->p1[cj[e]];
            least = red < least ? red : least;
            if (cj[e] == q->labels[i])
                u = red;
        }
        double tol = 1e-10 * (pr->ynorm[i] + pr->cmax + q->pmax);
        fail += least < u - tol;
    }
    q->fail[tid] += fail;
}

/* True when no point can violate dual feasibility at prices p1 (then the SSP solution in
 * labels is optimal for every arc without another full pass); p0: the pass's prices. */
static bool quick_check(pricing *pr, const int32_t *labels, const double *p0, const double *p1)
{
    quick_job q = {pr, labels, p1, -INFINITY, 0.0, pr->viol};
    for (size_t j = 0; j < pr->k; j++) {
        q.rise = p1[j] - p0[j] > q.rise ? p1[j] - p0[j] : q.rise;
        q.pmax = fabs(p1[j]) > q.pmax ? fabs(p1[j]) : q.pmax;
    }
    memset(pr->viol, 0, (size_t)pr->threads * sizeof(size_t));
    if (pr->threads > 1 && pr->n >= 65536)
        ckm_parallel_for(pr->threads, pr->n, quick_rows, &q);
    else
        quick_rows(&q, 0, pr->n, 0);
    size_t fail = 0;
    for (int t = 0; t < pr->threads; t++)
        fail += pr->viol[t];
    return fail == 0;
}

static void pricing_free(pricing *pr)
{
    free(pr->gram);
    free(pr->cj);
    free(pr->cc);
    free(pr->argmin);
    free(pr->viol);
    free(pr->buf);
    free(pr->rest);
    memset(pr, 0, sizeof *pr);
}

/* Candidate storage for c per point (keeps the rest). */
static bool pricing_alloc(pricing *pr, size_t c)
{
    size_t nc;
    free(pr->cj);
    free(pr->cc);
    pr->c = c;
    bool ok = ckm_mul_ok(pr->n, c, &nc);
    pr->cj = ok ? ckm_alloc_array(nc, sizeof(int32_t)) : NULL;
    pr->cc = ok ? ckm_alloc_array(nc, sizeof(double)) : NULL;
    return pr->cj && pr->cc;
}

static ckm_error solve_rows(const double *Y, const double *ynorm, size_t n, size_t d, const double *C,
                            const double *cnorm, size_t k, const size_t *lo, const size_t *hi, int threads,
                            size_t cand, const ckm_bk_limits *lim, double *price, int32_t *labels,
                            ckm_transport_stats *st, ckm_err *err)
{
    pricing pr;
    memset(&pr, 0, sizeof pr);
    pr.n = n;
    pr.d = d;
    pr.k = k;
    pr.Y = Y;
    pr.ynorm = ynorm;
    pr.C = C;
    pr.cnorm = cnorm;
    pr.price = price;
    pr.lim = lim;
    atomic_init(&pr.stop, 0);
    pr.threads = ckm_thread_count(threads);
    size_t kd = k * d > 0 ? k * d : 1;
    pr.own = pr.threads > 1 && GEMM_SINGLE / kd >= 16;
    pr.block = pr.own ? GEMM_SINGLE / kd : ((size_t)1 << 22) / (k ? k : 1);
    pr.block = pr.block < 16 ? 16 : pr.block > n ? n : pr.block;
    pr.cmax = 0.0;
    for (size_t j = 0; j < k; j++)
        pr.cmax = cnorm[j] > pr.cmax ? cnorm[j] : pr.cmax;
    size_t bk;
    bool ok = ckm_mul_ok(pr.block, k, &bk) && ckm_mul_ok(bk, pr.own ? (size_t)pr.threads : 1, &bk);
    pr.gram = ok ? ckm_alloc_array(bk, sizeof(double)) : NULL;
    pr.argmin = ckm_alloc_array(n, sizeof(int32_t));
    pr.viol = ckm_alloc_array((size_t)pr.threads, sizeof(size_t));
    pr.buf = ckm_alloc_array((size_t)pr.threads * 4 * k, sizeof(double));
    pr.rest = ckm_alloc_array(n, sizeof(double));
    double *saved = ckm_alloc_array(k, sizeof(double));
    ckm_error rc = CKM_OK;
    if (!pr.gram || !pr.argmin || !pr.viol || !pr.buf || !pr.rest || !saved || !pricing_alloc(&pr, k < cand ? k : cand)) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for %zu points' candidate clusters", n);
        goto done;
    }
    bool have = false;
    int rounds = 0, auctions = 0;
    size_t last_off = 0;
    for (;;) {
        if (ckm_transport_should_stop(lim)) {
            st->stopped = 1;
            break;
        }
        pr.prev = have ? labels : NULL;
        size_t viol = pass(&pr);
        if (atomic_load(&pr.stop)) {
            st->stopped = 1;
            break;
        }
        st->passes++;
        if (have && viol == 0)
            break; /* the last SSP solution is optimal for every arc */
        st->repriced += have;
        if (!have && auctions < MAX_AUCTIONS) {
            /* far off the bounds: an auction on the candidate arcs, then candidates again
               under its prices, while each round cuts the imbalance by a quarter (what is
               left, about n / 256 + 2 k units, goes to SSP) */
            size_t off = ckm_transport_imbalance(n, k, pr.argmin, lo, hi);
            if (off == SIZE_MAX) {
                rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
                goto done;
            }
            if (ckm_transport_auction_pays(n, k, pr.c, off) && (auctions == 0 || 4 * off < 3 * last_off)) {
                auctions++;
                last_off = off;
                if ((rc = ckm_transport_auction(n, k, pr.c, pr.cj, pr.cc, pr.rest, hi, 2.0, lim, price, st, err)) !=
                        CKM_OK ||
                    st->stopped)
                    goto done;
                continue;
            }
        }
        memcpy(labels, pr.argmin, n * sizeof(int32_t));
        memcpy(saved, price, k * sizeof(double));
        int stuck = 0;
        if ((rc = ckm_transport_ssp(n, k, pr.c, pr.cj, pr.cc, lo, hi, lim, price, labels, st, &stuck, err)) != CKM_OK ||
            st->stopped)
            goto done;
        rounds++;
        if (!stuck && pr.c == k)
            break; /* every arc was a candidate: optimal */
        if (stuck || rounds >= MAX_ROUNDS) {
            /* a stuck search leaves potentials raised only where it reached: worse prices
               than those it started from, which are kept */
            if (stuck)
                memcpy(price, saved, k * sizeof(double));
            /* wider lists grow by 12 n (c' - c) bytes: refuse rather than let the system's
               out-of-memory killer end the process (measured: 10 GB at 10^7 x 100) */
            size_t wider = 2 * pr.c < k ? 2 * pr.c : k;
            double grow = 12.0 * (double)n * (double)(wider - pr.c), avail = ckm_memory_available();
            if (avail >= 0.0 && grow > 0.8 * avail) {
                rc = ckm_fail(err, CKM_ERR_NOMEM,
                              "transportation solver: balancing the size bounds on candidate arcs needs %zu candidate "
                              "clusters per point instead of %zu (%.0f MB more), but only %.0f MB are available",
                              wider, pr.c, grow / 1048576.0, avail / 1048576.0);
                goto done;
            }
            if (!pricing_alloc(&pr, wider)) {
                rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for %zu candidate clusters per point",
                              pr.c);
                goto done;
            }
            st->widened++;
            rounds = 0;
            have = false;
            continue;
        }
        have = true;
        if (quick_check(&pr, labels, saved, price)) {
            st->quick++;
            break; /* optimal for every arc, shown from the pass's bounds */
        }
    }
done:
    pricing_free(&pr);
    free(saved);
    return rc;
}

ckm_error ckm_transport_points(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                               const size_t *hi, int threads, const ckm_bk_limits *lim, double *price,
                               int32_t *labels, int *infeasible, ckm_transport_stats *stats, ckm_err *err)
{
    return ckm_transport_points_ex(Y, n, d, C, k, lo, hi, threads, CKM_TRANSPORT_MATRIX_MAX,
                                   k <= 256 ? CAND_SMALL_K : CAND_MIN, lim, price, labels,
                                   infeasible, stats, err);
}

ckm_error ckm_transport_points_ex(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                                  const size_t *hi, int threads, size_t matrix_max, size_t cand,
                                  const ckm_bk_limits *lim, double *price, int32_t *labels, int *infeasible,
                                  ckm_transport_stats *stats, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    size_t nk;
    ckm_error rc;
    if (ckm_mul_ok(n, k, &nk) && nk <= matrix_max) {
        double *cost = ckm_alloc_array(nk > 0 ? nk : 1, sizeof(double));
        if (!cost)
            return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for the %zu x %zu costs", n, k);
        rc = ckm_sqdist_matrix(Y, n, d, C, k, cost, err);
        if (rc == CKM_OK)
            rc = ckm_transport_solve_lim(n, k, cost, lo, hi, lim, price, labels, infeasible, &st, err);
        free(cost);
        st.passes = 1;
        st.seconds = ckm_now() - t0;
        if (stats)
            *stats = st;
        return rc;
    }
    if ((rc = ckm_transport_precheck(n, k, lo, hi, price, infeasible, err)) != CKM_OK || *infeasible) {
        if (stats)
            *stats = st;
        return rc;
    }
    double *ynorm = ckm_alloc_array(n, sizeof(double)), *cnorm = ckm_alloc_array(k, sizeof(double));
    if (!ynorm || !cnorm) {
        free(ynorm);
        free(cnorm);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    }
    /* the norms as ckm_sqdist_matrix sums them */
    ckm_row_norms(Y, n, d, ynorm);
    ckm_row_norms(C, k, d, cnorm);
    rc = solve_rows(Y, ynorm, n, d, C, cnorm, k, lo, hi, threads, cand < 1 ? 1 : cand, lim, price,
                    labels, &st, err);
    free(ynorm);
    free(cnorm);
    st.seconds = ckm_now() - t0;
    if (stats)
        *stats = st;
    return rc;
}
