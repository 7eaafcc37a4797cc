/*
 * dist_sizeflow.c -- size-constrained k-means over MPI (sizeflow.c's iteration) with the
 * exact size-bounded assignment step solved through its dual, cluster prices p:
 *   min sum_i c_{i,l(i)}  s.t.  lo_j <= |C_j| <= hi_j,   c_ij = ||x_i - c_j||^2
 * (a transportation problem: totally unimodular, an optimal vertex is integral).
 * Certificate (transport.h): every row sits in an argmin_j (c_ij - p_j), p_j > 0 only where
 * |C_j| = lo_j, p_j < 0 only where |C_j| = hi_j. Method, on every rank at once:
 *   1. the prices are the same on every rank (the last step's; zeros at a restart);
 *      every rank labels its rows by least reduced cost, counts are reduced;
 *   2. far off the bounds (excess > max(64, N/1000)): the prices of a sample of
 *      S = min(N, max(4096, 2^21/k), 16384) rows (rows floor(q N / S), gathered to every
 *      rank) solved exactly with bounds scaled by S/N (ckm_transport_solve,
 *      deterministic), kept where they leave fewer rows out of bounds; after a step where
 *      they did not, the next 7 steps skip the sample;
 *   3. price refinement (refine_prices): rounds of exact distributed order statistics of
 *      the rows' best/second-best margins move every out-of-bounds cluster's price; after
 *      each round a row is rescanned only when its bound (the third-least reduced cost of
 *      its last scan, lowered by the largest price rise since) no longer keeps its two best
 *      apart from the rest; the two best costs are kept per row, so the others are not read
 *      (relabel_moved; with 2.'s skipped samples, 10^6 x 16, k = 100, overlapping blobs:
 *      205 -> 116 s on one rank, 47 steps, the same labels);
 *   4. successive shortest paths on the k clusters + an overflow node T (transport.c's
 *      graph: cluster j absorbs lo_j, passes up to hi_j - lo_j on to T, T absorbs
 *      N - sum lo). A unit moving a -> b is a row of a relabelled b at key c_ib - c_ia;
 *      each rank keeps, per pair (a, b), its cheapest rows in a short sorted list
 *      (transport.c's idea: complete below a threshold, a row joining is inserted, a row
 *      leaving is removed, only an emptied list rescans its cluster); ONE MINLOC
 *      allreduce of the k x k heads per phase gives the global cheapest row and its
 *      rank (ties: lowest rank, then lowest row: the lowest global row). Every rank then
 *      runs the same Dijkstra from the excess nodes (reduced cost key + pi_a - pi_b,
 *      clamped at 0) to the end, moves the potentials so every tree path to a deficit is
 *      tight, and augments along as many of those paths as stay usable (phase(); the
 *      rank holding a moved row relabels it); until no excess is left. Every 64 phases
 *      the ranks' stop requests are combined (and at every refinement round): a stop ends
 *      the step (its labels unused);
 *   5. prices p_j = pi_j - pi_T; the certificate is checked on every row with reductions
 *      (dual feasibility to 1e-10 (max ||x||^2 + max ||c||^2 + max |p|), sizes within
 *      bounds, complementary slackness); a failed check is an internal error, never a
 *      silent answer.
 * The optimum is unique for data in general position, so the labels do not depend on the
 * number of ranks and equal the single-process solver's; ties are broken by global row.
 * Lloyd as sizeflow.c: labels unchanged, or center shift <= tol * mean feature variance,
 * or max_iter (sizeflow's default_max_iter); an empty cluster (lo_j = 0) keeps its center; restarts n_init.
 * Memory per rank: the n x k cost matrix (8 n k bytes) + 4 n (labels) + 8 n (linked
 * member lists) + 4 n (previous labels) + 12 k^2 L + 17 k^2 (pair lists, L = 32 up to
 * k = 724, fewer above, at least 2) + 16 k^2 (the reduction).
 * + 16 n (margins, second-best clusters, refinement entries) + 29 n (the rows' bounds,
 * snapshot numbers and two best costs) + 64 k (price snapshots).
 * Messages per step: k counts, S d for a sample start, per refinement round 2 x 64
 * k-count reductions, 12 k^2 bytes per phase.
 */
#include "dist.h"
#include "run.h"
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ds {
    ckm_dist *c;
    const ckm_mpi_problem *p;
    size_t n, k, K; /* K = k + 1 nodes, T = k */
    double *cost;   /* n*k */
    int32_t *lab;
    int32_t *nxt, *prv; /* n: doubly linked member lists (-1 ends), no allocation on moves */
    int32_t *head;  /* k: first member of each cluster, or -1 */
    /* per pair q = a k + b: this rank's members of a with the least keys c_ib - c_ia,
       ascending by (key, row), at most L; complete below the threshold (tk, tr): every
       member of a whose (key, row) is below it is listed (tk = INFINITY: all are) */
    size_t L;
    double *lk, *tk;  /* k*k*L, k*k */
    int32_t *lr, *tr; /* k*k*L, k*k */
    uint8_t *len;     /* k*k */
    int32_t *plan;    /* k*k: the head rows the phase's reduction was built from */
    ckm_dist_loc *G; /* k*k global heads */
    double *pi, *dist; /* K */
    int *pred, *done;  /* K */
    int *order;        /* K: deficits reached by a phase's search, nearest first */
    char *left;        /* k: a row already left this cluster in this phase */
    int64_t *nj, *f, *cap, *e; /* k, k, k, K */
    int64_t *mv;    /* path: up to k moves (a, b, owner, row) */
    double *price;  /* k */
    double *keep;   /* k: prices to return to */
    double *margin; /* n: second-best minus best reduced cost at the last relabel */
    int32_t *second; /* n: the second-best cluster, or -1 (k = 1) */
    double *third;  /* n: a lower bound on the row's other reduced costs at its last scan */
    double *ctop;   /* 2n: the costs c_i,lab and c_i,second (read without touching the row) */
    uint8_t *seen;  /* n: the price snapshot of that scan */
    double *hist;   /* SNAPS x k: price snapshots since the last full relabel */
    size_t snaps;   /* how many */
    double hist_abs; /* max |price| over them */
    int sample_rest; /* steps left without trying a sample's prices (one lost to the last ones) */
} ds;

#define SNAPS 64 /* price snapshots kept between full relabels */

static void push(ds *w, size_t j, int32_t i)
{
    w->prv[i] = -1;
    w->nxt[i] = w->head[j];
    if (w->head[j] >= 0)
        w->prv[w->head[j]] = i;
    w->head[j] = i;
}

