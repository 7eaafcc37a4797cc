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
#include "linalg.h"

#include <math.h>
#include <pthread.h>
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
    double rlo[2] = {-CKM_BK_INF, -CKM_BK_INF}, rhi[2] = {4, 6}, x[2];
    dense_lp d;
    to_csc(&d, A, 2, 2);
    ckm_lp m = {2, 2, obj, clo, chi, rlo, rhi, d.cs, d.ri, d.v};
    ckm_bk_result res;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_bk_lp(&m, 0.0, x, &res, &err) == CKM_OK);
    CHECK(res.status == CKM_BK_OPTIMAL);
    CHECK_NEAR(x[0], 1.6, 1e-9);
    CHECK_NEAR(x[1], 1.2, 1e-9);
    CHECK_NEAR(res.objective, -2.8, 1e-9);
    /* infeasible: x + y >= 7 on top */
    double A2[6] = {1, 2, 3, 1, 1, 1}, rlo2[3] = {-CKM_BK_INF, -CKM_BK_INF, 7}, rhi2[3] = {4, 6, CKM_BK_INF};
    to_csc(&d, A2, 3, 2);
    ckm_lp m2 = {2, 3, obj, clo, chi, rlo2, rhi2, d.cs, d.ri, d.v};
    CHECK(ckm_bk_lp(&m2, 0.0, x, &res, &err) == CKM_OK);
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
    ckm_lp m = {8, 3, q->obj, q->clo, q->chi, q->rlo, q->rhi, q->d.cs, q->d.ri, q->d.v};
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
    ckm_lp m = {1, 1, &obj, &lo, &hi, &rl, &rh, cs, ri, &one};
    ckm_bk_result res;
    CHECK(ckm_bk_lp(&m, 0.0, &x, &res, &err) == CKM_OK && res.status == CKM_BK_OPTIMAL);
    CHECK(ckm_bk_mip(&m, NULL, NULL, &x, &res, &err) == CKM_OK && res.status == CKM_BK_INFEASIBLE);
}

/* Two threads solving at once must both get right answers (the CBC mutex). */
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
                    int how = ckm_eig_sym_side(n, B, negative, few != 0, w, Z, &first, &count, work, scratch);
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
    int how = ckm_eig_sym_side(n, A, 1, 1, w, Z, &first, &count, work, scratch);
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

int main(void)
{
    test_eig_side();
    test_eig_side_cluster();
    test_lp();
    test_mip();
    test_threads();
    CHECK(strstr(ckm_bk_versions(), "Cbc") != NULL);
    return ck_report();
}
