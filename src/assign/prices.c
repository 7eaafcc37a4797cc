/*
 * prices.c -- Lagrangian prices on the capacity and size rows of an assignment step (prices.h),
 * in O(s k) memory and time per sweep: the priced route's bound and labels
 * (route_priced.c), and the first prices of the restricted route's capacity steps.
 *
 * Relax the rows  Lc_j <= sum_t Q_t y_tj <= Uc_j  (capacities, multiplier p_j) and, with size
 * bounds, Ls_j <= sum_t W_t y_tj <= Us_j (multiplier pi_j); a multiplier's sign says which
 * side it prices (> 0 the lower bound, < 0 the upper). With
 *   v_tj = c_tj - Q_t p_j - W_t pi_j,     h(x; L, U) = x L (x >= 0),  x U (x < 0),
 *   g(p, pi) = sum_t min_j v_tj + sum_j h(p_j; Lc_j, Uc_j) + sum_j h(pi_j; Ls_j, Us_j),
 * every labelling l that keeps the rows (cannot-links are relaxed as well) costs
 *   cost(l) = sum_t v_t,l(t) + sum_j (p_j load_j + pi_j size_j)
 *          >= g(p, pi) + sum_t rc_t,l(t),    rc_tj = v_tj - min_i v_ti >= 0,
 * because x z >= h(x; L, U) for every z in [L, U]. So g is a lower bound on the step's
 * optimum for any prices, and rc are reduced costs for which the fixing (fix.h) is
 * valid: a labelling that beats an incumbent of cost z_inc uses no column with
 * rc > z_inc - g. Every number used is recomputed from the costs and the prices (never a
 * solver's value), so the bound is as safe as the prices are finite.
 *
 * Prices: cyclic coordinate ascent, each coordinate maximised exactly. With the others fixed,
 * group t sits in j for theta = p_j (or pi_j) exactly when theta > b_t = (u_t - m_t) / a_t
 * (u_t: v_tj at theta = 0, m_t = min_{i != j} v_ti, a_t: Q_t or W_t), so the row's load is
 * the step function sum_{b_t < theta} a_t and g's superdifferential in theta is
 * [-load(theta+) , -load(theta-)] + h's. The maximiser: 0 when load(0) is within [L, U];
 * else the least breakpoint where the load reaches L (theta > 0) or the greatest where it
 * falls to U (theta < 0), found by weighted selection in O(s) expected. The price is set
 * 1e-9 (|theta| + 1) past the breakpoint, so the argmin labels keep that row (the
 * epsilon-relaxation of network flows; exact coordinate ascent alone can stall at a corner
 * of the piecewise-linear g). Sweeps until g rises by less than 1e-7 (|g| + 1) in a sweep,
 * 400 sweeps or a limit; the best g seen, and its prices, are kept. The prices carry over
 * to the next step (the centers move little), so later steps take few sweeps.
 *
 */
#include "core.h"
#include "prices.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef ckm_prices_brk brk;

void ckm_prices_free(ckm_prices *P)
{
    if (!P)
        return;
    free(P->p);
    free(P->pbest);
    free(P->v);
    free(P->arg);
    free(P->arg2);
    free(P->bv);
    free(P->sv);
    free(P->b);
    free(P);
}

ckm_prices *ckm_prices_new(const ckm_reduced *r)
{
    ckm_prices *P = calloc(1, sizeof *P);
    if (!P)
        return NULL;
    size_t s = r->s, k = r->k;
    P->s = s;
    P->k = k;
    P->nrow = r->has_sizes ? 2 * k : k;
    P->p = ckm_calloc_array(P->nrow, sizeof(double));
    P->pbest = ckm_calloc_array(P->nrow, sizeof(double));
    P->v = ckm_alloc_array(s * k, sizeof(double));
    P->arg = ckm_alloc_array(s, sizeof(int32_t));
    P->arg2 = ckm_alloc_array(s, sizeof(int32_t));
    P->bv = ckm_alloc_array(s, sizeof(double));
    P->sv = ckm_alloc_array(s, sizeof(double));
    P->b = ckm_alloc_array(s, sizeof(brk));
    if (!P->p || !P->pbest || !P->v || !P->arg || !P->arg2 || !P->bv || !P->sv || !P->b) {
        ckm_prices_free(P);
        return NULL;
    }
    return P;
}

