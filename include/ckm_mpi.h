/*
 * ckm_mpi.h -- ckm over MPI: k-means and size-constrained k-means on points spread over the
 * ranks of a communicator, where no rank ever holds all points (docs/mpi.md), and the
 * certified bound of ckm_certify with its subsets spread over the ranks.
 *
 * Built only with -DCKM_MPI=ON (Open MPI from Debian: libopenmpi-dev); the library then
 * links MPI and exports these functions besides those of ckm.h.
 *
 * Model: rank r holds a contiguous block of rows; the global row order is rank order
 * (rank 0's rows first). Blocks may be uneven and may be empty. Every function here is
 * COLLECTIVE over the problem's communicator: all ranks call it, in the same order, with
 * the same scalar arguments (k, sizes, settings' algorithm/seed/n_init/max_iter/tol/
 * time limit). A failure on any rank (unreadable block, out of memory, bad value) is
 * returned on every rank with the same code and the message of the lowest failing rank
 * ("rank 2 of 4: ..."), so no rank waits for one that gave up.
 *
 * Reproducibility: every sum taken over the points (center sums, SSE, the seeding's
 * gains, the feature variance of the stopping rule) is exact in 128-bit fixed point on a
 * grid fixed by the global data range before it is rounded once to double, and the
 * seeding's running sum is the single-process sequential one carried across the ranks, so
 * labels, centers and SSE are bit for bit the same for any number of ranks and any split
 * of the rows. Against ckm_solve on the same points (one process), from the same seed or
 * the same initial centers, the labels are the same (centers and SSE agree to rounding:
 * the single-process sums round in another order); docs/mpi.md.
 */
#ifndef CKM_MPI_H
#define CKM_MPI_H

#include <mpi.h>

#include "ckm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ckm_mpi_problem ckm_mpi_problem;

/* Reads this rank's block of a 2-D '<f8' or '<f4' C-order .npy file by offset: rank r of
 * P gets rows [floor(r N / P), floor((r + 1) N / P)) (N = the file's rows). *X (n_local *
 * d doubles, free with ckm_free; NULL when n_local = 0), the block's first row, N and d are
 * returned. Values must be finite. Collective. */
CKM_API ckm_error ckm_mpi_read_npy(MPI_Comm comm, const char *path, double **X, size_t *n_local, size_t *first,
                                   size_t *n_total, size_t *d, ckm_err *err);
/* The same for per-rank files: this rank's rows are all of path (each rank passes its own
 * file; rank order is row order). Collective (d must agree). */
CKM_API ckm_error ckm_mpi_read_npy_part(MPI_Comm comm, const char *path, double **X, size_t *n_local,
                                        size_t *first, size_t *n_total, size_t *d, ckm_err *err);

/* A distributed problem over this rank's rows X (n_local x d, row-major, borrowed: keep
 * it alive and unchanged until ckm_mpi_problem_free). n_local may be 0 (X may be NULL
 * then). Checks on every rank: d >= 1 and k equal on all ranks, finite values,
 * 1 <= k <= N. The problem holds a duplicate of comm. Collective. */
CKM_API ckm_error ckm_mpi_problem_wrap(MPI_Comm comm, const double *X, size_t n_local, size_t d, size_t k,
                                       ckm_mpi_problem **out, ckm_err *err);
/* Collective (frees the duplicated communicator). NULL is a no-op on every rank. */
CKM_API void ckm_mpi_problem_free(ckm_mpi_problem *p);
CKM_API size_t ckm_mpi_problem_n_local(const ckm_mpi_problem *p);
CKM_API size_t ckm_mpi_problem_first(const ckm_mpi_problem *p);
CKM_API size_t ckm_mpi_problem_n_total(const ckm_mpi_problem *p);
/* Size bounds on every cluster, as ckm_problem_set_sizes / _set_size_range /
 * _set_balanced (balanced: floor(N/k) .. ceil(N/k)); without them every cluster has 1..N
 * rows, as ckm_problem's default (no empty cluster). The same values on every rank
 * (checked). Collective. */
CKM_API ckm_error ckm_mpi_problem_set_sizes(ckm_mpi_problem *p, const size_t *lo, const size_t *hi, ckm_err *err);
CKM_API ckm_error ckm_mpi_problem_set_size_range(ckm_mpi_problem *p, size_t lo, size_t hi, ckm_err *err);
CKM_API ckm_error ckm_mpi_problem_set_balanced(ckm_mpi_problem *p, ckm_err *err);

/* What the run sent, per rank: collective calls and the payload bytes this rank
 * contributed to them. */
