/*
 * dils.c -- the DILS_CC benchmark of Baumann 2020 (BLPKM_CC) through the public API.
 * For every instance of bench/dils/instances.tsv and constraint set CS10/CS15/CS20:
 * features standardised (population std, as Baumann's PCCC preprocessing), k = number of
 * classes, the given algorithm run once per seed 0..runs-1 with n_init restarts.
 * Prints CSV rows: instance,cs,algorithm,n_init,seed,status,sse,ari,nmi,ami,violations,seconds
 * usage: dils SHARED_DATA_DIR INSTANCES_TSV ALGORITHM N_INIT RUNS
 */
#include "bench_util.h"
#include "ckm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_instance(const char *root, const char *name, const char *file, const char *header,
                        const char *stem, const char *algo, int n_init, int runs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, file);
    ckm_dataset *ds = bench_read_standardized("dils", path, header);
    if (!ds)
        return 1;
    ckm_err err = {CKM_OK, ""};
    const char *cs_names[3] = {"cs10", "cs15", "cs20"};
    for (int c = 0; c < 3; c++) {
        snprintf(path, sizeof path, "%s/dils-cc-constraints/pairs/%s_%s.txt", root, stem, cs_names[c]);
        ckm_constraints *cons = NULL;
        ckm_problem *p = NULL;
        if (ckm_constraints_read(path, ds->n, &cons, &err) != CKM_OK ||
            ckm_problem_create(ds->X, ds->n, ds->d, ds->n_classes, &p, &err) != CKM_OK ||
            ckm_problem_add_constraints(p, cons, &err) != CKM_OK) {
            fprintf(stderr, "dils: %s: %s\n", name, err.message);
            return 1;
        }
        for (int seed = 0; seed < runs; seed++) {
            ckm_settings s;
            ckm_settings_default(&s);
            snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
            s.n_init = n_init;
            s.seed = (uint64_t)seed;
            s.threads = 1;
            ckm_result *r = NULL;
            if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
                fprintf(stderr, "dils: %s %s seed %d: %s\n", name, cs_names[c], seed, err.message);
                return 1;
            }
            ckm_scores sc = {0, 0, 0, 0, 0, 0};
            if (r->has_labels)
                ckm_compare(ds->labels, r->labels, ds->n, &sc, &err);
            printf("%s,%s,%s,%d,%d,%s,%.10g,%.6f,%.6f,%.6f,%zu,%.6f\n", name, cs_names[c], algo, n_init,
                   seed, ckm_status_string(r->status), r->has_labels ? r->sse : -1.0,
                   r->has_labels ? sc.ari : -1.0, r->has_labels ? sc.nmi : -1.0,
                   r->has_labels ? sc.ami : -1.0, r->violations, r->time.total_s);
            ckm_result_free(r);
        }
        ckm_problem_free(p);
        ckm_constraints_free(cons);
    }
    ckm_dataset_free(ds);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: dils SHARED_DATA_DIR INSTANCES_TSV ALGORITHM N_INIT RUNS\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    char line[2048];
    int rc = 0;
    while (fgets(line, sizeof line, f) && rc == 0) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *name = strtok(line, "\t"), *file = strtok(NULL, "\t"), *header = strtok(NULL, "\t"),
             *stem = strtok(NULL, "\t\n");
        if (!name || !file || !header || !stem)
            continue;
        rc = run_instance(argv[1], name, file, header, stem, argv[3], atoi(argv[4]), atoi(argv[5]));
    }
    fclose(f);
    return rc;
}
