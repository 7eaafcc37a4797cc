/*
 * yinyang.c -- Lloyd's assignment step with Yinyang bounds (Ding, Zhao, Shen, Musuvathi &
 * Mytkowicz, ICML 2015), giving the labels plain Lloyd (ckm_nearest) gives from the same
 * centers while measuring few distances.
 *   The k centers are split into t groups G_1..G_t (a few Lloyd rounds on the initial
 *   centers). Point i keeps its label a(i), an upper bound u_i >= ||y_i - c_a(i)|| and
 *   lower bounds l_ig <= min_{c in G_g, c != a(i)} ||y_i - c||.
 *   When the centers move by delta_c = ||c' - c|| (triangle inequality):
 *     u_i += delta_a(i),   l_ig -= max_{c in G_g} delta_c.
 *   Lazily: with D_c = sum of c's drifts and E_g = sum of group g's maximum drifts since
 *   the last reset, a point stores u_i - D_a(i) and l_ig + E_g when it sets them, so a
 *   step rewrites only the bounds of the points it measures. A global bound
 *   min_g l_ig (stored plus the summed largest drifts) is tested first, reading 16 bytes
 *   for most points.
 *   A group can hold a nearer center only if l_ig < u_i. Global filter: min_g l_ig >= u_i
 *   keeps the label without a distance; else u_i is tightened to the exact distance and
 *   tested again; then the centers of every group with l_ig < (best distance so far) are
 *   measured and those groups' bounds reset.
 * Same labels as plain Lloyd: every test above needs the bound to exceed the distance by
 * a margin m = 4 sqrt(E), E = (d + 4) eps (max ||y||^2 + max ||c||^2), which covers the
 * rounding of a squared distance computed as ||y||^2 - 2 y.c + ||c||^2 (dot-product error
 * bound, Higham 2002, 3.1) in both this file and ckm_nearest, and of the bounds. So a
 * skipped center is farther than the assigned one by more than the rounding of either
 * computation and plain Lloyd's argmin is among the measured centers, where the argmin
 * uses the same expression with ties to the lowest index. Only a near-tie within rounding
 * between two measured centers (y.c from a loop here, from dgemm or the fused pass of
 * nearest_fused.c there) could resolve differently; tests compare whole runs label by label.
 * A reset is one full pass (screen.c when screened, else dgemm) with the centers taken in
 * group order, so each group's values lie side by side: its minimum is a vector min and
 * the t roots of a row are taken four at a time (group_bounds; for k d <= 2^14 the dgemm
 * runs against the centers in group order and one pass per row gives label, minima and
 * bounds: hard_row).
 * Whole rows in a step: a point whose groups within reach hold more than k / 5 centers
 * is not measured center by center; the step computes the rows of all such points by
 * dgemm (centers in group order, blocks that stay on the calling thread: k d <= 2^14),
 * labels each by its row's argmin (plain Lloyd's rule on dgemm values) and gives it the
 * fresh bounds of a reset (hard_row), stored with the drifts as a step stores them.
 * Cost per step: O(s t) bound updates + O(d) per measured center + O(k d) per whole row +
 * O(k d) drifts.
 * Memory: s doubles (u) + s (t + 1) floats (l + E, rounded down) + s indices (whole rows,
 * k d <= 2^14) + O(k d + threads (t + 2^18 / d)).
 */
#include "core.h"
#include "objective.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* largest float <= x (a stored lower bound must not grow): one step toward -inf when
 * the conversion rounded up (by the bits: nextafterf is a library call in the hot loop) */
static inline float round_down(double x)
{
    float f = (float)x;
    if (!((double)f > x))
        return f;
    if (f == 0.0f)
        return -FLT_TRUE_MIN;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    bits = f > 0.0f ? bits - 1 : bits + 1;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* y . c in two 4-lane partial sums (ckm_v4d, objective.h); the order need not match
 * dgemm's (see the header). Inlined into its callers, which are cloned for AVX2 (chosen
 * at load time): a call per measured center cost more than the product at d = 16. */
static inline __attribute__((always_inline)) double dot(const double *y, const double *c, size_t d)
{
    ckm_v4d s0 = {0.0, 0.0, 0.0, 0.0}, s1 = s0;
    size_t f = 0;
    for (; f + 8 <= d; f += 8) {
        ckm_v4d a0, b0, a1, b1;
        memcpy(&a0, y + f, sizeof a0);
        memcpy(&b0, c + f, sizeof b0);
        memcpy(&a1, y + f + 4, sizeof a1);
        memcpy(&b1, c + f + 4, sizeof b1);
        s0 += a0 * b0;
        s1 += a1 * b1;
    }
    s0 += s1;
    double r = (s0[0] + s0[1]) + (s0[2] + s0[3]);
    for (; f < d; f++)
        r += y[f] * c[f];
    return r;
}

static double root(double sq) { return sq > 0.0 ? sqrt(sq) : 0.0; }

/* Whole rows in a step (hard_rows) come in dgemm blocks of 2^18 / (k d) rows, where
 * OpenBLAS stays on the calling thread (nearest.c); at least 16 rows: k d <= 2^14. */
