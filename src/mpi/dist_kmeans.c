/*
 * dist_kmeans.c -- Lloyd's algorithm over MPI (kmeans.c's iteration, data-parallel).
 *   assign   every rank labels its rows: l(i) = argmin_j ||x_i - c_j||^2 (dgemm,
 *            ckm_nearest: ties to the lowest j, the single-process labels), with Yinyang
 *            bounds per rank where kmeans.c would use them (--lloyd; the same labels);
 *   reduce   ONE allreduce per iteration of k x d exact center sums, k counts, the
 *            number of changed labels and the ranks' stop requests (dist.h: the same bits
 *            for any split);
 *   repair   an empty cluster takes the row farthest from its center among clusters of
 *            >= 2 rows (MAXLOC over ranks: ties to the lowest rank, then the lowest local
 *            row, i.e. the lowest global row, as kmeans.c), one reduction and two
 *            broadcasts per empty cluster, the sums adjusted exactly;
 *   stop     no label changed, or sum_j ||c_j - c_j'||^2 <= tol * mean feature variance,
 *            or max_iter; then one more assignment (labels = nearest centers of the
 *            returned means); the SSE is the exact sum against the means.
 *   restarts n_init, seeded (seed, r), the lowest SSE kept (ties: the lower r).
 * Messages per iteration: one allreduce of (k d + k + 3) 16-byte integers; memory
 * per rank: n (4 + 4 + 8 + 8) bytes + the dgemm block + O(k d), + the bounds (n (8 + 4 t
 * + 4) bytes, t = ckm_yinyang_groups_for(k, d) groups, + 8 n for k d <= 2^14) when
 * bounded.
 */
#include "dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dk {
    ckm_dist *c;
    const ckm_mpi_problem *p;
    double *xnorm, *dist, *C, *Cnew;
    int32_t *lab, *prev;
    int64_t *count;
    ckm_xint *xs;
    ckm_nearest_ws near;
    bool bounded;         /* Yinyang steps on this rank's rows */
    bool stale, grouped;  /* the bounds must be rebuilt; the centers are grouped */
    int64_t last_changed; /* global */
    ckm_yinyang yy;
} dk;

/* Labels and their exact sums in ONE reduction (k d sums, k counts, the changed labels and
 * the stop requests of every rank), then the rare empty-cluster repair, which adjusts the
 * sums exactly. Returns the global number of changed labels; *why: a stop seen on any rank.
 * Bounded: kmeans.c's schedule on each rank's rows (a full pass builds the bounds, then
 * Yinyang steps; a plain pass while more than 5 % of the labels change); every variant
 * gives the plain labels. */
