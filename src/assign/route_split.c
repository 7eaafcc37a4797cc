/*
 * route_split.c -- the split route: a step with soft pairs whose other hard rows are
 * cannot-links and size bounds (no capacities). With only the lower size bounds of the
 * defaults (no cluster empty) it sets the size rows aside and the step falls apart along its
 * pairs:
 *   F(l) = sum_t a_{t, l_t} + sum_e cost_e(l),  a_tj = cost_tj at first,
 * and each part (a connected set of groups over the pairs) is an independent problem.
 *   1. A group without pairs takes its cheapest cluster.
 *   2. Dominance: a group t with no hard cannot-link to an unfixed group, whose row's least
 *      value a_tj* is below its second least by delta_t >= Pi_t = sum of P |w_e| over its
 *      soft pairs to unfixed groups, sits at j* in some optimum: moving it there from any j
 *      lowers its row by >= delta_t and changes its pairs' penalty by <= Pi_t, and keeps every
 *      cannot-link (its fixed cannot-linked groups' clusters are INFINITY in its row). It is
 *      fixed at j*, and its pairs move into its unfixed neighbours' rows (a soft must-link
 *      adds P |w| to every cluster but j*, a soft cannot-link to j*, a hard one forbids j*);
 *      repeated from a queue until no group qualifies. On blobs most paired groups are
 *      fixed this way; on small dense pair sets (PCCC's protocol) none are.
 *   3. The unfixed groups' parts, each searched exactly (split_search.h) within a work
 *      budget shared by the step (CKM_SPLIT_WORK: deterministic, no clock); parts met after
 *      the budget is spent get their first labelling that keeps the cannot-links. A part
 *      the search leaves open (at most CKM_PART_CUTS_MAX groups) goes to branch and cut on
 *      its clique-partition LP with cycle cuts (part_cuts.h), from the search's
 *      labels, within the step's proof budget (settings.step_limit_s, as CBC's; one budget
 *      for all the step's parts, from the first that goes there; once spent, the parts after
 *      keep the search's labels); its cuts and last basis are kept for the next step when
 *      the part is the same groups.
 *   4. When every part is proven and every cluster holds at least its lower bound of points,
 *      the labels are the step's optimum (the relaxation's optimum is feasible): OPTIMAL,
 *      bound = objective. When a branch and cut spent the step's proof budget, the labels
 *      (feasible) are returned unproven: LIMIT_FEASIBLE, res.cut, as the full route does after
 *      CBC's. Otherwise (a part past the budget, a cluster left empty, a part
 *      whose cannot-links admit no labelling) the step is handed on (res.hand_on) to the next
 *      route that applies (restricted, local or full: assign.c builds it at the first such
 *      step), started from these labels when they keep every hard row, else the caller's.
 * Sized step (size bounds beyond "no cluster empty", at most CKM_PART_CUTS_MAX groups): the
 * size rows tie every group to every other, so there is one part of all s groups (unpaired
 * ones too; no dominance fixing, which ignores the rows, and no depth-first search, which
 * cannot take them): part_cuts.h's branch and cut with the k size rows, from the caller's
 * labels when they keep every hard row, within the step's proof budget; then step 4 as above.
 * Measured on iris (k = 3, 782 soft pairs among 40 points, --min-size 40 --max-size 60):
 * every step proven, where CBC reached the 2 s step limit in every step (bench/README.md
 * "Soft pairs with size bounds").
 * Past CKM_PART_CUTS_MAX groups, and first where at least half the groups have no pair (the
 * branch and cut above after it when it proves nothing), the sized step goes by prices on the
 * size rows (split_prices.h): rounds of steps 1-3 above on the priced costs cost_tj - w_t p_j, the
 * groups without pairs placed by their transportation problem, whose certificate sets the next
 * prices, branching on a group the rounds move back and forth, within the step's proof budget;
 * proven when the labels meet the prices' Lagrangian bound. A step its budget ends returns its
 * labels (inside the rows) unproven with that bound, as CBC's; a step it leaves unproven
 * earlier (no labels, or its rounds and branching used up) is handed on as above.
 * Cost: O(s k) for the argmins plus O(pairs k) for the fixing, plus the searches.
 * Memory: incidence lists (16 s + 32 per pair), two k-rows per paired group, the searches'
 * stacks (k + 1 values per edge of a part), the branch and cut's (split_bytes);
 * assign.c adds the next route's.
 */
