/*
 * split_search.c -- see split_search.h. Depth-first branch and bound; the group branched on
 * next is the unassigned one of largest regret (second least minus least value of its row;
 * a row with one finite value first), so groups whose neighbours have decided them go first
 * and their siblings are pruned at once (on medium parts 2-20x fewer nodes than a fixed
 * breadth-first order).
 *   Assigning group i to j moves the costs its edges decide onto the rows of its unassigned
 *   neighbours u (must-link: + p on every cluster but j; cannot-link: + p on j; hard: j
 *   forbidden); a_i,j is then i's exact share, so F of the assigned groups is the sum of
 *   their a at assignment.
 *   Bound at a node: F(assigned) + sum_{u unassigned} min_j a_uj. Valid: every edge cost is
 *   >= 0 and those between assigned and unassigned groups are in the rows already. Rows only
 *   grow with assignments, so the children of a group, tried by increasing a_ij, stop at the
 *   first whose F(assigned) + a_ij + sum_{others} min_j a_uj reaches the incumbent.
 *   A node is pruned when its bound is >= the incumbent - 1e-12 |incumbent| (optimal up to
 *   that rounding).
 * Undo: the rows a group's assignment changed are saved on a stack (k + 1 values each, with
 * their minimum) and copied back, so no rounding accumulates along the search.
 * Cost: O(m k + deg(i) k) a node; memory O(m k + edges k).
 */
#include "split_search.h"

#include "core.h"
#include "incidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct search {
    ckm_part *pt;
    size_t *order;
    unsigned char *assigned;
    int32_t *cur, *last_j;
    double *minv, *fixed, *last_a, *rest, *stack;
    size_t *save; /* per depth: the stack's top before that depth's assignment */
} search;

static double row_min(const double *row, size_t k)
{
    double m = row[0];
    for (size_t j = 1; j < k; j++)
        m = row[j] < m ? row[j] : m;
    return m;
}

double ckm_part_value(const ckm_part *pt, const int32_t *lab)
{
    double f = 0.0;
    for (size_t i = 0; i < pt->m; i++) {
        f += pt->a[i * pt->k + (size_t)lab[i]];
        for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
            size_t u = pt->nbr[q];
            if (u < i)
                continue; /* each edge once */
            f += ckm_edge_cost(pt->kind[q], pt->p[q], lab[u] == lab[i]);
            if (f == INFINITY)
                return INFINITY;
        }
    }
    if (pt->w) { /* the size rows, cluster by cluster: O(m k), no scratch */
        for (size_t j = 0; j < pt->k; j++) {
            size_t c = 0;
            for (size_t i = 0; i < pt->m; i++)
                c += (size_t)lab[i] == j ? pt->w[i] : 0;
            if (c < pt->lo[j] || c > pt->hi[j])
                return INFINITY;
        }
    }
    return f;
}

double ckm_part_move_cost(const ckm_part *pt, const int32_t *lab, size_t i, size_t j)
{
    double f = pt->a[i * pt->k + j];
    for (size_t q = pt->start[i]; q < pt->start[i + 1] && f < INFINITY; q++)
        f += ckm_edge_cost(pt->kind[q], pt->p[q], (size_t)lab[pt->nbr[q]] == j);
    return f;
}

size_t ckm_part_excess(const ckm_part *pt, const int32_t *lab, size_t *count)
{
    size_t e = 0;
    memset(count, 0, pt->k * sizeof(size_t));
    for (size_t i = 0; i < pt->m; i++)
        count[lab[i]] += pt->w[i];
    for (size_t j = 0; j < pt->k; j++)
        e += ckm_part_miss(pt, j, count[j]);
    return e;
}

bool ckm_part_repair(const ckm_part *pt, int32_t *lab, size_t *count)
{
    size_t k = pt->k;
    for (size_t ex = ckm_part_excess(pt, lab, count); ex > 0;) {
        size_t bi = SIZE_MAX, bj = 0, bex = ex;
        double bv = INFINITY;
        for (size_t i = 0; i < pt->m; i++) {
            size_t l = (size_t)lab[i], w = pt->w[i];
            double now = ckm_part_move_cost(pt, lab, i, l);
            for (size_t j = 0; j < k; j++) {
                if (j == l)
                    continue;
                ptrdiff_t change = ckm_part_excess_change(pt, count, l, j, w);
                if (change >= 0)
                    continue;
                double v = ckm_part_move_cost(pt, lab, i, j) - now;
                if (v < bv) {
                    bv = v;
                    bi = i;
                    bj = j;
                    bex = ex - (size_t)(-change);
                }
            }
        }
        if (bi == SIZE_MAX)
            return false;
        count[lab[bi]] -= pt->w[bi];
        count[bj] += pt->w[bi];
        lab[bi] = (int32_t)bj;
        ex = bex;
    }
    return true;
}


