/*
 * admm_iterate.c -- lp-box ADMM for constrained k-means (Bibi et al.; Wu & Ghanem's lp-box
 * ADMM), on must-link groups t = 1..s with weights w_t, means m_t and k clusters.
 * Derivation: docs/formulations.md, "lp-box ADMM". Variables, all s*k (row t = group):
 *   y        the label matrix (free in R^{s x k}); objective <D, y>, D_tj = w_t ||m_t - c_j||^2 / scale
 *   p        box copy,     y = p, p in [0,1]^{sk}
 *   q        sphere copy,  y = q, ||q - 1/2||^2 = sk/4        ({0,1}^{sk} = box cap sphere)
 *   v        copy of y that makes every cannot-link bilinear:  y = v,  <y_a, v_b> = 0 per pair
 *   sz       cluster sizes, (U^T y)_j = sz_j in [lo_j, hi_j] / ||w||, U_{(t,j),j} = w_t / ||w||
 *   sq       with capacities, cluster loads, (V^T y)_j = sq_j in [L_j - tau, U_j + tau] / ||Q||,
 *            V_{(t,j),j} = Q_t / ||Q|| (Q_t: the group's demand); a second block like U's,
 *            written W below, with multipliers nq (k); without capacities W = 0
 *   rows     y 1_k = 1_s (one cluster per group)
 * Augmented Lagrangian with one penalty rho and unscaled multipliers l1, l2, l3 (sk),
 * mu (s), nu (k), eta (one per cannot-link pair); one iteration, Gauss-Seidel:
 *   y   (3I + A'A + UU' + WW' + P) y = -D/rho - (l1+l2+l3)/rho + p + q + v - A'mu/rho + A'1
 *                                - U nu/rho + U sz - W nq/rho + W sq - sum_e eta_e/rho [v_b in block a_e]
 *       A'A = blockdiag(J_k), P = blockdiag_t(sum_{e: a_e = t} v_b v_b'); solved by conjugate
 *       gradients preconditioned with blockdiag(3I + J + P_t) (closed form
 *       (I - J/(3+k))/3 without cannot-links, else a k x k Cholesky factor): the system is
 *       that preconditioner plus the rank-k term UU' (rank 2k with WW'), so PCG ends in
 *       <= k+1 (2k+1) steps.
 *   p   = clamp(y + l1/rho, 0, 1)
 *   q   = 1/2 + (sqrt(sk)/2) (u - 1/2) / ||u - 1/2||,  u = y + l2/rho
 *   v_b = (I + sum_{e: b_e = b} y_a y_a')^{-1} (y_b + l3_b/rho - sum_e eta_e/rho y_a)
 *   sz  = clamp(U'y + nu/rho, lo/||w||, hi/||w||);  sq = clamp(W'y + nq/rho, (L - tau)/||Q||, (U + tau)/||Q||)
 *   l1 += rho (y - p); l2 += rho (y - q); l3 += rho (y - v); mu += rho (A y - 1);
 *   nu += rho (U'y - sz); nq += rho (W'y - sq); eta_e += rho <y_a, v_b>
 *   c_j = sum_t w_t p_tj m_t / sum_t w_t p_tj (the minimiser of the objective in c for the
 *       box copy; a cluster whose column of p is 0 keeps its center); D from the new c
 *   rho *= growth every rho_every iterations (paper: start 20, 10 % every 5 iterations)
 * D is scaled to mean cost_weight at the start (admm.c: 1000), so that rho = 20 means the
 * same for any data scale (the paper normalises the data instead).
 * Stop: std of the last 10 objective values <= tol |mean| and residual <= 1e-4, where the
 * residual is the largest violation of any reformulated constraint above and of
 * binarity of the box copy, max_tj min(p_tj, 1 - p_tj) (a load's in units of the mean
 * group demand, as a size's is in points).
 */
#include "admm_iterate.h"
#include "centers.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ADMM_RES_TOL 1e-4
#define ADMM_HIST 10

