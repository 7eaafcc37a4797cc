/*
 * transport.c -- successive shortest paths (SSP) for the transportation problem of
 * transport.h, on a graph with only k + 1 nodes:
 *   cluster nodes 0..k-1 and an overflow node T = k. Cluster j must absorb lo_j units and
 *   may pass up to cap_j = hi_j - lo_j more to T, which must absorb n - sum lo.
 *   A unit moving from cluster a to b is a point i of a re-labelled b, at cost
 *   c_ib - c_ia; arcs j -> T (f_j < cap_j) and T -> j (f_j > 0) cost 0.
 * Node potentials pi (reduced cost of u -> v: cost + pi_u - pi_v) keep every residual arc
 * non-negative; for points this is "every point sits in an argmin_j (c_ij - pi_j)".
 * Each round runs Dijkstra (dense, O(k^2) worst case, stopped at the first node with a
 * deficit) from one node with excess, raises pi_v by min(D_v, D_target), and augments
 * along the path. The cheapest point for a -> b, argmin over members i of a of
 * c_ib - c_ia, does not depend on pi. Each pair (a, b) keeps a short sorted candidate list
 * that is complete below a threshold tau (every member of a with key < tau is listed):
 * built by one pass over the cost matrix, a point joining b is inserted where its key is
 * below tau (the list drops its largest entry and lowers tau when full), a point leaving a
 * is skipped lazily, and only an exhausted list rescans a's members (random accesses into
 * the cost matrix: the expensive case, made rare by the list).
 * At the end the certificate is p_j = pi_j - pi_T (see transport.h).
 * Warm start: prices from the previous Lloyd iteration make the first argmin labelling
 * nearly balanced, so few augmentations remain.
 * Memory: the n*k cost matrix (caller's), member lists O(n), candidate lists O(k^2).
 */
#include "core.h"
#include "transport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct members {
    int32_t *a;
    size_t len, cap;
} members;

/* Move lists: for each pair (a, b), up to L members of a with the smallest key
 * c_ib - c_ia, ascending, complete below tau (every member of a with a key < tau and b
 * among its candidates is listed). L = 16, or fewer for k > 1448 so that the k^2 lists stay
 * within 2^25 entries (k = 4096: L = 2). */
typedef struct cand_lists {
    size_t L;
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
    long long *size, *f, *cap, *e; /* size/f/cap: k; e: k + 1 */
    double *pi;                     /* k + 1 */
    members *mem;                   /* k member lists */
    size_t *pos;                    /* n: index of point i in its member list */
    cand_lists cand;
    double *dist;                   /* k + 1 */
    char *done;                     /* k + 1 */
    int *pred;                      /* k + 1 */
    int32_t *pred_pt;               /* k + 1: point moved on the arc into v, or -1 */
    size_t clamped;                 /* reduced costs < 0 (rounding) set to 0 by relax */
} tp;

/* Cost of point i in cluster j, INFINITY when j is not among i's candidates. */
static double cost_of(const tp *t, size_t i, size_t j)
{
    if (!t->cj)
        return t->cc[i * t->k + j];
    const int32_t *cj = t->cj + i * t->c;
    for (size_t q = 0; q < t->c; q++)
        if ((size_t)cj[q] == j)
            return t->cc[i * t->c + q];
    return INFINITY;
}

static bool mem_add(tp *t, size_t a, int32_t i)
{
    members *m = &t->mem[a];
    if (!ckm_grow((void **)&m->a, &m->cap, m->len + 1, sizeof(int32_t)))
        return false;
    t->pos[i] = m->len;
    m->a[m->len++] = i;
    return true;
}

static void mem_remove(tp *t, size_t a, int32_t i)
{
    members *m = &t->mem[a];
    size_t p = t->pos[i];
    int32_t last = m->a[--m->len];
    m->a[p] = last;
    t->pos[last] = p;
}