#include "core.h"
#include "incidence.h"
#include "part_cuts.h"
#include "route.h"
#include "route_split.h"
#include "split_prices.h"
#include "split_search.h"
#include "transport_types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Row entries the searches of a step may read and write over all its parts (split_search.h's
 * work) before it hands the step on: CKM_SPLIT_WORK, or CKM_SPLIT_WORK_PER_COST per entry of
 * the step's s x k costs when that is more (about 1 ns an entry, so a small multiple of the
 * costs' own computation). On PCCC's noisy sets (random pairs over a few hundred points: one
 * part of nearly every point, 3-23 pairs a group) the search rarely finishes; a larger budget
 * does not help there (with 3e7 the median run took 0.069 s against 0.007 s without the
 * route, docs/soft.md): branch and cut closes such parts instead. At 10^5 x 8, k = 20 with 2 x
 * 10^4 hard cannot-links, 2000 must-links and 7000 soft pairs (14,000+ parts of up to 31 groups, cannot-
 * links in most) a step's searches took 1.4-3 x 10^7 (separated blobs) and up to 2 x 10^8
 * (overlapping) to prove every part; handed on, the same step took CBC 10-120 s. */
#define CKM_SPLIT_WORK ((size_t)5000000)
#define CKM_SPLIT_WORK_PER_COST ((size_t)128)
/* Past this many pairs (soft and cannot-links) per group, and more than CKM_SPLIT_DENSE_PAIRS
 * pairs in all, the chooser passes the route by: the pair graph is then one giant part that
 * no search closes (a random graph has one once the mean degree passes 1; dominance breaks
 * some), and the route only delays the next one.
 * Measured at PCCC's scale (60,000 x 20, k = 100, 2 x 10^6 soft pairs: 33 per group): a run
 * 11.2 s and 445 MB with the route against 6.7 s and 292 MB without. At 10^5 x 8, k = 20, 7000
 * soft pairs (0.07 per group) it proves every step. */
#define CKM_SPLIT_PAIRS_PER_GROUP 4.0
/* A part of more groups is not searched (a node costs O(part)): it goes to the fallback. */
#define CKM_SPLIT_PART_MAX 2000
/* Up to this many pairs in all the route applies whatever their density: PCCC's protocol
 * (990-6441 random pairs over 215-569 points, up to 23 a group, one part of nearly every
 * point) is closed by branch and cut (part_cuts.h) where the search stops at its budget;
 * bench/README.md, "PCCC". */
#define CKM_SPLIT_DENSE_PAIRS 20000
/* Past this many costs (s k: 800 MB of matrices at 3 x 8 bytes each) the split route leaves
 * sized steps to the restricted model, which takes its costs from the centers. */
#define CKM_SPLIT_PRICED_COSTS ((size_t)1 << 25)
/* LP solves the branch and cut of one part may take before the step is handed on. */
#define CKM_SPLIT_CUT_LPS 100000

typedef struct split {
    size_t *ss, *sadj, *cs, *cadj; /* soft-pair and cannot-link incidence */
    size_t *slot;                  /* s: a paired group's row, SIZE_MAX for groups without pairs */
    size_t *paired, n_paired;      /* the paired groups */
    double *row;                   /* n_paired x k: a_t */
    unsigned char *fixed, *queued; /* n_paired */
    size_t *queue, *local;         /* n_paired: fixing queue; index inside its part */
    size_t *members, *pstart, *pnbr;
    double *pp, *pa;
    unsigned char *pkind;
    int32_t *pfrom, *plab;
    size_t *points;                /* k: points per cluster */
    ckm_part_pool cuts;             /* the last branch and cut's pool, for the part of groups */
    size_t *cut_members, cut_m;    /* (slots, in the part's order) */
    ckm_split_prices prices;       /* the priced sized step's (s > CKM_PART_CUTS_MAX) */
    double bound;                  /* its bound when it proved the step */
} split;

static void split_free(void *state)
{
    split *sp = state;
    if (!sp)
        return;
    void *arrays[] = {sp->ss, sp->sadj, sp->cs, sp->cadj, sp->slot, sp->paired, sp->row, sp->fixed, sp->queued,
                      sp->queue, sp->local, sp->members, sp->pstart, sp->pnbr, sp->pp, sp->pa, sp->pkind,
                      sp->pfrom, sp->plab, sp->points};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        free(arrays[i]);
    ckm_part_pool_free(&sp->cuts);
    free(sp->cut_members);
    ckm_split_prices_free(&sp->prices);
    free(sp);
}

/* size bounds beyond "no cluster empty" (read from the bounds themselves): the sized step */
static bool sized(const ckm_reduced *r)
{
    for (size_t j = 0; j < r->k && r->lo; j++)
        if (r->lo[j] > 1 || r->hi[j] < r->n)
            return true;
    return false;
}

