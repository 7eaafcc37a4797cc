/*
 * transport.c -- successive shortest paths (SSP) for the transportation problem of
 * transport.h, on a graph with only k + 1 nodes:
 *   cluster nodes 0..k-1 and an overflow node T = k. Cluster j must absorb lo_j units and
 *   may pass up to cap_j = hi_j - lo_j more to T, which must absorb n - sum lo.
 *   A unit moving from cluster a to b is a point i of a re-labelled b, at cost
 *   c_ib - c_ia; arcs j -> T (f_j < cap_j) and T -> j (f_j > 0) cost 0.
 * Node potentials pi (reduced cost of u -> v: cost + pi_u - pi_v) keep every residual arc
 * non-negative; for points this is "every point sits in an argmin_j (c_ij - pi_j)".
 * Each phase runs one Dijkstra (dense, O(k^2), its selection and row scans four nodes at a
 * time: nearest_open, scan_row) from all nodes with excess at once, or
 * backward from all nodes with a deficit when those are fewer, until all of the other kind
 * are settled (or the rest are out of reach); moves pi by the
 * distances capped at the farthest node of the other kind reached, which makes every tree
 * path to one tight, and augments along as many tree paths as stay usable (phase()).
 * The cheapest point for a -> b, argmin over members i of a of
 * c_ib - c_ia, does not depend on pi. Each pair (a, b) keeps a short sorted candidate list
 * that is complete below a threshold tau (every member of a with key < tau is listed):
 * built by one pass over the costs (point by point, or cluster by cluster on the caller's
 * threads when the lists are large: BUILD_BY_CLUSTER; on candidate arcs each list takes at
 * most BUILD_CAP entries there), a point joining b is inserted where its key is
 * below tau (the list drops its largest entry and lowers tau when full), a point leaving a
 * is removed at once, and only an exhausted list rescans a's members (random accesses into
 * the cost matrix: the expensive case, made rare by the list). The list heads are mirrored
 * in two dense k x k arrays (by row and by column) that the searches read in order.
 * At the end the certificate is p_j = pi_j - pi_T (see transport.h).
 * Warm start: prices from the previous Lloyd iteration make the first argmin labelling
 * nearly balanced, so few augmentations remain; a start far off the bounds gets prices
 * from a sample of the points, then from an auction (ckm_transport_start, auction.c).
 * Memory: the n*k cost matrix (caller's), member lists O(n), candidate lists O(k^2 L),
 * list heads 16 k^2 bytes, all in a workspace (transport_ws.h) that a caller may keep
 * between solves, with the sample's costs (n k / 8) and its own workspace.
 */
