/*
 * part_cuts.c -- see part_cuts.h (the model, the cuts and why the bound is safe).
 * Columns: y_ij at i k + j (upper bound 0 where a_ij is INFINITY), then one x per soft edge.
 * Rows: m assignment rows (= 1), the hard cannot-links' k rows each (<= 1), a sized part's k
 * size rows (lo_j <= sum_i w_i y_ij <= hi_j), then the cut pool (sum coef x <= rhs; a sized
 * part's first call seeds it with every anchor triangle, up to CKM_PART_SEED_ROWS): a cut
 * holds for every labelling, so every node keeps it until it has been slack for SLACK_ROUNDS
 * rounds in a row (then its row is basic and leaves with its slack; found again if needed). The LP is rebuilt from these
 * arrays at each solve (ckm_bk_lp takes whole models) and warm-started from the last optimal
 * basis, the new rows' slacks basic: dual feasible whatever the node's bounds, so the dual
 * simplex resumes from it (a basis kept from an earlier call, ckm_part_pool, is primal
 * feasible instead: the primal simplex; so it is kept only when it is the root's, with the
 * pool cut back to the rows it covers).
 * Separation per round, violated by more than CUT_EPS: every anchor triangle (3 k per soft
 * edge; for k = 2 cluster 0's three and x_e + y_a0 + y_b0 >= 1, the one of cluster 1's that
 * y_a1 = 1 - y_a0 does not make one of cluster 0's); every triangle of three groups whose
 * pairs are all edges (O(m^3)); the cycles of part_cycles.h (odd cycles for k = 2, multicut
 * cycles for k >= 3). The candidates are ranked by violation per unit norm (violation /
 * sqrt(entries): short cycles first), equal ones once, and the first max(100, m) go in. A node branches when none is
 * violated, after ROUNDS_MAX rounds, or when STALL_ROUNDS rounds in a row raised its bound by
 * less than 1e-6 (1 + |bound|): on the y nearest 1/2, the side it leans to first.
 * Measured on PCCC's noisy sets (bench/README.md "PCCC"): the LPs are the time (CLP's
 * dual simplex, 150-2500 iterations a round on 300-600 groups, 0.1-0.8 s at 2000-2500 rows);
 * the root closes within 6-25 rounds where the pairs' noise is moderate.
 * Memory: 4 m^2 bytes (the pair map), the columns' and the pool's arrays, the LP's CSC copy and
 * CLP's model of it; the pair graph with the anchors (part_cycles.c).
 */
#include "part_cuts.h"
#include "part_cycles.h"
#include "part_tabu.h"

#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CUT_EPS 1e-6
#define INT_EPS 1e-6
#define ROUNDS_MAX 40
#define STALL_ROUNDS 3
#define SLACK_ROUNDS 3
enum { PAIR_NONE = -1, PAIR_HARD = -2 };

typedef struct bc {
    const ckm_part *pt;
    size_t m, k, ny, nx, ncols;
    int32_t *xa, *xb;      /* nx: an x column's groups, a < b */
    int32_t *pm;           /* m x m: PAIR_NONE, PAIR_HARD or the pair's x column */
    int32_t *ha, *hb;      /* hard cannot-links, a < b */
    size_t nhard;
    double cst;            /* sum of the must-links' p: the objective's constant */
    double *obj, *lo, *hi; /* ncols */
    ckm_part_pool pool, cand;
    ckm_part_graph *graph;  /* the pair graph with the anchors, for the cycle cuts */
    /* the LP as ckm_bk_lp takes it */
    int *cstart, *rind;    /* ncols + 1; the entries */
    double *val, *rlo, *rhi, *dual;
    double *x, *rc;        /* ncols: the LP's solution, reduced costs (and scratch) */
    size_t rindcap, valcap, rlocap, rhicap, dualcap, bascap, bocap;
    unsigned char *basis, *basis_out; /* ncols + rows */
    size_t basis_rows;     /* the rows basis holds codes for (0: no basis yet) */
    bool primal_next;      /* basis is a kept one (ckm_part_pool): primal simplex */
    size_t depth;          /* the node's depth (0: the root, every column's bounds [0, 1]) */
    bool basis_root;       /* basis is from an LP at the root */
    int32_t *lab, *best;
    size_t *count;         /* k: a sized part's points per cluster (scratch) */
    double inc;
    size_t solves, nodes, budget;
    bool tabu;             /* the tabu searches on */
    bool tabu_start;       /* the start's tabu search still to run (after the root's second LP) */
    const ckm_bk_limits *lim;
    bool aborted;
    ckm_error rc_err;
    ckm_err *err;
} bc;