struct ckm_admm_ws {
    const ckm_reduced *r;
    size_t s, k, d, sk;
    double wnorm;
    long skipped_v; /* solve_v systems that were not positive definite (see ckm_admm_info) */
    double *y, *p, *q, *v, *l1, *l2, *l3, *D, *rhs, *cr, *cz, *cp, *cq, *pw;
    double *mu, *nu, *sz, *g, *C, *wsum, *eta;
    /* cannot-link incidence: pairs e with a_e = t are a_list[a_start[t] .. a_start[t+1]) */
    size_t *a_start, *a_list, *b_start, *b_list;
    size_t *fac_of; /* s: index of t's k x k factor, or SIZE_MAX when t has no a-role pair */
    double *fac, *blk;
    double *u;      /* s: w_t / ||w|| */
    double qnorm, qmean;            /* with capacities: ||Q||, the mean group demand */
    double *uq, *nq, *sq, *gq;      /* with capacities: s: Q_t / ||Q||; k each: multipliers, loads, W'x */
    double *Cacc, *cnorm, *mnorm; /* k*d, k, s */
};

static double dot(const double *a, const double *b, size_t m)
{
    double s = 0.0;
    for (size_t i = 0; i < m; i++)
        s += a[i] * b[i];
    return s;
}

static ckm_error build_incidence(ckm_admm_ws *w, ckm_err *err)
{
    const ckm_reduced *r = w->r;
    size_t s = w->s, m = r->n_cl;
    w->a_start = calloc(s + 1, sizeof(size_t));
    w->b_start = calloc(s + 1, sizeof(size_t));
    w->a_list = ckm_alloc_array(m ? m : 1, sizeof(size_t));
    w->b_list = ckm_alloc_array(m ? m : 1, sizeof(size_t));
    w->fac_of = ckm_alloc_array(s, sizeof(size_t));
    if (!w->a_start || !w->b_start || !w->a_list || !w->b_list || !w->fac_of)
        return ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
    for (size_t e = 0; e < m; e++) {
        w->a_start[r->cl[2 * e] + 1]++;
        w->b_start[r->cl[2 * e + 1] + 1]++;
    }
    size_t nfac = 0;
    for (size_t t = 0; t < s; t++) {
        w->fac_of[t] = w->a_start[t + 1] ? nfac++ : SIZE_MAX;
        w->a_start[t + 1] += w->a_start[t];
        w->b_start[t + 1] += w->b_start[t];
    }
    size_t *fa = ckm_alloc_array(s + 1, sizeof(size_t)), *fb = ckm_alloc_array(s + 1, sizeof(size_t));
    if (!fa || !fb) {
        free(fa);
        free(fb);
        return ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
    }
    memcpy(fa, w->a_start, (s + 1) * sizeof(size_t));
    memcpy(fb, w->b_start, (s + 1) * sizeof(size_t));
    for (size_t e = 0; e < m; e++) {
        w->a_list[fa[r->cl[2 * e]]++] = e;
        w->b_list[fb[r->cl[2 * e + 1]]++] = e;
    }
    free(fa);
    free(fb);
    size_t kk = w->k * w->k, cells;
    if (!ckm_mul_ok(nfac ? nfac : 1, kk, &cells) || !(w->fac = ckm_alloc_array(cells, sizeof(double))))
        return ckm_fail(err, CKM_ERR_NOMEM,
                        "admm: out of memory for %zu preconditioner blocks of %zu x %zu (groups with cannot-links)",
                        nfac, w->k, w->k);
    return CKM_OK;
}

void ckm_admm_ws_free(ckm_admm_ws *w)
{
    if (!w)
        return;
    double *arrs[] = {w->y,  w->p,  w->q,  w->v,  w->l1, w->l2, w->l3, w->D,  w->rhs, w->cr,  w->cz,  w->cp,
                      w->cq, w->pw, w->mu, w->nu, w->sz, w->g,  w->C,  w->wsum, w->eta, w->fac, w->blk, w->u,
                      w->Cacc, w->cnorm, w->mnorm, w->uq, w->nq, w->sq, w->gq};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++)
        free(arrs[i]);
    free(w->a_start);
    free(w->a_list);
    free(w->b_start);
    free(w->b_list);
    free(w->fac_of);
    free(w);
}

