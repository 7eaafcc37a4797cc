/*
 * test_backend.c -- the internal LP/MILP contract (src/backend) on cases with known or
 * brute-forced answers. One of the two internal-contract tests: it includes
 * src/backend/backend.h; every other test uses only the public header.
 */
#include "../check.h"
#include "backend.h"

#include <pthread.h>
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

int main(void)
{
    test_lp();
    test_mip();
    test_threads();
    CHECK(strstr(ckm_bk_versions(), "Cbc") != NULL);
    return ck_report();
}
