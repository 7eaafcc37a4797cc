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
 * between two measured centers (y.c from a loop here, from dgemm there) could resolve
 * differently; tests compare whole runs label by label.
 * A reset is one full pass (screen.c when screened, else dgemm) with the centers taken in
 * group order, so each group's values lie side by side: its minimum is a vector min and
 * the t roots of a row are taken four at a time (group_bounds).
 * Cost per step: O(s t) bound updates + O(d) per measured center + O(k d) drifts.
 * Memory: s doubles (u) + s (t + 1) floats (l + E, rounded down) + O(k + threads t).
 */
#include "core.h"
#include "objective.h"

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

/* y . c in two 4-lane partial sums (ckm_v4d, objective.h; the AVX2 clone chosen at load
 * time); the order need not match dgemm's (see the header). */

__attribute__((target_clones("avx2", "default"))) static double dot(const double *y, const double *c, size_t d)
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

size_t ckm_yinyang_groups_for(size_t k)
{
    size_t t = k / 20; /* measured: k / 10 (the paper's) to k / 40 within 10 %, k / 20 best */
    return t < 1 ? 1 : t;
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
    if (!yy->group || !yy->gstart || !yy->gmem || !yy->ub || !yy->lb || !yy->glb || !yy->pos || !yy->row || !yy->drift || !yy->gdrift || !yy->cum || !yy->gcum ||
        !yy->cnorm || !yy->scratch || !yy->sidx || !yy->tcount) {
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

/* The lower bounds of a reset row (see set_bounds): m[q] = min of ev over group q's
 * positions [gs[q], gs[q + 1]) other than pa (four lanes: the order of a min does not
 * matter), then l[q] = round_down(root(y2 + m[q] - E)) four groups at a time (vector
 * square roots; root's and round_down's exact results: x >= 0 so a rounded-up float is
 * positive and steps down by one in its bits). Returns min_q l[q]. Clones: SSE2 / AVX2. */
__attribute__((target_clones("avx2", "default"))) static double group_bounds(const double *ev, const size_t *gs,
                                                                              size_t t, size_t pa, double y2,
                                                                              double E, double *m, float *l)
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
    size_t q = 0;
    ckm_v4f lo = {INFINITY, INFINITY, INFINITY, INFINITY};
    for (; q + 4 <= t; q += 4) {
        ckm_v4d x;
        memcpy(&x, m + q, sizeof x);
        x = (y2 + x) - E;
        double sq[4];
        for (int h = 0; h < 4; h++)
            sq[h] = x[h] > 0.0 ? sqrt(x[h]) : 0.0;
        memcpy(&x, sq, sizeof x);
        ckm_v4f f = __builtin_convertvector(x, ckm_v4f);
        ckm_v4l up = __builtin_convertvector(f, ckm_v4d) > x;
        ckm_v4i bits;
        memcpy(&bits, &f, sizeof bits);
        bits += __builtin_convertvector(up, ckm_v4i); /* -1 where the conversion rounded up */
        memcpy(&f, &bits, sizeof f);
        memcpy(l + q, &f, sizeof f);
        for (int h = 0; h < 4; h++)
            lo[h] = f[h] < lo[h] ? f[h] : lo[h];
    }
    double all = INFINITY;
    for (int h = 0; h < 4; h++)
        all = (double)lo[h] < all ? (double)lo[h] : all;
    for (; q < t; q++) {
        l[q] = round_down(root(y2 + m[q] - E));
        all = (double)l[q] < all ? (double)l[q] : all;
    }
    return all;
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

void ckm_yinyang_reset(ckm_yinyang *yy, const double *Y, const double *ynorm, const double *C,
                       ckm_nearest_ws *near, ckm_screen *sc, int32_t *labels)
{
    reset_job job = {yy, ynorm, near->cnorm, sc, labels};
    if (sc) /* near->cnorm is filled by the exact route's ckm_nearest_rows before its rows */
        ckm_screen_pass(sc, C, yy->gmem, near, reset_row_f, reset_row, &job);
    else
        ckm_nearest_rows(Y, ynorm, yy->s, C, near, NULL, NULL, reset_row, &job);
    double ymax = 0.0;
    for (size_t i = 0; i < yy->s; i++)
        ymax = ynorm[i] > ymax ? ynorm[i] : ymax;
    yy->ymax = ymax;
    yy->measured = yy->s * yy->k;
    memset(yy->cum, 0, yy->k * sizeof(double));
    memset(yy->gcum, 0, yy->t * sizeof(double));
    yy->allcum = 0.0;
}

typedef struct step_job {
    ckm_yinyang *yy;
    const double *Y, *ynorm, *C;
    int32_t *lab;
} step_job;

static void step_range(void *ctx, size_t i0, size_t i1, int tid)
{
    step_job *job = ctx;
    ckm_yinyang *yy = job->yy;
    size_t t = yy->t, d = yy->d;
    const double *cn = yy->cnorm, *C = job->C, *D = yy->cum, *E = yy->gcum;
    double m = yy->margin;
    double *min1 = yy->scratch + (size_t)tid * 3 * t, *min2 = min1 + t;
    size_t *arg1 = yy->sidx + (size_t)tid * 3 * t;
    unsigned char *seen = (unsigned char *)(min2 + t); /* t bytes in the third block */
    size_t changed = 0, measured = 0;
    double A = yy->allcum;
    for (size_t i = i0; i < i1; i++) {
        size_t a = (size_t)job->lab[i];
        double u = yy->ub[i] + D[a];
        if (u + m <= (double)yy->glb[i] - A)
            continue; /* the one global bound: 16 bytes read for most points */
        float *l = yy->lb + i * t;
        double glb = INFINITY;
        for (size_t q = 0; q < t; q++) {
            double v = (double)l[q] - E[q];
            glb = v < glb ? v : glb;
        }
        yy->glb[i] = round_down(glb + A);
        if (u + m <= glb)
            continue;
        const double *y = job->Y + i * d;
        double yn = job->ynorm[i];
        double va = cn[a] - 2.0 * dot(y, C + a * d, d);
        double da = root(yn + va);
        measured++;
        if (da + m <= glb) {
            yy->ub[i] = da - D[a];
            continue;
        }
        double best_v = va, best_d = da;
        size_t b = a;
        for (size_t q = 0; q < t; q++) {
            seen[q] = 0;
            if ((double)l[q] - E[q] >= best_d + m)
                continue;
            seen[q] = 1;
            double m1 = INFINITY, m2 = INFINITY;
            size_t a1 = SIZE_MAX;
            for (size_t e = yy->gstart[q]; e < yy->gstart[q + 1]; e++) {
                size_t c = yy->gmem[e];
                double v = c == a ? va : cn[c] - 2.0 * dot(y, C + c * d, d);
                measured += c != a;
                double dist = c == a ? da : root(yn + v);
                if (dist < m1) {
                    m2 = m1;
                    m1 = dist;
                    a1 = c;
                } else if (dist < m2)
                    m2 = dist;
                if (v < best_v || (v == best_v && c < b)) {
                    best_v = v;
                    best_d = dist;
                    b = c;
                }
            }
            min1[q] = m1;
            min2[q] = m2;
            arg1[q] = a1;
        }
        glb = INFINITY;
        for (size_t q = 0; q < t; q++) {
            if (seen[q])
                l[q] = round_down((arg1[q] == b ? min2[q] : min1[q]) + E[q]);
            else if (b != a && yy->group[a] == q && da < (double)l[q] - E[q])
                l[q] = round_down(da + E[q]); /* the old center joins its group's others */
            double v = (double)l[q] - E[q];
            glb = v < glb ? v : glb;
        }
        yy->glb[i] = round_down(glb + A);
        yy->ub[i] = best_d - D[b];
        if (b != a) {
            job->lab[i] = (int32_t)b;
            changed++;
        }
    }
    yy->tcount[2 * (size_t)tid] = changed;
    yy->tcount[2 * (size_t)tid + 1] = measured;
}

/* Distances a step would measure, as a fraction of s k, estimated on every
 * ceil(s / 2048)-th point (the tests of step_range without the running best). */
static double estimate(const ckm_yinyang *yy, const double *Y, const double *ynorm, const double *C,
                       const int32_t *labels)
{
    size_t t = yy->t, d = yy->d, stride = (yy->s + 2047) / 2048, seen = 0;
    double count = 0.0, m = yy->margin;
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
        count += 1.0;
        for (size_t q = 0; q < t && da + m > glb; q++)
            if ((double)l[q] - yy->gcum[q] < da + m)
                count += (double)(yy->gstart[q + 1] - yy->gstart[q]);
    }
    return count / ((double)seen * (double)yy->k);
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
    /* far-moving centers (the first iterations) leave bounds that rule out little: one
       measured distance costs several times a dgemm one, so past 10% the caller's full
       pass is cheaper */
    if (estimate(yy, Y, ynorm, C, labels) > 0.1)
        return false;
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

void ckm_yinyang_assigned(const double *Y, const double *ynorm, size_t s, size_t d, const double *C,
                          const int32_t *labels, double *dist)
{
    for (size_t i = 0; i < s; i++) {
        const double *c = C + (size_t)labels[i] * d;
        double v = ynorm[i] + (dot(c, c, d) - 2.0 * dot(Y + i * d, c, d));
        dist[i] = v > 0.0 ? v : 0.0;
    }
}
