/*
 * assign_fix.c -- the full model's MILP by reduced-cost fixing, for steps with capacity rows
 * (assign.c's full_solve when the LP vertex is fractional and r->has_caps). The step is then
 * a generalized assignment problem: its LP is rarely integral, and CBC on all s k columns did
 * not prove one step of 2000 points, k = 10, loads within +-5 % in 300 s (bench/README.md).
 *
 * Bound (the final LP's duals y, CLP's sign rc = c - A'y; at the LP optimum every column is
 * basic (rc = 0), at 0 with rc >= 0 or at 1 with rc <= 0): for every 0/1 point x of the model
 *   cost(x) >= z_LP + sum_{rc_c > 0} rc_c x_c + sum_{rc_c < 0} |rc_c| (1 - x_c)
 * (cost(x) = rc'x + y'Ax >= rc'x + y'Ax*, as y_i > 0 only on rows at their lower bound and
 * y_i < 0 only at their upper one). So a labelling of cost <= z_LP + delta uses no column
 * with rc > delta and every column with rc < -delta. On that column set a presolve fixes
 * each group with a forced column or one column left (its cannot-link partners lose that
 * cluster, cascading; its weight and demand leave the size and capacity rows), and CBC gets
 * the rest as a compact model. An optimum of cost <= z_LP + delta there is the full model's.
 * delta starts at 1e-8 (|z_LP| + 1) and grows 4x, capped at the best labelling's excess (the
 * start's, or one CBC found, which becomes CBC's next start): at the cap every labelling
 * that could beat the incumbent is in the set, so CBC's verdict is proven. At a limit (the
 * run's, or the step limit of blp_lloyd.c) the best labelling known is returned, unproven.
 * The incumbent: the previous step's labels, or the LP point rounded (each group at its largest
 * value) and repaired (ckm_cap_repair, cap_local.c), whichever is cheaper; without it the
 * first step's rounds had no cap, and at 5000 points, k = 20 one round ran CBC for 90 s.
 * (assign_cg_mip.c does the same on the restricted model.) Soft pairs are not taken here.
 *
 * The same rounds serve the price route (assign_price.c, ckm_assign_fix_core): there the
 * bound z is the Lagrangian value g(p) and rc its reduced costs (>= 0), for which the bound
 * above holds as well (assign_price.c proves it); the labelling to repair is the prices'
 * argmin. Either incumbent is improved by moves and swaps (cap_local.c) before the rounds.
 */
#include "assign.h"
#include "core.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OUT = 0, FREE = 1, FORCED = 2 };

typedef struct fixer {
    const ckm_reduced *r;
    const double *cost;   /* s k */
    const double *rc;     /* s k reduced costs: the final LP's, or the prices' */
    unsigned char *st;    /* s k: OUT, FREE, FORCED under the current delta */
    long *col_of;         /* s k: compact column, or -1 */
    int32_t *fixed;       /* s: cluster, or -1 */
    size_t *queue, *inc_start, *inc;
    double *fw, *fq;      /* k: the fixed groups' weight and demand per cluster */
} fixer;

/* The compact model CBC gets: its arrays, and the column -> t k + j map. */
typedef struct cmodel {
    size_t cols, rows, g;
    int *cs, *ri;
    double *val, *obj, *clo, *chi, *rlo, *rhi, *x, *start;
    size_t *col_t, *fill;
} cmodel;

static void cmodel_free(cmodel *m)
{
    free(m->cs);
    free(m->ri);
    free(m->val);
    free(m->obj);
    free(m->clo);
    free(m->chi);
    free(m->rlo);
    free(m->rhi);
    free(m->x);
    free(m->start);
    free(m->col_t);
    free(m->fill);
    memset(m, 0, sizeof *m);
}

/* Reduced costs c - A'y of every y column from the full model's CSC and the row duals. */
static void reduced_costs(const ckm_assign *a, const double *dual, double *rc)
{
    size_t ycols = a->r->s * a->r->k;
    for (size_t c = 0; c < ycols; c++) {
        double v = a->obj[c];
        for (int p = a->col_start[c]; p < a->col_start[c + 1]; p++)
            v -= a->value[p] * dual[a->row_index[p]];
        rc[c] = v;
    }
}