static void drop(ds *w, size_t j, int32_t i)
{
    if (w->prv[i] >= 0)
        w->nxt[w->prv[i]] = w->nxt[i];
    else
        w->head[j] = w->nxt[i];
    if (w->nxt[i] >= 0)
        w->prv[w->nxt[i]] = w->prv[i];
}

static inline bool before(double k1, int32_t r1, double k2, int32_t r2)
{
    return k1 < k2 || (k1 == k2 && r1 < r2);
}

/* Insert (key, i) into pair q's sorted list; a full list drops its last entry, which
   becomes the threshold (every member below it stays listed). */
static void list_insert(ds *w, size_t q, double key, int32_t i)
{
    size_t L = w->L, m = w->len[q];
    double *lk = w->lk + q * L;
    int32_t *lr = w->lr + q * L;
    if (m == L) {
        w->tk[q] = lk[L - 1];
        w->tr[q] = lr[L - 1];
        m--;
        if (!before(key, i, w->tk[q], w->tr[q]))
            return; /* (cannot happen: the caller tested against the old threshold) */
    }
    size_t at = m;
    while (at > 0 && before(key, i, lk[at - 1], lr[at - 1])) {
        lk[at] = lk[at - 1];
        lr[at] = lr[at - 1];
        at--;
    }
    lk[at] = key;
    lr[at] = i;
    w->len[q] = (uint8_t)(m + 1);
}

/* Row i of cluster a into the lists (a, b), b in [b0, b1), b != a, where it falls below the
 * threshold. */
static void offer(ds *w, size_t a, int32_t i, size_t b0, size_t b1)
{
    size_t k = w->k;
    const double *ci = w->cost + (size_t)i * k;
    for (size_t b = b0; b < b1; b++) {
        if (b == a)
            continue;
        double key = ci[b] - ci[a];
        size_t q = a * k + b;
        if (before(key, i, w->tk[q], w->tr[q]))
            list_insert(w, q, key, i);
    }
}

/* Pair lists of cluster a rebuilt from its members: for the pairs (a, b) with b in
   [b0, b1) and b != a (one pair, or the whole row). */
static void rebuild(ds *w, size_t a, size_t b0, size_t b1)
{
    size_t k = w->k;
    for (size_t b = b0; b < b1; b++) {
        size_t q = a * k + b;
        w->len[q] = 0;
        w->tk[q] = INFINITY;
        w->tr[q] = -1;
    }
    for (int32_t i = w->head[a]; i >= 0; i = w->nxt[i])
        offer(w, a, i, b0, b1);
}

/* The head of pair q = (a, b): this rank's cheapest member of a to move to b. */
static ckm_dist_loc head_of(ds *w, size_t a, size_t b, int32_t *row)
{
    size_t q = a * w->k + b;
    if (w->len[q] == 0 && w->tk[q] < INFINITY) {
        /* emptied by moves: the members below tau are gone (rebuilding the whole row
           instead was slower: 10^6 x 16, k = 100, 32 s against 23 s) */
        rebuild(w, a, b, b + 1);
        w->c->st->rescans++;
    }
    ckm_dist_loc h = {INFINITY, w->c->rank};
    *row = -1;
    if (w->len[q] > 0) {
        h.v = w->lk[q * w->L];
        *row = w->lr[q * w->L];
    }
    return h;
}

/* Row i left cluster a: out of every list (a, .). */
static void leave(ds *w, size_t a, int32_t i)
{
    size_t k = w->k, L = w->L;
    for (size_t b = 0; b < k; b++) {
        size_t q = a * k + b, m = w->len[q];
        int32_t *lr = w->lr + q * L;
        double *lk = w->lk + q * L;
        for (size_t t = 0; t < m; t++)
            if (lr[t] == i) {
                memmove(lr + t, lr + t + 1, (m - t - 1) * sizeof(int32_t));
                memmove(lk + t, lk + t + 1, (m - t - 1) * sizeof(double));
                w->len[q] = (uint8_t)(m - 1);
                break;
            }
    }
}

/* Row i joined cluster b: into the lists (b, .) where it falls below the threshold. */
static void join(ds *w, size_t b, int32_t i)
{
    offer(w, b, i, 0, w->k);
}

/* Row i's best, second-best (-1 when k = 1) and third-least reduced cost under prices p
 * (index order, strict comparisons: the first index wins a tie), labels and margins set. */
static double scan_row(ds *w, size_t i, const double *p)
{
    size_t k = w->k;
    const double *ci = w->cost + i * k;
    size_t bj = 0, sj = SIZE_MAX;
    double best = ci[0] - p[0], second = INFINITY, third = INFINITY;
    for (size_t j = 1; j < k; j++) {
        double r = ci[j] - p[j];
        if (r < best) {
            third = second;
            second = best;
            sj = bj;
            best = r;
            bj = j;
        } else if (r < second) {
            third = second;
            second = r;
            sj = j;
        } else if (r < third)
            third = r;
    }
    w->lab[i] = (int32_t)bj;
    /* the margin to the second best (>= 0; + 0.0 turns -0 into +0) and its cluster */
    w->margin[i] = sj == SIZE_MAX ? INFINITY : second - best + 0.0;
    w->second[i] = sj == SIZE_MAX ? -1 : (int32_t)sj;
    w->ctop[2 * i] = ci[bj];
    w->ctop[2 * i + 1] = sj == SIZE_MAX ? INFINITY : ci[sj];
    return third;
}

/* Every row to its least reduced cost c_ij - p_j (full scans); the counts reduced. The
 * prices become the first snapshot, each row's third-least reduced cost its bound. */
static void relabel(ds *w)
{
    size_t k = w->k;
    memset(w->nj, 0, k * sizeof(int64_t));
    memcpy(w->hist, w->price, k * sizeof(double));
    w->snaps = 1;
    w->hist_abs = 0.0;
    for (size_t j = 0; j < k; j++)
        w->hist_abs = fabs(w->price[j]) > w->hist_abs ? fabs(w->price[j]) : w->hist_abs;
    for (size_t i = 0; i < w->n; i++) {
        w->third[i] = scan_row(w, i, w->price);
        w->seen[i] = 0;
        w->nj[w->lab[i]]++;
    }
    ckm_dist_sum_i64(w->c, w->nj, k);
}

/* relabel's labels, margins and counts after the prices moved (the price refinement's
 * small moves), without scanning most rows. The prices are kept as a snapshot at every call
 * (up to SNAPS, then a full relabel); a row remembers the snapshot s of its last scan and
 * the third-least reduced cost t it saw. With D_s = max_j (p_j - p^s_j), every reduced cost
 * outside the row's two best of that scan is >= t - D_s (minus a slack far above the
 * subtractions' rounding), so when both of the two are below that, they are still the two
 * best, in the order their reduced costs give (a tie: the lower index, as a scan decides);
 * other rows are scanned. Same labels, margins and second-best clusters as relabel. */