ckm_error ckm_admm_ws_init(ckm_admm_ws **out, const ckm_reduced *r, ckm_err *err)
{
    *out = NULL;
    ckm_admm_ws *w = calloc(1, sizeof *w);
    if (!w)
        return ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
    w->r = r;
    w->s = r->s;
    w->k = r->k;
    w->d = r->d;
    if (!ckm_mul_ok(w->s, w->k, &w->sk)) {
        ckm_admm_ws_free(w);
        return ckm_fail(err, CKM_ERR_NOMEM, "admm: s * k overflows");
    }
    double **big[] = {&w->y, &w->p, &w->q, &w->v, &w->l1, &w->l2, &w->l3, &w->D,
                      &w->rhs, &w->cr, &w->cz, &w->cp, &w->cq, &w->pw};
    bool ok = true;
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        ok = ok && (*big[i] = ckm_alloc_array(w->sk, sizeof(double))) != NULL;
    ok = ok && (w->mu = ckm_alloc_array(w->s, sizeof(double))) && (w->u = ckm_alloc_array(w->s, sizeof(double))) &&
         (w->nu = ckm_alloc_array(w->k, sizeof(double))) && (w->sz = ckm_alloc_array(w->k, sizeof(double))) &&
         (w->g = ckm_alloc_array(w->k, sizeof(double))) && (w->wsum = ckm_alloc_array(w->k, sizeof(double))) &&
         (w->C = ckm_alloc_array(w->k * w->d, sizeof(double))) &&
         (w->Cacc = ckm_alloc_array(w->k * w->d, sizeof(double))) && (w->cnorm = ckm_alloc_array(w->k, sizeof(double))) &&
         (w->mnorm = ckm_alloc_array(w->s, sizeof(double))) &&
         (w->eta = ckm_alloc_array(r->n_cl ? r->n_cl : 1, sizeof(double))) &&
         (w->blk = ckm_alloc_array(w->k * w->k + w->k, sizeof(double)));
    if (!ok) {
        ckm_admm_ws_free(w);
        return ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
    }
    ckm_error rc = build_incidence(w, err);
    if (rc != CKM_OK) {
        ckm_admm_ws_free(w);
        return rc;
    }
    double wn = 0.0;
    for (size_t t = 0; t < w->s; t++)
        wn += (double)r->weight[t] * (double)r->weight[t];
    w->wnorm = sqrt(wn);
    for (size_t t = 0; t < w->s; t++) {
        w->u[t] = (double)r->weight[t] / w->wnorm;
        w->mnorm[t] = dot(r->mean + t * w->d, r->mean + t * w->d, w->d);
    }
    double qn = 0.0, qs = 0.0;
    for (size_t t = 0; r->has_caps && t < w->s; t++) {
        qn += r->demand[t] * r->demand[t];
        qs += r->demand[t];
    }
    /* the capacity block; without it (every demand 0) every load is 0, which preprocessing has
       checked against the bounds */
    if (qn > 0.0) {
        if (!(w->uq = ckm_alloc_array(w->s, sizeof(double))) || !(w->nq = ckm_alloc_array(w->k, sizeof(double))) ||
            !(w->sq = ckm_alloc_array(w->k, sizeof(double))) || !(w->gq = ckm_alloc_array(w->k, sizeof(double)))) {
            ckm_admm_ws_free(w);
            return ckm_fail(err, CKM_ERR_NOMEM, "admm: out of memory");
        }
        w->qnorm = sqrt(qn);
        w->qmean = qs / (double)w->s;
        for (size_t t = 0; t < w->s; t++)
            w->uq[t] = r->demand[t] / w->qnorm;
    }
    *out = w;
    return CKM_OK;
}

