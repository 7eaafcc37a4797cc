/*
 * data_opts.c -- the one option group for reading DATA, the same on every command that reads
 * it (cluster, check, certify, assign, eval): --format, --header, --label-column,
 * --standardize, --weights, and the one parser of --time-limit. Invariant: a labelling's SSE
 * is the same number whichever command computes it, given the same group values -- the
 * labels of `cluster --standardize -w W` are checked and certified on the objective they
 * were found on by `check/certify --standardize -w W`.
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cli_opt data_options[CLI_DATA_COUNT] = {
    [CLI_DATA_FORMAT] = {"format", 0, "auto|csv|keel|pcsos|npy",
                         "input format (default auto; a numpy .npy file is recognised by its content)", NULL},
    [CLI_DATA_HEADER] = {"header", 0, "auto|yes|no", "first line of delimited text is a header (default auto)", NULL},
    [CLI_DATA_LABEL_COL] = {"label-column", 'l', "IDX|last",
                            "0-based column of ground-truth labels, excluded from the features", NULL},
    [CLI_DATA_STD] = {"standardize", 0, NULL,
                      "scale features to mean 0, population std 1 first (every SSE is then of the scaled data)",
                      NULL},
    [CLI_DATA_WEIGHTS] = {"weights", 'w', "FILE",
                          "sample weights, one per line (> 0; .npy too): every SSE is the weighted one; size "
                          "bounds still count points", NULL},
};

void cli_data_group_init(cli_opt *group)
{
    memcpy(group, data_options, sizeof data_options);
}

void cli_print_data_options(const cli_opt *group)
{
    printf("\ndata options (the same on every command that reads DATA):\n");
    cli_print_options(group, CLI_DATA_COUNT);
}

/* --label-column IDX|last into ro; false after printing */
static bool label_column(const char *cmd, const char *v, ckm_read_options *ro)
{
    int col;
    if (strcmp(v, "last") == 0)
        ro->label_column = CKM_LABEL_COLUMN_LAST;
    else if (cli_int(cmd, "label-column", v, 0, CLI_INT_MAX, &col))
        ro->label_column = col;
    else
        return false;
    return true;
}

/* --label-column, --format and --header into ro; false after printing */
static bool read_options(const char *cmd, const cli_opt *group, ckm_read_options *ro)
{
    const char *v;
    if ((v = group[CLI_DATA_LABEL_COL].value) && !label_column(cmd, v, ro))
        return false;
    if ((v = group[CLI_DATA_FORMAT].value)) {
        if (strcmp(v, "auto") == 0) ro->format = CKM_FORMAT_AUTO;
        else if (strcmp(v, "csv") == 0 || strcmp(v, "text") == 0) ro->format = CKM_FORMAT_DELIMITED;
        else if (strcmp(v, "keel") == 0) ro->format = CKM_FORMAT_KEEL;
        else if (strcmp(v, "pcsos") == 0) ro->format = CKM_FORMAT_PCSOS;
        else if (strcmp(v, "npy") == 0) ro->format = CKM_FORMAT_NPY;
        else {
            fprintf(stderr, "ckm %s: --format: '%s' is not one of auto, csv, keel, pcsos, npy\n", cmd, v);
            return false;
        }
    }
    if ((v = group[CLI_DATA_HEADER].value)) {
        if (strcmp(v, "auto") == 0) ro->header = CKM_HEADER_AUTO;
        else if (strcmp(v, "yes") == 0) ro->header = CKM_HEADER_YES;
        else if (strcmp(v, "no") == 0) ro->header = CKM_HEADER_NO;
        else {
            fprintf(stderr, "ckm %s: --header: '%s' is not one of auto, yes, no\n", cmd, v);
            return false;
        }
    }
    return true;
}

bool cli_data_check(const char *cmd, const cli_opt *group)
{
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    return read_options(cmd, group, &ro);
}

int cli_read_data(const char *cmd, const cli_opt *group, const char *path, ckm_dataset **ds)
{
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    *ds = NULL;
    if (!read_options(cmd, group, &ro))
        return EXIT_USAGE;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = ckm_dataset_read(path, &ro, ds, &err);
    if (rc != CKM_OK)
        return cli_error(cmd, rc, &err);
    if (group[CLI_DATA_STD].value)
        ckm_dataset_standardize(*ds);
    return EXIT_SOLVED;
}

int cli_data_weights(const char *cmd, const cli_opt *group, ckm_problem *p)
{
    const char *path = group[CLI_DATA_WEIGHTS].value;
    return path ? cli_add_per_point(cmd, p, path, "weight", 0, ckm_problem_set_weights) : EXIT_SOLVED;
}

bool cli_time_limit(const char *cmd, const char *v, double *seconds)
{
    if (v && (strcmp(v, "none") == 0 || strcmp(v, "inf") == 0)) {
        *seconds = 0.0; /* the settings' "none" */
        return true;
    }
    char *end = (char *)v;
    double x = v && *v ? strtod(v, &end) : NAN, unit = NAN;
    if (end != v && end[0] == '\0')
        unit = 1.0;
    else if (end != v && end[1] == '\0')
        unit = end[0] == 's' ? 1.0 : end[0] == 'm' ? 60.0 : end[0] == 'h' ? 3600.0 : NAN;
    if (!(x >= 0.0) || !isfinite(x * unit)) { /* NaN unit: no number, or an unknown unit */
        fprintf(stderr,
                "ckm %s: --time-limit: '%s' is not a duration: seconds >= 0, or with a unit (90s, 1.5m, 2h), "
                "or none\n",
                cmd, v ? v : "");
        return false;
    }
    *seconds = x * unit;
    return true;
}
