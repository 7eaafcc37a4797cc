/*
 * cmd_cluster.c -- `ckm cluster DATA -k K ...`: read, build the problem, solve, print a
 * short summary, write labels / centers / JSON report atomically. SIGINT asks the
 * library to stop (a second SIGINT kills the process; hooks.c).
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* "  NAME  value": 6 decimals for ordinary magnitudes, 9 significant digits for the tiny and
 * huge objectives of data far from unit scale (which %.6f shows as 0.000000 or 40 digits) */
static void print_value(const char *name, double v, const ckm_result *gap_of)
{
    printf("  %-12s ", name);
    if (v == 0.0 || (fabs(v) >= 1e-3 && fabs(v) < 1e15))
        printf("%.6f", v);
    else
        printf("%.9g", v);
    if (gap_of)
        printf(" (gap %.3g%%)", 100.0 * gap_of->gap);
    printf("\n");
}

enum { O_K, O_ALGO, O_DIST, O_INIT, O_INIT_CENTERS, O_LLOYD, O_PRECISION, O_SEED, O_NINIT, O_MAXIT, O_TOL, O_TIME,
       O_CUTS, O_GAP, O_NODES, O_MEMORY, O_ASYNC, O_SOFT_P, O_STEP, O_SOFT_STEP, O_THREADS, O_LABELS_OUT, O_CENTERS_OUT, O_REPORT, O_HTML,
       O_VERBOSE, O_QUIET, O_HELP, O_CONS, O_DATA = O_CONS + CLI_CONS_COUNT, O_COUNT = O_DATA + CLI_DATA_COUNT };

static void usage(cli_opt *opts)
{
    ckm_settings s;
    ckm_settings_default(&s);
    printf("usage: ckm cluster DATA -k K [options]\n\n"
           "Cluster the points of DATA (CSV/TSV/whitespace text, KEEL .dat, or the PC-SOS-SDP\n"
           "'n d k' format) into K clusters, honouring the given constraints.\n\noptions:\n");
    cli_print_options(opts, O_CONS);
    cli_print_cons_options(opts + O_CONS);
    cli_print_data_options(opts + O_DATA);
    /* the per-algorithm defaults and traits come from the registry (ckm_algorithm_info):
       written once there, so this text cannot disagree with the library */
    printf("\ndefaults: --algorithm %s --seed %llu --n-init %d --max-iter %d (0 = the algorithm's own:\n          ",
           s.algorithm, (unsigned long long)s.seed, s.n_init, s.max_iter);
    for (size_t i = 0; i < ckm_algorithm_count(); i++)
        printf("%s %d%s", ckm_algorithm_at(i)->name, ckm_algorithm_at(i)->default_max_iter,
               i + 1 < ckm_algorithm_count() ? ", " : ")\n");
    printf("          --tol %g --time-limit none --cut-rounds %d --gap %g --node-limit 0 (none)\n"
           "          --threads 0 (all cores; OpenBLAS runs 1 thread with", s.tol, s.cut_rounds, s.gap);
    for (size_t i = 0, first = 1; i < ckm_algorithm_count(); i++)
        if (ckm_algorithm_at(i)->traits & CKM_TRAIT_OWN_THREADS) {
            printf("%s %s", first ? "" : ",", ckm_algorithm_at(i)->name);
            first = 0;
        }
    printf(");\n          size bounds 1..n per cluster (no empty cluster)\n");
    printf("algorithms:\n");
    for (size_t i = 0; i < ckm_algorithm_count(); i++) {
        const ckm_algorithm_info *a = ckm_algorithm_at(i);
        printf("  %-10s %s [honours:%s%s%s%s%s%s]\n", a->name, a->summary,
               a->honours & CKM_HONOURS_MUST_LINK ? " must-link" : "",
               a->honours & CKM_HONOURS_CANNOT_LINK ? " cannot-link" : "",
               a->honours & CKM_HONOURS_SIZE_BOUNDS ? " sizes" : "",
               a->honours & CKM_HONOURS_SOFT_PAIRS ? " soft-pairs" : "",
               a->honours & CKM_HONOURS_CAPACITIES ? " capacities" : "", a->honours ? "" : " none");
    }
    printf("exit codes: 0 solved, 1 internal error, 2 usage/input error, 3 proven infeasible,\n"
           "            4 no feasible labelling found (limit or heuristic failure), 6 out of memory\n");
}

