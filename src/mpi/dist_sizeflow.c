/*
 * dist_sizeflow.c -- size-constrained k-means over MPI (sizeflow.c's iteration) with the
 * exact size-bounded assignment step solved through its dual, cluster prices p:
 *   min sum_i c_{i,l(i)}  s.t.  lo_j <= |C_j| <= hi_j,   c_ij = ||x_i - c_j||^2
 * (a transportation problem: totally unimodular, an optimal vertex is integral).
 * Certificate (transport.h): every row sits in an argmin_j (c_ij - p_j), p_j > 0 only where
 * |C_j| = lo_j, p_j < 0 only where |C_j| = hi_j. Method, on every rank at once:
 *   1. prices broadcast (the same on every rank: last step's, or from a sample);
 *      every rank labels its rows by least reduced cost, counts are reduced;
 *   2. far off the bounds (excess > max(64, N/1000)): prices from a sample of
 *      S = min(N, max(4096, 2^21/k)) rows (rows floor(q N / S), gathered to every rank)
 *      solved exactly with bounds scaled by S/N (ckm_transport_solve, deterministic),
 *      then 1. again;
 *   3. successive shortest paths on the k clusters + an overflow node T (transport.c's
 *      graph: cluster j absorbs lo_j, passes up to hi_j - lo_j on to T, T absorbs
 *      N - sum lo). A unit moving a -> b is a row of a relabelled b at key c_ib - c_ia;
 *      each rank keeps, per pair (a, b), its cheapest row (local head); ONE MINLOC
 *      allreduce of the k x k heads per phase gives the global cheapest row and its
 *      rank (ties: lowest rank, then lowest row: the lowest global row). Every rank then
 *      runs the same Dijkstra from the excess nodes (reduced cost key + pi_a - pi_b,
 *      clamped at 0), moves the potentials, augments one path (the rank holding a moved
 *      row relabels it and rescans that cluster's heads); until no excess is left;
 *   4. prices p_j = pi_j - pi_T; the certificate is checked on every row with reductions
 *      (dual feasibility to 1e-10 (max ||x||^2 + max ||c||^2 + max |p|), sizes within
 *      bounds, complementary slackness); a failed check is an internal error, never a
 *      silent answer.
 * The optimum is unique for data in general position, so the labels do not depend on the
 * number of ranks and equal the single-process solver's; ties are broken by global row.
 * Lloyd as sizeflow.c: labels unchanged, or center shift <= tol * mean feature variance,
 * or max_iter (300); an empty cluster (lo_j = 0) keeps its center; restarts n_init.
 * Memory per rank: the n x k cost matrix (8 n k bytes) + 4 n (labels) + 8 n (linked
 * member lists) + 4 n (previous labels) + 12 k^2 (heads) + 16 k^2 (the reduction).
 * Messages per step: k counts, S d for a sample start, 12 k^2 bytes per phase.
 */
#include "dist.h"
#include "transport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ds {
    ckm_dist *c;
    const ckm_mpi_problem *p;
    size_t n, k, K; /* K = k + 1 nodes, T = k */
    double *cost;   /* n*k */
    int32_t *lab;
    int32_t *nxt, *prv; /* n: doubly linked member lists (-1 ends), no allocation on moves */
    int32_t *head;  /* k: first member of each cluster, or -1 */
    double *H;      /* k*k local head keys */
    int32_t *hp;    /* k*k local head rows */
    ckm_dist_loc *G; /* k*k global heads */
    double *pi, *dist; /* K */
    int *pred, *done;  /* K */
    int64_t *nj, *f, *cap, *e; /* k, k, k, K */
    int64_t *mv;    /* path: up to k moves (a, b, owner, row) */
    double *price;  /* k */
} ds;

static void push(ds *w, size_t j, int32_t i)
{
    w->prv[i] = -1;
    w->nxt[i] = w->head[j];
    if (w->head[j] >= 0)
        w->prv[w->head[j]] = i;
    w->head[j] = i;
}

static void drop(ds *w, size_t j, int32_t i)
{
    if (w->prv[i] >= 0)
        w->nxt[w->prv[i]] = w->nxt[i];
    else
        w->head[j] = w->nxt[i];
    if (w->nxt[i] >= 0)
        w->prv[w->nxt[i]] = w->prv[i];
}

