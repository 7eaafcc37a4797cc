/*
 * eig_side.c -- the microbenchmark behind the SDP projection's two-thread eigenvectors
 * (src/backend/linalg.c ckm_eig_sym_side with a scratch matrix): after dsytrd, the wanted
 * side's eigenvectors of an s x s matrix by dstedc (every vector of the tridiagonal) + dormtr,
 * by one dstemr call by index + dormtr, and by two dstemr halves of the index range on two
 * threads, each back-transforming its half (the second on a private copy of the reflectors).
 * BLAS/LAPACK and pthreads only (no ckm API: this measures the kernels ckm calls). The matrix
 * is Q diag(lambda) Q' with Q orthonormal (eigenvectors of a random symmetric matrix) and
 * `wanted` negative eigenvalues spread geometrically over [-2.4, -2e-5], the rest over
 * [4e-5, 3] (the range of ECG5000 ml_0_cl_150_0's root, s = 500, where 77-105 are negative).
 * Best of 10 rounds, milliseconds. Run with OPENBLAS_NUM_THREADS=1.
 * usage: eig_side [S]   (default 500; prints a markdown table for 20, 60, 77, 93, 125 wanted)
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
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

typedef struct half {
    int n, il, iu;
    const double *d, *e, *A, *tau;
    double *copy, *w, *Z;
} half;

/* dstemr for indices il..iu into w, Z; then dormtr on a private copy of A when copy is set */
static void *half_run(void *arg)
{
    half *h = arg;
    int n = h->n;
    double *d2 = malloc((size_t)n * sizeof(double)), *e2 = malloc((size_t)n * sizeof(double));
    lapack_int *isuppz = malloc(2 * (size_t)n * sizeof(lapack_int)), found = 0;
    lapack_logical tryrac = 1;
    memcpy(d2, h->d, (size_t)n * sizeof(double));
    memcpy(e2, h->e, (size_t)n * sizeof(double));
    LAPACKE_dstemr(LAPACK_COL_MAJOR, 'V', 'I', n, d2, e2, 0.0, 0.0, h->il, h->iu, &found, h->w, h->Z, n,
                   h->iu - h->il + 1, isuppz, &tryrac);
    const double *A = h->A;
    if (h->copy) {
        memcpy(h->copy, h->A, (size_t)n * (size_t)n * sizeof(double));
        A = h->copy;
    }
    LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', n, found, (double *)A, n, h->tau, h->Z, n);
    free(d2);
    free(e2);
    free(isuppz);
    return NULL;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 500, rounds = 10;
    if (n < 200) {
        fprintf(stderr, "eig_side: S must be at least 200\n");
        return 2;
    }
    size_t nn = (size_t)n * (size_t)n;
    double *Q = malloc(nn * sizeof(double)), *M = malloc(nn * sizeof(double)), *A = malloc(nn * sizeof(double));
    double *Z = malloc(nn * sizeof(double)), *copy = malloc(nn * sizeof(double)), *lam = malloc((size_t)n * sizeof(double));
    double *d = malloc((size_t)n * sizeof(double)), *e = malloc((size_t)n * sizeof(double));
    double *tau = malloc((size_t)n * sizeof(double)), *w = malloc((size_t)n * sizeof(double));
    double *w2 = malloc((size_t)n * sizeof(double)), *e2 = malloc((size_t)n * sizeof(double));
    srand(7);
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            Q[(size_t)i * n + j] = Q[(size_t)j * n + i] = rand() / (double)RAND_MAX - 0.5;
    LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'V', 'U', n, Q, n, lam); /* columns of Q: an orthonormal basis */
    const int wanted[] = {20, 60, 77, 93, 125};
    printf("| s | wanted | dsytrd ms | dstedc + dormtr ms | one dstemr + dormtr ms | two dstemr halves + dormtr, two threads ms |\n"
           "|---|---|---|---|---|---|\n");
    for (size_t c = 0; c < sizeof wanted / sizeof wanted[0]; c++) {
        int neg = wanted[c];
        for (int q = 0; q < n; q++) /* geometric spreads: [-2.4, -2e-5] and [4e-5, 3] */
            lam[q] = q < neg ? -2.4 * pow(2e-5 / 2.4, (double)q / (neg - 1))
                             : 4e-5 * pow(3.0 / 4e-5, (double)(q - neg) / (n - neg - 1));
        for (int i = 0; i < n; i++) /* M = Q diag(lam) Q', exactly symmetric */
            for (int j = 0; j <= i; j++) {
                double v = 0.0;
                for (int q = 0; q < n; q++)
                    v += lam[q] * Q[(size_t)q * n + i] * Q[(size_t)q * n + j];
                M[(size_t)i * n + j] = M[(size_t)j * n + i] = v;
            }
        double best[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
        for (int r = 0; r < rounds; r++) {
            memcpy(A, M, nn * sizeof(double));
            double t0 = bench_now();
            LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'U', n, A, n, d, e, tau);
            best[0] = fmin(best[0], bench_now() - t0);
            memcpy(w, d, (size_t)n * sizeof(double));
            memcpy(e2, e, (size_t)n * sizeof(double));
            t0 = bench_now();
            LAPACKE_dstedc(LAPACK_COL_MAJOR, 'I', n, w, e2, Z, n);
            LAPACKE_dormtr(LAPACK_COL_MAJOR, 'L', 'U', 'N', n, neg, A, n, tau, Z, n);
            best[1] = fmin(best[1], bench_now() - t0);
            half one = {n, 1, neg, d, e, A, tau, NULL, w, Z};
            t0 = bench_now();
            half_run(&one);
            best[2] = fmin(best[2], bench_now() - t0);
            int h = neg / 2;
            half a = {n, 1, h, d, e, A, tau, NULL, w, Z}, b = {n, h + 1, neg, d, e, A, tau, copy, w2, Z + (size_t)h * n};
            pthread_t th;
            t0 = bench_now();
            int started = pthread_create(&th, NULL, half_run, &b) == 0;
            half_run(&a);
            if (started)
                pthread_join(th, NULL);
            else
                half_run(&b);
            best[3] = fmin(best[3], bench_now() - t0);
        }
        printf("| %d | %d | %.2f | %.2f | %.2f | %.2f |\n", n, neg, 1e3 * best[0], 1e3 * best[1], 1e3 * best[2],
               1e3 * best[3]);
    }
    free(Q), free(M), free(A), free(Z), free(copy), free(lam), free(d), free(e), free(tau), free(w), free(w2), free(e2);
    return 0;
}
