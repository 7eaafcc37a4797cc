/*
 * pcsos_exact.c -- the branch-and-cut (`exact`) on the PC-SOS-SDP instances (Piccialli, Russo
 * Russo & Sudoso 2022) through the public API, one row per instance:
 *   dataset,file,n,k,n_ml,n_cl,status,sse,lower_bound,gap,nodes,root_gap,seconds,threads
 * with the settings the paper used (gap 1e-4, root 50 / child 30 cutting-plane rounds) and a
 * time limit and node limit per instance. The extra instance "iris-sizes" is iris with every
 * cluster of exactly 50 points (the CC-SOS-SDP instance; no pairs).
 * usage: pcsos_exact SHARED_DATA_DIR DATASETS SETTINGS REPLICATES TIME_LIMIT_S NODE_LIMIT THREADS
 *   DATASETS, SETTINGS ("ml_cl" names such as 50_0,25_25, or "all") and REPLICATES are comma lists.
 * A row is printed (and flushed) as soon as its instance ends, so an interrupted run keeps
 * what it measured. Exit 3 if a returned labelling breaks a constraint (never expected).
 */
#include "pcsos_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *ds, const char *file, const ckm_problem *p, int a, int b, double limit, int nodes,
               int threads)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.time_limit_s = limit;
    s.node_limit = nodes;
    s.threads = threads;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = bench_now();
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "pcsos_exact: %s/%s: %s\n", ds, file, err.message);
        return 1;
    }
    double secs = bench_now() - t0;
    printf("%s,%s,%zu,%zu,%d,%d,%s,%.10g,%.10g,%.6g,%zu,%.6g,%.2f,%d\n", ds, file, r->n, r->k, a, b,
           ckm_status_string(r->status), r->has_labels ? r->sse : NAN, r->lower_bound, r->gap, r->nodes, r->root_gap,
           secs, threads);
    fflush(stdout);
    int bad = r->has_labels && r->violations != 0;
    ckm_result_free(r);
    return bad ? 3 : 0;
}

typedef struct exact_ctx {
    const char *shared, *ds;
    const ckm_dataset *data;
    double limit;
    int node_limit, threads, worst;
} exact_ctx;

static int one_file(const char *file, int a, int b, void *arg)
{
    exact_ctx *c = arg;
    ckm_problem *p = pcsos_problem(c->shared, c->ds, file, c->data, "pcsos_exact");
    if (!p)
        return 1;
    int r = run(c->ds, file, p, a, b, c->limit, c->node_limit, c->threads);
    c->worst = r > c->worst ? r : c->worst;
    ckm_problem_free(p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: pcsos_exact SHARED_DATA_DIR DATASETS SETTINGS REPLICATES TIME_LIMIT_S NODE_LIMIT "
                        "THREADS\n");
        return 2;
    }
    const char *root = argv[1];
    double limit = atof(argv[5]);
    int node_limit = atoi(argv[6]), threads = atoi(argv[7]), rc = 0;
    printf("dataset,file,n,k,n_ml,n_cl,status,sse,lower_bound,gap,nodes,root_gap,seconds,threads\n");
    char dsl[512];
    snprintf(dsl, sizeof dsl, "%s", argv[2]);
    for (char *ds = strtok(dsl, ","); ds; ds = strtok(NULL, ",")) {
        bool sizes = strcmp(ds, "iris-sizes") == 0;
        ckm_dataset *data = pcsos_dataset(root, sizes ? "iris" : ds, "pcsos_exact");
        if (!data)
            continue;
        if (sizes) {
            ckm_problem *p = NULL;
            ckm_err err = {CKM_OK, ""};
            if (ckm_problem_create(data->X, data->n, data->d, 3, &p, &err) != CKM_OK ||
                ckm_problem_set_size_range(p, 50, 50, &err) != CKM_OK) {
                fprintf(stderr, "pcsos_exact: iris-sizes: %s\n", err.message);
                return 1;
            }
            int r = run(ds, "sizes_50_50_50", p, 0, 0, limit, node_limit, threads);
            rc = r > rc ? r : rc;
            ckm_problem_free(p);
            ckm_dataset_free(data);
            continue;
        }
        exact_ctx c = {root, ds, data, limit, node_limit, threads, 0};
        if (pcsos_for_each(ds, argv[3], argv[4], one_file, &c) != 0)
            return 1;
        rc = c.worst > rc ? c.worst : rc;
        ckm_dataset_free(data);
    }
    return rc;
}
