/*
 * ipc_host.c -- a host program that embeds the library and leaves OpenBLAS alone (as a host
 * that never heard of OpenBLAS does): ipc on a data file with balanced sizes
 * (floor(n/k)..ceil(n/k)), settings.threads = THREADS (default 0: every core), all else
 * default. Used by blas_variants_run.sh to measure what OpenBLAS's own thread pool does to
 * an embedded solve, beside the CLI, which caps that pool for ipc and exact.
 * Prints one line: seconds,lower_bound,sse
 * usage: ipc_host DATA K [THREADS]
 */
#include "bench_util.h"
#include "ckm.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: ipc_host DATA K [THREADS]\n");
        return 2;
    }
    size_t k = (size_t)atol(argv[2]);
    ckm_err err = {CKM_OK, ""};
    ckm_dataset *ds = NULL;
    ckm_problem *p = NULL;
    ckm_result *r = NULL;
    int code = 1;
    if (ckm_dataset_read(argv[1], NULL, &ds, &err) != CKM_OK || k < 1 ||
        ckm_problem_create(ds->X, ds->n, ds->d, k, &p, &err) != CKM_OK ||
        ckm_problem_set_size_range(p, ds->n / k, (ds->n + k - 1) / k, &err) != CKM_OK)
        goto done;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "ipc");
    s.threads = argc > 3 ? atoi(argv[3]) : 0;
    double t0 = bench_now();
    if (ckm_solve(p, &s, &r, &err) != CKM_OK)
        goto done;
    printf("%.3f,%.17g,%.17g\n", bench_now() - t0, r->lower_bound, r->sse);
    code = 0;
done:
    if (code)
        fprintf(stderr, "ipc_host: %s\n", k < 1 ? "K must be >= 1" : err.message);
    ckm_result_free(r);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    return code;
}