/* the sized step by one branch and cut (every group one part) up to CKM_PART_CUTS_MAX groups */
static bool one_part(const ckm_reduced *r)
{
    return sized(r) && r->s <= CKM_PART_CUTS_MAX;
}

/* the sized step by prices (split_prices.h): past CKM_PART_CUTS_MAX groups, and first (the
 * branch and cut after it when it proves nothing) where at least half the groups have no pair
 * and one point (counted from above: 2 (q + m) paired at most). At 1000 x 8, k = 10, 200 soft
 * pairs, balanced, the branch and cut reached the step limit in each of 8 steps (16.5 s). */
static bool priced(const ckm_reduced *r)
{
    if (!sized(r))
        return false;
    if (r->s > CKM_PART_CUTS_MAX)
        return true;
    size_t heavy = 0, touched = 2 * (r->n_soft + r->n_cl);
    for (size_t t = 0; t < r->s; t++)
        heavy += r->weight[t] != 1;
    return touched + heavy <= r->s / 2;
}

static ckm_error split_init(void **state, const ckm_reduced *r, ckm_err *err)
{
    size_t s = r->s, k = r->k;
    split *sp = calloc(1, sizeof *sp);
    *state = sp;
    if (!sp || !ckm_incidence(s, r->n_soft, r->soft, &sp->ss, &sp->sadj) ||
        !ckm_incidence(s, r->n_cl, r->cl, &sp->cs, &sp->cadj))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the split route's pair lists");
    sp->slot = ckm_alloc_array(s, sizeof(size_t));
    if (!sp->slot)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the split route");
    for (size_t t = 0; t < s; t++)
        if (sp->ss[t + 1] > sp->ss[t] || sp->cs[t + 1] > sp->cs[t])
            sp->slot[t] = sp->n_paired++;
        else
            sp->slot[t] = SIZE_MAX;
    /* np: the parts' arrays (a sized step's one part holds every group) */
    size_t np = one_part(r) ? s : sp->n_paired, edges = 2 * (r->n_soft + r->n_cl);
    sp->paired = ckm_alloc_array(np + 1, sizeof(size_t));
    sp->row = ckm_alloc_array(sp->n_paired * k + 1, sizeof(double));
    sp->fixed = ckm_alloc_array(np + 1, 1);
    sp->queued = ckm_alloc_array(np + 1, 1);
    sp->queue = ckm_alloc_array(np + 1, sizeof(size_t));
    sp->local = ckm_alloc_array(np + 1, sizeof(size_t));
    sp->members = ckm_alloc_array(np + 1, sizeof(size_t));
    sp->pstart = ckm_alloc_array(np + 2, sizeof(size_t));
    sp->pnbr = ckm_alloc_array(edges + 1, sizeof(size_t));
    sp->pp = ckm_alloc_array(edges + 1, sizeof(double));
    sp->pkind = ckm_alloc_array(edges + 1, 1);
    sp->pa = ckm_alloc_array(np * k + 1, sizeof(double));
    sp->pfrom = ckm_alloc_array(np + 1, sizeof(int32_t));
    sp->plab = ckm_alloc_array(np + 1, sizeof(int32_t));
    sp->points = ckm_alloc_array(k, sizeof(size_t));
    sp->cut_members = ckm_alloc_array(np + 1, sizeof(size_t));
    if (!sp->cut_members || !sp->paired || !sp->row || !sp->fixed || !sp->queued || !sp->queue || !sp->local || !sp->members ||
        !sp->pstart || !sp->pnbr || !sp->pp || !sp->pkind || !sp->pa || !sp->pfrom || !sp->plab || !sp->points)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the split route");
    for (size_t t = 0; t < s; t++)
        if (sp->slot[t] != SIZE_MAX)
            sp->paired[sp->slot[t]] = t;
    if (priced(r) && !ckm_split_prices_init(&sp->prices, r))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the split route's prices");
    return CKM_OK;
}

static size_t argmin_row(const double *row, size_t k)
{
    size_t b = 0;
    for (size_t j = 1; j < k; j++)
        if (row[j] < row[b])
            b = j;
    return b;
}

/* The soft pairs' (hard = 0) or the cannot-links' (1) incidence: pair ids inc..adj of each
 * group, and the pairs themselves. */
typedef struct pair_list {
    const size_t *inc, *adj, *ab;
} pair_list;

static pair_list pairs_of(const split *sp, const ckm_reduced *r, int hard)
{
    return hard ? (pair_list){sp->cs, sp->cadj, r->cl} : (pair_list){sp->ss, sp->sadj, r->soft};
}