/* the rows before the pool: assignment, hard cannot-links, a sized part's size rows */
static size_t fixed_rows(const bc *b) { return b->m + b->nhard * b->k + (b->pt->w ? b->k : 0); }
static size_t nrows(const bc *b) { return fixed_rows(b) + b->pool.n; }

/* ---- labellings: rounding, size repair and single moves ---- */

/* Whether moving w points from cluster l to j keeps a sized part's rows at count (unsized: always). */
static bool keeps_sizes(const ckm_part *pt, const size_t *count, size_t w, size_t l, size_t j)
{
    return !pt->w || (count[l] >= pt->lo[l] + w && count[j] + w <= pt->hi[j]);
}

/* Single moves that lower F until none does (at most 64 passes); on a sized part (lab keeping
 * its rows, count its points per cluster) only moves that keep the rows. */
static void improve(const ckm_part *pt, int32_t *lab, size_t *count)
{
    for (int pass = 0; pass < 64; pass++) {
        bool moved = false;
        for (size_t i = 0; i < pt->m; i++) {
            size_t l = (size_t)lab[i], bj = l, w = pt->w ? pt->w[i] : 0;
            double now = ckm_part_move_cost(pt, lab, i, l), bv = now;
            for (size_t j = 0; j < pt->k; j++) {
                if (j == l || !keeps_sizes(pt, count, w, l, j))
                    continue;
                double v = ckm_part_move_cost(pt, lab, i, j);
                if (v < bv - 1e-12 * (1.0 + fabs(bv))) {
                    bv = v;
                    bj = j;
                }
            }
            if (bj != l) {
                lab[i] = (int32_t)bj;
                if (pt->w) {
                    count[l] -= w;
                    count[bj] += w;
                }
                moved = true;
            }
        }
        if (!moved)
            break;
    }
}

/* lab as a candidate incumbent (improved first; a sized part's repaired into its rows first,
 * not offered when that fails). */
static void offer(bc *b, int32_t *lab)
{
    if (b->pt->w && !ckm_part_repair(b->pt, lab, b->count))
        return;
    improve(b->pt, lab, b->count);
    double f = ckm_part_value(b->pt, lab);
    if (f < b->inc) {
        b->inc = f;
        memcpy(b->best, lab, b->m * sizeof(int32_t));
    }
}

/* The LP solution's y rounded to each group's largest (an allowed cluster), offered. */
static void round_lp(bc *b)
{
    size_t k = b->k;
    for (size_t i = 0; i < b->m; i++) {
        size_t bj = 0;
        double bv = -1.0;
        for (size_t j = 0; j < k; j++)
            if (b->hi[i * k + j] > 0.0 && b->x[i * k + j] > bv) {
                bv = b->x[i * k + j];
                bj = j;
            }
        b->lab[i] = (int32_t)bj;
    }
    offer(b, b->lab);
}

/* A tabu search (part_tabu.h) from lab (when b->tabu and F(lab) is finite), its best offered. Seeded by
 * the node count, so a run is the same every time. false: out of memory (b->rc_err set, the
 * search aborted). */
static bool polish(bc *b, int32_t *lab)
{
    double v;
    if (!b->tabu || !(ckm_part_value(b->pt, lab) < INFINITY))
        return true;
    if (!ckm_part_tabu(b->pt, ckm_part_tabu_iterations(b->m, b->k), 0x5eed0000u + b->nodes, lab, &v)) {
        b->rc_err = ckm_fail(b->err, CKM_ERR_NOMEM, "out of memory for the tabu search of a split part");
        b->aborted = true;
        return false;
    }
    if (v < b->inc) {
        b->inc = v;
        memcpy(b->best, lab, b->m * sizeof(int32_t));
    }
    return true;
}

/* ---- the model ---- */