#define HARD_KD ((size_t)1 << 14)

size_t ckm_yinyang_groups_for(size_t k, size_t d)
{
    /* measured: k / 10 (the paper's) to k / 40 within 10 %, k / 20 best, when a step
       measures distances one by one; where whole rows reset a point's bounds (k d within
       HARD_KD), k / 10 took 8 % less at 10^6 x 16, k = 100 on overlapping data and the same
       on separated data (bench/README.md, issue 55) */
    size_t t = k * d <= HARD_KD ? k / 10 : k / 20;
    return t < 1 ? 1 : t;
}

double ckm_yinyang_bytes(size_t s, size_t d, size_t k)
{
    double S = (double)s, t = (double)ckm_yinyang_groups_for(k, d);
    return 8.0 * S + 4.0 * S * (t + 1.0) + (k * d <= HARD_KD ? 8.0 * S : 0.0);
}

void ckm_yinyang_free(ckm_yinyang *yy)
{
    free(yy->group);
    free(yy->gstart);
    free(yy->gmem);
    free(yy->ub);
    free(yy->lb);
    free(yy->drift);
    free(yy->gdrift);
    free(yy->cum);
    free(yy->glb);
    free(yy->pos);
    free(yy->row);
    free(yy->gcum);
    free(yy->cnorm);
    free(yy->scratch);
    free(yy->sidx);
    free(yy->tcount);
    free(yy->hard);
    free(yy->hy);
    free(yy->hg);
    free(yy->cg);
    free(yy->cgn);
    memset(yy, 0, sizeof *yy);
}

ckm_error ckm_yinyang_init(ckm_yinyang *yy, size_t s, size_t d, size_t k, size_t t, int threads, ckm_err *err)
{
    memset(yy, 0, sizeof *yy);
    if (t < 1 || t > k)
        t = 1;
    yy->s = s;
    yy->d = d;
    yy->k = k;
    yy->t = t;
    yy->threads = ckm_thread_count(threads);
    size_t st, tt;
    bool ok = ckm_mul_ok(s, t, &st) && ckm_mul_ok((size_t)yy->threads, 3 * t, &tt);
    yy->group = ckm_alloc_array(k, sizeof(size_t));
    yy->gstart = ckm_alloc_array(t + 1, sizeof(size_t));
    yy->gmem = ckm_alloc_array(k, sizeof(size_t));
    yy->ub = ckm_alloc_array(s, sizeof(double));
    yy->lb = ok ? ckm_alloc_array(st, sizeof(float)) : NULL;
    yy->glb = ckm_alloc_array(s, sizeof(float));
    yy->pos = ckm_alloc_array(k, sizeof(size_t));
    yy->row = ckm_alloc_array((size_t)yy->threads * k, sizeof(double));

    yy->drift = ckm_alloc_array(k, sizeof(double));
    yy->gdrift = ckm_alloc_array(t, sizeof(double));
    yy->cum = ckm_calloc_array(k, sizeof(double));
    yy->gcum = ckm_calloc_array(t, sizeof(double));
    yy->cnorm = ckm_alloc_array(k, sizeof(double));
    yy->scratch = ok ? ckm_alloc_array(tt, sizeof(double)) : NULL;
    yy->sidx = ok ? ckm_alloc_array(tt, sizeof(size_t)) : NULL;
    yy->tcount = ckm_calloc_array(2 * (size_t)yy->threads, sizeof(size_t));
    /* whole rows in a step: blocks of at most 2^18 / (k d) rows, where OpenBLAS stays on
       the calling thread (nearest.c); none when that is under 16 rows */
    yy->hblock = k * d > 0 && k * d <= HARD_KD ? ((size_t)1 << 18) / (k * d) : 0;
    size_t TB = (size_t)yy->threads * yy->hblock;
    if (yy->hblock) {
        yy->hard = ckm_alloc_array(s, sizeof(size_t));
        yy->hy = ckm_alloc_array(TB * d, sizeof(double));
        yy->hg = ckm_alloc_array(TB * k, sizeof(double));
        yy->cg = ckm_alloc_array(k * d, sizeof(double));
        yy->cgn = ckm_alloc_array(k, sizeof(double));
        if (!yy->hard || !yy->hy || !yy->hg || !yy->cg || !yy->cgn)
            ok = false;
    }
    if (!yy->group || !yy->gstart || !yy->gmem || !yy->ub || !yy->lb || !yy->glb || !yy->pos || !yy->row || !yy->drift || !yy->gdrift || !yy->cum || !yy->gcum ||
        !yy->cnorm || !yy->scratch || !yy->sidx || !yy->tcount || !ok) {
        ckm_yinyang_free(yy);
        return ckm_fail(err, CKM_ERR_NOMEM, "k-means bounds: out of memory (%zu points x %zu groups)", s, t);
    }
    return CKM_OK;
}

/* Groups: t seeds at centers floor(g k / t), then 5 Lloyd rounds on the k centers (the
 * paper's grouping); a group left empty stays empty (its bound is +inf). Deterministic. */