typedef struct ckm_mpi_comm_stats {
    size_t allreduces;     /* MPI_Allreduce calls */
    size_t broadcasts;     /* MPI_Bcast calls */
    size_t bytes;          /* payload bytes of those calls (this rank's buffer sizes) */
    size_t lloyd_steps;    /* assignment steps over all restarts */
    size_t ssp_phases;     /* sizeflow: shortest-path phases (one k x k reduction each) */
    size_t augmentations;  /* sizeflow: units of flow moved by those phases */
    size_t sample_starts;  /* sizeflow: starts priced on a sample (far off the bounds) */
    size_t rescans;        /* sizeflow: pair lists rebuilt from their cluster's rows on this
                              rank (a list emptied by moves) */
    double comm_seconds;   /* wall time inside MPI calls on this rank */
} ckm_mpi_comm_stats;

typedef struct ckm_mpi_result {
    uint32_t struct_size;
    ckm_status status;       /* OPTIMAL is never claimed; FEASIBLE, INFEASIBLE, TIME_LIMIT,
                                INTERRUPTED */
    int has_labels;
    size_t n_local, first, n, d, k;
    int32_t *labels;         /* n_local labels of this rank's rows, or NULL */
    double *centers;         /* k*d means, identical on every rank, or NULL */
    size_t *sizes;           /* k global sizes, or NULL */
    double sse;              /* global SSE recomputed from the labels (exact sum); NAN
                                without labels */
    size_t violations;       /* size bounds violated by the labels (global check): 0 */
    double *prices;          /* sizeflow: k cluster prices of the last assignment step's
                                dual certificate (checked on all points), else NULL */
    size_t certificate_rows_checked; /* sizeflow: rows whose dual feasibility was checked
                                in the last step (N) */
    int iterations;          /* iterations of the best restart */
    int restarts;
    char algorithm[32];
    uint64_t seed;
    double seconds;
    char message[CKM_MESSAGE_LEN];
    ckm_mpi_comm_stats comm;
} ckm_mpi_result;

/* Runs s->algorithm ("kmeans" or "sizeflow"; others: CKM_ERR_UNSUPPORTED) on the
 * distributed problem. Settings read: algorithm, seed, n_init, max_iter, tol, init
 * (k-means++ or random), init_centers (the same on every rank), time_limit_s,
 * should_stop / interrupt (a stop seen on any rank stops all ranks at the same step),
 * verbosity / log (rank 0 logs). On CKM_OK every rank owns a result. Collective. */
CKM_API ckm_error ckm_mpi_solve(const ckm_mpi_problem *p, const ckm_settings *s, ckm_mpi_result **out,
                                ckm_err *err);
CKM_API void ckm_mpi_result_free(ckm_mpi_result *r);

/* Writes all N labels to path on rank 0, block by block in rank order (rank 0 never
 * holds more than the largest block): text (one 0-based id per line) or, for a path
 * ending in ".npy", a numpy int32 array; atomic (temporary file + rename). Collective. */
CKM_API ckm_error ckm_mpi_write_labels(const ckm_mpi_problem *p, const ckm_mpi_result *r, const char *path,
                                       ckm_err *err);

/* ckm_certify over the ranks of comm (docs/certify.md, "Over MPI"). Rank 0 passes the
 * problem and the labels; the other ranks pass NULL for both (they read nothing: rank 0
 * sends each the problems of its subsets). subsets and the settings are the same on every
 * rank (threads: each rank's own workers). Rank 0 splits exactly as ckm_certify does (the
 * same seed: the same subsets), deals the subsets to the ranks by estimated cost (largest
 * first, to the least loaded rank; rank 0 takes its share) and sums the subsets' bounds in
 * subset order: without a time limit that stops a subset, the bound and every subset's
 * bound are ckm_certify's, bit for bit, for any number of ranks. A stop (should_stop /
 * interrupt) or a failure on any rank stops every rank within about 10 ms plus one SDP
 * iteration; a failure returns the same code on every rank with the lowest failing rank's
 * message ("rank 2 of 4: ..."). Needs MPI_THREAD_FUNNELED (only the calling thread calls
 * MPI). On CKM_OK rank 0 owns the certificate (ranks, and the rank of each subset); the
 * other ranks get NULL. Collective. */
CKM_API ckm_error ckm_mpi_certify(MPI_Comm comm, const ckm_problem *p, const int32_t *labels, size_t subsets,
                                  const ckm_settings *s, ckm_certificate **out, ckm_err *err);

#ifdef __cplusplus
}
#endif

#endif