/* Columns, pair map and hard rows from the part's edges. false: out of memory. */
static bool build(bc *b)
{
    const ckm_part *pt = b->pt;
    size_t m = b->m, k = b->k, ne = pt->start[m];
    b->ny = m * k;
    b->pm = ckm_alloc_array(m * m + 1, sizeof(int32_t));
    b->xa = ckm_alloc_array(ne / 2 + 1, sizeof(int32_t));
    b->xb = ckm_alloc_array(ne / 2 + 1, sizeof(int32_t));
    b->ha = ckm_alloc_array(ne / 2 + 1, sizeof(int32_t));
    b->hb = ckm_alloc_array(ne / 2 + 1, sizeof(int32_t));
    b->obj = ckm_alloc_array(b->ny + ne / 2 + 1, sizeof(double));
    b->lo = ckm_alloc_array(b->ny + ne / 2 + 1, sizeof(double));
    b->hi = ckm_alloc_array(b->ny + ne / 2 + 1, sizeof(double));
    b->lab = ckm_alloc_array(m + 1, sizeof(int32_t));
    b->best = ckm_alloc_array(m + 1, sizeof(int32_t));
    b->count = ckm_alloc_array(k + 1, sizeof(size_t));
    b->cstart = ckm_alloc_array(b->ny + ne / 2 + 2, sizeof(int));
    b->x = ckm_alloc_array(b->ny + ne / 2 + 1, sizeof(double));
    b->rc = ckm_alloc_array(b->ny + ne / 2 + 1, sizeof(double));
    if (!b->pm || !b->xa || !b->xb || !b->ha || !b->hb || !b->obj || !b->lo || !b->hi || !b->lab || !b->best || !b->count ||
        !b->cstart || !b->x || !b->rc)
        return false;
    for (size_t q = 0; q < m * m; q++)
        b->pm[q] = PAIR_NONE;
    for (size_t c = 0; c < b->ny; c++) {
        bool allowed = pt->a[c] < INFINITY;
        b->obj[c] = allowed ? pt->a[c] : 0.0;
        b->lo[c] = 0.0;
        b->hi[c] = allowed ? 1.0 : 0.0;
    }
    size_t col = b->ny;
    for (size_t i = 0; i < m; i++)
        for (size_t q = pt->start[i]; q < pt->start[i + 1]; q++) {
            size_t u = pt->nbr[q];
            if (u <= i)
                continue; /* each edge once, from its lower end */
            int32_t *pij = &b->pm[i * m + u], *pji = &b->pm[u * m + i];
            if (pt->kind[q] == CKM_EDGE_HARD) {
                b->ha[b->nhard] = (int32_t)i;
                b->hb[b->nhard++] = (int32_t)u;
                *pij = *pji = PAIR_HARD; /* x = 0 there, whatever soft edge lies beside */
                continue;
            }
            b->xa[col - b->ny] = (int32_t)i;
            b->xb[col - b->ny] = (int32_t)u;
            bool must = pt->kind[q] == CKM_EDGE_MUST;
            b->obj[col] = must ? -pt->p[q] : pt->p[q];
            b->cst += must ? pt->p[q] : 0.0;
            b->lo[col] = 0.0;
            b->hi[col] = 1.0;
            if (*pij == PAIR_NONE)
                *pij = *pji = (int32_t)col;
            col++;
        }
    b->ncols = col;
    b->nx = col - b->ny;
    return true;
}

/* The LP's CSC arrays and row bounds for the current rows, and the warm basis extended by the
 * new rows' slacks (basic). false: out of memory. */