/* row a's local heads from its members (ties: the lower row) */
static void rescan(ds *w, size_t a)
{
    size_t k = w->k;
    double *H = w->H + a * k;
    int32_t *hp = w->hp + a * k;
    for (size_t b = 0; b < k; b++) {
        H[b] = INFINITY;
        hp[b] = -1;
    }
    for (int32_t i = w->head[a]; i >= 0; i = w->nxt[i]) {
        const double *ci = w->cost + (size_t)i * k;
        for (size_t b = 0; b < k; b++) {
            if (b == a)
                continue;
            double key = ci[b] - ci[a];
            if (key < H[b] || (key == H[b] && i < hp[b])) {
                H[b] = key;
                hp[b] = i;
            }
        }
    }
}

static void add_head(ds *w, size_t b, int32_t i)
{
    size_t k = w->k;
    const double *ci = w->cost + (size_t)i * k;
    for (size_t x = 0; x < k; x++) {
        if (x == b)
            continue;
        double key = ci[x] - ci[b];
        size_t q = b * k + x;
        if (key < w->H[q] || (key == w->H[q] && i < w->hp[q])) {
            w->H[q] = key;
            w->hp[q] = i;
        }
    }
}

/* labels = argmin_j (c_ij - p_j), ties to the lower j; global counts into nj */
static void relabel(ds *w)
{
    size_t k = w->k;
    memset(w->nj, 0, k * sizeof(int64_t));
    for (size_t i = 0; i < w->n; i++) {
        const double *ci = w->cost + i * k;
        size_t bj = 0;
        double best = ci[0] - w->price[0];
        for (size_t j = 1; j < k; j++)
            if (ci[j] - w->price[j] < best) {
                best = ci[j] - w->price[j];
                bj = j;
            }
        w->lab[i] = (int32_t)bj;
        w->nj[bj]++;
    }
    ckm_dist_sum_i64(w->c, w->nj, k);
}

static int64_t excess(const ds *w)
{
    int64_t E = 0;
    for (size_t j = 0; j < w->k; j++) {
        int64_t lo = (int64_t)w->p->lo[j], hi = (int64_t)w->p->hi[j];
        E += w->nj[j] > hi ? w->nj[j] - hi : w->nj[j] < lo ? lo - w->nj[j] : 0;
    }
    return E;
}

/* Prices from a sample of rows (header, 2.). */
static ckm_error sample_prices(ds *w, const double *C, ckm_err *err)
{
    const ckm_mpi_problem *p = w->p;
    size_t k = w->k, d = p->d, N = p->N;
    size_t S = (size_t)1 << 21;
    S = S / k > 4096 ? S / k : 4096;
    if (S > 16384)
        S = 16384;
    if (S > N)
        S = N;
    size_t *t = ckm_alloc_array(S, sizeof(size_t)), *lo = ckm_alloc_array(k, sizeof(size_t)),
           *hi = ckm_alloc_array(k, sizeof(size_t));
    double *Y = ckm_alloc_array(S * d, sizeof(double)), *cs = ckm_alloc_array(S * k, sizeof(double));
    int32_t *sl = ckm_alloc_array(S, sizeof(int32_t));
    ckm_error rc = t && lo && hi && Y && cs && sl ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for the price sample");
    if ((rc = ckm_dist_agree(w->c->comm, rc, err)) != CKM_OK)
        goto done;
    for (size_t q = 0; q < S; q++)
        t[q] = (size_t)(((ckm_uxint)q * N) / S);
    ckm_dist_fetch_rows(w->c, p, t, S, Y);
    for (size_t j = 0; j < k; j++) {
        lo[j] = (size_t)(((ckm_uxint)p->lo[j] * S) / N);
        size_t h = p->hi[j] >= N ? N : p->hi[j];
        hi[j] = (size_t)(((ckm_uxint)h * S + N - 1) / N);
    }
    int infeasible = 0;
    ckm_transport_stats st;
    memset(&st, 0, sizeof st);
    rc = ckm_sqdist_matrix(Y, S, d, C, k, cs, err);
    if (rc == CKM_OK)
        rc = ckm_transport_solve(S, k, cs, lo, hi, w->price, sl, &infeasible, &st, err);
    if (rc == CKM_OK && infeasible) /* cannot happen: floor/ceil keep sum lo <= S <= sum hi */
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: the price sample's bounds are infeasible");
    rc = ckm_dist_agree(w->c->comm, rc, err);
    w->c->st->sample_starts++;
done:
    free(t);
    free(lo);
    free(hi);
    free(Y);
    free(cs);
    free(sl);
    return rc;
}

