/*
 * cli.h -- the ckm command: one options table per subcommand, shared helpers for loading
 * inputs, guarding outputs and mapping outcomes to exit codes. The library does all the
 * work; this layer parses, prints and maps codes.
 *
 * Exit codes: 0 solved (optimal/feasible, or a limit with a feasible labelling),
 * 1 internal error, 2 usage or input error, 3 proven infeasible, 4 no feasible labelling
 * (limit reached or heuristic failure), 5 `ckm check` found violations, 6 out of memory
 * (the message names what was too large and how much it needed).
 */
#ifndef CKM_CLI_H
#define CKM_CLI_H

#include "ckm.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

enum { EXIT_SOLVED = 0, EXIT_INTERNAL = 1, EXIT_USAGE = 2, EXIT_INFEASIBLE = 3,
       EXIT_NO_LABELS = 4, EXIT_VIOLATIONS = 5, EXIT_NOMEM = 6 };

typedef struct cli_opt {
    const char *name;    /* long name without dashes */
    char short_name;     /* 0 = none */
    const char *metavar; /* NULL for a flag */
    const char *help;
    const char *value;   /* parsed value (a flag: "1", "2", "3" for given once, twice (-vv),
                            3+ times), NULL when absent */
} cli_opt;

/* Parse argv[first..] against opts (values stored in opts[i].value); positional
 * arguments go to pos (at most max_pos). Returns false after printing a usage error. */
bool cli_parse(const char *cmd, int argc, char **argv, int first, cli_opt *opts, size_t nopts,
               const char **pos, size_t max_pos, size_t *npos);
const char *cli_get(const cli_opt *opts, size_t nopts, const char *name);
/* some option of opts[first..last] was given */
bool cli_given(const cli_opt *opts, size_t first, size_t last);
void cli_print_options(const cli_opt *opts, size_t nopts);

/* Strict number parsing for option values; print "ckm CMD: --name: ..." on failure. */
bool cli_size(const char *cmd, const char *name, const char *v, size_t *out);
bool cli_u64(const char *cmd, const char *name, const char *v, uint64_t *out);
#define CLI_INT_MAX 1000000000
bool cli_int(const char *cmd, const char *name, const char *v, int min, int max, int *out);
bool cli_double(const char *cmd, const char *name, const char *v, double min, double *out);

/* Print "ckm CMD: message" for a library error; return the exit code for it. */
int cli_error(const char *cmd, ckm_error code, const ckm_err *err);
/* The exit code for a library error, without printing. */
int cli_exit_code(ckm_error code);

/* Fail (print, false) when out names the same file as any of inputs (NULL-terminated
 * list, NULL entries skipped). */
bool cli_output_ok(const char *cmd, const char *out, const char *const *inputs, size_t ninputs);

/* data_opts.c: the one option group for reading DATA, the same on every command that reads
 * it (cluster, check, certify, assign, report, eval). A command's option table holds the group at
 * [base, base + CLI_DATA_COUNT), filled by cli_data_group_init(opts + base) after the
 * table's copy; help prints it under its own heading (cli_print_data_options). */
enum { CLI_DATA_FORMAT, CLI_DATA_HEADER, CLI_DATA_LABEL_COL, CLI_DATA_STD, CLI_DATA_WEIGHTS, CLI_DATA_COUNT };
void cli_data_group_init(cli_opt *group);
void cli_print_data_options(const cli_opt *group);
/* the group's values are valid (format, header, label column); false after printing */
bool cli_data_check(const char *cmd, const cli_opt *group);
/* Read DATA as the group says (format, header, label column), standardized when asked;
 * EXIT_SOLVED, or the exit code of the printed error (*ds NULL then). */
int cli_read_data(const char *cmd, const cli_opt *group, const char *path, ckm_dataset **ds);
/* The group's --weights on p when given; EXIT_SOLVED or the exit code after printing. */
int cli_data_weights(const char *cmd, const cli_opt *group, ckm_problem *p);
/* The one parser of --time-limit: seconds >= 0, or with a unit s/m/h (90s, 1.5m, 2h), or
 * none (= 0, the settings' "no limit"); false after printing. */
bool cli_time_limit(const char *cmd, const char *v, double *seconds);

/* One value per point from path (ckm_values_read: one per line, or a .npy array; > 0, or
 * >= 0 with allow_zero; exactly n of them), handed to set (which validates it again); what
 * names a value in the messages. EXIT_SOLVED or the exit code after printing. */
int cli_add_per_point(const char *cmd, ckm_problem *p, const char *path, const char *what, int allow_zero,
                      ckm_error (*set)(ckm_problem *, const double *, ckm_err *));
/* k rows of d values (CSV or .npy, detected by content) into *out; EXIT_SOLVED or the
 * exit code of the (printed) error. */
int cli_read_centers(const char *cmd, const char *path, size_t k, size_t d, ckm_dataset **out);

/* Read a constraint file and add it to p; EXIT_SOLVED or the exit code after printing. */
int cli_add_constraints(const char *cmd, ckm_problem *p, const char *path);

/* cons_opts.c: the one option group for the constraints (pairs, sizes, demands,
 * capacities), the same on every command that builds a problem (cluster, check, certify,
 * assign, report), held in a command's table at [base, base + CLI_CONS_COUNT) like the data
 * options (cli_cons_group_init after the table's copy; help under its own heading). */
