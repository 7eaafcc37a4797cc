/*
 * sdp_aat.c -- (AA*)^{-1} of the relaxation's equality rows (sdp_admm.c), applied in O(s + nl^2)
 * without the m x m inverse (m = s + 1 + nl).
 * Rows (docs/formulations.md): row t <(e_t v' + v e_t')/2, X> = v_t, trace <I, X> = k, link
 * (a, b) <(e_a e_b' + e_b e_a')/sqrt 2, X> = 0. With n = total mass and q = v'v (= n up to
 * rounding):
 *   AA* = [K0  L]    K0 = [ (n/2) I + v v'/2   v ]   ((s + 1) x (s + 1)),
 *         [L'  I],        [ v'                 s ]
 * L's column e for link (a, b): v_b / sqrt 2 in row a, v_a / sqrt 2 in row b.
 * K0 in closed form: K0 [x; z] = [a; c] has, with alpha = v'x,
 *   (n/2) x + (alpha/2 + z) v = a,  alpha + s z = c;
 * v' times the first: alpha (n + q)/2 + q z = v'a, and alpha = c - s z give
 *   z = (v'a - c (n + q)/2) / (q - s (n + q)/2),  alpha = c - s z,  x = (2/n) (a - (alpha/2 + z) v)
 * (the denominator is about -n (s - 1): s >= 2 keeps it away from 0).
 * Links by block elimination on K0: with H = I - L' K0^{-1} L (nl x nl, the Schur complement
 * of K0 in the SPD AA*, so SPD), [f; g] -> w = K0^{-1} f, z = H^{-1} (g - L'w),
 * x = w - K0^{-1} (L z). H^{-1} is formed once (nl columns K0^{-1} L_e, then ckm_spd_inverse),
 * and applied by one dsymv. Before this file the dense m x m inverse was applied by a dsymv
 * (m^2 reads per solve: about 10 MB at s = 1112 without links, once per CG step of the cut
 * system; about 3 % of a cut round there, bench/README.md "Cheaper cut rounds").
 */
#include "linalg.h"
#include "sdp_impl.h"

#include <string.h>

/* x <- K0^{-1} x (x: s + 1 entries, the rows then the trace) */
static void k0_solve(const ckm_sdp *p, double *x)
{
    size_t s = p->s;
    double n = p->n, q = p->vv, va = 0.0, c = x[s];
    for (size_t i = 0; i < s; i++)
        va += p->v[i] * x[i];
    double z = (va - 0.5 * c * (n + q)) / (q - 0.5 * (double)s * (n + q));
    double beta = 0.5 * (c - (double)s * z) + z;
    for (size_t i = 0; i < s; i++)
        x[i] = 2.0 / n * (x[i] - beta * p->v[i]);
    x[s] = z;
}

/* out (s + 1 entries) <- L z */
static void link_times(const ckm_sdp *p, const double *z, double *out)
{
    memset(out, 0, (p->s + 1) * sizeof(double));
    for (size_t e = 0; e < p->nl; e++) {
        size_t a = p->cl[2 * e], b = p->cl[2 * e + 1];
        out[a] += p->v[b] / CKM_SQRT2 * z[e];
        out[b] += p->v[a] / CKM_SQRT2 * z[e];
    }
}

/* (L'x)_e */
static double link_dot(const ckm_sdp *p, size_t e, const double *x)
{
    size_t a = p->cl[2 * e], b = p->cl[2 * e + 1];
    return (p->v[b] * x[a] + p->v[a] * x[b]) / CKM_SQRT2;
}

int ckm_sdp_aat_prepare(ckm_sdp *p, int (*stop)(void *user), void *user)
{
    size_t s = p->s, nl = p->nl;
    p->vv = 0.0;
    for (size_t i = 0; i < s; i++)
        p->vv += p->v[i] * p->v[i];
    if (nl == 0)
        return 0;
    double *H = p->Hinv, *col = p->wk; /* wk: m >= s + 1 doubles */
    for (size_t f = 0; f < nl; f++) {   /* column f of H = I - L' K0^{-1} L */
        memset(col, 0, (s + 1) * sizeof(double));
        col[p->cl[2 * f]] = p->v[p->cl[2 * f + 1]] / CKM_SQRT2;
        col[p->cl[2 * f + 1]] = p->v[p->cl[2 * f]] / CKM_SQRT2;
        k0_solve(p, col);
        for (size_t e = 0; e < nl; e++)
            H[e * nl + f] = (e == f ? 1.0 : 0.0) - link_dot(p, e, col);
    }
    for (size_t e = 0; e < nl; e++) /* exact symmetry for the factor */
        for (size_t f = 0; f < e; f++)
            H[e * nl + f] = H[f * nl + e] = 0.5 * (H[e * nl + f] + H[f * nl + e]);
    return ckm_spd_inverse_poll(nl, H, stop, user);
}

/* x <- (AA*)^{-1} x (m entries: rows, trace, links) */
void ckm_sdp_kinv(ckm_sdp *p, double *x)
{
    size_t s = p->s, nl = p->nl;
    double *g = x + s + 1;
    k0_solve(p, x); /* w */
    if (nl == 0)
        return;
    for (size_t e = 0; e < nl; e++)
        g[e] -= link_dot(p, e, x);
    ckm_spd_inverse_apply(nl, p->Hinv, g, p->wk); /* z */
    link_times(p, g, p->wk);
    k0_solve(p, p->wk);
    for (size_t i = 0; i <= s; i++)
        x[i] -= p->wk[i];
}
