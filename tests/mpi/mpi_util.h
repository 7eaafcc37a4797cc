/*
 * mpi_util.h -- what the MPI tests share (test_mpi.c, test_mpi_certify.c; one executable
 * each, so the definitions live here): allocation failure injection armed on one rank
 * (libckm's malloc/calloc/realloc go through -Wl,--wrap wrappers that fail the n-th call),
 * the tests' own waits and reductions, a stop callback, and blob data the same on every
 * rank.
 */
#ifndef CKM_TEST_MPI_UTIL_H
#define CKM_TEST_MPI_UTIL_H

#include "check.h"

#include <mpi.h>
#include <time.h>

/* ---- allocation failure injection (armed on one rank only) ---- */
void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__wrap_malloc(size_t);
void *__wrap_calloc(size_t, size_t);
void *__wrap_realloc(void *, size_t);
static long fail_at = -1; /* fail the allocation with this index (0-based), -1 = never */
static long alloc_count;
static int injected;

static inline int should_fail(void)
{
    if (fail_at < 0)
        return 0;
    if (alloc_count++ == fail_at) {
        injected = 1;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t a, size_t b)
{
    return should_fail() ? NULL : __real_calloc(a, b);
}

void *__wrap_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : __real_realloc(p, n);
}

static int rank, size;

/* The test's own exchanges (few, untimed) test between sleeps of 1 us doubling to 500 us, so
 * that under a loaded or oversubscribed machine a waiting rank leaves the CPU to the ranks
 * still solving (Open MPI's blocking calls spin and yield; the library's waits,
 * src/mpi/dist_wait.c, poll 1 ms first because their collectives are on its hot path). */
static inline void wait_req(MPI_Request *r)
{
    int done = 0;
    for (long ns = 1000;; ns = ns < 500000 ? 2 * ns : ns) {
        MPI_Test(r, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec ts = {0, ns};
        nanosleep(&ts, NULL);
    }
}

static inline void reduce_int(const int *in, int *out, int count, MPI_Op op)
{
    MPI_Request r;
    MPI_Iallreduce(in, out, count, MPI_INT, op, MPI_COMM_WORLD, &r);
    wait_req(&r);
}

/* should_stop: 1 from the second poll on */
static inline int stop_second(void *user)
{
    int *polls = user;
    return ++*polls >= 2;
}

/* N points in d dimensions: k Gaussian-ish blobs (sums of uniforms), the same on every rank */
static inline double *blobs(size_t N, size_t d, size_t k, uint64_t seed)
{
    double *X = malloc(N * d * sizeof(double)), *C = malloc(k * d * sizeof(double));
    uint64_t st = seed;
    for (size_t q = 0; q < k * d; q++)
        C[q] = 12.0 * ck_unif(&st);
    for (size_t i = 0; i < N; i++) {
        size_t j = (size_t)(ck_unif(&st) * (double)k);
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = C[j * d + f] + (ck_unif(&st) + ck_unif(&st) + ck_unif(&st) - 1.5);
    }
    free(C);
    return X;
}

#endif