#include "auction.h"
#include "core.h"
#include "objective.h"
#include "transport.h"
#include "transport_ws.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Move-list entries (k^2 L) from which the build runs cluster by cluster instead of point by
 * point (candidate arcs only). Measured on overlapping blobs, d = 16, one balanced sizeflow
 * run each, identical labels: 3 x 10^5 points, k = 1000 (L = 16: 1.6 x 10^7 entries, 190 MB)
 * 189 s -> 123 s (a warm step 0.79 -> 0.45 s); on the matrix route at 10^6 x 100 the cluster
 * order was slower (30 -> 47 s: each member's row of the n x k matrix read out of order),
 * so that route keeps point order. */
#define BUILD_BY_CLUSTER ((size_t)1 << 22)
/* Members ahead whose candidate rows that build prefetches (the rows are scattered over n:
 * the first touch of each was most of insert_point's time). 3 x 10^5 points, k = 1000, the
 * first 28 steps: 44.5 -> 40.8 s and 45.6 -> 43.2 s in two rounds. */
#define BUILD_AHEAD 8
/* Entries a move list takes in the build on candidate arcs (then up to L from a rescan, when
 * moves have emptied it): at k = 1000 a pair gets about 15 keys and L = 16, so the build
 * sorted nearly all of them, and a search reads only the head. 10^6 x 16, k = 1000, 25 late
 * Lloyd steps (from the centers of step 100), steps 2-25: 11.1 / 11.8 s with 4, 12.4 / 11.5
 * with 8, 13.8 / 12.3 with L; with 2 the rescans cost more than the build saves (perf: 10 %
 * in cost_of); 3 x 10^5, 60 steps from the start: 41.3 / 44.0 s against 46.2 / 46.3 with L.
 * The same labels in all. */
#define BUILD_CAP 4

/* Move lists: for each pair (a, b), up to L members of a with the smallest key
 * c_ib - c_ia, ascending, complete below tau (every member of a with a key < tau and b
 * among its candidates is listed). L = ckm_transport_list_len: with the matrix
 * min(16, 2^25 / k^2), on candidate arcs min(128, 2^24 / k^2), at least 2 (16 at k = 1000,
 * 2 at k = 4096). */
typedef struct cand_lists {
    size_t L;
    size_t cap;     /* entries a list may hold now: L, or BUILD_CAP while the lists are built */
    double *key;    /* k*k*L */
    int32_t *pt;    /* k*k*L */
    uint8_t *len;   /* k*k */
    double *tau;    /* k*k */
} cand_lists;

typedef struct tp {
    size_t n, k, c;
    const int32_t *cj;              /* n*c candidate clusters per point, ascending; NULL: all k */
    const double *cc;               /* n*c their costs (cj NULL: the n*k cost matrix) */
    int32_t *lab;
    ckm_transport_ws *w;            /* the buffers (transport_ws.h): size, f, cap (k), e, pi
                                       (k + 1), the member lists mem (k) and each point's
                                       place in its list pos (n); head, headT (k*k): the key
                                       at the head of each move list (a, b), at [a*k+b] and
                                       transposed at [b*k+a] (INFINITY: no member of a can
                                       move to b; NAN: exhausted, to be rescanned); the
                                       searches' dist, done, pred, order (nodes of the other
                                       kind reached by a phase, nearest first) and pred_pt
                                       (the point moved on the arc into v, or -1; set after
                                       the search, tree_points), k + 1 */
    cand_lists cand;                /* the move lists, in w's key, pt, len, tau */
    size_t clamped;                 /* reduced costs < 0 (rounding) set to 0 by relax */
    bool building;                  /* initial list build: heads synced afterwards */
} tp;

/* Cost of point i in cluster j, INFINITY when j is not among i's candidates: one scan
 * without branches over the c candidates (a list holds j at most once). A binary search
 * mispredicted at every step: 6 % of a late Lloyd step at 10^6 x 16, k = 1000 from the
 * build, and more once the build fills lists only partly and rescans fill them (BUILD_CAP). */
static double cost_of(const tp *t, size_t i, size_t j)
{
    if (!t->cj)
        return t->cc[i * t->k + j];
    const int32_t *cj = t->cj + i * t->c;
    const double *cc = t->cc + i * t->c;
    double v = INFINITY;
    for (size_t q = 0; q < t->c; q++)
        v = cj[q] == (int32_t)j ? cc[q] : v;
    return v;
}

static bool mem_add(tp *t, size_t a, int32_t i)
{
    ckm_members *m = &t->w->mem[a];
    if (!ckm_transport_ws_members(t->w, a, m->len + 1))
        return false;
    t->w->pos[i] = m->len;
    m->a[m->len++] = i;
    return true;
}

static void mem_remove(tp *t, size_t a, int32_t i)
{
    ckm_members *m = &t->w->mem[a];
    size_t p = t->w->pos[i];
    int32_t last = m->a[--m->len];
    m->a[p] = last;
    t->w->pos[last] = p;
}

static void cand_insert(cand_lists *cl, size_t pair, double key, int32_t i)
{
    size_t L = cl->L;
    double *k = cl->key + pair * L;
    int32_t *pt = cl->pt + pair * L;
    if (!(key < cl->tau[pair]))
        return;
    if (cl->len[pair] == cl->cap) {
        cl->tau[pair] = k[cl->cap - 1]; /* dropped: the list stays complete below it */
        cl->len[pair]--;
        if (!(key < cl->tau[pair]))
            return;
    }
    size_t q = cl->len[pair]++;
    while (q > 0 && k[q - 1] > key) {
        k[q] = k[q - 1];
        pt[q] = pt[q - 1];
        q--;
    }
    k[q] = key;
    pt[q] = i;
}

/* Keep the dense copies of pair's list head current (Dijkstra reads them row by row). */
static void head_sync(tp *t, size_t pair)
{
    const cand_lists *cl = &t->cand;
    if (t->building)
        return; /* synced in one sweep after the lists are built */
    double h = cl->len[pair] ? cl->key[pair * cl->L] : cl->tau[pair] == INFINITY ? INFINITY : NAN;
    t->w->head[pair] = h;
    t->w->headT[(pair % t->k) * t->k + pair / t->k] = h;
}

/* Insert point i (in cluster a) into the lists (a, b) of its other candidates b. A key at
 * or above the list's tau changes nothing, so it is rejected here, inline: the initial
 * build makes n k such tests and, once the lists are full, keeps about L ln(n / (k L)) keys
 * per list (10^6 x 100: 10^8 tests, 10^6 inserts). */
static void insert_point(tp *t, size_t a, int32_t i)
{
    size_t k = t->k;
    const double *tau = t->cand.tau + a * k;
    if (!t->cj) {
        const double *ci = t->cc + (size_t)i * k;
        double ca = ci[a];
        for (size_t b = 0; b < k; b++) {
            double key = ci[b] - ca;
            if (key < tau[b] && b != a) {
                cand_insert(&t->cand, a * k + b, key, i);
                head_sync(t, a * k + b);
            }
        }
        return;
    }
    const int32_t *cj = t->cj + (size_t)i * t->c;
    const double *cc = t->cc + (size_t)i * t->c;
    double ca = cost_of(t, (size_t)i, a);
    for (size_t q = 0; q < t->c; q++) {
        size_t b = (size_t)cj[q];
        double key = cc[q] - ca;
        if (key < tau[b] && b != a) {
            cand_insert(&t->cand, a * k + b, key, i);
            head_sync(t, a * k + b);
        }
    }
}

static void rescan(tp *t, size_t a, size_t b)
{
    size_t pair = a * t->k + b;
    const ckm_members *m = &t->w->mem[a];
    t->cand.len[pair] = 0;
    t->cand.tau[pair] = INFINITY;
    for (size_t q = 0; q < m->len; q++) {
        size_t i = (size_t)m->a[q];
        double cb = cost_of(t, i, b);
        if (cb < INFINITY)
            cand_insert(&t->cand, pair, cb - cost_of(t, i, a), m->a[q]);
    }
    head_sync(t, pair);
}

/* Cheapest member of a to move to b: its key and index, or -1 when none can. */
static int32_t best_move(tp *t, size_t a, size_t b, double *key)
{
    size_t pair = a * t->k + b, L = t->cand.L;
    double *k = t->cand.key + pair * L;
    int32_t *pt = t->cand.pt + pair * L;
    for (int pass = 0; pass < 2; pass++) {
        if (t->cand.len[pair] > 0) { /* every entry is a current member (move_point) */
            *key = k[0];
            return pt[0];
        }
        /* an exhausted list that was never truncated holds every candidate: none left */
        if (t->w->mem[a].len == 0 || t->cand.tau[pair] == INFINITY)
            return -1;
        rescan(t, a, b);
    }
    return -1;
}

/* Remove point i from the move list of pair (order kept); absent when it was dropped. */
static void list_remove(cand_lists *cl, size_t pair, int32_t i)
{
    size_t L = cl->L, len = cl->len[pair];
    double *k = cl->key + pair * L;
    int32_t *pt = cl->pt + pair * L;
    for (size_t q = 0; q < len; q++)
        if (pt[q] == i) {
            memmove(k + q, k + q + 1, (len - q - 1) * sizeof *k);
            memmove(pt + q, pt + q + 1, (len - q - 1) * sizeof *pt);
            cl->len[pair]--;
            return;
        }
}

/* Re-label point i from a to b, keeping member lists and move lists exact: i leaves the
 * lists (a, .) at once, so a list never holds a point that left (no label lookups, which
 * were random accesses into n labels, on the Dijkstra's hot path). */
static bool move_point(tp *t, int32_t i, size_t a, size_t b)
{
    size_t k = t->k;
    if (!t->cj) {
        for (size_t q = 0; q < k; q++)
            if (q != a) {
                list_remove(&t->cand, a * k + q, i);
                head_sync(t, a * k + q);
            }
    } else
        for (size_t q = 0; q < t->c; q++) {
            size_t j = (size_t)t->cj[(size_t)i * t->c + q];
            if (j != a) {
                list_remove(&t->cand, a * k + j, i);
                head_sync(t, a * k + j);
            }
        }
    mem_remove(t, a, i);
    if (!mem_add(t, b, i))
        return false;
    t->lab[i] = (int32_t)b;
    t->w->size[a]--;
    t->w->size[b]++;
    insert_point(t, b, i);
    return true;
}

/* The move lists point by point (O(n c): 0.3-0.4 s at 10^6 x 100 on the matrix route). false:
 * stopped by lim (polled every 2^16 points). */
static bool build_by_point(tp *t, const ckm_bk_limits *lim)
{
    for (size_t i = 0; i < t->n; i++) {
        if ((i & 0xffff) == 0xffff && ckm_bk_limits_reached(lim))
            return false;
        insert_point(t, (size_t)t->lab[i], (int32_t)i);
    }
    return true;
}

/* Every cache line of [p, p + bytes): a row need not start on a line (malloc aligns to 16
 * bytes), so a 64-byte row of candidates spans two lines and 128 bytes of costs three. */
static inline void prefetch_span(const void *p, size_t bytes)
{
    uintptr_t a = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + bytes;
    for (; a < end; a += 64)
        __builtin_prefetch((const void *)a);
}

/* The move lists (a, .) of cluster a from its members, prefetching ahead (members are
 * scattered over n). Touches only row a of the lists (head_sync waits for the build's end),
 * so clusters may be built on different threads. */
static void build_cluster(tp *t, size_t a)
{
    size_t c = t->c;
    const ckm_members *m = &t->w->mem[a];
    for (size_t q = 0; q < m->len; q++) {
        if (q + BUILD_AHEAD < m->len) {
            size_t i = (size_t)m->a[q + BUILD_AHEAD];
            prefetch_span(t->cj + i * c, c * sizeof(int32_t));
            prefetch_span(t->cc + i * c, c * sizeof(double));
        }
        insert_point(t, a, m->a[q]);
    }
}

/* ckm_parallel_for's body: clusters first + [b, e) of a round */
typedef struct build_job {
    tp *t;
    size_t first;
} build_job;

static void build_round(void *ctx, size_t b, size_t e, int tid)
{
    (void)tid;
    const build_job *j = ctx;
    for (size_t a = j->first + b; a < j->first + e; a++)
        build_cluster(j->t, a);
}

/* The move lists cluster by cluster (the build when they are large: BUILD_BY_CLUSTER): the
 * inserts of a's members touch only the lists (a, .), one row of k L entries that stays in
 * cache, where point order sends each insert to a random row of all k^2 L. Each list still
 * receives its keys in point order (a member list is in index order at the build), so the
 * lists, ties included, are those of build_by_point, on any number of threads: the clusters
 * go in rounds of at least 2^16 members, each round's clusters split between the threads
 * (contiguous halves by count), lim polled between rounds (the stop callback is only ever
 * called from the caller's thread). false: stopped by lim. */
static bool build_by_cluster(tp *t, int threads, const ckm_bk_limits *lim)
{
    for (size_t a0 = 0, a1 = 0; a0 < t->k; a0 = a1) {
        size_t members = 0;
        while (a1 < t->k && members < 0xffff)
            members += t->w->mem[a1++].len;
        ckm_parallel_for(threads, a1 - a0, build_round, &(build_job){t, a0}); /* 1 thread: inline */
        if (a1 < t->k && ckm_bk_limits_reached(lim))
            return false;
    }
    return true;
}

/* rc: the arc's reduced cost. The point an arc between clusters moves is its list's head,
 * read once the search is over (tree_points), not here. */
static void relax(tp *t, size_t u, size_t v, double rc)
{
    ckm_transport_ws *w = t->w;
    if (w->gate[v] != 0.0)
        return; /* settled */
    if (rc < 0.0) {
        rc = 0.0; /* rounding only: potentials keep reduced costs >= 0 */
        t->clamped++;
    }
    double dv = w->dist[u] + rc;
    if (dv < w->dist[v]) {
        w->dist[v] = dv;
        w->pred[v] = (int)u;
    }
}

/* Relax the arc of cluster node u to (rev: from) cluster b whose list head has key key:
 * reduced cost key + pi_u - pi_b (rev: key + pi_b - pi_u). */
static void relax_key(tp *t, size_t u, size_t b, double key, bool rev)
{
    const double *pi = t->w->pi;
    relax(t, u, b, rev ? key + pi[b] - pi[u] : key + pi[u] - pi[b]);
}

/* The open node of least distance (the lowest index among equals), SIZE_MAX when every
 * open node is unreached: the least dist_v + gate_v over v < m (gate 0 open, +INFINITY
 * settled; dist >= 0, so an open node's sum is its distance exactly). A vector minimum in
 * four independent lanes of four, then the first block of four holding it: the scalar
 * scan's choice, at k = 1000 about 10x faster with AVX2. */
__attribute__((target_clones("avx2", "default"))) static size_t nearest_open(const double *dist, const double *gate,
                                                                               size_t m)
{
    size_t whole = m - m % 16;
    const ckm_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};
    ckm_v4d lo[4] = {inf, inf, inf, inf};
    for (size_t v = 0; v < whole; v += 16)
        for (int r = 0; r < 4; r++) {
            ckm_v4d x, g;
            memcpy(&x, dist + v + 4 * (size_t)r, sizeof x);
            memcpy(&g, gate + v + 4 * (size_t)r, sizeof g);
            x += g;
            lo[r] = CKM_V4D_PICK(x < lo[r], x, lo[r]);
        }
    lo[0] = CKM_V4D_PICK(lo[1] < lo[0], lo[1], lo[0]);
    lo[2] = CKM_V4D_PICK(lo[3] < lo[2], lo[3], lo[2]);
    lo[0] = CKM_V4D_PICK(lo[2] < lo[0], lo[2], lo[0]);
    double best = INFINITY;
    for (int q = 0; q < 4; q++)
        best = lo[0][q] < best ? lo[0][q] : best;
    for (size_t v = whole; v < m; v++)
        best = dist[v] + gate[v] < best ? dist[v] + gate[v] : best;
    if (!(best < INFINITY))
        return SIZE_MAX;
    const ckm_v4d b4 = {best, best, best, best};
    size_t v = 0;
    for (; v + 4 <= m; v += 4) {
        ckm_v4d x, g;
        memcpy(&x, dist + v, sizeof x);
        memcpy(&g, gate + v, sizeof g);
        ckm_v4l eq = x + g == b4;
        if (eq[0] | eq[1] | eq[2] | eq[3])
            break;
    }
    while (dist[v] + gate[v] != best)
        v++;
    return v;
}

