/*
 * pcsos_util.h -- the PC-SOS-SDP instances (Piccialli, Russo Russo & Sudoso 2022) for the
 * benchmark programs: which constraint settings each dataset has (PROVENANCE.md section 5)
 * and one instance as a problem, read from SHARED_DATA/pc-sos-sdp through the public API.
 */
#ifndef CKM_BENCH_PCSOS_UTIL_H
#define CKM_BENCH_PCSOS_UTIL_H

#include "bench_util.h"
#include "ckm.h"

#include <stdio.h>
#include <string.h>

/* "a b,a b,...": the (must-link, cannot-link) counts of the constraint files of dataset ds */
static inline const char *pcsos_settings(const char *ds)
{
    if (strcmp(ds, "ECG5000") == 0 || strcmp(ds, "computers") == 0)
        return "150 0,0 150,75 75,250 0,0 250,125 125";
    if (strcmp(ds, "gene") == 0)
        return "200 0,0 200,100 100,400 0,0 400,200 200";
    if (strcmp(ds, "iris") == 0 || strcmp(ds, "wine") == 0 || strcmp(ds, "seeds") == 0 || strcmp(ds, "glass") == 0 ||
        strcmp(ds, "connectionist") == 0)
        return "50 0,0 50,25 25,100 0,0 100,50 50";
    return "100 0,0 100,50 50,150 0,0 150,75 75";
}

/* The dataset (k from its header) of ds; NULL with the reason on stderr. */
static inline ckm_dataset *pcsos_dataset(const char *shared, const char *ds, const char *prog)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pc-sos-sdp/datasets/%s.txt", shared, ds);
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    ro.format = CKM_FORMAT_PCSOS;
    ckm_dataset *data = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_dataset_read(path, &ro, &data, &err) != CKM_OK) {
        fprintf(stderr, "%s: %s: %s (skipped)\n", prog, ds, err.message);
        return NULL;
    }
    return data;
}

/* The problem of constraint file `file` of ds on data; NULL with the reason on stderr. */
static inline ckm_problem *pcsos_problem(const char *shared, const char *ds, const char *file, const ckm_dataset *data,
                                         const char *prog)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pc-sos-sdp/constraints/%s/%s", shared, ds, file);
    ckm_constraints *cons = NULL;
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_constraints_read(path, data->n, &cons, &err) != CKM_OK ||
        ckm_problem_create(data->X, data->n, data->d, data->k_hint, &p, &err) != CKM_OK ||
        ckm_problem_add_constraints(p, cons, &err) != CKM_OK) {
        fprintf(stderr, "%s: %s/%s: %s\n", prog, ds, file, err.message);
        ckm_problem_free(p);
        p = NULL;
    }
    ckm_constraints_free(cons);
    return p;
}

/* Call fn(file, a, b, ctx) for each constraint file ml_<a>_cl_<b>_<r>.txt of ds whose setting
 * "<a>_<b>" is in the comma list settings ("all": every one) and whose replicate r is in reps;
 * stops at and returns the first non-zero value fn returns. */
typedef int (*pcsos_fn)(const char *file, int a, int b, void *ctx);

static inline int pcsos_for_each(const char *ds, const char *settings, const char *reps, pcsos_fn fn, void *ctx)
{
    char sets[128];
    snprintf(sets, sizeof sets, "%s", pcsos_settings(ds));
    char *save = NULL;
    for (char *ab = strtok_r(sets, ",", &save); ab; ab = strtok_r(NULL, ",", &save)) {
        int a = 0, b = 0;
        sscanf(ab, "%d %d", &a, &b);
        char name[32], file[128];
        snprintf(name, sizeof name, "%d_%d", a, b);
        if (strcmp(settings, "all") != 0 && !bench_in_list(settings, name))
            continue;
        for (int rep = 0; rep < 5; rep++) {
            snprintf(name, sizeof name, "%d", rep);
            if (!bench_in_list(reps, name))
                continue;
            snprintf(file, sizeof file, "ml_%d_cl_%d_%d.txt", a, b, rep);
            int rc = fn(file, a, b, ctx);
            if (rc)
                return rc;
        }
    }
    return 0;
}

#endif
