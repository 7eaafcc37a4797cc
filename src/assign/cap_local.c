/*
 * cap_local.c -- repair and improvement of labellings of an assignment step with capacity
 * rows (cap_local.h).
 *
 * Repair (ckm_cap_repair; the labelling may break size and capacity rows, and
 * cannot-links, which no move here mends: such a labelling is not repaired): cluster by cluster, a cluster above a
 * maximum sends its groups out, cheapest first (each to its cheapest cluster with room: the
 * receiver stays within its maxima, the sender within its minima, no cannot-link partner
 * in the receiver); a cluster below a minimum takes groups in, cheapest first, under the
 * same rules. Sorting each broken cluster's candidates once costs O(s log s + s k) per
 * broken cluster (a global cheapest move per step cost O(s k) per move: 37 s of a 10^5-group
 * step). Three passes over the clusters at most. (Letting the receiver break its maximum,
 * to be mended in its turn, was tried: two clusters then pushed groups back and forth, and
 * the repaired LP point of a 20,000-group step cost 9 % more, not 1.6 %.)
 *
 * Improvement (ckm_cap_local_search): moves and swaps on a feasible labelling, each keeping
 * every row: one cluster per group, the size bounds
 * lo_j <= sum_{l(t)=j} W_t <= hi_j, the capacities Lc_j - tau <= sum_{l(t)=j} Q_t <= Uc_j + tau
 * (tau = r->cap_tol, the checker's), and the cannot-links.
 *   move  t: a -> b                      delta = c_tb - c_ta
 *   swap  t: a -> b and u: b -> a        delta = (c_tb - c_ta) + (c_ua - c_ub)
 * A change is made when delta < -1e-12 (1 + the |costs| involved), so the total strictly
 * falls and the labelling stays feasible: the result is never worse than the input. Soft
 * pairs are not priced here: ckm_cap_best keeps the better of the input and the result by
 * the step's objective (measured at 10^5 x 8, k = 20, 7000 soft pairs, capacities +-5 %: the
 * moves raised a step's objective by 1.5 % and the step, cut at its limit, returned that).
 * A sweep: each group in index order takes its best improving feasible move; then swaps
 * between the groups whose cheapest other cluster is each other's (t in a preferring b, u in
 * b preferring a; gain_t = c_ta - c_tb, lists sorted by gain, the first 64 of each list
 * tried while gain_t + gain_u > 0). Moves alone stall when neighbouring clusters sit at
 * their capacities: a swap of two groups of close demand moves no load. Sweeps repeat
 * until one changes nothing, 100 sweeps, or a limit (polled after each sweep, so one sweep
 * is made even past the step's deadline: it costs little next to the step).
 * Cost per sweep O(s k + s log s + pairs incident to the groups).
 */
#include "cap_local.h"
#include "core.h"
#include "incidence.h"
#include "route.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cand {
    size_t t;
    size_t key; /* a k + b: t sits in a, b is its cheapest other cluster */
    double gain; /* c_ta - c_tb */
} cand;

typedef struct lsearch {
    const ckm_reduced *r;
    const double *cost;
    const size_t *inc_start, *inc;
    int32_t *lab;
    double *load, *size;
} lsearch;

/* Whether a cannot-link partner of t other than `except` sits in j. */
static bool partner_in(const lsearch *L, size_t t, size_t j, size_t except)
{
    for (size_t e = L->inc_start[t]; e < L->inc_start[t + 1]; e++) {
        size_t b = ckm_pair_other(L->r->cl, L->inc[e], t);
        if (b != except && (size_t)L->lab[b] == j)
            return true;
    }
    return false;
}

/* Cluster j's rows hold after its load changes by dq and its size by dw. */
static bool rows_hold(const lsearch *L, size_t j, double dq, double dw)
{
    const ckm_reduced *r = L->r;
    double q = L->load[j] + dq, w = L->size[j] + dw;
    return q <= r->cap_hi[j] + r->cap_tol && q >= r->cap_lo[j] - r->cap_tol && w <= (double)r->hi[j] &&
           w >= (double)r->lo[j];
}

static void relabel(lsearch *L, size_t t, size_t j)
{
    size_t a = (size_t)L->lab[t];
    L->load[a] -= L->r->demand[t];
    L->size[a] -= (double)L->r->weight[t];
    L->load[j] += L->r->demand[t];
    L->size[j] += (double)L->r->weight[t];
    L->lab[t] = (int32_t)j;
}

static bool improves(double delta, double scale)
{
    return delta < -1e-12 * (1.0 + scale);
}

