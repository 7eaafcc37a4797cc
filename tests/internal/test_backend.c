/*
 * test_backend.c -- the internal LP/MILP contract (src/backend) on cases with known or
 * brute-forced answers, and the one-sided eigensolver (linalg.c): on random symmetric
 * matrices (full rank, and of low rank with a large cluster at 0 like the SDP's first
 * projection), both sides, both paths, the projection sum_{side} |lambda| q q' equals the
 * one built from LAPACK's full dsyevd, and the count equals dsyevd's count on that side up
 * to eigenvalues at rounding level of 0 (the few-wanted path leaves those within 1e-13 of
 * the norm out; the others may count rounding noise either way). The
 * order-2 case caught OpenBLAS 0.3.21's dstemr returning the wrong eigenvalue by index.
 * Internal-contract test: includes src/backend headers.
 */
#include "../check.h"
#include "backend.h"
#include "core.h"
#include "linalg.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

/* Dense column-major matrix -> CSC arrays (rows x cols <= 64). */
typedef struct dense_lp {
    int cs[17], ri[64];
    double v[64];
} dense_lp;

static void to_csc(dense_lp *o, const double *A, int rows, int cols)
{
    int pos = 0;
    for (int c = 0; c < cols; c++) {
        o->cs[c] = pos;
        for (int r = 0; r < rows; r++)
            if (A[r * cols + c] != 0.0) {
                o->ri[pos] = r;
                o->v[pos++] = A[r * cols + c];
            }
    }
    o->cs[cols] = pos;
}

