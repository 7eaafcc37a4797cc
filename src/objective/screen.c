/*
 * screen.c -- a full nearest-center pass in single precision that returns plain Lloyd's
 * double-precision labels: sgemm decides the rows it can decide, dgemm the rest.
 *   y' = fl32(y - mu), c' = fl32(c - mu) with mu the points' mean (centred, the float error
 *   scales with the spread, not with an offset); G = Y' C'^T by sgemm (float);
 *   e_c = ||y'||^2 + ||c'||^2 - 2 G_c (double from the float values) approximates
 *   D_c = ||y - c||^2 within
 *     E = (d + 8) 2^-23 (||y'||^2 + max_c ||c'||^2):
 *   rounding y - mu and c - mu to float moves D by at most 6u (||y'||^2 + ||c'||^2), the
 *   float dot product errs by at most d u ||y'|| ||c'|| (Higham 2002, 3.1), u = 2^-24;
 *   E takes twice their sum.
 *   A row's float argmin j is certain when every other e_c > e_j + 2E + 2F, with
 *   F = (d + 4) 2^-52 (||y||^2 + max_c ||c||^2) the rounding of plain Lloyd's uncentred
 *   double computation (which can exceed E when the points sit far from the origin):
 *   then j is the exact argmin and also plain Lloyd's. The other rows
 *   are gathered and passed to ckm_nearest_rows: plain Lloyd's own computation, except
 *   that dgemm's value for a row can depend on the rows sharing its call (OpenBLAS 0.3.21
 *   gives a row computed alone other last bits than the same row in a block of 2 or more:
 *   measured), so a row whose two nearest centers tie within dgemm's rounding (duplicate
 *   centers) may take the other of the two than plain Lloyd, as in yinyang.c; the
 *   bounded-vs-plain tests compare whole runs, tests/internal/test_screen.c every row.
 * Per row: e_q = ||c'_q||^2 - 2 G_q, its least and second least value and the argmin in
 * one vectorised scan (row_scan, eight lanes); the centers may come in any order (a
 * caller's grouping: yinyang.c's reset takes them group by group), ties then go to the
 * lowest center index as in index order.
 * float_only (CKM_PRECISION_SINGLE): every row takes its float argmin; the bounds e_j + E
 * and e_c - E stay valid bounds on the true distances, so bounded steps stay consistent.
 * Cost: half the flops' time of dgemm plus O(k) per row; the uncertain rows (near-ties and
 * data whose spread is tiny against its norm) cost a dgemm row each.
 * Memory: s d floats (the float copy) + s doubles + one block of float products.
 */
#include "core.h"
#include "objective.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* float products per BLAS-threaded sgemm call: 8 MB (with 16 MB, which leave the cache
   before the scan reads them, a fit at n = 10^5, d = 128, k = 1000 took 1.22 s, not 1.04 s) */
#define SCREEN_MNK ((size_t)1 << 21)
#define SINGLE_MNK ((size_t)1 << 18) /* OpenBLAS runs a call this small on the caller's thread */
#define GATHER_ROWS ((size_t)4096)   /* uncertain rows recomputed per dgemm batch */

void ckm_screen_free(ckm_screen *sc)
{
    free(sc->Yf);
    free(sc->ynf);
    free(sc->mu);
    free(sc->Cf);
    free(sc->cnf);
    free(sc->gram);
    free(sc->erow);
    free(sc->unsure);
    free(sc->Yg);
    free(sc->yng);
    free(sc->idx);
    memset(sc, 0, sizeof *sc);
}

