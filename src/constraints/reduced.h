/*
 * reduced.h -- the problem after constraint preprocessing (internal), which every
 * algorithm consumes.
 *   Must-link components (union-find) become s super-points with size |S_t| (weight[t],
 *   what size bounds count) and mass W_t = sum_{i in S_t} w_i (mass[t]; = |S_t| without
 *   sample weights, w_i = 1), weighted mean m_t = sum w_i x_i / W_t and scatter
 *   q_t = sum_{i in S_t} w_i ||x_i - m_t||^2, so for any center c
 *     sum_{i in S_t} w_i ||x_i - c||^2 = W_t ||m_t - c||^2 + q_t
 *   and SSE(labels) = sum_t W_t ||m_t - c_{l(t)}||^2 + sum_t q_t  (exact). Every objective
 *   term (costs, means, seeding, the SDP's scaling) uses mass; size rows use weight.
 *   Cannot-links are lifted to deduplicated super-point pairs (a < b).
 *   With k = 2, groups that chains of cannot-links force together are merged as well.
 *   Soft pairs (soft.c, docs/soft.md) are mapped to group pairs: one inside a group, or
 *   between groups a hard cannot-link separates, is decided by the hard constraints
 *   (redundant or always violated, counted, left out of the model); the others are summed
 *   per group pair with sign (+ must-link, - cannot-link), so opposite pairs net out:
 *   confidences m (ML) and c (CL) on one pair cost c + (m - c)[apart] if m >= c, which is
 *   the constant min(m, c) plus one soft pair of the difference. Group labels l then cost
 *     soft_P sum_e |soft_w_e| [violated_e(l)]
 *   in the objective, on top of the SSE (exact, up to that labelling-independent constant).
 * Capacities (docs/capacities.md): group t's demand Q_t = sum_{i in S_t} q_i (demand[t]);
 * a labelling must keep cap_lo[j] - cap_tol <= sum_{l(t) = j} Q_t <= cap_hi[j] + cap_tol.
 * Invariant: no cannot-link inside a component (that case is reported infeasible).
 */
#ifndef CKM_REDUCED_H
#define CKM_REDUCED_H

#include "ckm.h"

#include <stdbool.h>

typedef struct ckm_reduced {
    size_t n, d, k;
    const double *X;      /* n*d original points (borrowed from the problem) */
    size_t s;             /* super-points */
    size_t *comp;         /* n: point -> super-point */
    size_t *weight;       /* s: points in the super-point (size bounds count these) */
    double *mass;         /* s: sum of the members' sample weights (= weight when unweighted) */
    double total_mass;    /* sum_t mass[t] (= n when unweighted) */
    const double *w;      /* n sample weights (borrowed from the problem), or NULL */
    const double *mean;   /* s*d: mean_own, or X itself when every group is one point */
    double *mean_own;
    double scatter;       /* sum_t q_t: the constant part of the SSE */
    double tss;           /* total scatter sum_i ||x_i - mean of all points||^2: the SSE of
                             k = 1, an upper bound on the SSE of every labelling; the unit of
                             the absolute gap tolerance (core.h ckm_gap_closed) */
    double gap_scale;     /* what ipc and exact pass to ckm_gap_closed as tss:
                             max(tss, noise / CKM_GAP_ABS), noise = (2 n eps)^2 sum_t mass_t
                             ||mean_t||^2 bounding the rounding of any SSE computed here
                             (a mean of n equal values is off by at most n eps of them), so
                             identical points, whose tss and SSEs are rounding noise of 0,
                             close at once; far below 1e-12 tss on any other data */
    size_t *member_start; /* s+1: members of t are members[member_start[t] .. [t+1]) */
    size_t *members;      /* n point indices, grouped by super-point */
    size_t n_cl;
    size_t *cl;           /* 2*n_cl: lifted cannot-link pairs (a, b), a < b */
    const size_t *lo, *hi;/* k size bounds (borrowed from the problem) */
    int has_sizes;        /* bounds other than lo <= 1, hi >= n */
    int k2_merged;        /* k = 2: groups also joined by cannot-link chains (preprocess.c, 5.) */
    size_t n_soft;        /* soft group pairs in the model */
    size_t *soft;         /* 2*n_soft: (a, b), a < b, no hard cannot-link between them */
    double *soft_w;       /* n_soft net confidences: > 0 must-link, < 0 cannot-link, never 0 */
    size_t soft_redundant, soft_contradicted; /* input soft pairs the hard ones decide */
    double soft_P;        /* penalty per unit of confidence, in the algorithm's units: set by
                             the driver (ckm_solve) before an algorithm runs */
    int has_caps;         /* capacity bounds set (the problem's cap_lo / cap_hi) */
    double *demand;       /* s group demands Q_t when has_caps, else NULL */
    const double *cap_lo, *cap_hi; /* k capacity bounds (borrowed from the problem), or NULL */
    const double *q;      /* n point demands (borrowed from the problem), or NULL: all 1 */
    double cap_tol;       /* ckm_problem_capacity_tol: 1e-9 of the total demand */
} ckm_reduced;

/* Build the reduced problem and run the quick infeasibility proofs. *infeasible is set to
 * 1 with a one-line reason when a proof succeeds (then *out is still a valid reduction
 * unless the contradiction is a cannot-link inside a must-link component, when *out is
 * NULL). Errors only for allocation failure. */
ckm_error ckm_reduce(const ckm_problem *p, ckm_reduced **out, int *infeasible, char *reason,
                     size_t reason_len, ckm_err *err);
void ckm_reduced_free(ckm_reduced *r);

/* group_rows.c: does a group labelling (s labels in [0, k)) meet the size bounds, the
 * capacities (loads within the tolerance) and the lifted cannot-links? wsum (k) receives the
 * cluster weights. (Must-links hold by construction.) */
bool ckm_group_labels_feasible(const ckm_reduced *r, const int32_t *labels, double *wsum);
/* Whether no lifted cannot-link of r has both ends in one cluster (the last check of
 * ckm_group_labels_feasible, alone: certify's floor, where size bounds are not looked at). */
bool ckm_group_cannot_links_met(const ckm_reduced *r, const int32_t *labels);

/* soft.c: map p's soft pairs onto r's groups (clset: the lifted hard cannot-links). false
 * on allocation failure. */
struct ckm_pairset;
bool ckm_reduce_soft(const ckm_problem *p, ckm_reduced *r, const struct ckm_pairset *clset);
/* soft_P * sum_e |soft_w_e| [pair e violated by the group labels]: the model's penalty. */
double ckm_soft_cost(const ckm_reduced *r, const int32_t *labels);

#endif