/* Relax the arcs u -> b of cluster node u (forward; rev: the reversed arcs b -> u) from its
 * row of list heads, four clusters at a time: reduced cost rc = key + pi_u - pi_b (rev: key
 * + pi_b - pi_u), clamped at 0 where negative (counted, on open nodes only, as relax does),
 * and dist_b = dist_u + rc where that is less and b is open (gate 0; u itself is settled). A
 * key of INFINITY (no move) never lowers dist_b. The same additions in the same order as
 * relax, so the same bits; every b is independent of the others. An exhausted list (NaN key)
 * needs best_move: *nan is set and the caller relaxes those arcs one by one. */
__attribute__((target_clones("avx2", "default"))) static void scan_row(tp *t, size_t u, const double *row, bool rev,
                                                                         bool *nan)
{
    ckm_transport_ws *w = t->w;
    size_t k = t->k, whole = k - k % 4;
    double *dist = w->dist;
    const double *pi = w->pi, *gates = w->gate;
    int *pred = w->pred;
    const double du = dist[u], piu = pi[u];
    const ckm_v4d zero = {0.0, 0.0, 0.0, 0.0}, du4 = {du, du, du, du}, piu4 = {piu, piu, piu, piu};
    ckm_v4l seen = {0, 0, 0, 0}, negs = {0, 0, 0, 0}; /* negs: minus the clamped lanes */
    for (size_t b = 0; b < whole; b += 4) {
        ckm_v4d key, pib, gate, db;
        memcpy(&key, row + b, sizeof key);
        memcpy(&pib, pi + b, sizeof pib);
        memcpy(&gate, gates + b, sizeof gate);
        memcpy(&db, dist + b, sizeof db);
        ckm_v4l open = gate == zero;
        seen |= open & (key != key);
        ckm_v4d rc = rev ? (key + pib) - piu4 : (key + piu4) - pib;
        ckm_v4l neg = open & (rc < zero);
        negs += neg; /* true lanes are -1 */
        rc = CKM_V4D_PICK(neg, zero, rc);
        ckm_v4d dv = du4 + rc;
        ckm_v4l up = (dv + gate) < db; /* settled: + INFINITY (dist_b <= dist_u there anyway) */
        if (!(up[0] | up[1] | up[2] | up[3]))
            continue;
        for (size_t q = 0; q < 4; q++)
            if (up[q]) {
                dist[b + q] = dv[q];
                pred[b + q] = (int)u;
            }
    }
    size_t clamped = (size_t)-(negs[0] + negs[1] + negs[2] + negs[3]);
    t->clamped += clamped;
    *nan = seen[0] | seen[1] | seen[2] | seen[3];
    for (size_t b = whole; b < k; b++) {
        double key = row[b];
        if (isnan(key)) {
            *nan = *nan || gates[b] == 0.0;
            continue;
        }
        if (b != u && key != INFINITY)
            relax_key(t, u, b, key, rev);
    }
}

