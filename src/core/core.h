/*
 * core.h -- internal helpers shared by every module: error reporting, checked size
 * arithmetic and allocation, the explicit RNG, wall-clock timers.
 * Invariant: nothing here holds global mutable state.
 */
#ifndef CKM_CORE_H
#define CKM_CORE_H

#include "ckm.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Fill err (when non-NULL) and return code. printf-style message. */
ckm_error ckm_fail(ckm_err *err, ckm_error code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* a*b without overflow; false when it would overflow SIZE_MAX. */
bool ckm_mul_ok(size_t a, size_t b, size_t *out);
/* sum_j lo[j] and sum_j hi[j] over k clusters, saturating at SIZE_MAX (so huge bounds
 * cannot wrap around and fake feasibility). Size bounds admit n points iff
 * *sum_lo <= n <= *sum_hi. */
void ckm_bound_sums(const size_t *lo, const size_t *hi, size_t k, size_t *sum_lo, size_t *sum_hi);
/* malloc/calloc of count elements of size bytes with overflow check; NULL on failure. */
void *ckm_alloc_array(size_t count, size_t size);
/* The same for a large array read at random (rows scattered over n, lists over k^2): from
 * 8 MB, the whole 2 MB pages inside it are advised to the kernel as transparent huge
 * pages (madvise MADV_HUGEPAGE, this block only; where the system's setting is "madvise",
 * Debian's default, one TLB entry then covers 2 MB instead of 4 KB). Freed with free(). */
void *ckm_alloc_large(size_t count, size_t size);
/* Bytes this process may still allocate (MemAvailable, lowered to a cgroup's limit), or -1
 * when unknown (alloc.c). */
double ckm_memory_available(void);
void *ckm_calloc_array(size_t count, size_t size);
/* Grow *buf (capacity *cap elements) to hold at least need elements. */
bool ckm_grow(void **buf, size_t *cap, size_t need, size_t elem);

/* Growable text buffer (sbuf.c): appends are no-ops after a failed allocation (failed set);
 * p is NUL-terminated after any successful append; the owner frees p. */
typedef struct ckm_sbuf {
    char *p;
    size_t len, cap;
    bool failed;
} ckm_sbuf;
void ckm_sb_printf(ckm_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ckm_sb_put(ckm_sbuf *b, const char *s, size_t len);

/* xoshiro256** generator, seeded through splitmix64. State lives with the caller. */
typedef struct ckm_rng {
    uint64_t s[4];
} ckm_rng;
void ckm_rng_seed(ckm_rng *r, uint64_t seed, uint64_t stream);
uint64_t ckm_rng_next(ckm_rng *r);
/* Uniform in [0, 1). */
double ckm_rng_uniform(ckm_rng *r);
/* Uniform integer in [0, m), m >= 1, without modulo bias. */
uint64_t ckm_rng_below(ckm_rng *r, uint64_t m);
/* The same draws for a fixed m many times over: ckm_rng_in(r, &q) with q = ckm_rng_range_make(m)
 * returns exactly what ckm_rng_below(r, m) would (the same rejection, the remainder without
 * a division; rng.c). */
__extension__ typedef unsigned __int128 ckm_u128; /* gcc's 128-bit integer (-pedantic) */
typedef struct ckm_rng_range {
    uint64_t m, limit;
    ckm_u128 c;
} ckm_rng_range;
ckm_rng_range ckm_rng_range_make(uint64_t m);
uint64_t ckm_rng_in(ckm_rng *r, const ckm_rng_range *q);

/* Worker threads for a request: requested if > 0, else the online cores. */
int ckm_thread_count(int requested);
/* Run fn(ctx, begin, end, tid) on `threads` contiguous ranges of [0, count), in parallel,
 * and wait for all. The split is a pure function of (count, threads). */
typedef void (*ckm_range_fn)(void *ctx, size_t begin, size_t end, int tid);
void ckm_parallel_for(int threads, size_t count, ckm_range_fn fn, void *ctx);

/* The one optimality test of ipc, exact and the SDP solver: an incumbent SSE ub is within
 * tolerance of a lower bound lb when
 *     ub - max(lb, 0) <= max(rel * ub, CKM_GAP_ABS * tss)
 * SSE is never negative, so 0 is always a valid bound; the absolute floor, relative to the
 * total scatter tss (the SSE of k = 1, which bounds every SSE), settles objectives at
 * rounding level (k >= the number of distinct points: the incumbent's SSE is 0 or a few
 * ulps of the data's squares), where a relative test alone can never succeed. 1e-12 tss is
 * ~5000 times the rounding of an SSE and far below any relative gap the SDP bound reaches,
 * so it changes nothing on non-degenerate instances. */
#define CKM_GAP_ABS 1e-12
bool ckm_gap_closed(double ub, double lb, double rel, double tss);

/* Monotonic wall-clock seconds. */
double ckm_now(void);

/* Small dense SPD systems (dense.c), row-major k x k, lower triangle used. ckm_chol
 * factors A = L L' in place and returns 0 when A is not positive definite; ckm_chol_solve
 * overwrites x with (L L')^{-1} x. Own code: called per group on tiny blocks, where a
 * threaded LAPACK spends its time waking threads. */
int ckm_chol(double *A, size_t k);
void ckm_chol_solve(const double *L, size_t k, double *x);

#endif
