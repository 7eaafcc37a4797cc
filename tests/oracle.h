/*
 * oracle.h -- brute-force truth for tiny constrained instances: enumerate all k^n
 * labellings, keep those meeting every must-link, cannot-link and size bound, return the
 * minimum SSE (INFINITY when none is feasible); with soft pairs the minimum of
 * SSE + P sum c [violated]. n <= 12, k <= 4 (k^n labellings: keep it small).
 */
#ifndef CKM_TEST_ORACLE_H
#define CKM_TEST_ORACLE_H

#include "ckm.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct oracle_pair {
    int i, j, ml;
} oracle_pair;

/* A soft pair: violating it costs P c. */
typedef struct oracle_soft {
    int i, j, ml;
    double c;
} oracle_soft;

/* P sum c [violated] of the labels, and the violated must-links / cannot-links */
__attribute__((unused)) static double oracle_penalty(const int32_t *lab, const oracle_soft *sp, int ns, double P,
                                                     size_t *vml, size_t *vcl)
{
    double f = 0;
    *vml = *vcl = 0;
    for (int q = 0; q < ns; q++)
        if ((lab[sp[q].i] == lab[sp[q].j]) != (sp[q].ml != 0)) {
            f += P * sp[q].c;
            sp[q].ml ? (*vml)++ : (*vcl)++;
        }
    return f;
}

__attribute__((unused)) static double oracle_best_soft(const double *X, int n, int d, int k, const oracle_pair *pairs,
                                                       int np, const size_t *lo, const size_t *hi,
                                                       const oracle_soft *soft, int ns, double P, int32_t *best_labels)
{
    int32_t lab[12];
    long total = 1;
    for (int i = 0; i < n; i++)
        total *= k;
    double best = INFINITY;
    for (long code = 0; code < total; code++) {
        long c = code;
        size_t size[4] = {0, 0, 0, 0};
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
        size_t vml, vcl;
        ckm_err err = {CKM_OK, ""};
        if (ckm_sse(X, (size_t)n, (size_t)d, lab, (size_t)k, &sse, &err) != CKM_OK)
            continue;
        sse += oracle_penalty(lab, soft, ns, P, &vml, &vcl);
        if (sse < best - 1e-12) {
            best = sse;
            if (best_labels)
                for (int i = 0; i < n; i++)
                    best_labels[i] = lab[i];
        }
    }
    return best;
}

__attribute__((unused)) static double oracle_best(const double *X, int n, int d, int k, const oracle_pair *pairs, int np,
                                                  const size_t *lo, const size_t *hi, int32_t *best_labels)
{
    return oracle_best_soft(X, n, d, k, pairs, np, lo, hi, NULL, 0, 0.0, best_labels);
}

/* A random tiny instance, drawn from the caller's uniform stream: n points uniform in
 * [0, 10)^2 into X, then `tries` candidate pairs (i, j) (i first, then j); distinct, new ones
 * are kept, each a must-link with probability 1/2 (one more draw). Returns the pairs kept. */
__attribute__((unused)) static int oracle_random_instance(double (*unif)(void), int n, int tries, double *X,
                                                          oracle_pair *pairs)
{
    for (int i = 0; i < 2 * n; i++)
        X[i] = 10 * unif();
    int np = 0;
    for (int q = 0; q < tries; q++) {
        int i = (int)(unif() * n), j = (int)(unif() * n), dup = 0;
        for (int t = 0; t < np; t++)
            dup |= (pairs[t].i == i && pairs[t].j == j) || (pairs[t].i == j && pairs[t].j == i);
        if (i != j && !dup)
            pairs[np++] = (oracle_pair){i, j, unif() < 0.5};
    }
    return np;
}

/* The instance as a problem: points, pairs, and the size bounds lo/hi (k entries) unless
 * lo is NULL. NULL when the library refuses it (the reason is printed). */
__attribute__((unused)) static ckm_problem *oracle_problem(const double *X, int n, int d, int k,
                                                           const oracle_pair *pairs, int np, const size_t *lo,
                                                           const size_t *hi)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    bool ok = ckm_problem_create(X, (size_t)n, (size_t)d, (size_t)k, &p, &err) == CKM_OK;
    for (int q = 0; q < np && ok; q++)
        ok = ckm_problem_add_pair(p, (size_t)pairs[q].i, (size_t)pairs[q].j,
                                  pairs[q].ml ? CKM_MUST_LINK : CKM_CANNOT_LINK, &err) == CKM_OK;
    if (ok && lo)
        ok = ckm_problem_set_sizes(p, lo, hi, &err) == CKM_OK;
    if (!ok) {
        fprintf(stderr, "oracle_problem: %s\n", err.message);
        ckm_problem_free(p);
        return NULL;
    }
    return p;
}

#endif
