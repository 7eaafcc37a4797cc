/*
 * exact.c -- `exact`: the PC-SOS-SDP branch-and-cut (Piccialli, Russo Russo & Sudoso 2022,
 * Algorithm 2), extended to cluster-size bounds and capacities (each node's problem carries
 * the root's demands and capacity bounds: its check is the capacity step's MILP, its bound
 * the SDP with capacity rows, sdp_cuts.c).
 *   node     the root problem plus branching decisions, kept as must-/cannot-links on
 *            POINTS; its reduced problem comes from the same preprocessing as the root
 *            (ckm_reduce: must-link groups, lifted cannot-links, the k = 2 rule that merges
 *            groups cannot-link pairs force together, and the quick infeasibility proofs).
 *   check    before the SDP, the BLPKM iteration from the incumbent's centers: its first
 *            exact assignment (CLP, then CBC) is the feasibility ILP of the node -- an
 *            infeasible model proves the node empty -- and its labelling an upper bound.
 *   bound    the safe Peng-Wei bound with cuts (ipc.c, sdp/): the parent's active cuts are
 *            inherited (sdp_cuts.c; valid in the child, which only adds constraints), the
 *            first solve starts from the parent's solution aggregated to the child's groups
 *            (X_ab = sum_{i in a, j in b} sqrt(w_i w_j) X^p_ij / sqrt(W_a W_b)), then at most
 *            30 cutting-plane rounds (root: settings.cut_rounds, default 50). A child's bound
 *            is max(parent's, its own): its feasible set is a subset. A child's first solve
 *            and polish stop once their bound cannot reach the incumbent (the hopeless stop,
 *            sdp_admm.c): such a node branches whatever its bound. (Starting the child's
 *            duals from the parent's too, compressed to its groups, was measured and left
 *            out: an iteration uses the previous duals only for its first step, V, then solves
 *            for y and projects for S afresh, so X carries the state; glass ml_0_cl_50_0's
 *            first child solves took the same iterations, 1062-2249, either way.)
 *   upper    IPC-k-means on the node's solution (the root runs it before the cuts).
 *   prune    when UB - max(LB, 0) <= max(gap UB, 1e-12 TSS) (settings.gap, default 1e-4; the
 *            absolute floor settles zero-SSE instances, core.h ckm_gap_closed), or infeasible.
 *   branch   on groups (a, b) maximising min{Z_ab, ||Z_a. - Z_b.||^2} (ipc.c); the ML child
 *            adds a must-link between one point of each, the CL child a cannot-link. The two
 *            children partition the node's feasible labellings, whatever the size bounds,
 *            so the search stays exact with them.
 *   search   best-first (smallest bound, then creation order). By default nodes are
 *            processed in synchronous batches of up to T = settings.threads (default all
 *            cores): the T best open nodes run in parallel against the incumbent of the
 *            batch start, and their results are merged in queue order. The result depends
 *            on T (and the BLAS thread count) but not on timing, unless a limit stops the
 *            search. With settings.async_nodes a pool of T workers takes the best open node
 *            as soon as one is free and the calling thread merges each result as it comes:
 *            no worker idles while a slower node of its batch finishes, but the merge order,
 *            and so the incumbent each node starts from, depends on timing.
 *   certify  the global bound is min(bounds of open nodes, bounds of nodes closed by bound,
 *            UB); infeasible nodes have none. With no open node left the incumbent is
 *            optimal (within gap); at a time / node limit or interrupt the reported gap is
 *            (UB - global bound) / UB.
 * CBC calls are serialised by the backend. Each worker owns its relaxation and workspaces.
 */
#include "algo.h"
#include "centers.h"
#include "exact_branch.h"
#include "ipc.h"
#include "problem_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXACT_CHILD_ROUNDS 30 /* the paper's cutting-plane limit for children */

typedef struct bb_dec {
    size_t i, j;   /* points */
    ckm_link type; /* CKM_MUST_LINK or CKM_CANNOT_LINK */
} bb_dec;

/* What a processed node hands its two children (shared, reference counted). */
typedef struct bb_parent {
    int refs;
    ckm_cut_pool *cuts;
    double *X;        /* sp*sp solution */
    size_t sp;
    size_t *rep;      /* sp: one point of each parent group */
    double *mass;     /* sp: the groups' masses (sample-weight sums) */
    double sigma;
    double bytes;     /* held by this struct and its arrays (the memory budget) */
    uint64_t seen;    /* the last tree scan that counted it (tree_bytes) */
} bb_parent;

typedef struct bb_node {
    size_t id, depth;
    double bound;     /* valid lower bound on every labelling of the node */
    bb_dec *dec;      /* the decisions from the root */
    size_t ndec;
    bb_parent *parent;
} bb_node;

/* The outcome of processing one node (written by a worker, merged in order). */
typedef struct bb_work {
    bb_node node;
    double incumbent;        /* UB when the node was taken */
    double *centers;         /* k*d: the incumbent's centers then (a copy, owned by the slot) */
    int has_centers;
    /* out */
    ckm_error rc;
    ckm_err err;
    ckm_status status;       /* INFEASIBLE, OPTIMAL (closed), FEASIBLE (branch), or a stop reason */
    double bound;
    int has_labels;
    int32_t *labels;         /* root groups */
    double sse;
    bb_dec branch;           /* when branched */
    bb_parent *child_data;
    size_t groups, inherited;
    int rounds;
    int sdp_threads;         /* threads of the node's SDP projection: T when it runs alone
                                (the root above all), else 1 (set after take) */
    char note[160];
} bb_work;