static bool assemble(bc *b)
{
    size_t m = b->m, k = b->k, nc = b->ncols, nr = nrows(b);
    size_t nz = (b->pt->w ? 2 : 1) * m * k + 2 * b->nhard * k;
    nz += b->pool.n ? b->pool.start[b->pool.n] : 0;
    if (!ckm_grow((void **)&b->rind, &b->rindcap, nz + 1, sizeof(int)) ||
        !ckm_grow((void **)&b->val, &b->valcap, nz + 1, sizeof(double)) ||
        !ckm_grow((void **)&b->rlo, &b->rlocap, nr + 1, sizeof(double)) ||
        !ckm_grow((void **)&b->rhi, &b->rhicap, nr + 1, sizeof(double)) ||
        !ckm_grow((void **)&b->dual, &b->dualcap, nr + 1, sizeof(double)) ||
        !ckm_grow((void **)&b->basis, &b->bascap, nc + nr + 1, 1) ||
        !ckm_grow((void **)&b->basis_out, &b->bocap, nc + nr + 1, 1))
        return false;
    if (b->basis_rows > 0)
        memset(b->basis + nc + b->basis_rows, CKM_LP_BASIC, nr - b->basis_rows);
    /* count per column, then place row by row (so each column's rows ascend) */
    memset(b->cstart, 0, (nc + 1) * sizeof(int));
    for (size_t c = 0; c < m * k; c++)
        b->cstart[c + 1] += b->pt->w ? 2 : 1;
    for (size_t h = 0; h < b->nhard; h++)
        for (size_t j = 0; j < k; j++) {
            b->cstart[(size_t)b->ha[h] * k + j + 1]++;
            b->cstart[(size_t)b->hb[h] * k + j + 1]++;
        }
    for (size_t q = 0; q < (b->pool.n ? b->pool.start[b->pool.n] : 0); q++)
        b->cstart[b->pool.col[q] + 1]++;
    for (size_t c = 0; c < nc; c++)
        b->cstart[c + 1] += b->cstart[c];
    int *fill = (int *)b->rc; /* scratch: nc ints fit in nc doubles */
    for (size_t c = 0; c < nc; c++)
        fill[c] = b->cstart[c];
    size_t row = 0;
#define PUT(c, v)                                                                                                      \
    do {                                                                                                               \
        int at_ = fill[(c)]++;                                                                                         \
        b->rind[at_] = (int)row;                                                                                       \
        b->val[at_] = (v);                                                                                             \
    } while (0)
    for (size_t i = 0; i < m; i++, row++) {
        for (size_t j = 0; j < k; j++)
            PUT(i * k + j, 1.0);
        b->rlo[row] = b->rhi[row] = 1.0;
    }
    for (size_t h = 0; h < b->nhard; h++)
        for (size_t j = 0; j < k; j++, row++) {
            PUT((size_t)b->ha[h] * k + j, 1.0);
            PUT((size_t)b->hb[h] * k + j, 1.0);
            b->rlo[row] = -CKM_BK_INF;
            b->rhi[row] = 1.0;
        }
    for (size_t j = 0; j < k && b->pt->w; j++, row++) {
        for (size_t i = 0; i < m; i++)
            PUT(i * k + j, (double)b->pt->w[i]);
        b->rlo[row] = (double)b->pt->lo[j];
        b->rhi[row] = (double)b->pt->hi[j];
    }
    for (size_t r = 0; r < b->pool.n; r++, row++) {
        for (size_t q = b->pool.start[r]; q < b->pool.start[r + 1]; q++)
            PUT((size_t)b->pool.col[q], b->pool.coef[q]);
        b->rlo[row] = -CKM_BK_INF;
        b->rhi[row] = b->pool.rhs[r];
    }
#undef PUT
    return true;
}

/* The Lagrangian bound of the node's LP at CLP's row duals y (part_cuts.h): with the
 * objective's constant,
 *   L(y) = cst + sum_r y_r b_r + sum_c min(rc_c lo_c, rc_c hi_c),  rc = obj - A'y,
 * b_r the row's bound y_r belongs to: its lower bound for y_r > 0 (y_r a_r x >= y_r lo_r),
 * its upper for y_r < 0; a sign whose bound is infinite (y_r > 0 on a <= row) counts as 0.
 * Every variable lies in [0, 1], so L(y) <= the LP's optimum <= every labelling of the node. */
static double safe_bound(bc *b)
{
    size_t nc = b->ncols, nr = nrows(b);
    double L = b->cst;
    for (size_t r = 0; r < nr; r++) {
        double y = b->dual[r];
        if ((y > 0.0 && b->rlo[r] <= -CKM_BK_INF) || (y < 0.0 && b->rhi[r] >= CKM_BK_INF))
            y = b->dual[r] = 0.0;
        L += y * (y > 0.0 ? b->rlo[r] : b->rhi[r]);
    }
    for (size_t c = 0; c < nc; c++) {
        double rc = b->obj[c];
        for (int q = b->cstart[c]; q < b->cstart[c + 1]; q++)
            rc -= b->val[q] * b->dual[b->rind[q]];
        L += rc < 0.0 ? rc * b->hi[c] : rc * b->lo[c];
    }
    return L;
}

/* ---- separation ---- */

/* x's value at a pair-map entry (a hard pair: 0). */
static double pair_x(const bc *b, int32_t e) { return e == PAIR_HARD ? 0.0 : b->x[e]; }

