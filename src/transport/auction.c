/*
 * auction.c -- starting prices for the transportation problem of transport.h by an auction
 * with epsilon-scaling (Bertsekas & Castanon 1989, "The auction algorithm for the
 * transportation problem", Annals of Operations Research 20), used when the labelling by the
 * current prices is far off the size bounds: successive shortest paths (transport.c) would
 * repair that imbalance one unit per Dijkstra over the k clusters, a bid costs O(c + log n).
 *   Minimisation form, P_j = -price_j; cluster j has cap_j = min(hi_j, n) slots. A point
 *   takes j1 = argmin_j (c_ij + P_j) over its candidate clusters; with v1 <= v2 the least
 *   two values of c_ij + P_j it bids P_j1 + (v2 - v1) + eps for a slot of j1, and a full j1
 *   evicts its lowest bid (a min-heap per cluster). P_j is j's lowest held bid once j is
 *   full, else the price j started the phase with. Prices only rise within a phase, so a
 *   point placed is within eps of its best candidate (eps-complementary slackness).
 *   eps starts at eps0 g (g: the mean gap v2 - v1 at the start prices; the solvers use
 *   CKM_AUCTION_EPS0 = 0.05, transport.h: a coarser start overshoots where maximums leave
 *   slack, and prices never come down within the auction) and is
 *   divided by 8 per phase down to g * 1e-6; each phase starts from the previous phase's P
 *   with every point free (a clean phase: the eps-slack of the last one does not carry
 *   over) and ends when at most n / 512 points are free (they chase far clusters through
 *   long eviction chains) or after 16 n + k bids (a price war: candidate arcs that admit no
 *   assignment within the maximums); its prices are kept either way.
 * On candidate arcs a point whose candidates all cost more than rest_i (a lower bound on
 * every other cluster's c_ij + P_j) does not bid: a cluster left out may be better.
 * Only the maximums are auctioned; a closing pass lowers the price of a cluster with room
 * as far as no placed point would then prefer it. Minimums, the free points and the
 * eps-slack are left to SSP, which is started from the argmin labels at these prices: the
 * result is a start, not a solution, and the optimum and its certificate stay SSP's.
 * Deterministic: one thread, points bid in a fixed order. Memory: 16 n (heaps) + 4 n
 * (free stack) bytes.
 */
#include "core.h"
#include "auction.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct held {
    double bid;
    int32_t pt;
} held;

typedef struct heap {
    held *a;
    size_t len, cap;
} heap;

static void sift_up(held *a, size_t q)
{
    held x = a[q];
    while (q > 0 && a[(q - 1) / 2].bid > x.bid) {
        a[q] = a[(q - 1) / 2];
        q = (q - 1) / 2;
    }
    a[q] = x;
}

static void sift_down(held *a, size_t len, size_t q)
{
    held x = a[q];
    for (;;) {
        size_t c = 2 * q + 1;
        if (c >= len)
            break;
        if (c + 1 < len && a[c + 1].bid < a[c].bid)
            c++;
        if (!(a[c].bid < x.bid))
            break;
        a[q] = a[c];
        q = c;
    }
    a[q] = x;
}

/* Least and second least c_ij + P_j over i's candidates (v2 = INFINITY with one finite). */
static size_t best_two(size_t k, size_t c, const int32_t *cj, const double *cc, size_t i, const double *P, double *v1,
                       double *v2)
{
    size_t bj = 0, m = cj ? c : k;
    double b1 = INFINITY, b2 = INFINITY;
    const double *ci = cc + i * m;
    const int32_t *ji = cj ? cj + i * c : NULL;
    for (size_t q = 0; q < m; q++) {
        size_t j = ji ? (size_t)ji[q] : q;
        double v = ci[q] + P[j];
        if (v < b1) {
            b2 = b1;
            b1 = v;
            bj = j;
        } else if (v < b2)
            b2 = v;
    }
    *v1 = b1;
    *v2 = b2;
    return bj;
}