typedef struct bb_shared {
    const ckm_context *ctx;
    ckm_context wctx;        /* workers' context: quieter log, 1 thread inside a node when T > 1 */
    ckm_settings wset;
    const ckm_reduced *root;
    bb_work *work;
} bb_shared;

static void parent_release(bb_parent *p)
{
    if (!p || --p->refs > 0)
        return;
    ckm_cut_pool_free(p->cuts);
    free(p->X);
    free(p->rep);
    free(p->mass);
    free(p);
}

/* ---- priority queue of open nodes: smallest bound, then smallest id ---- */

typedef struct bb_heap {
    bb_node *v;
    size_t n, cap;
} bb_heap;

static bool node_before(const bb_node *a, const bb_node *b)
{
    return a->bound < b->bound || (a->bound == b->bound && a->id < b->id);
}

static bool heap_push(bb_heap *h, bb_node x)
{
    if (!ckm_grow((void **)&h->v, &h->cap, h->n + 1, sizeof(bb_node)))
        return false;
    size_t i = h->n++;
    while (i > 0 && node_before(&x, &h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
    return true;
}

static bb_node heap_pop(bb_heap *h)
{
    bb_node top = h->v[0], x = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && node_before(&h->v[c + 1], &h->v[c]))
            c++;
        if (!node_before(&h->v[c], &x))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n > 0)
        h->v[i] = x;
    return top;
}

static void node_free(bb_node *n)
{
    free(n->dec);
    parent_release(n->parent);
    n->dec = NULL;
    n->parent = NULL;
}

/* ---- one node ---- */

/* (UB - max(LB, 0)) / UB for the log and the root gap; INFINITY without an incumbent, 0 when
 * the absolute floor of the gap rule (core.h) already closes it (an SSE at rounding level) */
static double rel_gap(double ub, double lb, double tss)
{
    if (!isfinite(ub))
        return INFINITY;
    if (ckm_gap_closed(ub, lb, 0.0, tss))
        return 0.0;
    return (ub - fmax(lb, 0.0)) / ub;
}

/* The node's problem: the root's groups (must-link chains), its lifted cannot-links, its size
 * bounds, its demands and capacities, and the decisions. A decision that contradicts another
 * is an infeasible node. */
static ckm_error node_problem(const ckm_reduced *root, const bb_node *node, ckm_problem **out, int *contradiction,
                              ckm_err *err)
{
    *contradiction = 0;
    ckm_problem *p = NULL;
    ckm_error rc = ckm_problem_wrap(root->X, root->n, root->d, root->k, &p, err); /* root->X outlives the node */
    if (rc != CKM_OK)
        return rc;
    for (size_t t = 0; t < root->s && rc == CKM_OK; t++)
        for (size_t q = root->member_start[t] + 1; q < root->member_start[t + 1] && rc == CKM_OK; q++)
            rc = ckm_problem_add_pair(p, root->members[root->member_start[t]], root->members[q], CKM_MUST_LINK, err);
    for (size_t e = 0; e < root->n_cl && rc == CKM_OK; e++)
        rc = ckm_problem_add_pair(p, root->members[root->member_start[root->cl[2 * e]]],
                                  root->members[root->member_start[root->cl[2 * e + 1]]], CKM_CANNOT_LINK, err);
    if (rc == CKM_OK)
        rc = ckm_problem_set_sizes(p, root->lo, root->hi, err);
    if (rc == CKM_OK && root->w)
        rc = ckm_problem_set_weights(p, root->w, err);
    if (rc == CKM_OK && root->has_caps && (rc = ckm_problem_set_demands(p, root->q, err)) == CKM_OK)
        rc = ckm_problem_set_capacities(p, root->cap_lo, root->cap_hi, err);
    for (size_t q = 0; q < node->ndec && rc == CKM_OK; q++) {
        rc = ckm_problem_add_pair(p, node->dec[q].i, node->dec[q].j, node->dec[q].type, err);
        if (rc == CKM_ERR_INVALID) { /* the same pair with the opposite type */
            *contradiction = 1;
            rc = CKM_OK;
            break;
        }
    }
    if (rc != CKM_OK) {
        ckm_problem_free(p);
        return rc;
    }
    *out = p;
    return CKM_OK;
}

/* The parent's solution aggregated to the child's groups (see the header). */
static double *warm_matrix(const bb_parent *par, const ckm_reduced *r)
{
    size_t s = r->s, sp = par->sp;
    double *X = ckm_calloc_array(s * s, sizeof(double));
    size_t *map = ckm_alloc_array(sp, sizeof(size_t));
    if (!X || !map) {
        free(X);
        free(map);
        return NULL;
    }
    for (size_t i = 0; i < sp; i++)
        map[i] = r->comp[par->rep[i]];
    for (size_t i = 0; i < sp; i++) {
        double vi = sqrt(par->mass[i]);
        for (size_t j = 0; j < sp; j++)
            X[map[i] * s + map[j]] += vi * sqrt(par->mass[j]) * par->X[i * sp + j];
    }
    for (size_t a = 0; a < s; a++)
        for (size_t b = 0; b < s; b++)
            X[a * s + b] /= sqrt(r->mass[a] * r->mass[b]);
    free(map);
    return X;
}

