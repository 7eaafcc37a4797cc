/*
 * certify_subset.h -- one subset's problem and bound, the workers of ckm_certify
 * (certify_subset.c; docs/certify.md).
 */
#ifndef CKM_CERTIFY_SUBSET_H
#define CKM_CERTIFY_SUBSET_H

#include "reduced.h"
#include "run.h"

#include <pthread.h>
#include <stdatomic.h>

/* The bound of the subsets (certify_subset.c), shared by the workers of one ckm_certify call,
 * or of one rank of ckm_mpi_certify. Arrays of T entries are indexed by subset id t; a job
 * bounds ids[0..count) (ids NULL: 0..T) and fills only their entries. */
typedef struct cert_job {
    const ckm_problem *p;       /* the whole problem (pairs, bounds, weights, demands), or NULL
                                   when every subset's problem is given */
    const double *X;            /* the points as the algorithms see them (scale.c) */
    const ckm_reduced *r;       /* groups of the whole problem (with p) */
    ckm_problem **given;        /* T: subset t's problem handed over (taken, then freed by the
                                   worker; NULL where the bound needs none), or NULL: built
                                   from p (ckm_certify_subset_problem) */
    const size_t *points;       /* T: points of each subset, with given */
    const ckm_context *ctx;     /* the run (deadline, stop, counters, log) */
    const ckm_settings *sub_s;  /* the subsets' settings: verbosity one lower */
    size_t T, k;
    size_t count;               /* subsets of this job */
    const size_t *ids;          /* count subset ids in the order they are taken, or NULL */
    size_t from, upto;          /* ckm_cert_bound takes positions [from, upto) of the count
                                   (upto 0: count); each keeps the time share of its position */
    const size_t *pt_start, *pts;     /* CSR: points of each subset, ascending (with p) */
    const size_t *pr_start, *prs;     /* CSR: pairs (indices into p->pairs) inside each subset */
    const double *incumbent;          /* T: restricted SSE of the labels, or INFINITY */
    const double *scatter;            /* T: the groups' own scatter */
    double demand_total;              /* sum of the demands (capacities only; 1 per point without) */
    const size_t *groups;             /* T: groups of each subset */
    double *bound;                    /* T: out, scaled units */
    ckm_certify_subset *rec;          /* T: out, each subset's record (bound in scaled units) */
    atomic_size_t next;
    int workers;
    int launched;                     /* the workers ckm_cert_bound started (<= workers) */
    pthread_mutex_t lock;             /* guards rc, err, infeasible, reason */
    ckm_error rc;
    ckm_err err;
    atomic_int failed;                /* rc set: readable without the lock */
    int infeasible;
    char reason[CKM_MESSAGE_LEN];     /* the first infeasible subset's proof */
    double sse;                       /* the labels' SSE (scaled units), for progress events */
    double bound_so_far;              /* under lock: sum of the bounds, a subset not yet bounded
                                         at its scatter (progress events, whole runs only) */
    size_t done;                      /* under lock: subsets bounded */
    double until[CKM_MAX_THREADS];    /* under lock: the deadline of the subset worker tid is
                                         bounding, or -INFINITY while it bounds none (set so
                                         for every worker by ckm_cert_bound before they start) */
} cert_job;

/* Subset t of J's whole problem as a problem of its own (its points, weights, demands, the
 * pairs inside it, its size and capacity ranges); J->p must be set. */
ckm_error ckm_certify_subset_problem(const cert_job *J, size_t t, ckm_problem **out, ckm_err *err);

/* A subset problem whose optimum needs no search: at most k groups (each alone: their own
 * scatter) or k = 1 (all in one cluster: the total scatter). true with *opt set, else false. */
bool ckm_certify_subset_exact(const ckm_reduced *rs, double *opt);

/* When a subset starting at t0 must end: the time to the deadline D of every worker of the
 * job (W of them; this one is self), a busy worker's counted from the end of the subset it is
 * bounding (until[w] > t0), shared by the `left` subsets not yet started, this one included:
 *   t0 + [ (D - t0) + sum_{w != self} (D - max(t0, until[w]))^+ ] / left,  at most D.
 * With every worker idle this is t0 + (D - t0) min(W, left) / left, the even share; it stays
 * even when workers start at different times (W = 2, 6 subsets of an hour, each using its
 * share: 1200 s each, where counting only the subsets left gave 1200, 1440, 1200, 1440,
 * 1200 and 720 s), and time a subset gives back by ending early goes to those after it. */
double ckm_certify_share_end(double t0, double D, const double *until, int W, int self, size_t left);

/* ckm_parallel_for body: take subsets from J->next until none is left (or a worker failed),
 * each bounded with its share of the time left; results in J->bound and J->rec. */
void ckm_certify_worker(void *arg, size_t begin, size_t end, int tid);

#endif