static void cand_insert(cand_lists *cl, size_t pair, double key, int32_t i)
{
    size_t L = cl->L;
    double *k = cl->key + pair * L;
    int32_t *pt = cl->pt + pair * L;
    if (!(key < cl->tau[pair]))
        return;
    if (cl->len[pair] == L) {
        cl->tau[pair] = k[L - 1]; /* dropped: the list stays complete below it */
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

/* Insert point i (in cluster a) into the lists (a, b) of its other candidates b. */
static void insert_point(tp *t, size_t a, int32_t i)
{
    size_t k = t->k;
    double ca = cost_of(t, (size_t)i, a);
    if (!t->cj) {
        const double *ci = t->cc + (size_t)i * k;
        for (size_t b = 0; b < k; b++)
            if (b != a)
                cand_insert(&t->cand, a * k + b, ci[b] - ca, i);
        return;
    }
    for (size_t q = 0; q < t->c; q++) {
        size_t b = (size_t)t->cj[(size_t)i * t->c + q];
        if (b != a)
            cand_insert(&t->cand, a * k + b, t->cc[(size_t)i * t->c + q] - ca, i);
    }
}

static void rescan(tp *t, size_t a, size_t b)
{
    size_t pair = a * t->k + b;
    const members *m = &t->mem[a];
    t->cand.len[pair] = 0;
    t->cand.tau[pair] = INFINITY;
    for (size_t q = 0; q < m->len; q++) {
        size_t i = (size_t)m->a[q];
        double cb = cost_of(t, i, b);
        if (cb < INFINITY)
            cand_insert(&t->cand, pair, cb - cost_of(t, i, a), m->a[q]);
    }
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
        if (t->mem[a].len == 0 || t->cand.tau[pair] == INFINITY)
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
            if (q != a)
                list_remove(&t->cand, a * k + q, i);
    } else
        for (size_t q = 0; q < t->c; q++) {
            size_t j = (size_t)t->cj[(size_t)i * t->c + q];
            if (j != a)
                list_remove(&t->cand, a * k + j, i);
        }
    mem_remove(t, a, i);
    if (!mem_add(t, b, i))
        return false;
    t->lab[i] = (int32_t)b;
    t->size[a]--;
    t->size[b]++;
    insert_point(t, b, i);
    return true;
}

static void relax(tp *t, size_t u, size_t v, double w, int32_t pt)
{
    if (t->done[v])
        return;
    if (w < 0.0) {
        w = 0.0; /* rounding only: potentials keep reduced costs >= 0 */
        t->clamped++;
    }
    double dv = t->dist[u] + w;
    if (dv < t->dist[v]) {
        t->dist[v] = dv;
        t->pred[v] = (int)u;
        t->pred_pt[v] = pt;
    }
}

/* One SSP round from source s. Returns 1 on progress, 0 when no deficit is reachable,
 * -1 on allocation failure. */
static int round_from(tp *t, size_t s, ckm_transport_stats *st)
{
    size_t k = t->k, T = k, target = SIZE_MAX;
    for (size_t v = 0; v <= k; v++) {
        t->dist[v] = INFINITY;
        t->done[v] = 0;
        t->pred[v] = -1;
        t->pred_pt[v] = -1;
    }
    t->dist[s] = 0.0;
    for (;;) {
        size_t u = SIZE_MAX;
        double best = INFINITY;
        for (size_t v = 0; v <= k; v++)
            if (!t->done[v] && t->dist[v] < best) {
                best = t->dist[v];
                u = v;
            }
        if (u == SIZE_MAX)
            return 0;
        t->done[u] = 1;
        if (t->e[u] < 0) {
            target = u;
            break;
        }
        if (u < k) {
            for (size_t b = 0; b < k; b++) {
                if (b == u || t->done[b])
                    continue;
                double key;
                int32_t i = best_move(t, u, b, &key);
                if (i >= 0)
                    relax(t, u, b, key + t->pi[u] - t->pi[b], i);
            }
            if (t->f[u] < t->cap[u])
                relax(t, u, T, t->pi[u] - t->pi[T], -1);
        } else {
            for (size_t j = 0; j < k; j++)
                if (t->f[j] > 0)
                    relax(t, T, j, t->pi[T] - t->pi[j], -1);
        }
    }
    double Dt = t->dist[target];
    for (size_t v = 0; v <= k; v++)
        t->pi[v] += t->dist[v] < Dt ? t->dist[v] : Dt;
    /* bottleneck: point arcs carry one unit, overflow arcs their residual capacity */
    long long delta = t->e[s] < -t->e[target] ? t->e[s] : -t->e[target];
    for (size_t v = target; v != s; v = (size_t)t->pred[v]) {
        size_t u = (size_t)t->pred[v];
        if (t->pred_pt[v] >= 0)
            delta = delta < 1 ? delta : 1;
        else if (v == T)
            delta = delta < t->cap[u] - t->f[u] ? delta : t->cap[u] - t->f[u];
        else
            delta = delta < t->f[v] ? delta : t->f[v];
    }
    for (size_t v = target; v != s; v = (size_t)t->pred[v]) {
        size_t u = (size_t)t->pred[v];
        int32_t i = t->pred_pt[v];
        if (i >= 0) {
            if (!move_point(t, i, u, v))
                return -1;
            st->moves++;
        } else if (v == T) {
            t->f[u] += delta;
        } else {
            t->f[v] -= delta;
        }
    }
    t->e[s] -= delta;
    t->e[target] += delta;
    st->augmentations++;
    return 1;
}

static void tp_free(tp *t)
{
    if (t->mem)
        for (size_t a = 0; a < t->k; a++)
            free(t->mem[a].a);
    free(t->mem);
    free(t->pos);
    free(t->cand.key);
    free(t->cand.pt);
    free(t->cand.len);
    free(t->cand.tau);
    free(t->size);
    free(t->f);
    free(t->cap);
    free(t->e);
    free(t->pi);
    free(t->dist);
    free(t->done);
    free(t->pred);
    free(t->pred_pt);
}

/* Poor start on a large instance: solve the problem restricted to every 8th point, with
 * bounds scaled by the same factor (floor / ceil keep it feasible), and use its prices as
 * the warm start. Prices of a sample approximate the full problem's, so the full SSP only
 * has to repair a small imbalance; applied recursively. Only the starting point changes:
 * the result is still exact and certified. */
#define SAMPLE_FROM 20000
#define SAMPLE_STRIDE 8

static ckm_error sample_prices(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                               double *price, ckm_transport_stats *st, ckm_err *err)
{
    size_t m = (n + SAMPLE_STRIDE - 1) / SAMPLE_STRIDE;
    double *sc = ckm_alloc_array(m * k, sizeof(double));
    size_t *slo = ckm_alloc_array(k, sizeof(size_t)), *shi = ckm_alloc_array(k, sizeof(size_t));
    int32_t *slab = ckm_alloc_array(m, sizeof(int32_t));
    ckm_error rc = CKM_OK;
    if (!sc || !slo || !shi || !slab) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
        goto done;
    }
    for (size_t q = 0; q < m; q++)
        memcpy(sc + q * k, cost + q * SAMPLE_STRIDE * k, k * sizeof(double));
    ckm_transport_sample_bounds(n, m, k, lo, hi, slo, shi);
    int infeasible = 0;
    ckm_transport_stats sub;
    /* the caller's prices are the sample's warm start */
    rc = ckm_transport_solve(m, k, sc, slo, shi, price, slab, &infeasible, &sub, err);
    if (rc == CKM_OK && infeasible)
        memset(price, 0, k * sizeof(double)); /* cannot happen (floor/ceil); fall back to a cold start */
    st->augmentations += sub.augmentations;
    st->moves += sub.moves;
    st->clamped += sub.clamped;
done:
    free(sc);
    free(slo);
    free(shi);
    free(slab);
    return rc;
}