/* Column states under delta; with keep (the incumbent, delta at the cap) its columns stay in
 * and nothing is forced. */
static void classify(fixer *f, double delta, const int32_t *keep)
{
    size_t s = f->r->s, k = f->r->k;
    for (size_t c = 0; c < s * k; c++) {
        double tol = 1e-9 * (1.0 + fabs(f->cost[c]) + fabs(delta));
        f->st[c] = f->rc[c] > delta + tol ? OUT : f->rc[c] < -(delta + tol) && !keep ? FORCED : FREE;
    }
    for (size_t t = 0; keep && t < s; t++)
        f->st[t * k + (size_t)keep[t]] = FREE;
}

/* Fix group t at j: its cannot-link partners lose j. false when that empties a partner or
 * meets one fixed at j. */
static bool fix_at(fixer *f, size_t t, size_t j, size_t *tail)
{
    const ckm_reduced *r = f->r;
    size_t k = r->k;
    f->fixed[t] = (int32_t)j;
    for (size_t q = f->inc_start[t]; q < f->inc_start[t + 1]; q++) {
        size_t b = ckm_pair_other(r->cl, f->inc[q], t);
        if (f->fixed[b] == (int32_t)j)
            return false;
        if (f->fixed[b] >= 0 || f->st[b * k + j] == OUT)
            continue;
        if (f->st[b * k + j] == FORCED)
            return false;
        f->st[b * k + j] = OUT;
        size_t left = 0;
        for (size_t i = 0; i < k; i++)
            left += f->st[b * k + i] != OUT;
        if (left == 0)
            return false;
        if (left == 1)
            f->queue[(*tail)++] = b;
    }
    return true;
}

/* The presolve of the header; false when the column set holds no labelling. */
static bool presolve(fixer *f)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, k = r->k, head = 0, tail = 0;
    for (size_t t = 0; t < s; t++) {
        f->fixed[t] = -1;
        size_t left = 0, forced = 0;
        for (size_t j = 0; j < k; j++) {
            left += f->st[t * k + j] != OUT;
            forced += f->st[t * k + j] == FORCED;
        }
        if (left == 0 || forced > 1)
            return false;
        if (left == 1 || forced == 1)
            f->queue[tail++] = t;
    }
    while (head < tail) {
        size_t t = f->queue[head++], j = 0;
        if (f->fixed[t] >= 0)
            continue;
        while (j < k && f->st[t * k + j] != FORCED)
            j++;
        if (j == k) /* one column left */
            for (j = 0; f->st[t * k + j] == OUT; j++)
                ;
        if (!fix_at(f, t, j, &tail))
            return false;
    }
    memset(f->fw, 0, k * sizeof(double));
    memset(f->fq, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++)
        if (f->fixed[t] >= 0) {
            f->fw[f->fixed[t]] += (double)r->weight[t];
            f->fq[f->fixed[t]] += r->demand[t];
        }
    for (size_t j = 0; j < k; j++)
        if (f->fw[j] > (double)r->hi[j] || f->fq[j] > r->cap_hi[j] + r->cap_tol)
            return false;
    return true;
}

/* Rows of the compact model: g group rows (= 1), then per cluster the size row and the
 * capacity row less the fixed groups' share, then the cannot-link rows (<= 1). */
static void row_bounds(const fixer *f, cmodel *m)
{
    const ckm_reduced *r = f->r;
    size_t g = m->g, k = r->k;
    for (size_t i = 0; i < g; i++)
        m->rlo[i] = m->rhi[i] = 1.0;
    for (size_t j = 0; j < k; j++) {
        m->rlo[g + j] = fmax(0.0, (double)r->lo[j] - f->fw[j]);
        m->rhi[g + j] = (double)r->hi[j] - f->fw[j];
        m->rlo[g + k + j] = fmax(0.0, r->cap_lo[j] - f->fq[j]);
        m->rhi[g + k + j] = isfinite(r->cap_hi[j]) ? fmax(0.0, r->cap_hi[j] - f->fq[j]) : CKM_BK_INF;
    }
    for (size_t i = g + 2 * k; i < m->rows; i++) {
        m->rlo[i] = -CKM_BK_INF;
        m->rhi[i] = 1.0;
    }
}