/* penalty of soft pair e (> 0) */
static double soft_p(const ckm_reduced *r, size_t e)
{
    return r->soft_P * fabs(r->soft_w[e]);
}

/* Step 2: whether paired group t (slot i) qualifies for fixing, and where (*at). */
static bool dominates(const split *sp, const ckm_reduced *r, size_t i, size_t *at)
{
    size_t t = sp->paired[i], k = r->k;
    for (size_t q = sp->cs[t]; q < sp->cs[t + 1]; q++)
        if (!sp->fixed[sp->slot[ckm_pair_other(r->cl, sp->cadj[q], t)]])
            return false;
    double pi = 0.0;
    for (size_t q = sp->ss[t]; q < sp->ss[t + 1]; q++) {
        size_t e = sp->sadj[q];
        if (!sp->fixed[sp->slot[ckm_pair_other(r->soft, e, t)]])
            pi += soft_p(r, e);
    }
    const double *row = sp->row + i * k;
    size_t b = argmin_row(row, k);
    double second = INFINITY;
    for (size_t j = 0; j < k; j++)
        if (j != b && row[j] < second)
            second = row[j];
    *at = b;
    return row[b] < INFINITY && second - row[b] >= pi;
}

/* Step 2 for every paired group: fixed groups get their labels, the others keep rows a_t
 * with their fixed neighbours' pairs in them. Returns how many were fixed. */
static size_t fix_dominated(split *sp, const ckm_reduced *r, const double *cost, int32_t *labels)
{
    size_t k = r->k, np = sp->n_paired, head = 0, tail = 0, nfixed = 0;
    for (size_t i = 0; i < np; i++) { /* a ring of np + 1 places: at most np queued at once */
        memcpy(sp->row + i * k, cost + sp->paired[i] * k, k * sizeof(double));
        sp->fixed[i] = 0;
        sp->queued[i] = 1;
        sp->queue[tail++] = i;
    }
    while (head != tail) {
        size_t i = sp->queue[head], at, t = sp->paired[i];
        head = (head + 1) % (np + 1);
        sp->queued[i] = 0;
        if (!dominates(sp, r, i, &at))
            continue;
        sp->fixed[i] = 1;
        nfixed++;
        labels[t] = (int32_t)at;
        for (int hard = 0; hard < 2; hard++) {
            pair_list pl = pairs_of(sp, r, hard);
            for (size_t q = pl.inc[t]; q < pl.inc[t + 1]; q++) {
                size_t e = pl.adj[q], u = sp->slot[ckm_pair_other(pl.ab, e, t)];
                if (sp->fixed[u])
                    continue;
                double *row = sp->row + u * k;
                if (hard)
                    row[at] = INFINITY;
                else
                    ckm_pair_pay(row, k, at, soft_p(r, e), r->soft_w[e] > 0.0);
                if (!sp->queued[u]) {
                    sp->queued[u] = 1;
                    sp->queue[tail] = u;
                    tail = (tail + 1) % (np + 1);
                }
            }
        }
    }
    return nfixed;
}

/* Edge entry ne of the parts' CSR: the far end u, and pair e's penalty and kind. */
static void put_edge(split *sp, const ckm_reduced *r, int hard, size_t e, size_t ne, size_t u)
{
    sp->pnbr[ne] = u;
    sp->pp[ne] = hard ? 0.0 : soft_p(r, e);
    sp->pkind[ne] = hard ? CKM_EDGE_HARD : r->soft_w[e] > 0.0 ? CKM_EDGE_MUST : CKM_EDGE_CANNOT;
}

/* The part of unfixed paired group (slot) root: its members (sp->members, local indices in
 * sp->local), edges (CSR in pstart/pnbr/pp/pkind) and rows (pa), in one breadth-first pass:
 * members are taken in discovery order, so member i's edges are written when it is taken,
 * their far ends as slots, made local once every member is known. Returns its size. */
static size_t gather_part(split *sp, const ckm_reduced *r, size_t root)
{
    size_t k = r->k, m = 0, ne = 0;
    sp->local[root] = m;
    sp->members[m++] = root;
    for (size_t i = 0; i < m; i++) {
        size_t t = sp->paired[sp->members[i]];
        sp->pstart[i] = ne;
        memcpy(sp->pa + i * k, sp->row + sp->members[i] * k, k * sizeof(double));
        for (int hard = 0; hard < 2; hard++) {
            pair_list pl = pairs_of(sp, r, hard);
            for (size_t q = pl.inc[t]; q < pl.inc[t + 1]; q++) {
                size_t e = pl.adj[q], u = sp->slot[ckm_pair_other(pl.ab, e, t)];
                if (sp->fixed[u])
                    continue;
                if (sp->local[u] == SIZE_MAX) {
                    sp->local[u] = m;
                    sp->members[m++] = u;
                }
                put_edge(sp, r, hard, e, ne++, u);
            }
        }
    }
    sp->pstart[m] = ne;
    for (size_t q = 0; q < ne; q++)
        sp->pnbr[q] = sp->local[sp->pnbr[q]];
    return m;
}