/* g = U'x (sizes), and gq = W'x with capacities */
static void row_sums(const ckm_admm_ws *w, const double *x)
{
    size_t s = w->s, k = w->k;
    memset(w->g, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            w->g[j] += w->u[t] * x[t * k + j];
    if (!w->uq)
        return;
    memset(w->gq, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            w->gq[j] += w->uq[t] * x[t * k + j];
}

/* out = (3I + A'A + UU' + WW' + P) x */
static void apply_M(const ckm_admm_ws *w, const double *x, double *out)
{
    size_t s = w->s, k = w->k;
    const size_t *cl = w->r->cl;
    row_sums(w, x);
    for (size_t t = 0; t < s; t++) {
        const double *xt = x + t * k;
        double *ot = out + t * k;
        double rs = 0.0;
        for (size_t j = 0; j < k; j++)
            rs += xt[j];
        for (size_t j = 0; j < k; j++)
            ot[j] = 3.0 * xt[j] + rs + w->u[t] * w->g[j];
        if (w->uq)
            for (size_t j = 0; j < k; j++)
                ot[j] += w->uq[t] * w->gq[j];
        for (size_t i = w->a_start[t]; i < w->a_start[t + 1]; i++) {
            const double *vb = w->v + cl[2 * w->a_list[i] + 1] * k;
            double c = dot(vb, xt, k);
            for (size_t j = 0; j < k; j++)
                ot[j] += c * vb[j];
        }
    }
}

/* Cholesky factors of 3I + J + P_t for the groups with a-role cannot-links (P_t changes
 * with v, so once per iteration). Returns 0 on a failed factorisation (cannot happen for
 * this SPD matrix unless v holds non-finite values). */
static int factor_blocks(ckm_admm_ws *w)
{
    size_t s = w->s, k = w->k;
    const size_t *cl = w->r->cl;
    for (size_t t = 0; t < s; t++) {
        if (w->fac_of[t] == SIZE_MAX)
            continue;
        double *F = w->fac + w->fac_of[t] * k * k;
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++)
                F[i * k + j] = (i == j ? 4.0 : 1.0);
        for (size_t i = w->a_start[t]; i < w->a_start[t + 1]; i++) {
            const double *vb = w->v + cl[2 * w->a_list[i] + 1] * k;
            for (size_t a = 0; a < k; a++)
                for (size_t b = 0; b <= a; b++)
                    F[a * k + b] += vb[a] * vb[b];
        }
        if (!ckm_chol(F, k))
            return 0;
    }
    return 1;
}

/* z = blockdiag(3I + J + P_t)^{-1} x */
static void apply_prec(const ckm_admm_ws *w, const double *x, double *z)
{
    size_t s = w->s, k = w->k;
    for (size_t t = 0; t < s; t++) {
        const double *xt = x + t * k;
        double *zt = z + t * k;
        if (w->fac_of[t] == SIZE_MAX) {
            double rs = 0.0;
            for (size_t j = 0; j < k; j++)
                rs += xt[j];
            rs /= 3.0 + (double)k;
            for (size_t j = 0; j < k; j++)
                zt[j] = (xt[j] - rs) / 3.0;
        } else {
            memcpy(zt, xt, k * sizeof(double));
            ckm_chol_solve(w->fac + w->fac_of[t] * k * k, k, zt);
        }
    }
}

/* Preconditioned CG for M y = rhs from the current y; at most 2(k + 1) + 20 steps (the
 * exact-arithmetic bound is k + 1, 2k + 1 with capacities). */
static void solve_y(ckm_admm_ws *w)
{
    size_t sk = w->sk, k = w->k;
    double *x = w->y, *r = w->cr, *z = w->cz, *pd = w->cp, *Mp = w->cq;
    apply_M(w, x, Mp);
    for (size_t i = 0; i < sk; i++)
        r[i] = w->rhs[i] - Mp[i];
    double bn = sqrt(dot(w->rhs, w->rhs, sk)), tol = 1e-10 * (bn > 0.0 ? bn : 1.0);
    apply_prec(w, r, z);
    memcpy(pd, z, sk * sizeof(double));
    double rz = dot(r, z, sk);
    for (size_t it = 0; it < 2 * (k + 1) + 20; it++) {
        if (sqrt(dot(r, r, sk)) <= tol)
            break;
        apply_M(w, pd, Mp);
        double pMp = dot(pd, Mp, sk);
        if (!(pMp > 0.0))
            break;
        double alpha = rz / pMp;
        for (size_t i = 0; i < sk; i++) {
            x[i] += alpha * pd[i];
            r[i] -= alpha * Mp[i];
        }
        apply_prec(w, r, z);
        double rz2 = dot(r, z, sk);
        double beta = rz2 / rz;
        rz = rz2;
        for (size_t i = 0; i < sk; i++)
            pd[i] = z[i] + beta * pd[i];
    }
}

/* v_b = (I + sum_{e: b_e = b} y_a y_a')^{-1} (y_b + l3_b/rho - sum_e eta_e/rho y_a) */
static void solve_v(ckm_admm_ws *w, double rho)
{
    size_t s = w->s, k = w->k;
    const size_t *cl = w->r->cl;
    double *F = w->blk, *rhs = w->blk + k * k;
    for (size_t b = 0; b < s; b++) {
        double *vb = w->v + b * k;
        const double *yb = w->y + b * k, *lb = w->l3 + b * k;
        for (size_t j = 0; j < k; j++)
            rhs[j] = yb[j] + lb[j] / rho;
        if (w->b_start[b] == w->b_start[b + 1]) {
            memcpy(vb, rhs, k * sizeof(double));
            continue;
        }
        for (size_t i = 0; i < k; i++)
            for (size_t j = 0; j < k; j++)
                F[i * k + j] = i == j ? 1.0 : 0.0;
        for (size_t i = w->b_start[b]; i < w->b_start[b + 1]; i++) {
            size_t e = w->b_list[i];
            const double *ya = w->y + cl[2 * e] * k;
            for (size_t a = 0; a < k; a++) {
                rhs[a] -= w->eta[e] / rho * ya[a];
                for (size_t c = 0; c <= a; c++)
                    F[a * k + c] += ya[a] * ya[c];
            }
        }
        if (ckm_chol(F, k)) {
            ckm_chol_solve(F, k, rhs);
            memcpy(vb, rhs, k * sizeof(double));
        } else {
            w->skipped_v++; /* keep the old v_b: counted, reported through the result's stats */
        }
    }
}

/* c from the box copy: c_j = sum_t w_t p_tj m_t / sum_t w_t p_tj (zeros of p skipped: p is
 * mostly 0 after a few iterations); a column of p without mass keeps its center. Then
 * D_tj = w_t (||m_t||^2 - 2 m_t.c_j + ||c_j||^2) with the cross term from one dgemm.
 * Returns sum_tj D_tj p_tj. */
static double update_centers(ckm_admm_ws *w)
{
    const ckm_reduced *r = w->r;
    size_t s = w->s, k = w->k, d = w->d;
    memset(w->wsum, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            w->wsum[j] += r->mass[t] * w->p[t * k + j];
    double *acc = w->Cacc;
    memset(acc, 0, k * d * sizeof(double));
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++) {
            double pv = w->p[t * k + j];
            if (pv == 0.0)
                continue;
            pv *= r->mass[t];
            const double *mt = r->mean + t * d;
            double *aj = acc + j * d;
            for (size_t f = 0; f < d; f++)
                aj[f] += pv * mt[f];
        }
    for (size_t j = 0; j < k; j++) {
        if (!(w->wsum[j] > 1e-12))
            continue;
        for (size_t f = 0; f < d; f++)
            w->C[j * d + f] = acc[j * d + f] / w->wsum[j];
    }
    for (size_t j = 0; j < k; j++)
        w->cnorm[j] = dot(w->C + j * d, w->C + j * d, d);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)s, (int)k, (int)d, -2.0, r->mean, (int)d, w->C, (int)d,
                0.0, w->D, (int)k);
    double f = 0.0;
    for (size_t t = 0; t < s; t++)
        for (size_t j = 0; j < k; j++) {
            double c = r->mass[t] * fmax(0.0, w->D[t * k + j] + w->mnorm[t] + w->cnorm[j]);
            w->D[t * k + j] = c;
            f += c * w->p[t * k + j];
        }
    return f;
}