/* ---- the memory budget (settings.memory_limit_mb; docs/memory.md) ----
 * tree   = sum over open nodes of sizeof(bb_node) + their decisions, plus every parent they
 *          share once: sizeof(bb_parent) + 8 sp^2 (solution) + 16 sp (rep, mass) + its pool;
 * batch  = b (relaxation of ckm_bytes_ipc + one new parent), b <= T nodes;
 * a batch of b runs when tree + batch(b) <= budget and batch(b) <= the available memory.
 * The new parent's pool is the largest seen so far (before any: ckm_cut_pool_bytes_full). */
static double parent_bytes(size_t s, const ckm_cut_pool *cuts)
{
    return (double)sizeof(bb_parent) + 8.0 * (double)s * (double)s + 16.0 * (double)s + ckm_cut_pool_bytes(cuts);
}

static double tree_bytes(const bb_heap *h, uint64_t scan)
{
    double b = 0.0;
    for (size_t q = 0; q < h->n; q++) {
        const bb_node *x = &h->v[q];
        b += (double)sizeof(bb_node) + (double)x->ndec * sizeof(bb_dec);
        if (x->parent && x->parent->seen != scan) {
            x->parent->seen = scan;
            b += x->parent->bytes;
        }
    }
    return b;
}

static ckm_error keep_for_children(bb_work *w, const ckm_reduced *r, ckm_sdp *sdp, ckm_err *err)
{
    size_t s = r->s;
    bb_parent *p = calloc(1, sizeof *p);
    if (!p || !(p->X = ckm_alloc_array(s * s, sizeof(double))) || !(p->rep = ckm_alloc_array(s, sizeof(size_t))) ||
        !(p->mass = ckm_alloc_array(s, sizeof(double)))) {
        if (p) {
            free(p->X);
            free(p->rep);
        }
        free(p);
        return ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory keeping a node's solution");
    }
    p->refs = 1;
    p->sp = s;
    memcpy(p->X, ckm_sdp_xhat(sdp), s * s * sizeof(double));
    for (size_t t = 0; t < s; t++) {
        p->rep[t] = r->members[r->member_start[t]];
        p->mass[t] = r->mass[t];
    }
    p->sigma = ckm_sdp_sigma(sdp);
    ckm_error rc = ckm_sdp_export_cuts(sdp, p->rep, &p->cuts, err);
    if (rc != CKM_OK) {
        parent_release(p);
        return rc;
    }
    p->bytes = parent_bytes(s, p->cuts);
    w->child_data = p;
    return CKM_OK;
}