/* Residual capacity of the arc x -> y (flow direction) for one more augmentation now, 0 when
 * used up: a point arc carries its one point pt while that point is still in x. */
static long long arc_room(const tp *t, size_t x, size_t y, int32_t pt)
{
    size_t T = t->k;
    if (pt >= 0)
        return t->lab[pt] == (int32_t)x;
    return y == T ? t->w->cap[x] - t->w->f[x] : t->w->f[y];
}

static bool arc_push(tp *t, size_t x, size_t y, int32_t pt, long long delta, ckm_transport_stats *st)
{
    size_t T = t->k;
    if (pt >= 0) {
        st->moves++;
        return move_point(t, pt, x, y);
    }
    if (y == T)
        t->w->f[x] += delta;
    else
        t->w->f[y] -= delta;
    return true;
}

/* pred_pt of a node no tree path has needed yet */
#define UNRESOLVED (-2)

/* The point each arc on the tree paths to the reached nodes of the other kind moves: the
 * head of the arc's move list (forward pred[v] -> v, backward v -> pred[v]), -1 on an arc of
 * the overflow node. Read after the search and before any augmentation moves a point, so it
 * is the head every relaxation of that arc saw: a list is read only while its one cluster
 * node is settled (a rescan then fills it before its arc is relaxed). Reading the head at
 * each relaxation instead (a random read into k^2 L points, at 10^6 x 16, k = 1000 about a
 * third of the searches' row scans) read it for every arc that lowered a distance. */