void ckm_yinyang_group(ckm_yinyang *yy, const double *C)
{
    size_t k = yy->k, d = yy->d, t = yy->t;
    for (size_t j = 0; j < k; j++)
        yy->group[j] = j * t / k;
    if (t > 1) {
        double *G = calloc(t * d, sizeof(double));
        size_t *cnt = calloc(t, sizeof(size_t));
        for (size_t g = 0; G && cnt && g < t; g++)
            memcpy(G + g * d, C + (g * k / t) * d, d * sizeof(double));
        for (int round = 0; G && cnt && round < 5; round++) {
            for (size_t j = 0; j < k; j++) {
                size_t bg = 0;
                double best = INFINITY;
                for (size_t g = 0; g < t; g++) {
                    double v = 0.0;
                    for (size_t f = 0; f < d; f++) {
                        double e = C[j * d + f] - G[g * d + f];
                        v += e * e;
                    }
                    if (v < best) {
                        best = v;
                        bg = g;
                    }
                }
                yy->group[j] = bg;
            }
            memset(G, 0, t * d * sizeof(double));
            memset(cnt, 0, t * sizeof(size_t));
            for (size_t j = 0; j < k; j++) {
                cnt[yy->group[j]]++;
                for (size_t f = 0; f < d; f++)
                    G[yy->group[j] * d + f] += C[j * d + f];
            }
            for (size_t g = 0; g < t; g++)
                for (size_t f = 0; f < d; f++)
                    G[g * d + f] = cnt[g] ? G[g * d + f] / (double)cnt[g] : INFINITY;
        }
        /* without memory for the rounds the contiguous split above stands: still valid */
        free(G);
        free(cnt);
    }
    memset(yy->gstart, 0, (t + 1) * sizeof(size_t));
    for (size_t j = 0; j < k; j++)
        yy->gstart[yy->group[j] + 1]++;
    for (size_t g = 0; g < t; g++)
        yy->gstart[g + 1] += yy->gstart[g];
    size_t *fill = yy->sidx; /* scratch: threads * 3t >= t + 1 */
    memcpy(fill, yy->gstart, t * sizeof(size_t));
    for (size_t j = 0; j < k; j++) {
        yy->pos[j] = fill[yy->group[j]]++;
        yy->gmem[yy->pos[j]] = j;
    }
}

/* m[q] = min of ev over group q's positions [gs[q], gs[q + 1]) other than pa (four
 * lanes: the order of a min does not matter). */