/* A sized step's one part: every group in its own order, its pairs and its row of the step's costs. */
static void gather_all(split *sp, const ckm_reduced *r, const double *cost)
{
    size_t ne = 0;
    memcpy(sp->pa, cost, r->s * r->k * sizeof(double));
    for (size_t t = 0; t < r->s; t++) {
        sp->pstart[t] = ne;
        for (int hard = 0; hard < 2; hard++) {
            pair_list pl = pairs_of(sp, r, hard);
            for (size_t q = pl.inc[t]; q < pl.inc[t + 1]; q++)
                put_edge(sp, r, hard, pl.adj[q], ne++, ckm_pair_other(pl.ab, pl.adj[q], t));
        }
    }
    sp->pstart[r->s] = ne;
}

/* The work the searches of a step on r may take (CKM_SPLIT_WORK above). */
static size_t work_budget(const ckm_reduced *r)
{
    size_t per_cost = CKM_SPLIT_WORK_PER_COST * r->s * r->k;
    return per_cost > CKM_SPLIT_WORK ? per_cost : CKM_SPLIT_WORK;
}

/* Step 3: every part searched within the step's work budget. *proven: each part's optimum
 * found; *complete: every group labelled, keeping the hard cannot-links. A part met past the
 * budget is still labelled (its first labelling, or the caller's start), as is a part too large
 * to search when the start keeps its cannot-links, so a step handed on starts from labels that
 * keep every cannot-link where some exist. Errors: out of memory. */
static ckm_error search_parts(split *sp, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *lim,
                              double budget_s, int32_t *labels, ckm_assign_result *res, bool *proven, bool *complete,
                              bool *timed_out, ckm_err *err)
{
    size_t np = sp->n_paired, used = 0, budget = work_budget(r);
    *proven = *complete = true;
    *timed_out = false;
    ckm_bk_limits step_proof = *lim;
    bool proof_set = false;
    for (size_t i = 0; i < np; i++)
        sp->local[i] = SIZE_MAX;
    for (size_t i = 0; i < np; i++) {
        if (sp->fixed[i] || sp->local[i] != SIZE_MAX)
            continue;
        size_t m = gather_part(sp, r, i);
        res->stat[CKM_SPLIT_PARTS]++;
        res->stat[CKM_SPLIT_LARGEST] = m > res->stat[CKM_SPLIT_LARGEST] ? m : res->stat[CKM_SPLIT_LARGEST];
        for (size_t q = 0; q < m && start; q++)
            sp->pfrom[q] = start[sp->paired[sp->members[q]]];
        ckm_part pt = {m, r->k, sp->pa, sp->pstart, sp->pnbr, sp->pp, sp->pkind, NULL, NULL, NULL};
        ckm_part_result pr = {false, INFINITY, 0, 0};
        if (m > CKM_SPLIT_PART_MAX) {
            if (start && (pr.value = ckm_part_value(&pt, sp->pfrom)) < INFINITY)
                memcpy(sp->plab, sp->pfrom, m * sizeof(int32_t));
        } else if (!ckm_part_search(&pt, start ? sp->pfrom : NULL, budget - used, lim, sp->plab, &pr)) {
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the split route's search");
        }
        used += pr.work < budget - used ? pr.work : budget - used;
        res->stat[CKM_SPLIT_NODES] += pr.nodes;
        if (!pr.done && m <= CKM_PART_CUTS_MAX && !*timed_out) {
            /* from the search's labelling, or the caller's where the search found none; one
               proof budget for the step's parts together (its deadline set at the first), and
               none held to it once it has passed */
            const int32_t *from = pr.value < INFINITY ? sp->plab : start ? sp->pfrom : NULL;
            if (!proof_set && from) {
                step_proof = ckm_proof_limits(lim, budget_s, true);
                proof_set = true;
            }
            ckm_bk_limits proof = from ? step_proof : *lim;
            ckm_part_result cr;
            /* the last pool where the part is the same groups in the same order (so the same
               edges and columns: the next Lloyd step of a part dominance leaves alone) */
            if (sp->cut_m != m || memcmp(sp->cut_members, sp->members, m * sizeof(size_t)) != 0)
                ckm_part_pool_free(&sp->cuts);
            memcpy(sp->cut_members, sp->members, m * sizeof(size_t));
            sp->cut_m = m;
            ckm_error rc = ckm_part_cuts(&pt, from, CKM_SPLIT_CUT_LPS, true, &proof, &sp->cuts, sp->plab, &cr, err);
            if (rc != CKM_OK)
                return rc;
            *timed_out = *timed_out || (!cr.done && ckm_bk_limits_reached(&proof) && !ckm_bk_limits_reached(lim));
            res->stat[CKM_SPLIT_CUT]++;
            res->stat[CKM_SPLIT_LPS] += cr.work;
            if (cr.value < INFINITY || cr.done)
                pr = cr;
        }
        *proven = *proven && pr.done && pr.value < INFINITY;
        *complete = *complete && pr.value < INFINITY;
        for (size_t q = 0; q < m && pr.value < INFINITY; q++)
            labels[sp->paired[sp->members[q]]] = sp->plab[q];
    }
    return CKM_OK;
}