/* One shortest-path phase; returns units moved (0 with *fail set: no deficit reachable). */
static int64_t phase(ds *w, int *fail)
{
    size_t k = w->k, K = w->K, T = k;
    for (size_t q = 0; q < k * k; q++) {
        w->G[q].v = w->H[q];
        w->G[q].rank = w->c->rank;
    }
    ckm_dist_minloc(w->c, w->G, k * k);
    w->c->st->ssp_phases++;
    for (size_t v = 0; v < K; v++) {
        w->dist[v] = w->e[v] > 0 ? 0.0 : INFINITY;
        w->pred[v] = -1;
        w->done[v] = 0;
    }
    size_t tgt = SIZE_MAX;
    for (;;) {
        size_t u = SIZE_MAX;
        for (size_t v = 0; v < K; v++)
            if (!w->done[v] && w->dist[v] < INFINITY && (u == SIZE_MAX || w->dist[v] < w->dist[u]))
                u = v;
        if (u == SIZE_MAX)
            break;
        w->done[u] = 1;
        if (w->e[u] < 0) {
            tgt = u;
            break;
        }
        double du = w->dist[u];
        if (u < T) {
            for (size_t b = 0; b < k; b++) {
                double key = w->G[u * k + b].v;
                if (b == u || w->done[b] || !(key < INFINITY))
                    continue;
                double rc = key + w->pi[u] - w->pi[b];
                if (rc < 0.0)
                    rc = 0.0; /* rounding */
                if (du + rc < w->dist[b]) {
                    w->dist[b] = du + rc;
                    w->pred[b] = (int)u;
                }
            }
            if (w->f[u] < w->cap[u] && !w->done[T]) {
                double rc = w->pi[u] - w->pi[T];
                rc = rc < 0.0 ? 0.0 : rc;
                if (du + rc < w->dist[T]) {
                    w->dist[T] = du + rc;
                    w->pred[T] = (int)u;
                }
            }
        } else {
            for (size_t j = 0; j < k; j++) {
                if (w->done[j] || w->f[j] <= 0)
                    continue;
                double rc = w->pi[T] - w->pi[j];
                rc = rc < 0.0 ? 0.0 : rc;
                if (du + rc < w->dist[j]) {
                    w->dist[j] = du + rc;
                    w->pred[j] = (int)T;
                }
            }
        }
    }
    if (tgt == SIZE_MAX) {
        *fail = 1;
        return 0;
    }
    double D = w->dist[tgt];
    for (size_t v = 0; v < K; v++)
        w->pi[v] += w->dist[v] < D ? w->dist[v] : D;
    /* the path, target back to a source; the amount it carries */
    size_t src = tgt;
    int64_t amt = -w->e[tgt];
    size_t moves = 0;
    for (size_t v = tgt; w->pred[v] >= 0; v = (size_t)w->pred[v]) {
        size_t u = (size_t)w->pred[v];
        if (u < T && v < T) {
            const ckm_dist_loc *g = &w->G[u * k + v];
            int64_t *m = w->mv + 4 * moves++;
            m[0] = (int64_t)u;
            m[1] = (int64_t)v;
            m[2] = g->rank;
            m[3] = g->rank == w->c->rank ? w->hp[u * k + v] : -1; /* planned before any move */
            amt = amt < 1 ? amt : 1;
        } else if (v == T) {
            amt = amt < w->cap[u] - w->f[u] ? amt : w->cap[u] - w->f[u];
        } else {
            amt = amt < w->f[v] ? amt : w->f[v];
        }
        src = u;
    }
    amt = amt < w->e[src] ? amt : w->e[src];
    for (size_t v = tgt; w->pred[v] >= 0; v = (size_t)w->pred[v]) {
        size_t u = (size_t)w->pred[v];
        if (v == T)
            w->f[u] += amt;
        else if (u == T)
            w->f[v] -= amt;
    }
    for (size_t q = 0; q < moves; q++) {
        const int64_t *m = w->mv + 4 * q;
        size_t a = (size_t)m[0], b = (size_t)m[1];
        w->nj[a]--;
        w->nj[b]++;
        if (m[2] == w->c->rank) {
            int32_t i = (int32_t)m[3];
            drop(w, a, i);
            push(w, b, i);
            w->lab[i] = (int32_t)b;
        }
    }
    for (size_t q = 0; q < moves; q++) {
        const int64_t *m = w->mv + 4 * q;
        if (m[2] == w->c->rank) {
            rescan(w, (size_t)m[0]);
            add_head(w, (size_t)m[1], (int32_t)m[3]);
        }
    }
    for (size_t j = 0; j < k; j++)
        w->e[j] = w->nj[j] - (int64_t)w->p->lo[j] - w->f[j];
    int64_t sf = 0, slo = 0;
    for (size_t j = 0; j < k; j++) {
        sf += w->f[j];
        slo += (int64_t)w->p->lo[j];
    }
    w->e[T] = sf - ((int64_t)w->p->N - slo);
    w->c->st->augmentations += (size_t)amt;
    return amt;
}