ckm_error ckm_screen_init(ckm_screen *sc, const double *Y, const double *ynorm, size_t s, size_t d, size_t k,
                          int threads, ckm_err *err)
{
    memset(sc, 0, sizeof *sc);
    sc->s = s;
    sc->d = d;
    sc->k = k;
    sc->Y = Y;
    sc->ynorm = ynorm;
    sc->threads = ckm_thread_count(threads);
    /* as nearest.c: small k d -> our threads each run single-threaded sgemm calls on their
       own blocks (no BLAS threads spinning beside ours); large k d -> one big call per
       block threaded by OpenBLAS, then our threads share its rows' argmin work. The block
       layout depends on k d alone, not on the thread count, so that every row meets the
       same sgemm call shape (and float values) on 1 thread or many. */
    size_t kd = k * d > 0 ? k * d : 1;
    sc->own = SINGLE_MNK / kd >= 16;
    sc->block = sc->own ? SINGLE_MNK / kd : SCREEN_MNK / (k ? k : 1);
    if (sc->block < 16)
        sc->block = 16;
    if (sc->block > s)
        sc->block = s;
    size_t sd, bk;
    bool ok = ckm_mul_ok(s, d, &sd) && ckm_mul_ok(sc->block, k, &bk) &&
              ckm_mul_ok(bk, sc->own ? (size_t)sc->threads : 1, &bk);
    sc->Yf = ok ? ckm_alloc_array(sd, sizeof(float)) : NULL;
    sc->ynf = ckm_alloc_array(s, sizeof(double));
    sc->mu = ckm_calloc_array(d, sizeof(double));
    sc->Cf = ckm_alloc_array(k * d, sizeof(float));
    sc->cnf = ckm_alloc_array(k, sizeof(double));
    sc->gram = ok ? ckm_alloc_array(bk, sizeof(float)) : NULL;
    sc->erow = ckm_alloc_array((size_t)sc->threads * k, sizeof(double));
    sc->unsure = ckm_alloc_array(s, 1);
    sc->Yg = ckm_alloc_array(GATHER_ROWS * d, sizeof(double));
    sc->yng = ckm_alloc_array(GATHER_ROWS, sizeof(double));
    sc->idx = ckm_alloc_array(GATHER_ROWS, sizeof(size_t));
    if (!sc->Yf || !sc->ynf || !sc->mu || !sc->Cf || !sc->cnf || !sc->gram || !sc->erow || !sc->unsure || !sc->Yg ||
        !sc->yng || !sc->idx) {
        ckm_screen_free(sc);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the single-precision copy of the %zu x %zu points", s,
                        d);
    }
    ckm_column_means(Y, s, d, sc->mu);
    for (size_t i = 0; i < s; i++) {
        double n2 = 0.0;
        for (size_t f = 0; f < d; f++) {
            float v = (float)(Y[i * d + f] - sc->mu[f]);
            sc->Yf[i * d + f] = v;
            n2 += (double)v * (double)v;
        }
        sc->ynf[i] = n2;
    }
    return CKM_OK;
}

typedef struct post_job {
    ckm_screen *sc;
    size_t r0;                /* first row of the block (own_blocks: of the range) */
    size_t r1;                /* own_blocks: the range's end */
    const float *gram;        /* its products */
    const size_t *order;      /* position -> center, or NULL (identity) */
    ckm_screen_row_fn certain;
    void *ctx;
} post_job;

/* One float row: e[q] = ||c'_q||^2 - 2 g[q] for the k positions q (the arithmetic of the
 * scalar expression, lane by lane), the least value *best at the lowest position among
 * equals (returned) and the least value at any other position *second (= *best on a tie).
 * Eight lanes each keep their least value m1 (first position on ties, strict <) and
 * second least m2, updated as m2 = min(m2, max(e, m1)), m1 = min(m1, e); the row's second
 * least is m2 of the winning lane or m1 of another (ckm_v4d lanes, objective.h). */

