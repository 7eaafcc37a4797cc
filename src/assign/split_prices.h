/*
 * split_prices.h -- the split route's sized step past its branch and cut's size
 * (route_split.c): Lagrangian prices on the size rows, so the step falls apart along its
 * pairs again.
 * For cluster prices p (k of them) and every labelling l inside the rows lo_j <= size_j(l) <= hi_j,
 * size_j(l) = sum_{l_t = j} w_t (w_t = the group's points),
 *   sum_j p_j size_j(l) >= sum_j p_j b_j,   b_j = lo_j where p_j > 0, hi_j where p_j < 0,
 * so the step's optimum is at least
 *   L(p) = min_l [ sum_t (cost_{t, l_t} - w_t p_{l_t}) + soft(l) ] + sum_j p_j b_j,
 * a minimum without the rows, which falls apart: the *bound* groups (a soft pair or a
 * cannot-link, or w_t != 1) by the split route's unsized step on the priced costs (dominance
 * fixing and an exact search per part), each *free* group (no pair, w_t = 1) at its cheapest
 * priced cluster. A labelling that attains the minimum, keeps the rows and has size_j = b_j
 * wherever p_j != 0 costs exactly L(p), so it is optimal.
 * Such prices come from the transportation problem of the free groups on the rows less what
 * the bound groups take, lo_j - P_j <= |F_j| <= hi_j - P_j (transport.h: its labels sit at
 * their cheapest cluster under its prices, with the complementary slackness above), once the
 * bound groups' priced optimum no longer moves under those prices:
 *   p_0 (the last step's) -> B(p_0) -> transport -> F_0, p_1 -> B(p_1) = B(p_0)? done : ...
 * The free groups are the many (87 % of 10^5 points with 7000 soft pairs), so a price moves
 * by a hair when the bound groups' sizes move by a few, and B rarely moves back.
 * The bound groups' problem is integral, so such prices need not exist: on 10^5 overlapping
 * points three groups flipped between two labellings for 40 rounds, 2.4e-9 of the objective
 * apart from L. Then the step branches on one flipping group g, which was at j in the last
 * labelling: g at j, or g anywhere else (its priced row INFINITY outside or at j), each
 * child's rounds from the prices its parent ended with; a node's bound is the larger of its
 * own rounds' best L and its children's smaller one. The step is proven when the cheapest
 * labelling inside the rows found anywhere is within CKM_SPLIT_PRICE_TOL of the root's bound.
 * The proof is checked, not assumed: every L(p) is recomputed from the costs
 * (ckm_split_prices_bound), so a solver's rounding cannot make a labelling proven.
 * Invariant: price holds the last transportation certificate (zeros before the first), kept
 * from one step to the next (the centers move little).
 */
#ifndef CKM_ASSIGN_SPLIT_PRICES_H
#define CKM_ASSIGN_SPLIT_PRICES_H

#include "backend.h"
#include "reduced.h"
#include "transport_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ckm_split_prices {
    size_t nf;             /* free groups */
    size_t *free;          /* nf: their indices */
    unsigned char *isfree; /* s */
    double *price;         /* k: p */
    double *keep;          /* k: p before a transportation solve (restored when it fails) */
    double *pcost;         /* s x k: cost - w p, INFINITY where a node's path forbids */
    double *fcost;         /* nf x k: the free groups' costs */
    int32_t *flab;         /* nf: the transportation problem's labels */
    int32_t *prev, *best;  /* s: a node's last labelling inside the rows; the step's cheapest */
    size_t *lo, *hi;       /* k: the free groups' rows */
    double *wsum;          /* k: the clusters' points when the caller's labels are checked */
    ckm_transport_ws *ws;
} ckm_split_prices;

/* The free groups of r (no soft pair, no cannot-link, one point) and the buffers; false when
 * out of memory (then ckm_split_prices_free still releases what was taken). */
bool ckm_split_prices_init(ckm_split_prices *P, const ckm_reduced *r);
void ckm_split_prices_free(ckm_split_prices *P);
/* Bytes of the buffers for r (the memory model). */
double ckm_split_prices_bytes(const ckm_reduced *r);

/* The unsized step (route_split.c, steps 1-3) on the s x k costs cost: labels of every group
 * keeping the cannot-links; *proven: every part's optimum found (so the labels attain the
 * minimum of the costs plus the soft penalty); *timed_out: the step's proof budget ran out. */
typedef ckm_error (*ckm_split_unsized_fn)(void *ctx, const double *cost, const int32_t *start,
                                          const ckm_bk_limits *lim, int32_t *labels, bool *proven,
                                          bool *timed_out, ckm_err *err);

typedef struct ckm_split_priced_out {
    bool have;        /* labels inside every row were found (written to the caller's labels) */
    bool proven;      /* their objective is within CKM_SPLIT_PRICE_TOL of bound */
    bool timed_out;   /* the step's proof budget (budget_s after the first labels) ran out */
    double objective; /* theirs: costs plus soft penalty */
    double bound;     /* a lower bound on the step's optimum (-INFINITY: none) */
    size_t rounds;    /* rounds of the unsized step over all nodes */
    size_t nodes;     /* nodes of the branching (1: the rounds settled) */
} ckm_split_priced_out;

/* The sized step by prices (the header): from the caller's labels (the incumbent when they keep
 * every row, and the searches' start) and the prices the last step left. Errors: out of
 * memory, the unsized step's. */
ckm_error ckm_split_prices_step(ckm_split_prices *P, const ckm_reduced *r, const double *cost, const int32_t *start,
                                const ckm_bk_limits *lim, double budget_s, ckm_split_unsized_fn unsized, void *ctx,
                                int32_t *labels, ckm_split_priced_out *out, ckm_err *err);

/* The pieces (exposed for tests): the free groups' costs of a new step; pcost under price; the
 * free groups' transportation problem given the bound groups' labels in labels (their rows
 * less what those take; *ok: the free groups' labels written into labels, which then keep
 * every size row, and price its certificate; else labels and price as they were: the bound
 * groups alone pass an upper bound, the free groups cannot meet the rows, or the limits
 * stopped it); and L(p) given labels whose bound groups attain the priced minimum under pcost
 * (their priced cost and soft penalty, each free group's least priced cost, sum_j p_j b_j). */
void ckm_split_prices_costs(ckm_split_prices *P, const ckm_reduced *r, const double *cost);
void ckm_split_prices_apply(ckm_split_prices *P, const ckm_reduced *r, const double *cost);
ckm_error ckm_split_prices_transport(ckm_split_prices *P, const ckm_reduced *r, int32_t *labels,
                                     const ckm_bk_limits *lim, bool *ok, ckm_err *err);
double ckm_split_prices_bound(const ckm_split_prices *P, const ckm_reduced *r, const double *cost,
                              const int32_t *labels);

#endif