/* The certificate (header, 4.): returns the number of failed checks (global). */
static int64_t certify(ds *w, const double *C, const double *xnorm)
{
    const ckm_mpi_problem *p = w->p;
    size_t k = w->k, d = p->d;
    double m[2] = {0.0, 0.0};
    for (size_t i = 0; i < w->n; i++)
        m[0] = xnorm[i] > m[0] ? xnorm[i] : m[0];
    for (size_t j = 0; j < k; j++) {
        double cn = 0.0;
        for (size_t f = 0; f < d; f++)
            cn += C[j * d + f] * C[j * d + f];
        m[1] = cn > m[1] ? cn : m[1];
    }
    ckm_dist_max(w->c, m, 2);
    double pmax = 0.0;
    for (size_t j = 0; j < k; j++)
        pmax = fabs(w->price[j]) > pmax ? fabs(w->price[j]) : pmax;
    double tol = 1e-10 * (m[0] + m[1] + pmax);
    int64_t bad[2] = {0, 0}; /* [0] rows not at an argmin, [1] unused (sizes are global) */
    for (size_t i = 0; i < w->n; i++) {
        const double *ci = w->cost + i * k;
        double mine = ci[w->lab[i]] - w->price[w->lab[i]], best = INFINITY;
        for (size_t j = 0; j < k; j++)
            best = ci[j] - w->price[j] < best ? ci[j] - w->price[j] : best;
        bad[0] += mine > best + tol;
    }
    memset(w->nj, 0, k * sizeof(int64_t));
    for (size_t i = 0; i < w->n; i++)
        w->nj[w->lab[i]]++;
    ckm_dist_sum_i64(w->c, w->nj, k);
    ckm_dist_sum_i64(w->c, bad, 1);
    for (size_t j = 0; j < k; j++) {
        int64_t lo = (int64_t)p->lo[j], hi = (int64_t)p->hi[j];
        bad[1] += w->nj[j] < lo || w->nj[j] > hi;
        bad[1] += (w->price[j] > tol && w->nj[j] != lo) || (w->price[j] < -tol && w->nj[j] != hi);
    }
    return bad[0] + bad[1];
}