/* Both ends of pair e unfixed with column j in: its cannot-link row in the compact model. */
static bool cl_row(const fixer *f, size_t e, size_t j)
{
    size_t a = f->r->cl[2 * e], b = f->r->cl[2 * e + 1], k = f->r->k;
    return f->fixed[a] < 0 && f->fixed[b] < 0 && f->col_of[a * k + j] >= 0 && f->col_of[b * k + j] >= 0;
}

/* The compact model of the unfixed groups' columns; false when out of memory or too large
 * for the LP backend. */
static bool compact(fixer *f, cmodel *m)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, k = r->k, cols = 0, g = 0, cl_rows = 0;
    for (size_t t = 0; t < s; t++) {
        g += f->fixed[t] < 0;
        for (size_t j = 0; j < k; j++)
            f->col_of[t * k + j] = f->fixed[t] < 0 && f->st[t * k + j] != OUT ? (long)cols++ : -1;
    }
    size_t *cnt = ckm_calloc_array(cols + 1, sizeof(size_t));
    if (!cnt)
        return false;
    for (size_t e = 0; e < r->n_cl; e++)
        for (size_t j = 0; j < k; j++)
            if (cl_row(f, e, j)) {
                cnt[f->col_of[r->cl[2 * e] * k + j]]++;
                cnt[f->col_of[r->cl[2 * e + 1] * k + j]]++;
                cl_rows++;
            }
    size_t nnz = 3 * cols + 2 * cl_rows;
    m->cols = cols;
    m->g = g;
    m->rows = g + 2 * k + cl_rows;
    if (m->rows > INT_MAX / 2 || nnz > INT_MAX / 2) {
        free(cnt);
        return false;
    }
    m->cs = ckm_alloc_array(cols + 1, sizeof(int));
    m->ri = ckm_alloc_array(nnz + 1, sizeof(int));
    m->val = ckm_alloc_array(nnz + 1, sizeof(double));
    m->obj = ckm_alloc_array(cols + 1, sizeof(double));
    m->clo = ckm_calloc_array(cols + 1, sizeof(double));
    m->chi = ckm_alloc_array(cols + 1, sizeof(double));
    m->rlo = ckm_alloc_array(m->rows + 1, sizeof(double));
    m->rhi = ckm_alloc_array(m->rows + 1, sizeof(double));
    m->x = ckm_alloc_array(cols + 1, sizeof(double));
    m->start = ckm_calloc_array(cols + 1, sizeof(double));
    m->col_t = ckm_alloc_array(cols + 1, sizeof(size_t));
    m->fill = cnt;
    if (!m->cs || !m->ri || !m->val || !m->obj || !m->clo || !m->chi || !m->rlo || !m->rhi || !m->x || !m->start ||
        !m->col_t)
        return false;
    size_t at = 0, gi = 0;
    for (size_t t = 0; t < s; t++) {
        if (f->fixed[t] >= 0)
            continue;
        for (size_t j = 0; j < k; j++) {
            long c = f->col_of[t * k + j];
            if (c < 0)
                continue;
            size_t extra = cnt[c];
            m->cs[c] = (int)at;
            m->col_t[c] = t * k + j;
            m->obj[c] = f->cost[t * k + j];
            m->chi[c] = 1.0;
            m->ri[at] = (int)gi;
            m->val[at++] = 1.0;
            m->ri[at] = (int)(g + j);
            m->val[at++] = (double)r->weight[t];
            m->ri[at] = (int)(g + k + j);
            m->val[at++] = r->demand[t];
            cnt[c] = at; /* where its cannot-link entries go */
            at += extra;
        }
        gi++;
    }
    m->cs[cols] = (int)at;
    size_t row = g + 2 * k;
    for (size_t e = 0; e < r->n_cl; e++)
        for (size_t j = 0; j < k; j++)
            if (cl_row(f, e, j)) {
                size_t ca = (size_t)f->col_of[r->cl[2 * e] * k + j], cb = (size_t)f->col_of[r->cl[2 * e + 1] * k + j];
                m->ri[cnt[ca]] = (int)row;
                m->val[cnt[ca]++] = 1.0;
                m->ri[cnt[cb]] = (int)row;
                m->val[cnt[cb]++] = 1.0;
                row++;
            }
    row_bounds(f, m);
    return true;
}