/* the options of `ckm cluster` (values filled by cli_parse in a copy) */
static const cli_opt cluster_options[O_COUNT] = {
    [O_K] = {"k", 'k', "K", "number of clusters (1 <= K <= n); default: k from a PC-SOS-SDP header", NULL},
    [O_ALGO] = {"algorithm", 'a', "NAME", "algorithm (list below)", NULL},
    [O_DIST] = {"distance", 0, "sqeuclidean|euclidean", "assignment distance of blpkm (default sqeuclidean; the other algorithms refuse euclidean; SSE is always reported)", NULL},
    [O_INIT] = {"init", 0, "default|random|kmeans++", "initial centers (default: random for blpkm without soft pairs, kmeans++ otherwise)", NULL},
    [O_INIT_CENTERS] = {"init-centers", 0, "FILE", "start from these K centers (K rows of d values, CSV or .npy; data units) instead of seeding; one restart", NULL},
    [O_LLOYD] = {"lloyd", 0, "auto|plain|bounds", "kmeans' nearest-center step: plain (every distance) or Yinyang bounds (same labels, fewer distances); default auto", NULL},
    [O_PRECISION] = {"precision", 0, "double|single", "kmeans' distance passes: single = float32 GEMM decides (faster where memory-bound, labels may differ at float ties; SSE still double); default double", NULL},
    [O_SEED] = {"seed", 's', "S", "random seed (same input + seed = same output)", NULL},
    [O_NINIT] = {"n-init", 0, "N", "restarts; the best SSE is kept", NULL},
    [O_MAXIT] = {"max-iter", 0, "N", "iterations per restart (0 = the algorithm's default)", NULL},
    [O_TOL] = {"tol", 0, "X", "kmeans, sizeflow: center-shift tolerance (relative to mean variance); admm: relative std of the last 10 objective values", NULL},
    [O_TIME] = {"time-limit", 't', "SEC", "wall-clock limit; best labelling so far is returned (within SEC + 1 s)", NULL},
    [O_CUTS] = {"cut-rounds", 0, "N", "ipc: cutting-plane rounds after the first SDP solve (0 = none)", NULL},
    [O_GAP] = {"gap", 0, "X", "ipc, exact: relative gap (SSE - bound) / SSE that counts as optimal; exact prunes nodes within it", NULL},
    [O_SOFT_P] = {"soft-penalty", 0, "P", "cost of violating a soft pair of confidence 1, in SSE units (default: the mean squared distance between two points, 2 TSS / n)", NULL},
    [O_STEP] = {"step-limit", 0, "SEC", "with soft pairs or capacities: seconds an assignment step may spend proving its optimum before the best labels found are used, with their certified gap (0 = no limit: every step proven; default 2)", NULL},
    [O_SOFT_STEP] = {"soft-step-limit", 0, "SEC", "the former name of --step-limit", NULL},
    [O_NODES] = {"node-limit", 0, "N", "exact: stop after N branch-and-cut nodes (0 = no limit)", NULL},
    [O_MEMORY] = {"memory-limit", 0, "MB", "exact: memory budget of the search in MB (relaxations + open tree); past it the search stops with the incumbent and its gap (0 = none but the machine's)", NULL},
    [O_ASYNC] = {"async-nodes", 0, NULL, "exact: asynchronous node pool (no worker waits for a slower one; the nodes, and the labelling among equal optima, then depend on timing)", NULL},
    [O_THREADS] = {"threads", 'j', "N", "worker threads for parallel algorithms, 0..256, N >= 1 also caps OpenBLAS at N (0 = the cores this process may use)", NULL},
    [O_LABELS_OUT] = {"labels-out", 'o', "FILE", "write one 0-based cluster id per line, input order (FILE.npy: a numpy int32 array)", NULL},
    [O_CENTERS_OUT] = {"centers-out", 0, "FILE", "write K rows of cluster means (CSV; FILE.npy: a numpy float64 K x d array)", NULL},
    [O_REPORT] = {"report", 'r', "FILE", "write a JSON report (figures, sizes, the run's progress trace)", NULL},
    [O_HTML] = {"html", 0, "FILE", "write a self-contained HTML report: the clusters on two principal components, pairs, sizes against bounds, convergence (docs/report.md)", NULL},
    [O_VERBOSE] = {"verbose", 'v', NULL, "progress on stderr (-vv: also each node's / solve's steps, -vvv: debug)", NULL},
    [O_QUIET] = {"quiet", 'q', NULL, "print nothing on success", NULL},
    [O_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

static int status_exit(const ckm_result *r)
{
    if (r->status == CKM_STATUS_INFEASIBLE)
        return EXIT_INFEASIBLE;
    return r->has_labels ? EXIT_SOLVED : EXIT_NO_LABELS;
}

/* Every option that sets ckm_settings, and the data options' values; false after printing a
 * usage error. */
static bool parse_settings(const char *cmd, const cli_opt *opts, ckm_settings *s)
{
    const char *v;
    if ((v = opts[O_ALGO].value)) {
        if (strlen(v) >= sizeof s->algorithm || !ckm_algorithm_find(v)) {
            fprintf(stderr, "ckm cluster: unknown algorithm '%s' (see 'ckm cluster --help')\n", v);
            return false;
        }
        snprintf(s->algorithm, sizeof s->algorithm, "%s", v);
    }
    if ((v = opts[O_DIST].value)) {
        if (strcmp(v, "sqeuclidean") == 0) s->distance = CKM_DISTANCE_SQEUCLIDEAN;
        else if (strcmp(v, "euclidean") == 0) s->distance = CKM_DISTANCE_EUCLIDEAN;
        else {
            fprintf(stderr, "ckm cluster: --distance: '%s' is not one of sqeuclidean, euclidean\n", v);
            return false;
        }
    }
    if ((v = opts[O_INIT].value)) {
        if (strcmp(v, "default") == 0) s->init = CKM_INIT_DEFAULT;
        else if (strcmp(v, "random") == 0) s->init = CKM_INIT_RANDOM;
        else if (strcmp(v, "kmeans++") == 0) s->init = CKM_INIT_KMEANSPP;
        else {
            fprintf(stderr, "ckm cluster: --init: '%s' is not one of default, random, kmeans++\n", v);
            return false;
        }
    }
    if ((v = opts[O_LLOYD].value)) {
        if (strcmp(v, "auto") == 0) s->lloyd = CKM_LLOYD_AUTO;
        else if (strcmp(v, "plain") == 0) s->lloyd = CKM_LLOYD_PLAIN;
        else if (strcmp(v, "bounds") == 0) s->lloyd = CKM_LLOYD_BOUNDS;
        else {
            fprintf(stderr, "ckm cluster: --lloyd: '%s' is not one of auto, plain, bounds\n", v);
            return false;
        }
    }
    if ((v = opts[O_PRECISION].value)) {
        if (strcmp(v, "double") == 0) s->precision = CKM_PRECISION_DOUBLE;
        else if (strcmp(v, "single") == 0) s->precision = CKM_PRECISION_SINGLE;
        else {
            fprintf(stderr, "ckm cluster: --precision: '%s' is not one of double, single\n", v);
            return false;
        }
    }
    if (opts[O_INIT_CENTERS].value && opts[O_DATA + CLI_DATA_STD].value) {
        fprintf(stderr, "ckm cluster: --init-centers with --standardize: the centers' units would be ambiguous; "
                        "standardize the data beforehand instead\n");
        return false;
    }
    if ((v = opts[O_SEED].value) && !cli_u64(cmd, "seed", v, &s->seed))
        return false;
    if ((v = opts[O_NINIT].value) && !cli_int(cmd, "n-init", v, 1, CLI_INT_MAX, &s->n_init))
        return false;
    if ((v = opts[O_MAXIT].value) && !cli_int(cmd, "max-iter", v, 0, CLI_INT_MAX, &s->max_iter))
        return false;
    if ((v = opts[O_TOL].value) && !cli_double(cmd, "tol", v, 0.0, &s->tol))
        return false;
    if ((v = opts[O_TIME].value) && !cli_time_limit(cmd, v, &s->time_limit_s))
        return false;
    if ((v = opts[O_CUTS].value) && !cli_int(cmd, "cut-rounds", v, 0, CLI_INT_MAX, &s->cut_rounds))
        return false;
    if ((v = opts[O_GAP].value) && !cli_double(cmd, "gap", v, 0.0, &s->gap))
        return false;
    if (!(s->gap < 1.0)) {
        fprintf(stderr, "ckm cluster: --gap: '%s' is not below 1 (a relative gap in [0, 1))\n", v);
        return false;
    }
    if ((v = opts[O_SOFT_P].value) && !cli_double(cmd, "soft-penalty", v, 0.0, &s->soft_penalty))
        return false;
    if (opts[O_STEP].value && opts[O_SOFT_STEP].value) {
        fprintf(stderr, "ckm %s: give only one of --step-limit, --soft-step-limit (its former name)\n", cmd);
        return false;
    }
    const char *step_name = opts[O_STEP].value ? "step-limit" : "soft-step-limit";
    if ((v = opts[O_STEP].value ? opts[O_STEP].value : opts[O_SOFT_STEP].value) &&
        !cli_double(cmd, step_name, v, 0.0, &s->step_limit_s))
        return false;
    if ((v = opts[O_NODES].value) && !cli_int(cmd, "node-limit", v, 0, CLI_INT_MAX, &s->node_limit))
        return false;
    s->async_nodes = opts[O_ASYNC].value != NULL;
    if ((v = opts[O_MEMORY].value) && !cli_double(cmd, "memory-limit", v, 0.0, &s->memory_limit_mb))
        return false;
    if ((v = opts[O_THREADS].value) && !cli_int(cmd, "threads", v, 0, CKM_MAX_THREADS, &s->threads))
        return false;
    /* exact runs nodes on several workers and ipc splits its projection over two threads:
       one OpenBLAS thread each, or they oversubscribe (ipc on ECG5000, 500 points, idle:
       292.9 s with OpenBLAS's 2 threads, 147.6 s with one; bench/README.md) */
    const ckm_algorithm_info *chosen = ckm_algorithm_find(s->algorithm);
    cli_cap_blas_threads(chosen && (chosen->traits & CKM_TRAIT_OWN_THREADS) ? 1 : s->threads);
    return cli_data_check(cmd, opts + O_DATA);
}

/* The clusters' loads (total demands; the checker's report, whose loads they are) when the
 * problem has demands or capacity bounds and res has labels, else NULL: computed once for
 * the summary and the JSON report. */
static ckm_check_report *loads_of(const ckm_problem *p, const ckm_result *res)
{
    ckm_check_report *rep = NULL;
    if (!res->has_labels || (!ckm_problem_demands(p) && !ckm_problem_has_capacities(p)) ||
        ckm_check(p, res->labels, &rep, NULL) != CKM_OK || !rep->loads) {
        ckm_check_report_free(rep);
        return NULL;
    }
    return rep;
}

/* The summary on stdout of a run with labels. */
static void print_summary(const char *data, const ckm_problem *p, const ckm_result *res, const double *loads,
                          const ckm_scores *sc, bool have_scores)
{
    printf("ckm %s: %s on %s (n = %zu, d = %zu, k = %zu)\n", ckm_version(), res->algorithm,
           data, res->n, res->d, res->k);
    printf("  status       %s%s%s\n", ckm_status_string(res->status),
           res->message[0] ? " - " : "", res->message);
    print_value(res->weighted ? "weighted SSE" : "SSE", res->sse, NULL);
    if (isfinite(res->lower_bound))
        print_value("lower bound", res->lower_bound, res);
    printf("  sizes       ");
    for (size_t j = 0; j < res->k; j++)
        printf(" %zu", res->sizes[j]);
    printf("\n");
    if (loads) {
        printf("  loads       ");
        for (size_t j = 0; j < res->k; j++)
            printf(" %.10g", loads[j]);
        printf("\n");
    }
    printf("  violated     %zu of %zu constraints\n", res->violations,
           ckm_problem_must_link_count(p) + ckm_problem_cannot_link_count(p));
    if (ckm_problem_soft_pair_count(p) > 0) {
        print_value("penalty", res->penalty, NULL);
        print_value("objective", res->objective, NULL);
        printf("  soft pairs   %zu must-link and %zu cannot-link of %zu violated (P = %.6g)\n",
               res->soft_must_link_violated, res->soft_cannot_link_violated, ckm_problem_soft_pair_count(p),
               res->soft_penalty);
    }
    const ckm_algorithm_info *ran = ckm_algorithm_find(res->algorithm);
    bool search = ran && (ran->traits & CKM_TRAIT_SEARCH);
    if (search && isfinite(res->root_gap))
        printf("  nodes        %zu (root gap %.3g%%), seed %llu\n", res->nodes, 100.0 * res->root_gap,
               (unsigned long long)res->seed);
    else if (search)
        printf("  nodes        %zu (root not finished), seed %llu\n", res->nodes, (unsigned long long)res->seed);
    else
        printf("  restarts     %d (the best after %d iterations), seed %llu\n", res->restarts,
               res->iterations, (unsigned long long)res->seed);
    if (have_scores)
        printf("  vs labels    ARI %.4f  NMI %.4f  AMI %.4f\n", sc->ari, sc->nmi, sc->ami);
    printf("  time         %.3f s\n", res->time.total_s);
}

/* No output names an input, nor the same file as another output; false after printing. */
static bool outputs_ok(const char *cmd, const cli_opt *opts, const char *data)
{
    const cli_opt *c = opts + O_CONS;
    const char *inputs[] = {data, c[CLI_CONS_PAIRS].value, c[CLI_CONS_SIZES].value, opts[O_DATA + CLI_DATA_WEIGHTS].value,
                            opts[O_INIT_CENTERS].value, c[CLI_CONS_DEMANDS].value, c[CLI_CONS_CAPS].value};
    const char *outputs[] = {opts[O_LABELS_OUT].value, opts[O_CENTERS_OUT].value, opts[O_REPORT].value,
                             opts[O_HTML].value};
    for (size_t i = 0; i < 4; i++)
        if (!cli_output_ok(cmd, outputs[i], inputs, 7))
            return false;
    for (size_t i = 0; i < 4; i++)
        for (size_t j = i + 1; j < 4; j++)
            if (outputs[i] && outputs[j] && strcmp(outputs[i], outputs[j]) == 0) {
                fprintf(stderr, "ckm cluster: two outputs name the same file '%s'\n", outputs[i]);
                return false;
            }
    return true;
}

#ifdef CKM_HAVE_MPI
/* `ckm cluster` started by mpirun: the distributed solver, refusing the options it cannot
 * take (cluster_mpi.c). */
static int run_mpi(const cli_opt *opts, const char *data, ckm_settings *s, bool quiet)
{
    cli_catch_sigint(s);
    const cli_opt *dat = opts + O_DATA;
    const cli_opt *c = opts + O_CONS;
    const char *no = c[CLI_CONS_PAIRS].value ? "--constraints"
                     : opts[O_HTML].value    ? "--html (write the labels, then ckm report)"
                     : dat[CLI_DATA_WEIGHTS].value ? "--weights"
                     : c[CLI_CONS_DEMANDS].value ? "--demands"
                     : cli_given(c, CLI_CONS_MINCAP, CLI_CONS_CAPS) ? "capacity options"
                     : dat[CLI_DATA_STD].value     ? "--standardize"
                     : dat[CLI_DATA_LABEL_COL].value ? "--label-column"
                     : opts[O_DIST].value    ? "--distance"
                     : (dat[CLI_DATA_FORMAT].value && strcmp(dat[CLI_DATA_FORMAT].value, "npy") != 0)
                         ? "--format other than npy"
                     : dat[CLI_DATA_HEADER].value  ? "--header"
                     : NULL;
    cli_mpi_args ma = {data, opts[O_K].value, c[CLI_CONS_MIN].value, c[CLI_CONS_MAX].value, c[CLI_CONS_SIZES].value,
                       c[CLI_CONS_BAL].value, opts[O_INIT_CENTERS].value, opts[O_LABELS_OUT].value,
                       opts[O_CENTERS_OUT].value, opts[O_REPORT].value, no, quiet};
    return cli_mpi_cluster(&ma, s);
}
#endif

/* The report's capacity members: "loads" (loads_of's, or none) and, with capacity bounds,
 * "capacities" ([lo, hi] per cluster, hi null for none), appended at extra + used (cap bytes
 * in all: 80 per cluster suffice). */
static void append_capacities(const ckm_problem *p, const ckm_result *res, const double *loads, char *extra,
                              size_t cap, size_t used)
{
    if (loads) {
        used += (size_t)snprintf(extra + used, cap - used, ", \"loads\": [");
        for (size_t j = 0; j < res->k; j++)
            used += (size_t)snprintf(extra + used, cap - used, "%s%.17g", j ? ", " : "", loads[j]);
        used += (size_t)snprintf(extra + used, cap - used, "]");
    }
    if (!ckm_problem_has_capacities(p))
        return;
    used += (size_t)snprintf(extra + used, cap - used, ", \"capacities\": [");
    for (size_t j = 0; j < res->k; j++) {
        double lo, hi;
        ckm_problem_capacity_bounds(p, j, &lo, &hi, NULL);
        if (isfinite(hi))
            used += (size_t)snprintf(extra + used, cap - used, "%s[%.17g, %.17g]", j ? ", " : "", lo, hi);
        else
            used += (size_t)snprintf(extra + used, cap - used, "%s[%.17g, null]", j ? ", " : "", lo);
    }
    snprintf(extra + used, cap - used, "]");
}

/* The labels, centers and JSON report the options ask for, each written atomically;
 * EXIT_SOLVED, or the exit code of the (printed) error. */
static int write_outputs(const char *cmd, const cli_opt *opts, const ckm_problem *p, const ckm_result *res,
                         const ckm_dataset *ds, const double *loads, const ckm_scores *sc, bool have_scores,
                         const char *data, int argc, char **argv)
{
    size_t d = ds->d;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc;
    char *json = NULL;
    if (opts[O_LABELS_OUT].value && res->has_labels &&
        (rc = ckm_write_labels(opts[O_LABELS_OUT].value, res->labels, res->n, &err)) != CKM_OK) {
        return cli_error(cmd, rc, &err);
    }
    if (opts[O_CENTERS_OUT].value && res->has_labels &&
        (rc = ckm_write_centers(opts[O_CENTERS_OUT].value, res->centers, res->k, d, &err)) != CKM_OK) {
        return cli_error(cmd, rc, &err);
    }
    if (opts[O_REPORT].value || opts[O_HTML].value) {
        size_t cap = 512 + 80 * res->k;
        char *extra = malloc(cap);
        if (!extra) {
            fprintf(stderr, "ckm %s: out of memory for the report\n", cmd);
            return EXIT_NOMEM;
        }
        size_t used = (size_t)snprintf(extra, cap,
                                       "\"must_links\": %zu, \"cannot_links\": %zu, \"soft_pairs\": %zu, \"standardized\": %s",
                                       ckm_problem_must_link_count(p), ckm_problem_cannot_link_count(p),
                                       ckm_problem_soft_pair_count(p), opts[O_DATA + CLI_DATA_STD].value ? "true" : "false");
        if (have_scores)
            used += (size_t)snprintf(extra + used, cap - used, ", \"ari\": %.17g, \"nmi\": %.17g, \"ami\": %.17g",
                                     sc->ari, sc->nmi, sc->ami);
        append_capacities(p, res, loads, extra, cap, used);
        rc = ckm_result_to_json(res, extra, &json, &err);
        free(extra);
        if (rc != CKM_OK || (opts[O_REPORT].value &&
                             (rc = ckm_write_file_atomic(opts[O_REPORT].value, json, strlen(json), &err)) != CKM_OK)) {
            ckm_free(json);
            return cli_error(cmd, rc, &err);
        }
    }
    int code = EXIT_SOLVED;
    if (opts[O_HTML].value && res->has_labels) {
        cli_html_args ha = {.path = opts[O_HTML].value, .data = data, .p = p, .labels = res->labels,
                            .truth = ds->labels, .json = json, .argc = argc, .argv = argv,
                            .verbose = opts[O_VERBOSE].value != NULL};
        code = cli_write_html(cmd, &ha);
    } else if (opts[O_HTML].value) {
        fprintf(stderr, "ckm %s: no labelling, so no HTML report (%s not written)\n", cmd, opts[O_HTML].value);
    }
    ckm_free(json);
    return code;
}

int cmd_cluster(int argc, char **argv)
{
    const char *cmd = "cluster";
    cli_opt opts[O_COUNT];
    memcpy(opts, cluster_options, sizeof opts);
    cli_cons_group_init(opts + O_CONS);
    cli_data_group_init(opts + O_DATA);
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, O_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[O_HELP].value) {
        usage(opts);
        return EXIT_SOLVED;
    }
    if (npos != 1) {
        fprintf(stderr, "ckm cluster: missing DATA file (see 'ckm cluster --help')\n");
        return EXIT_USAGE;
    }
    const char *data = pos[0];
    ckm_settings s;
    ckm_settings_default(&s);
    if (!parse_settings(cmd, opts, &s))
        return EXIT_USAGE;
    const char *v;
    bool quiet = opts[O_QUIET].value != NULL;
    if (opts[O_VERBOSE].value) {
        s.verbosity = atoi(opts[O_VERBOSE].value); /* 1, 2 or 3 */
        s.log = cli_log_stderr;
    }
    if (!outputs_ok(cmd, opts, data))
        return EXIT_USAGE;

#ifdef CKM_HAVE_MPI
    if (cli_mpi_launched())
        return run_mpi(opts, data, &s, quiet);
#endif
    int code = EXIT_INTERNAL;
    ckm_err err = {CKM_OK, ""};
    ckm_dataset *ds = NULL, *init = NULL;
    ckm_problem *p = NULL;
    ckm_result *res = NULL;
    ckm_check_report *loads = NULL; /* loads_of: the summary and the report share it */
    ckm_error rc;
    if ((code = cli_read_data(cmd, opts + O_DATA, data, &ds)) != EXIT_SOLVED)
        goto done;
    size_t k = ds->k_hint;
    if ((v = opts[O_K].value)) {
        if (!cli_size(cmd, "k", v, &k)) {
            code = EXIT_USAGE;
            goto done;
        }
    } else if (k == 0) {
        fprintf(stderr, "ckm cluster: -k K is required (the data file states no k)\n");
        code = EXIT_USAGE;
        goto done;
    }
    /* the problem borrows the points the dataset holds until the end: no second copy */
    if ((rc = ckm_problem_wrap(ds->X, ds->n, ds->d, k, &p, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    if ((code = cli_data_weights(cmd, opts + O_DATA, p)) != EXIT_SOLVED)
        goto done;
    if (opts[O_INIT_CENTERS].value) {
        if ((code = cli_read_centers(cmd, opts[O_INIT_CENTERS].value, k, ds->d, &init)) != EXIT_SOLVED)
            goto done;
        s.init_centers = init->X;
    }
    if ((code = cli_cons_apply(cmd, opts + O_CONS, p)) != EXIT_SOLVED)
        goto done;
    cli_catch_sigint(&s);
    /* the page's convergence plot, and the JSON report's trace (ckm report -r draws it later) */
    s.trace = opts[O_HTML].value != NULL || opts[O_REPORT].value != NULL;
    cli_progress bar;
    cli_progress_install(&bar, cmd, &s, quiet);
    rc = ckm_solve(p, &s, &res, &err);
    cli_progress_end(&bar);
    if (rc != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    code = status_exit(res);
    ckm_scores sc;
    bool have_scores = false;
    if (res->has_labels && ds->labels) {
        if ((rc = ckm_compare(ds->labels, res->labels, ds->n, &sc, &err)) != CKM_OK) {
            code = cli_error(cmd, rc, &err);
            goto done;
        }
        have_scores = true;
    }
    loads = loads_of(p, res);
    int wcode = write_outputs(cmd, opts, p, res, ds, loads ? loads->loads : NULL, &sc, have_scores, data, argc, argv);
    if (wcode != EXIT_SOLVED) {
        code = wcode;
        goto done;
    }
    if (res->status == CKM_STATUS_INFEASIBLE) {
        fprintf(stderr, "ckm cluster: infeasible: %s\n", res->message);
    } else if (!res->has_labels) {
        fprintf(stderr, "ckm cluster: %s: no feasible labelling%s%s\n", ckm_status_string(res->status),
                res->message[0] ? ": " : "", res->message);
    }
    if (!quiet && res->has_labels)
        print_summary(data, p, res, loads ? loads->loads : NULL, &sc, have_scores);
done:
    ckm_check_report_free(loads);
    ckm_result_free(res);
    ckm_problem_free(p);
    ckm_dataset_free(init);
    ckm_dataset_free(ds);
    return code;
}