static int64_t assign(dk *w, ckm_status *why)
{
    const ckm_mpi_problem *p = w->p;
    size_t n = p->n, d = p->d, k = p->k, kd = k * d;
    int asked = ckm_dist_stop_local(w->c); /* before the work, as kmeans.c polls */
    bool plain = !w->bounded;
    if (w->bounded && w->stale && w->grouped && w->last_changed * 20 > (int64_t)p->N)
        plain = true;
    else if (w->bounded && w->stale) {
        if (!w->grouped)
            ckm_yinyang_group(&w->yy, w->C);
        w->grouped = true;
        if (n > 0)
            ckm_yinyang_reset(&w->yy, p->X, w->xnorm, w->C, &w->near, NULL, w->lab);
        w->stale = false;
    } else if (w->bounded && n > 0 && /* update() left the previous centers in Cnew */
               !ckm_yinyang_step(&w->yy, p->X, w->xnorm, w->Cnew, w->C, w->lab)) {
        plain = true;
        w->stale = true;
    }
    if (plain && n > 0)
        ckm_nearest(p->X, w->xnorm, n, w->C, &w->near, w->lab, w->dist);
    bool have_dist = plain;
    ckm_xint *S = w->xs; /* k d sums, k counts, then the changed labels and the stops */
    int e = ckm_x_exponent(p->xmax);
    ckm_dist_local_sums(p, w->lab, S);
    S[kd + k] = 0;
    for (size_t i = 0; i < n; i++)
        S[kd + k] += w->lab[i] != w->prev[i];
    S[kd + k + 1] = asked == 2;
    S[kd + k + 2] = asked == 1;
    ckm_dist_sum_x(w->c, S, kd + k + 3);
    *why = S[kd + k + 1] > 0 ? CKM_STATUS_INTERRUPTED : S[kd + k + 2] > 0 ? CKM_STATUS_TIME_LIMIT : CKM_STATUS_FEASIBLE;
    int64_t changed = (int64_t)S[kd + k];
    for (size_t j = 0; j < k; j++)
        w->count[j] = (int64_t)S[kd + j];
    for (size_t j = 0; j < k; j++) {
        if (w->count[j] > 0)
            continue;
        if (!have_dist && n > 0) /* O(n d): the distances to the assigned centers */
            ckm_yinyang_assigned(p->X, w->xnorm, n, d, w->C, w->lab, w->dist);
        have_dist = true;
        w->stale = true; /* a center jumps: the bounds are rebuilt at the next step */
        ckm_dist_loc far = {-1.0, w->c->rank};
        size_t at = SIZE_MAX;
        for (size_t i = 0; i < n; i++)
            if (w->count[w->lab[i]] >= 2 && w->dist[i] > far.v) {
                far.v = w->dist[i];
                at = i;
            }
        /* MINLOC of -dist: the largest distance, ties to the lowest rank */
        far.v = -far.v;
        ckm_dist_minloc(w->c, &far, 1);
        if (far.v > 0.0)
            break; /* no cluster has two rows: cannot happen when N >= k */
        int64_t m[2] = {-1, 0}; /* the row's old cluster; the change in changed labels */
        if (far.rank == w->c->rank) {
            m[0] = w->lab[at];
            m[1] = (int64_t)((int32_t)j != w->prev[at]) - (int64_t)(w->lab[at] != w->prev[at]);
            w->lab[at] = (int32_t)j;
            w->dist[at] = 0.0;
            memcpy(w->C + j * d, p->X + at * d, d * sizeof(double));
        }
        ckm_dist_bcast(w->c, m, sizeof m, far.rank);
        ckm_dist_bcast(w->c, w->C + j * d, d * sizeof(double), far.rank);
        size_t from = (size_t)m[0];
        for (size_t f = 0; f < d; f++) { /* the sums and counts follow the row, exactly */
            ckm_xint t = ckm_x_term(w->C[j * d + f], e);
            S[from * d + f] -= t;
            S[j * d + f] = t;
        }
        S[kd + from] -= 1;
        S[kd + j] = 1;
        w->count[from]--;
        w->count[j] = 1;
        changed += m[1];
    }
    memcpy(w->prev, w->lab, n * sizeof(int32_t));
    w->last_changed = changed;
    return changed;
}

/* C <- means of the labels, from the sums of the last assign(); returns
 * sum_j ||Cnew_j - C_j||^2. */
static double update(dk *w)
{
    size_t k = w->p->k, d = w->p->d;
    memcpy(w->Cnew, w->C, k * d * sizeof(double)); /* an empty cluster keeps its center */
    ckm_dist_means_of(w->p, w->xs, w->count, w->Cnew);
    double shift = 0.0;
    for (size_t j = 0; j < k; j++)
        shift += ckm_sqdist(w->Cnew + j * d, w->C + j * d, d);
    double *t = w->C;
    w->C = w->Cnew;
    w->Cnew = t;
    return shift;
}

