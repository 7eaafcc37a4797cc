/*
 * sdp_admm.c -- the relaxation's setup and its solver: the symmetric Gauss-Seidel ADMM on
 * the dual (ADMM+ of Sun, Toh & Yang; the first phase of SDPNAL+, which PC-SOS-SDP used):
 *   (D)  max b'y  s.t.  A*(y) + S + V = C,  S PSD,  V >= 0
 * (cuts: + B*(u), u = r >= 0, B(X) - t = d, t >= 0)
 * with the primal X (and t) as multipliers, penalty sigma, step tau = 1.618. One iteration:
 *   1. V = max(C - A*y - B*u - S - X/sigma, 0);  r = max(u - t/sigma, 0)
 *   2. (y, u) from the fixed linear system of solve_yu (with cuts: sdp_cutsys.c)
 *   3. M = C - A*y - B*u - V - X/sigma = Q Lam Q';  S = Pi_+(M);  Xhat = sigma Pi_+(-M) (PSD;
 *      eigenvectors of one side only, see project)
 *   4. (y, u) again, with the new S
 *   5. X += tau sigma (A*y + B*u + S + V - C), symmetrised;  t += tau sigma (r - u)
 * AA* is fixed (docs/formulations.md gives it in closed form); (AA*)^{-1} is applied in closed
 * form, with the cannot-link rows by block elimination (sdp_aat.c). Residuals
 * eta_p = max(||A(Xhat) - b|| / (1 + ||b||), ||min(Xhat, 0)|| / (1 + ||Xhat||)),
 * eta_d = ||A*y + S + V - C|| / (1 + ||C||), eta_g = |<C,Xhat> - b'y| / (1 + |.| + |.|);
 * stop at max <= tol. sigma: every 10 iterations note whether eta_p > 2 eta_d or the
 * reverse; at most every 50 iterations divide (resp. multiply) sigma by 1.25 when 3 of the
 * last 5 notes agree; sigma in [1e-4, 1e4]. The safe bound (sdp_bound.c) is evaluated
 * every 20 iterations and at the end; the best one is kept.
 * Hopeless stop (params.hopeless_window = w): with an incumbent U, at a bound check at
 * iteration it with best bound L_it, stop when even
 *   L_it + (L_it - L_{it-w}) / w * (max_iter - it)
 * (the rise of the last w iterations kept up to the iteration cap) does not close the gap
 * to U (ckm_gap_closed). The safe bound's rise slows as the ADMM converges (a child of glass
 * ml_0_cl_50_0, 213 groups, 2805 inherited cuts: +3.7e-2 from iteration 200 to 300, +2.8e-4
 * from 1900 to 2000, converged at 2249 with 0.09 % left to the incumbent), so the straight
 * line usually overestimates where the bound gets; what the stop may forgo is a late jump (a
 * change of sigma can lift the bound), paid for by a branch. The bound kept (the best so far)
 * stays valid, only less tight.
 */
#include "linalg.h"
#include "sdp_impl.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double ckm_sdp_iteration_estimate_s(size_t s)
{
    double x = (double)s;
    return 2.5e-10 * x * x * x;
}

void ckm_sdp_params_default(ckm_sdp_params *par)
{
    par->max_iter = 3000;
    par->tol = 1e-5;
    par->upper_bound = INFINITY;
    par->prune_tol = 1e-4;
    par->tss = 0.0;
    par->threads = 1;
    par->hopeless_window = 0;
}