double ckm_prices_bytes(const ckm_reduced *r)
{
    /* v (8 per (t, j)); per group the minima, labels and breakpoints, about 48 bytes */
    return 8.0 * (double)r->s * (double)r->k + 48.0 * (double)r->s;
}

/* Row rho's coefficient of group t and its bounds. */
static double coef(const ckm_reduced *r, size_t rho, size_t t)
{
    return rho < r->k ? r->demand[t] : (double)r->weight[t];
}

static void bounds(const ckm_reduced *r, size_t rho, double *L, double *U)
{
    size_t k = r->k;
    *L = rho < k ? r->cap_lo[rho] : (double)r->lo[rho - k];
    *U = rho < k ? r->cap_hi[rho] : (double)r->hi[rho - k];
}

static double h_of(double x, double L, double U)
{
    return x >= 0.0 ? (x > 0.0 ? x * L : 0.0) : x * U;
}

/* Min and second min of group t's v. */
static void scan(ckm_prices *P, size_t t)
{
    size_t k = P->k;
    const double *v = P->v + t * k;
    size_t a = 0, b = k > 1 ? 1 : 0;
    if (k > 1 && v[1] < v[0]) {
        a = 1;
        b = 0;
    }
    for (size_t j = 2; j < k; j++) {
        if (v[j] < v[a]) {
            b = a;
            a = j;
        } else if (v[j] < v[b]) {
            b = j;
        }
    }
    P->arg[t] = (int32_t)a;
    P->arg2[t] = (int32_t)b;
    P->bv[t] = v[a];
    P->sv[t] = k > 1 ? v[b] : INFINITY;
}

/* v from the costs and the prices, and every group's min; returns g. */
static double refresh(ckm_prices *P, const ckm_reduced *r, const double *cost)
{
    size_t s = P->s, k = P->k;
    const double *pc = P->p, *ps = P->nrow > k ? P->p + k : NULL;
    double g = 0.0;
    for (size_t t = 0; t < s; t++) {
        double q = r->demand[t], w = (double)r->weight[t];
        for (size_t j = 0; j < k; j++)
            P->v[t * k + j] = cost[t * k + j] - q * pc[j] - (ps ? w * ps[j] : 0.0);
        scan(P, t);
        g += P->bv[t];
    }
    for (size_t rho = 0; rho < P->nrow; rho++) { /* a load counts within [L - tau, U + tau] */
        double L, U, tol = rho < k ? r->cap_tol : 0.0;
        bounds(r, rho, &L, &U);
        g += h_of(P->p[rho], L - tol, U + tol);
    }
    return g;
}

/* The least value x among b[0..n) with sum_{b_i <= x} a_i >= need (weighted selection;
 * need <= the total). Reorders b. */
static double select_reach(brk *b, size_t n, double need)
{
    size_t lo = 0, hi = n;
    for (;;) {
        if (hi - lo == 1)
            return b[lo].b;
        double x = b[lo].b, y = b[lo + (hi - lo) / 2].b, z = b[hi - 1].b;
        double piv = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        /* three-way partition: [lo, lt) < piv, [lt, gt) == piv, [gt, hi) > piv */
        size_t lt = lo, i = lo, gt = hi;
        double wl = 0.0, we = 0.0;
        while (i < gt) {
            if (b[i].b < piv) {
                wl += b[i].a;
                brk tmp = b[lt];
                b[lt++] = b[i];
                b[i++] = tmp;
            } else if (b[i].b > piv) {
                brk tmp = b[--gt];
                b[gt] = b[i];
                b[i] = tmp;
            } else {
                we += b[i++].a;
            }
        }
        if (wl >= need && lt > lo) {
            hi = lt;
        } else if (wl + we >= need || gt == hi) {
            return piv;
        } else {
            need -= wl + we;
            lo = gt;
        }
    }
}

/* Maximise g over row rho's price, the others fixed (the header's rule), and update v and
 * the groups' minima. */
