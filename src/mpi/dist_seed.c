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
 * Pruning (exact, as seeding.c's per-point test): a trial is measured only against the
 * rows it may come closer to (may_gain, from the row's nearest chosen center), so skipped
 * rows have a gain of exactly 0. D sums are kept per block of SEED_BLOCK rows (exact,
 * updated as D changes), so a draw walks blocks, then one block. Cost per center: one
 * pass over the rows' D and nearest center, T d flops per row a trial may come closer
 * to; messages O(T d + P) per center.
 */
#include "centers.h"
#include "dist.h"

#include <stdlib.h>
#include <string.h>

/* A trial y at squared distance far2 from a point's nearest chosen center may come closer
 * than D2 to that point only if ||C - y|| < 2 sqrt(D2) (triangle inequality); tested with
 * seeding.c's margin 4 (1 + 1e-9), far above the rounding of the squares, so a skipped
 * point has a gain of exactly 0 and keeps its D: the result is the same bit for bit. */
static inline bool may_gain(double far2, double D2)
{
    return far2 < 4.0 * (1.0 + 1e-9) * D2;
}

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

#define SEED_BLOCK 4096 /* rows per exact partial sum of D^2 (the draws walk these first) */

typedef struct seeder {
    int e;          /* the exact sums' grid */
    double *D;      /* n: squared distance to the nearest chosen center */
    int32_t *near;  /* n: that center */
    ckm_xint *Bs;   /* blocks: sum of D over SEED_BLOCK rows, exact */
} seeder;

/* Row i's D becomes v and its nearest center j; its block's exact sum follows. */
static void settle(seeder *z, size_t i, double v, size_t j)
{
    ckm_xint *b = &z->Bs[i / SEED_BLOCK];
    *b += ckm_x_term(v, z->e) - ckm_x_term(z->D[i], z->e);
    z->D[i] = v;
    z->near[i] = (int32_t)j;
}

static ckm_error seed_kmeanspp(ckm_dist *c, const ckm_mpi_problem *p, ckm_rng *rng, double *C, ckm_err *err)
{
    size_t n = p->n, d = p->d, k = p->k, P = (size_t)c->size, m = n ? n : 1, nb = (n + SEED_BLOCK - 1) / SEED_BLOCK;
    size_t T = 2 + (size_t)floor(log((double)k));
    if (T > 64)
        T = 64;
    seeder z = {0, NULL, NULL, NULL};
    z.D = ckm_alloc_array(m, sizeof(double));
    z.near = ckm_alloc_array(m, sizeof(int32_t));
    z.Bs = ckm_calloc_array(nb ? nb : 1, sizeof(ckm_xint));
    double *Y = ckm_alloc_array(T * d, sizeof(double));
    double *far = ckm_alloc_array(T * k, sizeof(double)); /* ||C_a - y_q||^2 */
    size_t *t = ckm_alloc_array(T, sizeof(size_t));
    ckm_xint *tot = ckm_alloc_array(P + 1, sizeof(ckm_xint)), *G = ckm_alloc_array(T, sizeof(ckm_xint));
    bool ok = z.D && z.near && z.Bs && Y && far && t && tot && G;
    ckm_error rc = ckm_dist_agree(c->comm, ok ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory seeding"), err);
    if (rc != CKM_OK)
        goto done;
    t[0] = (size_t)ckm_rng_below(rng, (uint64_t)p->N);
    ckm_dist_fetch_rows(c, p, t, 1, C);
    double B = 0.0;
    for (size_t i = 0; i < n; i++) {
        z.D[i] = ckm_sqdist(p->X + i * d, C, d);
        B = z.D[i] > B ? z.D[i] : B;
    }
    ckm_dist_max(c, &B, 1);
    z.e = ckm_x_exponent(B); /* D only decreases: one grid for the whole seeding */
    for (size_t i = 0; i < n; i++) {
        double v = z.D[i];
        z.D[i] = 0.0; /* settle adds v's term to its block */
        settle(&z, i, v, 0);
    }
    for (size_t j = 1; j < k; j++) {
        ckm_xint mine = 0;
        for (size_t b = 0; b < nb; b++)
            mine += z.Bs[b];
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
            if ((int)r == c->rank && n > 0) {
                /* the first row whose running sum exceeds the target: whole blocks first */
                size_t b = 0;
                while (b + 1 < nb && target >= z.Bs[b])
                    target -= z.Bs[b++];
                ckm_xint run = 0;
                size_t i = b * SEED_BLOCK, end = (b + 1) * SEED_BLOCK < n ? (b + 1) * SEED_BLOCK : n;
                for (; i < end; i++) {
                    run += ckm_x_term(z.D[i], z.e);
                    if (run > target)
                        break;
                }
                t[q] = p->first + (i < end ? i : end - 1);
            }
        }
        /* T row indices: the owner's value, SIZE_MAX elsewhere -> MIN */
        ckm_dist_reduce(c, t, T, sizeof *t, sizeof(size_t) == 8 ? MPI_UINT64_T : MPI_UNSIGNED, MPI_MIN);
        ckm_dist_fetch_rows(c, p, t, T, Y);
        memset(G, 0, T * sizeof(ckm_xint));
        for (size_t q = 0; q < T; q++)
            for (size_t a = 0; a < j; a++)
                far[q * k + a] = ckm_sqdist(C + a * d, Y + q * d, d);
        /* rows outside, trials inside, in row order: each row is read once per center
           and only where a trial may come closer (lists by nearest center, read in list
           order, made the seeding 3-8x slower at 10^6 x 16: random reads) */
        for (size_t i = 0; i < n; i++) {
            const double *x = p->X + i * d, *fi = far + (size_t)z.near[i];
            for (size_t q = 0; q < T; q++) {
                if (!may_gain(fi[q * k], z.D[i]))
                    continue; /* exact: this trial cannot come closer (header) */
                double g = z.D[i] - ckm_sqdist(x, Y + q * d, d);
                if (g > 0.0)
                    G[q] += ckm_x_term(g, z.e);
            }
        }
        ckm_dist_sum_x(c, G, T);
        size_t best = 0;
        for (size_t q = 1; q < T; q++)
            if (G[q] > G[best])
                best = q;
        const double *y = Y + best * d, *fb = far + best * k;
        memcpy(C + j * d, y, d * sizeof(double));
        for (size_t i = 0; i < n; i++) {
            if (!may_gain(fb[z.near[i]], z.D[i]))
                continue;
            double v = ckm_sqdist(p->X + i * d, y, d);
            if (v < z.D[i])
                settle(&z, i, v, j);
        }
    }
done:
    free(z.D);
    free(z.near);
    free(z.Bs);
    free(Y);
    free(far);
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
    ckm_keyed *cen = (ckm_keyed *)(scratch + k * d), *slot = cen + k;
    for (size_t j = 0; j < k; j++) {
        cen[j] = (ckm_keyed){(double)count[j], j};
        double hi = (double)(p->hi[j] < p->N ? p->hi[j] : p->N);
        slot[j] = (ckm_keyed){0.5 * ((double)p->lo[j] + hi), j};
    }
    qsort(cen, k, sizeof(ckm_keyed), ckm_keyed_desc);
    qsort(slot, k, sizeof(ckm_keyed), ckm_keyed_desc);
    memcpy(scratch, C, k * d * sizeof(double));
    for (size_t q = 0; q < k; q++)
        memcpy(C + slot[q].idx * d, scratch + cen[q].idx * d, d * sizeof(double));
}