static void test_lp(void)
{
    /* min -x - y  s.t. x + 2y <= 4, 3x + y <= 6, x, y >= 0: optimum (8/5, 6/5), -14/5 */
    double A[4] = {1, 2, 3, 1}, obj[2] = {-1, -1}, clo[2] = {0, 0}, chi[2] = {CKM_BK_INF, CKM_BK_INF};
    double rlo[2] = {-CKM_BK_INF, -CKM_BK_INF}, rhi[2] = {4, 6}, x[2], y[2];
    dense_lp d;
    to_csc(&d, A, 2, 2);
    ckm_lp m = {2, 2, obj, clo, chi, rlo, rhi, d.cs, d.ri, d.v, NULL, NULL, false};
    ckm_bk_result res;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_bk_lp(&m, NULL, x, y, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL);
    CHECK_NEAR(x[0], 1.6, 1e-9);
    CHECK_NEAR(x[1], 1.2, 1e-9);
    CHECK_NEAR(res.objective, -2.8, 1e-9);
    /* duals by hand: both rows tight, A'y = c: y1 + 3 y2 = -1, 2 y1 + y2 = -1, so
     * y = (-2/5, -1/5) (<= 0 at upper bounds; the pricing of route_restricted.c relies on the sign) */
    CHECK_NEAR(y[0], -0.4, 1e-9);
    CHECK_NEAR(y[1], -0.2, 1e-9);
    /* infeasible: x + y >= 7 on top */
    double A2[6] = {1, 2, 3, 1, 1, 1}, rlo2[3] = {-CKM_BK_INF, -CKM_BK_INF, 7}, rhi2[3] = {4, 6, CKM_BK_INF};
    to_csc(&d, A2, 3, 2);
    ckm_lp m2 = {2, 3, obj, clo, chi, rlo2, rhi2, d.cs, d.ri, d.v, NULL, NULL, false};
    CHECK(ckm_bk_lp(&m2, NULL, x, NULL, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_INFEASIBLE);
    CHECK(ckm_bk_mip(&m2, NULL, NULL, x, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_INFEASIBLE);
}

/* Random 0/1 programs: max value subject to 3 knapsack rows, vs enumeration of 2^8. */
static double unif(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

typedef struct knap {
    double A[24], obj[8], clo[8], chi[8], rlo[3], rhi[3];
    dense_lp d;
    ckm_lp m;
    double best;
} knap;

static void make_knap(knap *q, uint64_t *st)
{
    for (int c = 0; c < 8; c++) {
        q->obj[c] = -(double)(1 + (int)(unif(st) * 9)); /* minimise the negative value */
        q->clo[c] = 0;
        q->chi[c] = 1;
    }
    for (int i = 0; i < 24; i++)
        q->A[i] = (double)(int)(unif(st) * 6);
    for (int r = 0; r < 3; r++) {
        q->rlo[r] = -CKM_BK_INF;
        q->rhi[r] = (double)(5 + (int)(unif(st) * 8));
    }
    to_csc(&q->d, q->A, 3, 8);
    ckm_lp m = {8, 3, q->obj, q->clo, q->chi, q->rlo, q->rhi, q->d.cs, q->d.ri, q->d.v, NULL, NULL, false};
    q->m = m;
    q->best = INFINITY;
    for (int mask = 0; mask < 256; mask++) {
        int ok = 1;
        for (int r = 0; r < 3 && ok; r++) {
            double a = 0;
            for (int c = 0; c < 8; c++)
                a += ((mask >> c) & 1) * q->A[r * 8 + c];
            ok = a <= q->rhi[r];
        }
        double v = 0;
        for (int c = 0; c < 8; c++)
            v += ((mask >> c) & 1) * q->obj[c];
        if (ok && v < q->best)
            q->best = v;
    }
}

static void test_mip(void)
{
    ckm_err err = {CKM_OK, ""};
    uint64_t st = 42;
    for (int t = 0; t < 20; t++) {
        knap q;
        make_knap(&q, &st);
        double x[8], zero[8] = {0};
        ckm_bk_result res;
        /* the all-zero point is feasible: use it as MIP start on odd cases */
        CHECK(ckm_bk_mip(&q.m, NULL, t % 2 ? zero : NULL, x, &res, &err) == CKM_OK);
        CHECK(res.status == CKM_BK_OPTIMAL);
        CHECK_NEAR(res.objective, q.best, 1e-9);
        double v = 0;
        for (int c = 0; c < 8; c++) {
            CHECK(fabs(x[c] - round(x[c])) < 1e-6);
            v += x[c] * q.obj[c];
        }
        CHECK_NEAR(v, q.best, 1e-6);
    }
    /* LP feasible, integer infeasible: 2a = 1, a binary */
    double one = 2, obj = 1, lo = 0, hi = 1, rl = 1, rh = 1, x;
    int cs[2] = {0, 1}, ri[1] = {0};
    ckm_lp m = {1, 1, &obj, &lo, &hi, &rl, &rh, cs, ri, &one, NULL, NULL, false};
    ckm_bk_result res;
    CHECK(ckm_bk_lp(&m, NULL, &x, NULL, &res, &err) == CKM_OK && res.status == CKM_BK_OPTIMAL);
    CHECK(ckm_bk_mip(&m, NULL, NULL, &x, &res, &err) == CKM_OK && res.status == CKM_BK_INFEASIBLE);
}


/* ---- stops inside a solve (coin_stop.hpp) ---- */

typedef struct poll_stop {
    int polls, yes_from; /* answer yes from the yes_from-th poll on */
} poll_stop;

static int stop_on_poll(void *user)
{
    poll_stop *p = user;
    return ++p->polls >= p->yes_from;
}

/* A market-split MILP (Cornuejols & Dawande 1998): 4 equality rows sum_j a_ij x_j = floor(sum_j
 * a_ij / 2), a_ij in [0, 99], 30 binaries: tiny, and hard for branch-and-bound (no cut or
 * heuristic ends it; CBC runs for minutes). A stop on the 3rd poll must end it: status LIMIT_*,
 * stopped, and the stop function polled exactly until it said yes. Without the mechanism this
 * test hangs (ctest's timeout). */
static void test_mip_stop(void)
{
    enum { M = 4, N = 30 };
    static int cs[N + 1], ri[M * N];
    static double v[M * N], obj[N], lo[N], hi[N], rlo[M], rhi[M], x[N];
    uint64_t st = 11;
    double sum[M] = {0};
    for (int j = 0; j < N; j++) {
        cs[j] = M * j;
        obj[j] = 0.0;
        lo[j] = 0.0;
        hi[j] = 1.0;
        for (int i = 0; i < M; i++) {
            ri[M * j + i] = i;
            v[M * j + i] = (double)(int)(unif(&st) * 100.0);
            sum[i] += v[M * j + i];
        }
    }
    cs[N] = M * N;
    for (int i = 0; i < M; i++)
        rlo[i] = rhi[i] = floor(sum[i] / 2.0);
    ckm_lp m = {N, M, obj, lo, hi, rlo, rhi, cs, ri, v, NULL, NULL, false};
    ckm_err err = {CKM_OK, ""};
    for (int yes_from = 1; yes_from <= 3; yes_from += 2) {
        poll_stop ps = {0, yes_from};
        ckm_bk_limits lim = {INFINITY, stop_on_poll, &ps};
        ckm_bk_result res;
        CHECK(ckm_bk_mip(&m, &lim, NULL, x, &res, &err) == CKM_OK);
        CHECK(res.stopped == 1 && ps.polls == yes_from);
        CHECK(res.status == CKM_BK_LIMIT_NONE || res.status == CKM_BK_LIMIT_FEASIBLE);
        printf("market split, stop on poll %d: %s after %.3f s, %ld nodes\n", yes_from,
               res.status == CKM_BK_LIMIT_NONE ? "no point" : "a point", res.seconds, res.nodes);
    }
    /* the deadline alone ends it too (not the stop request: stopped = 0) */
    ckm_bk_limits lim = {ckm_now() + 0.2, NULL, NULL};
    ckm_bk_result res;
    CHECK(ckm_bk_mip(&m, &lim, NULL, x, &res, &err) == CKM_OK);
    CHECK(res.stopped == 0 && (res.status == CKM_BK_LIMIT_NONE || res.status == CKM_BK_LIMIT_FEASIBLE));
}

/* An LP cut short: once the stop function has said yes, the simplex ends with LIMIT_NONE and
 * stopped = 1 instead of finishing (the transportation LP usually outlasts the 5 ms between
 * polls; when it does not, it must be optimal and the function never said yes). */
/* A transportation LP of 200 x 100 arcs (20,000 columns) with random costs, supplies 1 and
 * demands 2: its vertices are integral, so as a MILP it is one initial LP solve and a root */
typedef struct transport_lp {
    int *cs, *ri;
    double *v, *obj, *lo, *hi, rlo[300], rhi[300];
    ckm_lp m;
} transport_lp;

static void transport_make(transport_lp *t, uint64_t seed)
{
    enum { S = 200, K = 100 };
    size_t cols = (size_t)S * K;
    t->cs = malloc((cols + 1) * sizeof(int));
    t->ri = malloc(2 * cols * sizeof(int));
    t->v = malloc(2 * cols * sizeof(double));
    t->obj = malloc(cols * sizeof(double));
    t->lo = malloc(cols * sizeof(double));
    t->hi = malloc(cols * sizeof(double));
    uint64_t st = seed;
    for (size_t q = 0; q < cols; q++) {
        t->cs[q] = (int)(2 * q);
        t->ri[2 * q] = (int)(q / K);
        t->ri[2 * q + 1] = (int)(S + q % K);
        t->v[2 * q] = t->v[2 * q + 1] = 1.0;
        t->obj[q] = unif(&st);
        t->lo[q] = 0.0;
        t->hi[q] = 1.0;
    }
    t->cs[cols] = (int)(2 * cols);
    for (int i = 0; i < S + K; i++)
        t->rlo[i] = t->rhi[i] = i < S ? 1.0 : 2.0;
    ckm_lp m = {(int)cols, S + K, t->obj, t->lo, t->hi, t->rlo, t->rhi, t->cs, t->ri, t->v, NULL, NULL, false};
    t->m = m;
}

static void transport_free(transport_lp *t)
{
    free(t->cs), free(t->ri), free(t->v), free(t->obj), free(t->lo), free(t->hi);
}

static void test_lp_stop(void)
{
    transport_lp t;
    transport_make(&t, 5);
    size_t cols = (size_t)t.m.ncols;
    double *x = malloc(cols * sizeof(double));
    ckm_lp m = t.m;
    ckm_err err = {CKM_OK, ""};
    poll_stop ps = {0, 2};
    ckm_bk_limits lim = {INFINITY, stop_on_poll, &ps};
    ckm_bk_result res;
    CHECK(ckm_bk_lp(&m, &lim, x, NULL, &res, &err) == CKM_OK);
    if (ps.polls >= ps.yes_from)
        CHECK(res.status == CKM_BK_LIMIT_NONE && res.stopped == 1);
    else
        CHECK(res.status == CKM_BK_OPTIMAL && res.stopped == 0);
    printf("LP of %zu columns, stop on poll 2: %s after %.3f s\n", cols,
           res.status == CKM_BK_LIMIT_NONE ? "stopped" : "finished first", res.seconds);
    /* a stop answered before the start: nothing is solved */
    poll_stop now = {0, 1};
    lim.stop_user = &now;
    CHECK(ckm_bk_lp(&m, &lim, x, NULL, &res, &err) == CKM_OK && res.status == CKM_BK_LIMIT_NONE && res.stopped == 1);
    free(x);
    transport_free(&t);
}

/* Rows of transport_lp's x: every supply row sums to 1 and demand row to 2 (within 1e-7),
 * 0 <= x <= 1 within 1e-5 (CLP's tolerances after its perturbation; route_full.c reads labels
 * at 1e-6 and 0.5) */
static int transport_feasible(const transport_lp *t, const double *x)
{
    enum { S = 200, K = 100 };
    double row[S + K] = {0};
    for (size_t q = 0; q < (size_t)S * K; q++) {
        if (x[q] < -1e-5 || x[q] > 1.0 + 1e-5) /* the primal simplex's bound tolerance */
            return 0;
        row[q / K] += x[q];
        row[S + q % K] += x[q];
    }
    for (int i = 0; i < S + K; i++)
        if (fabs(row[i] - t->rlo[i]) > 1e-7)
            return 0;
    return 1;
}

/* A primal start (ckm_lp.primal): the optimal basis of one cost draw, handed in with the next
 * draw's costs (the same rows and bounds, so the basis stays primal feasible), reaches a
 * feasible point whose objective is the cold solve's within CLP's tolerances, for six draws;
 * the basis handed back each time starts the next. */
static void test_lp_primal_start(void)
{
    transport_lp t;
    transport_make(&t, 11);
    size_t cols = (size_t)t.m.ncols, rows = (size_t)t.m.nrows;
    double *xp = malloc(cols * sizeof(double)), *xc = malloc(cols * sizeof(double));
    unsigned char *basis = malloc(cols + rows), *out = malloc(cols + rows);
    ckm_lp first = t.m, warm = t.m, cold = t.m;
    first.basis_out = out;
    warm.basis = basis;
    warm.basis_out = out;
    warm.primal = true;
    ckm_err err = {CKM_OK, ""};
    ckm_bk_result rp, rc;
    CHECK(ckm_bk_lp(&first, NULL, xp, NULL, &rp, &err) == CKM_OK && rp.status == CKM_BK_OPTIMAL);
    uint64_t st = 91;
    for (int round = 0; round < 6; round++) {
        memcpy(basis, out, cols + rows);
        for (size_t q = 0; q < cols; q++)
            t.obj[q] = unif(&st);
        CHECK(ckm_bk_lp(&warm, NULL, xp, NULL, &rp, &err) == CKM_OK && rp.status == CKM_BK_OPTIMAL);
        CHECK(ckm_bk_lp(&cold, NULL, xc, NULL, &rc, &err) == CKM_OK && rc.status == CKM_BK_OPTIMAL);
        CHECK(transport_feasible(&t, xp));
        CHECK(fabs(rp.objective - rc.objective) <= 1e-5 * fabs(rc.objective));
    }
    free(xp), free(xc), free(basis), free(out);
    transport_free(&t);
}

/* A caller's starting basis (ckm_lp.basis): for the transportation LP, every supply row's
 * cheapest column basic, the supply rows nonbasic, the demand rows' slacks basic -- dual
 * feasible for any costs. From it the dual simplex reaches a feasible point whose objective
 * is the slack-basis solve's within CLP's tolerances (with 20,000 random costs, vertices
 * 10^-6 apart are both "optimal" to CLP), for six cost draws. */
static void test_lp_basis(void)
{
    enum { S = 200, K = 100 };
    transport_lp t;
    transport_make(&t, 9);
    size_t cols = (size_t)t.m.ncols, rows = (size_t)t.m.nrows;
    double *xb = malloc(cols * sizeof(double)), *xc = malloc(cols * sizeof(double));
    unsigned char *basis = malloc(cols + rows);
    ckm_lp from = t.m, cold = t.m;
    from.basis = basis;
    ckm_err err = {CKM_OK, ""};
    ckm_bk_result rb, rc;
    uint64_t st = 77;
    for (int round = 0; round < 6; round++) {
        for (size_t q = 0; q < cols; q++)
            t.obj[q] = unif(&st);
        memset(basis, CKM_LP_AT_LOWER, cols);
        for (size_t i = 0; i < S; i++) {
            size_t best = 0;
            for (size_t j = 1; j < K; j++)
                best = t.obj[i * K + j] < t.obj[i * K + best] ? j : best;
            basis[i * K + best] = CKM_LP_BASIC;
        }
        for (size_t r = 0; r < rows; r++)
            basis[cols + r] = r < S ? CKM_LP_AT_LOWER : CKM_LP_BASIC;
        CHECK(ckm_bk_lp(&from, NULL, xb, NULL, &rb, &err) == CKM_OK && rb.status == CKM_BK_OPTIMAL);
        CHECK(ckm_bk_lp(&cold, NULL, xc, NULL, &rc, &err) == CKM_OK && rc.status == CKM_BK_OPTIMAL);
        CHECK(transport_feasible(&t, xb));
        double f = 0.0;
        for (size_t q = 0; q < cols; q++)
            f += t.obj[q] * xb[q];
        CHECK(fabs(f - rb.objective) <= 1e-9 * fabs(f));
        CHECK(fabs(rb.objective - rc.objective) <= 1e-5 * fabs(rc.objective));
    }
    free(xb), free(xc), free(basis);
    transport_free(&t);
}

/* No signal disposition changes while CLP / CBC solve (ClpSimplex::initialSolve installs a
 * SIGINT handler of its own unless told not to): a watcher thread reads SIGINT's handler in a
 * loop during 10 MILP solves of 20,000 columns, each an initial LP solve of several ms. */
static void own_sigint(int sig) { (void)sig; }

typedef struct sig_watch {
    volatile int stop;
    int reads, changed;
} sig_watch;

static void *watch_sigint(void *arg)
{
    sig_watch *w = arg;
    while (!__atomic_load_n(&w->stop, __ATOMIC_SEQ_CST)) {
        struct sigaction now;
        sigaction(SIGINT, NULL, &now);
        w->reads++;
        w->changed += now.sa_handler != own_sigint;
    }
    return NULL;
}

static void test_no_signal_handler(void)
{
    struct sigaction mine, before;
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = own_sigint;
    sigaction(SIGINT, &mine, &before);
    sig_watch w = {0, 0, 0};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, watch_sigint, &w) == 0);
    ckm_err err = {CKM_OK, ""};
    for (int t = 0; t < 10; t++) {
        transport_lp tr;
        transport_make(&tr, 100 + (uint64_t)t);
        double *x = malloc((size_t)tr.m.ncols * sizeof(double));
        ckm_bk_result res;
        CHECK(ckm_bk_mip(&tr.m, NULL, NULL, x, &res, &err) == CKM_OK && res.status == CKM_BK_OPTIMAL);
        free(x);
        transport_free(&tr);
    }
    __atomic_store_n(&w.stop, 1, __ATOMIC_SEQ_CST);
    pthread_join(th, NULL);
    CHECK(w.reads > 0 && w.changed == 0);
    sigaction(SIGINT, &before, NULL);
    printf("SIGINT's handler read %d times during 10 MILP solves: changed %d times\n", w.reads, w.changed);
}

/* Two threads solving at once must both get right answers: no lock, nothing shared. */
typedef struct job {
    uint64_t st;
    int wrong;
} job;

static void *worker(void *arg)
{
    job *jb = arg;
    int *wrong = &jb->wrong;
    ckm_err err = {CKM_OK, ""};
    for (int t = 0; t < 10; t++) {
        knap q;
        make_knap(&q, &jb->st);
        double x[8];
        ckm_bk_result res;
        if (ckm_bk_mip(&q.m, NULL, NULL, x, &res, &err) != CKM_OK || res.status != CKM_BK_OPTIMAL ||
            fabs(res.objective - q.best) > 1e-9)
            (*wrong)++;
    }
    return NULL;
}

static void test_threads(void)
{
    job jobs[2] = {{7, 0}, {8, 0}};
    pthread_t a, b;
    CHECK(pthread_create(&a, NULL, worker, &jobs[0]) == 0);
    CHECK(pthread_create(&b, NULL, worker, &jobs[1]) == 0);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    CHECK(jobs[0].wrong == 0 && jobs[1].wrong == 0);
}

static uint64_t eig_state = 99;

/* A (n x n) random symmetric: full rank, or rank r with r/2 negative eigenvalues (the rest 0) */
static void random_sym(double *A, size_t n, size_t r)
{
    if (r == 0) {
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j <= i; j++)
                A[i * n + j] = A[j * n + i] = ck_unif(&eig_state) - 0.5;
        return;
    }
    memset(A, 0, n * n * sizeof(double));
    for (size_t c = 0; c < r; c++) {
        double u[200], sign = c % 2 ? 1.0 : -1.0;
        for (size_t i = 0; i < n; i++)
            u[i] = ck_unif(&eig_state) - 0.5;
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++)
                A[i * n + j] += sign * u[i] * u[j];
    }
}

