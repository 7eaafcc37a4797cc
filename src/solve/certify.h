/*
 * certify.h -- the decomposition behind ckm_certify (internal; docs/certify.md).
 *   certify_split.c  the split of the must-link groups into T subsets that each look like
 *                    the whole (anticlustering) and the choice of T;
 *   certify_subset.c one subset's problem and bound (the workers);
 *   certify.c        the driver: lists, the labels' restricted SSEs, the certificate.
 */
#ifndef CKM_CERTIFY_H
#define CKM_CERTIFY_H

#include "reduced.h"
#include "run.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct ckm_split_stats {
    double loss_dealt;  /* split loss after dealing (see ckm_certify_split), SSE units */
    double loss;        /* after the swaps */
    int sweeps;
    size_t swaps;
} ckm_split_stats;

/* Split r's s groups into T subsets (sub[t] in [0, T) for every group t), given one label per
 * group (glabel, in [0, k)). Every subset gets floor(s/T) or ceil(s/T) groups, and every
 * cluster's groups are dealt evenly (counts per subset differ by at most one). Then swaps of
 * two groups of the same cluster between two subsets lower the split loss
 *     loss = sum_t sum_j M_tj ||mu_tj - mu_j||^2
 * (M_tj, mu_tj: mass and weighted mean of cluster j's groups in subset t; mu_j: of all of
 * cluster j): by the parallel axis theorem the labelling's SSE equals the sum over subsets of
 * its SSE restricted to each (each cluster with the subset's own mean) plus this loss, so the
 * swaps raise the subsets' restricted SSEs, which bound their optima from above: the cheap
 * proxy of how high the subsets' bounds can go. Deterministic for a seed. */
ckm_error ckm_certify_split(const ckm_reduced *r, const int32_t *glabel, size_t T, uint64_t seed, size_t *sub,
                            ckm_split_stats *st, ckm_err *err);

/* Subsets for s groups and k clusters when the caller gives none: each subset's SDP root
 * (about CKM_CERTIFY_ITERATIONS iterations of the solver's cost model,
 * ckm_sdp_iteration_estimate_s) on `workers` threads within half of time_limit_s
 * (<= 0: none, then subsets of CKM_CERTIFY_DEFAULT_GROUPS groups), the memory of `workers`
 * relaxations within mem_bytes (< 0: unknown), at most CKM_SDP_MAX_GROUPS groups each, and
 * at least 4k + 1 groups each when s allows. */
#define CKM_CERTIFY_ITERATIONS 1000
#define CKM_CERTIFY_DEFAULT_GROUPS 400
size_t ckm_certify_subset_count(size_t s, size_t k, double time_limit_s, int workers, double mem_bytes);

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
