/*
 * dist.h -- internals of the MPI mode (ckm_mpi.h): the run context, error agreement, exact
 * fixed-point sums and the two distributed algorithms.
 *
 * Exact sums. A sum over points of doubles x_t with |x_t| <= B is taken as
 *   S = sum_t round(x_t 2^-e),  e = ilogb(B) + 1 - 82,
 * in a 128-bit integer: each term is at most 2^82 in magnitude, so up to 2^44 terms cannot
 * overflow, and integer addition is associative: S is the same for any order of the terms
 * and any split over ranks. S 2^e is then rounded once to double. The grid 2^e is B 2^-81 or
 * finer, far below the rounding of a double sum of the same terms (n B 2^-53).
 * B must be the same on every rank (a global maximum), so the grid is too.
 */
#ifndef CKM_DIST_H
#define CKM_DIST_H

#include "ckm_mpi.h"
#include "core.h"
#include "objective.h"

#include <math.h>
#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

__extension__ typedef __int128 ckm_xint;
__extension__ typedef unsigned __int128 ckm_uxint; /* products of row counts */

static inline ckm_xint ckm_x_term(double x, int e)
{
    /* x 2^-e: a multiplication by the power of two where it is a normal double (the same
       correctly rounded value as ldexp, without the call) */
    double v;
    if (e > -1000 && e < 1000) {
        uint64_t b = (uint64_t)(1023 - e) << 52;
        double s;
        memcpy(&s, &b, sizeof s);
        v = x * s;
    } else {
        v = ldexp(x, -e);
    }
    if (fabs(v) < 0x1p62)
        return (ckm_xint)llrint(v);
    /* |v| >= 2^62 is an integer (ulp >= 2^10): split exactly into hi 2^32 + lo */
    double hi = trunc(v * 0x1p-32);
    return (ckm_xint)(int64_t)hi * ((ckm_xint)1 << 32) + (ckm_xint)(int64_t)(v - hi * 0x1p32);
}

static inline double ckm_x_value(ckm_xint s, int e)
{
    return ldexp((double)s, e);
}

/* The grid exponent for terms bounded by B (B <= 0 or not finite: 0). */
int ckm_x_exponent(double B);

struct ckm_mpi_problem {
    MPI_Comm comm; /* a duplicate of the caller's */
    int rank, size;
    const double *X;
    size_t n, first, N, d, k;
    size_t *lo, *hi; /* k each: the size bounds (0 .. N without any) */
    bool sized;
    double xmax;     /* global max |x| */
    size_t *starts;  /* size + 1: rank r holds rows [starts[r], starts[r + 1]) */
};


/* A run: the communicator, the exact-sum type and operation, counters, limits. */
typedef struct ckm_dist {
    MPI_Comm comm;
    int rank, size;
    MPI_Datatype xt; /* one ckm_xint */
    MPI_Op xsum;
    ckm_mpi_comm_stats *st;
    const ckm_settings *set;
    double start, deadline;
    int max_iter; /* set->max_iter, or when 0 the algorithm's default_max_iter (ckm.h) */
} ckm_dist;

/* Waiting for another rank without taking a core from it (dist_wait.c): every blocking
 * exchange of the MPI mode is a nonblocking call completed here. Open MPI 4.1 waits in a
 * poll-and-yield loop, so on an oversubscribed or busy machine a waiting rank competes for
 * the CPU with the rank it waits for (measured: 4 ranks with two busy processes on 2 cores,
 * every exchange a time slice). ckm_dist_wait tests for 1 ms (a nonblocking collective
 * advances only inside MPI calls), then sleeps between tests, 20 us doubling to 100 us: at
 * most 100 us later than a spin, with the core free meanwhile. */