static double maxabs_diff(const double *a, const double *b, size_t m)
{
    double mx = 0.0;
    for (size_t i = 0; i < m; i++)
        mx = fmax(mx, fabs(a[i] - b[i]));
    return mx;
}

/* The start: the one-hot labelling `start` in every copy (y, p, q, v), multipliers 0, the
 * size variables at its sizes. */
static void admm_start(ckm_admm_ws *w, const int32_t *start)
{
    const ckm_reduced *r = w->r;
    size_t s = w->s, k = w->k, sk = w->sk, m = r->n_cl;
    memset(w->y, 0, sk * sizeof(double));
    for (size_t t = 0; t < s; t++)
        w->y[t * k + (size_t)start[t]] = 1.0;
    memcpy(w->p, w->y, sk * sizeof(double));
    memcpy(w->q, w->y, sk * sizeof(double));
    memcpy(w->v, w->y, sk * sizeof(double));
    memset(w->l1, 0, sk * sizeof(double));
    memset(w->l2, 0, sk * sizeof(double));
    memset(w->l3, 0, sk * sizeof(double));
    memset(w->mu, 0, s * sizeof(double));
    memset(w->nu, 0, k * sizeof(double));
    memset(w->eta, 0, (m ? m : 1) * sizeof(double));
    row_sums(w, w->y);
    memcpy(w->sz, w->g, k * sizeof(double));
    if (w->uq) {
        memset(w->nq, 0, k * sizeof(double));
        memcpy(w->sq, w->gq, k * sizeof(double));
    }
}

