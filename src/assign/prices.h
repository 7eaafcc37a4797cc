/*
 * prices.h -- Lagrangian prices on the size and capacity rows of an assignment step
 * (prices.c has the bound and the ascent): the priced route's bound and labels, and the
 * restricted route's first prices for capacity steps. O(s k) memory (v) and time per sweep.
 */
#ifndef CKM_ASSIGN_PRICES_H
#define CKM_ASSIGN_PRICES_H

#include "backend.h"
#include "reduced.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ckm_prices_brk {
    double b; /* breakpoint */
    double a; /* coefficient */
} ckm_prices_brk;

typedef struct ckm_prices {
    size_t s, k, nrow;
    double *p, *pbest;   /* nrow prices (capacities p_j, then sizes pi_j) and the best g's; they
                            carry over from one ascent to the next */
    double *v;           /* s k: v_tj = c_tj - Q_t p_j - W_t pi_j after an ascent */
    int32_t *arg, *arg2; /* s: argmin of v_t. and the second */
    double *bv, *sv;     /* s: min and second min */
    ckm_prices_brk *b;   /* s scratch */
} ckm_prices;

/* Prices for r's rows (capacities when r->has_caps, sizes when r->has_sizes), all 0; NULL when
 * out of memory. */
ckm_prices *ckm_prices_new(const ckm_reduced *r);
void ckm_prices_free(ckm_prices *P);
/* Bytes of the prices' arrays for r (the memory model). */
double ckm_prices_bytes(const ckm_reduced *r);
/* The ascent of prices.c on the costs (s k) from the prices held: returns the best g, a lower
 * bound on the step's optimum (cannot-links relaxed), with P->p its prices and P->v, arg, bv
 * refreshed for them; *sweeps counts the sweeps. */
double ckm_prices_ascend(ckm_prices *P, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim,
                         size_t *sweeps);
/* The capacity price of cluster j (0 without capacity rows) and its size price (0 without
 * size rows), in the duals' sign: v_tj = c_tj - Q_t cap_price - W_t size_price. */
double ckm_prices_cap(const ckm_prices *P, const ckm_reduced *r, size_t j);
double ckm_prices_size(const ckm_prices *P, const ckm_reduced *r, size_t j);

#endif