static void tree_points(tp *t, bool rev, size_t reached)
{
    ckm_transport_ws *w = t->w;
    size_t k = t->k, L = t->cand.L;
    for (size_t q = 0; q < reached; q++)
        for (size_t v = (size_t)w->order[q]; w->pred[v] >= 0 && w->pred_pt[v] == UNRESOLVED;
             v = (size_t)w->pred[v]) {
            size_t x = (size_t)w->pred[v];
            w->pred_pt[v] = v == k || x == k ? -1 : t->cand.pt[(rev ? v * k + x : x * k + v) * L];
        }
}

/* One phase: Dijkstra from every node with excess at once (forward), or backward from every
 * node with a deficit (rev: on reversed arcs, chosen when deficits are the fewer nodes, so
 * that many excesses can reach one deficit), run until every node of the other kind is
 * settled or none is left in reach (O(k^2) at most). Potentials move by
 * min(D_v, Dc) (forward +, backward -), Dc the largest distance of a reached node of the
 * other kind: every tree path becomes tight (zero reduced cost) and every residual arc
 * stays non-negative (D_v <= D_u + w_uv). Then each reached node of the other kind, nearest
 * first, is augmented along its tree path while the path's arcs and both ends last: moving
 * a point i from a to b on a tight arc keeps i's other arcs non-negative
 * (c_ix - c_ib + pi_b - pi_x = (c_ix - c_ia + pi_a - pi_x) - 0 >= 0), so one search serves
 * many augmentations. pred[v]: forward, the node before v; backward, the node after v.
 * Returns the augmentations (0: nothing reachable), -1 on allocation failure. */
static int phase(tp *t, bool rev, ckm_transport_stats *st)
{
    size_t k = t->k, T = k, reached = 0, ends = 0;
    ckm_transport_ws *w = t->w;
    for (size_t v = 0; v <= k; v++) {
        w->dist[v] = (rev ? w->e[v] < 0 : w->e[v] > 0) ? 0.0 : INFINITY;
        w->gate[v] = 0.0;
        w->pred[v] = -1;
        w->pred_pt[v] = UNRESOLVED;
        ends += rev ? w->e[v] > 0 : w->e[v] < 0;
    }
    double Dc = -INFINITY;
    /* until every node of the other kind is settled: the nodes still open then end at a
       distance >= Dc, so the potentials' step min(dist, Dc) is Dc for them either way */
    while (reached < ends) {
        size_t u = nearest_open(w->dist, w->gate, k + 1);
        if (u == SIZE_MAX)
            break;
        w->gate[u] = INFINITY; /* settled */
        if (rev ? w->e[u] > 0 : w->e[u] < 0) {
            w->order[reached++] = (int)u; /* by distance */
            Dc = w->dist[u];
        }
        if (u < k) {
            const double *row = (rev ? w->headT : w->head) + u * k;
            bool nan = false;
            scan_row(t, u, row, rev, &nan);
            for (size_t b = 0; nan && b < k; b++) { /* exhausted lists: rescanned first */
                double key = row[b];
                if (!isnan(key) || w->gate[b] != 0.0)
                    continue;
                if ((rev ? best_move(t, b, u, &key) : best_move(t, u, b, &key)) < 0)
                    continue; /* rescanned: empty */
                relax_key(t, u, b, key, rev);
            }
            if (rev ? w->f[u] > 0 : w->f[u] < w->cap[u]) /* T -> u, u -> T */
                relax(t, u, T, rev ? w->pi[T] - w->pi[u] : w->pi[u] - w->pi[T]);
        } else {
            for (size_t j = 0; j < k; j++)
                if (rev ? w->f[j] < w->cap[j] : w->f[j] > 0) /* j -> T, T -> j */
                    relax(t, T, j, rev ? w->pi[j] - w->pi[T] : w->pi[T] - w->pi[j]);
        }
    }
    st->searches++;
    st->backward += rev;
    if (reached == 0)
        return 0;
    for (size_t v = 0; v <= k; v++)
        w->pi[v] += (rev ? -1.0 : 1.0) * (w->dist[v] < Dc ? w->dist[v] : Dc);
    tree_points(t, rev, reached);
    int augmented = 0;
    for (size_t q = 0; q < reached; q++) {
        size_t leaf = (size_t)w->order[q], v = leaf;
        long long delta = rev ? w->e[leaf] : -w->e[leaf];
        for (; w->pred[v] >= 0; v = (size_t)w->pred[v]) {
            size_t x = (size_t)w->pred[v];
            long long room = rev ? arc_room(t, v, x, w->pred_pt[v]) : arc_room(t, x, v, w->pred_pt[v]);
            delta = room < delta ? room : delta;
        }
        size_t root = v; /* distance 0: an excess (forward) or a deficit (backward) */
        long long have = rev ? -w->e[root] : w->e[root];
        delta = have < delta ? have : delta;
        if (delta <= 0)
            continue;
        for (v = leaf; v != root; v = (size_t)w->pred[v]) {
            size_t x = (size_t)w->pred[v];
            if (!(rev ? arc_push(t, v, x, w->pred_pt[v], delta, st) : arc_push(t, x, v, w->pred_pt[v], delta, st)))
                return -1;
        }
        w->e[rev ? leaf : root] -= delta;
        w->e[rev ? root : leaf] += delta;
        st->augmentations++;
        augmented++;
    }
    return augmented;
}