/* Group labels from the compact model's 0/1 point x and the fixed groups; false when some
 * unfixed group has no column at 1 (x not integral). */
static bool labels_of(const fixer *f, const cmodel *m, const double *x, int32_t *labels)
{
    size_t s = f->r->s, k = f->r->k;
    for (size_t t = 0; t < s; t++)
        labels[t] = f->fixed[t];
    for (size_t c = 0; c < m->cols; c++) {
        if (x[c] > 1e-6 && x[c] < 1.0 - 1e-6)
            return false;
        if (x[c] >= 0.5)
            labels[m->col_t[c] / k] = (int32_t)(m->col_t[c] % k);
    }
    for (size_t t = 0; t < s; t++)
        if (labels[t] < 0)
            return false;
    return true;
}

/* One round: the presolve and CBC on the column set st (from: CBC's start when all its
 * columns are in). br->status OPTIMAL (labels: the set's optimum), INFEASIBLE (no labelling
 * in the set), or a limit / FAILED. */
static ckm_error round_mip(fixer *f, const int32_t *from, const ckm_bk_limits *lim, int32_t *labels,
                           ckm_bk_result *br, ckm_assign_result *res, ckm_err *err)
{
    memset(br, 0, sizeof *br);
    br->status = CKM_BK_INFEASIBLE;
    if (!presolve(f))
        return CKM_OK;
    cmodel m;
    memset(&m, 0, sizeof m);
    if (!compact(f, &m)) {
        cmodel_free(&m);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model's MILP");
    }
    size_t k = f->r->k;
    bool usable = from != NULL;
    for (size_t t = 0; usable && t < f->r->s; t++) {
        long c = f->col_of[t * k + (size_t)from[t]];
        usable = f->fixed[t] >= 0 ? f->fixed[t] == from[t] : c >= 0;
        if (usable && c >= 0)
            m.start[c] = 1.0;
    }
    ckm_lp lp = {(int)m.cols, (int)m.rows, m.obj, m.clo, m.chi, m.rlo, m.rhi, m.cs, m.ri, m.val, NULL, NULL};
    ckm_error rc = ckm_bk_mip(&lp, lim, usable ? m.start : NULL, m.x, br, err);
    if (rc == CKM_OK) {
        res->mip_nodes += br->nodes;
        res->stopped = br->stopped;
        if ((br->status == CKM_BK_OPTIMAL || br->status == CKM_BK_LIMIT_FEASIBLE) && !labels_of(f, &m, m.x, labels))
            br->status = CKM_BK_FAILED;
    }
    cmodel_free(&m);
    return rc;
}

static void fixer_free(fixer *f)
{
    free(f->st);
    free(f->col_of);
    free(f->fixed);
    free(f->queue);
    free(f->inc_start);
    free(f->inc);
    free(f->fw);
    free(f->fq);
}

/* The LP point rounded: each group at its largest value (the LP's integral groups keep
 * theirs; at a basic point only a few groups are split). */
static void round_lp(size_t s, size_t k, const double *x, int32_t *lab)
{
    for (size_t t = 0; t < s; t++) {
        size_t b = 0;
        for (size_t j = 1; j < k; j++)
            if (x[t * k + j] > x[t * k + b])
                b = j;
        lab[t] = (int32_t)b;
    }
}

/* A labelling from the LP on the columns with rc <= delta (the others' groups fixed by the
 * presolve): delta from 1e-5 (|z| + 1), 4x until that LP is feasible (at most 8 tries), its
 * point rounded (each open group at its largest value; a basic point splits at most k + m
 * groups) and repaired (cap_local.c). Near-optimal prices leave many groups within a hair of
 * a tie, and their argmin labels can break rows by far more than a rounding: in the first
 * step at 10^5 groups, k = 50, the argmin labels repaired cost 42 % above the bound; at
 * 20,000 groups, k = 50, this labelling 1.6 %. false when no labelling came out (lab is then
 * scratch). */
