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
 * along the path. The cheapest point for a -> b is the top of a heap of the points of a
 * keyed by c_ib - c_ia: the key does not depend on pi, so heaps are never re-keyed; a
 * point that leaves a stays in a's heaps and is skipped lazily. Heaps of a cluster are
 * built the first time Dijkstra leaves it. At the end the certificate is
 * p_j = pi_j - pi_T (see transport.h).
 * Warm start: prices from the previous Lloyd iteration make the first argmin labelling
 * nearly balanced, so few augmentations remain.
 * Memory: the n*k cost matrix (caller's) plus at most n*(k-1) heap entries (int32) per
 * cluster that is ever a Dijkstra source, i.e. O(n k).
 */
#include "core.h"
#include "transport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct heap {
    int32_t *a;
    size_t len, cap;
} heap;

typedef struct tp {
    size_t n, k;
    const double *c;
    int32_t *lab;
    long long *size, *f, *cap, *e; /* size/f/cap: k; e: k + 1 */
    double *pi;                     /* k + 1 */
    heap *h;                        /* k * k: h[a*k + b] */
    char *built;                    /* k */
    double *dist;                   /* k + 1 */
    char *done;                     /* k + 1 */
    int *pred;                      /* k + 1 */
    int32_t *pred_pt;               /* k + 1: point moved on the arc into v, or -1 */
} tp;

static double key(const tp *t, int32_t i, size_t a, size_t b)
{
    const double *ci = t->c + (size_t)i * t->k;
    return ci[b] - ci[a];
}

static void sift_down(const tp *t, heap *h, size_t a, size_t b, size_t pos)
{
    for (;;) {
        size_t l = 2 * pos + 1, m = pos;
        if (l < h->len && key(t, h->a[l], a, b) < key(t, h->a[m], a, b))
            m = l;
        if (l + 1 < h->len && key(t, h->a[l + 1], a, b) < key(t, h->a[m], a, b))
            m = l + 1;
        if (m == pos)
            return;
        int32_t tmp = h->a[m];
        h->a[m] = h->a[pos];
        h->a[pos] = tmp;
        pos = m;
    }
}

static bool heap_push(const tp *t, heap *h, size_t a, size_t b, int32_t i)
{
    if (!ckm_grow((void **)&h->a, &h->cap, h->len + 1, sizeof(int32_t)))
        return false;
    size_t pos = h->len++;
    h->a[pos] = i;
    double ki = key(t, i, a, b);
    while (pos > 0) {
        size_t up = (pos - 1) / 2;
        if (key(t, h->a[up], a, b) <= ki)
            break;
        h->a[pos] = h->a[up];
        pos = up;
    }
    h->a[pos] = i;
    return true;
}

static void heap_pop(const tp *t, heap *h, size_t a, size_t b)
{
    h->a[0] = h->a[--h->len];
    if (h->len > 0)
        sift_down(t, h, a, b, 0);
}

/* Cheapest point still in a for the move a -> b, or -1. */
static int32_t heap_top(const tp *t, heap *h, size_t a, size_t b)
{
    while (h->len > 0 && t->lab[h->a[0]] != (int32_t)a)
        heap_pop(t, h, a, b);
    return h->len > 0 ? h->a[0] : -1;
}

static bool build(tp *t, size_t a)
{
    size_t k = t->k;
    size_t cnt = (size_t)t->size[a];
    for (size_t b = 0; b < k; b++) {
        if (b == a)
            continue;
        heap *h = &t->h[a * k + b];
        h->len = 0;
        if (!ckm_grow((void **)&h->a, &h->cap, cnt + 1, sizeof(int32_t)))
            return false;
    }
    for (size_t i = 0; i < t->n; i++)
        if (t->lab[i] == (int32_t)a)
            for (size_t b = 0; b < k; b++)
                if (b != a) {
                    heap *h = &t->h[a * k + b];
                    h->a[h->len++] = (int32_t)i;
                }
    for (size_t b = 0; b < k; b++) {
        if (b == a)
            continue;
        heap *h = &t->h[a * k + b];
        for (size_t pos = h->len / 2; pos-- > 0;)
            sift_down(t, h, a, b, pos);
    }
    t->built[a] = 1;
    return true;
}