static inline __attribute__((always_inline)) void group_minima(const double *ev, const size_t *gs, size_t t,
                                                               size_t pa, double *m)
{
    for (size_t q = 0; q < t; q++) {
        double r[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        size_t e = gs[q], end = gs[q + 1];
        if (pa >= e && pa < end) { /* a's own group: the others only */
            for (; e < end; e++)
                r[0] = e != pa && ev[e] < r[0] ? ev[e] : r[0];
        } else {
            for (; e + 4 <= end; e += 4)
                for (int h = 0; h < 4; h++)
                    r[h] = ev[e + h] < r[h] ? ev[e + h] : r[h];
            for (; e < end; e++)
                r[0] = ev[e] < r[0] ? ev[e] : r[0];
        }
        double x = r[0] < r[1] ? r[0] : r[1], y = r[2] < r[3] ? r[2] : r[3];
        m[q] = x < y ? x : y;
    }
}

/* l[q] = round_down(root(y2 + m[q] - E) + off[q]) (off = NULL: + 0) four groups at a time
 * (vector square roots; root's and round_down's exact results: x >= 0 so a rounded-up
 * float is positive and steps down by one in its bits). Returns min_q (l[q] - off[q]). */
static inline __attribute__((always_inline)) double minima_bounds(const double *m, size_t t, double y2, double E,
                                                                  const double *off, float *l)
{
    size_t q = 0;
    const ckm_v4d zero = {0.0, 0.0, 0.0, 0.0};
    ckm_v4d lo = {INFINITY, INFINITY, INFINITY, INFINITY};
    for (; q + 4 <= t; q += 4) {
        ckm_v4d x, o = zero;
        memcpy(&x, m + q, sizeof x);
        if (off)
            memcpy(&o, off + q, sizeof o);
        x = (y2 + x) - E;
        double sq[4];
        for (int h = 0; h < 4; h++)
            sq[h] = x[h] > 0.0 ? sqrt(x[h]) : 0.0;
        memcpy(&x, sq, sizeof x);
        x += o;
        ckm_v4f f = __builtin_convertvector(x, ckm_v4f);
        ckm_v4l up = __builtin_convertvector(f, ckm_v4d) > x;
        ckm_v4i bits;
        memcpy(&bits, &f, sizeof bits);
        bits += __builtin_convertvector(up, ckm_v4i); /* -1 where the conversion rounded up */
        memcpy(&f, &bits, sizeof f);
        memcpy(l + q, &f, sizeof f);
        ckm_v4d v = __builtin_convertvector(f, ckm_v4d) - o;
        lo = CKM_V4D_PICK(v < lo, v, lo);
    }
    double all = INFINITY;
    for (int h = 0; h < 4; h++)
        all = lo[h] < all ? lo[h] : all;
    for (; q < t; q++) {
        double o = off ? off[q] : 0.0;
        l[q] = round_down(root(y2 + m[q] - E) + o);
        all = (double)l[q] - o < all ? (double)l[q] - o : all;
    }
    return all;
}

/* The lower bounds of a reset row (see set_bounds): group_minima then minima_bounds.
 * Returns min_q l[q]. Clones: SSE2 / AVX2. */
__attribute__((target_clones("avx2", "default"))) static double group_bounds(const double *ev, const size_t *gs,
                                                                              size_t t, size_t pa, double y2,
                                                                              double E, double *m, float *l)
{
    group_minima(ev, gs, t, pa, m);
    return minima_bounds(m, t, y2, E, NULL, l);
}

/* A step's whole row of point i from g[p] = y.c of the center at group position p
 * (dgemm against the centers in group order): ev[p] = ||c||^2 - 2 g[p] and each group's
 * least value in one vector pass; the label b = the least value's center, the lowest
 * index among equals (plain Lloyd's rule); its group's least value again without it;
 * then the bounds (minima_bounds) stored as a step stores them: the upper bound minus D_b,
 * each lower bound plus E_g (added before the one rounding down). Returns b. Clones:
 * SSE2 / AVX2. */
__attribute__((target_clones("avx2", "default"))) static size_t hard_row(ckm_yinyang *yy, size_t i,
                                                                          const double *g, double y2, int tid)
{
    size_t t = yy->t, k = yy->k;
    const size_t *gs = yy->gstart;
    const double *cg = yy->cgn;
    double *ev = yy->row + (size_t)tid * k, *m = yy->scratch + (size_t)tid * 3 * t;
    double best = INFINITY;
    for (size_t q = 0; q < t; q++) {
        ckm_v4d r = {INFINITY, INFINITY, INFINITY, INFINITY};
        size_t e = gs[q], end = gs[q + 1];
        for (; e + 4 <= end; e += 4) {
            ckm_v4d gv, cv;
            memcpy(&gv, g + e, sizeof gv);
            memcpy(&cv, cg + e, sizeof cv);
            ckm_v4d v = cv - 2.0 * gv;
            memcpy(ev + e, &v, sizeof v);
            r = CKM_V4D_PICK(v < r, v, r);
        }
        double x = r[0] < r[1] ? r[0] : r[1], y = r[2] < r[3] ? r[2] : r[3], mq = x < y ? x : y;
        for (; e < end; e++) {
            ev[e] = cg[e] - 2.0 * g[e];
            mq = ev[e] < mq ? ev[e] : mq;
        }
        m[q] = mq;
        best = mq < best ? mq : best;
    }
    size_t b = SIZE_MAX, pb = 0;
    for (size_t q = 0; q < t; q++)
        for (size_t e = gs[q]; m[q] == best && e < gs[q + 1]; e++)
            if (ev[e] == best && yy->gmem[e] < b) {
                b = yy->gmem[e];
                pb = e;
            }
    size_t qb = yy->group[b];
    double other = INFINITY;
    for (size_t e = gs[qb]; e < gs[qb + 1]; e++)
        other = e != pb && ev[e] < other ? ev[e] : other;
    m[qb] = other;
    double glb = minima_bounds(m, t, y2, 0.0, yy->gcum, yy->lb + i * t);
    yy->glb[i] = round_down(glb + yy->allcum);
    yy->ub[i] = root(y2 + ev[pb]) - yy->cum[b];
    return b;
}

typedef struct reset_job {
    ckm_yinyang *yy;
    const double *ynorm, *cnorm;
    const ckm_screen *sc;
    int32_t *labels;
} reset_job;

/* Label a and fresh bounds of row i from ev[q] (k entries by group position: center
 * gmem[q], so each group's values are contiguous): y2 + ev[q] is within E of the squared
 * distance to that center, so y2 + ev[pos[a]] + E bounds the assigned one above and
 * y2 + ev[q] - E every other below (E = 0 for a dgemm row: its values are plain Lloyd's
 * own). D = E = 0 after a reset. */
static void set_bounds(reset_job *job, size_t i, const double *ev, double y2, double E, size_t a, int tid)
{
    ckm_yinyang *yy = job->yy;
    size_t t = yy->t, pa = yy->pos[a];
    job->labels[i] = (int32_t)a;
    yy->ub[i] = root(y2 + ev[pa] + E);
    float *l = yy->lb + i * t;
    double *m = yy->scratch + (size_t)tid * 3 * t; /* the steps' scratch, free during a reset */
    yy->glb[i] = (float)group_bounds(ev, yy->gstart, t, pa, y2, E, m, l); /* a float already: exact */
}

/* A dgemm row g (y.c, by center index): ev[q] = ||c||^2 - 2 y.c of center gmem[q] as
 * ckm_nearest computes it. */
static void reset_row(void *ctx, size_t i, const double *g, size_t a, int tid)
{
    reset_job *job = ctx;
    size_t k = job->yy->k;
    const size_t *gm = job->yy->gmem;
    double *ev = job->yy->row + (size_t)tid * k;
    for (size_t q = 0; q < k; q++)
        ev[q] = job->cnorm[gm[q]] - 2.0 * g[gm[q]];
    set_bounds(job, i, ev, job->ynorm[i], 0.0, a, tid);
}

/* A float row of the screen, centers in group order: its ev come with the error bound E. */
static void reset_row_f(void *ctx, size_t i, const double *ev, double ynf, double E, size_t a, int tid)
{
    set_bounds(ctx, i, ev, ynf, E, a, tid);
}

/* The centers C in group order and their squared norms (yy->cnorm) in that order. */
static void group_order(ckm_yinyang *yy, const double *C)
{
    size_t d = yy->d;
    for (size_t p = 0; p < yy->k; p++) {
        memcpy(yy->cg + p * d, C + yy->gmem[p] * d, d * sizeof(double));
        yy->cgn[p] = yy->cnorm[yy->gmem[p]];
    }
}

/* G (rows x k) = A (rows x d) times the centers in group order transposed: y.c by group
 * position, in a block small enough to stay on the calling thread (hblock rows). */
static void group_products(const ckm_yinyang *yy, const double *A, size_t rows, double *G)
{
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)yy->k, (int)yy->d, 1.0, A, (int)yy->d,
                yy->cg, (int)yy->d, 0.0, G, (int)yy->k);
}