void ckm_sdp_free(ckm_sdp *p)
{
    if (!p)
        return;
    double *arrs[] = {p->v, p->C, p->X, p->S, p->V, p->Xhat, p->M, p->N, p->Q, p->ev, p->T, p->y, p->Hinv, p->ax,
                      p->d, p->u, p->r, p->t, p->bx, p->wk};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++)
        free(arrs[i]);
    free(p->cl);
    free(p->is_cl);
    free(p->bstart);
    free(p->bent);
    free(p->btype);
    free(p->dem);
    free(p->eigwork);
    ckm_sdp_cutsys_free(&p->sys);
    free(p);
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The range [c_min, c_max] of any cluster's mass in a feasible labelling (the size rows
 * 1/c_max <= Zhat_ii <= 1/c_min). Unweighted (mass = points):
 *   c_max <= n - (the k-1 smallest group sizes), n - (sum of the k-1 smallest max(lo_j, 1)),
 *            max_j hi_j;
 *   c_min >= min_j max(lo_j, 1), n - (sum of the k-1 largest hi_j).
 * With sample weights, Zhat_ii = W_i / (mass of i's cluster) and size bounds count points, not
 * mass, so only the group masses bound it: total - (the k-1 smallest masses) and the smallest
 * mass. false on allocation failure. */
static bool cluster_mass_range(const ckm_reduced *r, double *c_min, double *c_max)
{
    size_t s = r->s, k = r->k;
    size_t *ws = ckm_alloc_array(s, sizeof(size_t)), *ls = ckm_alloc_array(k, sizeof(size_t));
    size_t *hs = ckm_alloc_array(k, sizeof(size_t));
    double *ms = r->w ? ckm_alloc_array(s, sizeof(double)) : NULL;
    bool ok = ws && ls && hs && (!r->w || ms);
    if (ok && !r->w) {
        memcpy(ws, r->weight, s * sizeof(size_t));
        for (size_t j = 0; j < k; j++) {
            ls[j] = r->lo[j] > 1 ? r->lo[j] : 1;
            hs[j] = r->hi[j];
        }
        qsort(ws, s, sizeof(size_t), by_size);
        qsort(ls, k, sizeof(size_t), by_size);
        qsort(hs, k, sizeof(size_t), by_size);
        size_t sw = 0, sl = 0, sh = 0;
        for (size_t j = 0; j + 1 < k; j++) {
            sw += ws[j];
            sl += ls[j];
            sh += hs[j + 1];
        }
        double cm = (double)(r->n - sw);
        cm = fmin(cm, (double)(r->n > sl ? r->n - sl : 1));
        cm = fmin(cm, (double)hs[k - 1]);
        *c_max = fmax(cm, 1.0);
        double cn = (double)ls[0];
        if (r->n > sh)
            cn = fmax(cn, (double)(r->n - sh));
        *c_min = fmin(cn, *c_max);
    } else if (ok) {
        memcpy(ms, r->mass, s * sizeof(double));
        qsort(ms, s, sizeof(double), by_value);
        double small = 0.0;
        for (size_t j = 0; j + 1 < k; j++)
            small += ms[j];
        *c_max = fmax(r->total_mass - small, ms[0]);
        *c_min = ms[0];
    }
    free(ws);
    free(ls);
    free(hs);
    free(ms);
    return ok;
}

/* The capacity rows' data (sdp_cuts.c): the group demands and the loosest bounds over
 * clusters with the checker's tolerance. false on allocation failure. */
static bool capacity_data(ckm_sdp *p, const ckm_reduced *r)
{
    if (!r->has_caps)
        return true;
    if (!(p->dem = ckm_alloc_array(r->s, sizeof(double))))
        return false;
    memcpy(p->dem, r->demand, r->s * sizeof(double));
    p->cap_lo = INFINITY;
    p->cap_hi = 0.0;
    for (size_t j = 0; j < r->k; j++) {
        p->cap_lo = fmin(p->cap_lo, r->cap_lo[j]);
        p->cap_hi = fmax(p->cap_hi, r->cap_hi[j]);
    }
    p->cap_lo = fmax(0.0, p->cap_lo - r->cap_tol);
    p->cap_hi += r->cap_tol;
    return true;
}

static ckm_error solve_loop(ckm_sdp *p, const ckm_context *ctx, const ckm_sdp_params *par, ckm_sdp_info *info,
                            const ckm_status *poll_why, ckm_err *err);

ckm_error ckm_sdp_create(const ckm_reduced *r, const ckm_context *ctx, ckm_sdp **out, ckm_status *why,
                         ckm_err *err)
{
    *out = NULL;
    size_t s = r->s, d = r->d, ss, ll;
    if (s < 2)
        return ckm_fail(err, CKM_ERR_INVALID, "sdp: needs at least 2 groups (got %zu)", s);
    if (s > CKM_SDP_MAX_GROUPS) /* nine dense s x s matrices, one s x s eigendecomposition per iteration */
        return ckm_fail(err, CKM_ERR_UNSUPPORTED,
                        "the SDP bound handles at most %d must-link groups, this problem has %zu (it would need "
                        "%.1f GB of dense matrices); merge points with must-links or use blpkm",
                        CKM_SDP_MAX_GROUPS, s, 9.0 * 8.0 * (double)s * (double)s / 1e9);
    size_t m = s + 1 + r->n_cl;
    if (!ckm_mul_ok(s, s, &ss) || !ckm_mul_ok(r->n_cl, r->n_cl, &ll))
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: %zu x %zu or %zu x %zu overflows", s, s, r->n_cl, r->n_cl);
    ckm_sdp *p = calloc(1, sizeof *p);
    double *G = NULL, *mu = NULL;
    ckm_error rc = CKM_OK;
    if (!p) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory");
        goto done;
    }
    p->s = s;
    p->k = r->k;
    p->nl = r->n_cl;
    p->m = m;
    double **mats[] = {&p->C, &p->X, &p->S, &p->V, &p->Xhat, &p->M, &p->N, &p->Q, &p->T};
    bool ok = true;
    for (size_t i = 0; i < sizeof mats / sizeof mats[0]; i++)
        ok = ok && (*mats[i] = ckm_calloc_array(ss, sizeof(double))) != NULL;
    ok = ok && (p->v = ckm_alloc_array(s, sizeof(double))) && (p->ev = ckm_alloc_array(s, sizeof(double))) &&
         (p->y = ckm_calloc_array(m, sizeof(double))) && (p->ax = ckm_alloc_array(m, sizeof(double))) &&
         (p->eigwork = malloc(ckm_eig_work_bytes(s))) && (p->Hinv = ckm_alloc_array(ll + 1, sizeof(double))) &&
         (p->cl = ckm_alloc_array(2 * p->nl + 1, sizeof(size_t))) && (G = ckm_alloc_array(s * d, sizeof(double))) &&
         (mu = ckm_calloc_array(d, sizeof(double)));
    if (!ok) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory for %zu x %zu matrices", s, s);
        goto done;
    }
    size_t mc = p->max_cuts = CKM_SDP_MAX_CUTS;
    ok = (p->is_cl = calloc(ss, 1)) && (p->bstart = ckm_calloc_array(mc + 1, sizeof(size_t))) &&
         (p->btype = calloc(mc, 1)) && (p->d = ckm_calloc_array(mc, sizeof(double))) &&
         (p->u = ckm_calloc_array(mc, sizeof(double))) && (p->r = ckm_calloc_array(mc, sizeof(double))) &&
         (p->t = ckm_calloc_array(mc, sizeof(double))) && (p->bx = ckm_calloc_array(mc, sizeof(double))) &&
         (p->wk = ckm_calloc_array(m, sizeof(double))) && ckm_sdp_cutsys_alloc(&p->sys, m, mc);
    if (!ok) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory for the cut system");
        goto done;
    }
    if (p->nl > 0)
        memcpy(p->cl, r->cl, 2 * p->nl * sizeof(size_t));
    for (size_t e = 0; e < p->nl; e++)
        p->is_cl[p->cl[2 * e] * s + p->cl[2 * e + 1]] = p->is_cl[p->cl[2 * e + 1] * s + p->cl[2 * e]] = 1;
    if (!cluster_mass_range(r, &p->c_min, &p->c_max) || !capacity_data(p, r)) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory");
        goto done;
    }
    /* centre: mu = data mean; G_t = v_t (m_t - mu); tau0 = scatter + sum_t w_t ||m_t - mu||^2 */
    p->n = r->total_mass; /* = v'v, the number of points without sample weights */
    for (size_t t = 0; t < s; t++)
        for (size_t f = 0; f < d; f++)
            mu[f] += r->mass[t] * r->mean[t * d + f] / p->n;
    p->tau0 = r->scatter;
    for (size_t t = 0; t < s; t++) {
        p->v[t] = sqrt(r->mass[t]);
        for (size_t f = 0; f < d; f++) {
            double c = r->mean[t * d + f] - mu[f];
            G[t * d + f] = p->v[t] * c;
            p->tau0 += r->mass[t] * c * c;
        }
    }
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)s, (int)s, (int)d, -1.0, G, (int)d, G, (int)d, 0.0,
                p->C, (int)s);
    double fro = 0.0;
    for (size_t q = 0; q < ss; q++)
        fro += p->C[q] * p->C[q];
    p->cs = fmax(1.0, sqrt(fro));
    for (size_t i = 0; i < s; i++) /* exact symmetry, then scale */
        for (size_t j = 0; j <= i; j++) {
            double a = 0.5 * (p->C[i * s + j] + p->C[j * s + i]) / p->cs;
            p->C[i * s + j] = p->C[j * s + i] = a;
        }
    ckm_ctx_poll_state cs = {ctx, CKM_STATUS_FEASIBLE};
    int inv = ckm_sdp_aat_prepare(p, ctx ? ckm_ctx_poll : NULL, &cs);
    if (inv == -3) { /* stopped: no relaxation, the caller goes on without one */
        *why = cs.why;
        ckm_sdp_free(p);
        p = NULL;
        goto done;
    }
    if (inv == -1) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory inverting AA*'s link block (%zu x %zu)", p->nl, p->nl);
        goto done;
    }
    if (inv != 0) {
        rc = ckm_fail(err, CKM_ERR_INTERNAL, "sdp: AA* is not positive definite (s = %zu, %zu links)", s, p->nl);
        goto done;
    }
    p->sigma = 1.0;
    p->best_lb = -INFINITY;
