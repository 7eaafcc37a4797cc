/*
 * admm_iterate.h -- the lp-box ADMM iteration of Bibi et al. (internal), kept apart from the
 * restart body (admm.c) so that tests/internal can watch the iterates.
 * The formulation and every update are derived in docs/formulations.md ("lp-box ADMM").
 */
#ifndef CKM_ADMM_H
#define CKM_ADMM_H

#include "algo.h"

typedef struct ckm_admm_ws ckm_admm_ws;

ckm_error ckm_admm_ws_init(ckm_admm_ws **out, const ckm_reduced *r, ckm_err *err);
void ckm_admm_ws_free(ckm_admm_ws *w);

typedef struct ckm_admm_info {
    int iterations;    /* ADMM iterations run */
    int converged;     /* the stopping rule held (else max_iter or a stop request) */
    int stopped;       /* a stop request (time limit / interrupt) ended the iteration */
    double residual;   /* final max primal residual (copies, rows, cannot-link products) */
    double binary_gap; /* final max_tj min(p_tj, 1 - p_tj) of the box copy p */
    double rho;        /* final penalty */
    double objective;  /* final continuous objective (see trace_f) */
    long skipped_v;    /* v-updates of a group skipped because its k x k system was not
                          positive definite (numerically); the old v is kept */
} ckm_admm_info;

/* Parameters of one run. */
typedef struct ckm_admm_params {
    int max_iter;    /* iteration cap */
    double tol;      /* stop when std(last 10 objectives) <= tol * |mean| and residual <= 1e-4 */
    double rho0;     /* initial penalty of every constraint (paper: 20) */
    double growth;   /* penalty factor every rho_every iterations (paper: 1.1 every 5) */
    int rho_every;
    double cost_weight; /* objective = cost_weight * D / mean(D at the start) */
} ckm_admm_params;

/* Run ADMM from the labelling start (s entries in [0, k), one-hot start point) and write
 * labels[t] = argmax_j p_tj (the rounded box copy). trace_f / trace_res (max_iter entries
 * each, or NULL) receive per iteration the continuous objective
 *   f = sum_tj w_t p_tj ||m_t - c_j||^2 + scatter,  c_j = sum_t w_t p_tj m_t / sum_t w_t p_tj
 * (the SSE when p is binary) and the max primal residual. The labels may still violate a
 * constraint when the iteration did not converge; the caller checks and repairs. */
ckm_error ckm_admm_iterate(ckm_admm_ws *w, const ckm_context *ctx, const ckm_admm_params *par, const int32_t *start,
                           int32_t *labels, ckm_admm_info *info, double *trace_f, double *trace_res, ckm_err *err);

#endif