typedef struct rows_job {
    ckm_yinyang *yy;
    const double *Y, *ynorm;
    int32_t *labels;
} rows_job;

/* Blocks [b0, b1) of a reset by whole rows (block b: rows b hblock ..): dgemm of the rows
 * in place against the centers in group order, then each row's label and bounds
 * (hard_row, with the drift sums at 0). */
static void reset_blocks(void *ctx, size_t b0, size_t b1, int tid)
{
    rows_job *j = ctx;
    ckm_yinyang *yy = j->yy;
    size_t k = yy->k, d = yy->d, B = yy->hblock;
    double *G = yy->hg + (size_t)tid * B * k;
    for (size_t b = b0; b < b1; b++) {
        size_t r0 = b * B, rows = yy->s - r0 < B ? yy->s - r0 : B;
        group_products(yy, j->Y + r0 * d, rows, G);
        for (size_t r = 0; r < rows; r++)
            j->labels[r0 + r] = (int32_t)hard_row(yy, r0 + r, G + r * k, j->ynorm[r0 + r], tid);
    }
}

void ckm_yinyang_reset(ckm_yinyang *yy, const double *Y, const double *ynorm, const double *C,
                       ckm_nearest_ws *near, ckm_screen *sc, int32_t *labels)
{
    memset(yy->cum, 0, yy->k * sizeof(double));
    memset(yy->gcum, 0, yy->t * sizeof(double));
    yy->allcum = 0.0;
    reset_job job = {yy, ynorm, near->cnorm, sc, labels};
    if (sc) { /* near->cnorm is filled by the exact route's ckm_nearest_rows before its rows */
        ckm_screen_pass(sc, C, yy->gmem, near, reset_row_f, reset_row, &job);
    } else if (yy->hblock) {
        /* as a step's whole rows: at 10^6 x 16, k = 100 a reset through ckm_nearest_rows
           (argmin, then the row gathered into group order, then the group minima) cost
           0.13-0.21 s where a plain pass costs 0.056 s */
        ckm_row_norms(C, yy->k, yy->d, yy->cnorm);
        group_order(yy, C);
        rows_job rj = {yy, Y, ynorm, labels};
        size_t nblocks = (yy->s + yy->hblock - 1) / yy->hblock;
        if (yy->threads > 1 && nblocks > 1)
            ckm_parallel_for(yy->threads, nblocks, reset_blocks, &rj);
        else
            reset_blocks(&rj, 0, nblocks, 0);
    } else {
        ckm_nearest_rows(Y, ynorm, yy->s, C, near, NULL, NULL, reset_row, &job);
    }
    double ymax = 0.0;
    for (size_t i = 0; i < yy->s; i++)
        ymax = ynorm[i] > ymax ? ynorm[i] : ymax;
    yy->ymax = ymax;
    yy->measured = yy->s * yy->k;
}

typedef struct step_job {
    ckm_yinyang *yy;
    const double *Y, *ynorm, *C;
    int32_t *lab;
} step_job;

/* The values v = ||c||^2 - 2 y.c of group q's centers (the assigned center a's is va):
 * the two least, v1 at *a1 (first in group order) and v2, and the running best (best_v at
 * b, ties to the lower index). Squared values only: the distance root(y2 + v) is monotone
 * in v, so the group's two least distances are the roots of v1 and v2 (taken by the
 * caller), the same numbers a root per center gave. Returns the centers measured. */