done:
    free(G);
    free(mu);
    if (rc != CKM_OK) {
        ckm_sdp_free(p);
        return rc;
    }
    *out = p;
    return CKM_OK;
}

const double *ckm_sdp_xhat(const ckm_sdp *p) { return p->Xhat; }


/* The parts of the (y, u) right-hand side that stay fixed within an iteration (X, t, r and
 * sigma change only between the two solves' iterations): ax = (b - A(X))/sigma,
 * bx = (d - B(X) + t)/sigma + r. Computed once per iteration, used by both solve_yu calls. */
static void yu_base(ckm_sdp *p)
{
    size_t s = p->s;
    ckm_sdp_A(p, p->X, p->ax);
    for (size_t i = 0; i < p->m; i++) {
        double b = i < s ? p->v[i] : (i == s ? (double)p->k : 0.0);
        p->ax[i] = (b - p->ax[i]) / p->sigma;
    }
    ckm_sdp_B(p, p->X, p->bx);
    for (size_t l = 0; l < p->nb; l++)
        p->bx[l] = (p->d[l] - p->bx[l] + p->t[l]) / p->sigma + p->r[l];
}

/* [AA* AB*; BA* BB* + I] [y; u] = [(b - A(X))/sigma - A(G); (d - B(X) + t)/sigma - B(G) + r],
 * G = S + V - C (the fixed parts from yu_base); with cuts through sdp_cutsys.c. */