/* The exact assignment to centers C, warm from w->price (header, 1.-4.). */
static ckm_error assign_step(ds *w, const double *C, const double *xnorm, ckm_err *err)
{
    const ckm_mpi_problem *p = w->p;
    size_t n = w->n, k = w->k, d = p->d, T = k;
    ckm_error rc = CKM_OK;
    if (n > 0)
        rc = ckm_sqdist_matrix(p->X, n, d, C, k, w->cost, err);
    if ((rc = ckm_dist_agree(w->c->comm, rc, err)) != CKM_OK)
        return rc;
    relabel(w);
    int64_t E = excess(w), far = (int64_t)p->N / 1000 > 64 ? (int64_t)p->N / 1000 : 64;
    if (E > far) {
        if ((rc = sample_prices(w, C, err)) != CKM_OK)
            return rc;
        relabel(w);
    }
    /* potentials and flows consistent with the prices: every residual arc non-negative */
    int64_t sf = 0, slo = 0;
    for (size_t j = 0; j < k; j++) {
        int64_t lo = (int64_t)p->lo[j], hi = (int64_t)p->hi[j];
        w->pi[j] = w->price[j];
        w->cap[j] = hi - lo;
        int64_t want = w->nj[j] - lo;
        want = want < 0 ? 0 : want > w->cap[j] ? w->cap[j] : want;
        w->f[j] = w->price[j] > 0.0 ? 0 : w->price[j] < 0.0 ? w->cap[j] : want;
        w->e[j] = w->nj[j] - lo - w->f[j];
        sf += w->f[j];
        slo += lo;
    }
    w->pi[T] = 0.0;
    w->e[T] = sf - ((int64_t)p->N - slo);
    /* member lists (rows in descending order: push prepends) and heads */
    for (size_t j = 0; j < k; j++)
        w->head[j] = -1;
    for (size_t i = n; i-- > 0;)
        push(w, (size_t)w->lab[i], (int32_t)i);
    for (size_t j = 0; j < k; j++)
        rescan(w, j);
    for (;;) {
        bool left = false;
        for (size_t v = 0; v <= T && !left; v++)
            left = w->e[v] != 0;
        if (!left)
            break;
        int fail = 0;
        phase(w, &fail);
        if (fail)
            return ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: no augmenting path reaches a deficit (bounds %s)",
                            "checked feasible");
    }
    for (size_t j = 0; j < k; j++)
        w->price[j] = w->pi[j] - w->pi[T];
    int64_t bad = certify(w, C, xnorm);
    if (bad != 0)
        return ckm_fail(err, CKM_ERR_INTERNAL, "sizeflow: the step's dual certificate failed %lld checks",
                        (long long)bad);
    return CKM_OK;
}

