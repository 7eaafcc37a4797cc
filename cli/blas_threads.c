/*
 * blas_threads.c -- the CLI's cap on OpenBLAS threads. OpenBLAS keeps one process-wide
 * thread count; the library never changes it (in a host program it belongs to the host), but
 * the CLI is its own host: `--threads N` with N >= 1 also caps OpenBLAS at N threads, so
 * `-j 1` runs the whole solve on one core; ipc and exact, whose own threads share the SDP's
 * work, always get one OpenBLAS thread (the caller, cmd_cluster.c). OpenBLAS's pool waits by
 * spinning on sched_yield: with ipc's two threads calling it, ipc on iris took 3.9 s idle and
 * 299 s with both cores busy, against 2.3 and 4.0 s with one OpenBLAS thread
 * (bench/blas_variants_run.sh). Looked up at run time, so a build against another BLAS
 * simply has no cap.
 */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <string.h>

void cli_cap_blas_threads(int n)
{
    if (n < 1)
        return;
    void *set_sym = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    void *get_sym = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    if (!set_sym || !get_sym)
        return;
    void (*set)(int);
    int (*get)(void);
    memcpy(&set, &set_sym, sizeof set); /* object -> function pointer without a cast warning */
    memcpy(&get, &get_sym, sizeof get);
    if (get() > n) /* a cap: never more threads than OPENBLAS_NUM_THREADS already allows */
        set(n);
}