static ckm_error process(bb_shared *sh, bb_work *w, ckm_err *err)
{
    const ckm_reduced *root = sh->root;
    const ckm_context *ctx = &sh->wctx;
    ckm_problem *np = NULL;
    ckm_reduced *r = NULL;
    ckm_sdp *sdp = NULL;
    double *warm = NULL;
    ckm_algo_out out;
    memset(&out, 0, sizeof out);
    w->status = CKM_STATUS_FEASIBLE;
    w->bound = w->node.bound;
    int contradiction = 0, infeasible = 0;
    ckm_error rc = node_problem(root, &w->node, &np, &contradiction, err);
    if (rc != CKM_OK)
        goto done;
    if (contradiction) {
        w->status = CKM_STATUS_INFEASIBLE;
        snprintf(w->note, sizeof w->note, "contradicting decisions");
        goto done;
    }
    char reason[CKM_MESSAGE_LEN];
    if ((rc = ckm_reduce(np, &r, &infeasible, reason, sizeof reason, err)) != CKM_OK)
        goto done;
    if (infeasible) {
        w->status = CKM_STATUS_INFEASIBLE;
        snprintf(w->note, sizeof w->note, "%.150s", reason);
        goto done;
    }
    w->groups = r->s;
    if (!(out.labels = ckm_alloc_array(r->s, sizeof(int32_t)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory");
        goto done;
    }
    bool is_root = w->node.ndec == 0;
    ckm_ipc_opts o;
    memset(&o, 0, sizeof o);
    o.cut_rounds = is_root ? ctx->s->cut_rounds
                           : (ctx->s->cut_rounds < EXACT_CHILD_ROUNDS ? ctx->s->cut_rounds : EXACT_CHILD_ROUNDS);
    o.incumbent = w->incumbent;
    o.gap = ctx->s->gap;
    o.heuristic_first = is_root;
    o.centers = w->has_centers ? w->centers : NULL;
    o.keep_sdp = true;
    o.hopeless_stop = !is_root;
    o.sdp_threads = w->sdp_threads;
    if (w->node.parent) {
        o.inherit = w->node.parent->cuts;
        if ((warm = warm_matrix(w->node.parent, r)) == NULL) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory for the warm start");
            goto done;
        }
        o.warm_X = warm;
        o.warm_sigma = w->node.parent->sigma;
    }
    ckm_ipc_stats st;
    ckm_context nctx = *ctx;
    nctx.sink = NULL; /* the node's heuristic restarts are not the search's progress */
    if ((rc = ckm_ipc_node(&nctx, r, &o, &out, &st, &sdp, err)) != CKM_OK)
        goto done;
    w->inherited = st.inherited;
    w->rounds = st.rounds;
    if (out.has_labels) { /* better than the incumbent: to root groups, SSE on the root */
        for (size_t t = 0; t < root->s; t++)
            w->labels[t] = out.labels[r->comp[root->members[root->member_start[t]]]];
        double *C = ckm_alloc_array(root->k * root->d, sizeof(double)), *wsum = ckm_alloc_array(root->k, sizeof(double));
        if (!C || !wsum) {
            free(C);
            free(wsum);
            rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory");
            goto done;
        }
        w->sse = ckm_group_sse(root, w->labels, C, wsum);
        w->has_labels = 1;
        free(C);
        free(wsum);
    }
    if (out.status == CKM_STATUS_INFEASIBLE) {
        w->status = CKM_STATUS_INFEASIBLE;
        snprintf(w->note, sizeof w->note, "%.150s", out.message);
        goto done;
    }
    if (isfinite(out.lower_bound) && out.lower_bound > w->bound)
        w->bound = out.lower_bound;
    if (out.status == CKM_STATUS_TIME_LIMIT || out.status == CKM_STATUS_INTERRUPTED) {
        w->status = out.status;
        goto done;
    }
    double ub = fmin(w->incumbent, w->has_labels ? w->sse : INFINITY);
    if (out.status == CKM_STATUS_OPTIMAL || ckm_gap_closed(ub, w->bound, ctx->s->gap, root->gap_scale)) {
        w->status = CKM_STATUS_OPTIMAL; /* closed: nothing in it beats the incumbent by more than gap */
        goto done;
    }
    if (!sdp) { /* k = 1 or s = k: single_partition closes the node, so this is not reached */
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "exact: an open node without a relaxation");
        goto done;
    }
    size_t a, b;
    if ((rc = ckm_exact_branch_pair(r, ckm_sdp_xhat(sdp), &a, &b, err)) != CKM_OK)
        goto done;
    if (a == b) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "exact: no pair to branch on (%zu groups, k = %zu)", r->s, r->k);
        goto done;
    }
    w->branch = (bb_dec){r->members[r->member_start[a]], r->members[r->member_start[b]], CKM_MUST_LINK};
    rc = keep_for_children(w, r, sdp, err);
done:
    free(warm);
    free(out.labels);
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(np);
    return rc;
}

static void run_range(void *arg, size_t begin, size_t end, int tid)
{
    (void)tid;
    bb_shared *sh = arg;
    for (size_t q = begin; q < end; q++) {
        bb_work *w = &sh->work[q];
        w->rc = process(sh, w, &w->err);
    }
}

/* ---- the search ---- */

static bool push_child(bb_heap *h, const bb_node *parent, const bb_work *w, ckm_link type, size_t *next_id)
{
    bb_node c;
    c.id = (*next_id)++;
    c.depth = parent->depth + 1;
    c.bound = w->bound;
    c.ndec = parent->ndec + 1;
    c.dec = ckm_alloc_array(c.ndec, sizeof(bb_dec));
    if (!c.dec)
        return false;
    if (parent->ndec)
        memcpy(c.dec, parent->dec, parent->ndec * sizeof(bb_dec));
    c.dec[parent->ndec] = (bb_dec){w->branch.i, w->branch.j, type};
    c.parent = w->child_data;
    c.parent->refs++;
    if (!heap_push(h, c)) {
        node_free(&c);
        return false;
    }
    return true;
}

/* The search's state, owned by the calling thread (workers only read their own bb_work). */
typedef struct bb_search {
    const ckm_context *ctx;
    const ckm_settings *set;
    const ckm_reduced *r;
    ckm_algo_out *out;
    bb_heap heap;
    double *centers, *wsum;  /* the incumbent's centers (k*d), scratch */
    size_t next_id, processed, n_infeasible, n_pruned, n_dropped;
    double ub, closed_lb, root_bound, last_log;
    double relax, newp, per_node, budget; /* memory: a node's relaxation, a new parent, their sum, the budget */
    uint64_t scan;
    ckm_status stop;         /* OPTIMAL: the search ran out of nodes */
    char root_note[160], mem_note[192];
} bb_search;

/* drop open nodes the incumbent already closes */
static void drop_closed(bb_search *S)
{
    while (S->heap.n > 0 && ckm_gap_closed(S->ub, S->heap.v[0].bound, S->set->gap, S->r->gap_scale)) {
        bb_node x = heap_pop(&S->heap);
        S->closed_lb = fmin(S->closed_lb, x.bound);
        S->n_dropped++; /* never processed: a later incumbent closed it */
        node_free(&x);
    }
}

/* How many more nodes may start beside `running` ones (at most want): their relaxations and
 * new parents must fit the budget beside the open tree, and the available memory. When none
 * may start and none is running, the note for the stop. */
