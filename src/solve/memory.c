/*
 * memory.c -- the memory model of a solve (docs/memory.md) and the refusal of a
 * solve that would need more than the machine can give it, BEFORE anything large is
 * allocated. Estimates count the dominant terms only, in bytes (n points, d features, k
 * clusters, s must-link groups, m lifted cannot-links, T worker threads):
 *   driver     24 n + 8 s d + 8 k d (+ 8 n d for a rescaled copy, scale.c; + 2 s d + 32 s
 *              from d = 32: k-means++'s bf16 copy and its bounds, seeding.c)
 *   algorithm  its registry row's estimate (ckm_algo.bytes), written next to its code in
 *              src/algo (the assignment step's share: ckm_assign_bytes, src/assign/assign.h)
 * Available memory: ckm_memory_available (core/alloc.c); unknown (no refusal) when it
 * cannot be read.
 */
#include "memory.h"
#include "seeding.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double ckm_memory_estimate(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled)
{
    double n = (double)r->n, d = (double)r->d, k = (double)r->k, s = (double)r->s;
    double b = 24.0 * n + 8.0 * s * d + 8.0 * k * d + (rescaled ? 8.0 * n * d : 0.0) +
               (r->d >= CKM_SEED_FLOAT_FROM_D ? 2.0 * s * d + 32.0 * s : 0.0);
    return b + a->bytes(r, dist, threads > 0 ? threads : 1);
}

ckm_error ckm_memory_check(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled,
                           ckm_err *err)
{
    double need = ckm_memory_estimate(a, r, dist, threads, rescaled), have = ckm_memory_available();
    if (have < 0.0 || need <= have)
        return CKM_OK;
    return ckm_fail(err, CKM_ERR_NOMEM,
                    "%s would need about %.0f MB for n = %zu, d = %zu, k = %zu, %zu groups, %zu lifted cannot-links "
                    "(memory model: docs/memory.md), but only %.0f MB are available",
                    a->info.name, need / 1048576.0, r->n, r->d, r->k, r->s, r->n_cl, have / 1048576.0);
}