enum { CLI_CONS_PAIRS, CLI_CONS_MIN, CLI_CONS_MAX, CLI_CONS_SIZES, CLI_CONS_BAL, CLI_CONS_DEMANDS, CLI_CONS_MINCAP,
       CLI_CONS_MAXCAP, CLI_CONS_CAPS, CLI_CONS_COUNT };
void cli_cons_group_init(cli_opt *group);
void cli_print_cons_options(const cli_opt *group);
/* The group's pairs, then sizes, then demands and capacities onto p; EXIT_SOLVED or the exit
 * code after printing. */
int cli_cons_apply(const char *cmd, const cli_opt *group, ckm_problem *p);

/* Size options shared by cluster, check and assign: --min-size, --max-size, --sizes,
 * --balanced (at most one kind). */
bool cli_apply_sizes(const char *cmd, ckm_problem *p, const char *min_s, const char *max_s,
                     const char *sizes_file, const char *balanced);

/* Capacity options shared by cluster, check and assign (docs/capacities.md): --demands FILE
 * (one demand > 0 per line, n lines), then --min-capacity X / --max-capacity X (X >= 0,
 * max may be inf) or --capacities FILE (k lines 'lo hi', hi may be inf; or one exact
 * capacity); capacity bounds without --demands are refused. EXIT_SOLVED or the exit code
 * after printing. */
int cli_apply_capacities(const char *cmd, ckm_problem *p, const char *demands, const char *min_c, const char *max_c,
                         const char *caps_file);

/* --threads N >= 1: also cap OpenBLAS's process-wide thread count at N (blas_threads.c). */
void cli_cap_blas_threads(int n);

/* The MPI mode (cluster_mpi.c, built with -DCKM_MPI=ON): `ckm cluster` started by mpirun
 * runs the distributed solver (ckm_mpi.h). */
typedef struct cli_mpi_args {
    const char *data, *k, *min_size, *max_size, *sizes, *balanced, *init_centers;
    const char *labels_out, *centers_out, *report;
    const char *unsupported; /* the first option the MPI mode cannot take, or NULL */
    bool quiet;
} cli_mpi_args;
/* 1 when this process was started by an MPI launcher (mpirun / srun: its environment). */
int cli_mpi_launched(void);
int cli_mpi_cluster(const cli_mpi_args *a, ckm_settings *s);
/* After MPI_Init: ranks other than 0 keep option errors to themselves (cluster_mpi.c)
 * until the distributed run starts (cli_mpi_loud_again: their stderr back). */
void cli_mpi_quiet_options(void);
void cli_mpi_loud_again(void);

/* labelled.c: DATA (read by the data options), its labels (n lines), k (NULL: largest
 * label + 1) and the constraint options, as `check`, `certify` and `eval` take them; empty_ok: clusters may be empty unless sizes
 * say otherwise. EXIT_SOLVED, or the exit code of the (printed) error; the caller frees
 * *ds, *p (ckm_problem_free) and *labels (ckm_free) either way. */
typedef struct cli_labelled_args {
    const char *data, *labels, *k;
    const cli_opt *data_group; /* the command's data options (cli_read_data) */
    const cli_opt *cons_group; /* the command's constraint options (cli_cons_apply), or NULL: none */
    bool empty_ok;
} cli_labelled_args;
int cli_labelled_problem(const char *cmd, const cli_labelled_args *a, ckm_dataset **ds, ckm_problem **p,
                         int32_t **labels, size_t *k);

/* hooks.c: the first SIGINT sets s->should_stop's flag (the second kills); the log on stderr. */
void cli_catch_sigint(ckm_settings *s);
void cli_log_stderr(void *user, const char *line);

/* progress.c: the live status line on a terminal's stderr (nothing when stderr is not a
 * terminal, or quiet). Install before the run (it takes over s->log when -v set one, to clear
 * the line before each log line); cli_progress_end erases the line after it. */
typedef struct cli_progress {
    const char *cmd;
    bool certify;        /* BOUND events count subsets, not nodes */
    double time_limit_s; /* caps the ETA */
    pthread_mutex_t lock; /* guards what follows: the library's threads and the ticker */
    pthread_cond_t wake;
    pthread_t thread;    /* the ticker (ticking): redraws between events */
    bool ticking, stopping, have, shown; /* shown: a line is on the terminal */
    ckm_progress last;   /* the latest event, arrived at last_at */
    double last_at, last_draw;
} cli_progress;
void cli_progress_install(cli_progress *st, const char *cmd, ckm_settings *s, bool quiet);
void cli_progress_end(cli_progress *st);
/* a monotonic clock, seconds */
double cli_seconds(void);

/* html_out.c: the HTML report of labels (ckm_report_html) with the run's JSON report (or
 * NULL) and the command line, written atomically to path; EXIT_SOLVED or the printed error's
 * exit code. */
typedef struct cli_html_args {
    const char *path, *data;   /* the page, and the data file named in its title */
    const ckm_problem *p;
    const int32_t *labels, *truth; /* truth: n labels or NULL */
    const char *json;
    const char *json_path;     /* the file json came from (named in a parse error), or NULL */
    int argc;
    char **argv;
    size_t max_points;         /* 0: the library's default */
    bool verbose;              /* say where it went, its size and time */
} cli_html_args;
int cli_write_html(const char *cmd, const cli_html_args *a);

int cmd_cluster(int argc, char **argv);
int cmd_certify(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_assign(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
