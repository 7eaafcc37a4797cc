/*
 * cmd_assign.c -- `ckm assign DATA --centers FILE [constraint options]`: assign points to
 * fixed centers minimising squared distances under every constraint given -- size bounds,
 * must/cannot-links, capacities (docs/capacities.md) -- through ckm_predict (the "predict" of
 * constrained k-means); `--method lp` solves a size-bounded problem through CLP instead, for
 * comparison (ckm_assign_to_centers, the compatibility entry).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { A_CENTERS, A_TIME, A_METHOD, A_OUT, A_QUIET, A_HELP, A_CONS, A_DATA = A_CONS + CLI_CONS_COUNT,
       A_COUNT = A_DATA + CLI_DATA_COUNT };

/* the options of `ckm assign` (values filled by cli_parse in a copy) */
static const cli_opt assign_options[A_COUNT] = {
    [A_CENTERS] = {"centers", 0, "FILE", "K rows of center coordinates (CSV or .npy, as --centers-out writes; with --standardize in the scaled units, as cluster --standardize writes them)", NULL},
    [A_TIME] = {"time-limit", 't', "SEC", "with pairs or capacities: stop the MILP after SEC seconds (its best labelling, not proven optimal)", NULL},
    [A_METHOD] = {"method", 0, "transport|lp", "exact solver: own transportation solver (default) or CLP", NULL},
    [A_OUT] = {"labels-out", 'o', "FILE", "write one 0-based cluster id per line", NULL},
    [A_QUIET] = {"quiet", 'q', NULL, "print nothing on success", NULL},
    [A_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

/* The summary on stdout: the objective, the sizes and (with demands) the loads of the
 * assignment; p may be NULL (no options beyond plain sizes). */
static void print_summary(const ckm_problem *p, const int32_t *labels, size_t n, size_t k, double objective,
                          ckm_status st)
{
    size_t *sizes = calloc(k, sizeof *sizes);
    for (size_t i = 0; sizes && i < n; i++)
        sizes[labels[i]]++;
    printf("ckm %s: assigned %zu points to %zu centers (%s)\n", ckm_version(), n, k,
           st == CKM_STATUS_OPTIMAL ? "optimal under the constraints" : "a limit came first: not proven optimal");
    printf("  %-24s  %.6f\n  sizes                    ",
           p && ckm_problem_weights(p) ? "weighted sq. distances" : "sum of squared distances", objective);
    for (size_t j = 0; sizes && j < k; j++)
        printf(" %zu", sizes[j]);
    printf("\n");
    free(sizes);
    ckm_check_report *rep = NULL;
    if (p && (ckm_problem_demands(p) || ckm_problem_has_capacities(p)) && ckm_check(p, labels, &rep, NULL) == CKM_OK &&
        rep->loads) {
        printf("  loads                    ");
        for (size_t j = 0; j < k; j++)
            printf(" %.10g", rep->loads[j]);
        printf("\n");
    }
    ckm_check_report_free(rep);
}

/* ckm_predict (time: --time-limit or NULL): EXIT_SOLVED with labels, or the exit code after
 * printing why not. */
static int predict(const ckm_problem *p, const double *C, const char *time, int32_t *labels, double *objective,
                   ckm_status *st)
{
    ckm_settings s;
    ckm_settings_default(&s);
    if (time && !cli_time_limit("assign", time, &s.time_limit_s))
        return EXIT_USAGE;
    ckm_err err = {CKM_OK, ""};
    ckm_prediction *r = NULL;
    ckm_error rc = ckm_predict(p, C, &s, &r, &err);
    if (rc != CKM_OK)
        return cli_error("assign", rc, &err);
    int code = EXIT_SOLVED;
    *st = r->status;
    if (r->status == CKM_STATUS_INFEASIBLE) {
        fprintf(stderr, "ckm assign: infeasible: %s\n", r->message);
        code = EXIT_INFEASIBLE;
    } else if (!r->has_labels) {
        fprintf(stderr, "ckm assign: %s: %s\n", ckm_status_string(r->status), r->message);
        code = EXIT_NO_LABELS;
    } else {
        memcpy(labels, r->labels, ckm_problem_n(p) * sizeof(int32_t));
        *objective = r->objective;
    }
    ckm_prediction_free(r);
    return code;
}

/* --method lp on size bounds alone (no weights): the same problem through CLP (ckm_assign_to_centers),
 * for comparison. */
static int by_lp(const ckm_problem *p, const ckm_dataset *ds, const double *C, int32_t *labels, double *objective,
                 ckm_status *st)
{
    size_t k = ckm_problem_k(p);
    size_t *lo = calloc(k, sizeof *lo), *hi = calloc(k, sizeof *hi);
    int code = EXIT_SOLVED;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = CKM_OK;
    if (!lo || !hi) {
        free(lo);
        free(hi);
        fprintf(stderr, "ckm assign: out of memory\n");
        return EXIT_NOMEM;
    }
    for (size_t j = 0; rc == CKM_OK && j < k; j++)
        rc = ckm_problem_size_bounds(p, j, &lo[j], &hi[j], &err);
    if (rc == CKM_OK)
        rc = ckm_assign_to_centers(ds->X, ds->n, ds->d, C, k, lo, hi, CKM_ASSIGN_LP, labels, objective, NULL, st, &err);
    if (rc != CKM_OK) {
        code = cli_error("assign", rc, &err);
    } else if (*st == CKM_STATUS_INFEASIBLE) {
        fprintf(stderr, "ckm assign: infeasible: the size bounds cannot hold %zu points in %zu clusters\n", ds->n, k);
        code = EXIT_INFEASIBLE;
    }
    free(lo);
    free(hi);
    return code;
}

/* --method transport|lp (absent: the transportation solver); false after printing. */
static bool parse_method(const char *v, ckm_assign_method *method)
{
    *method = CKM_ASSIGN_AUTO;
    if (!v)
        return true;
    if (strcmp(v, "transport") == 0)
        *method = CKM_ASSIGN_TRANSPORT;
    else if (strcmp(v, "lp") == 0)
        *method = CKM_ASSIGN_LP;
    else {
        fprintf(stderr, "ckm assign: --method: '%s' is not one of transport, lp\n", v);
        return false;
    }
    return true;
}

int cmd_assign(int argc, char **argv)
{
    const char *cmd = "assign";
    cli_opt opts[A_COUNT];
    memcpy(opts, assign_options, sizeof opts);
    cli_cons_group_init(opts + A_CONS);
    cli_data_group_init(opts + A_DATA);
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, A_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[A_HELP].value) {
        printf("usage: ckm assign DATA --centers FILE [--min-size N] [--max-size N | --sizes FILE | --balanced]\n"
               "                  [-c FILE] [--demands FILE --min-capacity X --max-capacity X | --capacities FILE]\n"
               "                  [data options]\n\n"
               "Assign every point of DATA to one of the given centers, minimising the sum of squared\n"
               "distances subject to the size bounds (exact; without bounds: nearest center), and with\n"
               "-c or capacities subject to those too (blpkm's exact assignment step, CLP/CBC).\n\noptions:\n");
        cli_print_options(opts, A_CONS);
        cli_print_cons_options(opts + A_CONS);
        cli_print_data_options(opts + A_DATA);
        printf("exit codes: 0 assigned, 2 usage/input error, 3 the constraints cannot be met,\n"
               "            4 a time limit came before any labelling\n");
        return EXIT_SOLVED;
    }
    if (npos != 1 || !opts[A_CENTERS].value) {
        fprintf(stderr, "ckm assign: need DATA and --centers FILE (see 'ckm assign --help')\n");
        return EXIT_USAGE;
    }
    const cli_opt *c = opts + A_CONS;
    const char *inputs[] = {pos[0], opts[A_CENTERS].value, c[CLI_CONS_SIZES].value, c[CLI_CONS_PAIRS].value,
                            c[CLI_CONS_DEMANDS].value, c[CLI_CONS_CAPS].value, opts[A_DATA + CLI_DATA_WEIGHTS].value};
    if (!cli_output_ok(cmd, opts[A_OUT].value, inputs, 7))
        return EXIT_USAGE;
    ckm_assign_method method;
    if (!parse_method(opts[A_METHOD].value, &method))
        return EXIT_USAGE;
    ckm_read_options rc_opts;
    ckm_read_options_default(&rc_opts);
    rc_opts.header = CKM_HEADER_NO;
    ckm_err err = {CKM_OK, ""};
    ckm_dataset *ds = NULL, *cs = NULL;
    ckm_problem *p = NULL;
    int32_t *labels = NULL;
    int code = EXIT_INTERNAL;
    ckm_error rc;
    if ((code = cli_read_data(cmd, opts + A_DATA, pos[0], &ds)) != EXIT_SOLVED)
        goto done;
    if ((rc = ckm_dataset_read(opts[A_CENTERS].value, &rc_opts, &cs, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    if (cs->d != ds->d) {
        fprintf(stderr, "ckm assign: centers have %zu features but %s has %zu\n", cs->d, pos[0], ds->d);
        code = EXIT_USAGE;
        goto done;
    }
    size_t k = cs->n;
    bool general = c[CLI_CONS_PAIRS].value || cli_given(c, CLI_CONS_DEMANDS, CLI_CONS_CAPS) ||
                   opts[A_DATA + CLI_DATA_WEIGHTS].value;
    labels = calloc(ds->n, sizeof *labels);
    if (!labels) {
        fprintf(stderr, "ckm assign: out of memory\n");
        code = EXIT_NOMEM;
        goto done;
    }
    /* the problem object carries and validates the options; minimum sizes 0 unless given (new
       points: a cluster may get none) */
    if ((rc = ckm_problem_create(ds->X, ds->n, ds->d, k, &p, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    if ((rc = ckm_problem_set_size_range(p, 0, ds->n, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    if ((code = cli_data_weights(cmd, opts + A_DATA, p)) != EXIT_SOLVED ||
        (code = cli_cons_apply(cmd, opts + A_CONS, p)) != EXIT_SOLVED)
        goto done;
    double objective = 0.0;
    ckm_status st;
    if (method == CKM_ASSIGN_LP && !general)
        code = by_lp(p, ds, cs->X, labels, &objective, &st);
    else
        code = predict(p, cs->X, opts[A_TIME].value, labels, &objective, &st);
    if (code != EXIT_SOLVED)
        goto done;
    if (opts[A_OUT].value && (rc = ckm_write_labels(opts[A_OUT].value, labels, ds->n, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    if (!opts[A_QUIET].value)
        print_summary(p, labels, ds->n, k, objective, st);
    code = EXIT_SOLVED;
done:
    free(labels);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    ckm_dataset_free(cs);
    return code;
}
