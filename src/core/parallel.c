/*
 * parallel.c -- a fork-join "parallel for" over [0, count) split into `threads` contiguous
 * ranges (the split depends only on count and threads, so work assignment is
 * reproducible). Threads are created per call: ~20 us each, negligible next to the
 * O(n k d) work it is used for. No state outlives a call. The default thread count honours
 * the process's CPU affinity and a cgroup CPU quota (a container limited to 2 CPUs on a
 * 64-core host gets 2 workers, not 64).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "core.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
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

/* CPUs allowed by a cgroup quota (v2 cpu.max "QUOTA PERIOD", v1 cfs_quota_us /
 * cfs_period_us), rounded up; 0 when there is none or it cannot be read. */
static long cgroup_cpus(void)
{
    long quota = -1, period = 0;
    FILE *f = fopen("/sys/fs/cgroup/cpu.max", "r");
    if (f) {
        char q[32];
        if (fscanf(f, "%31s %ld", q, &period) == 2 && strcmp(q, "max") != 0)
            quota = strtol(q, NULL, 10);
        fclose(f);
    } else if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "r"))) {
        if (fscanf(f, "%ld", &quota) != 1)
            quota = -1;
        fclose(f);
        if ((f = fopen("/sys/fs/cgroup/cpu/cpu.cfs_period_us", "r"))) {
            if (fscanf(f, "%ld", &period) != 1)
                period = 0;
            fclose(f);
        }
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return (quota + period - 1) / period;
}

int ckm_thread_count(int requested)
{
    if (requested > 0)
        return requested > CKM_MAX_THREADS ? CKM_MAX_THREADS : requested;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        n = CPU_COUNT(&set);
    long q = cgroup_cpus();
    if (q > 0 && q < n)
        n = q;
    return n > 0 ? (int)(n > CKM_MAX_THREADS ? CKM_MAX_THREADS : n) : 1;
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