static size_t fit_nodes(bb_search *S, size_t running, size_t want)
{
    double tree = tree_bytes(&S->heap, ++S->scan), have = ckm_memory_available();
    size_t fit = want;
    while (fit > 0 && (tree + (double)(running + fit) * S->per_node > S->budget ||
                       (have >= 0.0 && (double)fit * S->per_node > have)))
        fit--;
    if (fit == 0 && running == 0) {
        if (tree + S->per_node > S->budget)
            snprintf(S->mem_note, sizeof S->mem_note,
                     "; memory budget: the open tree holds %.3g MB, a node needs %.3g MB more, the budget is %.3g MB",
                     tree / 1e6, S->per_node / 1e6, S->budget / 1e6);
        else
            snprintf(S->mem_note, sizeof S->mem_note, "; a node would need about %.0f MB, %.0f MB are available",
                     S->per_node / 1e6, have / 1e6);
    }
    return fit;
}

/* the best open node into slot w, against today's incumbent */
static void take(bb_search *S, bb_work *w)
{
    int32_t *labels = w->labels;
    double *centers = w->centers;
    memset(w, 0, sizeof *w);
    w->labels = labels;
    w->centers = centers;
    w->node = heap_pop(&S->heap);
    w->incumbent = S->ub;
    if (isfinite(S->ub)) {
        memcpy(w->centers, S->centers, S->r->k * S->r->d * sizeof(double));
        w->has_centers = 1;
    }
}

/* a slot's node and child data freed (after the merge, or unmerged after an error) */
static void discard(bb_work *w)
{
    node_free(&w->node);
    parent_release(w->child_data);
    w->child_data = NULL;
}

/* One processed node into the search: incumbent, bounds, children; *stopped when the node
 * was cut short by a time limit or interrupt (it stays open with what it proved). */
static ckm_error merge(bb_search *S, bb_work *w, bool *stopped, ckm_err *err)
{
    const ckm_reduced *r = S->r;
    ckm_algo_out *out = S->out;
    ckm_error rc = CKM_OK;
    bool interrupted = w->status == CKM_STATUS_TIME_LIMIT || w->status == CKM_STATUS_INTERRUPTED;
    if (!interrupted)
        S->processed++;
    if (w->has_labels && w->sse < S->ub) {
        S->ub = w->sse;
        memcpy(out->labels, w->labels, r->s * sizeof(int32_t));
        out->has_labels = 1;
        ckm_group_means(r, out->labels, S->centers, S->wsum);
    }
    if (w->node.ndec == 0 && !interrupted) {
        S->root_bound = w->bound;
        out->root_gap = rel_gap(S->ub, w->bound, r->gap_scale);
    }
    const char *what;
    if (interrupted) {
        *stopped = true;
        S->stop = w->status;
        w->node.bound = w->bound;
        if (!heap_push(&S->heap, w->node)) {
            node_free(&w->node);
            rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory");
        }
        w->node = (bb_node){0}; /* the heap owns it now */
        discard(w);
        return rc;
    } else if (w->status == CKM_STATUS_INFEASIBLE) {
        S->n_infeasible++;
        what = "infeasible";
    } else if (w->status == CKM_STATUS_OPTIMAL || ckm_gap_closed(S->ub, w->bound, S->set->gap, r->gap_scale)) {
        S->closed_lb = fmin(S->closed_lb, w->bound);
        S->n_pruned++;
        what = "closed by bound";
    } else {
        if (w->child_data && w->child_data->bytes > S->newp) { /* the new parents' estimate: the largest yet */
            S->newp = w->child_data->bytes;
            S->per_node = S->relax + S->newp;
        }
        if (!push_child(&S->heap, &w->node, w, CKM_MUST_LINK, &S->next_id) ||
            !push_child(&S->heap, &w->node, w, CKM_CANNOT_LINK, &S->next_id))
            rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory for open nodes");
        what = "branched";
    }
    const bb_dec *last = w->node.ndec ? &w->node.dec[w->node.ndec - 1] : NULL;
    char label[96] = "root";
    if (last)
        snprintf(label, sizeof label, "%s(%zu,%zu)", last->type == CKM_MUST_LINK ? "ML" : "CL", last->i, last->j);
    char found[64] = "";
    if (w->has_labels)
        snprintf(found, sizeof found, ", found SSE %.10g", w->sse);
    ckm_ctx_log(S->ctx, 1, "exact: node %zu (depth %zu, %s): %zu groups, %zu inherited cuts, %d cut rounds, bound %.10g%s: %s%s%s",
                w->node.id, w->node.depth, label, w->groups, w->inherited, w->rounds, w->bound, found, what,
                w->note[0] ? " -- " : "", w->note);
    if (w->node.ndec == 0 && w->status == CKM_STATUS_INFEASIBLE)
        snprintf(S->root_note, sizeof S->root_note, "%s", w->note);
    discard(w);
    return rc;
}

/* A finished slot into the search, given the search's error so far: the first worker error
 * becomes the search's, and after an error results are only freed. */
static ckm_error absorb(bb_search *S, bb_work *w, ckm_error rc, bool *stopped, ckm_err *err)
{
    if (w->rc != CKM_OK && rc == CKM_OK) {
        rc = w->rc;
        if (err)
            *err = w->err;
    }
    if (rc != CKM_OK) {
        discard(w);
        return rc;
    }
    return merge(S, w, stopped, err);
}