static bool lp_guess(fixer *f, double z, const ckm_bk_limits *lim, int32_t *lab)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, k = r->k;
    double delta = 1e-5 * (fabs(z) + 1.0);
    for (int i = 0; i < 8 && !ckm_bk_limits_reached(lim); i++, delta *= 4.0) {
        classify(f, delta, NULL);
        if (!presolve(f))
            continue;
        cmodel m;
        memset(&m, 0, sizeof m);
        if (!compact(f, &m)) {
            cmodel_free(&m);
            return false;
        }
        ckm_lp lp = {(int)m.cols, (int)m.rows, m.obj, m.clo, m.chi, m.rlo, m.rhi, m.cs, m.ri, m.val, NULL, NULL};
        ckm_bk_result br;
        ckm_err e2 = {CKM_OK, ""};
        bool solved = ckm_bk_lp(&lp, lim, m.x, NULL, &br, &e2) == CKM_OK && br.status == CKM_BK_OPTIMAL;
        if (solved) { /* a group's compact columns are consecutive (compact builds them so) */
            for (size_t t = 0; t < s; t++)
                lab[t] = f->fixed[t];
            size_t cur = s;
            double top = 0.0;
            for (size_t c = 0; c < m.cols; c++) {
                size_t t = m.col_t[c] / k;
                if (t != cur || m.x[c] > top) {
                    cur = t;
                    top = m.x[c];
                    lab[t] = (int32_t)(m.col_t[c] % k);
                }
            }
        }
        cmodel_free(&m);
        if (solved)
            return ckm_cap_repair(r, f->cost, f->inc_start, f->inc, lab);
    }
    return false;
}

/* The rounds of the header from the incumbent: the cheapest of guess repaired, the LP
 * guess (lpbuf: s labels, or NULL for none) and start (each may be missing), copied to best
 * (s scratch labels) and improved by moves and swaps. */
static ckm_error rounds(fixer *f, double z_lp, int32_t *guess, int32_t *lpbuf, const int32_t *start, int32_t *best,
                        const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    const ckm_reduced *r = f->r;
    const double *cost = f->cost;
    size_t s = r->s;
    const int32_t *inc = NULL; /* the cheapest candidate; start wins ties */
    double inc_total = INFINITY;
    if (guess && ckm_cap_repair(r, cost, f->inc_start, f->inc, guess)) {
        inc = guess;
        inc_total = ckm_assign_total(r, cost, guess);
    }
    double t_lp = lpbuf && lp_guess(f, z_lp, lim, lpbuf) ? ckm_assign_total(r, cost, lpbuf) : INFINITY;
    if (t_lp < inc_total) {
        inc = lpbuf;
        inc_total = t_lp;
    }
    if (start && ckm_assign_total(r, cost, start) <= inc_total)
        inc = start;
    start = NULL;
    if (inc) {
        memcpy(best, inc, s * sizeof(int32_t));
        size_t moved = 0;
        if (!ckm_cap_local_search(r, cost, f->inc_start, f->inc, lim, best, &moved))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's local search");
        res->local_moves += moved;
        start = best;
    }
    double cap = start ? ckm_assign_total(r, cost, start) - z_lp : INFINITY;
    double delta = fmin(cap, 1e-8 * (fabs(z_lp) + 1.0)), tol = 1e-9 * (fabs(z_lp) + 1.0);
    const int32_t *from = start;
    ckm_error rc = CKM_OK;
    for (;;) {
        const int32_t *keep = from && delta >= cap ? from : NULL;
        classify(f, delta, keep);
        bool whole = true;
        for (size_t c = 0; c < s * r->k && whole; c++)
            whole = f->st[c] == FREE;
        ckm_bk_result br;
        res->used_mip = 1;
        if ((rc = round_mip(f, from, lim, labels, &br, res, err)) != CKM_OK)
            break;
        res->status = br.status;
        if (br.status == CKM_BK_LIMIT_FEASIBLE || br.status == CKM_BK_LIMIT_NONE) {
            /* a limit: the best labelling known, CBC's or the incumbent's (feasible, unproven) */
            if (from && (br.status == CKM_BK_LIMIT_NONE ||
                         ckm_assign_total(r, cost, from) < ckm_assign_total(r, cost, labels))) {
                memcpy(labels, from, s * sizeof(int32_t));
                res->status = CKM_BK_LIMIT_FEASIBLE;
            }
            break;
        }
        if (br.status == CKM_BK_FAILED)
            break;
        if (br.status == CKM_BK_OPTIMAL) {
            double excess = ckm_assign_total(r, cost, labels) - z_lp;
            if (whole || excess <= delta + tol || keep)
                break; /* proven: the set held every labelling that could do better */
            if (excess < cap) { /* the best labelling so far: the cap, and CBC's next start */
                cap = excess;
                memcpy(best, labels, s * sizeof(int32_t));
                from = best;
            }
        } else if (whole) { /* no labelling in the full model */
            break;
        } else if (keep) { /* nothing beats the incumbent, whose columns were in */
            memcpy(labels, from, s * sizeof(int32_t));
            res->status = CKM_BK_OPTIMAL;
            break;
        }
        delta = fmin(cap, 4.0 * delta);
        if (!isfinite(cap) && delta > 1e300)
            delta = INFINITY;
    }
    return rc;
}

