/*
 * fix.c -- see fix.h. The column set of one delta is kept as lists per group (CSR): the
 * columns left in (FREE) or taken by every cheap labelling (FORCED); the presolve strikes
 * columns (OUT) and fixes groups; the compact model is built from what is left.
 */
#include "fix.h"
#include "core.h"
#include "incidence.h"
#include "model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OUT = 0, FREE = 1, FORCED = 2 };

typedef struct fixer {
    const ckm_fix_src *src;
    const ckm_reduced *r;
    /* the column set under the current delta: group t's columns start[t] .. start[t+1] */
    size_t *start, n, cap;
    int32_t *cj;
    unsigned char *st;
    double *cost;
    double *rc, *tol;      /* k: one row */
    int32_t *fixed;        /* s: cluster, or -1 */
    size_t *queue;         /* 2 s + 1: a group is queued at most twice */
    size_t *inc_start, *inc;
    double *fw, *fq;       /* k: the fixed groups' weight and demand per cluster */
    bool *soft;            /* s: the group has a soft pair (never fixed) */
    /* the compact model of the open groups' columns */
    ckm_model m;
    size_t *gcol;          /* s + 1 */
    int32_t *mcj;
    double *x, *xstart;
    size_t mcap;
} fixer;

static void fixer_free(fixer *f)
{
    free(f->start);
    free(f->cj);
    free(f->st);
    free(f->cost);
    free(f->rc);
    free(f->tol);
    free(f->fixed);
    free(f->queue);
    free(f->inc_start);
    free(f->inc);
    free(f->fw);
    free(f->fq);
    free(f->soft);
    ckm_model_free(&f->m);
    free(f->gcol);
    free(f->mcj);
    free(f->x);
    free(f->xstart);
}

static bool fixer_init(fixer *f, const ckm_fix_src *src)
{
    const ckm_reduced *r = src->r;
    size_t s = r->s, k = r->k;
    memset(f, 0, sizeof *f);
    f->src = src;
    f->r = r;
    f->start = ckm_alloc_array(s + 1, sizeof(size_t));
    f->rc = ckm_alloc_array(k, sizeof(double));
    f->tol = ckm_alloc_array(k, sizeof(double));
    f->fixed = ckm_alloc_array(s, sizeof(int32_t));
    f->queue = ckm_alloc_array(2 * s + 1, sizeof(size_t));
    f->fw = ckm_alloc_array(k, sizeof(double));
    f->fq = ckm_alloc_array(k, sizeof(double));
    f->soft = ckm_calloc_array(s, sizeof(bool));
    f->gcol = ckm_alloc_array(s + 1, sizeof(size_t));
    bool ok = ckm_incidence(s, r->n_cl, r->cl, &f->inc_start, &f->inc);
    if (!ok || !f->start || !f->rc || !f->tol || !f->fixed || !f->queue || !f->fw || !f->fq || !f->soft || !f->gcol)
        return false;
    for (size_t e = 0; e < r->n_soft; e++)
        f->soft[r->soft[2 * e]] = f->soft[r->soft[2 * e + 1]] = true;
    return true;
}

/* Room for need columns in the set. */
static bool set_room(fixer *f, size_t need)
{
    if (need <= f->cap)
        return true;
    size_t c = need + need / 2 + 16;
    int32_t *cj = realloc(f->cj, c * sizeof(int32_t));
    if (cj)
        f->cj = cj;
    unsigned char *st = realloc(f->st, c);
    if (st)
        f->st = st;
    double *cost = realloc(f->cost, c * sizeof(double));
    if (cost)
        f->cost = cost;
    if (!cj || !st || !cost)
        return false;
    f->cap = c;
    return true;
}

/* The column set under delta; with keep (the incumbent, delta at the cap) its columns stay in
 * and nothing is forced. *whole: every (t, j) is in and none forced. false: out of memory. */
static bool classify(fixer *f, double delta, const int32_t *keep, bool *whole)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, k = r->k;
    f->n = 0;
    *whole = true;
    for (size_t t = 0; t < s; t++) {
        const double *cost;
        f->src->row(f->src->u, t, &cost, f->rc, f->tol);
        if (!set_room(f, f->n + k))
            return false;
        f->start[t] = f->n;
        size_t forced = 0;
        for (size_t j = 0; j < k; j++) {
            double tol = f->tol[j] + 1e-9 * fabs(delta);
            int state = f->rc[j] > delta + tol ? OUT : f->rc[j] < -(delta + tol) && !keep ? FORCED : FREE;
            if (keep && (size_t)keep[t] == j)
                state = FREE;
            *whole = *whole && state == FREE;
            if (state == OUT)
                continue;
            forced += state == FORCED;
            f->cj[f->n] = (int32_t)j;
            f->st[f->n] = (unsigned char)state;
            f->cost[f->n++] = cost[j];
        }
        (void)forced;
    }
    f->start[s] = f->n;
    return true;
}

