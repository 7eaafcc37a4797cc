/*
 * cluster_mpi.c -- `mpirun -np P ckm cluster DATA.npy -k K [-a kmeans|sizeflow] ...`: every
 * rank reads its own block of rows of the .npy file (by offset), the distributed solver
 * (ckm_mpi.h) runs, rank 0 prints the summary and writes the outputs (labels streamed
 * block by block, centers, JSON report), every rank exits with the same code.
 * Built only with -DCKM_MPI=ON; main.c initialises MPI when a launcher started us.
 */
#include "ckm_mpi.h"
#include "cli.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_mpi_launched(void)
{
    /* Open MPI (mpirun), PMIx and PMI-1/2 launchers (Slurm's srun) */
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static const char *cmd = "cluster";

/* Option errors are the same on every rank (the same argv): only rank 0 prints them. The
 * other ranks' stderr goes to /dev/null from MPI_Init until the distributed run starts
 * (then every rank's stderr is back, for anything unexpected; the run's own messages are
 * printed by rank 0 only). The ckm tool's state, not the library's. */
static int saved_stderr = -1;

void cli_mpi_quiet_options(void)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        return;
    int null = open("/dev/null", O_WRONLY);
    fflush(stderr);
    if (null >= 0 && (saved_stderr = dup(2)) >= 0)
        dup2(null, 2);
    if (null >= 0)
        close(null);
}

void cli_mpi_loud_again(void)
{
    if (saved_stderr < 0)
        return;
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
}

/* the code everywhere, printed once (rank 0) */
static int fail(int rank, ckm_error rc, const ckm_err *err)
{
    return rank == 0 ? cli_error(cmd, rc, err) : cli_exit_code(rc);
}

/* Options parsed on rank 0 and broadcast, so a bad value is reported once and every
 * rank takes the same branch. v: ok, k, lo, hi, kind (0 none, 1 range, 2 balanced, 3 file). */