static void solve_yu(ckm_sdp *p)
{
    size_t ss = p->s * p->s, m = p->m, nb = p->nb;
    for (size_t q = 0; q < ss; q++)
        p->T[q] = p->S[q] + p->V[q] - p->C[q];
    ckm_sdp_A(p, p->T, p->y);
    for (size_t i = 0; i < m; i++)
        p->y[i] = p->ax[i] - p->y[i];
    if (nb == 0) {
        ckm_sdp_kinv(p, p->y);
        return;
    }
    double *ru = p->sys.ch;
    ckm_sdp_B(p, p->T, ru);
    for (size_t l = 0; l < nb; l++)
        ru[l] = p->bx[l] - ru[l];
    ckm_sdp_cut_solve(p, p->y, ru);
}

/* M = C - A*y - B*u - V - X/sigma; S = Pi_+(M); Xhat = sigma Pi_+(-M), from
 *   N = -Pi_-(M) = sum_{lambda < 0} (-lambda) q q'            (the negative eigenpairs), or
 *   N = Pi_+(M) - M = sum_{lambda > 0} lambda q q' - M       (the positive ones),
 * whichever side had fewer eigenvalues at the last projection; only that side's vectors are
 * computed (ckm_eig_sym_side), and only its eigenvalues too while that side had at most s/8
 * (MRRR: O(s) per vector), or s/4 with two threads (the vectors in two halves, one per
 * thread; T is free here and holds the second thread's copy of the reflectors). Measured at
 * s = 500 (ECG5000's root, 77 and 93 negative eigenvalues, one OpenBLAS thread): dstedc +
 * dormtr 9.1-9.3 ms, two MRRR halves 5.2-5.7 ms; dsytrd 4.9 ms either way; bench/eig_side.c
 * on a synthetic spectrum: 7.0 / 7.4 against 4.7 / 5.7 ms, even at 125 wanted (s/4). Xhat has rank
 * about k near the optimum, so the negative side is the usual one. Returns 1, or
 * ckm_eig_sym_side's failure (-1 out of memory, -2 LAPACK). */