/* labels[i] = argmin_j (c_ij - price_j) (ties to the lower j); size[j] = its counts. */
static void argmin_labels(size_t n, size_t k, const double *cost, const double *price, int32_t *labels,
                          long long *size)
{
    memset(size, 0, k * sizeof(long long));
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
        size[bj]++;
    }
}

ckm_error ckm_transport_solve(size_t n, size_t k, const double *cost, const size_t *lo,
                              const size_t *hi, double *price, int32_t *labels, int *infeasible,
                              ckm_transport_stats *stats, ckm_err *err)
{
    ckm_transport_stats st;
    ckm_error rc = ckm_transport_solve_lim(n, k, cost, lo, hi, NULL, price, labels, infeasible, &st, err);
    if (stats)
        *stats = st;
    return rc;
}

ckm_error ckm_transport_solve_lim(size_t n, size_t k, const double *cost, const size_t *lo, const size_t *hi,
                                  const ckm_bk_limits *lim, double *price, int32_t *labels, int *infeasible,
                                  ckm_transport_stats *stats, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    ckm_error pre = ckm_transport_precheck(n, k, lo, hi, price, infeasible, err);
    if (pre != CKM_OK || *infeasible) {
        if (stats)
            *stats = st;
        return pre;
    }
    long long *cnt = ckm_alloc_array(k, sizeof(long long));
    if (!cnt)
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
    bool labelled = false; /* labels/cnt hold the argmin under the current prices */
    if (n >= SAMPLE_FROM && k > 1) {
        /* a poor start (a cold one, or a warm one after the centers moved a lot) leaves a
           large imbalance for SSP to repair unit by unit: improve the prices on a sample */
        argmin_labels(n, k, cost, price, labels, cnt);
        labelled = true;
        size_t imbalance = 0;
        for (size_t j = 0; j < k; j++)
            imbalance += cnt[j] > (long long)hi[j]   ? (size_t)(cnt[j] - (long long)hi[j])
                         : cnt[j] < (long long)lo[j] ? (size_t)((long long)lo[j] - cnt[j])
                                                     : 0;
        if (imbalance > n / 64) {
            ckm_error rs = sample_prices(n, k, cost, lo, hi, price, &st, err);
            if (rs != CKM_OK) {
                free(cnt);
                return rs;
            }
            labelled = false; /* the prices changed */
        }
    }
    if (!labelled)
        argmin_labels(n, k, cost, price, labels, cnt);
    free(cnt);
    int stuck = 0;
    ckm_error rc = ckm_transport_ssp(n, k, k, NULL, cost, lo, hi, lim, price, labels, &st, &stuck, err);
    if (rc == CKM_OK && stuck)
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "transportation solver: no augmenting path although the bounds are feasible");
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