/* A candidate sum coef x <= 1 of three entries, a hard pair's (col < 0: x = 0) left out. */
static bool propose(bc *b, double viol, const int32_t *col, const double *coef)
{
    int32_t c[3];
    double f[3];
    size_t nz = 0;
    for (int e = 0; e < 3; e++)
        if (col[e] >= 0) {
            c[nz] = col[e];
            f[nz++] = coef[e];
        }
    return ckm_part_pool_add(&b->cand, nz, c, f, 1.0, viol);
}

/* The anchor triangles of a soft pair's x_e (groups a, b) at cluster j, as rows
 * c0 x_e + c1 y_aj + c2 y_bj <= c3: three at every j for k >= 3. For k = 2 cluster 0's three
 * and, from cluster 1's, x_e + y_a0 + y_b0 >= 1 (both in cluster 1 is together: its third
 * triangle rewritten by y_i1 = 1 - y_i0; its other two are cluster 0's). */
static const double ANCHOR[4][4] = {{1, 1, -1, 1}, {1, -1, 1, 1}, {-1, 1, 1, 1}, {-1, -1, -1, -1}};
static int anchor_rows(size_t k) { return k == 2 ? 4 : 3; }

/* Anchor triangles of x column e violated by the LP solution (every one when all: the pool's
 * seed). */
static bool anchor_cuts(bc *b, size_t e, bool all)
{
    size_t k = b->k, a = (size_t)b->xa[e], bb = (size_t)b->xb[e], c = b->ny + e;
    double xv = b->x[c];
    for (size_t j = 0; j < (k == 2 ? 1 : k); j++) {
        int32_t cols[3] = {(int32_t)c, (int32_t)(a * k + j), (int32_t)(bb * k + j)};
        double ya = b->x[a * k + j], yb = b->x[bb * k + j];
        for (int t = 0; t < anchor_rows(k); t++) {
            const double *r = ANCHOR[t];
            double v = r[0] * xv + r[1] * ya + r[2] * yb - r[3];
            if (all ? !ckm_part_pool_add(&b->pool, 3, cols, r, r[3], 0.0)
                    : v > CUT_EPS && !ckm_part_pool_add(&b->cand, 3, cols, r, r[3], v))
                return false;
        }
    }
    return true;
}

/* Every anchor triangle into the pool (a sized part's first call, up to CKM_PART_SEED_ROWS of
 * them: PCCC's LP, the full route's, whole; adding them a round at a time took 10+ rounds of
 * ever costlier LPs to reach the bound that LP gives at once: breast_cancer at 10 %, 569
 * groups, 1596 pairs, with size bounds, one LP of 0.06 s against 12 rounds in 2 s; without
 * size bounds it was measured too, bench/README.md "Soft pairs with size bounds": faster on
 * the easy settings, but ecoli's 24 runs (k = 8: 24 rows a pair) ended higher in 11). false:
 * out of memory. */
static bool seed_anchors(bc *b)
{
    for (size_t e = 0; e < b->nx; e++)
        if (!anchor_cuts(b, e, true))
            return false;
    return true;
}

/* Triangles of groups a < bb < c whose three pairs are edges, violated by the LP solution. */
static bool group_cuts(bc *b)
{
    size_t m = b->m;
    for (size_t a = 0; a < m; a++)
        for (size_t bb = a + 1; bb < m; bb++) {
            int32_t eab = b->pm[a * m + bb];
            if (eab == PAIR_NONE)
                continue;
            double vab = pair_x(b, eab);
            for (size_t c = bb + 1; c < m; c++) {
                int32_t eac = b->pm[a * m + c], ebc = b->pm[bb * m + c];
                if (eac == PAIR_NONE || ebc == PAIR_NONE)
                    continue;
                double vac = pair_x(b, eac), vbc = pair_x(b, ebc);
                int32_t cols[3] = {eab, ebc, eac};
                for (int t = 0; t < 3; t++) { /* the pair with -1: ac, ab, bc */
                    double co[3] = {1, 1, 1};
                    co[t == 0 ? 2 : t == 1 ? 0 : 1] = -1;
                    double v = co[0] * vab + co[1] * vbc + co[2] * vac - 1.0;
                    if (v > CUT_EPS && !propose(b, v, cols, co))
                        return false;
                }
            }
        }
    return true;
}