static void relabel_moved(ds *w)
{
    size_t k = w->k, h = w->snaps;
    if (h >= SNAPS) {
        relabel(w);
        return;
    }
    const double *p = w->price;
    double D[SNAPS], P = w->hist_abs;
    memcpy(w->hist + h * k, p, k * sizeof(double));
    w->snaps = h + 1;
    for (size_t j = 0; j < k; j++)
        P = fabs(p[j]) > P ? fabs(p[j]) : P;
    w->hist_abs = P;
    for (size_t r = 0; r < h; r++) {
        const double *q = w->hist + r * k;
        double m = -INFINITY;
        for (size_t j = 0; j < k; j++)
            m = p[j] - q[j] > m ? p[j] - q[j] : m;
        D[r] = m;
    }
    D[h] = 0.0;
    memset(w->nj, 0, k * sizeof(int64_t));
    for (size_t i = 0; i < w->n; i++) {
        int32_t a = w->lab[i], b = w->second[i];
        if (b >= 0) {
            double Dr = D[w->seen[i]], slack = 1e-12 * (fabs(w->third[i]) + 2.0 * P + fabs(Dr)) + 1e-300;
            double ca = w->ctop[2 * i], cb = w->ctop[2 * i + 1], ra = ca - p[a], rb = cb - p[b];
            if ((ra > rb ? ra : rb) < w->third[i] - Dr - slack) {
                bool swap = rb < ra || (rb == ra && b < a);
                int32_t j1 = swap ? b : a, j2 = swap ? a : b;
                double r1 = swap ? rb : ra, r2 = swap ? ra : rb;
                w->lab[i] = j1;
                w->second[i] = j2;
                w->ctop[2 * i] = swap ? cb : ca;
                w->ctop[2 * i + 1] = swap ? ca : cb;
                w->margin[i] = r2 - r1 + 0.0;
                w->nj[j1]++;
                continue;
            }
        }
        w->third[i] = scan_row(w, i, p);
        w->seen[i] = (uint8_t)h;
        w->nj[w->lab[i]]++;
    }
    ckm_dist_sum_i64(w->c, w->nj, k);
}

static int64_t excess(const ds *w)
{
    int64_t E = 0;
    for (size_t j = 0; j < w->k; j++) {
        int64_t lo = (int64_t)w->p->lo[j], hi = (int64_t)w->p->hi[j];
        E += w->nj[j] > hi ? w->nj[j] - hi : w->nj[j] < lo ? lo - w->nj[j] : 0;
    }
    return E;
}

/* Prices from a sample of rows (header, 2.). */
static ckm_error sample_prices(ds *w, const double *C, ckm_err *err)
{
    const ckm_mpi_problem *p = w->p;
    size_t k = w->k, d = p->d, N = p->N;
    size_t S = (size_t)1 << 21;
    S = S / k > 4096 ? S / k : 4096;
    if (S > 16384)
        S = 16384;
    if (S > N)
        S = N;
    size_t *t = ckm_alloc_array(S, sizeof(size_t)), *lo = ckm_alloc_array(k, sizeof(size_t)),
           *hi = ckm_alloc_array(k, sizeof(size_t));
    double *Y = ckm_alloc_array(S * d, sizeof(double)), *cs = ckm_alloc_array(S * k, sizeof(double));
    int32_t *sl = ckm_alloc_array(S, sizeof(int32_t));
    ckm_error rc = t && lo && hi && Y && cs && sl ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for the price sample");
    if ((rc = ckm_dist_agree(w->c->comm, rc, err)) != CKM_OK)
        goto done;
    for (size_t q = 0; q < S; q++)
        t[q] = (size_t)(((ckm_uxint)q * N) / S);
    ckm_dist_fetch_rows(w->c, p, t, S, Y);
    for (size_t j = 0; j < k; j++) {
        lo[j] = (size_t)(((ckm_uxint)p->lo[j] * S) / N);
        size_t h = p->hi[j] >= N ? N : p->hi[j];
        hi[j] = (size_t)(((ckm_uxint)h * S + N - 1) / N);
    }
    int infeasible = 0;
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    rc = ckm_sqdist_matrix(Y, S, d, C, k, cs, 1, err);
    if (rc == CKM_OK)
        rc = ckm_transport_solve(S, k, cs, lo, hi, w->price, sl, &infeasible, &st, err);
    if (rc == CKM_OK && infeasible) /* cannot happen: floor/ceil keep sum lo <= S <= sum hi */
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: the price sample's bounds are infeasible");
    rc = ckm_dist_agree(w->c->comm, rc, err);
    w->c->st->sample_starts++;
done:
    free(t);
    free(lo);
    free(hi);
    free(Y);
    free(cs);
    free(sl);
    return rc;
}

/* (cluster, value) entries of the price refinement, sorted by cluster then value */
typedef struct jv {
    int32_t j;
    double v;
} jv;

static int by_jv(const void *a, const void *b)
{
    const jv *x = a, *y = b;
    if (x->j != y->j)
        return x->j < y->j ? -1 : 1;
    return x->v < y->v ? -1 : x->v > y->v;
}

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Keep of entries E[0..m) only each cluster's want[j] smallest values, sorted by
 * (cluster, value): the global want[j]-th smallest is among the ranks' want[j] smallest.
 * Bucket by cluster, quickselect, sort the kept prefix: O(m + sum want log want). Returns
 * the entries kept. first (k + 1) and cnt (k) are scratch. */
static void qselect(jv *a, size_t m, size_t t)
{
    size_t lo = 0, hi = m; /* a[t] ends as the t-th smallest (0-based): t stays in [lo, hi) */
    while (hi - lo > 1) {
        double pv = a[lo + (hi - lo) / 2].v;
        size_t lt = lo, i = lo, gt = hi; /* three-way: < pv | == pv | > pv */
        while (i < gt) {
            jv tmp = a[i];
            if (tmp.v < pv) {
                a[i++] = a[lt];
                a[lt++] = tmp;
            } else if (tmp.v > pv) {
                a[i] = a[--gt];
                a[gt] = tmp;
            } else {
                i++;
            }
        }
        if (t < lt)
            hi = lt;
        else if (t >= gt)
            lo = gt;
        else
            return;
    }
}