/* Bounds for a sample of m of the n points, scaled by m / n (floor for minimums, ceil for
 * maximums, capped at m): the sample problem stays feasible when the full one is. */
static void sample_bounds(size_t n, size_t m, size_t k, const size_t *lo, const size_t *hi, size_t *slo, size_t *shi)
{
    double f = (double)m / (double)n;
    for (size_t j = 0; j < k; j++) {
        slo[j] = (size_t)floor((double)lo[j] * f);
        double h = ceil((double)(hi[j] > n ? n : hi[j]) * f);
        shi[j] = h > (double)m ? m : (size_t)h;
        if (shi[j] < slo[j])
            shi[j] = slo[j];
    }
}

/* Poor start on a large instance: solve the problem restricted to every 8th point, with
 * bounds scaled by the same factor (floor / ceil keep it feasible), and use its prices as
 * the warm start. Prices of a sample approximate the full problem's, so the full SSP only
 * has to repair a small imbalance; applied recursively. Only the starting point changes:
 * the result is still exact and certified. */
#define SAMPLE_FROM 20000
#define SAMPLE_STRIDE 8

static ckm_error sample_prices(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                               const ckm_bk_limits *lim, ckm_transport_ws *w, double *price,
                               ckm_transport_stats *st, ckm_err *err)
{
    size_t m = (n + SAMPLE_STRIDE - 1) / SAMPLE_STRIDE;
    if (!w->sub)
        w->sub = ckm_transport_ws_new();
    if (!w->sub || !ckm_transport_ws_array(w, (void **)&w->sc, &w->sc_cap, m * k, sizeof(double)) ||
        !ckm_transport_ws_array(w, (void **)&w->slab, &w->slab_cap, m, sizeof(int32_t)))
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    for (size_t q = 0; q < m; q++)
        memcpy(w->sc + q * k, cost + q * SAMPLE_STRIDE * k, k * sizeof(double));
    sample_bounds(n, m, k, lo, hi, w->slo, w->shi);
    int infeasible = 0;
    ckm_transport_stats sub;
    /* the caller's prices are the sample's warm start */
    ckm_error rc = ckm_transport_solve_lim(m, k, w->sc, w->slo, w->shi, lim, w->sub, price, w->slab, &infeasible, &sub,
                                           err);
    st->stopped = sub.stopped; /* the sample's limits are the caller's (0.5 s at 10^6 x 100) */
    if (rc == CKM_OK && infeasible)
        memset(price, 0, k * sizeof(double)); /* cannot happen (floor/ceil); fall back to a cold start */
    st->augmentations += sub.augmentations;
    st->searches += sub.searches;
    st->backward += sub.backward;
    st->moves += sub.moves;
    st->clamped += sub.clamped;
    st->bids += sub.bids;
    st->auction_phases += sub.auction_phases;
    return rc;
}

size_t ckm_transport_imbalance(size_t n, size_t k, const int32_t *labels, const size_t *lo, const size_t *hi,
                               ckm_transport_ws *ws)
{
    size_t *cnt = ws && ws->cnt && ws->k_cap >= k ? ws->cnt : ckm_alloc_array(k, sizeof(size_t));
    if (!cnt)
        return SIZE_MAX;
    memset(cnt, 0, k * sizeof *cnt);
    for (size_t i = 0; i < n; i++)
        cnt[labels[i]]++;
    size_t off = 0;
    for (size_t j = 0; j < k; j++)
        off += cnt[j] > hi[j] ? cnt[j] - hi[j] : cnt[j] < lo[j] ? lo[j] - cnt[j] : 0;
    if (!ws || cnt != ws->cnt)
        free(cnt);
    return off;
}

/* labels[i] = argmin_j (c_ij - price_j) over the n x k costs, ties to the lower j. */
static void argmin_labels(size_t n, size_t k, const double *cost, const double *price, int32_t *labels)
{
    for (size_t i = 0; i < n; i++) {
        const double *ci = cost + i * k;
        size_t bj = 0;
        double best = ci[0] - price[0];
        for (size_t j = 1; j < k; j++)
            if (ci[j] - price[j] < best) {
                best = ci[j] - price[j];
                bj = j;
            }
        labels[i] = (int32_t)bj;
    }
}

