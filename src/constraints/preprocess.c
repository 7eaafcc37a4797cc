/*
 * preprocess.c -- constraint preprocessing, run once per problem (see reduced.h).
 *   1. union-find over must-links (union by size, path halving): O(m alpha(n));
 *   2. super-points numbered in order of their smallest member (deterministic);
 *   3. cannot-links lifted to super-points and deduplicated; one inside a component is a
 *      contradiction, reported with the must-link chain that joins its two points;
 *   4. quick infeasibility proofs, each with a one-line reason:
 *      sum lo > n, sum hi < n, a component heavier than every maximum, fewer components
 *      than clusters that need a point, a greedy cannot-link clique larger than k, and for
 *      k = 2 an odd cannot-link cycle (2-colouring by BFS, exact for k = 2);
 *   5. k = 2 only: a cannot-link chain a-b-c forces a and c together (two clusters), so the
 *      groups of one colour in one component of the cannot-link graph are merged (every
 *      feasible labelling keeps them together: it is exactly the 2-colouring up to a swap),
 *      the groups rebuilt, the cannot-links lifted again and the group proofs of 4 (the
 *      component weight and count ones) rerun on the heavier groups. Groups are then no longer only must-link components (r->k2_merged).
 *   6. capacities (docs/capacities.md): group demands Q_t = sum of the members' q_i, and the
 *      proofs total demand < sum of minimum capacities - tol, > sum of maximums + tol, and a
 *      group whose demand exceeds every maximum capacity (+ tol).
 */
#include "core.h"
#include "pairset.h"
#include "problem_impl.h"
#include "reduced.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_reduced_free(ckm_reduced *r)
{
    if (!r)
        return;
    free(r->comp);
    free(r->weight);
    free(r->mass);
    free(r->mean_own);
    free(r->member_start);
    free(r->members);
    free(r->cl);
    free(r->soft);
    free(r->soft_w);
    free(r->demand);
    free(r);
}