static void coordinate(ckm_prices *P, const ckm_reduced *r, size_t rho)
{
    size_t s = P->s, k = P->k, j = rho % k;
    double L, U, old = P->p[rho];
    bounds(r, rho, &L, &U);
    double below = 0.0, at_or_below = 0.0, tol = rho < k ? r->cap_tol : 0.0;
    for (size_t t = 0; t < s; t++) {
        double a = coef(r, rho, t), u = P->v[t * k + j] + a * old;
        double m = (size_t)P->arg[t] == j ? P->sv[t] : P->bv[t];
        double bt = a != 0.0 ? (u - m) / a : NAN; /* a zero demand loads no row: no breakpoint */
        P->b[t] = (brk){bt, a};
        below += bt < 0.0 ? a : 0.0;
        at_or_below += bt <= 0.0 ? a : 0.0;
    }
    double theta = 0.0;
    if (at_or_below < L - tol) { /* raise: the least breakpoint > 0 where the load reaches L */
        size_t n = 0;
        for (size_t t = 0; t < s; t++)
            if (P->b[t].b > 0.0)
                P->b[n++] = P->b[t];
        if (n == 0)
            return;
        double x = select_reach(P->b, n, L - at_or_below);
        theta = x + 1e-9 * (fabs(x) + 1.0);
    } else if (below > U + tol) { /* lower: the greatest breakpoint < 0 where it falls to U */
        size_t n = 0;
        for (size_t t = 0; t < s; t++)
            if (P->b[t].b < 0.0)
                P->b[n++] = (brk){-P->b[t].b, P->b[t].a};
        if (n == 0)
            return;
        double x = -select_reach(P->b, n, below - U);
        theta = x - 1e-9 * (fabs(x) + 1.0);
    }
    double delta = theta - old;
    if (delta == 0.0)
        return;
    P->p[rho] = theta;
    for (size_t t = 0; t < s; t++) {
        double *vt = P->v + t * k, nv = vt[j] - coef(r, rho, t) * delta;
        vt[j] = nv;
        size_t a = (size_t)P->arg[t], b = (size_t)P->arg2[t];
        if (a == j ? nv > P->sv[t] : b == j ? delta < 0.0 : false) {
            scan(P, t); /* j was the min or the second and rose past another */
        } else if (a == j) {
            P->bv[t] = nv;
        } else if (nv < P->bv[t]) {
            P->arg2[t] = (int32_t)a;
            P->sv[t] = P->bv[t];
            P->arg[t] = (int32_t)j;
            P->bv[t] = nv;
        } else if (b == j || nv < P->sv[t]) {
            P->arg2[t] = (int32_t)j;
            P->sv[t] = nv;
        }
    }
}

/* The ascent of the header; returns the best g (its prices in P->p, v refreshed for them). */
double ckm_prices_ascend(ckm_prices *P, const ckm_reduced *r, const double *cost, const ckm_bk_limits *lim,
                         size_t *sweeps)
{
    double g = refresh(P, r, cost), best = g, prev = g;
    memcpy(P->pbest, P->p, P->nrow * sizeof(double));
    size_t n = 0;
    while (n < 400 && !ckm_bk_limits_reached(lim)) {
        for (size_t rho = 0; rho < P->nrow; rho++)
            coordinate(P, r, rho);
        n++;
        g = refresh(P, r, cost); /* from scratch: no drift from the updates */
        if (g > best) {
            best = g;
            memcpy(P->pbest, P->p, P->nrow * sizeof(double));
        }
        if (g - prev < 1e-7 * (fabs(g) + 1.0))
            break;
        prev = g;
    }
    if (g < best) {
        memcpy(P->p, P->pbest, P->nrow * sizeof(double));
        best = refresh(P, r, cost);
    }
    *sweeps = n;
    return best;
}


double ckm_prices_cap(const ckm_prices *P, const ckm_reduced *r, size_t j)
{
    return r->has_caps ? P->p[j] : 0.0;
}

double ckm_prices_size(const ckm_prices *P, const ckm_reduced *r, size_t j)
{
    return r->has_sizes ? P->p[P->k + j] : 0.0;
}
