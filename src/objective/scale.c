/*
 * scale.c -- power-of-two rescaling of the data, so that every algorithm works on numbers
 * whose squares neither overflow nor vanish below the LP/MILP tolerances.
 *   SSE, centroids and every assignment step are equivariant under x -> x * 2^-e: labels
 *   are unchanged, SSE scales by 4^-e, and multiplying by a power of two is EXACT in
 *   binary floating point (no rounding, unless a value leaves the normal range), so the
 *   scaled problem is the same problem, not an approximation of it.
 *   Data whose largest magnitude M lies in [1, 2^20] is left as it is (measured on iris
 *   scaled by 2^-16..2^40: blpkm, ipc, sizeflow and admm return identical labellings for
 *   2^0..2^20; below 2^-8 CLP's absolute tolerances start to see every cost as zero, and
 *   above about 2^24 CLP refuses or aborts on costs near 1e25). Outside it the data are
 *   scaled so that M lands in [1, 2).
 * Cost O(count), one pass.
 */
#include "objective.h"

#include <math.h>

int ckm_scale_exponent(const double *X, size_t count)
{
    double m = 0.0;
    for (size_t i = 0; i < count; i++) {
        double a = fabs(X[i]);
        if (a > m)
            m = a;
    }
    if (m == 0.0)
        return 0;
    if (m >= 1.0 && m <= 0x1p20)
        return 0;
    int e;
    frexp(m, &e); /* m = f 2^e with f in [0.5, 1), so m 2^-(e-1) is in [1, 2) */
    return e - 1;
}

void ckm_scale_copy(const double *X, size_t count, int e, double *out)
{
    for (size_t i = 0; i < count; i++)
        out[i] = ldexp(X[i], -e);
}
