/*
 * greedy_sizes.c -- a feasible labelling of n points to k centers under size bounds
 * lo_j <= |j| <= hi_j (given sum_j lo_j <= n <= sum_j hi_j, which preprocessing proves),
 * in one distance pass: the stop fallback's first answer when the exact transportation
 * step might not finish in the grace period (10^6 x 100 balanced: seconds).
 *   costs     c_i(j) = ||x_i - C_j||^2 (one dgemm pass, ckm_nearest_rows); each point keeps
 *             its nearest and second-nearest cluster; regret
 *             g_i = c_i(second) - c_i(first) (what point i loses if sent elsewhere)
 *   order     points by decreasing regret (ties by index: a stable radix sort on the
 *             regret's bits, which order as the values do for non-negative doubles), so the
 *             points that care most choose first and the indifferent ones absorb the bounds
 *   choice    each point takes its nearest *open* cluster (its two kept ones first, else
 *             the nearest of the open list), j open when
 *                 |j| < hi_j  and  (|j| < lo_j  or  slack > 0),
 *             slack = (points not yet placed) - sum_j max(0, lo_j - |j|)
 *             A closed cluster stays closed (|j| only grows, slack never grows), so the open
 *             list drops each closed cluster for good when a scan meets it, and a point past
 *             its two kept clusters costs (open clusters) x d, not k x d (10^6 x 100 with
 *             sizes 10^4: 12.4 million center visits instead of 31.2, the choices 0.31 ->
 *             0.17-0.24 s).
 * Invariant: slack >= 0, and an open cluster always exists. Placing a point in a cluster
 * below its minimum leaves slack unchanged, elsewhere lowers it by 1 (only allowed at
 * slack > 0). With slack > 0, sum_j |j| < n <= sum_j hi_j leaves some |j| < hi_j; with
 * slack = 0 the deficit equals the points left (>= 1), so some |j| < lo_j <= hi_j. At the end
 * no point is left, so the deficit is 0: every lo_j is met, and no hi_j was passed.
 * Not optimal (the transportation step is); the caller recomputes and reports its SSE.
 * Limits are polled between chunks of rows of the distance pass and every 2^14 points of
 * the choice loop; a stop leaves the labels unusable (*stopped).
 * Memory: 3 n 4-byte indices, 2 n 8-byte keys and norms, k open-list indices, the dgemm
 * workspace.
 */
#include "core.h"
#include "transport.h"

#include "objective.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const ckm_nearest_ws *ws;
    size_t base;   /* the chunk's first row: hook rows are chunk-relative */
    int32_t *cand; /* n*2: the nearest and the second nearest cluster */
    uint64_t *key; /* n: ~bits(regret), so that increasing keys are decreasing regrets */
} first_pass;

/* ckm_nearest_rows's hook (j: the row's argmin, ties to the lowest index): the runner-up
   is the lowest-index minimum of v_c = ||c||^2 - 2 y.c over c != j (v_c is c_i(c) less
   ||y_i||^2, which neither the order nor the regret depends on). */