ckm_error ckm_assign_fix_core(const ckm_reduced *r, const double *cost, const double *rc, double z,
                              int32_t *guess, bool lp_first, const int32_t *start, const ckm_bk_limits *lim,
                              int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    size_t s = r->s, k = r->k;
    fixer f = {.r = r, .cost = cost, .rc = rc};
    f.st = ckm_alloc_array(s * k, 1);
    f.col_of = ckm_alloc_array(s * k, sizeof(long));
    f.fixed = ckm_alloc_array(s, sizeof(int32_t));
    f.queue = ckm_alloc_array(s * (k + 1), sizeof(size_t)); /* a group is queued at most k + 1 times */
    f.fw = ckm_alloc_array(k, sizeof(double));
    f.fq = ckm_alloc_array(k, sizeof(double));
    int32_t *best = ckm_alloc_array(s, sizeof(int32_t));
    int32_t *lpbuf = lp_first ? ckm_alloc_array(s, sizeof(int32_t)) : NULL;
    bool inc_ok = ckm_incidence(s, r->n_cl, r->cl, &f.inc_start, &f.inc);
    ckm_error e;
    if (!f.st || !f.col_of || !f.fixed || !f.queue || !f.fw || !f.fq || !best || (lp_first && !lpbuf) || !inc_ok)
        e = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model's MILP");
    else
        e = rounds(&f, z, guess, lpbuf, start, best, lim, labels, res, err);
    fixer_free(&f);
    free(best);
    free(lpbuf);
    return e;
}

ckm_error ckm_assign_fix_mip(const ckm_assign *a, const double *cost, const double *x_lp, const double *dual,
                             double z_lp, const int32_t *start, const ckm_bk_limits *lim, int32_t *labels,
                             ckm_assign_result *res, ckm_err *err)
{
    const ckm_reduced *r = a->r;
    size_t s = r->s, k = r->k;
    double *rc = ckm_alloc_array(s * k, sizeof(double));
    int32_t *guess = ckm_alloc_array(s, sizeof(int32_t));
    if (!rc || !guess) {
        free(rc);
        free(guess);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment model's MILP");
    }
    reduced_costs(a, dual, rc);
    /* the LP rounded and repaired: the first step's cap without CBC, and a later step's when it
       beats the previous labels (they were optimal for the previous centers only) */
    round_lp(s, k, x_lp, guess);
    ckm_error e = ckm_assign_fix_core(r, cost, rc, z_lp, guess, false, start, lim, labels, res, err);
    free(rc);
    free(guess);
    return e;
}
