/*
 * rng.c -- xoshiro256** (Blackman & Vigna 2018) seeded by splitmix64. The state is an
 * explicit value owned by the caller; (seed, stream) pairs give independent,
 * reproducible streams (stream = restart index, so results do not depend on threads).
 */
#include "core.h"

#include <time.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void ckm_rng_seed(ckm_rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t ckm_rng_next(ckm_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double ckm_rng_uniform(ckm_rng *r) { return (double)(ckm_rng_next(r) >> 11) * 0x1.0p-53; }

uint64_t ckm_rng_below(ckm_rng *r, uint64_t m)
{
    /* rejection sampling on the top of the range keeps every residue equally likely */
    uint64_t limit = UINT64_MAX - UINT64_MAX % m;
    uint64_t x;
    do {
        x = ckm_rng_next(r);
    } while (x >= limit);
    return x % m;
}

/* x mod m for a fixed m without a division (Lemire, Kaser & Kurz 2019, "Faster remainder by
 * direct computation", with 128-bit fractions for 64-bit operands): c = ceil(2^128 / m);
 * the low 128 bits of c x are the fraction x/m - floor(x/m) scaled by 2^128, and their
 * product with m, shifted down by 128 bits, is x mod m exactly for every x, m < 2^64. */
ckm_rng_range ckm_rng_range_make(uint64_t m)
{
    ckm_rng_range q = {.m = m, .limit = UINT64_MAX - UINT64_MAX % m};
    q.c = m == 1 ? 0 : ~(ckm_u128)0 / m + 1; /* m = 1: every remainder is 0 */
    return q;
}

static uint64_t range_mod(const ckm_rng_range *q, uint64_t x)
{
    ckm_u128 frac = q->c * x; /* mod 2^128 */
    ckm_u128 lo = ((ckm_u128)(uint64_t)frac * q->m) >> 64;
    ckm_u128 hi = (ckm_u128)(uint64_t)(frac >> 64) * q->m;
    return (uint64_t)((lo + hi) >> 64);
}

uint64_t ckm_rng_in(ckm_rng *r, const ckm_rng_range *q)
{
    uint64_t x;
    do {
        x = ckm_rng_next(r);
    } while (x >= q->limit);
    return range_mod(q, x);
}

double ckm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