static inline __attribute__((always_inline)) size_t measure_group(const ckm_yinyang *yy, size_t q, const double *y,
                                                                  const double *C, size_t a, double va, double *v1,
                                                                  double *v2, size_t *a1, double *best_v, size_t *b)
{
    const double *cn = yy->cnorm;
    size_t d = yy->d, measured = 0;
    double m1 = INFINITY, m2 = INFINITY;
    size_t at = SIZE_MAX;
    for (size_t e = yy->gstart[q]; e < yy->gstart[q + 1]; e++) {
        size_t c = yy->gmem[e];
        double v = va;
        if (c != a) {
            v = cn[c] - 2.0 * dot(y, C + c * d, d);
            measured++;
        }
        if (v < m1) {
            m2 = m1;
            m1 = v;
            at = c;
        } else if (v < m2)
            m2 = v;
        if (v < *best_v || (v == *best_v && c < *b)) {
            *best_v = v;
            *b = c;
        }
    }
    *v1 = m1;
    *v2 = m2;
    *a1 = at;
    return measured;
}

/* A point whose groups within reach hold fewer than k / HARD_SHARE centers measures
 * them one by one (a dot product each, about 10 ns at d = 16); past that, its whole row
 * by dgemm with the other such points (about 1.2 ns a distance) and fresh bounds from it
 * (hard_row): measured at 10^6 x 16, k = 100 on heavily overlapping data (issue 55). */
#define HARD_SHARE 5
/* a step's estimated cost (estimate) past which a full pass is cheaper; 0.5, 0.8 and 1.2
   measured within 3 % of each other at 10^6 x 16, k = 100 */
#define STEP_CUTOFF 0.8

/* Point i (label a, distance da = root(y2 + va) to it, global bound glb) failed the
 * tests on its own center: measure the groups whose bound does not clear the running best
 * (measure_group), relabel it, and store the new bounds. Returns the centers measured;
 * *changed counts a label change. */
static inline __attribute__((always_inline)) size_t group_step(step_job *job, size_t i, size_t a, double va,
                                                               double da, int tid, size_t *changed)
{
    ckm_yinyang *yy = job->yy;
    size_t t = yy->t;
    const double *D = yy->cum, *E = yy->gcum;
    double m = yy->margin, yn = job->ynorm[i];
    double *min1 = yy->scratch + (size_t)tid * 3 * t, *min2 = min1 + t;
    size_t *arg1 = yy->sidx + (size_t)tid * 3 * t;
    unsigned char *seen = (unsigned char *)(min2 + t); /* t bytes in the third block */
    const double *y = job->Y + i * yy->d;
    float *l = yy->lb + i * t;
    double best_v = va, best_d = da;
    size_t b = a, measured = 0;
    for (size_t q = 0; q < t; q++) {
        seen[q] = 0;
        if ((double)l[q] - E[q] >= best_d + m)
            continue;
        seen[q] = 1;
        double v1, v2;
        measured += measure_group(yy, q, y, job->C, a, va, &v1, &v2, &arg1[q], &best_v, &b);
        min1[q] = root(yn + v1); /* = da where v1 = va: the same expression */
        min2[q] = root(yn + v2);
        best_d = root(yn + best_v);
    }
    double glb = INFINITY;
    for (size_t q = 0; q < t; q++) {
        if (seen[q])
            l[q] = round_down((arg1[q] == b ? min2[q] : min1[q]) + E[q]);
        else if (b != a && yy->group[a] == q && da < (double)l[q] - E[q])
            l[q] = round_down(da + E[q]); /* the old center joins its group's others */
        double v = (double)l[q] - E[q];
        glb = v < glb ? v : glb;
    }
    yy->glb[i] = round_down(glb + yy->allcum);
    yy->ub[i] = best_d - D[b];
    if (b != a) {
        job->lab[i] = (int32_t)b;
        (*changed)++;
    }
    return measured;
}

/* The points hard[0..h) of a step: their rows by dgemm against the centers in group
 * order (yy->cg) in blocks of hblock rows (gathered into the thread's buffer), each
 * relabelled and given fresh bounds (hard_row). Returns the labels changed. */
static size_t hard_rows(step_job *job, const size_t *hard, size_t h, int tid)
{
    ckm_yinyang *yy = job->yy;
    size_t k = yy->k, d = yy->d, B = yy->hblock, changed = 0;
    double *Yb = yy->hy + (size_t)tid * B * d, *G = yy->hg + (size_t)tid * B * k;
    for (size_t r0 = 0; r0 < h; r0 += B) {
        size_t rows = h - r0 < B ? h - r0 : B;
        for (size_t r = 0; r < rows; r++)
            memcpy(Yb + r * d, job->Y + hard[r0 + r] * d, d * sizeof(double));
        group_products(yy, Yb, rows, G);
        for (size_t r = 0; r < rows; r++) {
            size_t i = hard[r0 + r];
            size_t b = hard_row(yy, i, G + r * k, job->ynorm[i], tid);
            if ((size_t)job->lab[i] != b) {
                job->lab[i] = (int32_t)b;
                changed++;
            }
        }
    }
    return changed;
}

/* Centers within reach of a point whose own distance is da: the sizes of the groups whose
 * lower bound is below da + m. */