ckm_error ckm_dist_sizeflow(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err)
{
    const ckm_settings *set = c->set;
    size_t n = p->n, d = p->d, k = p->k, m = n ? n : 1, K = k + 1;
    ds w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.p = p;
    w.n = n;
    w.k = k;
    w.K = K;
    size_t nk;
    w.cost = ckm_mul_ok(m, k, &nk) ? ckm_alloc_array(nk, sizeof(double)) : NULL;
    w.lab = ckm_alloc_array(m, sizeof(int32_t));
    w.nxt = ckm_alloc_array(m, sizeof(int32_t));
    w.prv = ckm_alloc_array(m, sizeof(int32_t));
    w.head = ckm_alloc_array(k, sizeof(int32_t));
    w.H = ckm_alloc_array(k * k, sizeof(double));
    w.hp = ckm_alloc_array(k * k, sizeof(int32_t));
    w.G = ckm_alloc_array(k * k, sizeof(ckm_dist_loc));
    w.pi = ckm_alloc_array(K, sizeof(double));
    w.dist = ckm_alloc_array(K, sizeof(double));
    w.pred = ckm_alloc_array(K, sizeof(int));
    w.done = ckm_alloc_array(K, sizeof(int));
    w.nj = ckm_alloc_array(k, sizeof(int64_t));
    w.f = ckm_alloc_array(k, sizeof(int64_t));
    w.cap = ckm_alloc_array(k, sizeof(int64_t));
    w.e = ckm_alloc_array(K, sizeof(int64_t));
    w.mv = ckm_alloc_array(4 * K, sizeof(int64_t));
    w.price = ckm_calloc_array(k, sizeof(double));
    double *xnorm = ckm_alloc_array(m, sizeof(double)), *C = ckm_alloc_array(k * d, sizeof(double)),
           *C0 = ckm_alloc_array(k * d + 4 * k, sizeof(double)), *mu = ckm_alloc_array(d, sizeof(double));
    int32_t *prev = ckm_alloc_array(m, sizeof(int32_t));
    int64_t *count = ckm_alloc_array(k + 1, sizeof(int64_t));
    ckm_xint *xs = ckm_alloc_array(k * d + k + d + 1, sizeof(ckm_xint));
    ckm_error rc = CKM_OK;
    if (!w.cost || !w.lab || !w.nxt || !w.prv || !w.head || !w.H || !w.hp || !w.G || !w.pi || !w.dist || !w.pred || !w.done ||
        !w.nj || !w.f || !w.cap || !w.e || !w.mv || !w.price || !xnorm || !C || !C0 || !mu || !prev || !count || !xs)
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sizeflow: out of memory for %zu rows x %zu clusters (%.0f MB of costs)", n,
                      k, (double)n * (double)k * 8.0 / 1048576.0);
    if ((rc = ckm_dist_agree(c->comm, rc, err)) != CKM_OK)
        goto done;
    ckm_row_norms(p->X, n, d, xnorm);
    double tol = ckm_dist_shift_tol(c, p, set->tol, xs, mu);
    int max_iter = set->max_iter > 0 ? set->max_iter : 300;
    int n_init = set->init_centers ? 1 : set->n_init;
    double best = INFINITY;
    ckm_status why = CKM_STATUS_FEASIBLE;
    out->status = CKM_STATUS_FEASIBLE;
    size_t steps = 0;
    for (int rs = 0; rs < n_init && why == CKM_STATUS_FEASIBLE; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        if ((rc = ckm_dist_seed(c, p, set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP, &rng, C,
                                err)) != CKM_OK)
            goto done;
        if (!set->init_centers)
            ckm_dist_order_by_size(c, p, C, count, C0);
        memset(w.price, 0, k * sizeof(double));
        bool have = false;
        int taken = 0;
        for (int it = 0; it < max_iter; it++) {
            if ((why = ckm_dist_stop(c)) != CKM_STATUS_FEASIBLE)
                break;
            if ((rc = assign_step(&w, C, xnorm, err)) != CKM_OK)
                goto done;
            steps++;
            taken++;
            c->st->lloyd_steps++;
            int64_t changed = 0;
            for (size_t i = 0; i < n; i++)
                changed += !have || w.lab[i] != prev[i];
            ckm_dist_sum_i64(c, &changed, 1);
            memcpy(prev, w.lab, n * sizeof(int32_t));
            have = true;
            memcpy(C0, C, k * d * sizeof(double));
            ckm_dist_means(c, p, w.lab, C, count, xs);
            double shift = 0.0;
            for (size_t j = 0; j < k; j++)
                shift += ckm_sqdist(C + j * d, C0 + j * d, d);
            ckm_dist_log(c, 2, "sizeflow restart %d iter %d: %lld labels changed, center shift %.3g (tolerance %.3g)",
                         rs + 1, it + 1, (long long)changed, shift, tol);
            if (changed == 0 || shift <= tol)
                break;
        }
        if (!have)
            continue;
        double sse = ckm_dist_sse(c, p, prev, C);
        ckm_dist_log(c, 1, "sizeflow restart %d/%d: SSE %.10g after %d steps (%.2f s)", rs + 1, n_init, sse, taken,
                     ckm_now() - c->start);
        out->restarts = rs + 1;
        if (sse < best) {
            best = sse;
            memcpy(out->labels, prev, n * sizeof(int32_t));
            memcpy(out->centers, C, k * d * sizeof(double));
            memcpy(out->prices, w.price, k * sizeof(double));
            out->iterations = taken;
            out->has_labels = 1;
            out->certificate_rows_checked = p->N;
        }
    }
    if (why != CKM_STATUS_FEASIBLE)
        out->status = why;
    snprintf(out->message, sizeof out->message,
             "%s%zu assignment steps, each certified optimal by its cluster prices (%zu shortest-path phases, %zu "
             "sample starts)",
             why == CKM_STATUS_TIME_LIMIT ? "time limit; " : why == CKM_STATUS_INTERRUPTED ? "interrupted; " : "",
             steps, c->st->ssp_phases, c->st->sample_starts);
done:
    free(w.cost);
    free(w.lab);
    free(w.nxt);
    free(w.prv);
    free(w.head);
    free(w.H);
    free(w.hp);
    free(w.G);
    free(w.pi);
    free(w.dist);
    free(w.pred);
    free(w.done);
    free(w.nj);
    free(w.f);
    free(w.cap);
    free(w.e);
    free(w.mv);
    free(w.price);
    free(xnorm);
    free(C);
    free(C0);
    free(mu);
    free(prev);
    free(count);
    free(xs);
    return rc;
}
