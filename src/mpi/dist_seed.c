/*
 * dist_seed.c -- initial centers over MPI, the same for any number of ranks.
 *   k-means++, greedy (as seeding.c and scikit-learn): the first center is row
 *   t = below(N); then k - 1 times: draw T = 2 + floor(ln k) trials (at most 64) with
 *   P(t) ~ D(t)^2 (D: distance to the nearest chosen center) and keep the trial with the
 *   largest gain sum_t max(0, D(t)^2 - ||x_t - y||^2) (ties: the first drawn).
 *   A draw: u uniform in [0, 1), target = floor(u W) with W = sum_t D(t)^2 as an exact
 *   fixed-point sum (dist.h; grid from the largest D^2 after the first center, a global
 *   maximum); the chosen row is the first t in global order whose running exact sum
 *   exceeds the target. The rank holding it is found from the ranks' exact totals
 *   (one allgather), the rows of all T trials reach every rank in one allreduce (the
 *   owner adds the row, every other rank zeros: exact), the T gains in one exact
 *   allreduce. Every rank draws the same u (one stream), so every rank takes the same
 *   decisions. W = 0 (every row on a chosen center): the remaining centers are rows
 *   drawn uniformly.
 *   random: k distinct rows, drawn uniformly (rejection of repeats).
 * The rule differs from seeding.c's, which walks pruning lists with double sums: the
 * single-process solver and this one pick other centers from the same seed (docs/mpi.md).
 * Cost per center: T n d flops per rank for the gains, n d for the update; messages
 * O(T d + P) per center.
 */
#include "dist.h"

#include <stdlib.h>
#include <string.h>

