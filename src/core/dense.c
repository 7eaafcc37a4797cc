/*
 * dense.c -- Cholesky factorisation and solve for small dense SPD matrices (core.h).
 *   A = L L':  L_jj = sqrt(A_jj - sum_{q<j} L_jq^2),  L_ij = (A_ij - sum_{q<j} L_iq L_jq) / L_jj
 *   solve:     L z = x (forward), then L' x = z (backward).  O(k^3 / 3) and O(k^2).
 */
#include "core.h"

#include <math.h>

int ckm_chol(double *A, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        double dj = A[j * k + j];
        for (size_t q = 0; q < j; q++)
            dj -= A[j * k + q] * A[j * k + q];
        if (!(dj > 0.0))
            return 0;
        dj = sqrt(dj);
        A[j * k + j] = dj;
        for (size_t i = j + 1; i < k; i++) {
            double v = A[i * k + j];
            for (size_t q = 0; q < j; q++)
                v -= A[i * k + q] * A[j * k + q];
            A[i * k + j] = v / dj;
        }
    }
    return 1;
}

void ckm_chol_solve(const double *L, size_t k, double *x)
{
    for (size_t i = 0; i < k; i++) {
        double v = x[i];
        for (size_t q = 0; q < i; q++)
            v -= L[i * k + q] * x[q];
        x[i] = v / L[i * k + i];
    }
    for (size_t i = k; i-- > 0;) {
        double v = x[i];
        for (size_t q = i + 1; q < k; q++)
            v -= L[q * k + i] * x[q];
        x[i] = v / L[i * k + i];
    }
}