static void log_progress(bb_search *S, bool force)
{
    double open_lb = S->heap.n ? S->heap.v[0].bound : INFINITY, glb = fmin(fmin(open_lb, S->closed_lb), S->ub);
    double now = ckm_now();
    ckm_ctx_progress(S->ctx, (ckm_progress){.kind = CKM_PROGRESS_BOUND, .objective = NAN,
                                            .incumbent = isfinite(S->ub) ? S->ub : NAN,
                                            .lower_bound = isfinite(glb) ? glb : -INFINITY, .restarts = 1,
                                            .done = S->processed, .total = S->heap.n});
    if (S->set->verbosity >= 1 && (now - S->last_log >= 1.0 || S->heap.n == 0 || force)) {
        S->last_log = now;
        ckm_ctx_log(S->ctx, 1, "exact: %zu nodes, %zu open, bound %.10g, incumbent %.10g, gap %.4g%%, %.1f s",
                    S->processed, S->heap.n, glb, S->ub, 100.0 * rel_gap(S->ub, glb, S->r->gap_scale), now - S->ctx->start);
    }
}

/* Synchronous batches (the default): the T best open nodes run against the incumbent of the
 * batch start and are merged in queue order, so the search does not depend on timing. */
static ckm_error search_batches(bb_search *S, bb_shared *sh, int T, ckm_err *err)
{
    const ckm_settings *set = S->set;
    ckm_error rc = CKM_OK;
    while (S->heap.n > 0) {
        drop_closed(S);
        if (S->heap.n == 0)
            break;
        if (ckm_ctx_stop(S->ctx, &S->stop))
            break;
        if (set->node_limit > 0 && S->processed >= (size_t)set->node_limit) {
            S->stop = CKM_STATUS_ITERATION_LIMIT;
            break;
        }
        /* the largest batch that fits: else stop with the incumbent and its gap rather than
         * fail mid-batch */
        size_t fit = fit_nodes(S, 0, (size_t)T);
        if (fit == 0) {
            S->stop = CKM_STATUS_MEMORY_LIMIT;
            break;
        }
        size_t batch = 0, room = set->node_limit > 0 ? (size_t)set->node_limit - S->processed : SIZE_MAX;
        while (S->heap.n > 0 && batch < fit && batch < room)
            take(S, &sh->work[batch++]);
        for (size_t q = 0; q < batch; q++) /* a lone node (the root) gets the idle cores too */
            sh->work[q].sdp_threads = T / (int)batch;
        if (batch == 1 || T == 1)
            run_range(sh, 0, batch, 0);
        else
            ckm_parallel_for((int)batch, batch, run_range, sh);
        bool stopped = false;
        for (size_t q = 0; q < batch; q++) /* in queue order */
            rc = absorb(S, &sh->work[q], rc, &stopped, err);
        if (rc != CKM_OK)
            return rc;
        log_progress(S, stopped);
        if (stopped)
            break;
    }
    return rc;
}

/* ---- the asynchronous node pool (settings.async_nodes) ----
 * T persistent workers, one slot each: the calling thread hands the best open node to any
 * idle slot, waits for any slot to finish, merges it and hands out the next. No worker waits
 * for a slower one, so the pool keeps every core busy when node times differ; the order in
 * which results are merged (and so the incumbent a node starts from) depends on timing. */
enum { SLOT_IDLE, SLOT_READY, SLOT_BUSY, SLOT_DONE };

typedef struct bb_pool {
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    bb_shared *sh;
    unsigned char state[64];
    bool quit;
} bb_pool;

typedef struct bb_slot_arg {
    bb_pool *pool;
    size_t q;
} bb_slot_arg;

static void *pool_worker(void *arg)
{
    bb_slot_arg *a = arg;
    bb_pool *P = a->pool;
    size_t q = a->q;
    if (q >= sizeof P->state) /* never: T <= 64 slots */
        return NULL;
    pthread_mutex_lock(&P->mu);
    for (;;) {
        while (!P->quit && P->state[q] != SLOT_READY)
            pthread_cond_wait(&P->go, &P->mu);
        if (P->quit)
            break;
        P->state[q] = SLOT_BUSY;
        pthread_mutex_unlock(&P->mu);
        run_range(P->sh, q, q + 1, (int)q);
        pthread_mutex_lock(&P->mu);
        P->state[q] = SLOT_DONE;
        pthread_cond_signal(&P->done);
    }
    pthread_mutex_unlock(&P->mu);
    return NULL;
}