static inline __attribute__((always_inline)) size_t within_reach(const ckm_yinyang *yy, const float *l, double da)
{
    size_t cnt = 0;
    for (size_t q = 0; q < yy->t; q++)
        if ((double)l[q] - yy->gcum[q] < da + yy->margin)
            cnt += yy->gstart[q + 1] - yy->gstart[q];
    return cnt;
}

/* Point i, which failed its global bound: the group bounds, the distance to its assigned
 * center, then the groups within reach (group_step) or, for many, the whole row (collected
 * in hard[*h], measured by hard_rows at the end of the range). */
static inline __attribute__((always_inline)) void step_point(step_job *job, size_t i, int tid, size_t *hard,
                                                             size_t *h, size_t *changed, size_t *measured)
{
    ckm_yinyang *yy = job->yy;
    size_t t = yy->t, d = yy->d, k = yy->k, a = (size_t)job->lab[i];
    const double *E = yy->gcum;
    double m = yy->margin, u = yy->ub[i] + yy->cum[a];
    float *l = yy->lb + i * t;
    double glb = INFINITY;
    for (size_t q = 0; q < t; q++) {
        double v = (double)l[q] - E[q];
        glb = v < glb ? v : glb;
    }
    yy->glb[i] = round_down(glb + yy->allcum);
    if (u + m <= glb)
        return;
    double va = yy->cnorm[a] - 2.0 * dot(job->Y + i * d, job->C + a * d, d);
    double da = root(job->ynorm[i] + va);
    (*measured)++;
    if (da + m <= glb) {
        yy->ub[i] = da - yy->cum[a];
        return;
    }
    if (yy->hblock && within_reach(yy, l, da) * HARD_SHARE > k) {
        hard[(*h)++] = i;
        *measured += k - 1;
        return;
    }
    *measured += group_step(job, i, a, va, da, tid, changed);
}

/* points per run of step_range: their global bounds are tested first, and the bounds and
   rows of those that fail are prefetched before they are read (at 10^6 x 16 the load of a
   failing point's row was a quarter of a bounded fit's samples) */
#define PREFETCH_RUN ((size_t)32)

/* Points [i0, i1), in runs of PREFETCH_RUN: the global bound, then for those it does not
 * settle (step_point) the group bounds, the distance to the assigned center, then the
 * groups within reach (group_step) or, for many, the whole row (hard_rows, collected in
 * yy->hard[i0..]). Each point's arithmetic is the same as one by one. */
__attribute__((target_clones("avx2", "default"))) static void step_range(void *ctx, size_t i0, size_t i1, int tid)
{
    step_job *job = ctx;
    ckm_yinyang *yy = job->yy;
    size_t t = yy->t, d = yy->d;
    const double *D = yy->cum;
    double m = yy->margin;
    size_t changed = 0, measured = 0, h = 0, *hard = yy->hard + i0;
    double A = yy->allcum;
    size_t run[PREFETCH_RUN], lines = d * sizeof(double) / 64 + 1;
    lines = lines < 4 ? lines : 4;
    for (size_t r0 = i0; r0 < i1; r0 += PREFETCH_RUN) {
        size_t r1 = i1 - r0 < PREFETCH_RUN ? i1 : r0 + PREFETCH_RUN, nf = 0;
        for (size_t i = r0; i < r1; i++) {
            double u = yy->ub[i] + D[job->lab[i]];
            if (u + m <= (double)yy->glb[i] - A)
                continue; /* the one global bound: 16 bytes read for most points */
            run[nf++] = i;
            __builtin_prefetch(yy->lb + i * t);
            __builtin_prefetch(job->ynorm + i);
            for (size_t q = 0; q < lines; q++)
                __builtin_prefetch((const char *)(job->Y + i * d) + 64 * q);
        }
        for (size_t f = 0; f < nf; f++)
            step_point(job, run[f], tid, hard, &h, &changed, &measured);
    }
    if (h)
        changed += hard_rows(job, hard, h, tid);
    yy->tcount[2 * (size_t)tid] = changed;
    yy->tcount[2 * (size_t)tid + 1] = measured;
}

/* A step's cost as a fraction of a full pass's, estimated on every ceil(s / 2048)-th
 * point (the tests of step_range without the running best): a point whose groups within
 * reach are measured one by one costs DOT_COST / k of a full pass's row per distance, a
 * whole row HARD_COST rows (dgemm, gather and bounds), one the bounds keep nothing; and
 * every point SCAN_COST / (k d) of a row, the pass over its bounds, labels and norms that
 * a step makes whatever they keep (a full pass's row costs about k d). Measured (issue 55)
 * at 10^6 x 16, k = 100 on overlapping data, 20 steps from random starts: nine bounded
 * steps estimated at 0.36-0.79 without that term took 0.93-1.47 full passes (about
 * 0.48 + 1.25 x the estimate), so steps a full pass beats were taken; 600 / (k d) = 0.38
 * there moves the break-even to the cutoff. At 10^5 x 128, k = 1000 the estimate without
 * it was already within 0.02-0.14 of the measured share (the term is 0.005 there). */