static void relax(tp *t, size_t u, size_t v, double w, int32_t pt)
{
    if (t->done[v])
        return;
    if (w < 0.0)
        w = 0.0; /* rounding only: potentials keep reduced costs >= 0 */
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
            if (!t->built[u] && !build(t, u))
                return -1;
            for (size_t b = 0; b < k; b++) {
                if (b == u || t->done[b])
                    continue;
                int32_t i = heap_top(t, &t->h[u * k + b], u, b);
                if (i >= 0)
                    relax(t, u, b, key(t, i, u, b) + t->pi[u] - t->pi[b], i);
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
            heap *h = &t->h[u * k + v];
            if (heap_top(t, h, u, v) == i)
                heap_pop(t, h, u, v);
            t->lab[i] = (int32_t)v;
            t->size[u]--;
            t->size[v]++;
            st->moves++;
            if (t->built[v])
                for (size_t b = 0; b < k; b++)
                    if (b != v && !heap_push(t, &t->h[v * k + b], v, b, i))
                        return -1;
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
    if (t->h)
        for (size_t q = 0; q < t->k * t->k; q++)
            free(t->h[q].a);
    free(t->h);
    free(t->size);
    free(t->f);
    free(t->cap);
    free(t->e);
    free(t->pi);
    free(t->built);
    free(t->dist);
    free(t->done);
    free(t->pred);
    free(t->pred_pt);
}

ckm_error ckm_transport_solve(size_t n, size_t k, const double *cost, const size_t *lo,
                              const size_t *hi, double *price, int32_t *labels, int *infeasible,
                              ckm_transport_stats *stats, ckm_err *err)
{
    double t0 = ckm_now();
    ckm_transport_stats st = {0, 0, 0.0};
    size_t sum_lo = 0, sum_hi = 0;
    for (size_t j = 0; j < k; j++) {
        sum_lo += lo[j];
        sum_hi = sum_hi + hi[j] < sum_hi ? SIZE_MAX : sum_hi + hi[j];
    }
    *infeasible = sum_lo > n || sum_hi < n;
    if (*infeasible) {
        if (stats)
            *stats = st;
        return CKM_OK;
    }
    if (n > INT32_MAX)
        return ckm_fail(err, CKM_ERR_INVALID, "transportation solver: n = %zu exceeds 2^31 - 1", n);
    tp t;
    memset(&t, 0, sizeof t);
    t.n = n;
    t.k = k;
    t.c = cost;
    t.lab = labels;
    size_t kk;
    t.h = ckm_mul_ok(k, k, &kk) ? ckm_calloc_array(kk, sizeof(heap)) : NULL;
    t.size = ckm_calloc_array(k, sizeof(long long));
    t.f = ckm_calloc_array(k, sizeof(long long));
    t.cap = ckm_alloc_array(k, sizeof(long long));
    t.e = ckm_alloc_array(k + 1, sizeof(long long));
    t.pi = ckm_alloc_array(k + 1, sizeof(double));
    t.built = ckm_calloc_array(k, 1);
    t.dist = ckm_alloc_array(k + 1, sizeof(double));
    t.done = ckm_alloc_array(k + 1, 1);
    t.pred = ckm_alloc_array(k + 1, sizeof(int));
    t.pred_pt = ckm_alloc_array(k + 1, sizeof(int32_t));
    if (!t.h || !t.size || !t.f || !t.cap || !t.e || !t.pi || !t.built || !t.dist || !t.done ||
        !t.pred || !t.pred_pt) {
        tp_free(&t);
        return ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory (k = %zu)", k);
    }
    for (size_t j = 0; j < k; j++) {
        t.pi[j] = isfinite(price[j]) ? price[j] : 0.0;
        t.cap[j] = (long long)(hi[j] > n ? n : hi[j]) - (long long)lo[j];
        if (t.cap[j] < 0)
            t.cap[j] = 0;
    }
    t.pi[k] = 0.0;
    /* argmin labelling under the warm-start prices */
    for (size_t i = 0; i < n; i++) {
        const double *ci = cost + i * k;
        size_t bj = 0;
        double best = ci[0] - t.pi[0];
        for (size_t j = 1; j < k; j++) {
            double v = ci[j] - t.pi[j];
            if (v < best) {
                best = v;
                bj = j;
            }
        }
        labels[i] = (int32_t)bj;
        t.size[bj]++;
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
        size_t s = SIZE_MAX;
        long long most = 0;
        for (size_t v = 0; v <= k; v++)
            if (t.e[v] > most) {
                most = t.e[v];
                s = v;
            }
        if (s == SIZE_MAX)
            break;
        int r = round_from(&t, s, &st);
        if (r < 0) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "transportation solver: out of memory");
            break;
        }
        if (r == 0) {
            rc = ckm_fail(err, CKM_ERR_INTERNAL, "transportation solver: no augmenting path although the bounds are feasible");
            break;
        }
    }
    if (rc == CKM_OK)
        for (size_t j = 0; j < k; j++)
            price[j] = t.pi[j] - t.pi[k];
    tp_free(&t);
    st.seconds = ckm_now() - t0;
    if (stats)
        *stats = st;
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