static int project(ckm_sdp *p, int threads)
{
    size_t s = p->s, ss = s * s;
    for (size_t q = 0; q < ss; q++)
        p->M[q] = p->C[q] - p->V[q] - p->X[q] / p->sigma;
    ckm_sdp_At_add(p, p->y, -1.0, p->M);
    ckm_sdp_Bt_add(p, p->u, -1.0, p->M);
    for (size_t i = 0; i < s; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (p->M[i * s + j] + p->M[j * s + i]);
            p->M[i * s + j] = p->M[j * s + i] = a;
        }
    size_t found = 0, neg = 0, first = 0;
    bool negative_side = 2 * p->neg_last <= s; /* N from the negative eigenpairs, else from Pi_+(M) */
    size_t side = negative_side ? p->neg_last : s - p->neg_last, most = threads > 1 ? s / 4 : s / 8;
    bool few = side <= most;
    memcpy(p->N, p->M, ss * sizeof(double));
    int which = negative_side;
    int how = ckm_eig_sym_side(s, p->N, &which, few, p->ev, p->Q, &first, &found, p->eigwork,
                               threads > 1 ? p->T : NULL, p->poll, p->poll_user);
    negative_side = which != 0; /* with polls the solver takes the side with fewer vectors */
    if (how < 0)
        return how;
    if (how == 1) /* only that side's eigenvalues: the other side's count by difference */
        neg = negative_side ? found : s - found;
    else
        while (neg < s && p->ev[neg] < 0.0)
            neg++;
    p->neg_last = neg;
    /* rows of Q scaled by sqrt(|lambda|): N (or Pi_+(M)) = Q' Q over the found rows */
    double *Qf = p->Q + first * s;
    for (size_t c = 0; c < found; c++) {
        double f = sqrt(fabs(p->ev[first + c]));
        for (size_t i = 0; i < s; i++)
            Qf[c * s + i] *= f;
    }
    if (found > 0)
        cblas_dsyrk(CblasRowMajor, CblasLower, CblasTrans, (int)s, (int)found, 1.0, Qf, (int)s, 0.0, p->N, (int)s);
    else
        memset(p->N, 0, ss * sizeof(double));
    for (size_t i = 0; i < s; i++)
        for (size_t j = 0; j < i; j++)
            p->N[j * s + i] = p->N[i * s + j];
    if (!negative_side)
        for (size_t q = 0; q < ss; q++)
            p->N[q] -= p->M[q];
    for (size_t q = 0; q < ss; q++) {
        p->S[q] = p->M[q] + p->N[q];
        p->Xhat[q] = p->sigma * p->N[q];
    }
    return 1;
}