/* The sized step (size bounds: the step no longer falls apart along its pairs): one part of
 * every group with the k size rows, by branch and cut from the caller's labels when they keep
 * every hard row (else from them, or each group's cheapest cluster, repaired into the size
 * rows; else from the LP's roundings), within the step's proof budget; its cuts and
 * basis kept for the next step (the same part every step). Same outputs as search_parts. */
static ckm_error solve_sized(split *sp, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                             const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, bool *proven,
                             bool *complete, bool *timed_out, ckm_err *err)
{
    size_t s = r->s;
    gather_all(sp, r, c->cost);
    ckm_part pt = {s, r->k, sp->pa, sp->pstart, sp->pnbr, sp->pp, sp->pkind, r->weight, r->lo, r->hi};
    /* a start inside every hard row: the caller's, else theirs (or each group's cheapest
       cluster) repaired into the size rows; then the step's proof budget applies */
    if (start)
        memcpy(sp->pfrom, start, s * sizeof(int32_t));
    for (size_t t = 0; t < s && !start; t++)
        sp->pfrom[t] = (int32_t)argmin_row(c->cost + t * r->k, r->k);
    bool holding = ckm_part_value(&pt, sp->pfrom) < INFINITY ||
                   (ckm_part_repair(&pt, sp->pfrom, sp->points) && ckm_part_value(&pt, sp->pfrom) < INFINITY);
    ckm_bk_limits proof = ckm_proof_limits(lim, c->budget_s, holding);
    ckm_part_result cr;
    ckm_error rc = ckm_part_cuts(&pt, holding ? sp->pfrom : NULL, CKM_SPLIT_CUT_LPS, true, &proof, &sp->cuts, sp->plab,
                                 &cr, err);
    if (rc != CKM_OK)
        return rc;
    res->stat[CKM_SPLIT_PARTS] = res->stat[CKM_SPLIT_CUT] = res->stat[CKM_SPLIT_WHOLE] = 1;
    res->stat[CKM_SPLIT_LARGEST] = s;
    res->stat[CKM_SPLIT_NODES] = cr.nodes;
    res->stat[CKM_SPLIT_LPS] = cr.work;
    *complete = cr.value < INFINITY;
    *proven = cr.done && *complete;
    *timed_out = !cr.done && ckm_bk_limits_reached(&proof) && !ckm_bk_limits_reached(lim);
    if (*complete)
        memcpy(labels, sp->plab, s * sizeof(int32_t));
    return CKM_OK;
}

/* Every cluster holds its size bounds' points (the lower ones are the hard rows the unsized
 * step sets aside; the sized step's branch and cut kept them all). */
static bool sizes_hold(split *sp, const ckm_reduced *r, const int32_t *labels)
{
    memset(sp->points, 0, r->k * sizeof(size_t));
    for (size_t t = 0; t < r->s; t++)
        sp->points[labels[t]] += r->weight[t];
    for (size_t j = 0; j < r->k; j++)
        if (sp->points[j] < (r->lo ? r->lo[j] : 1) || (r->hi && sp->points[j] > r->hi[j]))
            return false;
    return true;
}

/* Steps 1-3 of the unsized step (the file's header). */
static ckm_error solve_split(split *sp, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                             const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, bool *proven,
                             bool *complete, bool *timed_out, ckm_err *err)
{
    size_t k = r->k;
    for (size_t t = 0; t < r->s; t++)
        if (sp->slot[t] == SIZE_MAX)
            labels[t] = (int32_t)argmin_row(c->cost + t * k, k);
    res->stat[CKM_SPLIT_PAIRED] = sp->n_paired;
    res->stat[CKM_SPLIT_FIXED] = fix_dominated(sp, r, c->cost, labels);
    return search_parts(sp, r, start, lim, c->budget_s, labels, res, proven, complete, timed_out, err);
}

