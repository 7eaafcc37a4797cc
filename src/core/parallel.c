/*
 * parallel.c -- a fork-join "parallel for" over [0, count) split into `threads` contiguous
 * ranges (the split depends only on count and threads, so work assignment is
 * reproducible). Threads are created per call: ~20 us each, negligible next to the
 * O(n k d) work it is used for. No state outlives a call.
 */
#include "core.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct job {
    ckm_range_fn fn;
    void *ctx;
    size_t begin, end;
    int tid;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    j->fn(j->ctx, j->begin, j->end, j->tid);
    return NULL;
}

int ckm_thread_count(int requested)
{
    if (requested > 0)
        return requested;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 256 ? 256 : n) : 1;
}

void ckm_parallel_for(int threads, size_t count, ckm_range_fn fn, void *ctx)
{
    if (threads < 1)
        threads = 1;
    if ((size_t)threads > count)
        threads = count > 0 ? (int)count : 1;
    job jobs[256];
    pthread_t tids[256];
    bool started[256] = {false};
    if (threads > 256)
        threads = 256;
    for (int t = 0; t < threads; t++) {
        jobs[t].fn = fn;
        jobs[t].ctx = ctx;
        jobs[t].begin = count * (size_t)t / (size_t)threads;
        jobs[t].end = count * (size_t)(t + 1) / (size_t)threads;
        jobs[t].tid = t;
    }
    for (int t = 1; t < threads; t++)
        started[t] = pthread_create(&tids[t], NULL, run_job, &jobs[t]) == 0;
    run_job(&jobs[0]);
    /* a range whose thread could not start runs here: correctness never depends on threads */
    for (int t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tids[t], NULL);
        else
            run_job(&jobs[t]);
    }
}