static size_t uf_find(size_t *parent, size_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Adjacency in CSR form over `nodes` vertices from an edge list (a[e], b[e]). */
typedef struct graph {
    size_t *start, *adj;
} graph;

static bool graph_build(graph *g, size_t nodes, size_t m, const size_t *a, const size_t *b)
{
    g->start = ckm_calloc_array(nodes + 1, sizeof(size_t));
    g->adj = ckm_alloc_array(2 * m, sizeof(size_t));
    size_t *fill = ckm_alloc_array(nodes + 1, sizeof(size_t));
    if (!g->start || !g->adj || !fill) {
        free(fill);
        return false;
    }
    for (size_t e = 0; e < m; e++) {
        g->start[a[e] + 1]++;
        g->start[b[e] + 1]++;
    }
    for (size_t v = 0; v < nodes; v++)
        g->start[v + 1] += g->start[v];
    memcpy(fill, g->start, (nodes + 1) * sizeof(size_t));
    for (size_t e = 0; e < m; e++) {
        g->adj[fill[a[e]]++] = b[e];
        g->adj[fill[b[e]]++] = a[e];
    }
    free(fill);
    return true;
}

static void graph_free(graph *g)
{
    free(g->start);
    free(g->adj);
}

/* Shortest must-link path from i to j (BFS on the ML graph), written as "i-a-b-j". */
static void ml_chain(const ckm_problem *p, size_t i, size_t j, char *out, size_t out_len)
{
    snprintf(out, out_len, "?");
    size_t *ea = ckm_alloc_array(p->n_ml, sizeof(size_t)), *eb = ckm_alloc_array(p->n_ml, sizeof(size_t));
    size_t *prev = ckm_alloc_array(p->n, sizeof(size_t)), *queue = ckm_alloc_array(p->n, sizeof(size_t));
    graph g = {NULL, NULL};
    if (ea && eb && prev && queue) {
        size_t m = 0;
        for (size_t q = 0; q < p->n_pairs; q++)
            if (p->pairs[q].type == CKM_MUST_LINK) {
                ea[m] = p->pairs[q].i;
                eb[m++] = p->pairs[q].j;
            }
        if (graph_build(&g, p->n, m, ea, eb)) {
            for (size_t v = 0; v < p->n; v++)
                prev[v] = SIZE_MAX;
            size_t head = 0, tail = 0;
            queue[tail++] = i;
            prev[i] = i;
            while (head < tail && prev[j] == SIZE_MAX) {
                size_t v = queue[head++];
                for (size_t e = g.start[v]; e < g.start[v + 1]; e++)
                    if (prev[g.adj[e]] == SIZE_MAX) {
                        prev[g.adj[e]] = v;
                        queue[tail++] = g.adj[e];
                    }
            }
            if (prev[j] != SIZE_MAX) {
                size_t len = 0, used = 0;
                for (size_t v = j; v != i; v = prev[v])
                    queue[len++] = v;
                queue[len++] = i;
                /* print from i to j; elide the middle of very long chains */
                for (size_t t = len; t-- > 0;) {
                    if (len > 12 && t < len - 6 && t > 5) {
                        if (t == len - 7)
                            used += (size_t)snprintf(out + used, used < out_len ? out_len - used : 0, "-...");
                        continue;
                    }
                    used += (size_t)snprintf(out + used, used < out_len ? out_len - used : 0,
                                             t == len - 1 ? "%zu" : "-%zu", queue[t]);
                }
            }
        }
    }
    graph_free(&g);
    free(ea);
    free(eb);
    free(prev);
    free(queue);
}

/* Greedy cannot-link clique; returns its size and writes up to 8 members to rep. */
static size_t greedy_clique(const ckm_reduced *r, const graph *g, const ckm_pairset *cl,
                            size_t k, size_t *rep, size_t *best_members)
{
    size_t best = r->s > 0 ? 1 : 0;
    size_t *order = ckm_alloc_array(r->s, sizeof(size_t));
    size_t *clique = ckm_alloc_array(r->s, sizeof(size_t));
    if (!order || !clique) {
        free(order);
        free(clique);
        return best;
    }
    size_t cand = 0;
    for (size_t v = 0; v < r->s; v++)
        if (g->start[v + 1] - g->start[v] >= k)
            order[cand++] = v;
    size_t tries = cand < 2000 ? cand : 2000; /* bounded effort: a quick proof, not a search */
    for (size_t t = 0; t < tries; t++) {
        size_t v = order[t], size = 0;
        clique[size++] = v;
        for (size_t e = g->start[v]; e < g->start[v + 1]; e++) {
            size_t u = g->adj[e];
            bool all = true;
            for (size_t c = 1; c < size && all; c++)
                all = ckm_pairset_find(cl, u, clique[c], NULL) != 0;
            if (all)
                clique[size++] = u;
        }
        if (size > best) {
            best = size;
            *best_members = size;
            for (size_t c = 0; c < size && c < 8; c++)
                rep[c] = r->members[r->member_start[clique[c]]];
        }
    }
    free(order);
    free(clique);
    return best;
}

/* k = 2: 2-colour the cannot-link graph by BFS, writing each group's colour (0/1) and its
 * component (the BFS start). On an odd cycle, returns true and writes two of its points. */
static bool two_colour(const ckm_reduced *r, const graph *g, int *colour, size_t *comp, char *out,
                       size_t out_len, bool *nomem)
{
    size_t *queue = ckm_alloc_array(r->s, sizeof(size_t));
    bool found = false;
    *nomem = queue == NULL;
    if (!queue)
        return false;
    for (size_t v = 0; v < r->s; v++)
        colour[v] = -1;
    for (size_t s0 = 0; s0 < r->s && !found; s0++) {
        if (colour[s0] >= 0)
            continue;
        size_t head = 0, tail = 0;
        queue[tail++] = s0;
        colour[s0] = 0;
        comp[s0] = s0;
        while (head < tail && !found) {
            size_t v = queue[head++];
            for (size_t e = g->start[v]; e < g->start[v + 1] && !found; e++) {
                size_t u = g->adj[e];
                if (colour[u] < 0) {
                    colour[u] = 1 - colour[v];
                    comp[u] = s0;
                    queue[tail++] = u;
                } else if (colour[u] == colour[v]) {
                    snprintf(out, out_len, "points %zu and %zu", r->members[r->member_start[v]],
                             r->members[r->member_start[u]]);
                    found = true;
                }
            }
        }
    }
    free(queue);
    return found;
}

/* Groups from a point -> representative map rep (rep[i] = rep[j] iff same group; NULL: every
 * point its own group): numbered in order of their smallest member, with weights, members,
 * means and the constant scatter. root_id is n entries of scratch (unused without rep). */
static bool build_groups(const ckm_problem *p, const size_t *rep, size_t *root_id, ckm_reduced *r)
{
    size_t n = p->n, d = p->d, s = 0, sd;
    r->comp = ckm_alloc_array(n, sizeof(size_t));
    if (!r->comp)
        return false;
    if (!rep) {
        for (; s < n; s++)
            r->comp[s] = s;
    } else {
        for (size_t i = 0; i < n; i++)
            root_id[i] = SIZE_MAX;
        for (size_t i = 0; i < n; i++) {
            if (root_id[rep[i]] == SIZE_MAX)
                root_id[rep[i]] = s++;
            r->comp[i] = root_id[rep[i]];
        }
    }
    r->s = s;
    if (!ckm_mul_ok(s, d, &sd))
        return false;
    /* every group a single point (no must-link): the means are the points themselves and
       the scatter is 0, so the points are borrowed, not copied (10^6 x 16: 0.2 s saved) */
    bool single = s == n;
    r->weight = ckm_calloc_array(s, sizeof(size_t));
    r->mass = ckm_calloc_array(s, sizeof(double));
    r->mean_own = single ? NULL : ckm_calloc_array(sd, sizeof(double));
    r->mean = single ? p->X : r->mean_own;
    r->member_start = ckm_calloc_array(s + 1, sizeof(size_t));
    r->members = ckm_alloc_array(n, sizeof(size_t));
    if (!r->weight || !r->mass || !r->mean || !r->member_start || !r->members)
        return false;
    const double *w = p->w;
    r->w = w;
    r->total_mass = 0.0;
    for (size_t i = 0; i < n; i++) {
        r->weight[r->comp[i]]++;
        r->mass[r->comp[i]] += w ? w[i] : 1.0;
        r->total_mass += w ? w[i] : 1.0;
    }
    for (size_t t = 0; t < s; t++)
        r->member_start[t + 1] = r->member_start[t] + r->weight[t];
    if (single) { /* s = n: groups numbered by smallest member, comp is the identity */
        for (size_t i = 0; i < n; i++)
            r->members[i] = i;
    } else {
        memcpy(root_id, r->member_start, s * sizeof(size_t)); /* reuse as fill pointers */
        for (size_t i = 0; i < n; i++) {
            size_t t = r->comp[i];
            r->members[root_id[t]++] = i;
            double wi = w ? w[i] : 1.0;
            for (size_t f = 0; f < d; f++)
                r->mean_own[t * d + f] += wi * p->X[i * d + f];
        }
    }
    for (size_t t = 0; !single && t < s; t++)
        for (size_t f = 0; f < d; f++)
            r->mean_own[t * d + f] /= w ? r->mass[t] : (double)r->weight[t];
    r->scatter = 0.0;
    for (size_t i = 0; !single && i < n; i++) {
        const double *m = r->mean + r->comp[i] * d;
        double wi = w ? w[i] : 1.0;
        for (size_t f = 0; f < d; f++) { /* term by term: w = 1 gives the unweighted bits */
            double diff = p->X[i * d + f] - m[f];
            r->scatter += wi * diff * diff;
        }
    }
    /* total scatter = within-group scatter + sum_t w_t ||m_t - overall mean||^2 */
    double *g = ckm_calloc_array(d, sizeof(double));
    if (!g)
        return false;
    for (size_t t = 0; t < s; t++)
        for (size_t f = 0; f < d; f++)
            g[f] += r->mass[t] * r->mean[t * d + f];
    for (size_t f = 0; f < d; f++)
        g[f] /= r->total_mass;
    r->tss = r->scatter;
    double mag = 0.0; /* sum_t mass_t ||mean_t||^2 */
    for (size_t t = 0; t < s; t++)
        for (size_t f = 0; f < d; f++) {
            double diff = r->mean[t * d + f] - g[f];
            r->tss += r->mass[t] * diff * diff;
            mag += r->mass[t] * r->mean[t * d + f] * r->mean[t * d + f];
        }
    double noise = 2.0 * (double)n * DBL_EPSILON;
    r->gap_scale = fmax(r->tss, noise * noise * mag / CKM_GAP_ABS);
    free(g);
    return true;
}

/* Lift the cannot-links to deduplicated group pairs (a < b) in r->cl and clset. A cannot-link
 * inside a group leaves its index in *inside (else SIZE_MAX) and stops. */
static bool lift_cannot_links(const ckm_problem *p, ckm_reduced *r, ckm_pairset *clset, size_t *inside)
{
    size_t cap = 0;
    *inside = SIZE_MAX;
    for (size_t q = 0; q < p->n_pairs; q++) {
        const ckm_pair *pr = &p->pairs[q];
        if (pr->type != CKM_CANNOT_LINK)
            continue;
        size_t a = r->comp[pr->i], b = r->comp[pr->j];
        if (a == b) {
            *inside = q;
            return true;
        }
        if (a > b) {
            size_t t = a;
            a = b;
            b = t;
        }
        if (ckm_pairset_find(clset, a, b, NULL))
            continue;
        if (!ckm_pairset_insert(clset, a, b, r->n_cl) ||
            !ckm_grow((void **)&r->cl, &cap, 2 * (r->n_cl + 1), sizeof(size_t)))
            return false;
        r->cl[2 * r->n_cl] = a;
        r->cl[2 * r->n_cl + 1] = b;
        r->n_cl++;
    }
    return true;
}

/* The proofs of 4 that need no cannot-link: sum lo > n, sum hi < n, a group heavier than every
 * maximum, fewer groups than clusters that need a point; cheapest first. */
static void group_proofs(const ckm_problem *p, const ckm_reduced *r, int *infeasible, char *reason,
                         size_t reason_len)
{
    size_t n = p->n, s = r->s;
    size_t sum_lo, sum_hi, max_hi = 0, need_point = 0, wmax = 0, wmax_at = 0;
    ckm_bound_sums(p->lo, p->hi, p->k, &sum_lo, &sum_hi);
    for (size_t j = 0; j < p->k; j++) {
        if (p->hi[j] > max_hi)
            max_hi = p->hi[j];
        if (p->lo[j] > 0)
            need_point++;
    }
    for (size_t t = 0; t < s; t++)
        if (r->weight[t] > wmax) {
            wmax = r->weight[t];
            wmax_at = t;
        }
    if (sum_lo > n) {
        snprintf(reason, reason_len, "size bounds: sum of minimums %zu > n = %zu", sum_lo, n);
        *infeasible = 1;
    } else if (sum_hi < n) {
        snprintf(reason, reason_len, "size bounds: sum of maximums %zu < n = %zu", sum_hi, n);
        *infeasible = 1;
    } else if (wmax > max_hi) {
        snprintf(reason, reason_len,
                 "the %s of point %zu has %zu points, more than the largest cluster maximum %zu",
                 r->k2_merged ? "group (must-links and, with k = 2, cannot-links)" : "must-link component",
                 r->members[r->member_start[wmax_at]], wmax, max_hi);
        *infeasible = 1;
    } else if (s < need_point) {
        snprintf(reason, reason_len,
                 "must-links leave only %zu groups of points for %zu clusters that each need "
                 "at least one point",
                 s, need_point);
        *infeasible = 1;
    }
}

/* 6.: the group demands, then the capacity proofs (r->has_caps); false when out of memory. */
static bool capacity_proofs(const ckm_problem *p, ckm_reduced *r, int *infeasible, char *reason, size_t reason_len)
{
    if (!r->has_caps)
        return true;
    free(r->demand);
    if (!(r->demand = ckm_calloc_array(r->s, sizeof(double))))
        return false;
    double total = 0.0, sum_lo = 0.0, sum_hi = 0.0, max_hi = 0.0, qmax = 0.0;
    size_t qmax_at = 0;
    for (size_t i = 0; i < p->n; i++) {
        double q = p->q ? p->q[i] : 1.0;
        r->demand[r->comp[i]] += q;
        total += q;
    }
    for (size_t t = 0; t < r->s; t++)
        if (r->demand[t] > qmax) {
            qmax = r->demand[t];
            qmax_at = t;
        }
    for (size_t j = 0; j < p->k; j++) {
        sum_lo += p->cap_lo[j];
        sum_hi += p->cap_hi[j];
        max_hi = fmax(max_hi, p->cap_hi[j]);
    }
    double tol = r->cap_tol;
    if (*infeasible)
        return true;
    if (total < sum_lo - tol) {
        snprintf(reason, reason_len, "capacities: the total demand %.10g is below the sum of minimum capacities %.10g",
                 total, sum_lo);
        *infeasible = 1;
    } else if (total > sum_hi + tol) {
        snprintf(reason, reason_len, "capacities: the total demand %.10g is above the sum of maximum capacities %.10g",
                 total, sum_hi);
        *infeasible = 1;
    } else if (qmax > max_hi + tol) {
        size_t i = r->members[r->member_start[qmax_at]];
        if (r->weight[qmax_at] == 1)
            snprintf(reason, reason_len, "capacities: point %zu has demand %.10g, above every maximum capacity (at most %.10g)",
                     i, qmax, max_hi);
        else
            snprintf(reason, reason_len,
                     "capacities: the %s of point %zu (%zu points) has demand %.10g, above every maximum capacity "
                     "(at most %.10g)",
                     r->k2_merged ? "group (must-links and, with k = 2, cannot-links)" : "must-link component", i,
                     r->weight[qmax_at], qmax, max_hi);
        *infeasible = 1;
    }
    return true;
}

/* The greedy cannot-link clique proof; builds the cannot-link graph g of r (r->n_cl > 0). */
static bool clique_proof(const ckm_problem *p, const ckm_reduced *r, const ckm_pairset *clset, graph *g,
                         int *infeasible, char *reason, size_t reason_len)
{
    size_t *ea = ckm_alloc_array(r->n_cl, sizeof(size_t)), *eb = ckm_alloc_array(r->n_cl, sizeof(size_t));
    bool built = ea && eb;
    if (built) {
        for (size_t e = 0; e < r->n_cl; e++) {
            ea[e] = r->cl[2 * e];
            eb[e] = r->cl[2 * e + 1];
        }
        built = graph_build(g, r->s, r->n_cl, ea, eb);
    }
    free(ea);
    free(eb);
    if (!built)
        return false;
    size_t rep[8], members = 0;
    size_t q = greedy_clique(r, g, clset, p->k, rep, &members);
    if (q > p->k) {
        int used = snprintf(reason, reason_len,
                            "cannot-links form a clique of %zu groups of points that need "
                            "%zu different clusters but k = %zu (points",
                            q, q, p->k);
        for (size_t c = 0; c < members && c < 8 && used > 0 && (size_t)used < reason_len; c++)
            used += snprintf(reason + used, reason_len - (size_t)used, " %zu", rep[c]);
        if (used > 0 && (size_t)used < reason_len)
            snprintf(reason + used, reason_len - (size_t)used, "%s)", members > 8 ? " ..." : "");
        *infeasible = 1;
    }
    return true;
}

/* k = 2 and a 2-colourable cannot-link graph: in any labelling the two colours of one
 * component of that graph are the two clusters, so the groups of one colour in one component
 * share a cluster. Writes, for every point, a representative point of its merged group into
 * rep and returns how many merged groups there are (r->s when nothing merges). On an odd
 * cycle sets *infeasible with the reason instead. */
static bool k2_merge(const ckm_reduced *r, const graph *g, size_t *rep, size_t *merged, int *infeasible,
                     char *reason, size_t reason_len)
{
    int *colour = ckm_alloc_array(r->s, sizeof(int));
    size_t *comp = ckm_alloc_array(r->s, sizeof(size_t)), *first = ckm_alloc_array(2 * r->s, sizeof(size_t));
    bool nomem = !colour || !comp || !first;
    char where[128];
    *merged = r->s;
    if (!nomem && two_colour(r, g, colour, comp, where, sizeof where, &nomem)) {
        snprintf(reason, reason_len,
                 "cannot-links form an odd cycle (through %s), which 2 clusters cannot separate", where);
        *infeasible = 1;
    } else if (!nomem) {
        /* groups are numbered by smallest member, so the first of a class holds its smallest */
        size_t classes = 0;
        for (size_t c = 0; c < 2 * r->s; c++)
            first[c] = SIZE_MAX;
        for (size_t t = 0; t < r->s; t++) {
            size_t *f = &first[2 * comp[t] + (size_t)colour[t]];
            if (*f == SIZE_MAX) {
                *f = r->members[r->member_start[t]];
                classes++;
            }
        }
        for (size_t i = 0; i < r->n; i++) {
            size_t t = r->comp[i];
            rep[i] = first[2 * comp[t] + (size_t)colour[t]];
        }
        *merged = classes;
    }
    free(colour);
    free(comp);
    free(first);
    return !nomem;
}

/* parent[i] = the root of i's must-link component (union by size in csize, path halving) */
static void union_must_links(const ckm_problem *p, size_t *parent, size_t *csize)
{
    for (size_t i = 0; i < p->n; i++) {
        parent[i] = i;
        csize[i] = 1;
    }
    for (size_t q = 0; q < p->n_pairs; q++) {
        if (p->pairs[q].type != CKM_MUST_LINK)
            continue;
        size_t a = uf_find(parent, p->pairs[q].i), b = uf_find(parent, p->pairs[q].j);
        if (a == b)
            continue;
        if (csize[a] < csize[b]) {
            size_t t = a;
            a = b;
            b = t;
        }
        parent[b] = a;
        csize[a] += csize[b];
    }
    for (size_t i = 0; i < p->n; i++)
        parent[i] = uf_find(parent, i);
}

static ckm_reduced *reduced_new(const ckm_problem *p)
{
    ckm_reduced *r = calloc(1, sizeof *r);
    if (r) {
        r->n = p->n;
        r->d = p->d;
        r->X = p->X;
        r->k = p->k;
        r->lo = p->lo;
        r->hi = p->hi;
        r->has_sizes = ckm_problem_has_size_bounds(p);
        r->has_caps = ckm_problem_has_capacities(p);
        r->cap_lo = p->cap_lo;
        r->cap_hi = p->cap_hi;
        r->q = p->q;
        r->cap_tol = ckm_problem_capacity_tol(p);
    }
    return r;
}

ckm_error ckm_reduce(const ckm_problem *p, ckm_reduced **out, int *infeasible, char *reason,
                     size_t reason_len, ckm_err *err)
{
    *out = NULL;
    *infeasible = 0;
    reason[0] = '\0';
    size_t n = p->n;
    ckm_reduced *r = reduced_new(p);
    /* the point maps (3 n indices) only where must-links join points or k = 2 merges groups:
       without pairs their first touch and release took 0.2 s of a 2 s k-means fit at
       10^6 x 16 (issue 55) */
    bool joins = p->n_ml > 0, maps = joins || (p->k == 2 && p->n_cl > 0);
    size_t *parent = maps ? ckm_alloc_array(n, sizeof(size_t)) : NULL;
    size_t *csize = joins ? ckm_alloc_array(n, sizeof(size_t)) : NULL;
    size_t *scratch = maps ? ckm_alloc_array(n, sizeof(size_t)) : NULL;
    ckm_pairset clset;
    ckm_pairset_init(&clset);
    graph g = {NULL, NULL};
    ckm_error rc = CKM_OK;
    size_t inside = SIZE_MAX;
    if (!r || (maps && (!parent || !scratch)) || (joins && !csize))
        goto nomem;
    if (joins)
        union_must_links(p, parent, csize);
    if (!build_groups(p, joins ? parent : NULL, scratch, r) || !lift_cannot_links(p, r, &clset, &inside))
        goto nomem;
    if (inside != SIZE_MAX) {
        const ckm_pair *pr = &p->pairs[inside];
        char chain[256];
        ml_chain(p, pr->i, pr->j, chain, sizeof chain);
        snprintf(reason, reason_len, "cannot-link (%zu, %zu) contradicts the must-links joining them (%s)",
                 pr->i, pr->j, chain);
        *infeasible = 1;
        ckm_reduced_free(r);
        r = NULL;
        goto done;
    }
    group_proofs(p, r, infeasible, reason, reason_len);
    if (!*infeasible && r->n_cl > 0 && !clique_proof(p, r, &clset, &g, infeasible, reason, reason_len))
        goto nomem;
    if (!*infeasible && p->k == 2 && r->n_cl > 0) {
        size_t merged;
        if (!k2_merge(r, &g, parent, &merged, infeasible, reason, reason_len))
            goto nomem;
        if (!*infeasible && merged < r->s) {
            /* rebuild on the merged groups; no cannot-link can lie inside one (2-colouring),
             * and the merged cannot-link graph is bipartite (no clique of 3), so only the
             * proofs on the heavier groups can newly succeed */
            ckm_reduced *m = reduced_new(p);
            ckm_pairset_free(&clset);
            ckm_pairset_init(&clset);
            ckm_reduced_free(r);
            r = m;
            if (!r || !build_groups(p, parent, scratch, r) || !lift_cannot_links(p, r, &clset, &inside))
                goto nomem;
            r->k2_merged = 1;
            group_proofs(p, r, infeasible, reason, reason_len);
        }
    }
    if (!ckm_reduce_soft(p, r, &clset) || !capacity_proofs(p, r, infeasible, reason, reason_len))
        goto nomem;
    goto done;
nomem:
    rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory in constraint preprocessing");
    ckm_reduced_free(r);
    r = NULL;
done:
    graph_free(&g);
    ckm_pairset_free(&clset);
    free(parent);
    free(csize);
    free(scratch);
    if (rc == CKM_OK)
        *out = r;
    return rc;
}

void ckm_analysis_free(ckm_analysis *a)
{
    if (!a)
        return;
    free(a->group_of);
    free(a->group_size);
    free(a);
}

ckm_error ckm_problem_analyze(const ckm_problem *p, ckm_analysis **out, ckm_err *err)
{
    *out = NULL;
    ckm_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    ckm_reduced *r = NULL;
    ckm_error rc = ckm_reduce(p, &r, &a->infeasible, a->reason, sizeof a->reason, err);
    if (rc != CKM_OK) {
        ckm_analysis_free(a);
        return rc;
    }
    if (r) {
        a->groups = r->s;
        a->lifted_cannot_links = r->n_cl;
        a->soft_redundant = r->soft_redundant;
        a->soft_contradicted = r->soft_contradicted;
        a->soft_group_pairs = r->n_soft;
        a->group_of = ckm_alloc_array(p->n, sizeof(size_t));
        a->group_size = ckm_alloc_array(r->s, sizeof(size_t));
        if (!a->group_of || !a->group_size) {
            ckm_reduced_free(r);
            ckm_analysis_free(a);
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        }
        memcpy(a->group_of, r->comp, p->n * sizeof(size_t));
        memcpy(a->group_size, r->weight, r->s * sizeof(size_t));
    }
    ckm_reduced_free(r);
    *out = a;
    return CKM_OK;
}
