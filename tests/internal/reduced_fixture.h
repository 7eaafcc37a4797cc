/*
 * reduced_fixture.h -- a hand-made ckm_reduced for the assignment-step tests: s groups of the
 * given weights, k clusters, n points in all, lifted cannot-links cl (2 n_cl entries) and
 * size bounds lo/hi (k each); no soft pairs. The arrays stay the caller's. And the tests'
 * feasibility check of group labels against such a problem.
 */
#ifndef CKM_TEST_REDUCED_FIXTURE_H
#define CKM_TEST_REDUCED_FIXTURE_H

#include "reduced.h"

#include <stdbool.h>
#include <string.h>

static inline ckm_reduced fixture_reduced(size_t s, size_t k, size_t n, size_t *weight, size_t n_cl, size_t *cl,
                                          const size_t *lo, const size_t *hi)
{
    ckm_reduced r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.k = k;
    r.n = n;
    r.weight = weight;
    r.n_cl = n_cl;
    r.cl = cl;
    r.lo = lo;
    r.hi = hi;
    return r;
}

/* Whether group labels lab meet every hard row of r: each cluster's size (in points) within
 * [lo_j, hi_j], no cannot-link inside a cluster. The tests' own check (k <= 16). */
static inline bool fixture_feasible(const ckm_reduced *r, const int32_t *lab)
{
    size_t size[16] = {0};
    for (size_t t = 0; t < r->s; t++)
        size[lab[t]] += r->weight[t];
    for (size_t j = 0; j < r->k; j++)
        if (size[j] < r->lo[j] || size[j] > r->hi[j])
            return false;
    for (size_t e = 0; e < r->n_cl; e++)
        if (lab[r->cl[2 * e]] == lab[r->cl[2 * e + 1]])
            return false;
    return true;
}

#endif
