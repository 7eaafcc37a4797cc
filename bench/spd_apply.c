/*
 * spd_apply.c -- the microbenchmark behind the SDP's choice of applying a fixed SPD inverse
 * (src/backend/linalg.c ckm_spd_inverse, src/sdp/sdp_cutsys.c precondition): x = A^{-1} x by
 * the Cholesky factor's two dtrsv, by one dsymv on the explicit inverse (plus the copy it
 * needs), and by a plain C loop on the inverse, for the preconditioner's block sizes and the
 * AA* orders of accent (m = 331) and ECG5000 ml_0_cl_150 (m = 651). BLAS/LAPACK only (no ckm
 * API: this measures the kernels ckm calls). A = random symmetric + n I (well conditioned).
 * Best of 3 rounds, microseconds per apply. Run with OPENBLAS_NUM_THREADS=1.
 * usage: spd_apply   (prints a markdown table)
 */
#include <cblas.h>
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void)
{
    const int sizes[] = {4, 8, 16, 32, 64, 128, 256, 331, 651};
    printf("| n | two dtrsv (factor) us | dsymv (inverse) us | plain loop (inverse) us |\n|---|---|---|---|\n");
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int n = sizes[si], reps = 20000000 / (n * n) + 1000;
        size_t nn = (size_t)n * (size_t)n;
        double *A = malloc(nn * sizeof(double)), *L = malloc(nn * sizeof(double)), *K = malloc(nn * sizeof(double));
        double *x = malloc((size_t)n * sizeof(double)), *t = malloc((size_t)n * sizeof(double));
        if (!A || !L || !K || !x || !t)
            return 1;
        unsigned s = 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
                s = s * 1103515245u + 12345u;
                double r = (double)(s >> 8) / 16777216.0 - 0.5;
                A[i * n + j] = A[j * n + i] = r + (i == j ? n : 0);
            }
        memcpy(L, A, nn * sizeof(double));
        if (LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', n, L, n) != 0)
            return 1;
        memcpy(K, L, nn * sizeof(double));
        if (LAPACKE_dpotri(LAPACK_ROW_MAJOR, 'L', n, K, n) != 0)
            return 1;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                K[j * n + i] = K[i * n + j];
        for (int i = 0; i < n; i++)
            x[i] = 1.0 / (1.0 + i);
        double best[3] = {1e30, 1e30, 1e30};
        for (int round = 0; round < 3; round++) {
            double t0 = bench_now();
            for (int r = 0; r < reps; r++) {
                cblas_dtrsv(CblasRowMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, L, n, x, 1);
                cblas_dtrsv(CblasRowMajor, CblasLower, CblasTrans, CblasNonUnit, n, L, n, x, 1);
                for (int i = 0; i < n; i++) /* keep x at scale: A ~ n I */
                    x[i] *= n;
            }
            double t1 = bench_now();
            for (int r = 0; r < reps; r++) {
                memcpy(t, x, (size_t)n * sizeof(double));
                cblas_dsymv(CblasRowMajor, CblasLower, n, 1.0, K, n, t, 1, 0.0, x, 1);
                for (int i = 0; i < n; i++)
                    x[i] *= n;
            }
            double t2 = bench_now();
            for (int r = 0; r < reps; r++) {
                memcpy(t, x, (size_t)n * sizeof(double));
                for (int i = 0; i < n; i++) {
                    double v = 0.0;
                    for (int j = 0; j < n; j++)
                        v += K[i * n + j] * t[j];
                    x[i] = v * n;
                }
            }
            double t3 = bench_now(), d[3] = {t1 - t0, t2 - t1, t3 - t2};
            for (int q = 0; q < 3; q++)
                best[q] = d[q] < best[q] ? d[q] : best[q];
        }
        printf("| %d | %.3f | %.3f | %.3f |\n", n, 1e6 * best[0] / reps, 1e6 * best[1] / reps, 1e6 * best[2] / reps);
        free(A);
        free(L);
        free(K);
        free(x);
        free(t);
    }
    return 0;
}