static size_t smallest_per_cluster(jv *E, size_t m, const int64_t *want, size_t k, size_t *first, int64_t *cnt)
{
    memset(cnt, 0, k * sizeof(int64_t));
    for (size_t q = 0; q < m; q++)
        cnt[E[q].j]++;
    first[0] = 0;
    for (size_t j = 0; j < k; j++)
        first[j + 1] = first[j] + (size_t)cnt[j];
    /* in-place bucket placement (cycle sort over the buckets' fill pointers) */
    for (size_t j = 0; j < k; j++)
        cnt[j] = (int64_t)first[j];
    for (size_t j = 0; j < k; j++)
        while ((size_t)cnt[j] < first[j + 1]) {
            jv e = E[cnt[j]];
            if ((size_t)e.j == j) {
                cnt[j]++;
                continue;
            }
            jv *to = &E[cnt[e.j]++];
            E[cnt[j]] = *to;
            *to = e;
        }
    size_t out = 0;
    for (size_t j = 0; j < k; j++) {
        size_t a = first[j], len = first[j + 1] - a, keep = want[j] > 0 ? (size_t)want[j] : 0;
        if (keep > len)
            keep = len;
        if (keep > 0 && keep < len)
            qselect(E + a, len, keep - 1);
        qsort(E + a, keep, sizeof(jv), by_jv);
        memmove(E + out, E + a, keep * sizeof(jv));
        out += keep;
    }
    return out;
}

/* One side of a selection: entries E[0..m) sorted by (cluster, value), want[j] and the
 * answer out[j] per cluster, first (k + 1): where each cluster's entries start. */
typedef struct sel_side {
    const jv *E;
    size_t m;
    const int64_t *want;
    double *out;
    size_t *first;
} sel_side;

/* Bits a selection round resolves: 2^R - 1 cut points per (side, cluster), so that a round's
 * counts, sides * k * (2^R - 1), stay within 2^14 (128 KB), with 1 <= R <= 8. */
static unsigned sel_bits(size_t groups)
{
    unsigned R = 1;
    while (R < 8 && groups * (((size_t)1 << (R + 1)) - 1) <= ((size_t)1 << 14))
        R++;
    return R;
}

/* For every side s and cluster j with want[j] > 0: out[j] = the want[j]-th smallest value
 * (>= 0) among every rank's entries for j (INFINITY when there are fewer). Exact: a search
 * on the bit patterns of non-negative doubles (ordered like the values) for the least v
 * with count(<= v) >= want, keeping count(<= lo - 1) < want <= count(<= hi); a round cuts
 * every open interval at 2^R - 1 points and counts the entries up to each (binary search in
 * the sorted entries), ONE reduction for every side and cluster together; about 64 / R
 * rounds. The same answer as bisection (64 rounds of one reduction per side), in fewer
 * collectives: each is a wait for the slowest rank. lo, hi: sides * k; cnt: sides * k *
 * (2^R - 1). */
static void select_kth(ds *w, sel_side *S, size_t sides, unsigned R, uint64_t *lo, uint64_t *hi, int64_t *cnt)
{
    size_t k = w->k, G = sides * k, B = (size_t)1 << R;
    for (size_t s = 0; s < sides; s++)
        for (size_t j = 0, at = 0; j <= k; j++) {
            while (at < S[s].m && (size_t)S[s].E[at].j < j)
                at++;
            S[s].first[j] = at;
        }
    for (size_t g = 0; g < G; g++) {
        lo[g] = 0;
        hi[g] = bits_of(INFINITY);
    }
    /* cut b (1 <= b < B) of the open interval [lo, hi]: in [lo, hi), rising with b */
#define CUT(g, b) (lo[g] + (uint64_t)((ckm_u128)(hi[g] - lo[g]) * (b) / B))
    for (int round = 0; round < 64; round++) {
        memset(cnt, 0, G * (B - 1) * sizeof(int64_t));
        for (size_t g = 0; g < G; g++) {
            const sel_side *sd = &S[g / k];
            size_t j = g % k;
            if (sd->want[j] <= 0 || lo[g] >= hi[g])
                continue;
            for (size_t b = 1; b < B; b++) {
                uint64_t cut = CUT(g, b);
                size_t a = sd->first[j], e = sd->first[j + 1]; /* entries <= cut */
                while (a < e) {
                    size_t c = a + (e - a) / 2;
                    if (bits_of(sd->E[c].v) <= cut)
                        a = c + 1;
                    else
                        e = c;
                }
                cnt[g * (B - 1) + b - 1] = (int64_t)(a - sd->first[j]);
            }
        }
        ckm_dist_sum_i64(w->c, cnt, G * (B - 1));
        bool open = false;
        for (size_t g = 0; g < G; g++) {
            const sel_side *sd = &S[g / k];
            size_t j = g % k;
            if (sd->want[j] <= 0 || lo[g] >= hi[g])
                continue;
            size_t b = 1;
            while (b < B && cnt[g * (B - 1) + b - 1] < sd->want[j])
                b++;
            /* b: the first cut holding want entries (B: none, the answer lies above the last) */
            uint64_t nlo = b > 1 ? CUT(g, b - 1) + 1 : lo[g], nhi = b < B ? CUT(g, b) : hi[g];
            lo[g] = nlo;
            hi[g] = nhi;
            open = open || lo[g] < hi[g];
        }
        if (!open)
            break;
    }
#undef CUT
    for (size_t g = 0; g < G; g++) {
        const sel_side *sd = &S[g / k];
        double v;
        memcpy(&v, &hi[g], sizeof v);
        sd->out[g % k] = sd->want[g % k] > 0 ? v : 0.0;
    }
}

/* Price refinement before the shortest paths (header, 3.): rounds of one simultaneous
 * (Jacobi) update per cluster, from each row's best and second-best clusters j1, j2 and
 * margin m = (c_ij2 - p_j2) - (c_ij1 - p_j1): a cluster x rows over its maximum lowers its
 * price past the ceil(s x)-th smallest margin of its rows; a cluster y rows under its
 * minimum raises its price past the ceil(s y)-th smallest margin of the rows whose second
 * best it is (s <= 1/2: a row moving between the two answers both moves).
 * Rows have other options than these two, and the updates interact, so the excess falls
 * but rarely to 0. A round that does not lower the excess is undone and the share of the
 * gaps aimed at is halved (1/2 at first, grown back by 3/2 after a good round); the rounds
 * stop after three that each cut less than 10 %, at a share under 1/64, or at 40 rounds. A
 * stop request on any rank (polled every round) ends the step unfinished. A heuristic start only: the shortest paths finish
 * exactly and the certificate checks the result. Entries: 2 per row (16 n bytes). */