static ckm_error search_pool(bb_search *S, bb_shared *sh, bb_pool *P, size_t slots, ckm_err *err)
{
    const ckm_settings *set = S->set;
    ckm_error rc = CKM_OK;
    size_t running = 0;
    bool stopping = false, cut_short = false; /* stopping: no more nodes handed out (a stop, a limit, an error) */
    for (;;) {
        drop_closed(S);
        if (!stopping && S->heap.n > 0) {
            size_t room = SIZE_MAX;
            if (set->node_limit > 0)
                room = S->processed + running < (size_t)set->node_limit
                           ? (size_t)set->node_limit - S->processed - running : 0;
            if (ckm_ctx_stop(S->ctx, &S->stop)) {
                stopping = true;
            } else if (room == 0) {
                if (running == 0) {
                    S->stop = CKM_STATUS_ITERATION_LIMIT;
                    stopping = true;
                }
            } else {
                size_t fit = fit_nodes(S, running, slots - running);
                if (fit == 0 && running == 0) {
                    S->stop = CKM_STATUS_MEMORY_LIMIT;
                    stopping = true;
                }
                pthread_mutex_lock(&P->mu);
                for (size_t q = 0; q < slots && fit > 0 && room > 0 && S->heap.n > 0; q++)
                    if (P->state[q] == SLOT_IDLE) {
                        take(S, &sh->work[q]);
                        /* the root runs alone; later nodes share the cores (a count that
                         * followed the idle workers would depend on timing) */
                        sh->work[q].sdp_threads = sh->work[q].node.ndec == 0 ? (int)slots : 1;
                        P->state[q] = SLOT_READY;
                        running++;
                        fit--;
                        room--;
                    }
                pthread_cond_broadcast(&P->go);
                pthread_mutex_unlock(&P->mu);
            }
        }
        if (running == 0)
            break;
        /* wait for any slot, then merge every finished one in slot order */
        bool done_q[64] = {false};
        pthread_mutex_lock(&P->mu);
        for (;;) {
            bool any = false;
            for (size_t q = 0; q < slots; q++)
                if (P->state[q] == SLOT_DONE) {
                    done_q[q] = any = true;
                    P->state[q] = SLOT_IDLE;
                }
            if (any)
                break;
            pthread_cond_wait(&P->done, &P->mu);
        }
        pthread_mutex_unlock(&P->mu);
        bool stopped = false;
        for (size_t q = 0; q < slots; q++) {
            if (!done_q[q])
                continue;
            running--;
            rc = absorb(S, &sh->work[q], rc, &stopped, err);
        }
        cut_short = cut_short || stopped;
        if (rc != CKM_OK || stopped)
            stopping = true; /* the others finish (a stop reaches them too) and are merged */
        log_progress(S, stopped);
    }
    if (rc == CKM_OK && S->heap.n == 0 && !cut_short)
        S->stop = CKM_STATUS_OPTIMAL; /* a stop came while the last nodes ran, and they finished the search */
    return rc;
}

/* Start the pool's workers and search; false when not one worker could start (then the
 * caller searches in batches). */
static bool run_pool(bb_search *S, bb_shared *sh, int T, ckm_error *rc, ckm_err *err)
{
    bb_pool P;
    memset(&P, 0, sizeof P);
    P.sh = sh;
    if (pthread_mutex_init(&P.mu, NULL) != 0)
        return false;
    if (pthread_cond_init(&P.go, NULL) != 0) {
        pthread_mutex_destroy(&P.mu);
        return false;
    }
    if (pthread_cond_init(&P.done, NULL) != 0) {
        pthread_cond_destroy(&P.go);
        pthread_mutex_destroy(&P.mu);
        return false;
    }
    pthread_t tids[64];
    bb_slot_arg args[64];
    size_t started = 0;
    for (int q = 0; q < T; q++) {
        args[started] = (bb_slot_arg){&P, started};
        if (pthread_create(&tids[started], NULL, pool_worker, &args[started]) == 0)
            started++;
    }
    if (started > 0)
        *rc = search_pool(S, sh, &P, started, err);
    pthread_mutex_lock(&P.mu);
    P.quit = true;
    pthread_cond_broadcast(&P.go);
    pthread_mutex_unlock(&P.mu);
    for (size_t q = 0; q < started; q++)
        pthread_join(tids[q], NULL);
    pthread_cond_destroy(&P.done);
    pthread_cond_destroy(&P.go);
    pthread_mutex_destroy(&P.mu);
    return started > 0;
}

