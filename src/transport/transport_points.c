/*
 * transport_points.c -- the size-constrained assignment of transport.h from points and
 * centers, without an n x k cost matrix once n k is large (sizeflow at 10^6-10^7 points
 * and k in the thousands).
 *   costs c_ij = ||y_i||^2 - 2 y_i.c_j + ||c_j||^2 (clamped at 0), by dgemm in blocks of
 *   rows: the values ckm_sqdist_matrix stores.
 *   n k <= 2^28 and k^3 <= 5 n: the matrix and ckm_transport_solve (memory 8 n k bytes, at
 *   most 2 GiB; with a cache, the matrix and the solver's workspace are allocated by the
 *   first call and reused by the next ones). The faster route there: at larger k its k x k
 *   move lists cost more than the pricing below (the measured crossover,
 *   CKM_TRANSPORT_MATRIX_CUBE). Else rounds of pricing and SSP on candidate arcs (column
 *   generation):
 *     pass under prices p: every point keeps its C clusters of least reduced cost
 *       c_ij - p_j (C = min(k, 16); 32 in a cold call at k > 256: cold_width) with their
 *       costs, and its
 *       argmin; the same pass tests
 *       the previous round's solution for dual feasibility against every cluster,
 *       min_j (c_ij - p_j) >= c_il(i) - p_l(i) - tol;
 *     all points pass: that solution is optimal for the full problem (SSP's prices give
 *       complementary slackness with its sizes by construction; with dual feasibility over
 *       all arcs this is the LP optimality certificate of transport.h) and is returned;
 *     else SSP (ckm_transport_ssp) on the candidate arcs from the argmin labels, and again.
 *   Bounds spare rows their pricing: a pass also keeps rest_i, the least reduced cost left
 *   out of i's candidates, and the centers C^e and prices p^e it priced at (its epoch e).
 *   Under centers C and prices p a left-out cluster then costs at least
 *     rest_i - max_j (p_j - p^e_j) + (A >= D ? D (D - 2 A) : -A^2),
 *   D = max_j ||C_j - C^e_j||, A = sqrt(max(0, rest_i + max_j p^e_j)) (derivation at
 *   rest_bound). Where that is >= the least candidate's exact reduced cost, the argmin and
 *   the dual check of that row need no pricing; where it is not, the same bound over the
 *   clusters other than epoch e's MOVERS farthest-drifted ones (their largest drift and
 *   rise), with those movers priced exactly, may still vouch (movers_bound). So a round
 *   prices only the rows in doubt:
 *     - after SSP, when no row is in doubt and every row's least candidate is >= its own
 *       reduced cost, the solution is optimal without any pricing (quick check); else the
 *       rows in doubt found by that check are the next round's;
 *     - a row whose argmin led the others by a margin at the last check's prices keeps
 *       it while the prices have moved less than that margin (slack_vouches), so the
 *       check after SSP (the same centers) reads only the rows SSP moved and those near a
 *       tie; across a Lloyd step the margin, less the step's drift and price rise by
 *       rest_bound's formula, still vouches for the rows far from a tie (margin_vouches);
 *     - across calls with one ckm_transport_cache (sizeflow's Lloyd steps, where centers
 *       drift little), the candidates' costs are recomputed at the new centers (n C d
 *       flops) and only the rows in doubt are priced (10^6 x 16, k = 1000: a warm step
 *       3.1-3.4 s -> 1.3-1.5 s).
 *   Up to 32 epochs are kept; when they are used up, every row's bound moves to one epoch
 *   (rebase). More than half the rows in doubt, an auction's new prices (SSP needs the
 *   lists near the argmin at those prices, not just the argmin), or a stuck SSP on reused
 *   lists: every row is priced again.
 *   SSP that cannot balance the restricted problem (no candidate path to a deficit) or a
 *   20th round doubles C, up to k, where the arcs are all arcs and SSP's answer is final;
 *   the next call goes back to C = 16 (the same buffers, every row priced).
 *   A poor start (argmin labels so far off the bounds that SSP would be slow,
 *   ckm_transport_auction_pays) first gets prices from an auction on the candidate arcs
 *   (auction.c), where a point whose candidates all cost more than rest_i (a cluster left
 *   out may be better) stays free; then candidates again under those prices, and another
 *   auction while each cuts the imbalance by a quarter (at most 8); so does an SSP round
 *   whose prices leave the argmin over all clusters that far off. A stuck SSP's potentials are
 *   discarded (raised only where its search reached, they start the next round worse than
 *   the prices it began from).
 * tol = 1e-10 (||y_i||^2 + max ||c||^2 + max |p|): above the rounding of costs and prices.
 * Memory: 12 n C + 38 n bytes of candidates, argmin, margins, rest, epochs and the rows to price +
 * one block of costs per thread + 32 k (d + 1) doubles and 32 k bytes (movers) of epochs +
 * the solver's O(n + k^2 L)
 * (transport.c) + the auction's 20 n (auction.c).
 */
#include "auction.h"
#include "core.h"
#include "objective.h"
#include "transport.h"
#include "transport_points.h"
#include "transport_ws.h"