/* The size variables (clamped to the bounds), then every multiplier's ascent step; returns
 * the largest residual of any constraint or copy, and of the box copy's binarity. */
static double multipliers(ckm_admm_ws *w, double rho)
{
    const ckm_reduced *r = w->r;
    size_t s = w->s, k = w->k, sk = w->sk, m = r->n_cl;
    const size_t *cl = r->cl;
    double res = 0.0;
    row_sums(w, w->y);
    for (size_t j = 0; j < k; j++) {
        double uy = w->g[j];
        w->sz[j] = fmin((double)r->hi[j] / w->wnorm, fmax((double)r->lo[j] / w->wnorm, uy + w->nu[j] / rho));
        w->nu[j] += rho * (uy - w->sz[j]);
        res = fmax(res, fabs(uy - w->sz[j]) * w->wnorm);
    }
    for (size_t j = 0; w->uq && j < k; j++) {
        double qy = w->gq[j], lo = (r->cap_lo[j] - r->cap_tol) / w->qnorm, hi = (r->cap_hi[j] + r->cap_tol) / w->qnorm;
        w->sq[j] = fmin(hi, fmax(lo, qy + w->nq[j] / rho));
        w->nq[j] += rho * (qy - w->sq[j]);
        res = fmax(res, fabs(qy - w->sq[j]) * w->qnorm / w->qmean);
    }
    for (size_t t = 0; t < s; t++) {
        double rs = -1.0;
        for (size_t j = 0; j < k; j++)
            rs += w->y[t * k + j];
        w->mu[t] += rho * rs;
        res = fmax(res, fabs(rs));
    }
    for (size_t e = 0; e < m; e++) {
        double c = dot(w->y + cl[2 * e] * k, w->v + cl[2 * e + 1] * k, k);
        w->eta[e] += rho * c;
        res = fmax(res, fabs(c));
    }
    for (size_t i = 0; i < sk; i++) {
        w->l1[i] += rho * (w->y[i] - w->p[i]);
        w->l2[i] += rho * (w->y[i] - w->q[i]);
        w->l3[i] += rho * (w->y[i] - w->v[i]);
    }
    res = fmax(res, fmax(maxabs_diff(w->y, w->p, sk), fmax(maxabs_diff(w->y, w->q, sk), maxabs_diff(w->y, w->v, sk))));
    for (size_t i = 0; i < sk; i++) /* and the box copy is binary to the same tolerance */
        res = fmax(res, fmin(w->p[i], 1.0 - w->p[i]));
    return res;
}

/* labels[t] = argmax_j p_tj (the box copy); returns max min(p, 1 - p), its distance from
 * binary. */
static double round_labels(const ckm_admm_ws *w, int32_t *labels)
{
    size_t s = w->s, k = w->k;
    double gap = 0.0;
    for (size_t t = 0; t < s; t++) {
        size_t bj = 0;
        for (size_t j = 0; j < k; j++) {
            double pv = w->p[t * k + j];
            gap = fmax(gap, fmin(pv, 1.0 - pv));
            if (pv > w->p[t * k + bj])
                bj = j;
        }
        labels[t] = (int32_t)bj;
    }
    return gap;
}