/* Column of cluster j in group t's list, or SIZE_MAX. */
static size_t find(const fixer *f, size_t t, size_t j)
{
    long c = ckm_cluster_find(f->cj, f->start[t], f->start[t + 1], (int32_t)j);
    return c < 0 ? SIZE_MAX : (size_t)c;
}

/* Columns of t left in, and how many of them are forced. */
static size_t left(const fixer *f, size_t t, size_t *forced)
{
    size_t n = 0, q = 0;
    for (size_t c = f->start[t]; c < f->start[t + 1]; c++) {
        n += f->st[c] != OUT;
        q += f->st[c] == FORCED;
    }
    if (forced)
        *forced = q;
    return n;
}

/* Fix group t at j: its cannot-link partners lose j. false when that empties a partner or
 * meets one fixed at j (or a partner's forced column). */
static bool fix_at(fixer *f, size_t t, size_t j, size_t *tail)
{
    const ckm_reduced *r = f->r;
    f->fixed[t] = (int32_t)j;
    for (size_t q = f->inc_start[t]; q < f->inc_start[t + 1]; q++) {
        size_t b = ckm_pair_other(r->cl, f->inc[q], t), c = find(f, b, j);
        if (f->fixed[b] == (int32_t)j)
            return false;
        if (f->fixed[b] >= 0 || c == SIZE_MAX || f->st[c] == OUT)
            continue;
        if (f->st[c] == FORCED)
            return false;
        f->st[c] = OUT;
        size_t n = left(f, b, NULL);
        if (n == 0)
            return false;
        if (n == 1 && !f->soft[b])
            f->queue[(*tail)++] = b;
    }
    return true;
}

/* The presolve of fix.h; false when the column set holds no labelling. */
static bool presolve(fixer *f)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, k = r->k, head = 0, tail = 0;
    for (size_t t = 0; t < s; t++) {
        f->fixed[t] = -1;
        size_t forced, n = left(f, t, &forced);
        if (n == 0 || forced > 1)
            return false;
        if ((n == 1 || forced == 1) && !f->soft[t])
            f->queue[tail++] = t;
    }
    while (head < tail) {
        size_t t = f->queue[head++], c = f->start[t];
        if (f->fixed[t] >= 0)
            continue;
        size_t only = SIZE_MAX;
        for (; c < f->start[t + 1]; c++) {
            if (f->st[c] == FORCED)
                break;
            if (f->st[c] != OUT && only == SIZE_MAX)
                only = c;
        }
        if (c == f->start[t + 1])
            c = only; /* one column left */
        if (!fix_at(f, t, (size_t)f->cj[c], &tail))
            return false;
    }
    memset(f->fw, 0, k * sizeof(double));
    memset(f->fq, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++)
        if (f->fixed[t] >= 0) {
            f->fw[f->fixed[t]] += (double)r->weight[t];
            f->fq[f->fixed[t]] += r->has_caps ? r->demand[t] : 0.0;
        }
    for (size_t j = 0; j < k; j++)
        if (f->fw[j] > (double)r->hi[j] || (r->has_caps && f->fq[j] > r->cap_hi[j] + r->cap_tol))
            return false;
    return true;
}

/* The compact model of the open groups' columns left in (model.h), its objective the costs;
 * false when out of memory or too large for the LP backend. */
