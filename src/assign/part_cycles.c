/*
 * part_cycles.c -- see part_cycles.h. The graph: the part's groups 0..m-1 and the anchors
 * (k = 2: the anchor of cluster 0 as node m, the odd cycles' graph; k >= 3: anchor j as node
 * m + j, the anchors joined to each other by constant arcs, two clusters never together), every
 * group joined to each anchor by its y column, each soft pair by its x column, each hard
 * cannot-link by a constant arc (x = 0). An arc's "together" value t is its column's LP value
 * clamped to [0, 1] (a constant arc: 0).
 *   k = 2, odd cycles (Barahona & Mahjoub 1986): the doubled graph, a copy of every node on
 *   each side; an arc kept on its side costs 1 - t, an arc that changes side costs t; the
 *   shortest walk from v's even copy to its odd one is the most violated odd cycle through v
 *   (violated when shorter than 1).
 *   k >= 3, multicut cycles (Chopra & Rao 1993): Dijkstra from each node v by 1 - t; an arc
 *   e = (v, w) whose 1 - t is above the shortest path to w (that path not e itself) closes a
 *   violated cycle.
 * Distances add a weight in [0, 1] to a distance: d + (1 - t), never (d + 1) - t, which can
 * round below d and make the shortest-path tree cyclic (it did, on tae at 15 %).
 * Cost a round: V Dijkstra runs, O(V (V k + e) log V), V = m + anchors; memory 12 bytes an arc
 * and 48 bytes a node.
 */
#include "part_cycles.h"

#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ckm_part_graph {
    size_t m, k, na;        /* groups, clusters, anchor nodes */
    size_t *gstart, *gto;   /* CSR over m + na nodes */
    int32_t *gcol;          /* the arc's "together" column (x_e, or y_ij to anchor j), -1: constant 0 */
    double *dist;           /* 2 (m + na): the doubled graph of the odd cycles */
    size_t *pred, *parc;    /* a walk's previous node, its arc (odd cycles: 2 q + side change) */
    size_t *heap, *hpos;
    const double *x;        /* the LP solution of the current round */
    double eps;
    ckm_part_pool *cand;
};

void ckm_part_graph_free(ckm_part_graph *g)
{
    if (!g)
        return;
    void *arrays[] = {g->gstart, g->gto, g->gcol, g->dist, g->pred, g->parc, g->heap, g->hpos};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    free(g);
}

ckm_part_graph *ckm_part_graph_new(size_t m, size_t k, size_t nx, const int32_t *xa, const int32_t *xb, size_t col0,
                                   size_t nhard, const int32_t *ha, const int32_t *hb)
{
    ckm_part_graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    size_t na = k == 2 ? 1 : k, V = m + na, arcs = 2 * (nx + nhard + m * na + na * na);
    *g = (ckm_part_graph){.m = m, .k = k, .na = na};
    g->gstart = ckm_calloc_array(V + 1, sizeof(size_t));
    g->gto = ckm_alloc_array(arcs + 1, sizeof(size_t));
    g->gcol = ckm_alloc_array(arcs + 1, sizeof(int32_t));
    g->dist = ckm_alloc_array(2 * V, sizeof(double));
    g->pred = ckm_alloc_array(2 * V, sizeof(size_t));
    g->parc = ckm_alloc_array(2 * V, sizeof(size_t));
    g->heap = ckm_alloc_array(2 * V, sizeof(size_t));
    g->hpos = ckm_alloc_array(2 * V, sizeof(size_t));
    if (!g->gstart || !g->gto || !g->gcol || !g->dist || !g->pred || !g->parc || !g->heap || !g->hpos) {
        ckm_part_graph_free(g);
        return NULL;
    }
    size_t *deg = g->gstart + 1;
    for (size_t e = 0; e < nx; e++) {
        deg[xa[e]]++;
        deg[xb[e]]++;
    }
    for (size_t h = 0; h < nhard; h++) {
        deg[ha[h]]++;
        deg[hb[h]]++;
    }
    for (size_t i = 0; i < m; i++)
        deg[i] += na;
    for (size_t j = 0; j < na; j++)
        deg[m + j] += m + na - 1;
    for (size_t v = 0; v < V; v++)
        g->gstart[v + 1] += g->gstart[v];
    size_t *fill = g->pred; /* scratch until the first search */
    memcpy(fill, g->gstart, V * sizeof(size_t));
#define ARC(u, w, c)                                                                                                   \
    do {                                                                                                               \
        g->gto[fill[(u)]] = (w);                                                                                       \
        g->gcol[fill[(u)]++] = (c);                                                                                    \
    } while (0)
    for (size_t e = 0; e < nx; e++) {
        ARC((size_t)xa[e], (size_t)xb[e], (int32_t)(col0 + e));
        ARC((size_t)xb[e], (size_t)xa[e], (int32_t)(col0 + e));
    }
    for (size_t h = 0; h < nhard; h++) {
        ARC((size_t)ha[h], (size_t)hb[h], -1);
        ARC((size_t)hb[h], (size_t)ha[h], -1);
    }
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < na; j++) {
            ARC(i, m + j, (int32_t)(i * k + j));
            ARC(m + j, i, (int32_t)(i * k + j));
        }
    for (size_t j = 0; j < na; j++)
        for (size_t l = 0; l < na; l++)
            if (l != j)
                ARC(m + j, m + l, -1);
