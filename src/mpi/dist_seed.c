/*
 * dist_seed.c -- initial centers over MPI: the single-process rule (seeding.c), the same
 * centers for any number of ranks and equal to the single-process seeding's.
 *   k-means++, greedy (seeding.c, as scikit-learn): the first center is row floor(u N);
 *   then k - 1 times: T = 2 + floor(ln k) trials (at most 64), each the first row in global
 *   order whose running sum of D^2 (D: distance to the nearest chosen center) exceeds
 *   u x (the total), and the trial with the largest gain sum_t max(0, D(t)^2 - ||x_t - y||^2)
 *   is kept (ties: the first drawn). When every D is 0 the trials are uniform rows.
 *   The running sum is seeding.c's: sequential double additions in row order, carried from
 *   rank to rank (running_sum: a chain of P - 1 messages per center, then one allgather of
 *   the ranks' last sums), so every draw picks the row the single-process seeding picks.
 *   The gains are exact fixed-point sums (dist.h), the same for any split; the
 *   single-process seeding sums them in double precision, so the two could only choose
 *   differently between two trials whose gains agree to rounding.
 *   The rows of the T trials reach every rank in one allreduce (the holder adds the row,
 *   every other rank zeros: exact), the T gains in one exact allreduce. Every rank draws the
 *   same u (one stream, the single-process order of draws), so every rank decides alike.
 *   random: k distinct rows, drawn uniformly (rejection of repeats), as seeding.c.
 * Stops: every rank's stop request rides on the gains' reduction; after a stop the remaining
 * centers repeat the first (seeding.c's rule) and the caller's next poll ends the run.
 * Pruning (exact, as seeding.c's per-point test): a trial is measured only against the
 * rows it may come closer to (may_gain, from the row's nearest chosen center), so skipped
 * rows have a gain of exactly 0. Cost per center: a pass over the rows' D (the running
 * sum, in sequence over the ranks), T d flops per row a trial may come closer to; messages
 * P - 1 point-to-point doubles, an allgather of P doubles, O(T d) in allreduces.
 */
#include "centers.h"
#include "dist.h"
#include "seeding.h"

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
    ckm_seed_distinct(rng, p->N, k, t); /* k <= N: distinct rows exist */
    ckm_dist_fetch_rows(c, p, t, k, C);
    free(t);
    return CKM_OK;
}

/* The running sum of D in global row order, as seeding.c draws from it: sequential double
 * additions, so the single-process rounding; rank r continues rank r - 1's sum (a chain of
 * P - 1 messages, O(N) additions in sequence per center). cum: this rank's running sums;
 * ends[r]: rank r's last one (every rank's, by an allgather). */
static void running_sum(ckm_dist *c, const ckm_mpi_problem *p, const double *D, double *cum, double *ends)
{
    double acc = 0.0, t0 = ckm_now(), wait;
    if (c->rank > 0) /* the wait for the ranks before this one counts as communication */
        ckm_dist_recv(&acc, 1, MPI_DOUBLE, c->rank - 1, 11, c->comm);
    wait = ckm_now() - t0;
    for (size_t i = 0; i < p->n; i++) {
        acc += D[i];
        cum[i] = acc;
    }
    t0 = ckm_now();
    if (c->rank + 1 < c->size)
        ckm_dist_send(&acc, 1, MPI_DOUBLE, c->rank + 1, 11, c->comm);
    ckm_dist_allgather(&acc, ends, 1, MPI_DOUBLE, c->comm);
    ckm_dist_counted(c, 2 * sizeof acc, false, t0 - wait);
}

/* seeding.c's draw: the first row whose running sum exceeds x, or the last row when none
 * does. Returns it on the rank holding it, SIZE_MAX elsewhere. */
static size_t draw_row(const ckm_dist *c, const ckm_mpi_problem *p, const double *cum, const double *ends, double x)
{
    int owner = -1, last = 0;
    for (int r = 0; r < c->size; r++) {
        if (p->starts[r + 1] > p->starts[r])
            last = r;
        if (owner < 0 && ends[r] > x && p->starts[r + 1] > p->starts[r])
            owner = r;
    }
    if (owner < 0)
        return c->rank == last ? p->first + p->n - 1 : SIZE_MAX;
    if (owner != c->rank)
        return SIZE_MAX;
    return p->first + ckm_seed_draw(cum, p->n, x);
}