void ckm_dist_wait(MPI_Request *req);
/* The blocking calls the MPI mode uses, completed by ckm_dist_wait. */
void ckm_dist_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void ckm_dist_bcast_raw(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
void ckm_dist_allgather(const void *in, void *out, int count, MPI_Datatype type, MPI_Comm comm);
void ckm_dist_exscan(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
void ckm_dist_send(const void *buf, int count, MPI_Datatype type, int to, int tag, MPI_Comm comm);
void ckm_dist_recv(void *buf, int count, MPI_Datatype type, int from, int tag, MPI_Comm comm);

ckm_error ckm_dist_open(ckm_dist *c, MPI_Comm comm, const ckm_settings *set, ckm_mpi_comm_stats *st, ckm_err *err);
void ckm_dist_close(ckm_dist *c);
/* Counts a collective call (broadcast or reduction) of `bytes` started at t0 in the run's
 * stats. */
void ckm_dist_counted(ckm_dist *c, size_t bytes, bool bcast, double t0);
/* In-place allreduce of count elements of elem bytes (counted; sent in pieces of 2^28). */
void ckm_dist_reduce(ckm_dist *c, void *buf, size_t count, size_t elem, MPI_Datatype type, MPI_Op op);
/* In-place global sums / maxima over the ranks. */
void ckm_dist_sum_x(ckm_dist *c, ckm_xint *buf, size_t count);
void ckm_dist_sum_i64(ckm_dist *c, int64_t *buf, size_t count);
void ckm_dist_max(ckm_dist *c, double *buf, size_t count);
/* buf from root to all. */
void ckm_dist_bcast(ckm_dist *c, void *buf, size_t bytes, int root);
/* MINLOC over the ranks of k pairs (value, rank): ties go to the lowest rank. */
typedef struct ckm_dist_loc {
    double v;
    int rank;
} ckm_dist_loc;
void ckm_dist_minloc(ckm_dist *c, ckm_dist_loc *buf, size_t count);
/* Agreement after a step that may fail on some ranks: CKM_OK when rc is CKM_OK
 * everywhere; else every rank gets the lowest failing rank's code and message. */
ckm_error ckm_dist_agree(MPI_Comm comm, ckm_error rc, ckm_err *err);
/* A stop (should_stop, interrupt, deadline) seen on any rank: the same answer everywhere
 * (CKM_STATUS_INTERRUPTED before CKM_STATUS_TIME_LIMIT; CKM_STATUS_FEASIBLE: go on). */
ckm_status ckm_dist_stop(ckm_dist *c);
/* This rank's own view, without a reduction: 2 stop requested, 1 past the deadline, 0. */
int ckm_dist_stop_local(const ckm_dist *c);
void ckm_dist_log(const ckm_dist *c, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Exact sums need a workspace of xint: ckm_dist_means k*d + k + 1, ckm_dist_shift_tol d
 * (and d doubles). Collective helpers never fail once their buffers exist: algorithms
 * allocate first, agree, then run. */
/* Exact SSE of labels against centers over all ranks. */
double ckm_dist_sse(ckm_dist *c, const ckm_mpi_problem *p, const int32_t *lab, const double *C);
/* This rank's exact sums of its rows by label (k*d coordinates, then k counts), not reduced. */
void ckm_dist_local_sums(const ckm_mpi_problem *p, const int32_t *lab, ckm_xint *S);
/* From reduced sums S: count (k) and the means into C; a cluster without rows keeps its row
 * of C. */
void ckm_dist_means_of(const ckm_mpi_problem *p, const ckm_xint *S, int64_t *count, double *C);
/* Means of the labels (exact sums, one reduction); a cluster without points keeps its row
 * of C. count: k global sizes out. */
void ckm_dist_means(ckm_dist *c, const ckm_mpi_problem *p, const int32_t *lab, double *C, int64_t *count,
                    ckm_xint *ws);
/* tol * mean feature variance (exact sums): sklearn's and ckm's stopping threshold. */
double ckm_dist_shift_tol(ckm_dist *c, const ckm_mpi_problem *p, double tol, ckm_xint *ws, double *mu);
/* Initial centers: settings' init_centers, or k-means++ (greedy, 2 + ln k trials), or k
 * random distinct rows, drawn from rng (the same stream on every rank). */
ckm_error ckm_dist_seed(ckm_dist *c, const ckm_mpi_problem *p, ckm_init init, ckm_rng *rng, double *C, ckm_err *err);
/* With size bounds that differ between clusters, permute C so that the center with the
 * most nearest points takes the slot with the largest bound midpoint, and so on down
 * (as ckm_order_centers_by_size; ties by index). count: k int64, scratch: k d + 4 k
 * doubles. */
void ckm_dist_order_by_size(ckm_dist *c, const ckm_mpi_problem *p, double *C, int64_t *count, double *scratch);

/* Rows t[0..m) (global indices) into out (m x d) on every rank: the holder adds its row,
 * every other rank zeros, in one allreduce (exact). */
void ckm_dist_fetch_rows(ckm_dist *c, const ckm_mpi_problem *p, const size_t *t, size_t m, double *out);

/* The algorithms: out->labels/centers/sizes allocated by the caller. */
ckm_error ckm_dist_kmeans(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err);
ckm_error ckm_dist_sizeflow(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err);

#endif