__attribute__((target_clones("avx2", "default"))) static size_t row_scan(const double *cn, const float *g, size_t k,
                                                                          double *e, double *best, double *second)
{
    const ckm_v4d inf = {INFINITY, INFINITY, INFINITY, INFINITY};
    ckm_v4d m1[2] = {inf, inf}, m2[2] = {inf, inf};
    ckm_v4l at[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}}, pos[2] = {{0, 1, 2, 3}, {4, 5, 6, 7}};
    const ckm_v4l eight = {8, 8, 8, 8};
    size_t q = 0;
    for (; q + 8 <= k; q += 8)
        for (int h = 0; h < 2; h++) {
            ckm_v4f gv;
            ckm_v4d cv;
            memcpy(&gv, g + q + 4 * h, sizeof gv);
            memcpy(&cv, cn + q + 4 * h, sizeof cv);
            ckm_v4d ev = cv - 2.0 * __builtin_convertvector(gv, ckm_v4d);
            memcpy(e + q + 4 * h, &ev, sizeof ev);
            ckm_v4l lt = ev < m1[h];
            ckm_v4d hi = CKM_V4D_PICK(lt, m1[h], ev); /* max(e, m1) */
            m2[h] = CKM_V4D_PICK(hi < m2[h], hi, m2[h]);
            m1[h] = CKM_V4D_PICK(lt, ev, m1[h]);
            at[h] = (pos[h] & lt) | (at[h] & ~lt);
            pos[h] += eight;
        }
    double l1[8], l2[8];
    long long li[8];
    memcpy(l1, m1, sizeof l1);
    memcpy(l2, m2, sizeof l2);
    memcpy(li, at, sizeof li);
    for (size_t r = q; r < k; r++) { /* the tail: lane r - q, later positions than its others */
        size_t L = r - q;
        e[r] = cn[r] - 2.0 * (double)g[r];
        if (e[r] < l1[L]) {
            l2[L] = l1[L];
            l1[L] = e[r];
            li[L] = (long long)r;
        } else if (e[r] < l2[L])
            l2[L] = e[r];
    }
    size_t w = 0;
    for (size_t L = 1; L < 8; L++)
        if (l1[L] < l1[w] || (l1[L] == l1[w] && li[L] < li[w]))
            w = L;
    double sec = l2[w];
    for (size_t L = 0; L < 8; L++)
        if (L != w && l1[L] < sec)
            sec = l1[L];
    *best = l1[w];
    *second = sec;
    return (size_t)li[w];
}

/* Rows [r0 + a, r0 + b) of a block: decide or mark unsure. */
static void post_rows(void *arg, size_t a, size_t b, int tid)
{
    post_job *job = arg;
    ckm_screen *sc = job->sc;
    size_t k = sc->k, d = sc->d;
    double *ev = sc->erow + (size_t)tid * k;
    for (size_t r = a; r < b; r++) {
        size_t i = job->r0 + r;
        double best, second;
        size_t bq = row_scan(sc->cnf, job->gram + r * k, k, ev, &best, &second);
        if (second == best && job->order) /* a tie: the lowest center index, as unordered */
            for (size_t q = 0; q < k; q++)
                if (ev[q] == best && job->order[q] < job->order[bq])
                    bq = q;
        double E = (double)(d + 8) * 0x1p-23 * (sc->ynf[i] + sc->cmax);
        double F = (double)(d + 4) * 0x1p-52 * (sc->ynorm[i] + sc->cmax_plain);
        sc->unsure[i] = !sc->float_only && !(second - best > 2.0 * (E + F));
        if (!sc->unsure[i])
            job->certain(job->ctx, i, ev, sc->ynf[i], E, job->order ? job->order[bq] : bq, tid);
    }
}

/* Blocks [b0, b1) on one of our threads, each with its own product buffer. */
static void own_blocks(void *arg, size_t b0, size_t b1, int tid)
{
    post_job *job0 = arg;
    ckm_screen *sc = job0->sc;
    size_t s = job0->r1, d = sc->d, k = sc->k;
    float *gram = sc->gram + (size_t)tid * sc->block * k;
    for (size_t b = b0; b < b1; b++) {
        size_t r0 = job0->r0 + b * sc->block, rows = s - r0 < sc->block ? s - r0 : sc->block;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, 1.0f, sc->Yf + r0 * d,
                    (int)d, sc->Cf, (int)d, 0.0f, gram, (int)k);
        post_job job = {sc, r0, 0, gram, job0->order, job0->certain, job0->ctx};
        post_rows(&job, 0, rows, tid);
    }
}