ckm_error ckm_sdp_solve(ckm_sdp *p, const ckm_context *ctx, const ckm_sdp_params *par, ckm_sdp_info *info,
                        ckm_err *err)
{
    ckm_ctx_poll_state poll = {ctx, CKM_STATUS_FEASIBLE}; /* the eigensolver's polls (sdp_impl.h) */
    p->poll = ctx ? ckm_ctx_poll : NULL;
    p->poll_user = &poll;
    ckm_error rc = solve_loop(p, ctx, par, info, &poll.why, err);
    p->poll = NULL;
    p->poll_user = NULL;
    return rc;
}

/* Step 1: V = max(C - S - X / sigma - A*(y) - B*(u), 0) (exactly symmetric) and the cut
 * slacks r = max(u - t / sigma, 0). */
static void v_update(ckm_sdp *p)
{
    size_t s = p->s, ss = s * s;
    for (size_t q = 0; q < ss; q++)
        p->T[q] = p->C[q] - p->S[q] - p->X[q] / p->sigma;
    ckm_sdp_At_add(p, p->y, -1.0, p->T);
    ckm_sdp_Bt_add(p, p->u, -1.0, p->T);
    /* (max(x, 0) as x > 0 ? x : 0, which gcc vectorises and fmax is not: the same
     * values, NaN included) */
    for (size_t q = 0; q < ss; q++)
        p->V[q] = p->T[q] > 0.0 ? p->T[q] : 0.0;
    for (size_t l = 0; l < p->nb; l++) {
        double g = p->u[l] - p->t[l] / p->sigma;
        p->r[l] = g > 0.0 ? g : 0.0;
    }
    for (size_t i = 0; i < s; i++) /* exact symmetry of V */
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (p->V[i * s + j] + p->V[j * s + i]);
            p->V[i * s + j] = p->V[j * s + i] = a;
        }
}

/* Step 5: X += tau sigma (S + V - C + A*(y) + B*(u)) (exactly symmetric) and t += tau sigma
 * (r - u); returns the squared dual residual, *dn = ||d||^2. */
static double x_update(ckm_sdp *p, double tau, double *dn_out)
{
    size_t s = p->s, ss = s * s;
    double rd = 0.0;
    for (size_t q = 0; q < ss; q++)
        p->T[q] = p->S[q] + p->V[q] - p->C[q];
    ckm_sdp_At_add(p, p->y, 1.0, p->T);
    ckm_sdp_Bt_add(p, p->u, 1.0, p->T);
    for (size_t q = 0; q < ss; q++) {
        rd += p->T[q] * p->T[q];
        p->X[q] += tau * p->sigma * p->T[q];
    }
    double dn = 0.0;
    for (size_t l = 0; l < p->nb; l++) {
        double rr = p->r[l] - p->u[l];
        rd += rr * rr;
        p->t[l] += tau * p->sigma * rr;
        dn += p->d[l] * p->d[l];
    }
    for (size_t i = 0; i < s; i++)
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (p->X[i * s + j] + p->X[j * s + i]);
            p->X[i * s + j] = p->X[j * s + i] = a;
        }
    *dn_out = dn;
    return rd;
}

typedef struct sdp_eta {
    double p, d, g;    /* relative primal and dual infeasibility, relative gap */
    double pobj, dobj; /* <C, Xhat> and the dual objective, scaled units */
} sdp_eta;

/* The iterate's residuals and objectives (rd: squared dual residual, dn = ||d||^2). */
static void measure(ckm_sdp *p, double bnorm, double cnorm, double rd, double dn, sdp_eta *e)
{
    size_t s = p->s, ss = s * s, m = p->m;
    double cutinf = 0.0, pobj, dobj;
    ckm_sdp_A(p, p->Xhat, p->ax);
    double rp = 0.0, neg = 0.0, xn = 0.0;
    for (size_t i = 0; i < m; i++) {
        double b = i < s ? p->v[i] : (i == s ? (double)p->k : 0.0);
        rp += (p->ax[i] - b) * (p->ax[i] - b);
    }
    pobj = 0.0;
    for (size_t q = 0; q < ss; q++) {
        double x = p->Xhat[q];
        xn += x * x;
        if (x < 0.0)
            neg += x * x;
        pobj += p->C[q] * x;
    }
    dobj = ckm_sdp_by(p, p->y);
    if (p->nb > 0) {
        ckm_sdp_B(p, p->Xhat, p->bx);
        for (size_t l = 0; l < p->nb; l++) {
            double g = fmax(p->d[l] - p->bx[l], 0.0);
            cutinf += g * g;
            dobj += p->d[l] * p->u[l];
        }
    }
    e->p = fmax(fmax(sqrt(rp) / (1.0 + bnorm), sqrt(neg) / (1.0 + sqrt(xn))), sqrt(cutinf) / (1.0 + sqrt(dn)));
    e->d = sqrt(rd) / (1.0 + cnorm);
    e->g = fabs(pobj - dobj) / (1.0 + fabs(pobj) + fabs(dobj));
    e->pobj = pobj;
    e->dobj = dobj;
}