/* The unsized step (steps 1-3) as the priced sized step calls it (split_prices.h) */
typedef struct unsized_call {
    split *sp;
    const ckm_reduced *r;
    const ckm_step_costs *c;
    ckm_assign_result *res;
} unsized_call;

static ckm_error unsized(void *ctx, const double *cost, const int32_t *start, const ckm_bk_limits *lim,
                         int32_t *labels, bool *proven, bool *timed_out, ckm_err *err)
{
    unsized_call *u = ctx;
    ckm_step_costs pc = *u->c;
    pc.cost = cost;
    bool complete;
    ckm_error rc = solve_split(u->sp, u->r, &pc, start, lim, labels, u->res, proven, &complete, timed_out, err);
    *proven = *proven && complete;
    return rc;
}

/* The sized step past CKM_PART_CUTS_MAX groups: by prices on the size rows (split_prices.h),
 * the unsized step on the priced costs in each round. Same outputs as search_parts;
 * sp->bound = the prices' bound when proven. */
static ckm_error solve_priced(split *sp, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                              const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, bool *proven,
                              bool *complete, bool *timed_out, ckm_err *err)
{
    unsized_call u = {sp, r, c, res};
    ckm_split_priced_out out;
    ckm_error rc = ckm_split_prices_step(&sp->prices, r, c->cost, start, lim, c->budget_s, unsized, &u, labels, &out, err);
    if (rc != CKM_OK)
        return rc;
    res->stat[CKM_SPLIT_PRICED] = out.rounds;
    res->stat[CKM_SPLIT_PRICE_NODES] = out.nodes;
    *proven = out.proven;
    *complete = out.have;
    *timed_out = out.timed_out;
    sp->bound = fmin(out.bound, out.objective);
    return CKM_OK;
}

static ckm_error split_solve(void *state, const ckm_reduced *r, const ckm_step_costs *c, const int32_t *start,
                             const ckm_bk_limits *lim, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    split *sp = state;
    bool proven, complete, timed_out;
    ckm_error rc = (priced(r) ? solve_priced : one_part(r) ? solve_sized : solve_split)(
        sp, r, c, start, lim, labels, res, &proven, &complete, &timed_out, err);
    if (rc == CKM_OK && priced(r) && one_part(r) && !proven && !timed_out && !ckm_bk_limits_reached(lim)) {
        /* the branch and cut after the prices, from their labels when they found some; a pool
           the rounds left is a part's, not the whole step's */
        if (sp->cut_m) {
            ckm_part_pool_free(&sp->cuts);
            sp->cut_m = 0;
        }
        rc = solve_sized(sp, r, c, complete ? sp->prices.best : start, lim, labels, res, &proven, &complete,
                         &timed_out, err);
        if (proven)
            sp->bound = ckm_step_total(r, c->cost, labels);
    }
    if (rc != CKM_OK)
        return rc;
    bool feasible = complete && sizes_hold(sp, r, labels);
    if (proven && feasible) {
        res->status = CKM_BK_OPTIMAL;
        res->has_bound = 1;
        res->bound = priced(r) ? sp->bound : ckm_step_total(r, c->cost, labels);
        return CKM_OK;
    }
    if (timed_out && feasible) { /* the step's proof budget spent: its best labels, as CBC's */
        res->status = CKM_BK_LIMIT_FEASIBLE;
        res->cut = 1;
        res->has_bound = priced(r) && sp->bound > -INFINITY;
        res->bound = sp->bound;
        return CKM_OK;
    }
    int hit = ckm_bk_limit_hit(lim);
    if (hit && (feasible || start)) { /* the run's limit, not the search's */
        if (!feasible)
            memcpy(labels, start, r->s * sizeof(int32_t));
        res->status = CKM_BK_LIMIT_FEASIBLE;
        res->stopped = hit == 2;
        return CKM_OK;
    }
    res->hand_on = 1;
    res->hand_on_labels = feasible;
    return CKM_OK;
}