typedef struct gather_job {
    const size_t *idx;
    ckm_nearest_row_fn exact;
    void *ctx;
} gather_job;

static void gathered_row(void *arg, size_t r, const double *g, size_t j, int tid)
{
    gather_job *gj = arg;
    gj->exact(gj->ctx, gj->idx[r], g, j, tid);
}

size_t ckm_screen_pass(ckm_screen *sc, const double *C, const size_t *order, ckm_nearest_ws *near,
                       ckm_screen_row_fn certain, ckm_nearest_row_fn exact, void *ctx)
{
    return ckm_screen_pass_range(sc, C, order, near, certain, exact, ctx, 0, sc->s);
}

size_t ckm_screen_pass_range(ckm_screen *sc, const double *C, const size_t *order, ckm_nearest_ws *near,
                             ckm_screen_row_fn certain, ckm_nearest_row_fn exact, void *ctx, size_t r_begin,
                             size_t r_end)
{
    size_t d = sc->d, k = sc->k;
    sc->cmax = sc->cmax_plain = 0.0;
    for (size_t q = 0; q < k; q++) {
        const double *c = C + (order ? order[q] : q) * d;
        double n2 = 0.0, p2 = 0.0;
        for (size_t f = 0; f < d; f++) {
            float v = (float)(c[f] - sc->mu[f]);
            sc->Cf[q * d + f] = v;
            n2 += (double)v * (double)v;
            p2 += c[f] * c[f];
        }
        sc->cmax_plain = p2 > sc->cmax_plain ? p2 : sc->cmax_plain;
        sc->cnf[q] = n2;
        sc->cmax = n2 > sc->cmax ? n2 : sc->cmax;
    }
    size_t nblocks = (r_end - r_begin + sc->block - 1) / sc->block;
    if (sc->own) {
        post_job job = {sc, r_begin, r_end, NULL, order, certain, ctx};
        if (sc->threads > 1 && nblocks > 1)
            ckm_parallel_for(sc->threads, nblocks, own_blocks, &job);
        else
            own_blocks(&job, 0, nblocks, 0);
    }
    for (size_t r0 = r_begin; !sc->own && r0 < r_end; r0 += sc->block) {
        size_t rows = r_end - r0 < sc->block ? r_end - r0 : sc->block;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)rows, (int)k, (int)d, 1.0f, sc->Yf + r0 * d,
                    (int)d, sc->Cf, (int)d, 0.0f, sc->gram, (int)k);
        post_job job = {sc, r0, 0, sc->gram, order, certain, ctx};
        if (sc->threads > 1 && rows * k >= 65536)
            ckm_parallel_for(sc->threads, rows, post_rows, &job);
        else
            post_rows(&job, 0, rows, 0);
    }
    /* the uncertain rows, in order, through the plain double computation */
    size_t m = 0, total = 0;
    gather_job gj = {sc->idx, exact, ctx};
    for (size_t i = r_begin; i <= r_end; i++) {
        if (i < r_end && sc->unsure[i]) {
            memcpy(sc->Yg + m * d, sc->Y + i * d, d * sizeof(double));
            sc->yng[m] = sc->ynorm[i];
            sc->idx[m++] = i;
        }
        if (m > 0 && (m == GATHER_ROWS || i == r_end)) {
            ckm_nearest_rows(sc->Yg, sc->yng, m, C, near, NULL, NULL, gathered_row, &gj);
            total += m;
            m = 0;
        }
    }
    sc->unsure_rows = total;
    return total;
}