static void test_eig_side(void)
{
    size_t sizes[] = {1, 2, 5, 40, 120}, cases = 0, halves = 0;
    double worst = 0.0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (size_t rank = 0; rank <= 6; rank += 6)
            for (int negative = 0; negative <= 1; negative++)
                for (int few = 0; few <= 2; few++) { /* 2: few, in two halves on two threads */
                    size_t n = sizes[si], nn = n * n;
                    double *A = malloc(nn * sizeof(double)), *B = malloc(nn * sizeof(double));
                    double *Z = malloc(nn * sizeof(double)), *R = malloc(nn * sizeof(double));
                    double *P = calloc(nn, sizeof(double)), *w = malloc(n * sizeof(double)), *wr = malloc(n * sizeof(double));
                    double *scratch = few == 2 ? malloc(nn * sizeof(double)) : NULL;
                    void *work = malloc(ckm_eig_work_bytes(n));
                    random_sym(A, n, rank < n ? rank : 0);
                    memcpy(B, A, nn * sizeof(double));
                    memcpy(R, A, nn * sizeof(double));
                    size_t first = 0, count = 0;
                    int side = negative;
                    int how = ckm_eig_sym_side(n, B, &side, few != 0, w, Z, &first, &count, work, scratch, NULL, NULL);
                    CHECK(how == (few && n > 2 ? 1 : 0));
                    halves += few == 2 && count >= 16;
                    CHECK(ckm_eig_sym(n, R, wr, 1) == 0);
                    double norm = 0.0;
                    for (size_t q = 0; q < nn; q++)
                        norm += A[q] * A[q];
                    norm = sqrt(norm);
                    /* the reference projection and count from dsyevd (columns of R) */
                    size_t near = 0, sure = 0; /* at rounding level of 0 / clearly on the side */
                    for (size_t c = 0; c < n; c++) {
                        bool on = negative ? wr[c] < 0.0 : wr[c] > 0.0;
                        near += fabs(wr[c]) <= 1e-10 * (norm + 1.0);
                        sure += on && fabs(wr[c]) > 1e-10 * (norm + 1.0);
                        if (on)
                            for (size_t i = 0; i < n; i++)
                                for (size_t j = 0; j < n; j++)
                                    P[i * n + j] += fabs(wr[c]) * R[i * n + c] * R[j * n + c];
                    }
                    CHECK(count >= sure && count <= sure + near);
                    double err = 0.0;
                    for (size_t i = 0; i < n; i++)
                        for (size_t j = 0; j < n; j++) {
                            double v = 0.0;
                            for (size_t c = first; c < first + count; c++)
                                v += fabs(w[c]) * Z[c * n + i] * Z[c * n + j];
                            err = fmax(err, fabs(v - P[i * n + j]));
                        }
                    CHECK(err <= 1e-11 * (1.0 + norm));
                    worst = fmax(worst, err / (1.0 + norm));
                    cases++;
                    free(A), free(B), free(Z), free(R), free(P), free(w), free(wr), free(work), free(scratch);
                }
    CHECK(halves >= 4); /* the two-thread split ran (n = 40 and 120, full rank) */
    printf("eig side: %zu cases (%zu in two halves), projection within %.1e (relative) of dsyevd's\n", cases, halves,
           worst);
}

