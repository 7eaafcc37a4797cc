/*
 * cmd_certify.c -- `ckm certify DATA --labels FILE -k K ...`: a safe lower bound on the
 * constrained optimum and the certified gap of a labelling from anywhere (ckm_certify,
 * docs/certify.md). Prints the SSE, the bound, the gap and the subsets; writes the JSON
 * report and the subset of each point atomically. SIGINT returns the bound reached so far.
 * Started by mpirun (built with -DCKM_MPI=ON), the subsets are bounded on every rank
 * (ckm_mpi_certify): rank 0 reads, writes and prints, every rank exits with its code.
 */
#include "cli.h"
#ifdef CKM_HAVE_MPI
#include "ckm_mpi.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

enum { F_LABELS, F_K, F_SUBSETS, F_TIME, F_CUTS, F_GAP, F_SEED, F_THREADS, F_REPORT, F_HTML, F_SUBSETS_OUT, F_VERBOSE, F_QUIET,
       F_HELP, F_CONS, F_DATA = F_CONS + CLI_CONS_COUNT, F_COUNT = F_DATA + CLI_DATA_COUNT };

static const cli_opt certify_options[F_COUNT] = {
    [F_LABELS] = {"labels", 0, "FILE", "the labelling to certify: one 0-based cluster id per line (or .npy)", NULL},
    [F_K] = {"k", 'k', "K", "number of clusters (default: largest label + 1)", NULL},
    [F_SUBSETS] = {"subsets", 0, "T", "split into T subsets (1 = the whole problem's root bound; default: chosen "
                                      "from --time-limit, then coarsened when the first subsets' bounds show the "
                                      "split's floor costs more than larger subsets would; or subsets of about 400 "
                                      "groups)", NULL},
    [F_TIME] = {"time-limit", 't', "SEC", "wall-clock limit; the bound reached by then is reported", NULL},
    [F_CUTS] = {"cut-rounds", 0, "N", "cutting-plane rounds of each subset's SDP, counted in rounds of 50 "
                                      "iterations (default 50)", NULL},
    [F_GAP] = {"gap", 0, "X", "a subset's SDP stops when its bound is within X of the labels' SSE there "
                              "(default 0.0001)", NULL},
    [F_SEED] = {"seed", 's', "S", "seed of the split (same input + seed = same subsets)", NULL},
    [F_THREADS] = {"threads", 'j', "N", "subsets bounded at once, 0..256 (0 = the cores this process may use); "
                                        "OpenBLAS runs 1 thread", NULL},
    [F_REPORT] = {"report", 'r', "FILE", "write a JSON report (bound, gap, every subset, the bound over time)", NULL},
    [F_HTML] = {"html", 0, "FILE", "write a self-contained HTML report: the bound closing over time, every subset's bound, the clusters on two principal components (docs/report.md)", NULL},
    [F_SUBSETS_OUT] = {"subsets-out", 0, "FILE", "write the subset of each point, one per line (FILE.npy: numpy)",
                       NULL},
    [F_VERBOSE] = {"verbose", 'v', NULL, "progress on stderr (-vv: each subset's SDP too)", NULL},
    [F_QUIET] = {"quiet", 'q', NULL, "print nothing on success", NULL},
    [F_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

static void usage(const cli_opt *opts)
{
    printf("usage: ckm certify DATA --labels FILE [-k K] [constraint options] [--subsets T] [-t SEC] [data options]\n\n"
           "A safe lower bound on the optimal SSE under the given constraints, and the\n"
           "certified gap (SSE - bound) / SSE of the labelling, for any n: the points are\n"
           "split into subsets that each resemble the whole (must-link groups kept whole),\n"
           "and the subsets' SDP bounds add up to a bound of the whole (docs/certify.md).\n"
           "Labels from any tool; ones that violate a constraint get the bound but no gap.\n"
           "Started by mpirun (an MPI build), the subsets are bounded on every rank.\n\noptions:\n");
    cli_print_options(opts, F_CONS);
    cli_print_cons_options(opts + F_CONS);
    cli_print_data_options(opts + F_DATA);
    printf("exit codes: 0 certified (also when stopped: the bound so far), 2 usage/input error,\n"
           "            3 proven infeasible, 5 the labels violate constraints (bound still given),\n"
           "            6 out of memory\n");
}

static bool parse_settings(const char *cmd, const cli_opt *opts, ckm_settings *s, size_t *subsets)
{
    const char *v;
    if ((v = opts[F_SUBSETS].value) && !cli_size(cmd, "subsets", v, subsets))
        return false;
    if (opts[F_SUBSETS].value && *subsets == 0) {
        fprintf(stderr, "ckm %s: --subsets must be at least 1\n", cmd);
        return false;
    }
    if ((v = opts[F_TIME].value) && !cli_time_limit(cmd, v, &s->time_limit_s))
        return false;
    if ((v = opts[F_CUTS].value) && !cli_int(cmd, "cut-rounds", v, 0, CLI_INT_MAX, &s->cut_rounds))
        return false;
    if ((v = opts[F_GAP].value) && !cli_double(cmd, "gap", v, 0.0, &s->gap))
        return false;
    if (!(s->gap < 1.0)) {
        fprintf(stderr, "ckm %s: --gap: '%s' is not below 1 (a relative gap in [0, 1))\n", cmd, v);
        return false;
    }
    if ((v = opts[F_SEED].value) && !cli_u64(cmd, "seed", v, &s->seed))
        return false;
    if ((v = opts[F_THREADS].value) && !cli_int(cmd, "threads", v, 0, CKM_MAX_THREADS, &s->threads))
        return false;
    cli_cap_blas_threads(1); /* each worker's eigensolver runs on one core */
    if (opts[F_VERBOSE].value) {
        s->verbosity = atoi(opts[F_VERBOSE].value);
        s->log = cli_log_stderr;
    }
    return true;
}

static void print_certificate(const char *data, const ckm_certificate *c)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("ckm %s: certify on %s (n = %zu, d = %zu, k = %zu, %zu groups)\n", ckm_version(), data, c->n, c->d, c->k,
           c->groups);
    printf("  status       %s%s%s\n", ckm_status_string(c->status), c->message[0] ? " - " : "", c->message);
    printf("  %-12s %.10g%s\n", c->weighted ? "weighted SSE" : "SSE", c->sse,
           c->violations ? " (the labels violate constraints)" : "");
    printf("  lower bound  %.10g\n", c->lower_bound);
    if (isfinite(c->gap))
        printf("  gap          %.4g %%\n", 100.0 * c->gap);
    if (isfinite(c->split_floor_sse) && c->sse > 0.0)
        printf("  split floor  %.10g (no bound through this split exceeds it: gap >= %.4g %%)\n", c->split_floor_sse,
               100.0 * (c->sse - c->split_floor_sse) / c->sse);
    printf("  subsets      %zu on %d thread%s", c->subsets, c->workers, c->workers == 1 ? "" : "s");
    if (c->ranks > 1)
        printf(" over %d ranks", c->ranks);
    printf(" (split %.2f s, bounds %.2f s)\n", c->split_s, c->bound_s);
    printf("  time         %.3f s, peak memory %.0f MB\n", c->total_s, (double)ru.ru_maxrss / 1024.0);
}

/* the JSON report, the HTML report (html: the page's inputs but its JSON) and the subsets
 * file, each atomic; EXIT_SOLVED or the (printed) error's code */
static int write_outputs(const char *cmd, const cli_opt *opts, const ckm_certificate *c, cli_html_args *html)
{
    ckm_err err = {CKM_OK, ""};
    ckm_error rc;
    if (opts[F_REPORT].value || opts[F_HTML].value) {
        char *json = NULL;
        if ((rc = ckm_certificate_to_json(c, &json, &err)) != CKM_OK ||
            (opts[F_REPORT].value &&
             (rc = ckm_write_file_atomic(opts[F_REPORT].value, json, strlen(json), &err)) != CKM_OK)) {
            ckm_free(json);
            return cli_error(cmd, rc, &err);
        }
        int code = EXIT_SOLVED;
        if (opts[F_HTML].value) {
            html->json = json;
            code = cli_write_html(cmd, html);
        }
        ckm_free(json);
        if (code != EXIT_SOLVED)
            return code;
    }
    if (opts[F_SUBSETS_OUT].value && c->subset_of) {
        int32_t *sub = malloc(c->n * sizeof(int32_t));
        if (!sub) {
            fprintf(stderr, "ckm %s: out of memory for the subsets file\n", cmd);
            return EXIT_NOMEM;
        }
        for (size_t i = 0; i < c->n; i++)
            sub[i] = (int32_t)c->subset_of[i];
        rc = ckm_write_labels(opts[F_SUBSETS_OUT].value, sub, c->n, &err);
        free(sub);
        if (rc != CKM_OK)
            return cli_error(cmd, rc, &err);
    }
    return EXIT_SOLVED;
}

static bool outputs_ok(const char *cmd, const cli_opt *opts, const char *data)
{
    const cli_opt *c = opts + F_CONS;
    const char *inputs[] = {data, opts[F_LABELS].value, c[CLI_CONS_PAIRS].value, opts[F_DATA + CLI_DATA_WEIGHTS].value,
                            c[CLI_CONS_SIZES].value, c[CLI_CONS_DEMANDS].value, c[CLI_CONS_CAPS].value};
    const char *out[] = {opts[F_REPORT].value, opts[F_SUBSETS_OUT].value, opts[F_HTML].value};
    for (size_t i = 0; i < 3; i++) {
        if (!cli_output_ok(cmd, out[i], inputs, 7))
            return false;
        for (size_t j = 0; j < i; j++)
            if (out[i] && out[j] && strcmp(out[i], out[j]) == 0) {
                fprintf(stderr, "ckm %s: two outputs name the same file '%s'\n", cmd, out[i]);
                return false;
            }
    }
    return true;
}

/* A certification's inputs: DATA by the data options, the labels, the constraints. */
typedef struct loaded {
    ckm_dataset *ds;
    ckm_problem *p;
    int32_t *labels;
} loaded;

/* the outputs written and the summary printed; the exit code of the certificate. in, argc,
 * argv: what the HTML report shows beside the certificate. */
static int report(const char *cmd, const cli_opt *opts, const char *data, const ckm_certificate *c, const loaded *in,
                  int argc, char **argv)
{
    cli_html_args html = {.path = opts[F_HTML].value, .data = data, .p = in->p, .labels = in->labels,
                          .truth = in->ds->labels, .argc = argc, .argv = argv, .verbose = opts[F_VERBOSE].value != NULL};
    int code = write_outputs(cmd, opts, c, &html);
    if (code != EXIT_SOLVED)
        return code;
    if (c->status == CKM_STATUS_INFEASIBLE)
        fprintf(stderr, "ckm certify: infeasible: %s\n", c->message);
    else if (!opts[F_QUIET].value || c->violations)
        print_certificate(data, c);
    return c->status == CKM_STATUS_INFEASIBLE ? EXIT_INFEASIBLE : c->violations ? EXIT_VIOLATIONS : EXIT_SOLVED;
}

static int load(const char *cmd, const cli_opt *opts, const char *data, loaded *in)
{
    size_t k = 0;
    cli_labelled_args la = {.data = data, .labels = opts[F_LABELS].value, .k = opts[F_K].value,
                            .data_group = opts + F_DATA, .cons_group = opts + F_CONS, .empty_ok = false};
    return cli_labelled_problem(cmd, &la, &in->ds, &in->p, &in->labels, &k);
}

static void unload(loaded *in)
{
    ckm_problem_free(in->p);
    ckm_dataset_free(in->ds);
    ckm_free(in->labels);
}

#ifdef CKM_HAVE_MPI
/* `mpirun -np R ckm certify ...`: rank 0 reads the inputs, ckm_mpi_certify bounds the subsets
 * on every rank, rank 0 writes and prints; every rank exits with rank 0's code. */
static int certify_mpi(const char *cmd, const cli_opt *opts, const char *data, ckm_settings *s, size_t subsets,
                       int argc, char **argv)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    loaded in = {0};
    int code = rank == 0 ? load(cmd, opts, data, &in) : EXIT_SOLVED;
    MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (code == EXIT_SOLVED) {
        cli_mpi_loud_again();
        cli_catch_sigint(s);
        ckm_certificate *c = NULL;
        ckm_err err = {CKM_OK, ""};
        ckm_error rc = ckm_mpi_certify(MPI_COMM_WORLD, in.p, in.labels, subsets, s, &c, &err);
        if (rc != CKM_OK)
            code = rank == 0 ? cli_error(cmd, rc, &err) : cli_exit_code(rc);
        else if (rank == 0)
            code = report(cmd, opts, data, c, &in, argc, argv);
        ckm_certificate_free(c);
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    unload(&in);
    return code;
}
#endif

int cmd_certify(int argc, char **argv)
{
    const char *cmd = "certify";
    cli_opt opts[F_COUNT];
    memcpy(opts, certify_options, sizeof opts);
    cli_cons_group_init(opts + F_CONS);
    cli_data_group_init(opts + F_DATA);
    const char *pos[1];
    size_t npos, subsets = 0;
    if (!cli_parse(cmd, argc, argv, 2, opts, F_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[F_HELP].value) {
        usage(opts);
        return EXIT_SOLVED;
    }
    if (npos != 1 || !opts[F_LABELS].value) {
        fprintf(stderr, "ckm certify: need DATA and --labels FILE (see 'ckm certify --help')\n");
        return EXIT_USAGE;
    }
    ckm_settings s;
    ckm_settings_default(&s);
    if (!parse_settings(cmd, opts, &s, &subsets) || !outputs_ok(cmd, opts, pos[0]))
        return EXIT_USAGE;
#ifdef CKM_HAVE_MPI
    if (cli_mpi_launched())
        return certify_mpi(cmd, opts, pos[0], &s, subsets, argc, argv);
#endif
    loaded in = {0};
    int code = load(cmd, opts, pos[0], &in);
    if (code == EXIT_SOLVED) {
        cli_catch_sigint(&s);
        /* the page's bound-over-time plot, and the JSON report's trace (ckm report -r draws it later) */
        s.trace = opts[F_HTML].value != NULL || opts[F_REPORT].value != NULL;
        cli_progress bar;
        cli_progress_install(&bar, cmd, &s, opts[F_QUIET].value != NULL);
        ckm_certificate *c = NULL;
        ckm_err err = {CKM_OK, ""};
        ckm_error rc = ckm_certify(in.p, in.labels, subsets, &s, &c, &err);
        cli_progress_end(&bar);
        code = rc != CKM_OK ? cli_error(cmd, rc, &err) : report(cmd, opts, pos[0], c, &in, argc, argv);
        ckm_certificate_free(c);
    }
    unload(&in);
    return code;
}