/* sigma's adaptation: every 10 iterations a note of which residual leads by 2x; after 50
 * iterations without a change, 3 of the last 5 notes move sigma by 1.25 within [1e-4, 1e4]. */
typedef struct sigma_notes {
    int notes[5], n_notes, last_change;
} sigma_notes;

static void adapt_sigma(ckm_sdp *p, sigma_notes *sn, int it, const sdp_eta *e)
{
    double eta_p = e->p, eta_d = e->d;
    int *notes = sn->notes;
    if ((it + 1) % 10 == 0) {
        notes[sn->n_notes++ % 5] = eta_p > 2.0 * eta_d ? 1 : (eta_d > 2.0 * eta_p ? -1 : 0);
        if (sn->n_notes >= 5 && it + 1 - sn->last_change >= 50) {
            int up = 0, down = 0;
            for (int q = 0; q < 5; q++) {
                up += notes[q] == -1;
                down += notes[q] == 1;
            }
            if (down >= 3 && p->sigma > 1e-4) {
                p->sigma = fmax(1e-4, p->sigma / 1.25);
                sn->last_change = it + 1;
            } else if (up >= 3 && p->sigma < 1e4) {
                p->sigma = fmin(1e4, p->sigma * 1.25);
                sn->last_change = it + 1;
            }
        }
    }
}

bool ckm_sdp_hopeless(const ckm_sdp_params *par, ckm_hopeless_window *h, int it, double lb)
{
    if (par->hopeless_window <= 0 || !isfinite(par->upper_bound))
        return false;
    int back = (par->hopeless_window + CKM_SDP_BOUND_EVERY - 1) / CKM_SDP_BOUND_EVERY;
    back = back < CKM_SDP_HOPELESS_CHECKS - 1 ? back : CKM_SDP_HOPELESS_CHECKS - 1;
    h->lb[h->checks % CKM_SDP_HOPELESS_CHECKS] = lb;
    h->checks++;
    if (h->checks <= back)
        return false;
    double then = h->lb[(h->checks - 1 - back) % CKM_SDP_HOPELESS_CHECKS];
    if (!isfinite(then) || !isfinite(lb))
        return false;
    double reach = lb + (lb - then) / ((double)CKM_SDP_BOUND_EVERY * back) * (double)(par->max_iter - it);
    return !ckm_gap_closed(par->upper_bound, reach, par->prune_tol, par->tss);
}

