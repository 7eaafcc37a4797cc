/*
 * sdp_bound.c -- the linear maps of the relaxation (A, A*; (AA*)^{-1} is sdp_aat.c's) and its
 * safe lower bound
 * (Piccialli, Russo Russo & Sudoso 2022, Theorem 3.2; Jansson, Chaykin & Keil 2008).
 * For any y, any r >= 0, any V >= 0 and every feasible X (X PSD, X >= 0, A(X) = b,
 * B(X) >= d, 0 <= lambda(X) <= 1):
 *   <C, X> = <S~, X> + b'y + r'B(X) + <V, X> >= b'y + d'r + sum_i min(0, lambda_i(S~)),
 *   S~ = C - A*(y) - B*(r) - V,
 * since r'B(X) >= r'd, <V, X> >= 0 and <S~, X> >= (negative eigenvalues of S~) x 1 (every
 * feasible X has X v = v with X >= 0, so its spectral radius is 1). Adding tau0 gives a
 * bound on the SSE. Eigenvalues are shifted down by eps = 10 s DBL_EPSILON ||S~||_F, so
 * that the eigensolver's backward error cannot lift the bound.
 */
#include "linalg.h"
#include "sdp_impl.h"

#include <float.h>
#include <math.h>
#include <string.h>

void ckm_sdp_A(const ckm_sdp *p, const double *X, double *out)
{
    size_t s = p->s;
    double tr = 0.0;
    for (size_t i = 0; i < s; i++) {
        double r = 0.0;
        for (size_t j = 0; j < s; j++)
            r += X[i * s + j] * p->v[j];
        out[i] = r;
        tr += X[i * s + i];
    }
    out[s] = tr;
    for (size_t e = 0; e < p->nl; e++)
        out[s + 1 + e] = CKM_SQRT2 * X[p->cl[2 * e] * s + p->cl[2 * e + 1]];
}

void ckm_sdp_At_add(const ckm_sdp *p, const double *y, double alpha, double *Out)
{
    size_t s = p->s;
    for (size_t i = 0; i < s; i++) {
        double *o = Out + i * s;
        double yi = alpha * 0.5 * y[i], vi = 0.5 * alpha * p->v[i];
        for (size_t j = 0; j < s; j++)
            o[j] += yi * p->v[j] + vi * y[j];
        o[i] += alpha * y[s];
    }
    for (size_t e = 0; e < p->nl; e++) {
        size_t a = p->cl[2 * e], b = p->cl[2 * e + 1];
        double c = alpha * y[s + 1 + e] / CKM_SQRT2;
        Out[a * s + b] += c;
        Out[b * s + a] += c;
    }
}

double ckm_sdp_by(const ckm_sdp *p, const double *y)
{
    double f = (double)p->k * y[p->s];
    for (size_t i = 0; i < p->s; i++)
        f += p->v[i] * y[i];
    return f;
}

double ckm_sdp_bound_units(ckm_sdp *p, const double *y, const double *r, const double *V, double unit)
{
    size_t s = p->s, ss = s * s;
    double *T = p->T, ratio = p->cs / unit, fro = 0.0;
    for (size_t q = 0; q < ss; q++) {
        if (V[q] < 0.0)
            return NAN;
        T[q] = p->C[q] * ratio - V[q];
    }
    ckm_sdp_At_add(p, y, -1.0, T);
    double dr = 0.0;
    if (r) {
        for (size_t l = 0; l < p->nb; l++) {
            if (r[l] < 0.0)
                return NAN;
            dr += p->d[l] * r[l];
        }
        ckm_sdp_Bt_add(p, r, -1.0, T);
    }
    for (size_t i = 0; i < s; i++) /* exact symmetry: average the two triangles */
        for (size_t j = 0; j < i; j++) {
            double a = 0.5 * (T[i * s + j] + T[j * s + i]);
            T[i * s + j] = T[j * s + i] = a;
        }
    for (size_t q = 0; q < ss; q++)
        fro += T[q] * T[q];
    double eps = 10.0 * (double)s * DBL_EPSILON * sqrt(fro);
    int how = ckm_eig_values_poll(s, T, p->ev, p->eigwork, p->poll, p->poll_user);
    if (how == -3)
        return -INFINITY; /* stopped: no bound from this point, a valid answer */
    if (how != 0)
        return NAN;
    double neg = 0.0;
    for (size_t i = 0; i < s; i++)
        neg += fmin(0.0, p->ev[i] - eps);
    return p->tau0 + unit * (ckm_sdp_by(p, y) + dr + neg);
}

double ckm_sdp_safe_bound(ckm_sdp *p, const double *y, const double *V)
{
    return ckm_sdp_bound_units(p, y, NULL, V, 1.0);
}

size_t ckm_sdp_dual_size(const ckm_sdp *p) { return p->m; }
