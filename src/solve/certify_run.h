/*
 * certify_run.h -- the phases of one ckm_certify run (certify.c), for ckm_certify itself and
 * for ckm_mpi_certify (src/mpi/dist_certify.c), which runs the same phases with the subsets
 * dealt to ranks:
 *   ckm_cert_start   the settings read and the run's context (clock, stop chain, counters);
 *   ckm_cert_begin   start, then the labels checked, the groups, T, the split, the lists and
 *                    the subsets' restricted SSEs and scatters (the certificate opened);
 *   ckm_cert_job     the job bounding subsets on this process (certify_subset.c);
 *   ckm_cert_finish  the subsets' bounds summed in subset order into the certificate, the
 *                    gap, the message, the counters.
 * The run holds the context the job reads: it stays where it is from start to ckm_cert_end.
 */
#ifndef CKM_CERTIFY_RUN_H
#define CKM_CERTIFY_RUN_H

#include "certify_subset.h"
#include "objective.h"
#include "solve.h"

/* The subsets' point and pair lists (CSR, points ascending), group counts, and per subset
 * the labels' restricted SSE (incumbent), the groups' scatter, the bound and, where the floor
 * is measured, the least SSE found for the subset alone (floor; else NULL) (scaled units). */
typedef struct cert_lists {
    size_t *pt_start, *pts, *pr_start, *prs, *groups;
    double *incumbent, *scatter, *bound, *floor;
} cert_lists;

typedef struct ckm_cert_run {
    ckm_settings s, sub_s;  /* the caller's settings as read; the subsets' (verbosity one lower) */
    ckm_stop_chain chain;
    ckm_counters counters;
    pthread_mutex_t log_lock;
    ckm_context ctx;
    ckm_progress_sink sink; /* the context's progress events (its trace goes to the certificate) */
    const ckm_problem *p;
    ckm_scaled sc;
    int have_sc;
    ckm_reduced *r;
    cert_lists L;
    ckm_certificate *c;
    int settled;            /* infeasible before any subset: nothing to bound */
    const int32_t *labels;  /* the caller's labels (a re-split reads them again) */
    int replan;             /* T chosen here for a time limit: ckm_certify may coarsen it */
    int threads;            /* workers of this process; mem: available memory (planning) */
    double mem;
    int live;               /* ckm_cert_start ran: ckm_cert_end has a lock to destroy */
} ckm_cert_run;

/* Settings (NULL: defaults) read and checked, the context started. */
ckm_error ckm_cert_start(ckm_cert_run *R, const ckm_settings *s, ckm_err *err);
/* ckm_cert_start, then everything before the bounds (see the header). On an error the run
 * still needs ckm_cert_end. */
ckm_error ckm_cert_begin(ckm_cert_run *R, const ckm_problem *p, const int32_t *labels, size_t subsets,
                         const ckm_settings *s, ckm_err *err);
/* J set up to bound every subset of the run on R->c->workers threads (J->ids NULL); the
 * caller may restrict it to ids[0..count) before ckm_cert_bound. */
void ckm_cert_job(ckm_cert_run *R, cert_job *J);
/* Run J's workers; J->rc (with J->err) is the first worker's failure. */
void ckm_cert_bound(cert_job *J);
/* The bounds of every subset (R->L.bound, R->c->subset, J's infeasibility) into the
 * certificate, handed to *out. */
void ckm_cert_finish(ckm_cert_run *R, const cert_job *J, ckm_certificate **out);
/* Frees what the run holds; a run that never started (all zero) is a no-op. */
void ckm_cert_end(ckm_cert_run *R);

#endif