#undef ARC
    return g;
}

/* binary heap of doubled nodes by dist (hpos: place + 1, 0 when out) */
static void heap_up(ckm_part_graph *g, size_t q)
{
    size_t u = g->heap[q];
    while (q > 0 && g->dist[g->heap[(q - 1) / 2]] > g->dist[u]) {
        g->heap[q] = g->heap[(q - 1) / 2];
        g->hpos[g->heap[q]] = q + 1;
        q = (q - 1) / 2;
    }
    g->heap[q] = u;
    g->hpos[u] = q + 1;
}

static size_t heap_pop(ckm_part_graph *g, size_t *len)
{
    size_t top = g->heap[0], u = g->heap[--*len], q = 0;
    g->hpos[top] = 0;
    if (*len == 0)
        return top;
    for (;;) {
        size_t c = 2 * q + 1;
        if (c >= *len)
            break;
        if (c + 1 < *len && g->dist[g->heap[c + 1]] < g->dist[g->heap[c]])
            c++;
        if (!(g->dist[g->heap[c]] < g->dist[u]))
            break;
        g->heap[q] = g->heap[c];
        g->hpos[g->heap[q]] = q + 1;
        q = c;
    }
    g->heap[q] = u;
    g->hpos[u] = q + 1;
    return top;
}