static ckm_error run(const ckm_context *ctx, const ckm_reduced *r, ckm_algo_out *out, ckm_err *err)
{
    const ckm_settings *set = ctx->s;
    size_t s = r->s, k = r->k, d = r->d;
    int T = ckm_thread_count(set->threads);
    if (T > 64)
        T = 64;
    out->lower_bound = -INFINITY;
    out->status = CKM_STATUS_FEASIBLE;
    out->root_gap = NAN;
    bb_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.ctx = ctx;
    sh.root = r;
    sh.wset = *set;
    sh.wset.verbosity = set->verbosity > 0 ? set->verbosity - 1 : 0; /* node internals one level down */
    if (T > 1)
        sh.wset.threads = 1;
    sh.wctx = *ctx;
    sh.wctx.s = &sh.wset;
    bb_search S = {.ctx = ctx, .set = set, .r = r, .out = out, .next_id = 1, .ub = INFINITY, .closed_lb = INFINITY,
                   .root_bound = -INFINITY, .last_log = -INFINITY, .stop = CKM_STATUS_OPTIMAL};
    bb_work *work = ckm_calloc_array((size_t)T, sizeof(bb_work));
    S.centers = ckm_alloc_array(k * d, sizeof(double));
    S.wsum = ckm_alloc_array(k, sizeof(double));
    ckm_error rc = CKM_OK;
    bool ok = work && S.centers && S.wsum;
    for (int q = 0; ok && q < T; q++)
        ok = (work[q].labels = ckm_alloc_array(s, sizeof(int32_t))) != NULL &&
             (work[q].centers = ckm_alloc_array(k * d, sizeof(double))) != NULL;
    if (!ok || !heap_push(&S.heap, (bb_node){0, 0, -INFINITY, NULL, 0, NULL})) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory");
        goto done;
    }
    sh.work = work;
    /* memory per node: its relaxation and the parent data it may leave; the budget must hold
     * the root's */
    S.relax = ckm_bytes_ipc(r, 1);
    S.newp = parent_bytes(s, NULL) + ckm_cut_pool_bytes_full();
    S.per_node = S.relax + S.newp;
    S.budget = set->memory_limit_mb > 0.0 ? set->memory_limit_mb * 1e6 : INFINITY;
    if (S.per_node > S.budget) {
        rc = ckm_fail(err, CKM_ERR_NOMEM,
                      "exact: the memory budget of %.3g MB is below the root's need of about %.3g MB (the relaxation on "
                      "%zu groups %.3g MB, its solution and cuts for the children %.3g MB); raise memory_limit_mb "
                      "(--memory-limit)",
                      S.budget / 1e6, S.per_node / 1e6, s, S.relax / 1e6, S.newp / 1e6);
        goto done;
    }
    bool pooled = set->async_nodes && T > 1 && run_pool(&S, &sh, T, &rc, err);
    if (!pooled) /* the default, or no pool worker could start */
        rc = search_batches(&S, &sh, T, err);
    if (rc != CKM_OK)
        goto done;
    {
        double open_lb = S.heap.n ? S.heap.v[0].bound : INFINITY;
        double glb = fmin(fmin(open_lb, S.closed_lb), S.ub);
        out->nodes = S.processed;
        if (!out->has_labels && S.heap.n == 0 && S.stop == CKM_STATUS_OPTIMAL) {
            out->status = CKM_STATUS_INFEASIBLE;
            if (S.root_note[0])
                snprintf(out->message, sizeof out->message, "%s", S.root_note);
            else
                snprintf(out->message, sizeof out->message,
                         "branch-and-cut: every one of the %zu nodes is infeasible, so no labelling meets the constraints",
                         S.processed);
            goto done;
        }
        out->lower_bound = isfinite(glb) ? glb : (isfinite(S.root_bound) ? S.root_bound : -INFINITY);
        if (S.heap.n == 0 && S.stop == CKM_STATUS_OPTIMAL)
            out->status = CKM_STATUS_OPTIMAL;
        else
            out->status = S.stop == CKM_STATUS_OPTIMAL ? CKM_STATUS_FEASIBLE : S.stop;
        const char *why = out->status == CKM_STATUS_OPTIMAL          ? "solved"
                          : out->status == CKM_STATUS_TIME_LIMIT     ? "time limit"
                          : out->status == CKM_STATUS_ITERATION_LIMIT ? "node limit"
                          : out->status == CKM_STATUS_INTERRUPTED     ? "interrupted"
                          : out->status == CKM_STATUS_MEMORY_LIMIT    ? "memory limit"
                                                                      : "stopped";
        char rg[48] = "root not finished";
        if (isfinite(out->root_gap))
            snprintf(rg, sizeof rg, "root gap %.4g%%", 100.0 * out->root_gap);
        snprintf(out->message, sizeof out->message,
                 "branch-and-cut %s: %zu node%s processed (%zu closed by bound, %zu infeasible), %zu closed unprocessed by a "
                 "later incumbent, %zu open, %s, %d thread%s%s",
                 why, S.processed, S.processed == 1 ? "" : "s", S.n_pruned, S.n_infeasible, S.n_dropped, S.heap.n, rg, T,
                 T == 1 ? "" : "s", pooled ? " (asynchronous node pool)" : "");
        size_t used = strlen(out->message);
        snprintf(out->message + used, sizeof out->message - used, "%s", S.mem_note);
    }
done:
    while (S.heap.n > 0) {
        bb_node x = heap_pop(&S.heap);
        node_free(&x);
    }
    free(S.heap.v);
    if (work)
        for (int q = 0; q < T; q++) {
            free(work[q].labels);
            free(work[q].centers);
        }
    free(work);
    free(S.centers);
    free(S.wsum);
    return rc;
}

/* T relaxations at once, one per worker (the open tree is checked as it grows) */
static double bytes(const ckm_reduced *r, ckm_distance dist, int threads)
{
    (void)dist;
    return (threads > 0 ? threads : 1) * ckm_bytes_ipc(r, 1);
}

/* the registry row (src/solve/registry.c lists it) */
const ckm_algo ckm_algorithm_exact = {
    .info = {.name = "exact",
             .summary = "PC-SOS-SDP branch-and-cut (Piccialli et al. 2022): global optimum with a proof, or a certified "
                        "gap at a limit",
             .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                        CKM_HONOURS_CAPACITIES,
             .proves_optimality = 1,
             .default_max_iter = 100,
             .traits = CKM_TRAIT_SEARCH | CKM_TRAIT_OWN_THREADS},
    .run = run,
    .bytes = bytes,
};