static ckm_error refine_prices(ds *w, ckm_status *stopped, ckm_err *err)
{
    size_t n = w->n, k = w->k;
    jv *ex = ckm_alloc_array(n ? n : 1, sizeof(jv)), *at = ckm_alloc_array(n ? n : 1, sizeof(jv));
    unsigned R = sel_bits(2 * k);
    size_t counts = 2 * k * (((size_t)1 << R) - 1); /* >= k: also smallest_per_cluster's scratch */
    int64_t *x = ckm_alloc_array(k, sizeof(int64_t)), *y = ckm_alloc_array(k, sizeof(int64_t)),
            *cnt = ckm_alloc_array(counts, sizeof(int64_t));
    double *tx = ckm_alloc_array(k, sizeof(double)), *ty = ckm_alloc_array(k, sizeof(double)),
           *keep = ckm_alloc_array(k, sizeof(double));
    uint64_t *lo = ckm_alloc_array(2 * k, sizeof(uint64_t)), *hi = ckm_alloc_array(2 * k, sizeof(uint64_t));
    size_t *first = ckm_alloc_array(k + 1, sizeof(size_t)), *first2 = ckm_alloc_array(k + 1, sizeof(size_t));
    ckm_error rc = ex && at && x && y && cnt && tx && ty && keep && lo && hi && first && first2
                       ? CKM_OK
                       : ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory refining prices");
    if ((rc = ckm_dist_agree(w->c->comm, rc, err)) != CKM_OK)
        goto done;
    int64_t E = excess(w);
    /* the share of each gap a round aims at: 1/2 (a row moving from an over-full to an
       under-full cluster answers both clusters' moves; full gaps overshoot: 10^6 x 16,
       k = 100, excess 60638 -> 348842 in one round); halved after a round that made the
       excess worse (undone), grown back by 3/2 after one that cut it */
    double frac = 0.5;
    int slow = 0;
    for (int round = 0; round < 40 && E > 0 && frac >= 1.0 / 64; round++) {
        if ((*stopped = ckm_dist_stop(w->c)) != CKM_STATUS_FEASIBLE)
            break; /* every rank alike: the step ends unfinished */
        for (size_t j = 0; j < k; j++) {
            int64_t lj = (int64_t)w->p->lo[j], hj = (int64_t)w->p->hi[j];
            x[j] = w->nj[j] > hj ? (int64_t)ceil(frac * (double)(w->nj[j] - hj)) : 0;
            y[j] = w->nj[j] < lj ? (int64_t)ceil(frac * (double)(lj - w->nj[j])) : 0;
        }
        size_t mx = 0, my = 0;
        for (size_t i = 0; i < n; i++) {
            if (w->second[i] < 0)
                continue;
            size_t j1 = (size_t)w->lab[i], j2 = (size_t)w->second[i];
            double m = w->margin[i] < 0.0 ? 0.0 : w->margin[i];
            if (x[j1] > 0)
                ex[mx++] = (jv){(int32_t)j1, m};
            if (y[j2] > 0)
                at[my++] = (jv){(int32_t)j2, m};
        }
        mx = smallest_per_cluster(ex, mx, x, k, first, cnt);
        my = smallest_per_cluster(at, my, y, k, first, cnt);
        sel_side sides[2] = {{ex, mx, x, tx, first}, {at, my, y, ty, first2}};
        select_kth(w, sides, 2, R, lo, hi, cnt);
        memcpy(keep, w->price, k * sizeof(double));
        for (size_t j = 0; j < k; j++) {
            /* just past the threshold: the x-th (y-th) row switches, the next may not */
            if (x[j] > 0 && isfinite(tx[j]))
                w->price[j] -= tx[j] * (1.0 + 1e-9) + 1e-300;
            else if (y[j] > 0 && isfinite(ty[j]))
                w->price[j] += ty[j] * (1.0 + 1e-9) + 1e-300;
        }
        relabel_moved(w);
        int64_t E2 = excess(w);
        ckm_dist_log(w->c, 3, "sizeflow price refinement round %d: excess %lld -> %lld", round + 1, (long long)E,
                     (long long)E2);
        if (E2 >= E) { /* no better: back to the last prices, a smaller share */
            memcpy(w->price, keep, k * sizeof(double));
            relabel_moved(w);
            frac /= 2.0;
            continue;
        }
        slow = 10 * (E - E2) < E ? slow + 1 : 0; /* three rounds under 10 % each: stop */
        E = E2;
        frac = frac * 1.5 < 0.5 ? frac * 1.5 : 0.5;
        if (slow >= 3)
            break;
    }
done:
    free(ex);
    free(at);
    free(x);
    free(y);
    free(cnt);
    free(tx);
    free(ty);
    free(keep);
    free(lo);
    free(hi);
    free(first);
    free(first2);
    return rc;
}

/* One shortest-path phase (header, 4.): returns the units moved (0 with *fail set: no
 * deficit reachable). The search runs to the end; the potentials move by the distances
 * capped at the farthest deficit reached, D, so every tree path to a deficit is tight;
 * then the tree paths to the deficits, nearest first, carry flow as long as they stay
 * usable: a source with excess left, residual capacity on the overflow arcs, and at most
 * one row leaving each cluster per phase (its planned head row: the rows the reduction
 * named stay where they were until the phase ends). */
/* Dijkstra from the excesses over the reduced costs of the cluster graph (the heads in
 * w->G, the slack node T); w->order[0 .. nt) the deficits in the order it settles them,
 * returns nt (0: no deficit reachable). */
static size_t search(ds *w)
{
    size_t k = w->k, K = w->K, T = k;
    for (size_t v = 0; v < K; v++) {
        w->dist[v] = w->e[v] > 0 ? 0.0 : INFINITY;
        w->pred[v] = -1;
        w->done[v] = 0;
    }
    size_t nt = 0; /* deficits reached, in the order the search settles them */
    for (;;) {
        size_t u = SIZE_MAX;
        for (size_t v = 0; v < K; v++)
            if (!w->done[v] && w->dist[v] < INFINITY && (u == SIZE_MAX || w->dist[v] < w->dist[u]))
                u = v;
        if (u == SIZE_MAX)
            break;
        w->done[u] = 1;
        if (w->e[u] < 0)
            w->order[nt++] = (int)u;
        double du = w->dist[u];
        if (u < T) {
            for (size_t b = 0; b < k; b++) {
                double key = w->G[u * k + b].v;
                if (b == u || w->done[b] || !(key < INFINITY))
                    continue;
                double rc = key + w->pi[u] - w->pi[b];
                if (rc < 0.0)
                    rc = 0.0; /* rounding */
                if (du + rc < w->dist[b]) {
                    w->dist[b] = du + rc;
                    w->pred[b] = (int)u;
                }
            }
            if (w->f[u] < w->cap[u] && !w->done[T]) {
                double rc = w->pi[u] - w->pi[T];
                rc = rc < 0.0 ? 0.0 : rc;
                if (du + rc < w->dist[T]) {
                    w->dist[T] = du + rc;
                    w->pred[T] = (int)u;
                }
            }
        } else {
            for (size_t j = 0; j < k; j++) {
                if (w->done[j] || w->f[j] <= 0)
                    continue;
                double rc = w->pi[T] - w->pi[j];
                rc = rc < 0.0 ? 0.0 : rc;
                if (du + rc < w->dist[j]) {
                    w->dist[j] = du + rc;
                    w->pred[j] = (int)T;
                }
            }
        }
    }
    return nt;
}