typedef struct ranked {
    double viol;
    size_t i;
} ranked;

static int by_violation(const void *p, const void *q)
{
    double a = ((const ranked *)p)->viol, c = ((const ranked *)q)->viol;
    return a > c ? -1 : a < c ? 1 : 0;
}

static bool same_cut(const ckm_part_pool *s, size_t a, const ckm_part_pool *t, size_t c)
{
    size_t na = s->start[a + 1] - s->start[a];
    if (na != t->start[c + 1] - t->start[c] || s->rhs[a] != t->rhs[c])
        return false;
    return na == 0 || (memcmp(s->col + s->start[a], t->col + t->start[c], na * sizeof(int32_t)) == 0 &&
           memcmp(s->coef + s->start[a], t->coef + t->start[c], na * sizeof(double)) == 0);
}

/* Cuts slack at the LP solution for SLACK_ROUNDS rounds in a row leave the pool (their rows
 * are basic, so the warm basis loses them with their slacks and stays a basis); a cut that is
 * needed again is found again. */
static void purge(bc *b)
{
    ckm_part_pool *p = &b->pool;
    size_t base = fixed_rows(b), nc = b->ncols, w = 0, at = 0;
    bool basis = b->basis_rows == base + p->n;
    for (size_t r = 0; r < p->n; r++) {
        double act = 0.0;
        for (size_t q = p->start[r]; q < p->start[r + 1]; q++)
            act += p->coef[q] * b->x[p->col[q]];
        p->viol[r] = act < p->rhs[r] - 1e-6 ? p->viol[r] + 1.0 : 0.0;
        size_t s0 = p->start[r], s1 = p->start[r + 1];
        if (p->viol[r] >= SLACK_ROUNDS && (!basis || b->basis[nc + base + r] == CKM_LP_BASIC))
            continue;
        memmove(p->col + at, p->col + s0, (s1 - s0) * sizeof(int32_t));
        memmove(p->coef + at, p->coef + s0, (s1 - s0) * sizeof(double));
        p->start[w] = at;
        at += s1 - s0;
        p->rhs[w] = p->rhs[r];
        p->viol[w] = p->viol[r];
        if (basis)
            b->basis[nc + base + w] = b->basis[nc + base + r];
        w++;
    }
    p->start[w] = at;
    p->n = w;
    if (basis)
        b->basis_rows = base + w;
}

/* The most violated cuts into the pool (a cut equal to one taken this round once): how many
 * (0: none violated). SIZE_MAX: out of memory. */
static size_t separate(bc *b)
{
    if (b->pool.n > 0)
        purge(b);
    b->cand.n = 0;
    for (size_t e = 0; e < b->nx; e++)
        if (!anchor_cuts(b, e, false))
            return SIZE_MAX;
    if (!group_cuts(b) || (b->k >= 2 && !ckm_part_cycles(b->graph, b->x, CUT_EPS, &b->cand)))
        return SIZE_MAX;
    size_t nc = b->cand.n, cap = b->m > 100 ? b->m : 100, first = b->pool.n;
    ranked *rk = ckm_alloc_array(nc + 1, sizeof(ranked));
    if (!rk)
        return SIZE_MAX;
    for (size_t i = 0; i < nc; i++) /* violation per unit norm: short cycles first */
        rk[i] = (ranked){b->cand.viol[i] / sqrt((double)(b->cand.start[i + 1] - b->cand.start[i])), i};
    qsort(rk, nc, sizeof(ranked), by_violation);
    for (size_t q = 0; q < nc && b->pool.n - first < cap; q++) {
        size_t i = rk[q].i;
        bool dup = false;
        for (size_t r = b->pool.n; r > first && !dup && b->pool.viol[r - 1] <= rk[q].viol + 1e-9; r--)
            dup = same_cut(&b->pool, r - 1, &b->cand, i);
        size_t s0 = b->cand.start[i];
        if (!dup && !ckm_part_pool_add(&b->pool, b->cand.start[i + 1] - s0, b->cand.col + s0, b->cand.coef + s0,
                            b->cand.rhs[i], rk[q].viol)) {
            free(rk);
            return SIZE_MAX;
        }
    }
    free(rk);
    for (size_t r = first; r < b->pool.n; r++)
        b->pool.viol[r] = 0.0; /* from here on: the rounds it has been slack */
    return b->pool.n - first;
}