/* A cluster across the two halves' border: A = Q diag(lambda) Q' with lambda = -1 forty times
 * (so the border, at 20, splits equal eigenvalues) and +1 twenty times. The split must not
 * be kept (dstedc instead, return 0), and the projection onto the negative side is Q_- Q_-'. */
static void test_eig_side_cluster(void)
{
    size_t n = 60, nn = n * n, neg = 40;
    double *Q = malloc(nn * sizeof(double)), *A = malloc(nn * sizeof(double)), *w = malloc(n * sizeof(double));
    double *Z = malloc(nn * sizeof(double)), *scratch = malloc(nn * sizeof(double));
    void *work = malloc(ckm_eig_work_bytes(n));
    random_sym(Q, n, 0);
    CHECK(ckm_eig_sym(n, Q, w, 1) == 0); /* columns of Q: an orthonormal basis */
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0.0;
            for (size_t c = 0; c < n; c++)
                v += (c < neg ? -1.0 : 1.0) * Q[i * n + c] * Q[j * n + c];
            A[i * n + j] = v;
        }
    for (size_t i = 0; i < n; i++) /* exact symmetry */
        for (size_t j = 0; j < i; j++)
            A[j * n + i] = A[i * n + j];
    size_t first = 0, count = 0;
    int side = 1;
    int how = ckm_eig_sym_side(n, A, &side, 1, w, Z, &first, &count, work, scratch, NULL, NULL);
    CHECK(how == 0);
    CHECK(first == 0 && count == neg);
    double err = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0.0, ref = 0.0;
            for (size_t c = 0; c < count; c++)
                v += fabs(w[c]) * Z[c * n + i] * Z[c * n + j];
            for (size_t c = 0; c < neg; c++)
                ref += Q[i * n + c] * Q[j * n + c];
            err = fmax(err, fabs(v - ref));
        }
    CHECK(err <= 1e-12);
    free(Q), free(A), free(w), free(Z), free(scratch), free(work);
}


