/*
 * pcsos_root.c -- root-node experiment on the PC-SOS-SDP instances (Piccialli, Russo Russo
 * & Sudoso 2022) through the public API: for each dataset and constraint file
 * ml_<a>_cl_<b>_<r>.txt, `ipc` (SDP safe bound with cutting planes + IPC-k-means, n_init 10,
 * a time limit per instance) and `blpkm` (n_init 10, defaults) on the same problem.
 * Prints CSV rows:
 *   dataset,file,n,k,n_ml,n_cl,ipc_status,ipc_sse,lower_bound,gap,cut_rounds,ipc_seconds,
 *   blpkm_sse,blpkm_seconds,bound_ok
 * bound_ok = 1 when the safe bound is <= every feasible SSE found (both algorithms); the
 * program exits 3 if any row has bound_ok = 0 (the bound would be wrong).
 * usage: pcsos_root SHARED_DATA_DIR DATASETS REPLICATES TIME_LIMIT_S
 *        (DATASETS and REPLICATES comma lists, e.g. iris,wine 0,1)
 */
#include "pcsos_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ckm_result *solve(const ckm_problem *p, const char *alg, double limit, double *secs)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", alg);
    s.time_limit_s = limit;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = bench_now();
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "pcsos_root: %s: %s\n", alg, err.message);
        exit(1);
    }
    *secs = bench_now() - t0;
    return r;
}

typedef struct root_ctx {
    const char *shared, *ds;
    const ckm_dataset *data;
    double limit;
    int bad;
} root_ctx;

static int one_file(const char *file, int a, int b, void *arg)
{
    root_ctx *c = arg;
    ckm_problem *p = pcsos_problem(c->shared, c->ds, file, c->data, "pcsos_root");
    if (!p)
        return 1;
    double ts = 0.0, tb = 0.0;
    ckm_result *ri = solve(p, "ipc", c->limit, &ts);
    ckm_result *rb = solve(p, "blpkm", c->limit, &tb);
    int rounds = 0;
    const char *m = strstr(ri->message, "SDP: ");
    if (m)
        sscanf(m, "SDP: %d", &rounds);
    double best = INFINITY;
    if (ri->has_labels)
        best = fmin(best, ri->sse);
    if (rb->has_labels)
        best = fmin(best, rb->sse);
    int ok = !(isfinite(ri->lower_bound) && ri->lower_bound > best + 1e-9 * fabs(best));
    c->bad += !ok;
    printf("%s,%s,%zu,%zu,%d,%d,%s,%.10g,%.10g,%.6g,%d,%.2f,%.10g,%.2f,%d\n", c->ds, file, c->data->n,
           c->data->k_hint, a, b, ckm_status_string(ri->status), ri->has_labels ? ri->sse : NAN, ri->lower_bound,
           ri->gap, rounds, ts, rb->has_labels ? rb->sse : NAN, tb, ok);
    fflush(stdout);
    ckm_result_free(ri);
    ckm_result_free(rb);
    ckm_problem_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pcsos_root SHARED_DATA_DIR DATASETS REPLICATES TIME_LIMIT_S\n");
        return 2;
    }
    const char *root = argv[1];
    double limit = atof(argv[4]);
    int bad = 0;
    printf("dataset,file,n,k,n_ml,n_cl,ipc_status,ipc_sse,lower_bound,gap,cut_rounds,ipc_seconds,blpkm_sse,"
           "blpkm_seconds,bound_ok\n");
    char dsl[512];
    snprintf(dsl, sizeof dsl, "%s", argv[2]);
    for (char *ds = strtok(dsl, ","); ds; ds = strtok(NULL, ",")) {
        ckm_dataset *data = pcsos_dataset(root, ds, "pcsos_root");
        if (!data)
            continue;
        root_ctx c = {root, ds, data, limit, 0};
        if (pcsos_for_each(ds, "all", argv[3], one_file, &c) != 0)
            return 1;
        bad += c.bad;
        ckm_dataset_free(data);
    }
    return bad ? 3 : 0;
}