#include <cblas.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* candidate clusters per point to start with: measured from random centers (cold) at
   10^6 x 16 balanced, k = 100: 16 and 32 both 10.8 s (no widening); k = 1000, balanced
   sizeflow (2026-11-29): on separated blobs (10^6 x 16, 11 steps) 94.3 s with either, the
   same labels, 720 MB against 915 MB; on overlapping blobs (3 x 10^5 x 16, 177 steps, the
   same labels) a warm step 0.43 -> 0.35 s (SSP's move lists are built from n C entries) */
#define CAND 16
#define MAX_ROUNDS 20
#define MAX_AUCTIONS 8
#define GEMM_SINGLE ((size_t)1 << 18)
/* epochs kept before a rebase: 3 x 10^5 x 16, k = 1000 balanced, 60 steps (2026-11-29):
   8 slots 46.0 s, 32 slots 45.1 s (the same labels); 4 MB of centers at k = 1000, d = 16 */
#define MAX_EPOCHS 32
/* clusters per epoch whose drift the bound leaves out, each priced exactly instead
   (movers_bound) */
#define MOVERS 32
/* clusters above which a cold call starts with twice the candidates (cold_width) */
#define COLD_WIDE_K 256

typedef struct pricing {
    size_t n, d, k, c;             /* c candidates per row, in storage for ccap */
    size_t ccap;
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
    /* reuse across calls (ckm_transport_cache): row i's candidates and rest were priced at
       epoch ep[i], whose centers and prices are epC + e k d, epP + e k */
    const int32_t *rowmap;         /* the rows a pass prices (NULL: all, in order) */
    size_t rows;                   /* how many (with rowmap) */
    double *gY;                    /* per thread block * d: gathered rows */
    uint8_t *ep;                   /* n */
    size_t nep;                    /* epochs in use; 0: nothing priced yet */
    double *epC, *epP;             /* MAX_EPOCHS k d, MAX_EPOCHS k */
    double *ccC;                   /* k d: the centers cc and drift were computed for
                                      (meaningful while nep > 0) */
    bool partial;                  /* the last refresh kept some rows' lists */
    double drift[MAX_EPOCHS];      /* max_j ||C_j - epC_ej||, for the centers ccC */
    double epmax[MAX_EPOCHS];      /* max_j epP_ej */
    /* epoch e's movers: the (at most MOVERS) clusters that drifted more than all others
       since e, and the largest drift of the others (meaningful while nmov[e] > 0) */
    int32_t mover[MAX_EPOCHS][MOVERS];
    size_t nmov[MAX_EPOCHS];
    double drift_rest[MAX_EPOCHS];
    uint8_t *movidx;               /* MAX_EPOCHS k: 1 + j's place among epoch e's movers, or 0 */
    /* the margin of each row's argmin (slack_vouches, margin_vouches): best[i] = c_il - p_l
       for l = argmin[i], and slack[i] <= min over j != l of (c_ij - p_j) - best[i], at the
       centers ccC and the prices slackP (meaningful while slack_ok) */
    double *best;                  /* n */
    double *slack;                 /* n */
    double *slackP;                /* k */
    bool slack_ok;
    uint8_t *flag;                 /* n: row needs pricing */
    int32_t *todo;                 /* n: those rows */
    size_t bytes;                  /* allocated over the struct's life (kept by pricing_free) */
} pricing;

/* max_j |p_j|: the price term of the rounding tolerance. */
static double abs_max(const double *p, size_t k)
{
    double m = 0.0;
    for (size_t j = 0; j < k; j++)
        m = fabs(p[j]) > m ? fabs(p[j]) : m;
    return m;
}

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

/* The m-th smallest of a[0..len) (0-based, m < len): for m < SMALL_NTH one pass keeping
 * the m + 1 smallest in order (a row's selection asks for about the 5th of a 125-entry
 * sample and the 16th of about 40 gathered: quickselect's partitioning mispredicted there,
 * 12 % of Lloyd steps 1-100 at 10^6 x 16, k = 1000), else nth_smallest (which reorders a). */
#define SMALL_NTH 32
static double small_nth(double *a, size_t len, size_t m)
{
    if (m >= SMALL_NTH)
        return nth_smallest(a, len, m);
    double b[SMALL_NTH];
    size_t h = 0; /* b[0..h): the h smallest so far, ascending; h <= m + 1 */
    for (size_t e = 0; e < len; e++) {
        double x = a[e];
        if (h == m + 1 && !(x < b[m]))
            continue;
        size_t q = h <= m ? h++ : m;
        while (q > 0 && b[q - 1] > x) {
            b[q] = b[q - 1];
            q--;
        }
        b[q] = x;
    }
    return b[m];
}

/* Row i's cost of cluster j from its block of -2 y.c (o): ||y_i||^2 - 2 y_i.C_j + ||C_j||^2,
 * clamped at 0. */
static inline double row_cost(const pricing *pr, const double *o, double yn, size_t j)
{
    double v = o[j] + yn + pr->cnorm[j];
    return v > 0.0 ? v : 0.0;
}

/* The clusters a row's selection looks at, in one pass over its block of costs o: those
 * with a reduced cost <= T, in cluster order (reduced costs gr, costs gv, clusters gj; how
 * many: the return value), T from every 8th cluster (the sample's order statistic
 * expected to leave 2c clusters <= T), and in *above the least reduced cost > T; all k
 * (above = INFINITY) when fewer than c are <= T (an unlucky sample). Four clusters at a
 * time (row_cost's sums in the same order, so the same bits), the least of the others in
 * four lanes, and only a block holding a kept cluster goes entry by entry: with k stored
 * reduced costs, a branch per cluster and one chain of k dependent minima, a row's pricing
 * was a third of Lloyd steps 1-100 at 10^6 x 16, k = 1000 (perf). */
__attribute__((target_clones("avx2", "default"))) static size_t select_rows(const pricing *pr, const double *o,
                                                                              double yn, double *gr, double *gv,
                                                                              int32_t *gj, double *above)
{
    size_t k = pr->k, c = pr->c, sm = 0, ng = 0, whole = k - k % 4;
    const double *cn = pr->cnorm, *pp = pr->price;
    for (size_t j = 0; j < k; j += 8)
        gr[sm++] = row_cost(pr, o, yn, j) - pp[j];
    size_t q = (2 * c * sm + k - 1) / k;
    double T = q < sm ? small_nth(gr, sm, q) : INFINITY;
    const ckm_v4d zero = {0.0, 0.0, 0.0, 0.0}, y4 = {yn, yn, yn, yn}, T4 = {T, T, T, T},
                  inf4 = {INFINITY, INFINITY, INFINITY, INFINITY};
    ckm_v4d lo = inf4;
    for (size_t j = 0; j < whole; j += 4) {
        ckm_v4d ov, cv, pv;
        memcpy(&ov, o + j, sizeof ov);
        memcpy(&cv, cn + j, sizeof cv);
        memcpy(&pv, pp + j, sizeof pv);
        ckm_v4d v = ov + y4 + cv;
        v = CKM_V4D_PICK(v > zero, v, zero);
        ckm_v4d r = v - pv, w = CKM_V4D_PICK(r > T4, r, inf4);
        lo = CKM_V4D_PICK(w < lo, w, lo);
        ckm_v4l in = r <= T4;
        if (!(in[0] | in[1] | in[2] | in[3]))
            continue;
        for (size_t t = 0; t < 4; t++)
            if (in[t]) {
                gr[ng] = r[t];
                gv[ng] = v[t];
                gj[ng++] = (int32_t)(j + t);
            }
    }
    double a = INFINITY;
    for (size_t t = 0; t < 4; t++)
        a = lo[t] < a ? lo[t] : a;
    for (size_t j = whole; j < k; j++) {
        double v = row_cost(pr, o, yn, j), r = v - pp[j];
        if (r <= T) {
            gr[ng] = r;
            gv[ng] = v;
            gj[ng++] = (int32_t)j;
        } else
            a = r < a ? r : a;
    }
    if (ng >= c) {
        *above = a;
        return ng;
    }
    for (size_t j = 0; j < k; j++) {
        gv[j] = row_cost(pr, o, yn, j);
        gr[j] = gv[j] - pp[j];
        gj[j] = (int32_t)j;
    }
    *above = INFINITY;
    return k;
}

/* Rows [r0, r0 + rows) from their block of -2 y.c: the c least reduced costs (ties to the
 * lower cluster), rest, the least reduced cost left out, and the argmin with its margin to
 * the next cluster (slack). The c smallest come from the clusters select_rows gathers (the
 * c-th smallest among them by small_nth); entries are kept in cluster order. */
static void price_rows(pricing *pr, size_t r0, size_t rows, const double *g, int tid)
{
    size_t k = pr->k, c = pr->c;
    double *tmp = pr->buf + (size_t)tid * 4 * k, *gv = tmp + k, *gr = gv + k;
    int32_t *gj = (int32_t *)(gr + k); /* gathered clusters, with their reduced costs gr and costs gv */
    size_t viol = 0;
    for (size_t r = 0; r < rows; r++) {
        size_t i = pr->rowmap ? (size_t)pr->rowmap[r0 + r] : r0 + r;
        double yn = pr->ynorm[i];
        const double *o = g + r * k;
        int32_t *cj = pr->cj + i * c;
        double *cc = pr->cc + i * c;
        size_t ng, m = 0;
        double above; /* the least reduced cost outside gr */
        if (c >= k) {
            for (size_t j = 0; j < k; j++) {
                gv[j] = row_cost(pr, o, yn, j);
                gr[j] = gv[j] - pr->price[j];
                gj[j] = (int32_t)j;
                cj[j] = (int32_t)j;
                cc[j] = gv[j];
            }
            ng = k;
            above = INFINITY;
        } else
            ng = select_rows(pr, o, yn, gr, gv, gj, &above);
        /* the argmin (lowest cluster on a tie) and the margin to the next, from gr: every
           cluster outside it costs >= above */
        size_t bj = (size_t)gj[0];
        double b1 = gr[0], b2 = above;
        for (size_t e = 1; e < ng; e++) {
            double v = gr[e];
            if (v < b1) {
                b2 = b1 < b2 ? b1 : b2;
                b1 = v;
                bj = (size_t)gj[e];
            } else
                b2 = v < b2 ? v : b2;
        }
        pr->argmin[i] = (int32_t)bj;
        pr->best[i] = b1;
        pr->slack[i] = b2 - b1;
        pr->ep[i] = (uint8_t)(pr->nep - 1);
        if (pr->prev) {
            size_t l = (size_t)pr->prev[i];
            double tol = 1e-10 * (yn + pr->cmax + pr->pmax);
            viol += b1 < row_cost(pr, o, yn, l) - pr->price[l] - tol;
        }
        if (c >= k) {
            pr->rest[i] = INFINITY;
            continue;
        }
        /* the c smallest of gr (ties: lowest clusters first), in cluster order */
        memcpy(tmp, gr, ng * sizeof(double));
        double thr = small_nth(tmp, ng, c - 1), rest = INFINITY;
        size_t below = 0;
        for (size_t e = 0; e < ng; e++)
            below += gr[e] < thr;
        size_t ties = c - below; /* entries equal to thr taken, lowest clusters first */
        for (size_t e = 0; e < ng; e++)
            if (m < c && (gr[e] < thr || (gr[e] == thr && ties > 0))) {
                ties -= gr[e] == thr;
                cj[m] = gj[e];
                cc[m++] = gv[e];
            } else if (gr[e] < rest)
                rest = gr[e];
        pr->rest[i] = rest < above ? rest : above;
    }
    pr->viol[tid] += viol;
}

static void gemm_rows(const pricing *pr, size_t r0, size_t rows, double *g, int tid)
{
    const double *A = pr->Y + r0 * pr->d;
    if (pr->rowmap) {
        double *gy = pr->gY + (size_t)tid * pr->block * pr->d;
        for (size_t r = 0; r < rows; r++)
            memcpy(gy + r * pr->d, pr->Y + (size_t)pr->rowmap[r0 + r] * pr->d, pr->d * sizeof(double));
        A = gy;
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)pr->k, (int)pr->d, -2.0, A, (int)pr->d,
                pr->C, (int)pr->d, 0.0, g, (int)pr->k);
}