/* ---- branch and bound ---- */

/* One LP solve of the node: OPTIMAL (x, dual set), INFEASIBLE, or anything else (b->aborted
 * or an error set). */
static ckm_bk_status solve(bc *b)
{
    if (b->solves >= b->budget || ckm_bk_limits_reached(b->lim)) {
        b->aborted = true;
        return CKM_BK_LIMIT_NONE;
    }
    if (!assemble(b)) {
        b->rc_err = ckm_fail(b->err, CKM_ERR_NOMEM, "out of memory for the cut model of a split part");
        b->aborted = true;
        return CKM_BK_FAILED;
    }
    size_t nr = nrows(b);
    ckm_lp lp = {(int)b->ncols, (int)nr, b->obj, b->lo, b->hi, b->rlo, b->rhi, b->cstart, b->rind, b->val,
                 b->basis_rows > 0 ? b->basis : NULL, b->basis_out, b->primal_next};
    b->primal_next = false;
    ckm_bk_result r;
    b->solves++;
    ckm_error rc = ckm_bk_lp(&lp, b->lim, b->x, b->dual, &r, b->err);
    if (rc != CKM_OK) {
        b->rc_err = rc;
        b->aborted = true;
        return CKM_BK_FAILED;
    }
    if (r.status == CKM_BK_OPTIMAL) {
        memcpy(b->basis, b->basis_out, b->ncols + nr);
        b->basis_rows = nr;
        b->basis_root = b->depth == 0;
    } else if (r.status != CKM_BK_INFEASIBLE)
        b->aborted = true;
    return r.status;
}

/* The y column nearest 1/2 among the fractional ones, or SIZE_MAX (y integral). */
static size_t most_fractional(const bc *b)
{
    size_t at = SIZE_MAX;
    double far = INT_EPS;
    for (size_t c = 0; c < b->ny; c++) {
        double f = fmin(b->x[c], 1.0 - b->x[c]);
        if (f > far) {
            far = f;
            at = c;
        }
    }
    return at;
}

static bool pruned(const bc *b, double L) { return L >= b->inc - 1e-9 * (1.0 + fabs(b->inc)); }

/* The node's cut rounds. Returns the column to branch on, or SIZE_MAX when the node is closed
 * (pruned, infeasible, integral) or the search aborted. */
static size_t cut_rounds(bc *b)
{
    double last = -INFINITY;
    int stall = 0;
    for (int round = 0;; round++) {
        ckm_bk_status st = solve(b);
        if (st != CKM_BK_OPTIMAL)
            return SIZE_MAX; /* infeasible: closed; else aborted */
        double L = safe_bound(b);
        if (pruned(b, L))
            return SIZE_MAX;
        if (b->tabu_start && round >= 1) { /* two LPs did not prove the start: its tabu search now */
            b->tabu_start = false;
            memcpy(b->lab, b->best, b->m * sizeof(int32_t));
            if (!polish(b, b->lab) || pruned(b, L))
                return SIZE_MAX;
        }
        round_lp(b);
        if (pruned(b, L))
            return SIZE_MAX;
        size_t frac = most_fractional(b);
        if (frac != SIZE_MAX) {
            stall = L <= last + 1e-6 * (1.0 + fabs(L)) ? stall + 1 : 0;
            if (stall >= STALL_ROUNDS || round >= ROUNDS_MAX)
                return frac;
        } else if (round >= 4 * ROUNDS_MAX) {
            /* integral y whose triangles keep reappearing (the LP's tolerance against
               CUT_EPS): no verdict on this node, so none on the part */
            b->aborted = true;
            return SIZE_MAX;
        }
        last = L;
        size_t added = separate(b);
        if (added == SIZE_MAX) {
            b->rc_err = ckm_fail(b->err, CKM_ERR_NOMEM, "out of memory for the cuts of a split part");
            b->aborted = true;
            return SIZE_MAX;
        }
        if (added == 0)
            /* no violated triangle: with y integral the LP's optimum is that labelling's F
               (x is forced by the anchor triangles), which round_lp offered: closed */
            return frac;
    }
}