/* Each group's best improving feasible move; the number made. */
static size_t move_pass(lsearch *L)
{
    const ckm_reduced *r = L->r;
    size_t s = r->s, k = r->k, made = 0;
    for (size_t t = 0; t < s; t++) {
        size_t a = (size_t)L->lab[t], bj = k;
        double q = r->demand[t], w = (double)r->weight[t], ca = L->cost[t * k + a], best = 0.0;
        if (!rows_hold(L, a, -q, -w))
            continue;
        for (size_t j = 0; j < k; j++) {
            double d = L->cost[t * k + j] - ca;
            if (j == a || d >= best || !improves(d, fabs(ca) + fabs(L->cost[t * k + j])))
                continue;
            if (rows_hold(L, j, q, w) && !partner_in(L, t, j, s)) {
                best = d;
                bj = j;
            }
        }
        if (bj < k) {
            relabel(L, t, bj);
            made++;
        }
    }
    return made;
}

static int by_key_gain(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->gain != b->gain)
        return a->gain > b->gain ? -1 : 1;
    return a->t < b->t ? -1 : a->t > b->t;
}

/* First index of key in the sorted list (n when absent). */
static size_t find_key(const cand *c, size_t n, size_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && c[lo].key == key ? lo : n;
}

/* Try t (list A, in a preferring b) against the first 64 of list B (in b preferring a). */
static bool try_swaps(lsearch *L, const cand *B, size_t nb, size_t t, size_t a, size_t b)
{
    const ckm_reduced *r = L->r;
    size_t k = r->k;
    if ((size_t)L->lab[t] != a)
        return false;
    for (size_t i = 0; i < nb && i < 64; i++) {
        size_t u = B[i].t;
        if ((size_t)L->lab[u] != b)
            continue;
        double cta = L->cost[t * k + a], ctb = L->cost[t * k + b], cub = L->cost[u * k + b], cua = L->cost[u * k + a];
        double delta = (ctb - cta) + (cua - cub);
        if (!improves(delta, fabs(cta) + fabs(ctb) + fabs(cub) + fabs(cua)))
            continue;
        double dq = r->demand[u] - r->demand[t], dw = (double)r->weight[u] - (double)r->weight[t];
        if (!rows_hold(L, a, dq, dw) || !rows_hold(L, b, -dq, -dw) || partner_in(L, t, b, u) ||
            partner_in(L, u, a, t))
            continue;
        relabel(L, t, b);
        relabel(L, u, a);
        return true;
    }
    return false;
}

/* Swaps between the lists of each pair of clusters; the number made. */
static size_t swap_pass(lsearch *L, cand *c)
{
    const ckm_reduced *r = L->r;
    size_t s = r->s, k = r->k, n = 0, made = 0;
    for (size_t t = 0; t < s; t++) {
        size_t a = (size_t)L->lab[t], b = k;
        for (size_t j = 0; j < k; j++)
            if (j != a && (b == k || L->cost[t * k + j] < L->cost[t * k + b]))
                b = j;
        if (b < k)
            c[n++] = (cand){t, a * k + b, L->cost[t * k + a] - L->cost[t * k + b]};
    }
    qsort(c, n, sizeof *c, by_key_gain);
    for (size_t i = 0; i < n;) {
        size_t key = c[i].key, end = i, a = key / k, b = key % k;
        while (end < n && c[end].key == key)
            end++;
        size_t rb = a < b ? find_key(c, n, b * k + a) : n; /* each unordered pair once */
        size_t re = rb;
        while (re < n && c[re].key == b * k + a)
            re++;
        for (size_t x = i; rb < n && x < end; x++) {
            if (c[x].gain + c[rb].gain <= 0.0)
                break; /* both lists descend: no later pair gains */
            made += try_swaps(L, c + rb, re - rb, c[x].t, a, b);
        }
        i = end;
    }
    return made;
}

/* A cluster's rows: 1 above a maximum, -1 below a minimum, 0 within. */
static int state(const lsearch *L, size_t j)
{
    const ckm_reduced *r = L->r;
    if (L->load[j] > r->cap_hi[j] + r->cap_tol || L->size[j] > (double)r->hi[j])
        return 1;
    if (L->load[j] < r->cap_lo[j] - r->cap_tol || L->size[j] < (double)r->lo[j])
        return -1;
    return 0;
}

/* Group t may leave its cluster for j: j within its maxima and the sender within its
 * minima after the move, no cannot-link partner in j. */
static bool may_move(const lsearch *L, size_t t, size_t j)
{
    const ckm_reduced *r = L->r;
    size_t a = (size_t)L->lab[t];
    double q = r->demand[t], w = (double)r->weight[t];
    return j != a && L->load[j] + q <= r->cap_hi[j] + r->cap_tol && L->size[j] + w <= (double)r->hi[j] &&
           L->load[a] - q >= r->cap_lo[a] - r->cap_tol && L->size[a] - w >= (double)r->lo[a] &&
           !partner_in(L, t, j, r->s);
}