/* Along the shortest paths to the settled deficits, in order: as much as the path's
 * capacities allow (one unit where a path moves a point), no point moved twice in a phase;
 * the point moves are planned into w->mv (*moves of them), the flows updated. Returns the
 * units sent. */
static int64_t augment(ds *w, size_t nt, size_t *moves_out)
{
    size_t k = w->k, T = k;
    memset(w->left, 0, k * sizeof(char));
    size_t moves = 0;
    int64_t total = 0;
    for (size_t q = 0; q < nt; q++) {
        size_t tgt = (size_t)w->order[q], src = tgt;
        int64_t amt = -w->e[tgt];
        bool points = false, usable = true;
        for (size_t v = tgt; w->pred[v] >= 0 && usable; v = (size_t)w->pred[v]) {
            size_t u = (size_t)w->pred[v];
            if (u < T && v < T) {
                usable = !w->left[u];
                points = true;
            } else if (v == T) {
                amt = amt < w->cap[u] - w->f[u] ? amt : w->cap[u] - w->f[u];
            } else {
                amt = amt < w->f[v] ? amt : w->f[v];
            }
            src = u;
        }
        amt = amt < w->e[src] ? amt : w->e[src];
        if (points && amt > 1)
            amt = 1;
        if (!usable || amt <= 0)
            continue;
        for (size_t v = tgt; w->pred[v] >= 0; v = (size_t)w->pred[v]) {
            size_t u = (size_t)w->pred[v];
            if (u < T && v < T) {
                const ckm_dist_loc *g = &w->G[u * k + v];
                int64_t *m = w->mv + 4 * moves++;
                m[0] = (int64_t)u;
                m[1] = (int64_t)v;
                m[2] = g->rank;
                m[3] = g->rank == w->c->rank ? w->plan[u * k + v] : -1;
                w->left[u] = 1;
                w->nj[u]--;
                w->nj[v]++;
            } else if (v == T) {
                w->f[u] += amt;
            } else {
                w->f[v] -= amt;
            }
        }
        w->e[src] -= amt;
        w->e[tgt] += amt;
        total += amt;
    }
    *moves_out = moves;
    return total;
}

static int64_t phase(ds *w, int *fail)
{
    size_t k = w->k, K = w->K, T = k;
    for (size_t a = 0; a < k; a++)
        for (size_t b = 0; b < k; b++) {
            if (a == b) {
                w->G[a * k + b] = (ckm_dist_loc){INFINITY, w->c->rank};
                w->plan[a * k + b] = -1;
            } else
                w->G[a * k + b] = head_of(w, a, b, &w->plan[a * k + b]);
        }
    ckm_dist_minloc(w->c, w->G, k * k);
    w->c->st->ssp_phases++;
    size_t nt = search(w);
    if (nt == 0) {
        *fail = 1;
        return 0;
    }
    double D = w->dist[w->order[nt - 1]];
    for (size_t v = 0; v < K; v++)
        w->pi[v] += w->dist[v] < D ? w->dist[v] : D;
    size_t moves;
    int64_t total = augment(w, nt, &moves);
    /* the moved rows change clusters on their ranks (after every path was planned) */
    for (size_t q = 0; q < moves; q++) {
        const int64_t *m = w->mv + 4 * q;
        if (m[2] == w->c->rank) {
            int32_t i = (int32_t)m[3];
            drop(w, (size_t)m[0], i);
            push(w, (size_t)m[1], i);
            w->lab[i] = (int32_t)m[1];
            leave(w, (size_t)m[0], i);
            join(w, (size_t)m[1], i);
        }
    }
    for (size_t j = 0; j < k; j++)
        w->e[j] = w->nj[j] - (int64_t)w->p->lo[j] - w->f[j];
    int64_t sf = 0, slo = 0;
    for (size_t j = 0; j < k; j++) {
        sf += w->f[j];
        slo += (int64_t)w->p->lo[j];
    }
    w->e[T] = sf - ((int64_t)w->p->N - slo);
    w->c->st->augmentations += (size_t)total;
    return total;
}

/* The certificate (header, 5.): returns the number of failed checks (global). */
static int64_t certify(ds *w, const double *C, const double *xnorm)
{
    const ckm_mpi_problem *p = w->p;
    size_t k = w->k, d = p->d;
    double m[2] = {0.0, 0.0};
    for (size_t i = 0; i < w->n; i++)
        m[0] = xnorm[i] > m[0] ? xnorm[i] : m[0];
    for (size_t j = 0; j < k; j++) {
        double cn = 0.0;
        for (size_t f = 0; f < d; f++)
            cn += C[j * d + f] * C[j * d + f];
        m[1] = cn > m[1] ? cn : m[1];
    }
    ckm_dist_max(w->c, m, 2);
    double pmax = 0.0;
    for (size_t j = 0; j < k; j++)
        pmax = fabs(w->price[j]) > pmax ? fabs(w->price[j]) : pmax;
    double tol = 1e-10 * (m[0] + m[1] + pmax);
    int64_t bad[2] = {0, 0}; /* [0] rows not at an argmin, [1] unused (sizes are global) */
    for (size_t i = 0; i < w->n; i++) {
        const double *ci = w->cost + i * k;
        double mine = ci[w->lab[i]] - w->price[w->lab[i]], best = INFINITY;
        for (size_t j = 0; j < k; j++)
            best = ci[j] - w->price[j] < best ? ci[j] - w->price[j] : best;
        bad[0] += mine > best + tol;
    }
    memset(w->nj, 0, k * sizeof(int64_t));
    for (size_t i = 0; i < w->n; i++)
        w->nj[w->lab[i]]++;
    ckm_dist_sum_i64(w->c, w->nj, k);
    ckm_dist_sum_i64(w->c, bad, 1);
    for (size_t j = 0; j < k; j++) {
        int64_t lo = (int64_t)p->lo[j], hi = (int64_t)p->hi[j];
        bad[1] += w->nj[j] < lo || w->nj[j] > hi;
        bad[1] += (w->price[j] > tol && w->nj[j] != lo) || (w->price[j] < -tol && w->nj[j] != hi);
    }
    return bad[0] + bad[1];
}

