/*
 * certify_split.c -- the anticlustering split of ckm_certify (certify.h) and its subset count.
 * Formulation: groups a (mass m_a, mean x_a, label j(a)) go to subsets; for cluster j let
 * y_a = x_a - mu_j (mu_j: the cluster's weighted mean), S_tj = sum_{a in t, j(a) = j} m_a y_a,
 * M_tj the mass of those groups. Since sum_t S_tj = 0,
 *     loss = sum_tj M_tj ||mu_tj - mu_j||^2 = sum_tj ||S_tj||^2 / M_tj,
 * computed in these centred coordinates without cancellation. A swap of a in t with b in u
 * (same cluster) moves v = m_a y_a - m_b y_b from S_tj to S_uj and m_a - m_b from M_tj to
 * M_uj; its change of the loss takes O(d).
 * Deal: each cluster's groups in a seeded random order, round-robin over the subsets with one
 * pointer running through all clusters (so subset counts differ by at most one). Improve:
 * sweeps over the groups, each trying CERT_TRIES random partners of its cluster in other
 * subsets and making the best swap that lowers the loss, until a sweep gains less than
 * CERT_STALL of the loss or CERT_SWEEPS sweeps.
 */
#include "certify_split.h"
#include "core.h"
#include "sdp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CERT_TRIES 6
#define CERT_SWEEPS 30
#define CERT_STALL 1e-3

typedef struct split_state {
    const ckm_reduced *r;
    const int32_t *lab;
    size_t T, k, d;
    double *mu;      /* k*d cluster means */
    double *S;       /* T*k*d centred sums */
    double *M;       /* T*k masses */
    size_t *sub;     /* s: subset of each group */
    size_t *order;   /* s: groups ordered by cluster (cluster j: order[cs[j] .. cs[j+1])) */
    size_t *cs;      /* k+1 */
} split_state;

static double cell_loss(const split_state *z, size_t t, size_t j)
{
    double m = z->M[t * z->k + j];
    if (m <= 0.0)
        return 0.0;
    const double *S = z->S + (t * z->k + j) * z->d;
    double q = 0.0;
    for (size_t c = 0; c < z->d; c++)
        q += S[c] * S[c];
    return q / m;
}

static double total_loss(const split_state *z)
{
    double L = 0.0;
    for (size_t t = 0; t < z->T; t++)
        for (size_t j = 0; j < z->k; j++)
            L += cell_loss(z, t, j);
    return L;
}

/* add sign * m_a y_a of group a to its cell in subset t */
static void move_group(split_state *z, size_t a, size_t t, double sign)
{
    const ckm_reduced *r = z->r;
    size_t j = (size_t)z->lab[a], d = z->d;
    double m = r->mass[a];
    double *S = z->S + (t * z->k + j) * d;
    const double *x = r->mean + a * d, *mu = z->mu + j * d;
    for (size_t c = 0; c < d; c++)
        S[c] += sign * m * (x[c] - mu[c]);
    z->M[t * z->k + j] += sign * m;
}

/* change of the loss if groups a (in subset t) and b (in u), both of cluster j, swapped */
static double swap_delta(split_state *z, size_t a, size_t b)
{
    const ckm_reduced *r = z->r;
    size_t t = z->sub[a], u = z->sub[b], j = (size_t)z->lab[a], d = z->d, k = z->k;
    const double *xa = r->mean + a * d, *xb = r->mean + b * d, *mu = z->mu + j * d;
    double ma = r->mass[a], mb = r->mass[b];
    const double *St = z->S + (t * k + j) * d, *Su = z->S + (u * k + j) * d;
    double vv = 0.0, tv = 0.0, uv = 0.0, tt = 0.0, uu = 0.0;
    for (size_t c = 0; c < d; c++) {
        double vc = ma * (xa[c] - mu[c]) - mb * (xb[c] - mu[c]);
        vv += vc * vc;
        tv += St[c] * vc;
        uv += Su[c] * vc;
        tt += St[c] * St[c];
        uu += Su[c] * Su[c];
    }
    double Mt = z->M[t * k + j], Mu = z->M[u * k + j], dm = ma - mb;
    double before = tt / Mt + uu / Mu;
    double Mt2 = Mt - dm, Mu2 = Mu + dm;
    if (Mt2 <= 0.0 || Mu2 <= 0.0)
        return INFINITY;
    double after = (tt - 2.0 * tv + vv) / Mt2 + (uu + 2.0 * uv + vv) / Mu2;
    return after - before;
}

static void cluster_means(split_state *z)
{
    const ckm_reduced *r = z->r;
    size_t d = z->d;
    memset(z->mu, 0, z->k * d * sizeof(double));
    for (size_t j = 0; j < z->k; j++) {
        double m = 0.0;
        for (size_t q = z->cs[j]; q < z->cs[j + 1]; q++) {
            size_t a = z->order[q];
            m += r->mass[a];
            for (size_t c = 0; c < d; c++)
                z->mu[j * d + c] += r->mass[a] * r->mean[a * d + c];
        }
        for (size_t c = 0; c < d && m > 0.0; c++)
            z->mu[j * d + c] /= m;
    }
}