bool ckm_transport_auction_pays(size_t n, size_t k, size_t scan, size_t off)
{
    /* measured at n = 10^6-10^7: a unit of excess (off / 2 of them) costs SSP about k^2 ns
       of search plus its share of list rescans, n scan / (k L) ns (a rescan reads the n / k
       members of a cluster, scan per member, once per L moves of a pair); an auction round
       about as much as a pass over the n x k costs, 4 n k ns. On candidate arcs scan = c
       (a binary search per member; with scan = c^2 the auction ran more often and 10^7 x 100
       took 121 and 109 s for its first two steps, with c 83 and 61 s). On candidate arcs
       the search share is k^2 / 4: the phased searches serve several units each (10^6 x 16,
       k = 1000, warm Lloyd steps: 3838 augmentations in 0.85 s, 0.22 k^2 ns each), and the
       auction there also costs the pass over every row that reused lists would have spared
       (with k^2 the auction ran in warm steps off by 8000-33000 units and took 2-3 times as
       long as SSP alone) */
    double L = (double)ckm_transport_list_len(k, scan > 1), kk = (double)k;
    double unit = (scan > 1 ? 0.25 : 1.0) * kk * kk + (double)n * (double)scan / (kk * L);
    return k > 1 && 0.5 * (double)off * unit > 4.0 * (double)n * kk;
}

ckm_error ckm_transport_start(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                              const ckm_bk_limits *lim, ckm_transport_ws *ws, double *price, int32_t *labels,
                              ckm_transport_stats *st, ckm_err *err)
{
    ckm_transport_ws *own = ws ? NULL : ckm_transport_ws_new(), *w = ws ? ws : own;
    if (!w || !ckm_transport_ws_reserve(w, n, k, ckm_transport_list_len(k, false))) {
        ckm_transport_ws_free(own);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    }
    ckm_error rc = CKM_OK;
    argmin_labels(n, k, cost, price, labels);
    size_t off = ckm_transport_imbalance(n, k, labels, lo, hi, w);
    if (n >= SAMPLE_FROM && k > 1 && off > n / 64) {
        /* a poor start (a cold one, or a warm one after the centers moved a lot): prices
           from a sample first */
        if ((rc = sample_prices(n, k, cost, lo, hi, lim, w, price, st, err)) != CKM_OK || st->stopped)
            goto done;
        argmin_labels(n, k, cost, price, labels);
        off = ckm_transport_imbalance(n, k, labels, lo, hi, w);
    }
    if (ckm_transport_auction_pays(n, k, 1, off)) {
        rc = ckm_transport_auction(n, k, k, NULL, cost, NULL, hi, CKM_AUCTION_EPS0, lim, price, st, err);
        if (rc == CKM_OK && !st->stopped)
            argmin_labels(n, k, cost, price, labels);
    }
done:
    ckm_transport_ws_free(own);
    return rc;
}

ckm_error ckm_transport_solve(size_t n, size_t k, const double *cost, const size_t *lo,
                              const size_t *hi, double *price, int32_t *labels, int *infeasible,
                              ckm_transport_stats *stats, ckm_err *err)
{
    ckm_transport_stats st;
    ckm_error rc = ckm_transport_solve_lim(n, k, cost, lo, hi, NULL, NULL, price, labels, infeasible, &st, err);
    if (stats)
        *stats = st;
    return rc;
}

ckm_error ckm_transport_solve_lim(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                                  const ckm_bk_limits *lim, ckm_transport_ws *ws, double *price, int32_t *labels,
                                  int *infeasible, ckm_transport_stats *stats, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    ckm_error rc = ckm_transport_precheck(n, k, lo, hi, price, infeasible, err);
    if (rc != CKM_OK || *infeasible) {
        if (stats)
            *stats = st;
        return rc;
    }
    ckm_transport_ws *own = ws ? NULL : ckm_transport_ws_new(), *w = ws ? ws : own;
    if (!w)
        rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    if (rc == CKM_OK)
        rc = ckm_transport_start(n, k, cost, lo, hi, lim, w, price, labels, &st, err);
    if (rc == CKM_OK && !st.stopped) {
        int stuck = 0;
        rc = ckm_transport_ssp(n, k, k, NULL, cost, lo, hi, lim, 1, w, price, labels, &st, &stuck, err);
        if (rc == CKM_OK && stuck)
            rc = ckm_fail(err, CKM_ERR_INTERNAL,
                          "transportation solver: no augmenting path although the bounds are feasible");
    }
    ckm_transport_ws_free(own);
    st.seconds = ckm_now() - t0;
    if (stats)
        *stats = st;
    return rc;
}

ckm_error ckm_transport_precheck(size_t n, size_t k, const size_t *lo, const size_t *hi, double *price,
                                 int *infeasible, ckm_err *err)
{
    size_t sum_lo, sum_hi;
    ckm_bound_sums(lo, hi, k, &sum_lo, &sum_hi);
    *infeasible = sum_lo > n || sum_hi < n;
    if (*infeasible)
        return CKM_OK;
    if (n > INT32_MAX)
        return ckm_fail(err, CKM_ERR_INVALID, "transportation solver: n = %zu exceeds 2^31 - 1", n);
    for (size_t j = 0; j < k; j++)
        if (!isfinite(price[j]))
            price[j] = 0.0;
    return CKM_OK;
}


size_t ckm_transport_list_len(size_t k, bool candidates)
{
    /* with the matrix a rescan reads each member's cost directly: short lists (up to 16, at
       most 2^25 entries), cheap to keep sorted. On candidate arcs a rescan searches each
       member's list, so small k gets long lists (measured: 10^6 points, k = 10, 16
       entries: rescans took minutes; 128: 1.0 s), at most 2^24 entries (200 MB) in all.
       (128 on the matrix route slowed 10^6 x 100 balanced from 8.4 to 11.5 s.) */
    size_t kk = k * k > 0 ? k * k : 1, L = ((size_t)1 << (candidates ? 24 : 25)) / kk, top = candidates ? 128 : 16;
    return L < 2 ? 2 : L > top ? top : L;
}