/* Group order[d] takes cluster j: its unassigned neighbours' rows take what its edges decide. */
static void assign_at(search *s, size_t d, int32_t j)
{
    ckm_part *pt = s->pt;
    size_t k = pt->k, i = s->order[d], top = s->save[d];
    s->cur[i] = j;
    s->assigned[i] = 1;
    for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
        size_t u = pt->nbr[q];
        if (s->assigned[u])
            continue;
        double *row = pt->a + u * k;
        memcpy(s->stack + top, row, k * sizeof(double));
        s->stack[top + k] = s->minv[u];
        top += k + 1;
        if (pt->kind[q] == CKM_EDGE_HARD)
            row[j] = INFINITY;
        else
            ckm_pair_pay(row, k, (size_t)j, pt->p[q], pt->kind[q] == CKM_EDGE_MUST);
        s->minv[u] = row_min(row, k);
    }
}

/* Undo assign_at(s, d, .): the saved rows back, last saved first (two edges to the same
 * neighbour, e.g. a soft pair beside a hard cannot-link, saved its row twice: the first save
 * holds the row as it came). */
static void unassign_at(search *s, size_t d)
{
    ckm_part *pt = s->pt;
    size_t k = pt->k, i = s->order[d], top = s->save[d];
    for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++)
        top += s->assigned[pt->nbr[q]] ? 0 : k + 1;
    for (size_t q = pt->start[i + 1]; q-- > pt->start[i];) {
        size_t u = pt->nbr[q];
        if (s->assigned[u])
            continue;
        top -= k + 1;
        memcpy(pt->a + u * k, s->stack + top, k * sizeof(double));
        s->minv[u] = s->stack[top + k];
    }
    s->assigned[i] = 0;
}

/* The group to branch on (largest regret, the lowest index among equals; SIZE_MAX when all
 * are assigned) and *rest = sum of min_j a_uj over the other unassigned groups. */
static size_t pick(const search *s, double *rest)
{
    size_t m = s->pt->m, k = s->pt->k, best = SIZE_MAX;
    double r = 0.0, best_regret = -1.0;
    for (size_t u = 0; u < m; u++) {
        if (s->assigned[u])
            continue;
        const double *row = s->pt->a + u * k;
        double lo = INFINITY, second = INFINITY;
        for (size_t c = 0; c < k; c++) {
            if (row[c] < lo) {
                second = lo;
                lo = row[c];
            } else if (row[c] < second) {
                second = row[c];
            }
        }
        double regret = second - lo; /* INFINITY: one cluster left (or none: lo INFINITY too) */
        if (isnan(regret))
            regret = INFINITY;
        r += s->minv[u];
        if (regret > best_regret) {
            best_regret = regret;
            best = u;
        }
    }
    *rest = best == SIZE_MAX ? 0.0 : r - s->minv[best];
    return best;
}

/* The next child of depth d: the least (a_ij, j) above the last one tried; -1: none left. */
static int32_t next_child(search *s, size_t d)
{
    size_t k = s->pt->k;
    const double *row = s->pt->a + s->order[d] * k;
    double la = s->last_a[d];
    int32_t lj = s->last_j[d], best = -1;
    for (size_t c = 0; c < k; c++) {
        double v = row[c];
        bool after = v > la || (v == la && (int32_t)c > lj);
        if (after && v < INFINITY && (best < 0 || v < row[best]))
            best = (int32_t)c;
    }
    if (best >= 0) {
        s->last_a[d] = row[best];
        s->last_j[d] = best;
    }
    return best;
}

/* whether a node of this bound may still beat the incumbent (INFINITY: none yet) */
static bool below(double bound, double incumbent)
{
    return isinf(incumbent) ? bound < INFINITY : bound < incumbent - 1e-12 * fabs(incumbent);
}

