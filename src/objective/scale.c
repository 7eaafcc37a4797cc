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
 * Cost O(count), one pass.
 */
#include "objective.h"

#include <math.h>

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

int ckm_scale_plan(const double *X, size_t n, size_t d, double *mu, bool *center)
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

void ckm_scale_copy(const double *X, size_t n, size_t d, const double *mu, bool center, int e, double *out)
{
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            out[i * d + f] = ldexp(center ? X[i * d + f] - mu[f] : X[i * d + f], -e);
}
