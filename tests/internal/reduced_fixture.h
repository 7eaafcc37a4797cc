/*
 * reduced_fixture.h -- a hand-made ckm_reduced for the assignment-step tests: s groups of the
 * given weights, k clusters, n points in all, lifted cannot-links cl (2 n_cl entries) and
 * size bounds lo/hi (k each); no soft pairs. The arrays stay the caller's.
 */
#ifndef CKM_TEST_REDUCED_FIXTURE_H
#define CKM_TEST_REDUCED_FIXTURE_H

#include "reduced.h"

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

#endif