/* The search proper (workspace ready); false when the budget or a limit ended it (the rows
 * restored either way). Past the budget without a labelling, the search goes on to its first
 * one for up to four plain dives' work more (a dive: (m + degree) k per group). */
static bool run(search *s, size_t budget, const ckm_bk_limits *lim, int32_t *lab, ckm_part_result *res)
{
    ckm_part *pt = s->pt;
    size_t m = pt->m, k = pt->k, d = 0;
    size_t dive = (m * m + pt->start[m]) * k, last = budget + 4 * dive;
    s->fixed[0] = 0.0;
    s->last_a[0] = -INFINITY;
    s->last_j[0] = -1;
    s->save[0] = 0;
    s->order[0] = pick(s, &s->rest[0]);
    for (;;) {
        int32_t j = next_child(s, d);
        double aij = j >= 0 ? pt->a[s->order[d] * k + (size_t)j] : INFINITY;
        if (j < 0 || !below(s->fixed[d] + aij + s->rest[d], res->value)) { /* depth exhausted */
            if (d == 0)
                return true;
            d--;
            unassign_at(s, d);
            continue;
        }
        size_t i = s->order[d];
        res->work += (m + pt->start[i + 1] - pt->start[i]) * k;
        bool spent = res->work > budget && (res->value < INFINITY || res->work > last);
        if (spent || ((++res->nodes & 1023) == 0 && ckm_bk_limits_reached(lim))) {
            while (d-- > 0) /* the rows as they came */
                unassign_at(s, d);
            return false;
        }
        assign_at(s, d, j);
        s->fixed[d + 1] = s->fixed[d] + aij;
        if (d + 1 == m) { /* a full labelling: F = fixed */
            if (s->fixed[m] < res->value) {
                res->value = s->fixed[m];
                memcpy(lab, s->cur, m * sizeof(int32_t));
            }
            unassign_at(s, d);
            continue;
        }
        double rest;
        size_t next = pick(s, &rest);
        if (!below(s->fixed[d + 1] + s->minv[next] + rest, res->value)) {
            unassign_at(s, d);
            continue;
        }
        s->save[d + 1] = s->save[d] + (pt->start[s->order[d] + 1] - pt->start[s->order[d]]) * (k + 1);
        d++;
        s->order[d] = next;
        s->rest[d] = rest;
        s->last_a[d] = -INFINITY;
        s->last_j[d] = -1;
    }
}

bool ckm_part_search(ckm_part *pt, const int32_t *start, size_t budget, const ckm_bk_limits *lim, int32_t *lab,
                     ckm_part_result *res)
{
    size_t m = pt->m, k = pt->k;
    search s = {.pt = pt};
    s.order = ckm_alloc_array(m, sizeof(size_t));
    s.assigned = ckm_calloc_array(m, 1);
    s.save = ckm_alloc_array(m + 1, sizeof(size_t));
    s.cur = ckm_alloc_array(m, sizeof(int32_t));
    s.last_j = ckm_alloc_array(m, sizeof(int32_t));
    s.minv = ckm_alloc_array(m, sizeof(double));
    s.fixed = ckm_alloc_array(m + 1, sizeof(double));
    s.last_a = ckm_alloc_array(m, sizeof(double));
    s.rest = ckm_alloc_array(m, sizeof(double));
    s.stack = ckm_alloc_array(pt->start[m] * (k + 1) + 1, sizeof(double));
    bool ok = s.order && s.assigned && s.save && s.cur && s.last_j && s.minv && s.fixed && s.last_a && s.rest && s.stack;
    if (ok) {
        *res = (ckm_part_result){false, INFINITY, 0, 0};
        if (start && (res->value = ckm_part_value(pt, start)) < INFINITY)
            memcpy(lab, start, m * sizeof(int32_t));
        for (size_t i = 0; i < m; i++)
            s.minv[i] = row_min(pt->a + i * k, k);
        res->done = run(&s, budget, lim, lab, res);
    }
    free(s.order);
    free(s.assigned);
    free(s.save);
    free(s.cur);
    free(s.last_j);
    free(s.minv);
    free(s.fixed);
    free(s.last_a);
    free(s.rest);
    free(s.stack);
    return ok;
}