void ckm_transport_sample_bounds(size_t n, size_t m, size_t k, const size_t *lo, const size_t *hi, size_t *slo,
                                 size_t *shi)
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

size_t ckm_transport_list_len(size_t k)
{
    size_t kk = k * k > 0 ? k * k : 1, L = ((size_t)1 << 25) / kk;
    return L < 2 ? 2 : L > 16 ? 16 : L;
}

bool ckm_transport_should_stop(const ckm_bk_limits *lim)
{
    return lim && (ckm_now() > lim->deadline || (lim->stop && lim->stop(lim->stop_user)));
}

ckm_error ckm_transport_ssp(size_t n, size_t k, size_t c, const int32_t *cj, const double *cc, const size_t *lo,
                            const size_t *hi, const ckm_bk_limits *lim, double *price, int32_t *labels,
                            ckm_transport_stats *st, int *stuck, ckm_err *err)
{
    size_t sum_lo, sum_hi;
    ckm_bound_sums(lo, hi, k, &sum_lo, &sum_hi);
    *stuck = 0;
    tp t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.k = k;
    t.c = cj ? c : k;
    t.cj = cj;
    t.cc = cc;
    t.lab = labels;
    size_t kk, kkL = 0;
    bool kk_ok = ckm_mul_ok(k, k, &kk) && ckm_mul_ok(kk, ckm_transport_list_len(k), &kkL);
    t.cand.L = ckm_transport_list_len(k);
    t.mem = ckm_calloc_array(k, sizeof(members));
    t.pos = ckm_alloc_array(n, sizeof(size_t));
    t.cand.key = kk_ok ? ckm_alloc_array(kkL, sizeof(double)) : NULL;
    t.cand.pt = kk_ok ? ckm_alloc_array(kkL, sizeof(int32_t)) : NULL;
    t.cand.len = kk_ok ? ckm_calloc_array(kk, 1) : NULL;
    t.cand.tau = kk_ok ? ckm_alloc_array(kk, sizeof(double)) : NULL;
    t.size = ckm_calloc_array(k, sizeof(long long));
    t.f = ckm_calloc_array(k, sizeof(long long));
    t.cap = ckm_alloc_array(k, sizeof(long long));
    t.e = ckm_alloc_array(k + 1, sizeof(long long));
    t.pi = ckm_alloc_array(k + 1, sizeof(double));
    t.dist = ckm_alloc_array(k + 1, sizeof(double));
    t.done = ckm_alloc_array(k + 1, 1);
    t.pred = ckm_alloc_array(k + 1, sizeof(int));
    t.pred_pt = ckm_alloc_array(k + 1, sizeof(int32_t));
    if (!t.mem || !t.pos || !t.cand.key || !t.cand.pt || !t.cand.len || !t.cand.tau || !t.size || !t.f ||
        !t.cap || !t.e || !t.pi || !t.dist || !t.done || !t.pred || !t.pred_pt) {
        tp_free(&t);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory (k = %zu)", k);
    }
    for (size_t i = 0; i < n; i++)
        t.size[labels[i]]++;
    for (size_t j = 0; j < k; j++) {
        t.pi[j] = price[j];
        t.cap[j] = (long long)(hi[j] > n ? n : hi[j]) - (long long)lo[j];
        if (t.cap[j] < 0)
            t.cap[j] = 0;
    }
    t.pi[k] = 0.0;
    /* member lists and the move lists, in one pass over the costs */
    for (size_t q = 0; q < kk; q++)
        t.cand.tau[q] = INFINITY;
    for (size_t a = 0; a < k; a++) {
        members *m = &t.mem[a];
        if (!ckm_grow((void **)&m->a, &m->cap, (size_t)t.size[a] + 1, sizeof(int32_t))) {
            tp_free(&t);
            return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t a = (size_t)labels[i];
        mem_add(&t, a, (int32_t)i); /* capacity reserved above */
        insert_point(&t, a, (int32_t)i);
    }
    long long sum_f = 0;
    for (size_t j = 0; j < k; j++) {
        long long over = t.size[j] - (long long)lo[j];
        if (t.pi[j] > t.pi[k])
            t.f[j] = 0;
        else if (t.pi[j] < t.pi[k])
            t.f[j] = t.cap[j];
        else
            t.f[j] = over < 0 ? 0 : over > t.cap[j] ? t.cap[j] : over;
        t.e[j] = over - t.f[j];
        sum_f += t.f[j];
    }
    t.e[k] = sum_f - ((long long)n - (long long)sum_lo);
    ckm_error rc = CKM_OK;
    for (;;) {
        size_t src = SIZE_MAX;
        long long most = 0;
        for (size_t v = 0; v <= k; v++)
            if (t.e[v] > most) {
                most = t.e[v];
                src = v;
            }
        if (src == SIZE_MAX)
            break;
        if (st->augmentations % 64 == 0 && ckm_transport_should_stop(lim)) {
            st->stopped = 1;
            break;
        }
        int r = round_from(&t, src, st);
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
        price[j] = t.pi[j] - t.pi[k];
    st->clamped += t.clamped;
    tp_free(&t);
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