/* The blocked, stoppable SPD inverse (order >= CKM_SPD_BLOCKED_MIN) against the definition:
 * A A^{-1} = I for a random SPD matrix of order 700 (not a multiple of the 96-column panel),
 * both triangles equal; a non-SPD matrix is refused with a positive info; a stop on the 3rd
 * poll returns -3. */
static int stop_third(void *user) { return ++*(int *)user >= 3; }

static void test_spd_blocked(void)
{
    size_t n = 700, nn = n * n;
    double *G = malloc(nn * sizeof(double)), *A = malloc(nn * sizeof(double)), *Ai = malloc(nn * sizeof(double));
    for (size_t q = 0; q < nn; q++)
        G[q] = ck_unif(&eig_state) - 0.5;
    for (size_t i = 0; i < n; i++) /* A = G G' / n + I: SPD, condition near 5 */
        for (size_t j = 0; j <= i; j++) {
            double v = 0.0;
            for (size_t c = 0; c < n; c++)
                v += G[i * n + c] * G[j * n + c];
            A[i * n + j] = A[j * n + i] = v / (double)n + (i == j ? 1.0 : 0.0);
        }
    memcpy(Ai, A, nn * sizeof(double));
    CHECK(ckm_spd_inverse(n, Ai) == 0);
    double worst = 0.0, asym = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            double v = 0.0;
            for (size_t c = 0; c < n; c++)
                v += A[i * n + c] * Ai[c * n + j];
            worst = fmax(worst, fabs(v - (i == j ? 1.0 : 0.0)));
            asym = fmax(asym, fabs(Ai[i * n + j] - Ai[j * n + i]));
        }
    CHECK(worst <= 1e-12 && asym == 0.0);
    printf("blocked SPD inverse, n = %zu: |A A^-1 - I| <= %.1e\n", n, worst);
    memcpy(Ai, A, nn * sizeof(double));
    int polls = 0;
    CHECK(ckm_spd_inverse_poll(n, Ai, stop_third, &polls) == -3 && polls == 3);
    memcpy(Ai, A, nn * sizeof(double));
    Ai[(n - 1) * n + (n - 1)] = -1.0; /* not positive definite in the last panel */
    CHECK(ckm_spd_inverse(n, Ai) > 0);
    free(G), free(A), free(Ai);
}

