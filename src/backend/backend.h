/*
 * backend.h -- the internal LP/MILP contract. Algorithms build a model in plain C arrays
 * (0-based, column-major CSC) and never see a COIN-OR type; lp_clp.cpp and mip_cbc.cpp
 * (C++, over COIN-OR's classes; coin_stop.hpp) are the only files that include COIN-OR
 * headers.
 *   min c'x  s.t.  row_lo <= A x <= row_hi,  col_lo <= x <= col_hi  (+ x integer for MILP)
 * Infinite bounds are +-CKM_BK_INF. Every call is self-contained (no model is reused) and
 * shares nothing with another call: any number of threads may solve at once, no lock.
 * Stops: the deadline and stop request of ckm_bk_limits are polled inside every simplex
 * iteration and at every branch-and-bound node, so a call returns one iteration (or one
 * cut pass) after a limit is reached.
 */
#ifndef CKM_BACKEND_H
#define CKM_BACKEND_H

#include "ckm.h"

#include <float.h>
#include <stdbool.h>

#define CKM_BK_INF DBL_MAX

/* Codes of a starting basis (ckm_lp.basis): one per column, then one per row (its slack). */
enum { CKM_LP_BASIC = 1, CKM_LP_AT_UPPER = 2, CKM_LP_AT_LOWER = 3 };

typedef struct ckm_lp {
    int ncols, nrows;
    const double *obj;              /* ncols */
    const double *col_lo, *col_hi;  /* ncols */
    const double *row_lo, *row_hi;  /* nrows */
    const int *col_start;           /* ncols + 1 */
    const int *row_index;           /* col_start[ncols] entries */
    const double *value;            /* col_start[ncols] entries */
    const unsigned char *basis;     /* ncols + nrows CKM_LP_* codes, nrows of them BASIC,
                                       dual feasible for obj: the dual simplex starts there;
                                       NULL: from the slack basis */
    unsigned char *basis_out;       /* ncols + nrows, or NULL: the optimal basis, written
                                       when the status is OPTIMAL (CLP's status codes) */
    bool primal;                    /* with basis: it is primal feasible instead (the same
                                       rows and bounds, another objective): the primal simplex
                                       starts there */
} ckm_lp;

typedef enum ckm_bk_status {
    CKM_BK_OPTIMAL = 0,    /* x optimal */
    CKM_BK_INFEASIBLE,     /* proven: no x satisfies the constraints */
    CKM_BK_LIMIT_FEASIBLE, /* time limit; x is the best feasible point found */
    CKM_BK_LIMIT_NONE,     /* time limit; no feasible point */
    CKM_BK_FAILED          /* numerical trouble / unbounded: x meaningless */
} ckm_bk_status;

typedef struct ckm_bk_result {
    ckm_bk_status status;
    double objective;  /* c'x when x is set */
    double bound;      /* MILP: best proven lower bound (or -inf); LP: = objective */
    double seconds;
    int stopped;       /* MILP: ended early by the stop request (not the deadline) */
    long nodes;        /* MILP: branch-and-bound nodes CBC processed */
} ckm_bk_result;

/* When a solve must end: an absolute ckm_now() deadline (INFINITY = none) and a stop
 * request (stop NULL = never), polled at most every 5 ms during LP and MILP solves. */
typedef struct ckm_bk_limits {
    double deadline;
    ckm_stop_fn stop;
    void *stop_user;
} ckm_bk_limits;

/* No deadline, no stop request (limits.c). */
ckm_bk_limits ckm_bk_no_limits(void);
/* A deadline passed or a stop was requested (lim NULL: never; limits.c). */
bool ckm_bk_limits_reached(const ckm_bk_limits *lim);
/* Which limit: 0 none, 1 the deadline passed, 2 a stop was requested (lim NULL: 0), so a
 * caller keeps the reason instead of asking the stop function again. */
int ckm_bk_limit_hit(const ckm_bk_limits *lim);

/* Solve the LP with CLP (dual simplex). x: ncols, written when status is OPTIMAL; dual
 * (nrows, or NULL): the row duals y then, such that the reduced cost of column j is
 * c_j - sum_i a_ij y_i (y_i >= 0 at a row's lower bound, <= 0 at its upper bound).
 * lim (NULL = none): a limit reached ends the simplex at its next iteration with
 * LIMIT_NONE (res->stopped = 1 for the stop request). */
ckm_error ckm_bk_lp(const ckm_lp *m, const ckm_bk_limits *lim, double *x, double *dual, ckm_bk_result *res,
                    ckm_err *err);

/* Solve with every column integer (CBC branch-and-cut, mip_cbc.cpp). start (ncols, or NULL) is a
 * feasible integer point: CBC then searches only strictly better points (objective
 * cutoff) and the start is returned when none exists (OPTIMAL) or none was found in time
 * (LIMIT_FEASIBLE). x: ncols, written when status is OPTIMAL or LIMIT_FEASIBLE.
 * lim (NULL = none): the deadline and stop request; a stop ends the search at CBC's next
 * simplex iteration or node (LIMIT_FEASIBLE with the best point so far, or LIMIT_NONE),
 * res->stopped = 1. */
ckm_error ckm_bk_mip(const ckm_lp *m, const ckm_bk_limits *lim, const double *start, double *x,
                     ckm_bk_result *res, ckm_err *err);

/* "Clp x.y.z, Cbc x.y.z" for reports. */
const char *ckm_bk_versions(void);

#endif