static bool compact(fixer *f)
{
    const ckm_reduced *r = f->r;
    size_t s = r->s, n = 0;
    if (f->n > f->mcap) {
        free(f->mcj);
        free(f->x);
        free(f->xstart);
        f->mcap = f->n;
        f->mcj = ckm_alloc_array(f->mcap + 1, sizeof(int32_t));
        f->x = ckm_alloc_array(f->mcap + r->n_soft + 1, sizeof(double));
        f->xstart = ckm_alloc_array(f->mcap + r->n_soft + 1, sizeof(double));
        if (!f->mcj || !f->x || !f->xstart) {
            f->mcap = 0;
            return false;
        }
    }
    for (size_t t = 0; t < s; t++) {
        f->gcol[t] = n;
        for (size_t c = f->start[t]; f->fixed[t] < 0 && c < f->start[t + 1]; c++)
            if (f->st[c] != OUT)
                f->mcj[n++] = f->cj[c];
    }
    f->gcol[s] = n;
    ckm_colset cs = {f->gcol, f->mcj, f->fixed};
    bool too_large;
    if (!ckm_model_build(&f->m, r, &cs, false, &too_large))
        return false;
    for (size_t t = 0, at = 0; t < s; t++)
        for (size_t c = f->start[t]; f->fixed[t] < 0 && c < f->start[t + 1]; c++)
            if (f->st[c] != OUT)
                f->m.obj[at++] = f->cost[c];
    return true;
}

/* Group labels from the compact model's 0/1 point and the fixed groups; false when some open
 * group has no column at 1 (x not integral). */
static bool labels_of(const fixer *f, const double *x, int32_t *labels)
{
    for (size_t t = 0; t < f->r->s; t++) {
        labels[t] = f->fixed[t];
        for (size_t c = f->gcol[t]; c < f->gcol[t + 1]; c++) {
            if (x[c] > 1e-6 && x[c] < 1.0 - 1e-6)
                return false;
            if (x[c] >= 0.5)
                labels[t] = f->mcj[c];
        }
        if (labels[t] < 0)
            return false;
    }
    return true;
}

/* CBC's start from labels `from` when every column it needs is in the compact model. */
static bool mip_start(fixer *f, const int32_t *from)
{
    const ckm_reduced *r = f->r;
    if (!from)
        return false;
    memset(f->xstart, 0, f->m.cols * sizeof(double));
    for (size_t t = 0; t < r->s; t++) {
        if (f->fixed[t] >= 0) {
            if (f->fixed[t] != from[t])
                return false;
            continue;
        }
        size_t c = f->gcol[t];
        while (c < f->gcol[t + 1] && f->mcj[c] != from[t])
            c++;
        if (c == f->gcol[t + 1])
            return false;
        f->xstart[c] = 1.0;
    }
    for (size_t i = 0; i < f->m.slacks; i++) { /* a slack is 1 exactly when its pair is violated */
        size_t e = f->m.slack_of[i];
        bool same = from[r->soft[2 * e]] == from[r->soft[2 * e + 1]];
        f->xstart[f->m.ycols + i] = same != (r->soft_w[e] > 0.0) ? 1.0 : 0.0;
    }
    return true;
}

/* One round: the presolve and CBC on the column set (from: CBC's start when all its columns
 * are in). br->status OPTIMAL (labels: the set's optimum), INFEASIBLE (no labelling in the
 * set), or a limit / FAILED. */
static ckm_error round_mip(fixer *f, const int32_t *from, const ckm_bk_limits *lim, int32_t *labels, ckm_bk_result *br,
                           ckm_assign_result *res, ckm_err *err)
{
    memset(br, 0, sizeof *br);
    br->status = CKM_BK_INFEASIBLE;
    if (!presolve(f))
        return CKM_OK;
    if (!compact(f))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's MILP");
    ckm_lp lp = ckm_model_lp(&f->m, NULL, NULL);
    bool usable = mip_start(f, from);
    ckm_error rc = ckm_bk_mip(&lp, lim, usable ? f->xstart : NULL, f->x, br, err);
    if (rc == CKM_OK) {
        res->mip_nodes += br->nodes;
        res->stopped = br->stopped;
        if ((br->status == CKM_BK_OPTIMAL || br->status == CKM_BK_LIMIT_FEASIBLE) && !labels_of(f, f->x, labels))
            br->status = CKM_BK_FAILED;
    }
    return rc;
}