/* t's cheapest cluster it may move to (k when none). */
static size_t cheapest_move(const lsearch *L, size_t t)
{
    size_t k = L->r->k, b = k;
    for (size_t j = 0; j < k; j++)
        if ((b == k || L->cost[t * k + j] < L->cost[t * k + b]) && may_move(L, t, j))
            b = j;
    return b;
}

static int by_gain(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->gain != b->gain)
        return a->gain < b->gain ? -1 : 1;
    return a->t < b->t ? -1 : a->t > b->t;
}

/* Cluster j broken (dir 1: above, -1: below): its cheapest moves, in order, until it holds. */
static void fix_cluster(lsearch *L, cand *c, size_t j, int dir)
{
    const ckm_reduced *r = L->r;
    size_t s = r->s, k = r->k, n = 0;
    for (size_t t = 0; t < s; t++) {
        size_t a = (size_t)L->lab[t];
        if (dir > 0 && a == j) {
            size_t b = cheapest_move(L, t);
            if (b < k)
                c[n++] = (cand){t, b, L->cost[t * k + b] - L->cost[t * k + j]};
        } else if (dir < 0 && a != j && may_move(L, t, j)) {
            c[n++] = (cand){t, j, L->cost[t * k + j] - L->cost[t * k + a]};
        }
    }
    qsort(c, n, sizeof *c, by_gain); /* gain here: the move's cost increase, ascending */
    for (size_t i = 0; i < n && state(L, j) == dir; i++) {
        size_t t = c[i].t, b = c[i].key;
        if (!may_move(L, t, b) && (dir < 0 || (b = cheapest_move(L, t)) == k))
            continue;
        relabel(L, t, b);
    }
}

/* The search state over lab (its clusters' loads and sizes) and a candidate buffer of s
 * entries; NULL on allocation failure (then nothing is held). */
static cand *ls_open(lsearch *L, const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                     int32_t *lab)
{
    *L = (lsearch){r, cost, inc_start, inc, lab, ckm_calloc_array(r->k, sizeof(double)),
                   ckm_calloc_array(r->k, sizeof(double))};
    cand *c = ckm_alloc_array(r->s, sizeof(cand));
    if (!L->load || !L->size || !c) {
        free(L->load);
        free(L->size);
        free(c);
        return NULL;
    }
    for (size_t t = 0; t < r->s; t++) {
        L->load[lab[t]] += r->demand[t];
        L->size[lab[t]] += (double)r->weight[t];
    }
    return c;
}

static void ls_close(lsearch *L, cand *c)
{
    free(L->load);
    free(L->size);
    free(c);
}

bool ckm_cap_repair(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc, int32_t *lab)
{
    lsearch L;
    cand *c = ls_open(&L, r, cost, inc_start, inc, lab);
    if (!c)
        return false;
    bool held = false;
    for (int pass = 0; pass < 3 && !held; pass++) {
        for (size_t j = 0; j < r->k; j++)
            if (state(&L, j) != 0)
                fix_cluster(&L, c, j, state(&L, j));
        held = true;
        for (size_t j = 0; j < r->k && held; j++)
            held = state(&L, j) == 0;
    }
    for (size_t e = 0; held && e < r->n_cl; e++)
        held = lab[r->cl[2 * e]] != lab[r->cl[2 * e + 1]];
    ls_close(&L, c);
    return held;
}

bool ckm_cap_local_search(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                          const ckm_bk_limits *lim, int32_t *lab, size_t *moves)
{
    lsearch L;
    cand *c = ls_open(&L, r, cost, inc_start, inc, lab);
    *moves = 0;
    if (!c)
        return false;
    for (int sweep = 0; sweep < 100; sweep++) {
        size_t made = move_pass(&L);
        made += swap_pass(&L, c);
        *moves += made;
        if (made == 0 || ckm_bk_limits_reached(lim)) /* one sweep at least: it is cheap */
            break;
    }
    ls_close(&L, c);
    return true;
}

bool ckm_cap_best(const ckm_reduced *r, const double *cost, const size_t *inc_start, const size_t *inc,
                  const int32_t *const *pool, size_t n, const ckm_bk_limits *lim, int32_t *best, size_t *moves,
                  bool *nomem)
{
    const int32_t *pick = NULL;
    double least = INFINITY;
    *nomem = false;
    for (size_t i = 0; i < n; i++) {
        double f = pool[i] ? ckm_step_total(r, cost, pool[i]) : INFINITY;
        if (pool[i] && (!pick || f < least)) {
            pick = pool[i];
            least = f;
        }
    }
    if (!pick)
        return false;
    memcpy(best, pick, r->s * sizeof(int32_t));
    size_t moved = 0;
    if (!ckm_cap_local_search(r, cost, inc_start, inc, lim, best, &moved))
        return !(*nomem = true);
    *moves += moved;
    if (r->n_soft > 0 && ckm_step_total(r, cost, best) > least) /* its moves priced no soft pair */
        memcpy(best, pick, r->s * sizeof(int32_t));
    return true;
}
