/*
 * oracle.h -- brute-force truth for tiny constrained instances: enumerate all k^n
 * labellings, keep those meeting every must-link, cannot-link and size bound, return the
 * minimum SSE (INFINITY when none is feasible). n <= 10, k <= 3.
 */
#ifndef CKM_TEST_ORACLE_H
#define CKM_TEST_ORACLE_H

#include "ckm.h"

#include <math.h>

typedef struct oracle_pair {
    int i, j, ml;
} oracle_pair;

static double oracle_best(const double *X, int n, int d, int k, const oracle_pair *pairs, int np,
                          const size_t *lo, const size_t *hi, int32_t *best_labels)
{
    int32_t lab[10];
    long total = 1;
    for (int i = 0; i < n; i++)
        total *= k;
    double best = INFINITY;
    for (long code = 0; code < total; code++) {
        long c = code;
        size_t size[3] = {0, 0, 0};
        for (int i = 0; i < n; i++) {
            lab[i] = (int32_t)(c % k);
            c /= k;
            size[lab[i]]++;
        }
        int ok = 1;
        for (int j = 0; j < k && ok; j++)
            ok = size[j] >= lo[j] && size[j] <= hi[j];
        for (int q = 0; q < np && ok; q++)
            ok = (lab[pairs[q].i] == lab[pairs[q].j]) == (pairs[q].ml != 0);
        if (!ok)
            continue;
        double sse;
        ckm_err err = {CKM_OK, ""};
        if (ckm_sse(X, (size_t)n, (size_t)d, lab, (size_t)k, &sse, &err) == CKM_OK && sse < best - 1e-12) {
            best = sse;
            if (best_labels)
                for (int i = 0; i < n; i++)
                    best_labels[i] = lab[i];
        }
    }
    return best;
}

#endif