static void node(bc *b)
{
    if (b->aborted)
        return;
    b->nodes++;
    size_t c = cut_rounds(b);
    if (c == SIZE_MAX || b->aborted)
        return;
    /* before branching: the last LP's rounding (b->lab, after single moves) further by tabu */
    if (!polish(b, b->lab))
        return;
    bool up = b->x[c] >= 0.5;
    for (int side = 0; side < 2 && !b->aborted; side++) {
        bool one = side == 0 ? up : !up;
        if (one)
            b->lo[c] = 1.0;
        else
            b->hi[c] = 0.0;
        b->depth++;
        node(b);
        b->depth--;
        b->lo[c] = 0.0;
        b->hi[c] = 1.0;
    }
}

static void bc_free(bc *b)
{
    void *arrays[] = {b->xa,   b->xb,   b->pm,   b->ha,    b->hb,   b->obj,  b->lo,   b->hi,   b->cstart,
                      b->rind, b->val,  b->rlo,  b->rhi,   b->dual, b->x,    b->rc,   b->basis, b->basis_out,
                      b->lab,  b->best, b->count};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    ckm_part_pool_free(&b->pool);
    ckm_part_pool_free(&b->cand);
    ckm_part_graph_free(b->graph);
}

ckm_error ckm_part_cuts(const ckm_part *pt, const int32_t *start, size_t lp_budget, bool tabu,
                        const ckm_bk_limits *lim, ckm_part_pool *keep, int32_t *lab, ckm_part_result *res, ckm_err *err)
{
    *res = (ckm_part_result){false, INFINITY, 0, 0};
    bc b = {.pt = pt, .m = pt->m, .k = pt->k, .inc = INFINITY, .budget = lp_budget, .tabu = tabu, .lim = lim, .err = err};
    if (keep) { /* the pool takes the kept cuts, and gives them back at the end */
        b.pool = *keep;
        *keep = (ckm_part_pool){0};
        for (size_t r = 0; r < b.pool.n; r++)
            b.pool.viol[r] = 0.0;
        b.basis = b.pool.basis;
        b.bascap = b.pool.bascap;
        b.basis_rows = b.pool.basis_rows;
        b.primal_next = b.basis_rows > 0;
        b.pool.basis = NULL;
    }
    bool built = build(&b) && (!pt->w || b.pool.n > 0 || ckm_part_seed_rows(b.k, b.nx) > CKM_PART_SEED_ROWS ||
                               seed_anchors(&b));
    if (built && b.k >= 2)
        b.graph = ckm_part_graph_new(b.m, b.k, b.nx, b.xa, b.xb, b.ny, b.nhard, b.ha, b.hb);
    if (!built || (b.k >= 2 && !b.graph)) {
        bc_free(&b);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the cut model of a split part");
    }
    if (start) {
        memcpy(b.lab, start, b.m * sizeof(int32_t));
        if (ckm_part_value(pt, b.lab) < INFINITY)
            offer(&b, b.lab);
    }
    /* the start's tabu search (most of the incumbent's gain): on a sized part once the root's
       first two LPs (seeded with PCCC's LP, often integral there) have not proven the start,
       else before the root, where each LP is a cut round of a few */
    b.tabu_start = pt->w && b.inc < INFINITY;
    if (!pt->w && b.inc < INFINITY) {
        memcpy(b.lab, b.best, b.m * sizeof(int32_t));
        if (!polish(&b, b.lab)) {
            bc_free(&b);
            return b.rc_err;
        }
    }
    node(&b);
    res->done = !b.aborted;
    res->value = b.inc;
    res->nodes = b.nodes;
    res->work = b.solves;
    if (b.inc < INFINITY)
        memcpy(lab, b.best, b.m * sizeof(int32_t));
    ckm_error rc = b.rc_err;
    if (keep) {
        /* the basis is kept for a primal start when it is the root's (a node's bounds are gone)
           and the pool is cut back to the rows it covers: a cut added after it is violated
           there (its slack basic and negative), so it would not be primal feasible */
        size_t fixed = fixed_rows(&b);
        if (b.basis_root && b.basis_rows >= fixed && b.basis_rows <= fixed + b.pool.n)
            b.pool.n = b.basis_rows - fixed;
        else
            b.basis_rows = 0;
        *keep = b.pool;
        keep->basis = b.basis;
        keep->bascap = b.bascap;
        keep->basis_rows = b.basis_rows;
        b.pool = (ckm_part_pool){0};
        b.basis = NULL;
    }
    bc_free(&b);
    return rc;
}