/* groups by cluster, each cluster in a seeded random order, dealt round-robin */
static void deal(split_state *z, ckm_rng *rng)
{
    size_t s = z->r->s, k = z->k;
    memset(z->cs, 0, (k + 1) * sizeof(size_t));
    for (size_t a = 0; a < s; a++)
        z->cs[(size_t)z->lab[a] + 1]++;
    for (size_t j = 0; j < k; j++)
        z->cs[j + 1] += z->cs[j];
    size_t *fill = z->sub; /* scratch until the deal below overwrites it */
    memcpy(fill, z->cs, k * sizeof(size_t));
    for (size_t a = 0; a < s; a++)
        z->order[fill[z->lab[a]]++] = a;
    for (size_t j = 0; j < k; j++) /* Fisher-Yates within each cluster */
        for (size_t q = z->cs[j + 1]; q > z->cs[j] + 1; q--) {
            size_t e = z->cs[j] + (size_t)ckm_rng_below(rng, q - z->cs[j]);
            size_t tmp = z->order[q - 1];
            z->order[q - 1] = z->order[e];
            z->order[e] = tmp;
        }
    cluster_means(z);
    for (size_t q = 0; q < s; q++) {
        size_t a = z->order[q];
        z->sub[a] = q % z->T;
        move_group(z, a, z->sub[a], 1.0);
    }
}

/* one improvement sweep; returns the loss it removed */
static double sweep(split_state *z, ckm_rng *rng, size_t *swaps)
{
    double gained = 0.0;
    for (size_t q = 0; q < z->r->s; q++) {
        size_t a = z->order[q], j = (size_t)z->lab[a];
        size_t lo = z->cs[j], span = z->cs[j + 1] - lo;
        if (span < 2)
            continue;
        size_t best = SIZE_MAX;
        double bd = 0.0;
        for (int tr = 0; tr < CERT_TRIES; tr++) {
            size_t b = z->order[lo + (size_t)ckm_rng_below(rng, span)];
            if (z->sub[b] == z->sub[a])
                continue;
            double dl = swap_delta(z, a, b);
            if (dl < bd) {
                bd = dl;
                best = b;
            }
        }
        if (best == SIZE_MAX)
            continue;
        size_t t = z->sub[a], u = z->sub[best];
        move_group(z, a, t, -1.0);
        move_group(z, best, u, -1.0);
        z->sub[a] = u;
        z->sub[best] = t;
        move_group(z, a, u, 1.0);
        move_group(z, best, t, 1.0);
        gained -= bd;
        (*swaps)++;
    }
    return gained;
}

ckm_error ckm_certify_split(const ckm_reduced *r, const int32_t *glabel, size_t T, uint64_t seed, size_t *sub,
                            ckm_split_stats *st, ckm_err *err)
{
    size_t k = r->k, d = r->d, s = r->s;
    memset(st, 0, sizeof *st);
    split_state z = {.r = r, .lab = glabel, .T = T, .k = k, .d = d, .sub = sub};
    z.mu = ckm_calloc_array(k * d, sizeof(double));
    size_t tk = 0, tkd = 0;
    bool fits = ckm_mul_ok(T, k, &tk) && ckm_mul_ok(tk, d, &tkd);
    z.S = fits ? ckm_calloc_array(tkd, sizeof(double)) : NULL;
    z.M = ckm_calloc_array(T * k, sizeof(double));
    z.order = ckm_alloc_array(s, sizeof(size_t));
    z.cs = ckm_alloc_array(k + 1, sizeof(size_t));
    ckm_error rc = CKM_OK;
    if (!z.mu || !z.S || !z.M || !z.order || !z.cs) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for the split (%zu subsets x %zu clusters x %zu "
                                          "features)", T, k, d);
        goto done;
    }
    ckm_rng rng;
    ckm_rng_seed(&rng, seed, 0xce27);
    deal(&z, &rng);
    st->loss_dealt = total_loss(&z);
    double loss = st->loss_dealt;
    for (int sw = 0; sw < CERT_SWEEPS && T > 1 && loss > 0.0; sw++) {
        double g = sweep(&z, &rng, &st->swaps);
        st->sweeps = sw + 1;
        loss = total_loss(&z); /* recomputed, not accumulated: no drift */
        if (g <= CERT_STALL * loss)
            break;
    }
    st->loss = loss;
done:
    free(z.mu);
    free(z.S);
    free(z.M);
    free(z.order);
    free(z.cs);
    return rc;
}

size_t ckm_certify_subset_count(size_t s, size_t k, double time_limit_s, int workers, double mem_bytes)
{
    if (s <= 1 || k == 1) /* k = 1: the whole problem's optimum is its total scatter, no split */
        return 1;
    double W = workers > 0 ? (double)workers : 1.0;
    size_t m = CKM_CERTIFY_DEFAULT_GROUPS;
    if (time_limit_s > 0.0) {
        /* largest m with ceil(s/m) subsets of ITERATIONS iterations each in half the limit */
        size_t lo = 2, hi = CKM_SDP_MAX_GROUPS;
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            double subsets = ceil((double)s / (double)mid);
            double t = subsets * CKM_CERTIFY_ITERATIONS * ckm_sdp_iteration_estimate_s(mid) / fmin(W, subsets);
            if (t <= 0.5 * time_limit_s)
                lo = mid;
            else
                hi = mid - 1;
        }
        m = lo;
    }
    size_t cap = ckm_certify_groups_cap(workers, mem_bytes);
    if (m > cap)
        m = cap;
    if (m < 4 * k + 1)
        m = 4 * k + 1; /* subsets need more groups than clusters for a bound above their scatter */
    if (m >= s)
        return 1;
    return (s + m - 1) / m;
}

size_t ckm_certify_groups_cap(int workers, double mem_bytes)
{
    double W = workers > 0 ? (double)workers : 1.0, cap = CKM_SDP_MAX_GROUPS;
    if (mem_bytes > 0.0) /* each worker's relaxation: ~120 m^2 bytes (ckm_bytes_ipc) */
        cap = fmin(cap, floor(sqrt(0.5 * mem_bytes / (120.0 * W))));
    return (size_t)cap;
}