static void keep_row(void *ctx, size_t i, const double *g, size_t j, int tid)
{
    (void)tid;
    const first_pass *p = ctx;
    const double *cn = p->ws->cnorm;
    size_t k = p->ws->k, j2 = j;
    i += p->base;
    double b2 = INFINITY;
    for (size_t q = 0; q < j; q++) {
        double x = cn[q] - 2.0 * g[q];
        if (x < b2) {
            b2 = x;
            j2 = q;
        }
    }
    for (size_t q = j + 1; q < k; q++) {
        double x = cn[q] - 2.0 * g[q];
        if (x < b2) {
            b2 = x;
            j2 = q;
        }
    }
    p->cand[2 * i] = (int32_t)j;
    p->cand[2 * i + 1] = (int32_t)j2;                            /* k = 1: j itself */
    double regret = k > 1 ? b2 - (cn[j] - 2.0 * g[j]) : 0.0; /* k = 1: one cluster, hi_0 >= n */
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

ckm_error ckm_greedy_sizes(const double *Y, size_t n, size_t d, const double *C, size_t k, const size_t *lo,
                           const size_t *hi, int threads, const ckm_bk_limits *lim, int32_t *labels, bool *stopped,
                           ckm_err *err)
{
    *stopped = false;
    if (n > UINT32_MAX)
        return ckm_fail(err, CKM_ERR_UNSUPPORTED, "greedy sized labelling: more than 2^32 - 1 points");
    size_t n2;
    ckm_nearest_ws ws;
    memset(&ws, 0, sizeof ws);
    int32_t *cand = ckm_mul_ok(n, 2, &n2) ? ckm_alloc_array(n2, sizeof(int32_t)) : NULL;
    uint64_t *key = ckm_alloc_array(n, sizeof *key);
    uint32_t *order = ckm_alloc_array(n, sizeof *order);
    double *ynorm = ckm_alloc_array(n, sizeof(double));
    size_t *cnt = ckm_calloc_array(k, sizeof *cnt);
    size_t *open = ckm_alloc_array(k, sizeof *open), nopen = k; /* increasing indices */
    ckm_error rc = CKM_OK;
    if (!cand || !key || !order || !ynorm || !cnt || !open) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the greedy sized labelling (n = %zu, k = %zu)", n, k);
        goto done;
    }
    if ((rc = ckm_nearest_ws_init(&ws, k, d, threads, err)) != CKM_OK)
        goto done;
    ckm_row_norms(Y, n, d, ynorm);
    first_pass p = {&ws, 0, cand, key};
    /* chunks of about 2^23 distances, between which the limits are polled */
    size_t chunk = ((size_t)1 << 23) / (k ? k : 1);
    if (chunk < ws.block)
        chunk = ws.block;
    for (p.base = 0; p.base < n; p.base += chunk) {
        if (ckm_transport_should_stop(lim)) {
            *stopped = true;
            goto done;
        }
        size_t m = n - p.base < chunk ? n - p.base : chunk;
        ckm_nearest_rows(Y + p.base * d, ynorm + p.base, m, C, &ws, NULL, NULL, keep_row, &p);
    }
    if (!radix_order(key, n, order)) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the greedy sized labelling's order (n = %zu)", n);
        goto done;
    }
    for (size_t j = 0; j < k; j++)
        open[j] = j;
    size_t deficit = 0; /* sum_j max(0, lo_j - |j|) */
    for (size_t j = 0; j < k; j++)
        deficit += lo[j];
    for (size_t q = 0; q < n; q++) {
        if ((q & 0x3fff) == 0x3fff && ckm_transport_should_stop(lim)) {
            *stopped = true;
            goto done;
        }
        size_t i = order[q], left = n - q;
        if (q + 16 < n) { /* the order is random in memory: fetch a later point's row early */
            __builtin_prefetch(cand + 2 * (size_t)order[q + 16]);
            __builtin_prefetch(Y + (size_t)order[q + 16] * d);
        }
        if (left < deficit) { /* sum lo > n: the caller's precondition was broken */
            rc = ckm_fail(err, CKM_ERR_INTERNAL, "greedy sized labelling: minimum sizes sum above n");
            goto done;
        }
        bool slack = left > deficit;
#define OPEN(j) (cnt[j] < hi[j] && (cnt[j] < lo[j] || slack))
        size_t f = (size_t)cand[2 * i];
        if (!OPEN(f))
            f = (size_t)cand[2 * i + 1];
        if (!OPEN(f)) { /* both kept clusters are closed: the nearest of the open list */
            double best = INFINITY;
            size_t w = 0;
            f = k;
            for (size_t t = 0; t < nopen; t++) {
                size_t j = open[t];
                if (!OPEN(j))
                    continue; /* closed for good: dropped from the list */
                open[w++] = j;
                double v = center_value(C + j * d, ws.cnorm[j], Y + i * d, d);
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
    ckm_nearest_ws_free(&ws);
    free(cand);
    free(key);
    free(order);
    free(ynorm);
    free(cnt);
    free(open);
    return rc;
}