/* "together" value of an arc at the LP solution, in [0, 1] (hard: 0) */
static double arc_t(const ckm_part_graph *g, size_t q)
{
    if (g->gcol[q] < 0)
        return 0.0;
    double t = g->x[g->gcol[q]];
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

/* The shortest walk from (v, even) to (v, odd) in the doubled graph (Barahona & Mahjoub 1986,
 * "On the cut polytope", Math. Programming 36): an arc kept on its side costs 1 - t, an arc
 * that changes side costs t. Returns its length (stops at 1 - eps: nothing shorter). */
static double odd_walk(ckm_part_graph *g, size_t v)
{
    size_t V = g->m + 1, len = 0;
    for (size_t u = 0; u < 2 * V; u++) {
        g->dist[u] = INFINITY;
        g->hpos[u] = 0;
    }
    g->dist[2 * v] = 0.0;
    g->heap[len++] = 2 * v;
    g->hpos[2 * v] = 1;
    while (len > 0) {
        size_t u = heap_pop(g, &len);
        if (u == 2 * v + 1 || g->dist[u] >= 1.0 - g->eps)
            break;
        size_t node = u / 2, par = u % 2;
        for (size_t q = g->gstart[node]; q < g->gstart[node + 1]; q++) {
            double t = arc_t(g, q);
            for (size_t flip = 0; flip < 2; flip++) {
                size_t w = 2 * g->gto[q] + (par ^ flip);
                double dw = g->dist[u] + (flip ? t : 1.0 - t);
                if (dw < g->dist[w]) {
                    g->dist[w] = dw;
                    g->pred[w] = u;
                    g->parc[w] = q * 2 + flip;
                    if (g->hpos[w] == 0) {
                        g->heap[len] = w;
                        g->hpos[w] = ++len;
                    }
                    heap_up(g, g->hpos[w] - 1);
                }
            }
        }
    }
    return g->dist[2 * v + 1];
}

/* A cut's entries in column order, so the same cycle found from another node is the same
 * row (insertion sort: a cycle has few entries). */
static void sort_entries(int32_t *col, double *coef, size_t nz)
{
    for (size_t i = 1; i < nz; i++)
        for (size_t j = i; j > 0 && col[j - 1] > col[j]; j--) {
            int32_t c = col[j];
            col[j] = col[j - 1];
            col[j - 1] = c;
            double f = coef[j];
            coef[j] = coef[j - 1];
            coef[j - 1] = f;
        }
}

/* The walk odd_walk found back to v as a cycle inequality: with F the arcs that changed side
 * (an odd number), sum_F t + sum_{C \ F} (1 - t) >= 1, i.e. -sum_F t + sum_{C \ F} t <= |C \ F|
 * - 1 (a hard arc: t = 0). Walks that pass a node twice are left out (a shorter cycle in them
 * is found from its own nodes). */
static bool cycle_cut(ckm_part_graph *g, size_t v, double length, unsigned char *seen, int32_t *col, double *coef)
{
    size_t V = g->m + 1, u = 2 * v + 1, nz = 0, kept = 0;
    memset(seen, 0, V);
    while (u != 2 * v) {
        size_t q = g->parc[u] / 2, flip = g->parc[u] % 2, node = u / 2;
        if (seen[node])
            return true;
        seen[node] = 1;
        kept += !flip;
        if (g->gcol[q] >= 0) {
            col[nz] = g->gcol[q];
            coef[nz++] = flip ? -1.0 : 1.0;
        }
        u = g->pred[u];
    }
    sort_entries(col, coef, nz);
    return ckm_part_pool_add(g->cand, nz, col, coef, (double)kept - 1.0, 1.0 - length);
}

static bool cycle_cuts(ckm_part_graph *g)
{
    size_t V = g->m + 1;
    unsigned char *seen = ckm_alloc_array(V, 1);
    int32_t *col = ckm_alloc_array(V + 1, sizeof(int32_t));
    double *coef = ckm_alloc_array(V + 1, sizeof(double));
    bool ok = seen && col && coef;
    for (size_t v = 0; v < V && ok; v++) {
        double len = odd_walk(g, v);
        if (len < 1.0 - g->eps)
            ok = cycle_cut(g, v, len, seen, col, coef);
    }
    free(seen);
    free(col);
    free(coef);
    return ok;
}

/* k >= 3: the cycle inequalities of the multicut polytope (Chopra & Rao 1993, "The partition
 * problem", Math. Programming 59) on the pair graph with the k anchors: with u = 1 - x (apart),
 * every edge e of a cycle C has u_e <= sum_{C \ e} u_f (a cycle never crosses a partition
 * once), i.e. sum_{C \ e} x_f - x_e <= |C| - 2. From each node v the shortest paths by u
 * (Dijkstra): an arc e = (v, w) with u_e above the path to w that does not end in e is a
 * violated cycle. */
static bool multicut_from(ckm_part_graph *g, size_t v, int32_t *col, double *coef)
{
    size_t V = g->m + g->na, len = 0;
    double reach = 0.0; /* the largest u of v's arcs: no path beyond it matters */
    for (size_t q = g->gstart[v]; q < g->gstart[v + 1]; q++)
        reach = fmax(reach, 1.0 - arc_t(g, q));
    if (reach <= g->eps)
        return true;
    for (size_t u = 0; u < V; u++) {
        g->dist[u] = INFINITY;
        g->hpos[u] = 0;
    }
    g->dist[v] = 0.0;
    g->heap[len++] = v;
    g->hpos[v] = 1;
    while (len > 0) {
        size_t u = heap_pop(g, &len);
        if (g->dist[u] >= reach - g->eps)
            break;
        for (size_t q = g->gstart[u]; q < g->gstart[u + 1]; q++) {
            size_t w = g->gto[q];
            double dw = g->dist[u] + (1.0 - arc_t(g, q)); /* (d + 1) - t can fall below d */
            if (dw < g->dist[w]) {
                g->dist[w] = dw;
                g->pred[w] = u;
                g->parc[w] = q;
                if (g->hpos[w] == 0) {
                    g->heap[len] = w;
                    g->hpos[w] = ++len;
                }
                heap_up(g, g->hpos[w] - 1);
            }
        }
    }
    for (size_t q = g->gstart[v]; q < g->gstart[v + 1]; q++) {
        size_t w = g->gto[q];
        double ue = 1.0 - arc_t(g, q);
        if (w < v || !(g->dist[w] < ue - g->eps) || g->parc[w] == q || g->gcol[g->parc[w]] == g->gcol[q])
            continue; /* each cycle from its lower end; the path must not be the arc itself */
        size_t nz = 0, edges = 1;
        if (g->gcol[q] >= 0) {
            col[nz] = g->gcol[q];
            coef[nz++] = -1.0;
        }
        for (size_t u = w; u != v; u = g->pred[u], edges++)
            if (g->gcol[g->parc[u]] >= 0) {
                col[nz] = g->gcol[g->parc[u]];
                coef[nz++] = 1.0;
            }
        sort_entries(col, coef, nz);
        if (!ckm_part_pool_add(g->cand, nz, col, coef, (double)edges - 2.0, ue - g->dist[w]))
            return false;
    }
    return true;
}

static bool multicut_cuts(ckm_part_graph *g)
{
    size_t V = g->m + g->na;
    int32_t *col = ckm_alloc_array(V + 1, sizeof(int32_t));
    double *coef = ckm_alloc_array(V + 1, sizeof(double));
    bool ok = col && coef;
    for (size_t v = 0; v < V && ok; v++)
        ok = multicut_from(g, v, col, coef);
    free(col);
    free(coef);
    return ok;
}

bool ckm_part_cycles(ckm_part_graph *g, const double *x, double eps, ckm_part_pool *cand)
{
    g->x = x;
    g->eps = eps;
    g->cand = cand;
    return g->k == 2 ? cycle_cuts(g) : multicut_cuts(g);
}