ckm_error ckm_dist_kmeans(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err)
{
    const ckm_settings *set = c->set;
    size_t n = p->n, d = p->d, k = p->k, m = n ? n : 1;
    dk w;
    memset(&w, 0, sizeof w);
    w.c = c;
    w.p = p;
    w.xnorm = ckm_alloc_array(m, sizeof(double));
    w.dist = ckm_alloc_array(m, sizeof(double));
    w.C = ckm_alloc_array(k * d, sizeof(double));
    w.Cnew = ckm_alloc_array(k * d, sizeof(double));
    w.lab = ckm_alloc_array(m, sizeof(int32_t));
    w.prev = ckm_alloc_array(m, sizeof(int32_t));
    w.count = ckm_alloc_array(k + 1, sizeof(int64_t));
    w.xs = ckm_alloc_array(k * d + k + d + 3, sizeof(ckm_xint));
    double *mu = ckm_alloc_array(d, sizeof(double));
    ckm_error rc = CKM_OK;
    if (!w.xnorm || !w.dist || !w.C || !w.Cnew || !w.lab || !w.prev || !w.count || !w.xs || !mu)
        rc = ckm_fail(err, CKM_ERR_NOMEM, "k-means: out of memory for %zu rows (d = %zu, k = %zu)", n, d, k);
    else
        rc = ckm_nearest_ws_init(&w.near, k, d, set->threads, err);
    /* bounds as kmeans.c decides them, on the global sizes (so every rank agrees) */
    w.bounded = set->lloyd == CKM_LLOYD_BOUNDS ||
                (set->lloyd == CKM_LLOYD_AUTO && (double)p->N * (double)k >= 65536.0 && k * d >= 128);
    if (rc == CKM_OK && w.bounded)
        rc = ckm_yinyang_init(&w.yy, n ? n : 1, d, k, ckm_yinyang_groups_for(k, d), set->threads, err);
    if ((rc = ckm_dist_agree(c->comm, rc, err)) != CKM_OK)
        goto done;
    ckm_row_norms(p->X, n, d, w.xnorm);
    double tol = ckm_dist_shift_tol(c, p, set->tol, w.xs, mu);
    int max_iter = c->max_iter;
    int n_init = set->init_centers ? 1 : set->n_init;
    double best = INFINITY;
    ckm_status why = CKM_STATUS_FEASIBLE;
    out->status = CKM_STATUS_FEASIBLE;
    for (int rs = 0; rs < n_init && why == CKM_STATUS_FEASIBLE; rs++) {
        ckm_rng rng;
        ckm_rng_seed(&rng, set->seed, (uint64_t)rs);
        if ((rc = ckm_dist_seed(c, p, set->init == CKM_INIT_RANDOM ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP, &rng, w.C,
                                err)) != CKM_OK)
            goto done;
        for (size_t i = 0; i < n; i++)
            w.prev[i] = -1;
        w.stale = true;
        w.grouped = false;
        int it = 0;
        bool have = false;
        for (; it < max_iter; it++) {
            int64_t changed = assign(&w, &why);
            c->st->lloyd_steps++;
            have = true;
            if (why != CKM_STATUS_FEASIBLE || changed == 0)
                break;
            double shift = update(&w);
            ckm_dist_log(c, 2, "kmeans restart %d iter %d: %lld labels changed, center shift %.3g", rs + 1, it + 1,
                         (long long)changed, shift);
            if (shift <= tol) {
                it++;
                assign(&w, &why);
                c->st->lloyd_steps++;
                break;
            }
        }
        if (!have)
            break;
        update(&w); /* the means of the final labels */
        double sse = ckm_dist_sse(c, p, w.lab, w.C);
        ckm_dist_log(c, 1, "kmeans restart %d/%d: SSE %.10g after %d iterations (%.2f s)", rs + 1, n_init, sse, it,
                     ckm_now() - c->start);
        out->restarts = rs + 1;
        if (sse < best) {
            best = sse;
            memcpy(out->labels, w.lab, n * sizeof(int32_t));
            memcpy(out->centers, w.C, k * d * sizeof(double));
            out->iterations = it;
            out->has_labels = 1;
        }
    }
    if (why != CKM_STATUS_FEASIBLE) {
        out->status = why;
        snprintf(out->message, sizeof out->message, "stopped (%s) after %d of %d restarts", ckm_status_string(why),
                 out->restarts, n_init);
    }
done:
    free(w.xnorm);
    free(w.dist);
    free(w.C);
    free(w.Cnew);
    free(w.lab);
    free(w.prev);
    free(w.count);
    free(w.xs);
    free(mu);
    ckm_nearest_ws_free(&w.near);
    ckm_yinyang_free(&w.yy);
    return rc;
}