static void parse_on_root(const cli_mpi_args *a, int rank, unsigned long long v[5])
{
    memset(v, 0, 5 * sizeof v[0]);
    if (rank == 0) {
        size_t k = 0, lo = 1, hi = SIZE_MAX;
        int kinds = (a->sizes != NULL) + (a->min_size || a->max_size) + (a->balanced != NULL);
        if (!a->k)
            fprintf(stderr, "ckm cluster: -k K is required\n");
        else if (kinds > 1)
            fprintf(stderr, "ckm cluster: give only one of --sizes, --min-size/--max-size, --balanced\n");
        else if (cli_size(cmd, "k", a->k, &k) && (!a->min_size || cli_size(cmd, "min-size", a->min_size, &lo)) &&
                 (!a->max_size || cli_size(cmd, "max-size", a->max_size, &hi)))
            v[0] = 1;
        v[1] = k;
        v[2] = lo;
        v[3] = hi;
        v[4] = a->min_size || a->max_size ? 1 : a->balanced ? 2 : a->sizes ? 3 : 0;
    }
    MPI_Bcast(v, 5, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
}

/* --sizes FILE: rank 0 reads it, every rank gets the bounds (or the error) */
static ckm_error sizes_file(const char *path, int rank, size_t k, size_t *lo, size_t *hi, ckm_err *err)
{
    struct {
        int code;
        char message[CKM_MESSAGE_LEN];
    } m;
    memset(&m, 0, sizeof m);
    if (rank == 0) {
        m.code = (int)ckm_sizes_read(path, k, lo, hi, err);
        if (m.code != CKM_OK)
            snprintf(m.message, sizeof m.message, "%s", err->message);
    }
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (m.code != CKM_OK) {
        err->code = (ckm_error)m.code;
        snprintf(err->message, sizeof err->message, "%s", m.message);
        return (ckm_error)m.code;
    }
    MPI_Bcast(lo, (int)k, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(hi, (int)k, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    return CKM_OK;
}

/* rank 0: the JSON report of the distributed run (its own fields: ranks and messages);
 * EXIT_SOLVED or the exit code of the printed error */
static int write_report(const char *path, const ckm_mpi_result *r, int size, size_t N, size_t d, size_t k)
{
    ckm_err err = {CKM_OK, ""};
    ckm_error rc;
    char buf[4096];
    int len = snprintf(buf, sizeof buf,
                       "{\"algorithm\": \"%s\", \"status\": \"%s\", \"mpi_ranks\": %d, \"n\": %zu, \"d\": %zu, "
                       "\"k\": %zu, \"sse\": %.17g, \"iterations\": %d, \"restarts\": %d, \"seed\": %llu, "
                       "\"seconds\": %.6f, \"allreduces\": %zu, \"broadcasts\": %zu, \"bytes_rank0\": %zu, "
                       "\"ssp_phases\": %zu, \"augmentations\": %zu, \"sample_starts\": %zu, \"rescans_rank0\": %zu, "
                       "\"comm_seconds_rank0\": %.6f, \"lloyd_steps\": %zu, \"message\": \"%s\"}\n",
                       r->algorithm, ckm_status_string(r->status), size, N, d, k, r->has_labels ? r->sse : 0.0,
                       r->iterations, r->restarts, (unsigned long long)r->seed, r->seconds, r->comm.allreduces,
                       r->comm.broadcasts, r->comm.bytes, r->comm.ssp_phases, r->comm.augmentations, r->comm.sample_starts,
                       r->comm.rescans, r->comm.comm_seconds, r->comm.lloyd_steps, r->message);
    if (len > 0 && (size_t)len < sizeof buf &&
        (rc = ckm_write_file_atomic(path, buf, (size_t)len, &err)) != CKM_OK)
        return cli_error(cmd, rc, &err);
    return EXIT_SOLVED;
}

/* rank 0: the summary on stdout of a run with labels */
static void print_summary(const char *data, const ckm_mpi_result *r, int size, size_t N, size_t d, size_t k)
{
    printf("ckm %s: %s on %s over %d MPI ranks (n = %zu, d = %zu, k = %zu)\n", ckm_version(), r->algorithm,
           data, size, N, d, k);
    printf("  status       %s%s%s\n", ckm_status_string(r->status), r->message[0] ? " - " : "", r->message);
    printf("  SSE          %.6f\n", r->sse);
    printf("  sizes       ");
    for (size_t j = 0; j < k; j++)
        printf(" %zu", r->sizes[j]);
    printf("\n  restarts     %d (the best after %d iterations), seed %llu\n", r->restarts, r->iterations,
           (unsigned long long)r->seed);
    printf("  messages     rank 0: %zu allreduces, %zu broadcasts, %.3f MB\n", r->comm.allreduces,
           r->comm.broadcasts, (double)r->comm.bytes / 1048576.0);
    printf("  time         %.3f s\n", r->seconds);
}

int cli_mpi_cluster(const cli_mpi_args *a, ckm_settings *s)
{
    cli_mpi_loud_again();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ckm_err err = {CKM_OK, ""};
    if (a->unsupported) {
        if (rank == 0)
            fprintf(stderr, "ckm cluster: %s is not available when run by mpirun (the MPI mode takes .npy points, "
                            "-k, size bounds, --init/--init-centers, --seed, --n-init, --max-iter, --tol, "
                            "--time-limit, -j and the outputs; docs/mpi.md)\n", a->unsupported);
        return EXIT_USAGE;
    }
    unsigned long long v[5];
    parse_on_root(a, rank, v);
    if (!v[0])
        return EXIT_USAGE;
    size_t k = (size_t)v[1];
    size_t *lo = NULL, *hi = NULL;
    double *X = NULL;
    size_t n = 0, first = 0, N = 0, d = 0;
    ckm_mpi_problem *p = NULL;
    ckm_mpi_result *r = NULL;
    ckm_dataset *init = NULL;
    int code = EXIT_INTERNAL;
    ckm_error rc = ckm_mpi_read_npy(MPI_COMM_WORLD, a->data, &X, &n, &first, &N, &d, &err);
    if (rc != CKM_OK) {
        code = fail(rank, rc, &err);
        goto done;
    }
    if ((rc = ckm_mpi_problem_wrap(MPI_COMM_WORLD, X, n, d, k, &p, &err)) != CKM_OK) {
        code = fail(rank, rc, &err);
        goto done;
    }
    if (v[4] == 1)
        rc = ckm_mpi_problem_set_size_range(p, (size_t)v[2], v[3] < N ? (size_t)v[3] : N, &err);
    else if (v[4] == 2)
        rc = ckm_mpi_problem_set_balanced(p, &err);
    else if (v[4] == 3) {
        lo = calloc(k, sizeof *lo);
        hi = calloc(k, sizeof *hi);
        int ok = lo && hi, all;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (!all) {
            code = EXIT_NOMEM;
            if (rank == 0)
                fprintf(stderr, "ckm cluster: out of memory for the size bounds\n");
            goto done;
        }
        rc = sizes_file(a->sizes, rank, k, lo, hi, &err);
        if (rc == CKM_OK)
            rc = ckm_mpi_problem_set_sizes(p, lo, hi, &err);
    }
    if (rc != CKM_OK) {
        code = fail(rank, rc, &err);
        goto done;
    }
    if (a->init_centers) {
        /* every rank reads the small k x d file itself; a failure anywhere is everyone's */
        int mine = cli_read_centers(cmd, a->init_centers, k, d, &init), worst;
        MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (worst != EXIT_SOLVED) {
            code = worst;
            goto done;
        }
        s->init_centers = init->X;
    }
    if ((rc = ckm_mpi_solve(p, s, &r, &err)) != CKM_OK) {
        code = fail(rank, rc, &err);
        goto done;
    }
    code = r->status == CKM_STATUS_INFEASIBLE ? EXIT_INFEASIBLE : r->has_labels ? EXIT_SOLVED : EXIT_NO_LABELS;
    if (a->labels_out && r->has_labels && (rc = ckm_mpi_write_labels(p, r, a->labels_out, &err)) != CKM_OK) {
        code = fail(rank, rc, &err);
        goto done;
    }
    if (rank == 0 && a->centers_out && r->has_labels &&
        (rc = ckm_write_centers(a->centers_out, r->centers, k, d, &err)) != CKM_OK)
        code = cli_error(cmd, rc, &err);
    if (rank == 0 && a->report) {
        int wcode = write_report(a->report, r, size, N, d, k);
        code = wcode != EXIT_SOLVED ? wcode : code;
    }
    MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank != 0)
        goto done;
    if (r->status == CKM_STATUS_INFEASIBLE)
        fprintf(stderr, "ckm cluster: infeasible: %s\n", r->message);
    else if (!r->has_labels)
        fprintf(stderr, "ckm cluster: %s: no labelling%s%s\n", ckm_status_string(r->status),
                r->message[0] ? ": " : "", r->message);
    if (!a->quiet && r->has_labels)
        print_summary(a->data, r, size, N, d, k);
done:
    free(lo);
    free(hi);
    ckm_mpi_result_free(r);
    ckm_mpi_problem_free(p);
    ckm_dataset_free(init);
    ckm_free(X);
    return code;
}
