/*
 * cmd_report.c -- `ckm report DATA --labels FILE [constraint options] [-r REPORT.json] -o
 * FILE.html`: the HTML report (ckm_report_html, docs/report.md) of a labelling from any
 * tool, on the problem the options describe; with the JSON report of the run that made the
 * labels (ckm cluster -r, ckm certify -r), its figures, trace and subsets too. A JSON report of
 * another run (other n or k, another SSE for these labels on this data) is refused.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { R_LABELS, R_K, R_JSON, R_TRUTH, R_OUT, R_POINTS, R_VERBOSE, R_HELP, R_CONS, R_DATA = R_CONS + CLI_CONS_COUNT,
       R_COUNT = R_DATA + CLI_DATA_COUNT };

static const cli_opt report_options[R_COUNT] = {
    [R_LABELS] = {"labels", 0, "FILE", "the labelling: one 0-based cluster id per line (or .npy)", NULL},
    [R_K] = {"k", 'k', "K", "number of clusters (default: largest label + 1)", NULL},
    [R_JSON] = {"report", 'r', "FILE", "the JSON report of the run that made the labels (cluster -r, certify -r): "
                                       "its figures, convergence and subsets are shown", NULL},
    [R_TRUTH] = {"truth", 0, "FILE", "ground-truth labels (one per line, or .npy): ARI and NMI (default: the data's "
                                     "--label-column, if given)", NULL},
    [R_OUT] = {"output", 'o', "FILE", "the HTML file to write (required)", NULL},
    [R_POINTS] = {"max-points", 0, "N", "points drawn at most, a per-cluster subsample past it (default 20000)", NULL},
    [R_VERBOSE] = {"verbose", 'v', NULL, "say where the page went, its size and time", NULL},
    [R_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

/* the whole file as a NUL-terminated string (a JSON report), or NULL after printing why */
static char *read_text(const char *cmd, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ckm %s: cannot open the JSON report '%s'\n", cmd, path);
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *s = malloc(cap);
    for (size_t got; s && (got = fread(s + len, 1, cap - len - 1, f)) > 0;) {
        len += got;
        if (cap - len - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            } else {
                s = t;
            }
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (!s || bad) {
        fprintf(stderr, "ckm %s: cannot read the JSON report '%s'%s\n", cmd, path, s ? "" : " (out of memory)");
        free(s);
        return NULL;
    }
    s[len] = '\0';
    if (strlen(s) != len) {
        fprintf(stderr, "ckm %s: '%s' is not a JSON report (it holds a NUL byte)\n", cmd, path);
        free(s);
        return NULL;
    }
    return s;
}

static bool outputs_ok(const char *cmd, const cli_opt *opts, const char *data)
{
    if (!opts[R_OUT].value) {
        fprintf(stderr, "ckm %s: need -o FILE.html (see 'ckm report --help')\n", cmd);
        return false;
    }
    const cli_opt *c = opts + R_CONS;
    const char *inputs[] = {data, opts[R_LABELS].value, c[CLI_CONS_PAIRS].value, opts[R_DATA + CLI_DATA_WEIGHTS].value,
                            c[CLI_CONS_SIZES].value, c[CLI_CONS_DEMANDS].value, c[CLI_CONS_CAPS].value,
                            opts[R_JSON].value, opts[R_TRUTH].value};
    return cli_output_ok(cmd, opts[R_OUT].value, inputs, 9);
}

/* the truth: --truth FILE (n labels), else the data's label column, else none */
static int truth_of(const char *cmd, const cli_opt *opts, const ckm_dataset *ds, int32_t **own, const int32_t **truth)
{
    *own = NULL;
    *truth = ds->labels;
    if (!opts[R_TRUTH].value)
        return EXIT_SOLVED;
    ckm_err err = {CKM_OK, ""};
    size_t n = 0;
    ckm_error rc = ckm_labels_read(opts[R_TRUTH].value, own, &n, &err);
    if (rc != CKM_OK)
        return cli_error(cmd, rc, &err);
    if (n != ds->n) {
        fprintf(stderr, "ckm %s: %s has %zu labels but the data has %zu points\n", cmd, opts[R_TRUTH].value, n, ds->n);
        return EXIT_USAGE;
    }
    *truth = *own;
    return EXIT_SOLVED;
}

int cmd_report(int argc, char **argv)
{
    const char *cmd = "report";
    cli_opt opts[R_COUNT];
    memcpy(opts, report_options, sizeof opts);
    cli_cons_group_init(opts + R_CONS);
    cli_data_group_init(opts + R_DATA);
    const char *pos[1];
    size_t npos, max_points = 0;
    if (!cli_parse(cmd, argc, argv, 2, opts, R_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[R_HELP].value) {
        printf("usage: ckm report DATA --labels FILE [constraint options] [-r REPORT.json] -o FILE.html\n\n"
               "A self-contained HTML page (no network, inline SVG) about a labelling from any tool:\n"
               "the points on their first two principal components coloured by cluster, the\n"
               "pairs, sizes and loads against their bounds, a per-cluster table, and with the\n"
               "run's JSON report its status, bound, gap, convergence and subsets.\n\noptions:\n");
        cli_print_options(opts, R_CONS);
        cli_print_cons_options(opts + R_CONS);
        cli_print_data_options(opts + R_DATA);
        printf("exit codes: 0 written, 2 usage/input error (labels of another length, a JSON report of\n"
               "            another run, an unwritable path), 6 out of memory\n");
        return EXIT_SOLVED;
    }
    if (npos != 1 || !opts[R_LABELS].value) {
        fprintf(stderr, "ckm report: need DATA and --labels FILE (see 'ckm report --help')\n");
        return EXIT_USAGE;
    }
    if (!outputs_ok(cmd, opts, pos[0]) ||
        (opts[R_POINTS].value && !cli_size(cmd, "max-points", opts[R_POINTS].value, &max_points)))
        return EXIT_USAGE;
    ckm_dataset *ds = NULL;
    ckm_problem *p = NULL;
    int32_t *labels = NULL, *truth_own = NULL;
    const int32_t *truth = NULL;
    char *json = NULL;
    size_t k = 0;
    cli_labelled_args la = {.data = pos[0], .labels = opts[R_LABELS].value, .k = opts[R_K].value,
                            .data_group = opts + R_DATA, .cons_group = opts + R_CONS, .empty_ok = true};
    int code = cli_labelled_problem(cmd, &la, &ds, &p, &labels, &k);
    if (code == EXIT_SOLVED)
        code = truth_of(cmd, opts, ds, &truth_own, &truth);
    if (code == EXIT_SOLVED && opts[R_JSON].value && !(json = read_text(cmd, opts[R_JSON].value)))
        code = EXIT_USAGE;
    if (code == EXIT_SOLVED) {
        cli_html_args ha = {.path = opts[R_OUT].value, .data = pos[0], .p = p, .labels = labels, .truth = truth,
                            .json = json, .json_path = opts[R_JSON].value, .argc = argc, .argv = argv, .max_points = max_points,
                            .verbose = opts[R_VERBOSE].value != NULL};
        code = cli_write_html(cmd, &ha);
    }
    free(json);
    ckm_free(truth_own);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    ckm_free(labels);
    return code;
}
