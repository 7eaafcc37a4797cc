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
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *settings_of(const char *ds)
{
    /* the (a, b) pairs of the constraint files per dataset (PROVENANCE.md section 5) */
    if (strcmp(ds, "ECG5000") == 0 || strcmp(ds, "computers") == 0)
        return "150 0,0 150,75 75,250 0,0 250,125 125";
    if (strcmp(ds, "gene") == 0)
        return "200 0,0 200,100 100,400 0,0 400,200 200";
    if (strcmp(ds, "iris") == 0 || strcmp(ds, "wine") == 0 || strcmp(ds, "seeds") == 0 || strcmp(ds, "glass") == 0 ||
        strcmp(ds, "connectionist") == 0)
        return "50 0,0 50,25 25,100 0,0 100,50 50";
    return "100 0,0 100,50 50,150 0,0 150,75 75";
}

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
        char path[1024];
        snprintf(path, sizeof path, "%s/pc-sos-sdp/datasets/%s.txt", root, ds);
        ckm_read_options ro;
        ckm_read_options_default(&ro);
        ro.format = CKM_FORMAT_PCSOS;
        ckm_dataset *data = NULL;
        ckm_err err = {CKM_OK, ""};
        if (ckm_dataset_read(path, &ro, &data, &err) != CKM_OK) {
            fprintf(stderr, "pcsos_root: %s: %s (skipped)\n", ds, err.message);
            continue;
        }
        char sets[128];
        snprintf(sets, sizeof sets, "%s", settings_of(ds));
        char *save = NULL;
        for (char *ab = strtok_r(sets, ",", &save); ab; ab = strtok_r(NULL, ",", &save)) {
            int a = 0, b = 0;
            sscanf(ab, "%d %d", &a, &b);
            for (int rep = 0; rep < 5; rep++) {
                char repname[8];
                snprintf(repname, sizeof repname, "%d", rep);
                if (!bench_in_list(argv[3], repname))
                    continue;
                char file[128];
                snprintf(file, sizeof file, "ml_%d_cl_%d_%d.txt", a, b, rep);
                snprintf(path, sizeof path, "%s/pc-sos-sdp/constraints/%s/%s", root, ds, file);
                ckm_constraints *cons = NULL;
                ckm_problem *p = NULL;
                if (ckm_constraints_read(path, data->n, &cons, &err) != CKM_OK ||
                    ckm_problem_create(data->X, data->n, data->d, data->k_hint, &p, &err) != CKM_OK ||
                    ckm_problem_add_constraints(p, cons, &err) != CKM_OK) {
                    fprintf(stderr, "pcsos_root: %s/%s: %s\n", ds, file, err.message);
                    return 1;
                }
                double ts = 0.0, tb = 0.0;
                ckm_result *ri = solve(p, "ipc", limit, &ts);
                ckm_result *rb = solve(p, "blpkm", limit, &tb);
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
                bad += !ok;
                printf("%s,%s,%zu,%zu,%d,%d,%s,%.10g,%.10g,%.6g,%d,%.2f,%.10g,%.2f,%d\n", ds, file, data->n,
                       data->k_hint, a, b, ckm_status_string(ri->status), ri->has_labels ? ri->sse : NAN,
                       ri->lower_bound, ri->gap, rounds, ts, rb->has_labels ? rb->sse : NAN, tb, ok);
                fflush(stdout);
                ckm_result_free(ri);
                ckm_result_free(rb);
                ckm_problem_free(p);
                ckm_constraints_free(cons);
            }
        }
        ckm_dataset_free(data);
    }
    return bad ? 3 : 0;
}