/* The stoppable eigensolver paths (n >= CKM_EIG_STOPPABLE_MIN): with a stop function that
 * never fires, ckm_eig_sym_side returns the same eigenpairs up to rounding (the reduction is
 * dsytrd's to the bit; MRRR and dormtr in pieces round differently) and the same projection;
 * asked for the larger side it returns the smaller; a stop on the 4th poll returns -3; the
 * values-only and the top-k solvers agree with dsyevd. */
static int never(void *user) { return ++*(int *)user < 0; }
static int stop_fourth(void *user) { return ++*(int *)user >= 4; }

static void test_eig_stoppable(void)
{
    size_t n = 600, nn = n * n, k = 7;
    double *A = malloc(nn * sizeof(double)), *B = malloc(nn * sizeof(double)), *R = malloc(nn * sizeof(double));
    double *Z1 = malloc(nn * sizeof(double)), *Z2 = malloc(nn * sizeof(double)), *S = malloc(nn * sizeof(double));
    double *w1 = malloc(n * sizeof(double)), *w2 = malloc(n * sizeof(double)), *wr = malloc(n * sizeof(double));
    void *work = malloc(ckm_eig_work_bytes(n));
    random_sym(A, n, 0);
    for (size_t i = 0; i < n; i++) /* spectrum about [-7, 21]: a fifth negative */
        A[i * n + i] += 7.0;
    int polls = 0;
    for (int few = 0; few <= 1; few++)
        for (int halves = 0; halves <= 1; halves++) {
            size_t f1 = 0, c1 = 0, f2 = 0, c2 = 0;
            memcpy(B, A, nn * sizeof(double));
            int s1 = 1, s2 = 1; /* the negative side, the smaller: no flip */
            int h1 = ckm_eig_sym_side(n, B, &s1, few, w1, Z1, &f1, &c1, work, halves ? S : NULL, NULL, NULL);
            memcpy(B, A, nn * sizeof(double));
            int h2 = ckm_eig_sym_side(n, B, &s2, few, w2, Z2, &f2, &c2, work, halves ? S : NULL, never, &polls);
            CHECK(h1 == h2 && h1 >= 0 && f1 == f2 && c1 == c2 && c1 > 0 && s1 == s2);
            double werr = 0.0, perr = 0.0; /* eigenvalues, and the projection sum |w| z z' */
            for (size_t c3 = 0; c3 < c1; c3++)
                werr = fmax(werr, fabs(w1[f1 + c3] - w2[f2 + c3]));
            for (size_t i = 0; i < n; i += 7) /* every 7th row: enough to see a wrong vector */
                for (size_t j = 0; j < n; j++) {
                    double v1 = 0.0, v2 = 0.0;
                    for (size_t c3 = 0; c3 < c1; c3++) {
                        v1 += fabs(w1[f1 + c3]) * Z1[(f1 + c3) * n + i] * Z1[(f1 + c3) * n + j];
                        v2 += fabs(w2[f2 + c3]) * Z2[(f2 + c3) * n + i] * Z2[(f2 + c3) * n + j];
                    }
                    perr = fmax(perr, fabs(v1 - v2));
                }
            CHECK(werr <= 1e-12 && perr <= 1e-11);
        }
    CHECK(polls > 4);
    /* asked for the larger (positive) side with polls: the negative one comes back */
    size_t fp = 0, cp = 0, fn = 0, cn = 0;
    int sp = 0, sn = 1;
    memcpy(B, A, nn * sizeof(double));
    CHECK(ckm_eig_sym_side(n, B, &sp, 1, w1, Z1, &fp, &cp, work, NULL, never, &polls) == 1 && sp == 1);
    memcpy(B, A, nn * sizeof(double));
    CHECK(ckm_eig_sym_side(n, B, &sn, 1, w2, Z2, &fn, &cn, work, NULL, NULL, NULL) == 1 && sn == 1);
    CHECK(cp == cn && cp > 0 && cp < n / 2);
    int p4 = 0;
    size_t f = 0, c = 0;
    memcpy(B, A, nn * sizeof(double));
    int s4 = 1;
    CHECK(ckm_eig_sym_side(n, B, &s4, 1, w1, Z1, &f, &c, work, NULL, stop_fourth, &p4) == -3 && p4 == 4);
    memcpy(R, A, nn * sizeof(double));
    CHECK(ckm_eig_sym(n, R, wr, 1) == 0); /* the reference: every pair, columns of R */
    memcpy(B, A, nn * sizeof(double));
    CHECK(ckm_eig_values_poll(n, B, w1, work, never, &polls) == 0);
    double werr = 0.0, scale = fmax(fabs(wr[0]), fabs(wr[n - 1]));
    for (size_t i = 0; i < n; i++)
        werr = fmax(werr, fabs(w1[i] - wr[i]));
    CHECK(werr <= 1e-12 * scale);
    memcpy(B, A, nn * sizeof(double));
    CHECK(ckm_eig_sym_top(n, B, k, w2, Z2, work, never, &polls) == 0);
    double verr = 0.0;
    for (size_t c2 = 0; c2 < k; c2++) {
        CHECK(fabs(w2[c2] - wr[n - k + c2]) <= 1e-12 * scale);
        double dot = 0.0; /* the same vector up to sign */
        for (size_t i = 0; i < n; i++)
            dot += Z2[c2 * n + i] * R[i * n + (n - k + c2)];
        verr = fmax(verr, fabs(fabs(dot) - 1.0));
    }
    CHECK(verr <= 1e-9);
    p4 = 0;
    memcpy(B, A, nn * sizeof(double));
    CHECK(ckm_eig_values_poll(n, B, w1, work, stop_fourth, &p4) == -3);
    printf("stoppable eigensolver, n = %zu: the same projections with polls, stops on the 4th poll; values within %.1e, "
           "top-%zu vectors within %.1e of dsyevd\n", n, werr / scale, k, verr);
    free(A), free(B), free(R), free(Z1), free(Z2), free(S), free(w1), free(w2), free(wr), free(work);
}

int main(void)
{
    test_spd_blocked();
    test_eig_stoppable();
    test_eig_side();
    test_eig_side_cluster();
    test_lp();
    test_mip();
    test_threads();
    test_no_signal_handler();
    test_lp_stop();
    test_lp_basis();
    test_lp_primal_start();
    test_mip_stop();
    CHECK(strstr(ckm_bk_versions(), "Cbc") != NULL);
    return ck_report();
}
