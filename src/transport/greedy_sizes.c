/*
 * greedy_sizes.c -- a feasible labelling of n points to k centers under size bounds
 * lo_j <= |j| <= hi_j (given sum_j lo_j <= n <= sum_j hi_j, which preprocessing proves),
 * in one distance pass: the stop fallback's first answer when the exact transportation
 * step might not finish in the grace period (10^6 x 100 balanced: seconds).
 *   costs     c_i(j) = ||x_i - C_j||^2 in float products (one sgemm pass of screen.c,
 *             float_only: a ranking for a heuristic; the caller recomputes the SSE in
 *             double); each point keeps its m = min(k, clamp(k / 64, 2, 8)) nearest clusters
 *             in order (ties to the lower index); regret g_i = c_i(second) - c_i(first)
 *             (what point i loses if sent elsewhere)
 *   order     points by decreasing regret (ties by index: a stable radix sort on the
 *             regret's bits, which order as the values do for non-negative doubles), so the
 *             points that care most choose first and the indifferent ones absorb the bounds
 *   choice    each point takes its nearest *open* cluster: the first open one of its kept
 *             list (every cluster nearer than it is kept and closed), else the nearest of the
 *             open list (in double), j open when
 *                 |j| < hi_j  and  (|j| < lo_j  or  slack > 0),
 *             slack = (points not yet placed) - sum_j max(0, lo_j - |j|)
 *             A closed cluster stays closed (|j| only grows, slack never grows), so the open
 *             list drops each closed cluster for good when a scan meets it, and a point past
 *             its kept clusters costs (open clusters) x d, not k x d.
 * Measured on uniform points, exact sizes n / k, 2 threads (the stop fallback of a run whose
 * first step outlasts its time limit must finish within a second): with dgemm and m = 2,
 * 10^5 x 128, k = 1000 took 1.56-1.94 s (0.75-1.05 s the pass, 40,239 scans of up to 1000
 * centers); sgemm brought the pass to 0.55-0.65 s, m = 8 the scans to 17,631 and the whole
 * to 0.82 s (m = 4: 1.05 s); 10^6 x 16, k = 1000: 4.5 -> 2.3-2.4 s; k = 100: 0.74 ->
 * 0.65 s with m = 2 (m = 8: 0.80-0.85 s, its kept lists cost more than the scans they save).
 * Invariant: slack >= 0, and an open cluster always exists. Placing a point in a cluster
 * below its minimum leaves slack unchanged, elsewhere lowers it by 1 (only allowed at
 * slack > 0). With slack > 0, sum_j |j| < n <= sum_j hi_j leaves some |j| < hi_j; with
 * slack = 0 the deficit equals the points left (>= 1), so some |j| < lo_j <= hi_j. At the end
 * no point is left, so the deficit is 0: every lo_j is met, and no hi_j was passed.
 * Not optimal (the transportation step is); the caller recomputes and reports its SSE.
 * A limit ends the ranking, not the labelling (the stop fallback's answer must come within
 * its grace: 3 x 10^5 x 16, k = 1000 took 0.75 s against the 0.5 s grace of a Ctrl-C). The
 * limits are polled between chunks of rows of the distance pass and every 2^14 points of the
 * choice loop. When one is reached,
 *   rows the pass did not reach keep one cluster, the nearest of the first k' seeds (k' <=
 *             8, fewer when the rows left would not meet them within ROUGH_S seconds at the
 *             rate measured on the previous chunk; k' = 1: seed 0 without a distance), and
 *             regret 0, so that they choose last;
 *   a point whose kept clusters are all closed takes, instead of a scan over the open list
 *             (O(k d)), the first open cluster by index: a pointer that only moves forward,
 *             since a closed cluster stays closed (these points are counted in *rough, with
 *             the rows not reached).
 * The choice rule is unchanged (only open clusters), so every bound holds as before.
 * Memory: (m + 1) n 4-byte indices, 2 n 8-byte keys and norms, n d floats (the float copy),
 * k open-list indices, one block of float products per thread.
 */
#include "core.h"
#include "greedy_sizes.h"

#include "objective.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* clusters kept per point by the distance pass: m = min(k, clamp(k / 64, 2, 8)) */
#define CKM_GREEDY_KEEP 8
/* after a limit: seconds the rows the pass did not reach may spend on distances to seeds
   (10^6 x 16 rows against 8 seeds are 2.6 x 10^8 flops, an estimated 0.1 s on one core:
   there, fewer seeds) */