/* The exact assignment to centers C, warm from w->price (header, 1.-5.). */
static ckm_error assign_step(ds *w, const double *C, const double *xnorm, bool cold, ckm_status *stopped,
                             ckm_err *err)
{
    *stopped = CKM_STATUS_FEASIBLE;
    const ckm_mpi_problem *p = w->p;
    size_t n = w->n, k = w->k, d = p->d, T = k;
    ckm_error rc = CKM_OK;
    if (n > 0)
        rc = ckm_sqdist_matrix(p->X, n, d, C, k, w->cost, 1, err);
    if ((rc = ckm_dist_agree(w->c->comm, rc, err)) != CKM_OK)
        return rc;
    relabel(w);
    int64_t E = excess(w), far = (int64_t)p->N / 1000 > 64 ? (int64_t)p->N / 1000 : 64, E1 = -1, E2;
    if (cold)
        w->sample_rest = 0;
    if (E > far && w->sample_rest > 0)
        w->sample_rest--;
    else if (E > far) { /* far off: a sample's prices, kept if they do better; after they lost
                           to the last step's, the next 7 steps go without (10^6 x 16,
                           k = 100, overlapping: they lost from the third step on, and each
                           try costs two full relabels) */
        memcpy(w->keep, w->price, k * sizeof(double));
        if ((rc = sample_prices(w, C, err)) != CKM_OK)
            return rc;
        relabel(w);
        E1 = excess(w);
        if (E1 > E && !cold) {
            memcpy(w->price, w->keep, k * sizeof(double));
            relabel(w);
            w->sample_rest = 7;
        }
    }
    if ((rc = refine_prices(w, stopped, err)) != CKM_OK || *stopped != CKM_STATUS_FEASIBLE)
        return rc;
    E2 = excess(w);
    ckm_dist_log(w->c, 2, "sizeflow step: excess %lld under the previous prices, %lld under a sample's, %lld refined",
                 (long long)E, (long long)E1, (long long)E2);
    /* potentials and flows consistent with the prices: every residual arc non-negative */
    int64_t sf = 0, slo = 0;
    for (size_t j = 0; j < k; j++) {
        int64_t lo = (int64_t)p->lo[j], hi = (int64_t)p->hi[j];
        w->pi[j] = w->price[j];
        w->cap[j] = hi - lo;
        int64_t want = w->nj[j] - lo;
        want = want < 0 ? 0 : want > w->cap[j] ? w->cap[j] : want;
        w->f[j] = w->price[j] > 0.0 ? 0 : w->price[j] < 0.0 ? w->cap[j] : want;
        w->e[j] = w->nj[j] - lo - w->f[j];
        sf += w->f[j];
        slo += lo;
    }
    w->pi[T] = 0.0;
    w->e[T] = sf - ((int64_t)p->N - slo);
    /* member lists (rows in descending order: push prepends) and heads */
    for (size_t j = 0; j < k; j++)
        w->head[j] = -1;
    for (size_t i = n; i-- > 0;)
        push(w, (size_t)w->lab[i], (int32_t)i);
    for (size_t j = 0; j < k; j++)
        rebuild(w, j, 0, k);
    for (size_t ph = 1;; ph++) {
        bool left = false;
        for (size_t v = 0; v <= T && !left; v++)
            left = w->e[v] != 0;
        if (!left)
            break;
        int fail = 0;
        phase(w, &fail);
        if (fail)
            return ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: no augmenting path reaches a deficit (bounds %s)",
                            "checked feasible");
        /* a stop anywhere ends the step within 64 phases; its labels are unusable, the
           last complete step's stand */
        if (ph % 64 == 0 && (*stopped = ckm_dist_stop(w->c)) != CKM_STATUS_FEASIBLE)
            return CKM_OK;
    }
    for (size_t j = 0; j < k; j++)
        w->price[j] = w->pi[j] - w->pi[T];
    int64_t bad = certify(w, C, xnorm);
    if (bad != 0)
        return ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: the step's dual certificate failed %lld checks",
                        (long long)bad);
    return CKM_OK;
}

/* The step's arrays (n rows of this rank, k clusters): false when one could not be had
 * (ds_free frees whatever was). */
static bool ds_alloc(ds *w)
{
    size_t n = w->n, k = w->k, K = w->K, m = n ? n : 1, nk;
    w->cost = ckm_mul_ok(m, k, &nk) ? ckm_alloc_array(nk, sizeof(double)) : NULL;
    w->lab = ckm_alloc_array(m, sizeof(int32_t));
    w->nxt = ckm_alloc_array(m, sizeof(int32_t));
    w->prv = ckm_alloc_array(m, sizeof(int32_t));
    w->head = ckm_alloc_array(k, sizeof(int32_t));
    /* list length: 32, fewer for large k (at most 2^24 entries in all), at least 2; a
       longer list empties (and rescans its cluster) less often: 10^6 x 16, k = 100 */
    w->L = (size_t)1 << 24;
    w->L = w->L / (k * k) > 32 ? 32 : w->L / (k * k) < 2 ? 2 : w->L / (k * k);
    w->lk = ckm_alloc_array(k * k * w->L, sizeof(double));
    w->lr = ckm_alloc_array(k * k * w->L, sizeof(int32_t));
    w->tk = ckm_alloc_array(k * k, sizeof(double));
    w->tr = ckm_alloc_array(k * k, sizeof(int32_t));
    w->len = ckm_alloc_array(k * k, sizeof(uint8_t));
    w->plan = ckm_alloc_array(k * k, sizeof(int32_t));
    w->G = ckm_alloc_array(k * k, sizeof(ckm_dist_loc));
    w->pi = ckm_alloc_array(K, sizeof(double));
    w->dist = ckm_alloc_array(K, sizeof(double));
    w->pred = ckm_alloc_array(K, sizeof(int));
    w->done = ckm_alloc_array(K, sizeof(int));
    w->order = ckm_alloc_array(K, sizeof(int));
    w->left = ckm_alloc_array(k, sizeof(char));
    w->nj = ckm_alloc_array(k, sizeof(int64_t));
    w->f = ckm_alloc_array(k, sizeof(int64_t));
    w->cap = ckm_alloc_array(k, sizeof(int64_t));
    w->e = ckm_alloc_array(K, sizeof(int64_t));
    w->mv = ckm_alloc_array(4 * K, sizeof(int64_t));
    w->price = ckm_calloc_array(k, sizeof(double));
    w->keep = ckm_alloc_array(k, sizeof(double));
    w->margin = ckm_alloc_array(m, sizeof(double));
    w->second = ckm_alloc_array(m, sizeof(int32_t));
    w->third = ckm_alloc_array(m, sizeof(double));
    w->seen = ckm_alloc_array(m, sizeof(uint8_t));
    w->ctop = ckm_alloc_array(2 * m, sizeof(double));
    w->hist = ckm_alloc_array(SNAPS * k, sizeof(double));
    return w->cost && w->lab && w->nxt && w->prv && w->head && w->lk && w->lr && w->tk && w->tr && w->len &&
           w->plan && w->G && w->pi && w->dist && w->pred && w->done && w->order && w->left && w->nj && w->f &&
           w->cap && w->e && w->mv && w->price && w->keep && w->margin && w->second && w->third && w->seen &&
           w->hist && w->ctop;
}