static void split_describe(const ckm_assign_result *res, const ckm_reduced *r, char *buf, size_t len)
{
    int w0 = 0;
    if (priced(r)) {
        w0 = snprintf(buf, len, ", the size rows priced (%zu rounds with the free groups' transportation problem, %zu nodes)",
                      res->stat[CKM_SPLIT_PRICED], res->stat[CKM_SPLIT_PRICE_NODES]);
        if (w0 < 0 || (size_t)w0 >= len)
            return;
        buf += w0;
        len -= (size_t)w0;
    }
    if (res->stat[CKM_SPLIT_WHOLE]) {
        snprintf(buf, len, ", one part of all %zu groups with the size rows by branch and cut (%zu nodes, %zu LPs)",
                 res->stat[CKM_SPLIT_LARGEST], res->stat[CKM_SPLIT_NODES], res->stat[CKM_SPLIT_LPS]);
        return;
    }
    int w = snprintf(buf, len, ", %zu of %zu paired groups fixed by dominance, %zu parts (largest %zu), %zu search nodes",
                     res->stat[CKM_SPLIT_FIXED], res->stat[CKM_SPLIT_PAIRED], res->stat[CKM_SPLIT_PARTS],
                     res->stat[CKM_SPLIT_LARGEST], res->stat[CKM_SPLIT_NODES]);
    if (res->stat[CKM_SPLIT_CUT] > 0 && w > 0 && (size_t)w < len)
        snprintf(buf + w, len - (size_t)w, ", %zu parts by branch and cut (%zu LPs)", res->stat[CKM_SPLIT_CUT],
                 res->stat[CKM_SPLIT_LPS]);
}

/* the caller's s x k costs, the incidence lists, two rows per paired group and the parts'
 * edges and stacks; the branch and cut of a part of g groups: its pair map (4 g^2),
 * the pair graph, columns, cut pool and CLP's model (about 2 KB a group and 64 bytes a pair,
 * and 200 bytes a seeded anchor triangle, up to CKM_PART_SEED_ROWS of them;
 * its tabu searches 12 k + 32 bytes a group:
 * PCCC's breast_cancer at 20 %, 569 groups and 6441 pairs, peaked at 22.9 MB in all against
 * 57.7 MB with CBC) (docs/memory.md) */
static double split_bytes(const ckm_reduced *r, bool by_centers)
{
    (void)by_centers;
    double pairs = (double)(r->n_soft + r->n_cl), k = (double)r->k;
    double paired = one_part(r) ? (double)r->s : fmin(2.0 * pairs, (double)r->s);
    double seeded = one_part(r) ? fmin((double)CKM_PART_SEED_ROWS, (double)ckm_part_seed_rows(r->k, r->n_soft)) : 0.0;
    double g = fmin(paired, (double)CKM_PART_CUTS_MAX),
           cuts = 4.0 * g * g + (2080.0 + 76.0 * k) * g + 64.0 * pairs + 200.0 * seeded;
    double prices = priced(r) ? ckm_split_prices_bytes(r) : 0.0;
    return 8.0 * (double)r->s * k + 24.0 * (double)r->s + 32.0 * pairs + paired * (16.0 * k + 64.0) +
           pairs * (40.0 + 16.0 * (k + 1.0)) + cuts + prices;
}

/* no capacities (size bounds: up to CKM_PART_CUTS_MAX groups by one branch and cut, past it
 * by prices up to CKM_SPLIT_PRICED_COSTS costs, whose three s x k matrices -- the caller's,
 * the priced and the free groups' -- would outgrow the restricted model's from the centers) */
static bool split_takes(const ckm_reduced *r)
{
    return !r->has_caps && (!sized(r) || (double)r->s * (double)r->k <= (double)CKM_SPLIT_PRICED_COSTS);
}

/* soft pairs without capacities, the costs as a matrix (up to where the
 * restricted route would take them from the centers, CKM_TRANSPORT_MATRIX_MAX), at most
 * CKM_SPLIT_PAIRS_PER_GROUP pairs per group or CKM_SPLIT_DENSE_PAIRS in all */
static bool split_applies(const ckm_reduced *r, bool lp)
{
    size_t pairs = r->n_soft + r->n_cl;
    return !lp && r->n_soft > 0 && split_takes(r) && (double)r->s * (double)r->k <= (double)CKM_TRANSPORT_MATRIX_MAX &&
           ((double)pairs <= CKM_SPLIT_PAIRS_PER_GROUP * (double)r->s || pairs <= CKM_SPLIT_DENSE_PAIRS);
}

const ckm_route ckm_route_split = {
    .name = "split",
    .applies = split_applies,
    .takes = split_takes,
    .bytes = split_bytes,
    .init = split_init,
    .solve = split_solve,
    .free = split_free,
    .proves = true,
    .own_start = true,
    .bound_name = "search",
    .describe = split_describe,
    .step_text = "split search",
    .summary = "assignment steps solved by the split route (along the pairs: dominance fixing, exact search per "
               "part; with size bounds: one branch and cut with the size rows, or prices on them past 1000 "
               "groups), each proven optimal",
    .summary_proven = true,
    .hands_on = true,
};