static ckm_error seed_kmeanspp(ckm_dist *c, const ckm_mpi_problem *p, ckm_rng *rng, double *C, ckm_err *err)
{
    size_t n = p->n, d = p->d, k = p->k, P = (size_t)c->size, m = n ? n : 1;
    size_t T = 2 + (size_t)floor(log((double)k));
    if (T > 64)
        T = 64;
    double *D = ckm_alloc_array(m, sizeof(double)), *cum = ckm_alloc_array(m, sizeof(double));
    int32_t *near = ckm_alloc_array(m, sizeof(int32_t));
    double *Y = ckm_alloc_array(T * d, sizeof(double)), *ends = ckm_alloc_array(P, sizeof(double));
    double *far = ckm_alloc_array(T * k, sizeof(double)); /* ||C_a - y_q||^2 */
    size_t *t = ckm_alloc_array(T, sizeof(size_t));
    ckm_xint *G = ckm_alloc_array(T + 2, sizeof(ckm_xint)); /* T gains, then the ranks' stop requests */
    bool ok = D && cum && near && Y && ends && far && t && G;
    ckm_error rc = ckm_dist_agree(c->comm, ok ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory seeding"), err);
    if (rc != CKM_OK)
        goto done;
    /* the first center: seeding.c draws u N over the running count of rows: row floor(u N) */
    double x0 = ckm_rng_uniform(rng) * (double)p->N;
    t[0] = x0 < (double)p->N ? (size_t)x0 : p->N - 1;
    ckm_dist_fetch_rows(c, p, t, 1, C);
    double B = 0.0;
    for (size_t i = 0; i < n; i++) {
        D[i] = ckm_sqdist(p->X + i * d, C, d);
        near[i] = 0;
        B = D[i] > B ? D[i] : B;
    }
    ckm_dist_max(c, &B, 1);
    int e = ckm_x_exponent(B); /* D only decreases: one grid for the gains of the whole seeding */
    for (size_t j = 1; j < k; j++) {
        running_sum(c, p, D, cum, ends);
        double acc = ends[P - 1];
        for (size_t q = 0; q < T; q++) /* seeding.c's draws, in its order */
            t[q] = acc > 0.0 ? draw_row(c, p, cum, ends, ckm_rng_uniform(rng) * acc)
                             : (size_t)ckm_rng_below(rng, (uint64_t)p->N);
        /* T row indices: the holder's value, SIZE_MAX elsewhere (or the same everywhere) -> MIN */
        ckm_dist_reduce(c, t, T, sizeof *t, sizeof(size_t) == 8 ? MPI_UINT64_T : MPI_UNSIGNED, MPI_MIN);
        ckm_dist_fetch_rows(c, p, t, T, Y);
        memset(G, 0, T * sizeof(ckm_xint));
        int asked = ckm_dist_stop_local(c);
        G[T] = asked == 2;
        G[T + 1] = asked == 1;
        for (size_t q = 0; q < T; q++)
            for (size_t a = 0; a < j; a++)
                far[q * k + a] = ckm_sqdist(C + a * d, Y + q * d, d);
        /* rows outside, trials inside, in row order: each row is read once per center and
           only where a trial may come closer (lists by nearest center, read in list order,
           made the seeding 3-8x slower at 10^6 x 16: random reads) */
        for (size_t i = 0; i < n; i++) {
            const double *x = p->X + i * d, *fi = far + (size_t)near[i];
            for (size_t q = 0; q < T; q++) {
                if (!ckm_seed_may_gain(fi[q * k], D[i]))
                    continue; /* exact: this trial cannot come closer (header) */
                double g = D[i] - ckm_sqdist(x, Y + q * d, d);
                if (g > 0.0)
                    G[q] += ckm_x_term(g, e);
            }
        }
        ckm_dist_sum_x(c, G, T + 2);
        size_t best = 0;
        for (size_t q = 1; q < T; q++)
            if (G[q] > G[best])
                best = q;
        const double *y = Y + best * d, *fb = far + best * k;
        memcpy(C + j * d, y, d * sizeof(double));
        if (G[T] > 0 || G[T + 1] > 0) { /* a stop on some rank: the rest repeat the first
                                            center, as seeding.c; the caller's next poll stops */
            for (size_t q = j + 1; q < k; q++)
                memcpy(C + q * d, C, d * sizeof(double));
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (!ckm_seed_may_gain(fb[near[i]], D[i]))
                continue;
            double v = ckm_sqdist(p->X + i * d, y, d);
            if (v < D[i]) {
                D[i] = v;
                near[i] = (int32_t)j;
            }
        }
    }
done:
    free(D);
    free(cum);
    free(near);
    free(Y);
    free(ends);
    free(far);
    free(t);
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