#define ROUGH_S 0.03
/* rows per timed chunk of that rough pass */
#define ROUGH_CHUNK ((size_t)1 << 12)

typedef struct {
    size_t k, m;   /* clusters; clusters kept per point */
    int32_t *cand; /* n*m: each point's m nearest clusters, nearest first */
    uint64_t *key; /* n: ~bits(regret), so that increasing keys are decreasing regrets */
} first_pass;

/* val/idx[0 .. len) = the least e[q] over q != j, in increasing order, ties to the lower
 * index, at most want (<= 7) of them; returns len. First a threshold T that at least want
 * values at q != j do not exceed: the largest of the least values of want of the eight
 * lanes q mod 8 over the whole groups of eight, j's lane left out (at k >= 16 each lane
 * holds one value at least; else T = +inf). Then the values <= T enter a sorted list by
 * insertion (strict: an equal value stays ahead), and once it holds want values only one
 * below its last can enter; a group of eight none of which is <= the threshold costs two
 * vector comparisons (k = 100 or 1000: about 15-20 insertions a row). */
__attribute__((target_clones("avx2", "default"))) static size_t keep_least(const double *e, size_t k, size_t j,
                                                                            size_t want, double *val, int32_t *idx)
{
    size_t len = 0, whole = k - k % 8;
    double thr = want ? INFINITY : -INFINITY;
    if (want && k >= 16) {
        const ckm_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};
        ckm_v4d m0 = inf, m1 = inf;
        for (size_t q = 0; q < whole; q += 8) {
            ckm_v4d a, b;
            memcpy(&a, e + q, sizeof a);
            memcpy(&b, e + q + 4, sizeof b);
            m0 = CKM_V4D_PICK(a < m0, a, m0); /* lane-wise minimum */
            m1 = CKM_V4D_PICK(b < m1, b, m1);
        }
        double lane[8];
        memcpy(lane, &m0, sizeof m0);
        memcpy(lane + 4, &m1, sizeof m1);
        lane[j % 8] = INFINITY; /* j's lane: its least value may be e[j] */
        for (size_t a = 1; a < 8; a++) /* insertion sort of the eight */
            for (size_t b = a; b > 0 && lane[b] < lane[b - 1]; b--) {
                double t = lane[b];
                lane[b] = lane[b - 1];
                lane[b - 1] = t;
            }
        thr = lane[want - 1];
    }
    for (size_t q0 = 0; q0 < k; q0 += 8) {
        size_t q1 = q0 < whole ? q0 + 8 : k;
        if (q0 < whole) {
            ckm_v4d a, b, t = {thr, thr, thr, thr};
            memcpy(&a, e + q0, sizeof a);
            memcpy(&b, e + q0 + 4, sizeof b);
            ckm_v4l in = (a <= t) | (b <= t);
            if (!(in[0] | in[1] | in[2] | in[3]))
                continue;
        }
        for (size_t q = q0; q < q1; q++) {
            double x = e[q];
            if (q == j || !(len < want ? x <= thr : x < thr))
                continue;
            size_t t = len < want ? len++ : len - 1; /* the slot freed: the end, or the last */
            for (; t > 0 && x < val[t - 1]; t--) {
                val[t] = val[t - 1];
                idx[t] = idx[t - 1];
            }
            val[t] = x;
            idx[t] = (int32_t)q;
            if (len == want)
                thr = val[len - 1];
        }
    }
    return len;
}

/* ckm_screen_pass's hook (e[q] = ||c'_q||^2 - 2 y'.c'_q, c_i(q) less ||y_i'||^2 in
   float products, which neither the order nor the regret depends on; j: the row's argmin,
   ties to the lowest index): j first, then the m - 1 least others (keep_least). */
static void keep_row(void *ctx, size_t i, const double *e, double ynf, double E, size_t j, int tid)
{
    (void)ynf, (void)E, (void)tid;
    const first_pass *p = ctx;
    double val[CKM_GREEDY_KEEP];
    int32_t idx[CKM_GREEDY_KEEP];
    size_t len = keep_least(e, p->k, j, p->m - 1, val, idx);
    int32_t *c = p->cand + i * p->m;
    c[0] = (int32_t)j;
    memcpy(c + 1, idx, len * sizeof *idx);
    double regret = len ? val[0] - e[j] : 0.0; /* k = 1: one cluster, hi_0 >= n */
    if (!(regret > 0.0))
        regret = 0.0; /* also -0.0: its bits would sort first */
    uint64_t bits;
    memcpy(&bits, &regret, sizeof bits);
    p->key[i] = ~bits;
}