/* The delta schedule of fix.h from the incumbent start (or none). */
static ckm_error rounds(fixer *f, double z, const int32_t *start, int32_t *best, const ckm_bk_limits *lim,
                        int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    const ckm_fix_src *src = f->src;
    size_t s = f->r->s;
    double cap = start ? src->total(src->u, start) - z : INFINITY;
    double delta = fmin(cap, 1e-8 * (fabs(z) + 1.0)), tol = 1e-9 * (fabs(z) + 1.0);
    const int32_t *from = start;
    for (;;) {
        const int32_t *keep = from && delta >= cap ? from : NULL;
        bool whole;
        if (!classify(f, delta, keep, &whole))
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's MILP");
        ckm_bk_result br;
        res->used_mip = 1;
        ckm_error rc = round_mip(f, from, lim, labels, &br, res, err);
        if (rc != CKM_OK)
            return rc;
        res->status = br.status;
        if (br.status == CKM_BK_LIMIT_FEASIBLE || br.status == CKM_BK_LIMIT_NONE) {
            /* a limit: the best labelling known, CBC's or the incumbent's (feasible, unproven) */
            if (from && (br.status == CKM_BK_LIMIT_NONE || src->total(src->u, from) < src->total(src->u, labels))) {
                memcpy(labels, from, s * sizeof(int32_t));
                res->status = CKM_BK_LIMIT_FEASIBLE;
            }
            return CKM_OK;
        }
        if (br.status == CKM_BK_FAILED)
            return CKM_OK;
        if (br.status == CKM_BK_OPTIMAL) {
            double excess = src->total(src->u, labels) - z;
            if (whole || excess <= delta + tol || keep)
                return CKM_OK; /* proven: the set held every labelling that could do better */
            if (excess < cap) { /* the best labelling so far: the cap, and CBC's next start */
                cap = excess;
                memcpy(best, labels, s * sizeof(int32_t));
                from = best;
            }
        } else if (whole) { /* no labelling in the whole model */
            return CKM_OK;
        } else if (keep) { /* nothing beats the incumbent, whose columns were in */
            memcpy(labels, from, s * sizeof(int32_t));
            res->status = CKM_BK_OPTIMAL;
            return CKM_OK;
        }
        delta = fmin(cap, 4.0 * delta);
        if (!isfinite(cap) && delta > 1e300)
            delta = INFINITY;
    }
}

ckm_error ckm_fix_rounds(const ckm_fix_src *src, double z, const int32_t *start, const ckm_bk_limits *lim,
                         int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    fixer f;
    int32_t *best = ckm_alloc_array(src->r->s, sizeof(int32_t));
    ckm_error rc = fixer_init(&f, src) && best
                       ? rounds(&f, z, start, best, lim, labels, res, err)
                       : ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the assignment step's MILP");
    fixer_free(&f);
    free(best);
    return rc;
}

/* The LP point rounded: each open group at its largest value (the first of equals). */
static void round_point(const fixer *f, const double *x, int32_t *lab)
{
    for (size_t t = 0; t < f->r->s; t++) {
        lab[t] = f->fixed[t];
        double top = 0.0;
        for (size_t c = f->gcol[t]; c < f->gcol[t + 1]; c++)
            if (c == f->gcol[t] || x[c] > top) {
                top = x[c];
                lab[t] = f->mcj[c];
            }
    }
}

bool ckm_fix_lp_guess(const ckm_fix_src *src, double z, const ckm_bk_limits *lim, int32_t *lab)
{
    fixer f;
    bool got = false;
    double delta = 1e-5 * (fabs(z) + 1.0);
    if (fixer_init(&f, src)) {
        for (int i = 0; i < 8 && !got && !ckm_bk_limits_reached(lim); i++, delta *= 4.0) {
            bool whole;
            if (!classify(&f, delta, NULL, &whole))
                break;
            if (!presolve(&f))
                continue;
            if (!compact(&f))
                break;
            ckm_lp lp = ckm_model_lp(&f.m, NULL, NULL);
            ckm_bk_result br;
            ckm_err e2 = {CKM_OK, ""};
            got = ckm_bk_lp(&lp, lim, f.x, NULL, &br, &e2) == CKM_OK && br.status == CKM_BK_OPTIMAL;
            if (got)
                round_point(&f, f.x, lab);
        }
    }
    fixer_free(&f);
    return got;
}

/* The dense source's row: the arrays' row t, tolerances 1e-9 (1 + |cost_tj|). */
static void dense_row(void *u, size_t t, const double **cost, double *rc, double *tol)
{
    const ckm_fix_dense *d = u;
    size_t k = d->r->k;
    *cost = d->cost + t * k;
    memcpy(rc, d->rc + t * k, k * sizeof(double));
    for (size_t j = 0; j < k; j++)
        tol[j] = 1e-9 * (1.0 + fabs(d->cost[t * k + j]));
}

static double dense_total(void *u, const int32_t *labels)
{
    const ckm_fix_dense *d = u;
    return ckm_step_total(d->r, d->cost, labels);
}

ckm_fix_src ckm_fix_dense_src(ckm_fix_dense *d)
{
    ckm_fix_src src = {d->r, d, dense_row, dense_total};
    return src;
}
