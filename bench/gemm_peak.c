/*
 * gemm_peak.c -- the machine's BLAS rates, the yardstick for the k-means distance pass
 * (issue 55): OpenBLAS dgemm and sgemm on square n x n products (2 n^3 flops), with
 * OpenBLAS's own threads (as the environment sets them), and the thin product of a k-means
 * pass (rows x 16 times 16 x 100) in blocks of 163 rows on one thread, the shape
 * src/objective/nearest.c calls. Best of 3 repetitions each. Prints CSV rows:
 *   kernel,shape,gflops
 * usage: gemm_peak [N]   (default 4000)
 */
#include "bench_util.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

static double best_of(double (*run)(void *), void *ctx)
{
    double best = 1e300;
    for (int r = 0; r < 3; r++) {
        double t = run(ctx);
        best = t < best ? t : best;
    }
    return best;
}

typedef struct sq {
    int n;
    double *A, *B, *C;
    float *Af, *Bf, *Cf;
} sq;

static double run_d(void *p)
{
    sq *q = p;
    double t0 = bench_now();
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, q->n, q->n, q->n, 1.0, q->A, q->n, q->B, q->n, 0.0, q->C,
                q->n);
    return bench_now() - t0;
}

static double run_s(void *p)
{
    sq *q = p;
    double t0 = bench_now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, q->n, q->n, q->n, 1.0f, q->Af, q->n, q->Bf, q->n, 0.0f,
                q->Cf, q->n);
    return bench_now() - t0;
}

typedef struct thin {
    size_t rows, block;
    double *Y, *C, *G;
} thin;

static double run_thin(void *p)
{
    thin *q = p;
    double t0 = bench_now();
    for (size_t r = 0; r + q->block <= q->rows; r += q->block)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)q->block, 100, 16, 1.0, q->Y + r * 16, 16, q->C, 16,
                    0.0, q->G, 100);
    return bench_now() - t0;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    size_t nn = (size_t)n * (size_t)n;
    sq q = {n, malloc(nn * sizeof(double)), malloc(nn * sizeof(double)), malloc(nn * sizeof(double)),
            malloc(nn * sizeof(float)), malloc(nn * sizeof(float)), malloc(nn * sizeof(float))};
    thin t = {1000000, 163, malloc(1000000 * 16 * sizeof(double)), malloc(1600 * sizeof(double)),
              malloc(163 * 100 * sizeof(double))};
    if (!q.A || !q.B || !q.C || !q.Af || !q.Bf || !q.Cf || !t.Y || !t.C || !t.G)
        return 1;
    uint64_t st = 20261128;
    for (size_t i = 0; i < nn; i++) {
        q.A[i] = bench_unif(&st);
        q.B[i] = bench_unif(&st);
        q.Af[i] = (float)q.A[i];
        q.Bf[i] = (float)q.B[i];
    }
    for (size_t i = 0; i < t.rows * 16; i++)
        t.Y[i] = bench_unif(&st);
    for (size_t i = 0; i < 1600; i++)
        t.C[i] = bench_unif(&st);
    double flops = 2.0 * (double)n * (double)n * (double)n;
    printf("kernel,shape,gflops\n");
    printf("dgemm,%dx%dx%d,%.1f\n", n, n, n, flops / best_of(run_d, &q) / 1e9);
    printf("sgemm,%dx%dx%d,%.1f\n", n, n, n, flops / best_of(run_s, &q) / 1e9);
    double thin_flops = 2.0 * (double)(t.rows / t.block * t.block) * 100.0 * 16.0;
    printf("dgemm-thin-1-thread,163x100x16 blocks,%.1f\n", thin_flops / best_of(run_thin, &t) / 1e9);
    return 0;
}