typedef struct {
    uint64_t key;
    uint32_t i;
} keyed;

/* order[0..n) = indices by increasing key, ties by index: LSD radix sort of (key, index)
   pairs, 16 bits a pass, a pass skipped when every key has the same digit there. */
static bool radix_order(const uint64_t *key, size_t n, uint32_t *order)
{
    keyed *a = ckm_alloc_array(n, sizeof *a), *b = ckm_alloc_array(n, sizeof *b);
    size_t *count = ckm_alloc_array((size_t)1 << 16, sizeof *count);
    if (!a || !b || !count) {
        free(a);
        free(b);
        free(count);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = (keyed){key[i], (uint32_t)i};
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, ((size_t)1 << 16) * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(a[i].key >> shift) & 0xffff]++;
        if (n == 0 || count[(a[0].key >> shift) & 0xffff] == n)
            continue;
        size_t sum = 0;
        for (size_t q = 0; q < ((size_t)1 << 16); q++) {
            size_t c = count[q];
            count[q] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            b[count[(a[i].key >> shift) & 0xffff]++] = a[i];
        keyed *t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = a[i].i;
    free(a);
    free(b);
    free(count);
    return true;
}

/* ||C_j||^2 - 2 y.C_j (c_i(j) less ||y_i||^2): four partial sums, independent adds */
static double center_value(const double *c, double cnorm, const double *y, size_t d)
{
    double a[4] = {0.0, 0.0, 0.0, 0.0};
    size_t f = 0;
    for (; f + 4 <= d; f += 4)
        for (int u = 0; u < 4; u++)
            a[u] += y[f + (size_t)u] * c[f + (size_t)u];
    for (; f < d; f++)
        a[0] += y[f] * c[f];
    return cnorm - 2.0 * ((a[0] + a[1]) + (a[2] + a[3]));
}

/* Rows [from, n) the distance pass did not reach: one kept cluster each (all m slots), the
 * nearest of the first k' seeds (ties to the lower index), k' from min(k, 8) down to what
 * the rows left can afford within ROUGH_S seconds at the rate of the previous chunk, and
 * regret 0 (key ~0: they choose last). */
static void rough_rows(const first_pass *p, const double *Y, size_t d, const double *C, const double *cnorm,
                       size_t from, size_t n)
{
    size_t kk = p->k < 8 ? p->k : 8;
    double t_end = ckm_now() + ROUGH_S;
    for (size_t r0 = from; r0 < n; r0 += ROUGH_CHUNK) {
        size_t r1 = n - r0 < ROUGH_CHUNK ? n : r0 + ROUGH_CHUNK;
        double t0 = ckm_now();
        for (size_t i = r0; i < r1; i++) {
            size_t f = 0;
            if (kk > 1) {
                double best = center_value(C, cnorm[0], Y + i * d, d);
                for (size_t j = 1; j < kk; j++) {
                    double v = center_value(C + j * d, cnorm[j], Y + i * d, d);
                    if (v < best) {
                        best = v;
                        f = j;
                    }
                }
            }
            for (size_t t = 0; t < p->m; t++)
                p->cand[i * p->m + t] = (int32_t)f;
            p->key[i] = ~(uint64_t)0;
        }
        if (kk > 1) { /* seconds per row and seed measured here; the rows left within the budget */
            double now = ckm_now(), per = (now - t0) / ((double)(r1 - r0) * (double)kk);
            double fit = per > 0.0 ? (t_end - now) / (per * (double)(n - r1)) : (double)kk;
            kk = fit >= (double)kk ? kk : fit >= 2.0 ? (size_t)fit : 1;
        }
    }
}

ckm_error ckm_transport_greedy(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                           const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels, size_t *rough,
                           ckm_err *err)
{
    *rough = 0;
    if (n > UINT32_MAX)
        return ckm_fail(err, CKM_ERR_UNSUPPORTED, "greedy sized labelling: more than 2^32 - 1 points");
    size_t nm, m = k / 64 < 2 ? 2 : k / 64 > CKM_GREEDY_KEEP ? CKM_GREEDY_KEEP : k / 64;
    m = m < k ? m : k;
    ckm_screen sc;
    memset(&sc, 0, sizeof sc);
    int32_t *cand = ckm_mul_ok(n, m, &nm) ? ckm_alloc_array(nm, sizeof(int32_t)) : NULL;
    uint64_t *key = ckm_alloc_array(n, sizeof *key);
    uint32_t *order = ckm_alloc_array(n, sizeof *order);
    double *ynorm = ckm_alloc_array(n, sizeof(double)), *cnorm = ckm_alloc_array(k, sizeof(double));
    size_t *cnt = ckm_calloc_array(k, sizeof *cnt);
    size_t *open = ckm_alloc_array(k, sizeof *open), nopen = k; /* increasing indices */
    ckm_error rc = CKM_OK;
    if (!cand || !key || !order || !ynorm || !cnorm || !cnt || !open) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the greedy sized labelling (n = %zu, k = %zu)", n, k);
        goto done;
    }
    ckm_row_norms(Y, n, d, ynorm);
    ckm_row_norms(C, k, d, cnorm);
    if ((rc = ckm_screen_init(&sc, Y, ynorm, n, d, k, threads, err)) != CKM_OK)
        goto done;
    sc.float_only = true; /* a heuristic's ranking: float products suffice */
    first_pass p = {k, m, cand, key};
    /* chunks of about 2^23 distances (whole blocks), between which the limits are polled */
    size_t chunk = ((size_t)1 << 23) / (k ? k : 1);
    chunk = chunk < sc.block ? sc.block : chunk - chunk % sc.block;
    size_t reached = 0; /* rows [0, reached) ranked by the pass */
    bool cut = false;   /* a limit was reached: no more scans over the open list */
    for (; reached < n; reached = n - reached < chunk ? n : reached + chunk) {
        if ((cut = ckm_bk_limits_reached(lim)))
            break;
        /* float_only: no row takes the exact route, which needs no workspace */
        ckm_screen_pass_range(&sc, C, NULL, NULL, keep_row, NULL, &p, reached, n - reached < chunk ? n : reached + chunk);
    }
    if (cut)
        rough_rows(&p, Y, d, C, cnorm, reached, n);
    *rough = n - reached;
    if (!radix_order(key, n, order)) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the greedy sized labelling's order (n = %zu)", n);
        goto done;
    }
    for (size_t j = 0; j < k; j++)
        open[j] = j;
    size_t deficit = 0; /* sum_j max(0, lo_j - |j|) */
    for (size_t j = 0; j < k; j++)
        deficit += lo[j];
    size_t first_open = 0; /* after a limit: the pointer; every cluster below it is closed */
    for (size_t q = 0; q < n; q++) {
        if (!cut && (q & 0x3fff) == 0x3fff)
            cut = ckm_bk_limits_reached(lim);
        size_t i = order[q], left = n - q;
        if (q + 16 < n) { /* the order is random in memory: fetch a later point's row early */
            __builtin_prefetch(cand + m * (size_t)order[q + 16]);
            __builtin_prefetch(Y + (size_t)order[q + 16] * d);
        }
        if (left < deficit) { /* sum lo > n: the caller's precondition was broken */
            rc = ckm_fail(err, CKM_ERR_INTERNAL, "greedy sized labelling: minimum sizes sum above n");
            goto done;
        }
        bool slack = left > deficit;
#define OPEN(j) (cnt[j] < hi[j] && (cnt[j] < lo[j] || slack))
        size_t f = k;
        for (size_t t = 0; t < m && f == k; t++)
            if (OPEN((size_t)cand[m * i + t]))
                f = (size_t)cand[m * i + t];
        if (f == k && (cut || i >= reached)) { /* closed too: the first open cluster */
            while (first_open < k && !OPEN(first_open))
                first_open++;
            f = first_open;
            *rough += i < reached;
        } else if (f == k) { /* every kept cluster is closed: the nearest of the open list */
            double best = INFINITY;
            size_t w = 0;
            f = k;
            for (size_t t = 0; t < nopen; t++) {
                size_t j = open[t];
                if (!OPEN(j))
                    continue; /* closed for good: dropped from the list */
                open[w++] = j;
                double v = center_value(C + j * d, cnorm[j], Y + i * d, d);
                if (f == k || v < best) {
                    best = v;
                    f = j;
                }
            }
            nopen = w;
        }
#undef OPEN
        if (f == k) { /* no open cluster: sum hi < n, again a broken precondition */
            rc = ckm_fail(err, CKM_ERR_INTERNAL, "greedy sized labelling: maximum sizes sum below n");
            goto done;
        }
        if (cnt[f] < lo[f])
            deficit--;
        cnt[f]++;
        labels[i] = (int32_t)f;
    }
done:
    ckm_screen_free(&sc);
    free(cand);
    free(key);
    free(order);
    free(ynorm);
    free(cnorm);
    free(cnt);
    free(open);
    return rc;
}