ckm_error ckm_transport_auction(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const double *rest,
                                const size_t *hi, double eps0, const ckm_bk_limits *lim, double *price,
                                ckm_transport_stats *st, ckm_err *err)
{
    double *P = ckm_alloc_array(k, sizeof(double)), *need = ckm_alloc_array(k, sizeof(double));
    size_t *cap = ckm_alloc_array(k, sizeof(size_t));
    heap *h = ckm_calloc_array(k, sizeof(heap));
    int32_t *stack = ckm_alloc_array(n > 0 ? n : 1, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!P || !need || !cap || !h || !stack) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for the auction");
        goto done;
    }
    for (size_t j = 0; j < k; j++) {
        cap[j] = hi[j] < n ? hi[j] : n;
        /* a cluster without slots is never bid for */
        P[j] = cap[j] > 0 ? -price[j] : INFINITY;
    }
    /* scale: the mean gap between a point's best two clusters at the start prices */
    double gap = 0.0;
    size_t counted = 0;
    for (size_t i = 0; i < n; i++) {
        double v1, v2;
        best_two(k, c, cj, cc, i, P, &v1, &v2);
        if (!isfinite(v1))
            goto done; /* a point with no cluster to go to: nothing to auction */
        if (isfinite(v2)) {
            gap += v2 - v1;
            counted++;
        }
    }
    gap = counted > 0 ? gap / (double)counted : 0.0;
    if (!(gap > 0.0))
        goto done; /* all ties (or k = 1): SSP has nothing to gain from prices */
    size_t budget = 16 * n + k;
    size_t tail = n / 512; /* the last few free points of a phase chase far clusters through
                              long eviction chains: left to SSP */
    for (double eps = gap * eps0;; eps /= 8.0) {
        bool last = eps / 8.0 < gap * 1e-6;
        for (size_t j = 0; j < k; j++)
            h[j].len = 0;
        for (size_t q = 0; q < n; q++)
            stack[q] = (int32_t)(n - 1 - q); /* point 0 bids first */
        size_t top = n, bids = 0;
        while (top > tail && bids < budget) {
            size_t i = (size_t)stack[--top];
            double v1, v2;
            size_t j = best_two(k, c, cj, cc, i, P, &v1, &v2);
            if (rest && rest[i] < v1)
                continue; /* a cluster outside the candidates may be better: left free */
            if (rest && rest[i] < v2)
                v2 = rest[i];
            double bid = P[j] + (isfinite(v2) ? v2 - v1 : gap) + eps;
            heap *hj = &h[j];
            if (!ckm_grow((void **)&hj->a, &hj->cap, hj->len + 1, sizeof(held))) {
                rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory for the auction");
                goto done;
            }
            hj->a[hj->len] = (held){bid, (int32_t)i};
            sift_up(hj->a, hj->len++);
            if (hj->len > cap[j]) { /* full: the lowest bid leaves */
                stack[top++] = hj->a[0].pt;
                hj->a[0] = hj->a[--hj->len];
                sift_down(hj->a, hj->len, 0);
            }
            if (hj->len == cap[j])
                P[j] = hj->a[0].bid;
            if (++bids % 65536 == 0 && ckm_bk_limits_reached(lim)) {
                st->stopped = 1;
                goto done;
            }
        }
        st->bids += bids;
        st->auction_phases++;
        if (last)
            break;
    }
    /* Complementary slackness for the maximums asks P_j <= 0 where j has room; a cluster
       that filled in an earlier phase but not in the last keeps a raised price. Lower it
       as far as no placed point would then prefer j: P_j >= v1_i - c_ij for every point i
       placed elsewhere with j among its candidates (v1_i its value now). One pass, not a
       reverse auction: with maximums that bind (sum hi = n, balanced) nothing is left to
       lower; with slack the prices are a start that SSP completes. */
    for (size_t j = 0; j < k; j++)
        need[j] = -price[j]; /* never below the start */
    for (size_t a = 0; a < k; a++)
        for (size_t q = 0; q < h[a].len; q++) {
            size_t i = (size_t)h[a].a[q].pt, m = cj ? c : k;
            double v1, v2;
            best_two(k, c, cj, cc, i, P, &v1, &v2);
            for (size_t e = 0; e < m; e++) {
                size_t j = cj ? (size_t)cj[i * c + e] : e;
                double nj = v1 - cc[i * m + e];
                if (j != a && nj > need[j])
                    need[j] = nj;
            }
        }
    for (size_t j = 0; j < k; j++)
        if (h[j].len < cap[j] && P[j] > need[j])
            P[j] = need[j];
    for (size_t j = 0; j < k; j++)
        if (cap[j] > 0)
            price[j] = -P[j];
done:
    if (h)
        for (size_t j = 0; j < k; j++)
            free(h[j].a);
    free(h);
    free(P);
    free(need);
    free(cap);
    free(stack);
    return rc;
}
