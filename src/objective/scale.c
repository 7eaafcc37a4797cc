/*
 * scale.c -- power-of-two rescaling of the data, so that every algorithm works on numbers
 * whose squares neither overflow nor vanish below the LP/MILP tolerances.
 *   SSE, centroids and every assignment step are equivariant under x -> x * 2^-e: labels
 *   are unchanged, SSE scales by 4^-e, and multiplying by a power of two is EXACT in
 *   binary floating point (no rounding, unless a value leaves the normal range), so the
 *   scaled problem is the same problem, not an approximation of it.
 *   Data whose largest magnitude M and spread S (largest deviation from the column means)
 *   both lie in [2^-8, 2^20] are left as they are (measured on iris scaled by 2^-16..2^40:
 *   blpkm, ipc, sizeflow and admm return labellings of identical SSE for 2^-8..2^20; below,
 *   CLP's absolute tolerances start to see every cost as zero (SSE 88.13 and 572 instead
 *   of 87.66 at 2^-12 and 2^-16), above about 2^24 CLP refuses or aborts on costs near
 *   1e25). Otherwise the data are scaled so that M lands in [1, 2) -- or, when an offset
 *   dominates (S < M / 4: costs would cancel), centered first (x - mean, rounded once, as
 *   any translation) and scaled so that S lands in [1, 2).
 * Cost O(n d): two passes to plan, one to copy when a transform is needed.
 */
#include "core.h"
#include "objective.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* largest |X[i]| over count values */
static double max_abs(const double *X, size_t count)
{
    double m = 0.0;
    for (size_t i = 0; i < count; i++)
        m = fmax(m, fabs(X[i]));
    return m;
}

/* exponent e with m 2^-e in [1, 2) (m > 0) */
static int unit_exponent(double m)
{
    int e;
    frexp(m, &e); /* m = f 2^e with f in [0.5, 1) */
    return e - 1;
}

/* the exponent e of the transform and whether to center first (mu: d column means) */
static int plan(const double *X, size_t n, size_t d, double *mu, bool *center)
{
    const double lo = 0x1p-8, hi = 0x1p20;
    *center = false;
    double m = max_abs(X, n * d);
    if (m == 0.0)
        return 0;
    /* the spread: largest deviation from the column means */
    for (size_t f = 0; f < d; f++)
        mu[f] = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            mu[f] += X[i * d + f] / (double)n; /* divided first: no overflow near DBL_MAX */
    double spread = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            spread = fmax(spread, fabs(X[i * d + f] - mu[f]));
    if (m >= lo && m <= hi && spread >= lo)
        return 0; /* the measured safe window: as it is */
    if (spread == 0.0 || spread >= 0.25 * m)
        return unit_exponent(m); /* no dominant offset: exact power-of-two scaling */
    *center = true;              /* offset-dominated: center, then scale the spread */
    return unit_exponent(spread);
}

ckm_error ckm_scaled_init(ckm_scaled *sc, const double *X, size_t n, size_t d, ckm_err *err)
{
    memset(sc, 0, sizeof *sc);
    sc->X = X;
    sc->d = d;
    if (!(sc->mu = ckm_alloc_array(d, sizeof(double))))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory (%zu features)", d);
    sc->e = plan(X, n, d, sc->mu, &sc->center);
    if (!ckm_scaled_active(sc))
        return CKM_OK;
    if (!(sc->own = ckm_alloc_array(n * d, sizeof(double))))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for a rescaled copy of the %zu x %zu points (%.3g MB)", n,
                        d, (double)n * (double)d * 8e-6);
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            sc->own[i * d + f] = ldexp(sc->center ? X[i * d + f] - sc->mu[f] : X[i * d + f], -sc->e);
    sc->X = sc->own;
    return CKM_OK;
}

bool ckm_scaled_active(const ckm_scaled *sc) { return sc->e != 0 || sc->center; }

void ckm_scaled_free(ckm_scaled *sc)
{
    free(sc->own);
    free(sc->mu);
    sc->own = sc->mu = NULL;
}

double ckm_scaled_objective(const ckm_scaled *sc, double v) { return ldexp(v, 2 * sc->e); }

void ckm_scaled_centers(const ckm_scaled *sc, double *C, size_t k)
{
    for (size_t q = 0; ckm_scaled_active(sc) && q < k * sc->d; q++)
        C[q] = ldexp(C[q], sc->e) + (sc->center ? sc->mu[q % sc->d] : 0.0);
}
