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

/* The bound of the subsets (certify_subset.c), shared by the workers of one ckm_certify call. */
typedef struct cert_job {
    const ckm_problem *p;       /* the caller's problem (pairs, bounds, weights, demands) */
    const double *X;            /* the points as the algorithms see them (scale.c) */
    const ckm_reduced *r;       /* groups of the whole problem */
    const ckm_context *ctx;     /* the run (deadline, stop, counters, log) */
    const ckm_settings *sub_s;  /* the subsets' settings: verbosity one lower */
    size_t T;
    const size_t *pt_start, *pts;     /* CSR: points of each subset, ascending */
    const size_t *pr_start, *prs;     /* CSR: pairs (indices into p->pairs) inside each subset */
    const double *incumbent;          /* T: restricted SSE of the labels, or INFINITY */
    const double *scatter;            /* T: the groups' own scatter */
    double demand_total;              /* sum of the demands (capacities only; 1 per point without) */
    const size_t *groups;             /* T: groups of each subset */
    double *bound;                    /* T: out, scaled units */
    ckm_certificate *c;
    atomic_size_t next;
    int workers;
    pthread_mutex_t lock;             /* guards rc, err, infeasible */
    ckm_error rc;
    ckm_err err;
    int infeasible;
} cert_job;

/* ckm_parallel_for body: take subsets from J->next until none is left (or a worker failed),
 * each bounded with its share of the time left; results in J->bound and J->c->subset. */
void ckm_certify_worker(void *arg, size_t begin, size_t end, int tid);

#endif