static void own_blocks(void *ctx, size_t b0, size_t b1, int tid)
{
    pricing *pr = ctx;
    double *g = pr->gram + (size_t)tid * pr->block * pr->k;
    for (size_t b = b0; b < b1; b++) {
        if (atomic_load(&pr->stop))
            return;
        if (ckm_bk_limits_reached(pr->lim)) {
            atomic_store(&pr->stop, 1);
            return;
        }
        size_t m = pr->rowmap ? pr->rows : pr->n;
        size_t r0 = b * pr->block, rows = m - r0 < pr->block ? m - r0 : pr->block;
        gemm_rows(pr, r0, rows, g, tid);
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

/* Epoch e: the current centers and prices, drift 0. */
static void set_epoch(pricing *pr, size_t e)
{
    size_t k = pr->k, d = pr->d;
    memcpy(pr->epC + e * k * d, pr->C, k * d * sizeof(double));
    memcpy(pr->epP + e * k, pr->price, k * sizeof(double));
    pr->drift[e] = 0.0;
    pr->nmov[e] = 0;
    memset(pr->movidx + e * k, 0, k);
    pr->epmax[e] = -INFINITY;
    for (size_t j = 0; j < k; j++)
        pr->epmax[e] = pr->price[j] > pr->epmax[e] ? pr->price[j] : pr->epmax[e];
}

/* One pass over the rows (pr->rowmap's, or all): candidates, argmin and (with prev) the
 * count of dual violations, at the current centers and prices, which become a new epoch;
 * pr->stop when the limits ended it early (then nothing it wrote is usable). */
static size_t pass(pricing *pr)
{
    memset(pr->viol, 0, (size_t)pr->threads * sizeof(size_t));
    pr->pmax = abs_max(pr->price, pr->k);
    set_epoch(pr, pr->nep++);
    size_t m = pr->rowmap ? pr->rows : pr->n;
    size_t nblocks = (m + pr->block - 1) / pr->block;
    if (pr->own)
        ckm_parallel_for(pr->threads, nblocks, own_blocks, pr);
    else
        for (size_t r0 = 0; r0 < m; r0 += pr->block) {
            if (ckm_bk_limits_reached(pr->lim)) {
                atomic_store(&pr->stop, 1);
                break;
            }
            size_t rows = m - r0 < pr->block ? m - r0 : pr->block;
            gemm_rows(pr, r0, rows, pr->gram, 0);
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

/* A lower bound on c_ij - p_j over the clusters j outside row i's candidates, at the
 * current centers C and prices p, from rest_i = min over those j of c^e_ij - p^e_j at the
 * row's epoch e (centers C^e, prices p^e); rise = max_j (p_j - p^e_j), D = max_j ||C_j -
 * C^e_j|| (pr->drift), P = max_j p^e_j (pr->epmax). With b_j = sqrt(max(0, rest_i +
 * p^e_j)) <= ||y_i - C^e_j|| and -p^e_j >= rest_i - b_j^2:
 *   ||y_i - C_j||^2 - p_j >= (||y_i - C^e_j|| - D)_+^2 - p^e_j - rise
 *                         >= rest_i - rise + (b_j - D)_+^2 - b_j^2,
 * and (b - D)_+^2 - b^2 falls with b, b_j <= A = sqrt(max(0, rest_i + P)): the bound is
 * rest_i - rise + (A >= D ? D (D - 2 A) : -A^2). With D = 0 it is rest_i - rise. */
static inline double bound_at(double rest, double D, double rise, double P)
{
    double A2 = rest + P;
    A2 = A2 > 0.0 ? A2 : 0.0;
    double A = sqrt(A2);
    return rest - rise + (A >= D ? D * (D - 2.0 * A) : -A2);
}

static inline double rest_bound(const pricing *pr, size_t i, const double *rise)
{
    double rest = pr->rest[i];
    if (!(rest < INFINITY))
        return INFINITY; /* every cluster is a candidate */
    size_t e = pr->ep[i];
    return bound_at(rest, pr->drift[e], rise[e], pr->epmax[e]);
}

/* c_ij = ||y_i||^2 - 2 y_i.C_j + ||C_j||^2, clamped at 0: the dot product in four
 * independent sums, the lanes of one vector (one chain of d dependent additions per
 * cluster held a late Lloyd step at 10^6 x 16, k = 1000 to the adder's latency: 11 % of
 * its time in cand_costs; one AVX2 register in the callers' avx2 clones); the rounding
 * differs from dgemm's as the chain's did (tol covers it). */
static inline double cost_at(const pricing *pr, size_t i, size_t j)
{
    size_t d = pr->d, whole = d - d % 4;
    const double *y = pr->Y + i * d, *cv = pr->C + j * d;
    ckm_v4d acc = {0.0, 0.0, 0.0, 0.0};
    for (size_t f = 0; f < whole; f += 4) {
        ckm_v4d a, b;
        memcpy(&a, y + f, sizeof a);
        memcpy(&b, cv + f, sizeof b);
        acc += a * b;
    }
    double s0 = acc[0];
    for (size_t f = whole; f < d; f++)
        s0 += y[f] * cv[f];
    double v = -2.0 * ((s0 + acc[1]) + (acc[2] + acc[3])) + pr->ynorm[i] + pr->cnorm[j];
    return v > 0.0 ? v : 0.0;
}

typedef struct check_job {
    pricing *pr;
    const int32_t *labels; /* a solution to test, or NULL */
    const double *p;       /* prices */
    double rise[MAX_EPOCHS], pmax;
    double rise_rest[MAX_EPOCHS]; /* max_j (p_j - p^e_j) over the clusters j not among e's movers */
    const double *delta;   /* with slack: p_j - slackP_j (slack_vouches), else NULL */
    double dmax;           /* max_j delta_j */
    bool moved;            /* the margins are at the last call's centers (margin_vouches) */
    double mD, mrise, mP;  /* their drift max_j ||C_j - C'_j||, max_j (p_j - slackP_j),
                              max_j slackP_j */
    size_t *fail;          /* per thread */
    atomic_size_t vouched; /* rows slack_vouches or margin_vouches passed */
} check_job;

/* A lower bound on c_ij - p_j (prices p) over the clusters j left out of row i's list,
 * for when the bound over all of them (rest_bound) is too weak: a few clusters drift far
 * more than the rest (10^6 x 16, k = 1000, overlapping blobs, early Lloyd steps: the 33rd
 * largest drift 45-60 % of the largest), so the bound is taken over the others than the
 * epoch's movers, with their largest drift and price rise rise_rest[e] (bound_at: the
 * derivation at rest_bound holds for any set of left-out clusters), and the movers the row
 * does not list are priced exactly (at most MOVERS x d flops, where pricing the row takes
 * k x d and a selection). Stops as soon as the bound falls below floor (then any value
 * below floor is returned); -INFINITY without movers. */
__attribute__((target_clones("avx2", "default"))) static double movers_bound(const pricing *pr, size_t i,
                                                                                const double *rise_rest,
                                                                                const double *p, double floor)
{
    size_t e = pr->ep[i], k = pr->k;
    if (pr->nmov[e] == 0 || !(pr->rest[i] < INFINITY))
        return -INFINITY;
    double m = bound_at(pr->rest[i], pr->drift_rest[e], rise_rest[e], pr->epmax[e]);
    if (m < floor)
        return m;
    uint64_t listed = 0; /* the movers among row i's candidates */
    for (size_t t = 0; t < pr->c; t++) {
        uint8_t x = pr->movidx[e * k + (size_t)pr->cj[i * pr->c + t]];
        listed |= x ? (uint64_t)1 << (x - 1) : 0;
    }
    for (size_t t = 0; t < pr->nmov[e] && m >= floor; t++)
        if (!(listed >> t & 1)) {
            size_t j = (size_t)pr->mover[e][t];
            double red = cost_at(pr, i, j) - p[j];
            m = red < m ? red : m;
        }
    return m;
}

/* Row i vouched for by its margin at the last check's prices (run_check, same centers):
 * with Delta = p - slackP, every other cluster j had c_ij - slackP_j >= c_il - slackP_l +
 * slack_i for the argmin l, so now
 *   c_ij - p_j >= c_il - slackP_l + slack_i - Delta_j
 *              >= (c_il - p_l) + slack_i - (max_j Delta_j - Delta_l),
 * and l is still an argmin while slack_i >= max Delta - Delta_l; the margin left is a
 * margin at p. Between the two checks of a Lloyd step SSP moves the prices little (10^6 x
 * 16, k = 1000, late steps: a few hundred augmentations), so most rows pass here without
 * their candidates, bound or movers being read. */
static inline bool slack_vouches(const check_job *q, size_t i)
{
    pricing *pr = q->pr;
    size_t l = (size_t)pr->argmin[i];
    if (q->labels && (size_t)q->labels[i] != l)
        return false;
    double need = q->dmax - q->delta[l];
    if (!(pr->slack[i] >= need))
        return false;
    pr->slack[i] -= need;
    pr->best[i] -= q->delta[l];
    return true;
}

/* The same across a Lloyd step (the centers moved by at most D since the margins' centers
 * C', the prices rose by at most rise since slackP, P = max_j slackP_j): every j != l had
 * c'_ij - slackP_j >= R = best_i + slack_i, so by rest_bound's derivation with R for rest_i
 *   c_ij - p_j >= bound_at(R, D, rise, P)   (every j != l, listed or not),
 * and l is still an argmin where that is >= its exact reduced cost now, which becomes best_i
 * and the bound the new margin. In late steps (10^6 x 16, k = 1000) D and rise are those of
 * one step, where the rows' own bounds carry the drift since their epoch: those rows need
 * neither their candidates' reduced costs, nor the bound on the rest, nor the movers. */
static inline bool margin_vouches(const check_job *q, size_t i)
{
    pricing *pr = q->pr;
    size_t l = (size_t)pr->argmin[i], c = pr->c;
    if (q->labels && (size_t)q->labels[i] != l)
        return false;
    const int32_t *cj = pr->cj + i * c;
    const double *cc = pr->cc + i * c;
    double cl = INFINITY;
    for (size_t e = 0; e < c; e++)
        cl = cj[e] == (int32_t)l ? cc[e] : cl;
    double rl = cl - q->p[l], L = bound_at(pr->best[i] + pr->slack[i], q->mD, q->mrise, q->mP);
    if (!(L >= rl))
        return false;
    pr->best[i] = rl;
    pr->slack[i] = L - rl;
    return true;
}

/* Points [i0, i1) from their candidates (exact reduced costs) and the bound on the rest:
 * where the bound (or the movers' costs and the bound on the others) is at least the least
 * candidate, that candidate is the argmin over all clusters (and the label, if any, is
 * tested against it), and the margin to the next candidate or the bound is its slack; else
 * the row is flagged for pricing. Rows whose margin still vouches (slack_vouches,
 * margin_vouches) are skipped. */
static void check_rows(void *ctx, size_t i0, size_t i1, int tid)
{
    check_job *q = ctx;
    pricing *pr = q->pr;
    size_t c = pr->c, fail = 0, vouched = 0;
    for (size_t i = i0; i < i1; i++) {
        if ((q->delta && slack_vouches(q, i)) || (q->moved && margin_vouches(q, i))) {
            vouched++;
            continue;
        }
        const int32_t *cj = pr->cj + i * c;
        const double *cc = pr->cc + i * c;
        double u = INFINITY, v1 = INFINITY, v2 = INFINITY;
        int32_t bj = cj[0];
        for (size_t e = 0; e < c; e++) {
            double red = cc[e] - q->p[cj[e]];
            if (red < v1) {
                v2 = v1;
                v1 = red;
                bj = cj[e];
            } else
                v2 = red < v2 ? red : v2;
            if (q->labels && cj[e] == q->labels[i])
                u = red;
        }
        double L = rest_bound(pr, i, q->rise), tol = 1e-10 * (pr->ynorm[i] + pr->cmax + q->pmax);
        bool ok = !q->labels || u < INFINITY;
        if (ok && !(L >= v1)) {
            double m = movers_bound(pr, i, q->rise_rest, q->p, v1);
            ok = m >= v1; /* then m is the whole bound (no early exit) */
            L = m;
        }
        if (ok) {
            pr->argmin[i] = bj;
            pr->best[i] = v1;
            pr->slack[i] = (v2 < L ? v2 : L) - v1;
            fail += q->labels && v1 < u - tol;
        } else
            pr->flag[i] = 1;
    }
    q->fail[tid] += fail;
    atomic_fetch_add(&q->vouched, vouched);
}

/* rise[e] = max_j (p_j - p^e_j) for every epoch in use, rise_rest[e] the same over the
 * clusters that are not among e's movers. */
static void epoch_rises(const pricing *pr, const double *p, double *rise, double *rise_rest)
{
    for (size_t e = 0; e < pr->nep; e++) {
        double all = -INFINITY, others = -INFINITY;
        const uint8_t *mv = pr->movidx + e * pr->k;
        for (size_t j = 0; j < pr->k; j++) {
            double r = p[j] - pr->epP[e * pr->k + j];
            all = r > all ? r : all;
            others = r > others && !mv[j] ? r : others;
        }
        rise[e] = all;
        rise_rest[e] = others;
    }
}

/* The check of every row at prices p (check_rows); with the margins of the last refresh
 * valid, rows they vouch for are skipped: at the same centers (slack_ok) by slack_vouches,
 * after the centers moved by at most moved_D (>= 0; -1: the margins are not valid) by
 * margin_vouches. Uses the first thread's pricing scratch for the price changes (no pass
 * runs now). */
static size_t run_check(pricing *pr, const int32_t *labels, const double *p, double moved_D, size_t *vouched)
{
    check_job q = {.pr = pr, .labels = labels, .p = p, .fail = pr->viol};
    atomic_init(&q.vouched, 0);
    if (moved_D >= 0.0) {
        q.moved = true;
        q.mD = moved_D;
        q.mrise = q.mP = -INFINITY;
        for (size_t j = 0; j < pr->k; j++) {
            double r = p[j] - pr->slackP[j];
            q.mrise = r > q.mrise ? r : q.mrise;
            q.mP = pr->slackP[j] > q.mP ? pr->slackP[j] : q.mP;
        }
    } else if (pr->slack_ok) {
        double *delta = pr->buf;
        q.dmax = -INFINITY;
        for (size_t j = 0; j < pr->k; j++) {
            delta[j] = p[j] - pr->slackP[j];
            q.dmax = delta[j] > q.dmax ? delta[j] : q.dmax;
        }
        q.delta = delta;
    }
    epoch_rises(pr, p, q.rise, q.rise_rest);
    q.pmax = abs_max(p, pr->k);
    memset(pr->viol, 0, (size_t)pr->threads * sizeof(size_t));
    if (pr->threads > 1 && pr->n >= 65536)
        ckm_parallel_for(pr->threads, pr->n, check_rows, &q);
    else
        check_rows(&q, 0, pr->n, 0);
    size_t fail = 0;
    for (int t = 0; t < pr->threads; t++)
        fail += pr->viol[t];
    *vouched += atomic_load(&q.vouched);
    return fail;
}

/* The rows in doubt at the current centers and prices (flag, todo: how many, the return
 * value) and in *viol the dual violations of pr->prev among the others. */
static size_t flag_rows(pricing *pr, double moved_D, size_t *viol, ckm_transport_stats *st)
{
    size_t m = 0;
    memset(pr->flag, 0, pr->n);
    *viol = run_check(pr, pr->prev, pr->price, moved_D, &st->vouched);
    for (size_t i = 0; i < pr->n; i++)
        if (pr->flag[i])
            pr->todo[m++] = (int32_t)i;
    return m;
}

/* Rows [i0, i1): candidate costs at the current centers (cost_at; its vector one AVX2
 * register in this clone: 13 % of late Lloyd steps at 10^6 x 16, k = 1000 went here with
 * SSE2). */
__attribute__((target_clones("avx2", "default"))) static void cand_costs(void *ctx, size_t i0, size_t i1, int tid)
{
    pricing *pr = ctx;
    size_t c = pr->c;
    (void)tid;
    for (size_t i = i0; i < i1; i++)
        for (size_t e = 0; e < c; e++)
            pr->cc[i * c + e] = cost_at(pr, i, (size_t)pr->cj[i * c + e]);
}

typedef struct rebase_job {
    pricing *pr;
    double rise[MAX_EPOCHS], rise_rest[MAX_EPOCHS];
} rebase_job;

/* Rows [i0, i1): rest becomes the better of the two bounds at the current centers and
 * prices, rest_bound and movers_bound (the rebase keeps what the movers could show: with
 * rest_bound alone, after a rebase at 10^6 x 16, k = 1000 more than half the rows were in
 * doubt and all were priced again). */
static void rebase_rows(void *ctx, size_t i0, size_t i1, int tid)
{
    rebase_job *q = ctx;
    pricing *pr = q->pr;
    (void)tid;
    for (size_t i = i0; i < i1; i++) {
        double b = rest_bound(pr, i, q->rise), m = movers_bound(pr, i, q->rise_rest, pr->price, b);
        pr->rest[i] = m > b ? m : b;
        pr->ep[i] = 0;
    }
}

/* All MAX_EPOCHS in use: one slot for them all. Each row's rest becomes its bound at the
 * current centers C and prices p (rebase_rows), and (C, p) become epoch 0 with drift 0. The
 * derivation at rest_bound asks of rest only that it be a lower bound on c^e_ij - p^e_j
 * over the clusters left out, which the bound is at (C, p); the drift and rise so far are
 * folded into rest, and later ones add from here. So rows keep their lists and only the
 * rows in doubt are priced, where a pass over every row used to come every few steps once
 * the slots ran out (3 x 10^5 x 16, k = 1000: every 5th step, 1.1 s against 0.25 s). */
static void rebase(pricing *pr)
{
    rebase_job q = {.pr = pr};
    epoch_rises(pr, pr->price, q.rise, q.rise_rest);
    if (pr->threads > 1 && pr->n >= 65536)
        ckm_parallel_for(pr->threads, pr->n, rebase_rows, &q);
    else
        rebase_rows(&q, 0, pr->n, 0);
    set_epoch(pr, 0);
    pr->nep = 1;
}

/* dj[j] = ||C_j - from_j||^2 for the current centers C; the largest is returned. */
static double drifts(const pricing *pr, const double *from, double *dj)
{
    size_t d = pr->d;
    double D2 = 0.0;
    for (size_t j = 0; j < pr->k; j++) {
        dj[j] = ckm_sqdist(pr->C + j * d, from + j * d, d);
        D2 = dj[j] > D2 ? dj[j] : D2;
    }
    return D2;
}

/* Epoch e's drift at the current centers: the largest, the movers (the MOVERS clusters
 * that drifted most, when k > 2 MOVERS) and the largest drift of the others. Uses the
 * first thread's pricing scratch (no pass runs now). */
static void epoch_drift(pricing *pr, size_t e)
{
    size_t k = pr->k;
    double *dj = pr->buf, *sel = pr->buf + k, D2 = drifts(pr, pr->epC + e * k * pr->d, dj);
    pr->drift[e] = sqrt(D2);
    pr->nmov[e] = 0;
    memset(pr->movidx + e * k, 0, k);
    if (k <= 2 * MOVERS || D2 == 0.0)
        return;
    memcpy(sel, dj, k * sizeof(double));
    double T = nth_smallest(sel, k, k - MOVERS - 1); /* the (MOVERS + 1)-th largest */
    for (size_t j = 0; j < k; j++)
        if (dj[j] > T) { /* at most MOVERS of them */
            pr->mover[e][pr->nmov[e]] = (int32_t)j;
            pr->movidx[e * k + j] = (uint8_t)++pr->nmov[e];
        }
    pr->drift_rest[e] = sqrt(T);
}

/* After a refresh that reached every row (checked, vouched for or priced), their margins
 * are at the current prices. */
static void margins_at(pricing *pr)
{
    pr->slack_ok = !atomic_load(&pr->stop);
    memcpy(pr->slackP, pr->price, pr->k * sizeof(double));
}

/* Candidates, argmin and (with pr->prev) the count of dual violations at the current
 * centers and prices, pricing only the rows whose lists the bounds cannot vouch for
 * (with the epochs used up, after a rebase): with nothing priced yet or more than half
 * the rows flagged, one pass over all rows. pr->stop as pass(). */
static size_t refresh(pricing *pr, ckm_transport_stats *st)
{
    size_t n = pr->n, k = pr->k, d = pr->d;
    if (pr->nep > 0) {
        double moved_D = -1.0; /* the margins' drift, when they carry over */
        if (memcmp(pr->ccC, pr->C, k * d * sizeof(double)) != 0) {
            /* the centers moved (a new call): the candidates' costs and every epoch's
               drift follow them; within a call only new epochs (drift 0) appear */
            if (pr->slack_ok)
                moved_D = sqrt(drifts(pr, pr->ccC, pr->buf));
            if (pr->threads > 1 && n >= 65536)
                ckm_parallel_for(pr->threads, n, cand_costs, pr);
            else
                cand_costs(pr, 0, n, 0);
            memcpy(pr->ccC, pr->C, k * d * sizeof(double));
            for (size_t e = 0; e < pr->nep; e++)
                epoch_drift(pr, e);
            pr->slack_ok = false; /* margins are at the old centers (moved_D) */
        }
        if (pr->nep == MAX_EPOCHS) {
            rebase(pr); /* any time: the bounds stay valid, the flags made too */
            st->rebased++;
        }
        size_t viol, m = flag_rows(pr, moved_D, &viol, st);
        if (m <= n / 2) {
            pr->partial = true;
            st->rows_priced += m;
            if (m > 0) {
                pr->rowmap = pr->todo;
                pr->rows = m;
                viol += pass(pr);
                pr->rowmap = NULL;
            }
            margins_at(pr);
            return viol;
        }
    }
    pr->nep = 0;
    pr->rowmap = NULL;
    pr->partial = false;
    st->rows_priced += n;
    size_t viol = pass(pr);
    memcpy(pr->ccC, pr->C, k * d * sizeof(double));
    margins_at(pr);
    return viol;
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
    free(pr->gY);
    free(pr->ep);
    free(pr->epC);
    free(pr->epP);
    free(pr->ccC);
    free(pr->movidx);
    free(pr->flag);
    free(pr->todo);
    free(pr->best);
    free(pr->slack);
    free(pr->slackP);
    size_t bytes = pr->bytes;
    memset(pr, 0, sizeof *pr);
    pr->bytes = bytes;
}

/* Candidate storage for c per point (keeps the rest; fewer than the storage holds: the
 * same buffers); every row must be priced again. */
static bool pricing_alloc(pricing *pr, size_t c)
{
    size_t nc;
    pr->c = c;
    pr->nep = 0;
    pr->slack_ok = false;
    if (pr->cj && pr->cc && c <= pr->ccap)
        return true;
    free(pr->cj);
    free(pr->cc);
    pr->ccap = c;
    bool ok = ckm_mul_ok(pr->n, c, &nc);
    pr->cj = ok ? ckm_alloc_large(nc, sizeof(int32_t)) : NULL;
    pr->cc = ok ? ckm_alloc_large(nc, sizeof(double)) : NULL;
    pr->bytes += pr->cj && pr->cc ? nc * (sizeof(int32_t) + sizeof(double)) : 0;
    return pr->cj && pr->cc;
}

/* The workspace for n points, k centers of dimension d: kept when a cache call has the same
 * shape (then the candidates, rests and epochs carry over), else made anew (*fresh) with
 * width candidates per point. */
static bool pricing_setup(pricing *pr, size_t n, size_t d, size_t k, int threads, size_t width, bool *fresh)
{
    int T = ckm_thread_count(threads);
    *fresh = false;
    if (pr->cj && pr->n == n && pr->d == d && pr->k == k && pr->threads == T)
        return true;
    *fresh = true;
    pricing_free(pr);
    pr->n = n;
    pr->d = d;
    pr->k = k;
    pr->threads = T;
    size_t kd = k * d > 0 ? k * d : 1;
    pr->own = pr->threads > 1 && GEMM_SINGLE / kd >= 16;
    pr->block = pr->own ? GEMM_SINGLE / kd : ((size_t)1 << 22) / (k ? k : 1);
    pr->block = pr->block < 16 ? 16 : pr->block > n ? n : pr->block;
    size_t bk, bd, per = pr->own ? (size_t)pr->threads : 1;
    bool ok = ckm_mul_ok(pr->block, k, &bk) && ckm_mul_ok(bk, per, &bk) && ckm_mul_ok(pr->block, d, &bd) &&
              ckm_mul_ok(bd, per, &bd);
    pr->gram = ok ? ckm_alloc_array(bk, sizeof(double)) : NULL;
    pr->gY = ok ? ckm_alloc_array(bd, sizeof(double)) : NULL;
    pr->argmin = ckm_alloc_large(n, sizeof(int32_t));
    pr->viol = ckm_alloc_array((size_t)pr->threads, sizeof(size_t));
    pr->buf = ckm_alloc_array((size_t)pr->threads * 4 * k, sizeof(double));
    pr->rest = ckm_alloc_large(n, sizeof(double));
    pr->ep = ckm_alloc_array(n, sizeof(uint8_t));
    pr->flag = ckm_alloc_array(n, sizeof(uint8_t));
    pr->todo = ckm_alloc_array(n, sizeof(int32_t));
    pr->best = ckm_alloc_large(n, sizeof(double));
    pr->slack = ckm_alloc_large(n, sizeof(double));
    pr->slackP = ckm_alloc_array(k ? k : 1, sizeof(double));
    pr->epC = ckm_alloc_array(MAX_EPOCHS * kd, sizeof(double));
    pr->epP = ckm_alloc_array(MAX_EPOCHS * (k ? k : 1), sizeof(double));
    pr->ccC = ckm_alloc_array(kd, sizeof(double));
    pr->movidx = ckm_alloc_array(MAX_EPOCHS * (k ? k : 1), sizeof(uint8_t));
    if (!pr->gram || !pr->gY || !pr->argmin || !pr->viol || !pr->buf || !pr->rest || !pr->ep || !pr->flag ||
        !pr->todo || !pr->best || !pr->slack || !pr->slackP || !pr->epC || !pr->epP || !pr->ccC || !pr->movidx ||
        !pricing_alloc(pr, width)) {
        pricing_free(pr);
        return false;
    }
    pr->bytes += (bk + bd + (size_t)pr->threads * 4 * k + (MAX_EPOCHS + 1) * kd + (MAX_EPOCHS + 1) * (k ? k : 1)) *
                     sizeof(double) + MAX_EPOCHS * (k ? k : 1) +
                 n * (sizeof(int32_t) + 3 * sizeof(double) + 2 + sizeof(int32_t)) +
                 (size_t)pr->threads * sizeof(size_t);
    return true;
}

struct ckm_transport_cache {
    pricing pr;
    const double *Y;      /* the points the candidates and norms belong to */
    size_t n, d;          /* their shape */
    double *ynorm;        /* n: ||y_i||^2 */
    ckm_transport_ws *ws; /* the solver's buffers and the matrix route's costs */
    size_t bytes;         /* ynorm's and the pricing buffers' bytes, over the cache's life */
};

ckm_transport_cache *ckm_transport_cache_new(void)
{
    ckm_transport_cache *c = ckm_calloc_array(1, sizeof(ckm_transport_cache));
    if (c && !(c->ws = ckm_transport_ws_new())) {
        free(c);
        return NULL;
    }
    return c;
}

void ckm_transport_cache_free(ckm_transport_cache *cache)
{
    if (cache) {
        pricing_free(&cache->pr);
        free(cache->ynorm);
        ckm_transport_ws_free(cache->ws);
        free(cache);
    }
}

size_t ckm_transport_cache_bytes(const ckm_transport_cache *cache)
{
    return cache ? cache->bytes + cache->pr.bytes + ckm_transport_ws_bytes(cache->ws) : 0;
}

/* Twice the candidate clusters per point (at most k). The lists grow by 12 n (c' - c)
 * bytes: refused (CKM_ERR_NOMEM) past 80 % of the available memory rather than let the
 * system's out-of-memory killer end the process (measured: 10 GB at 10^7 x 100). */
static ckm_error widen(pricing *pr, size_t n, size_t k, ckm_err *err)
{
    size_t wider = 2 * pr->c < k ? 2 * pr->c : k;
    double grow = 12.0 * (double)n * (double)(wider - pr->c), avail = ckm_memory_available();
    if (avail >= 0.0 && grow > 0.8 * avail)
        return ckm_fail(err, CKM_ERR_NOMEM,
                        "transportation solver: balancing the size bounds on candidate arcs needs %zu candidate "
                        "clusters per point instead of %zu (%.0f MB more), but only %.0f MB are available",
                        wider, pr->c, grow / 1048576.0, avail / 1048576.0);
    if (!pricing_alloc(pr, wider)) {
        ckm_error rc = ckm_fail(err, CKM_ERR_NOMEM,
                                "transportation solver: out of memory for %zu candidate clusters per point", pr->c);
        pricing_free(pr);
        return rc;
    }
    return CKM_OK;
}

/* Candidates per point in a workspace's first call (a cold start, priced from scratch): at
 * k > COLD_WIDE_K twice cand, at most k. 10^6 x 16, k = 1000 balanced, the first Lloyd step
 * (2026-12-06, two runs each): on overlapping blobs, with 16 the SSP round after the
 * auction got stuck (no candidate path to a deficit), the lists widened to 32 and every row
 * was priced again: 30.5 / 32.8 s, 23,570 augmentations in 6,186 searches; with 32 from
 * the start 21.8 / 21.5 s, 6,757 in 2,398, the same labels. On separated blobs (no
 * widening with 16) half the searches at about the same time, and the peak grows by the
 * wider lists, 12 n cand bytes (720 -> 913 MB): the memory model's C = 32 for k > 256. */
static size_t cold_width(size_t k, size_t cand)
{
    size_t c = k > COLD_WIDE_K ? 2 * cand : cand;
    return c < k ? c : k;
}

/* The workspace for this call's points, centers and prices (kept from the last call where
 * the shape is the same). false: out of memory. */
static bool begin_call(pricing *pr, const ckm_transport_points_problem *pp, const double *ynorm, const double *cnorm,
                       const ckm_transport_points_opts *o, double *price)
{
    size_t k = pp->k, cand = o->cand < 1 ? 1 : o->cand, warm = k < cand ? k : cand;
    bool fresh;
    if (!pricing_setup(pr, pp->n, pp->d, k, o->threads, cold_width(k, cand), &fresh))
        return false;
    if (!fresh && pr->c > warm)
        /* wider lists from an earlier call (the first call's, or a stuck SSP's widening): a
           warm step needs the lists near the argmin only, so back to cand */
        (void)pricing_alloc(pr, warm);
    pr->Y = pp->Y;
    pr->ynorm = ynorm;
    pr->C = pp->C;
    pr->cnorm = cnorm;
    pr->price = price;
    pr->lim = o->lim;
    pr->rowmap = NULL;
    atomic_init(&pr->stop, 0);
    pr->cmax = 0.0;
    for (size_t j = 0; j < k; j++)
        pr->cmax = cnorm[j] > pr->cmax ? cnorm[j] : pr->cmax;
    return true;
}

static ckm_error solve_rows(pricing *pr, ckm_transport_ws *ws, const ckm_transport_points_problem *pp, const double *ynorm,
                            const double *cnorm, const ckm_transport_points_opts *o, double *price, int32_t *labels,
                            ckm_transport_stats *st, ckm_err *err)
{
    size_t n = pp->n, k = pp->k;
    const size_t *lo = pp->lo, *hi = pp->hi;
    const ckm_bk_limits *lim = o->lim;
    if (!begin_call(pr, pp, ynorm, cnorm, o, price))
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for %zu points' candidate clusters", n);
    double *saved = ckm_alloc_array(k, sizeof(double));
    ckm_error rc = CKM_OK;
    if (!saved) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
        goto done;
    }
    bool have = false;
    int rounds = 0, auctions = 0;
    size_t last_off = 0;
    for (;;) {
        if (ckm_bk_limits_reached(lim)) {
            st->stopped = 1;
            break;
        }
        pr->prev = have ? labels : NULL;
        size_t priced = st->rows_priced, viol = refresh(pr, st);
        if (atomic_load(&pr->stop)) {
            st->stopped = 1;
            break;
        }
        if (have && viol == 0 && st->rows_priced == priced) {
            st->quick++;
            break; /* optimal for every arc, shown from the bounds without pricing a row */
        }
        st->passes++;
        if (have && viol == 0)
            break; /* the last SSP solution is optimal for every arc */
        st->repriced += have;
        if (auctions < MAX_AUCTIONS) {
            /* far off the bounds: an auction on the candidate arcs, then candidates again
               under its prices, while each round cuts the imbalance by a quarter (what is
               left, about n / 256 + 2 k units, goes to SSP). Also after an SSP round: its
               prices, optimal for the lists, can leave the argmin over all clusters farther
               off than the round started (10^6 x 16, k = 1000, separated blobs, Lloyd step
               4: 14,070 units off before SSP, 260,194 after; SSP from there took 137,132
               augmentations and 65 s, the auction and SSP 13.7 s for the whole step) */
            size_t off = ckm_transport_imbalance(n, k, pr->argmin, lo, hi, ws);
            if (off == SIZE_MAX) {
                rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
                goto done;
            }
            if (ckm_transport_auction_pays(n, k, pr->c, off) && (auctions == 0 || 4 * off < 3 * last_off)) {
                auctions++;
                st->reauctions += have;
                last_off = off;
                if ((rc = ckm_transport_auction(n, k, pr->c, pr->cj, pr->cc, pr->rest, hi, CKM_AUCTION_EPS0, lim,
                                                price, st, err)) != CKM_OK ||
                    st->stopped)
                    goto done;
                /* every list again under the auction's prices: a list the bound still vouches
                   for holds the argmin, but SSP needs the clusters near it at these prices
                   (reusing them here widened the lists at 10^6 x 1000, first step 47 -> 104 s) */
                pr->nep = 0;
                have = false; /* SSP's labels are not checked against the auction's prices */
                continue;
            }
        }
        memcpy(labels, pr->argmin, n * sizeof(int32_t));
        memcpy(saved, price, k * sizeof(double));
        int stuck = 0;
        if ((rc = ckm_transport_ssp(n, k, pr->c, pr->cj, pr->cc, lo, hi, lim, pr->threads, ws, price, labels, st, &stuck,
                                    err)) != CKM_OK ||
            st->stopped)
            goto done;
        rounds++;
        if (!stuck && pr->c == k)
            break; /* every arc was a candidate: optimal */
        if (stuck && pr->partial) {
            /* lists the bounds vouched for hold each point's argmin, not always the
               clusters a path to a deficit needs: price every row before widening */
            memcpy(price, saved, k * sizeof(double));
            pr->nep = 0;
            have = false;
            continue;
        }
        if (stuck || rounds >= MAX_ROUNDS) {
            /* a stuck search leaves potentials raised only where it reached: worse prices
               than those it started from, which are kept */
            if (stuck)
                memcpy(price, saved, k * sizeof(double));
            if ((rc = widen(pr, n, k, err)) != CKM_OK)
                goto done;
            st->widened++;
            rounds = 0;
            have = false;
            continue;
        }
        have = true; /* the next refresh checks it: its rows in doubt under SSP's prices are
                        priced, and with none and no violation among the others it is optimal
                        (one check over the n rows a round, where a separate quick check here
                        made a third a step) */
    }
done:
    st->width = pr->c;
    /* a stopped pass leaves rows half written: nothing carries over */
    if (st->stopped || rc != CKM_OK) {
        pr->nep = 0;
        pr->slack_ok = false;
    }
    free(saved);
    return rc;
}

static bool limits_hit(const void *lim) { return ckm_bk_limits_reached(lim); }

ckm_transport_points_opts ckm_transport_points_defaults(void)
{
    return (ckm_transport_points_opts){0, NULL, NULL, CKM_TRANSPORT_MATRIX_MAX, CKM_TRANSPORT_MATRIX_CUBE, CAND};
}

bool ckm_transport_points_matrix(size_t n, size_t k, const ckm_transport_points_opts *o)
{
    size_t nk;
    return ckm_mul_ok(n, k, &nk) && nk <= o->matrix_max &&
           (double)k * (double)k * (double)k <= (double)o->matrix_cube * (double)n;
}

ckm_error ckm_transport_points(const ckm_transport_points_problem *pp, const ckm_transport_points_opts *o,
                               double *price, int32_t *labels, int *infeasible, ckm_transport_stats *stats,
                               ckm_err *err)
{
    const double *Y = pp->Y, *C = pp->C;
    size_t n = pp->n, d = pp->d, k = pp->k;
    const size_t *lo = pp->lo, *hi = pp->hi;
    const ckm_bk_limits *lim = o->lim;
    ckm_transport_cache *cache = o->cache;
    double t0 = ckm_now();
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    ckm_error rc;
    if (cache && (cache->Y != Y || cache->n != n || cache->d != d)) { /* other points: nothing carries over */
        pricing_free(&cache->pr);
        free(cache->ynorm);
        cache->ynorm = NULL;
        cache->Y = Y;
        cache->n = n;
        cache->d = d;
    }
    ckm_transport_ws *own = cache ? NULL : ckm_transport_ws_new(), *ws = cache ? cache->ws : own;
    bool matrix = ckm_transport_points_matrix(n, k, o);
    size_t nk = matrix ? n * k : 0; /* <= matrix_max there */
    if (!ws || (matrix && !ckm_transport_ws_array(ws, (void **)&ws->cost, &ws->cost_cap, nk, sizeof(double)))) {
        ckm_transport_ws_free(own);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for the %zu x %zu costs", n, k);
    }
    if (matrix) {
        /* the matrix alone takes 0.5 s at 10^6 x 100: polled between runs of rows */
        bool stopped = false;
        rc = ckm_sqdist_matrix_poll(Y, n, d, C, k, ws->cost, o->threads, lim ? limits_hit : NULL, lim, &stopped, err);
        *infeasible = 0;
        st.stopped = stopped;
        if (rc == CKM_OK && !stopped)
            rc = ckm_transport_solve_lim(n, k, ws->cost, lo, hi, lim, ws, price, labels, infeasible, &st, err);
        ckm_transport_ws_free(own);
        st.passes = 1;
        st.rows_priced = n;
        st.width = k;
        st.seconds = ckm_now() - t0;
        if (stats)
            *stats = st;
        return rc;
    }
    if ((rc = ckm_transport_precheck(n, k, lo, hi, price, infeasible, err)) != CKM_OK || *infeasible) {
        ckm_transport_ws_free(own);
        if (stats)
            *stats = st;
        return rc;
    }
    /* the norms as ckm_sqdist_matrix sums them; the points' once per cache */
    double *ynorm = cache ? cache->ynorm : NULL, *cnorm = ckm_alloc_array(k, sizeof(double));
    bool fresh = !ynorm;
    if (fresh && (ynorm = ckm_alloc_array(n, sizeof(double))) != NULL)
        ckm_row_norms(Y, n, d, ynorm);
    if (cache && fresh && ynorm) {
        cache->ynorm = ynorm;
        cache->bytes += n * sizeof(double);
    }
    if (!ynorm || !cnorm) {
        if (!cache)
            free(ynorm);
        free(cnorm);
        ckm_transport_ws_free(own);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    }
    ckm_row_norms(C, k, d, cnorm);
    pricing local;
    memset(&local, 0, sizeof local);
    pricing *pr = cache ? &cache->pr : &local;
    rc = solve_rows(pr, ws, pp, ynorm, cnorm, o, price, labels, &st, err);
    if (!cache) {
        pricing_free(&local);
        free(ynorm);
    }
    free(cnorm);
    ckm_transport_ws_free(own);
    st.seconds = ckm_now() - t0;
    if (stats)
        *stats = st;
    return rc;
}