ckm_error ckm_admm_iterate(ckm_admm_ws *w, const ckm_context *ctx, const ckm_admm_params *par, const int32_t *start,
                           int32_t *labels, ckm_admm_info *info, double *trace_f, double *trace_res, ckm_err *err)
{
    const ckm_reduced *r = w->r;
    size_t s = w->s, k = w->k, sk = w->sk, m = r->n_cl;
    const size_t *cl = r->cl;
    memset(info, 0, sizeof *info);
    w->skipped_v = 0;
    admm_start(w, start);
    ckm_group_means(r, start, w->C, w->wsum);
    double f = update_centers(w);
    double scale = 0.0;
    for (size_t i = 0; i < sk; i++)
        scale += w->D[i];
    scale = (scale > 0.0 ? scale / (double)sk : 1.0) / par->cost_weight;
    double rho = par->rho0, hist[ADMM_HIST], radius = 0.5 * sqrt((double)sk);
    int it = 0;
    ckm_status why;
    for (; it < par->max_iter; it++) {
        if (ckm_ctx_stop(ctx, &why)) {
            info->stopped = 1;
            break;
        }
        /* y: right-hand side, then PCG */
        for (size_t t = 0; t < s; t++)
            for (size_t j = 0; j < k; j++) {
                size_t i = t * k + j;
                w->rhs[i] = (-w->D[i] / scale - w->l1[i] - w->l2[i] - w->l3[i] - w->mu[t] - w->u[t] * w->nu[j]) / rho +
                            w->p[i] + w->q[i] + w->v[i] + 1.0 + w->u[t] * w->sz[j];
                if (w->uq)
                    w->rhs[i] += w->uq[t] * (w->sq[j] - w->nq[j] / rho);
            }
        for (size_t e = 0; e < m; e++) {
            double *ra = w->rhs + cl[2 * e] * k;
            const double *vb = w->v + cl[2 * e + 1] * k;
            for (size_t j = 0; j < k; j++)
                ra[j] -= w->eta[e] / rho * vb[j];
        }
        if (!factor_blocks(w))
            return ckm_fail(err, CKM_ERR_INTERNAL, "admm: a preconditioner block is not positive definite");
        solve_y(w);
        /* p: box; q: shifted sphere */
        double qn = 0.0;
        for (size_t i = 0; i < sk; i++) {
            w->p[i] = fmin(1.0, fmax(0.0, w->y[i] + w->l1[i] / rho));
            double u = w->y[i] + w->l2[i] / rho - 0.5;
            w->q[i] = u;
            qn += u * u;
        }
        qn = sqrt(qn);
        for (size_t i = 0; i < sk; i++)
            w->q[i] = qn > 0.0 ? 0.5 + radius * w->q[i] / qn : (i % k == 0 ? 1.0 : 0.0);
        solve_v(w, rho);
        double res = multipliers(w, rho);
        f = update_centers(w) + r->scatter;
        if (trace_f)
            trace_f[it] = f;
        if (trace_res)
            trace_res[it] = res;
        hist[it % ADMM_HIST] = f;
        if ((it + 1) % par->rho_every == 0)
            rho *= par->growth;
        info->residual = res;
        if ((it + 1) % 50 == 0)
            ckm_ctx_log(ctx, 2, "admm iter %d: objective %.10g, residual %.3g, rho %.4g", it + 1, f, res, rho);
        if (it + 1 >= ADMM_HIST && res <= ADMM_RES_TOL) {
            double mean = 0.0, var = 0.0;
            for (int h = 0; h < ADMM_HIST; h++)
                mean += hist[h] / ADMM_HIST;
            for (int h = 0; h < ADMM_HIST; h++)
                var += (hist[h] - mean) * (hist[h] - mean) / ADMM_HIST;
            if (sqrt(var) <= par->tol * fabs(mean)) {
                info->converged = 1;
                it++;
                break;
            }
        }
    }
    info->iterations = it;
    info->skipped_v = w->skipped_v;
    info->rho = rho;
    info->objective = f;
    double gap = round_labels(w, labels);
    info->binary_gap = gap;
    return CKM_OK;
}