#define DOT_COST 5.0
#define HARD_COST 1.5
#define SCAN_COST 600.0
__attribute__((target_clones("avx2", "default"))) static double estimate(const ckm_yinyang *yy, const double *Y,
                                                                          const double *ynorm, const double *C,
                                                                          const int32_t *labels)
{
    size_t t = yy->t, d = yy->d, k = yy->k, stride = (yy->s + 2047) / 2048, seen = 0;
    double cost = 0.0, m = yy->margin;
    for (size_t i = 0; i < yy->s; i += stride) {
        seen++;
        size_t a = (size_t)labels[i];
        double u = yy->ub[i] + yy->cum[a];
        if (u + m <= (double)yy->glb[i] - yy->allcum)
            continue;
        const float *l = yy->lb + i * t;
        double glb = INFINITY;
        for (size_t q = 0; q < t; q++)
            glb = fmin(glb, (double)l[q] - yy->gcum[q]);
        if (u + m <= glb)
            continue;
        double da = root(ynorm[i] + (yy->cnorm[a] - 2.0 * dot(Y + i * d, C + a * d, d)));
        size_t reach = da + m > glb ? within_reach(yy, l, da) : 0;
        if (yy->hblock && reach * HARD_SHARE > k)
            cost += HARD_COST;
        else
            cost += DOT_COST * (double)(1 + reach) / (double)k;
    }
    return cost / (double)seen + SCAN_COST / ((double)k * (double)d);
}

bool ckm_yinyang_step(ckm_yinyang *yy, const double *Y, const double *ynorm, const double *Cold,
                      const double *C, int32_t *labels)
{
    size_t k = yy->k, d = yy->d, t = yy->t;
    double cmax = 0.0;
    for (size_t q = 0; q < t; q++)
        yy->gdrift[q] = 0.0;
    for (size_t j = 0; j < k; j++) {
        double sq = 0.0, cn = 0.0;
        for (size_t f = 0; f < d; f++) {
            double e = C[j * d + f] - Cold[j * d + f];
            sq += e * e;
            cn += C[j * d + f] * C[j * d + f];
        }
        yy->cnorm[j] = cn;
        cmax = cn > cmax ? cn : cmax;
        /* a relative 1e-12 above the computed drift keeps the bounds valid despite its
           own rounding (the margin covers the rest) */
        yy->drift[j] = sqrt(sq) * (1.0 + 1e-12);
        yy->cum[j] += yy->drift[j];
        if (yy->drift[j] > yy->gdrift[yy->group[j]])
            yy->gdrift[yy->group[j]] = yy->drift[j];
    }
    double most = 0.0;
    for (size_t q = 0; q < t; q++) {
        yy->gcum[q] += yy->gdrift[q];
        most = yy->gdrift[q] > most ? yy->gdrift[q] : most;
    }
    yy->allcum += most;
    yy->margin = 4.0 * sqrt((double)(d + 4) * DBL_EPSILON * (yy->ymax + cmax));
    /* far-moving centers (the first iterations) leave bounds that rule out little: past
       STEP_CUTOFF of a full pass's estimated cost (estimate) the caller's full pass is
       cheaper */
    if (estimate(yy, Y, ynorm, C, labels) > STEP_CUTOFF)
        return false;
    if (yy->hblock)
        group_order(yy, C);
    step_job job = {yy, Y, ynorm, C, labels};
    memset(yy->tcount, 0, 2 * (size_t)yy->threads * sizeof(size_t));
    if (yy->threads > 1 && yy->s >= 4096)
        ckm_parallel_for(yy->threads, yy->s, step_range, &job);
    else
        step_range(&job, 0, yy->s, 0);
    yy->measured = 0;
    for (int q = 0; q < yy->threads; q++)
        yy->measured += yy->tcount[2 * (size_t)q + 1];
    return true;
}

void ckm_yinyang_jump(ckm_yinyang *yy, size_t j, double jump, size_t i, size_t from)
{
    size_t t = yy->t, g = yy->group[j];
    jump *= 1.0 + 1e-12; /* as for the drifts */
    yy->cum[j] += jump;
    yy->gcum[g] += jump;
    yy->allcum += jump;
    /* point i now sits on c_j: distance 0 (stored minus cum); its old center has no lower
       bound but 0 */
    yy->ub[i] = -yy->cum[j];
    yy->lb[i * t + yy->group[from]] = round_down(yy->gcum[yy->group[from]]);
    yy->glb[i] = round_down(yy->allcum);
}

__attribute__((target_clones("avx2", "default"))) void ckm_yinyang_assigned(const double *Y, const double *ynorm,
                                                                            size_t s, size_t d, const double *C,
                                                                            const int32_t *labels, double *dist)
{
    for (size_t i = 0; i < s; i++) {
        const double *c = C + (size_t)labels[i] * d;
        double v = ynorm[i] + (dot(c, c, d) - 2.0 * dot(Y + i * d, c, d));
        dist[i] = v > 0.0 ? v : 0.0;
    }
}