ckm_error ckm_transport_ssp(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const size_t *lo,
                            const size_t *hi, const ckm_bk_limits *lim, int threads, ckm_transport_ws *ws,
                            double *price, int32_t *labels, ckm_transport_stats *st, int *stuck, ckm_err *err)
{
    size_t sum_lo, sum_hi;
    ckm_bound_sums(lo, hi, k, &sum_lo, &sum_hi);
    *stuck = 0;
    ckm_transport_ws *own = ws ? NULL : ckm_transport_ws_new(), *w = ws ? ws : own;
    size_t L = ckm_transport_list_len(k, cj != NULL), kk = k * k;
    if (!w || !ckm_transport_ws_reserve(w, n, k, L)) {
        ckm_transport_ws_free(own);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory (k = %zu)", k);
    }
    tp t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.k = k;
    t.c = cj ? c : k;
    t.cj = cj;
    t.cc = cc;
    t.lab = labels;
    t.w = w;
    t.cand.L = L;
    t.cand.cap = cj && L > BUILD_CAP ? BUILD_CAP : L;
    t.cand.key = w->key;
    t.cand.pt = w->pt;
    t.cand.len = w->len;
    t.cand.tau = w->tau;
    memset(w->size, 0, k * sizeof *w->size);
    for (size_t i = 0; i < n; i++)
        w->size[labels[i]]++;
    for (size_t j = 0; j < k; j++) {
        w->pi[j] = price[j];
        w->cap[j] = (long long)(hi[j] > n ? n : hi[j]) - (long long)lo[j];
        if (w->cap[j] < 0)
            w->cap[j] = 0;
    }
    w->pi[k] = 0.0;
    /* member lists and the move lists, in one pass over the costs */
    memset(t.cand.len, 0, kk);
    for (size_t q = 0; q < kk; q++) {
        t.cand.tau[q] = INFINITY;
        w->head[q] = w->headT[q] = INFINITY;
    }
    for (size_t a = 0; a < k; a++)
        if (!ckm_transport_ws_members(w, a, (size_t)w->size[a] + 1)) {
            ckm_transport_ws_free(own);
            return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
        }
    for (size_t i = 0; i < n; i++)
        mem_add(&t, (size_t)labels[i], (int32_t)i); /* capacity reserved above */
    t.building = true;
    if (!(cj && kk * L >= BUILD_BY_CLUSTER ? build_by_cluster(&t, threads, lim) : build_by_point(&t, lim))) {
        st->stopped = 1; /* a stop in the build leaves nothing usable */
        ckm_transport_ws_free(own);
        return CKM_OK;
    }
    t.building = false;
    t.cand.cap = L;
    for (size_t q = 0; q < kk; q++)
        head_sync(&t, q);
    long long sum_f = 0;
    for (size_t j = 0; j < k; j++) {
        long long over = w->size[j] - (long long)lo[j];
        if (w->pi[j] > w->pi[k])
            w->f[j] = 0;
        else if (w->pi[j] < w->pi[k])
            w->f[j] = w->cap[j];
        else
            w->f[j] = over < 0 ? 0 : over > w->cap[j] ? w->cap[j] : over;
        w->e[j] = over - w->f[j];
        sum_f += w->f[j];
    }
    w->e[k] = sum_f - ((long long)n - (long long)sum_lo);
    ckm_error rc = CKM_OK;
    for (;;) {
        size_t excess = 0, deficit = 0;
        for (size_t v = 0; v <= k; v++) {
            excess += w->e[v] > 0;
            deficit += w->e[v] < 0;
        }
        if (!excess)
            break;
        if (ckm_bk_limits_reached(lim)) { /* a phase is one O(k^2) search */
            st->stopped = 1;
            break;
        }
        int r = phase(&t, deficit < excess, st);
        if (r < 0) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
            break;
        }
        if (r == 0) {
            *stuck = 1;
            break;
        }
    }
    for (size_t j = 0; j < k; j++)
        price[j] = w->pi[j] - w->pi[k];
    st->clamped += t.clamped;
    ckm_transport_ws_free(own);
    return rc;
}

int ckm_transport_verify(size_t n, size_t k, const double *cost, const size_t *lo,
                         const size_t *hi, const double *price, const int32_t *labels, double tol,
                         char *why, size_t why_len)
{
    size_t *size = calloc(k, sizeof *size);
    int ok = size != NULL;
    if (!ok)
        snprintf(why, why_len, "out of memory");
    for (size_t i = 0; i < n && ok; i++) {
        if (labels[i] < 0 || (size_t)labels[i] >= k) {
            snprintf(why, why_len, "label %d of point %zu out of range", (int)labels[i], i);
            ok = 0;
            break;
        }
        size[labels[i]]++;
        const double *ci = cost + i * k;
        double u = ci[labels[i]] - price[labels[i]];
        for (size_t j = 0; j < k && ok; j++)
            if (ci[j] - u - price[j] < -tol) {
                snprintf(why, why_len, "reduced cost of point %zu in cluster %zu is %.3g < 0", i, j,
                         ci[j] - u - price[j]);
                ok = 0;
            }
    }
    for (size_t j = 0; j < k && ok; j++) {
        if (size[j] < lo[j] || size[j] > hi[j]) {
            snprintf(why, why_len, "cluster %zu has %zu points, outside [%zu, %zu]", j, size[j], lo[j], hi[j]);
            ok = 0;
        } else if (price[j] > tol && size[j] != lo[j]) {
            snprintf(why, why_len, "cluster %zu: price %.3g > 0 but size %zu != lo %zu", j, price[j], size[j], lo[j]);
            ok = 0;
        } else if (price[j] < -tol && size[j] != hi[j]) {
            snprintf(why, why_len, "cluster %zu: price %.3g < 0 but size %zu != hi %zu", j, price[j], size[j], hi[j]);
            ok = 0;
        }
    }
    free(size);
    return ok;
}
