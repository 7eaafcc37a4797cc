/*
 * fixtures.h -- small problems shared by several algorithm tests (built through the public
 * API; NULL when the library refuses one, with the reason printed).
 *   ck_cl_triangle   23 points, k = 3: three nearly identical points pairwise cannot-linked
 *                    next to two tight groups of 10 -- the half-integral LP vertex on which
 *                    BCKM's published rule stalls
 *   ck_linked        60 points in 6 loose blobs, k = 4, 8 must-links, 8 cannot-links, every
 *                    cluster 12..18 points -- for determinism checks
 */
#ifndef CKM_TEST_FIXTURES_H
#define CKM_TEST_FIXTURES_H

#include "check.h"
#include "oracle.h"

__attribute__((unused)) static ckm_problem *ck_cl_triangle(void)
{
    double X[46] = {0, 0, 0.01, 0, 0, 0.01};
    uint64_t st = 3;
    for (int i = 3; i < 23; i++) {
        X[2 * i] = (i < 13 ? 5.0 : 0.0) + 0.3 * (ck_unif(&st) - 0.5);
        X[2 * i + 1] = (i < 13 ? 0.0 : 5.0) + 0.3 * (ck_unif(&st) - 0.5);
    }
    oracle_pair cl[3] = {{0, 1, 0}, {1, 2, 0}, {0, 2, 0}};
    return oracle_problem(X, 23, 2, 3, cl, 3, NULL, NULL);
}

__attribute__((unused)) static ckm_problem *ck_linked(void)
{
    double X[120];
    uint64_t st = 77;
    for (int i = 0; i < 60; i++) {
        X[2 * i] = (i % 3) * 4.0 + ck_unif(&st);
        X[2 * i + 1] = (i % 2) * 3.0 + ck_unif(&st);
    }
    oracle_pair pairs[16];
    for (int q = 0; q < 8; q++) {
        pairs[2 * q] = (oracle_pair){q, q + 20, 1};
        pairs[2 * q + 1] = (oracle_pair){q + 30, q + 31, 0};
    }
    size_t lo[4] = {12, 12, 12, 12}, hi[4] = {18, 18, 18, 18};
    return oracle_problem(X, 60, 2, 4, pairs, 16, lo, hi);
}

#endif