static ckm_error solve_loop(ckm_sdp *p, const ckm_context *ctx, const ckm_sdp_params *par, ckm_sdp_info *info,
                            const ckm_status *poll_why, ckm_err *err)
{
    size_t s = p->s, ss = s * s;
    const double tau = 1.618;
    memset(info, 0, sizeof *info);
    double bnorm = sqrt(p->n + (double)(p->k * p->k)), cnorm = 0.0;
    for (size_t q = 0; q < ss; q++)
        cnorm += p->C[q] * p->C[q];
    cnorm = sqrt(cnorm);
    sigma_notes sn = {{0, 0, 0, 0, 0}, 0, 0};
    ckm_hopeless_window hw = {.checks = 0};
    sdp_eta eta;
    int it = 0;
    uint64_t steps0 = p->sys.steps;
    double eta_p = INFINITY, eta_d = INFINITY, eta_g = INFINITY, pobj = 0.0, dobj = 0.0;
    ckm_status why;
    double last_s = ckm_sdp_iteration_estimate_s(s), t_prev = NAN; /* the last iteration's duration: the next must end by the deadline */
    for (; it < par->max_iter; it++) {
        double t_it = ckm_now();
        if (isfinite(t_prev))
            last_s = t_it - t_prev;
        t_prev = t_it;
        if (ctx && ckm_ctx_stop_ahead(ctx, last_s, &why)) {
            info->stopped = 1;
            info->why = why;
            break;
        }
        v_update(p);
        /* 2-4. y, S (and Xhat), y */
        yu_base(p);
        solve_yu(p);
        int pr = project(p, par->threads);
        if (pr == -3) { /* stopped inside the eigensolver: this iteration is abandoned (V and y
                           moved, S and X did not; any (y, V) gives a valid safe bound) */
            info->stopped = 1;
            info->why = *poll_why;
            break;
        }
        if (pr == -1)
            return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory in the eigensolver (s = %zu)", s);
        if (pr < 0)
            return ckm_fail(err, CKM_ERR_INTERNAL, "sdp: the eigensolver failed (s = %zu)", s);
        solve_yu(p);
        /* 5. X update; residuals */
        double dn, rd = x_update(p, tau, &dn);
        measure(p, bnorm, cnorm, rd, dn, &eta);
        pobj = eta.pobj;
        dobj = eta.dobj;
        eta_p = eta.p;
        eta_d = eta.d;
        eta_g = eta.g;
        bool done = fmax(eta_p, fmax(eta_d, eta_g)) <= par->tol;
        if ((it + 1) % CKM_SDP_BOUND_EVERY == 0 || done) {
            double lb = ckm_sdp_bound_units(p, p->y, p->r, p->V, p->cs);
            if (lb > p->best_lb)
                p->best_lb = lb;
            if (ckm_gap_closed(par->upper_bound, p->best_lb, par->prune_tol, par->tss)) {
                info->pruned = 1;
                it++;
                break;
            }
            if (!done && ckm_sdp_hopeless(par, &hw, it + 1, p->best_lb)) { /* converged comes first */
                info->hopeless = 1;
                it++;
                break;
            }
            if (ctx)
                ckm_ctx_log(ctx, 2, "sdp iter %d: safe bound %.8g, dual %.8g, eta_p %.2e eta_d %.2e eta_g %.2e, sigma %.3g",
                        it + 1, p->best_lb, p->tau0 + p->cs * dobj, eta_p, eta_d, eta_g, p->sigma);
        }
        if (done) {
            info->converged = 1;
            it++;
            break;
        }
        adapt_sigma(p, &sn, it, &eta);
    }
    /* the final iterate's bound too, unless the caller asked to stop now (a time limit left
     * room for it: iterations stop one iteration's time ahead of the deadline) */
    if (!info->pruned && !info->converged && !(info->stopped && info->why == CKM_STATUS_INTERRUPTED)) {
        double lb = ckm_sdp_bound_units(p, p->y, p->r, p->V, p->cs);
        if (lb > p->best_lb)
            p->best_lb = lb;
    }
    info->lower_bound = p->best_lb;
    info->dual_obj = p->tau0 + p->cs * dobj;
    info->primal_obj = p->tau0 + p->cs * pobj;
    info->eta_p = eta_p;
    info->eta_d = eta_d;
    info->eta_g = eta_g;
    info->iterations = it;
    ckm_ctx_count(ctx, CKM_COUNT_SDP_ITER, it > 0 ? (uint64_t)it : 0);
    info->sigma = p->sigma;
    info->cg_steps = p->sys.steps - steps0;
    return CKM_OK;
}

double ckm_sdp_sigma(const ckm_sdp *p) { return p->sigma; }

void ckm_sdp_warm_start(ckm_sdp *p, const double *X0, double sigma)
{
    size_t ss = p->s * p->s;
    memcpy(p->X, X0, ss * sizeof(double));
    memcpy(p->Xhat, X0, ss * sizeof(double));
    if (sigma >= 1e-4 && sigma <= 1e4)
        p->sigma = sigma;
}