static void ds_free(ds *w)
{
    void *arrays[] = {w->cost, w->lab, w->nxt, w->prv, w->head, w->lk, w->lr, w->tk, w->tr, w->len, w->plan, w->G,
                      w->pi, w->dist, w->pred, w->done, w->order, w->left, w->nj, w->f, w->cap, w->e, w->mv,
                      w->price, w->keep, w->margin, w->second, w->third, w->seen, w->hist, w->ctop};
    for (size_t q = 0; q < sizeof arrays / sizeof arrays[0]; q++)
        free(arrays[q]);
}

ckm_error ckm_dist_sizeflow(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err)
{
    const ckm_settings *set = c->set;
    size_t n = p->n, d = p->d, k = p->k, m = n ? n : 1, K = k + 1;
    ds w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.p = p;
    w.n = n;
    w.k = k;
    w.K = K;
    double *xnorm = ckm_alloc_array(m, sizeof(double)), *C = ckm_alloc_array(k * d, sizeof(double)),
           *C0 = ckm_alloc_array(k * d + 4 * k, sizeof(double)), *mu = ckm_alloc_array(d, sizeof(double));
    int32_t *prev = ckm_alloc_array(m, sizeof(int32_t));
    int64_t *count = ckm_alloc_array(k + 1, sizeof(int64_t));
    ckm_xint *xs = ckm_alloc_array(k * d + k + d + 1, sizeof(ckm_xint));
    double *cert = ckm_alloc_array(k, sizeof(double)); /* the last complete step's prices */
    ckm_error rc = CKM_OK;
    if (!ds_alloc(&w) || !xnorm || !C || !C0 || !mu || !prev || !count || !xs || !cert)
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for %zu rows x %zu clusters (%.0f MB of costs)", n,
                      k, (double)n * (double)k * 8.0 / 1048576.0);
    if ((rc = ckm_dist_agree(c->comm, rc, err)) != CKM_OK)
        goto done;
    ckm_row_norms(p->X, n, d, xnorm);
    double tol = ckm_dist_shift_tol(c, p, set->tol, xs, mu);
    int max_iter = c->max_iter;
    int n_init = set->init_centers ? 1 : set->n_init;
    double best = INFINITY;
    ckm_status why = CKM_STATUS_FEASIBLE;
    out->status = CKM_STATUS_FEASIBLE;
    size_t steps = 0;
    for (int rs = 0; rs < n_init && why == CKM_STATUS_FEASIBLE; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        if ((rc = ckm_dist_seed(c, p, set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP, &rng, C,
                                err)) != CKM_OK)
            goto done;
        if (!set->init_centers)
            ckm_dist_order_by_size(c, p, C, count, C0);
        memset(w.price, 0, k * sizeof(double));
        bool have = false;
        int taken = 0;
        for (int it = 0; it < max_iter; it++) {
            if ((why = ckm_dist_stop(c)) != CKM_STATUS_FEASIBLE)
                break;
            if ((rc = assign_step(&w, C, xnorm, it == 0, &why, err)) != CKM_OK)
                goto done;
            if (why != CKM_STATUS_FEASIBLE)
                break; /* stopped inside the step: the previous labels (prev) stand */
            memcpy(cert, w.price, k * sizeof(double)); /* this step's certificate */
            steps++;
            taken++;
            c->st->lloyd_steps++;
            int64_t changed = 0;
            for (size_t i = 0; i < n; i++)
                changed += !have || w.lab[i] != prev[i];
            ckm_dist_sum_i64(c, &changed, 1);
            memcpy(prev, w.lab, n * sizeof(int32_t));
            have = true;
            memcpy(C0, C, k * d * sizeof(double));
            ckm_dist_means(c, p, w.lab, C, count, xs);
            double shift = 0.0;
            for (size_t j = 0; j < k; j++)
                shift += ckm_sqdist(C + j * d, C0 + j * d, d);
            ckm_dist_log(c, 2, "sizeflow restart %d iter %d: %lld labels changed, center shift %.3g (tolerance %.3g)",
                         rs + 1, it + 1, (long long)changed, shift, tol);
            if (changed == 0 || shift <= tol)
                break;
        }
        if (!have)
            continue;
        double sse = ckm_dist_sse(c, p, prev, C);
        ckm_dist_log(c, 1, "sizeflow restart %d/%d: SSE %.10g after %d steps (%.2f s)", rs + 1, n_init, sse, taken,
                     ckm_now() - c->start);
        out->restarts = rs + 1;
        if (sse < best) {
            best = sse;
            memcpy(out->labels, prev, n * sizeof(int32_t));
            memcpy(out->centers, C, k * d * sizeof(double));
            memcpy(out->prices, cert, k * sizeof(double));
            out->iterations = taken;
            out->has_labels = 1;
            out->certificate_rows_checked = p->N;
        }
    }
    if (why != CKM_STATUS_FEASIBLE)
        out->status = why;
    snprintf(out->message, sizeof out->message,
             "%s%zu assignment steps, each certified optimal by its cluster prices (%zu shortest-path phases, %zu "
             "sample starts)",
             ckm_stop_prefix(why),
             steps, c->st->ssp_phases, c->st->sample_starts);
done:
    ds_free(&w);
    free(xnorm);
    free(C);
    free(C0);
    free(mu);
    free(prev);
    free(count);
    free(xs);
    free(cert);
    return rc;
}