static ckm_error seed_random(ckm_dist *c, const ckm_mpi_problem *p, ckm_rng *rng, double *C, ckm_err *err)
{
    size_t k = p->k;
    size_t *t = ckm_alloc_array(k, sizeof(size_t));
    ckm_error rc = ckm_dist_agree(c->comm, t ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory seeding"), err);
    if (rc != CKM_OK) {
        free(t);
        return rc;
    }
    for (size_t j = 0; j < k; j++) {
        bool again;
        do { /* k <= N: distinct rows exist */
            t[j] = (size_t)ckm_rng_below(rng, (uint64_t)p->N);
            again = false;
            for (size_t q = 0; q < j && !again; q++)
                again = t[q] == t[j];
        } while (again);
    }
    ckm_dist_fetch_rows(c, p, t, k, C);
    free(t);
    return CKM_OK;
}

static ckm_error seed_kmeanspp(ckm_dist *c, const ckm_mpi_problem *p, ckm_rng *rng, double *C, ckm_err *err)
{
    size_t n = p->n, d = p->d, k = p->k, P = (size_t)c->size;
    size_t T = 2 + (size_t)floor(log((double)k));
    if (T > 64)
        T = 64;
    double *D = ckm_alloc_array(n ? n : 1, sizeof(double)), *Y = ckm_alloc_array(T * d, sizeof(double));
    size_t *t = ckm_alloc_array(T, sizeof(size_t));
    ckm_xint *tot = ckm_alloc_array(P + 1, sizeof(ckm_xint)), *G = ckm_alloc_array(T, sizeof(ckm_xint));
    bool ok = D && Y && t && tot && G;
    ckm_error rc = ckm_dist_agree(c->comm, ok ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory seeding"), err);
    if (rc != CKM_OK)
        goto done;
    t[0] = (size_t)ckm_rng_below(rng, (uint64_t)p->N);
    ckm_dist_fetch_rows(c, p, t, 1, C);
    double B = 0.0;
    for (size_t i = 0; i < n; i++) {
        D[i] = ckm_sqdist(p->X + i * d, C, d);
        B = D[i] > B ? D[i] : B;
    }
    ckm_dist_max(c, &B, 1);
    int e = ckm_x_exponent(B); /* D only decreases: one grid for the whole seeding */
    for (size_t j = 1; j < k; j++) {
        ckm_xint mine = 0;
        for (size_t i = 0; i < n; i++)
            mine += ckm_x_term(D[i], e);
        double t0 = ckm_now();
        MPI_Allgather(&mine, 1, c->xt, tot, 1, c->xt, c->comm);
        if (c->st) {
            c->st->allreduces++;
            c->st->bytes += sizeof mine;
            c->st->comm_seconds += ckm_now() - t0;
        }
        ckm_xint W = 0;
        for (size_t r = 0; r < P; r++)
            W += tot[r];
        if (W <= 0) { /* every row sits on a chosen center: any row will do */
            for (size_t q = j; q < k; q++) {
                t[0] = (size_t)ckm_rng_below(rng, (uint64_t)p->N);
                ckm_dist_fetch_rows(c, p, t, 1, C + q * d);
            }
            break;
        }
        for (size_t q = 0; q < T; q++) {
            double u = ckm_rng_uniform(rng);
            ckm_xint target = (ckm_xint)(u * (double)W);
            if (target >= W)
                target = W - 1;
            if (target < 0)
                target = 0;
            size_t r = 0;
            while (r + 1 < P && target >= tot[r]) { /* skip whole ranks */
                target -= tot[r];
                r++;
            }
            t[q] = SIZE_MAX;
            if ((int)r == c->rank) {
                ckm_xint run = 0;
                size_t i = 0;
                for (; i < n; i++) {
                    run += ckm_x_term(D[i], e);
                    if (run > target)
                        break;
                }
                t[q] = p->first + (i < n ? i : n - 1);
            }
            /* the owner knows the row; the others learn it with the coordinates */
        }
        /* T row indices: the owner's value, SIZE_MAX elsewhere -> MIN */
        {
            double t0b = ckm_now();
            MPI_Allreduce(MPI_IN_PLACE, t, (int)T, sizeof(size_t) == 8 ? MPI_UINT64_T : MPI_UNSIGNED, MPI_MIN,
                          c->comm);
            if (c->st) {
                c->st->allreduces++;
                c->st->bytes += T * sizeof(size_t);
                c->st->comm_seconds += ckm_now() - t0b;
            }
        }
        ckm_dist_fetch_rows(c, p, t, T, Y);
        memset(G, 0, T * sizeof(ckm_xint));
        for (size_t i = 0; i < n; i++) {
            const double *x = p->X + i * d;
            for (size_t q = 0; q < T; q++) {
                double g = D[i] - ckm_sqdist(x, Y + q * d, d);
                if (g > 0.0)
                    G[q] += ckm_x_term(g, e);
            }
        }
        ckm_dist_sum_x(c, G, T);
        size_t best = 0;
        for (size_t q = 1; q < T; q++)
            if (G[q] > G[best])
                best = q;
        const double *y = Y + best * d;
        memcpy(C + j * d, y, d * sizeof(double));
        for (size_t i = 0; i < n; i++) {
            double v = ckm_sqdist(p->X + i * d, y, d);
            if (v < D[i])
                D[i] = v;
        }
    }
done:
    free(D);
    free(Y);
    free(t);
    free(tot);
    free(G);
    return rc;
}

ckm_error ckm_dist_seed(ckm_dist *c, const ckm_mpi_problem *p, ckm_init init, ckm_rng *rng, double *C, ckm_err *err)
{
    if (c->set->init_centers) {
        memcpy(C, c->set->init_centers, p->k * p->d * sizeof(double));
        return CKM_OK;
    }
    return init == CKM_INIT_RANDOM ? seed_random(c, p, rng, C, err) : seed_kmeanspp(c, p, rng, C, err);
}

typedef struct keyed {
    double key;
    size_t idx;
} keyed;

static int by_key_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

void ckm_dist_order_by_size(ckm_dist *c, const ckm_mpi_problem *p, double *C, int64_t *count, double *scratch)
{
    size_t k = p->k, d = p->d;
    if (!p->sized || k < 2)
        return;
    bool uniform = true;
    for (size_t j = 1; j < k; j++)
        uniform = uniform && p->lo[j] == p->lo[0] && p->hi[j] == p->hi[0];
    if (uniform)
        return;
    memset(count, 0, k * sizeof(int64_t));
    for (size_t i = 0; i < p->n; i++) {
        size_t bj = 0;
        double best = INFINITY;
        for (size_t j = 0; j < k; j++) {
            double v = ckm_sqdist(p->X + i * d, C + j * d, d);
            if (v < best) {
                best = v;
                bj = j;
            }
        }
        count[bj]++;
    }
    ckm_dist_sum_i64(c, count, k);
    /* scratch (k d + 4 k doubles): a copy of C, then the two orders (k keyed pairs each) */
    keyed *cen = (keyed *)(scratch + k * d), *slot = cen + k;
    for (size_t j = 0; j < k; j++) {
        cen[j] = (keyed){(double)count[j], j};
        double hi = (double)(p->hi[j] < p->N ? p->hi[j] : p->N);
        slot[j] = (keyed){0.5 * ((double)p->lo[j] + hi), j};
    }
    qsort(cen, k, sizeof(keyed), by_key_desc);
    qsort(slot, k, sizeof(keyed), by_key_desc);
    memcpy(scratch, C, k * d * sizeof(double));
    for (size_t q = 0; q < k; q++)
        memcpy(C + slot[q].idx * d, scratch + cen[q].idx * d, d * sizeof(double));
}
