/*
 * alloc.c -- checked size arithmetic and allocation. Every n*d or n*k product in the
 * library goes through ckm_mul_ok so huge inputs fail cleanly instead of wrapping. And the
 * memory this process may still allocate: MemAvailable of /proc/meminfo, lowered to the
 * cgroup's memory.max minus memory.current when a limit is set (-1 when neither can be read).
 */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include "core.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

bool ckm_mul_ok(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

void ckm_bound_sums(const size_t *lo, const size_t *hi, size_t k, size_t *sum_lo, size_t *sum_hi)
{
    size_t a = 0, b = 0;
    for (size_t j = 0; j < k; j++) {
        a = a + lo[j] < a ? SIZE_MAX : a + lo[j];
        b = b + hi[j] < b ? SIZE_MAX : b + hi[j];
    }
    *sum_lo = a;
    *sum_hi = b;
}

void *ckm_alloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!ckm_mul_ok(count, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

/* Blocks of at least this many bytes ask for transparent huge pages (ckm_alloc_large). */
#define LARGE_BYTES ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

void *ckm_alloc_large(size_t count, size_t size)
{
    void *p = ckm_alloc_array(count, size);
#ifdef MADV_HUGEPAGE
    size_t bytes = count * size; /* checked by ckm_alloc_array when p != NULL */
    if (p && bytes >= LARGE_BYTES) {
        uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), b = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
        if (b > a)
            (void)madvise((void *)a, (size_t)(b - a), MADV_HUGEPAGE); /* advice: a refusal changes nothing */
    }
#endif
    return p;
}

void *ckm_calloc_array(size_t count, size_t size)
{
    size_t bytes;
    if (!ckm_mul_ok(count, size, &bytes))
        return NULL;
    return calloc(bytes ? count : 1, bytes ? size : 1);
}

bool ckm_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return false;
        ncap *= 2;
    }
    size_t bytes;
    if (!ckm_mul_ok(ncap, elem, &bytes))
        return false;
    void *p = realloc(*buf, bytes);
    if (!p)
        return false;
    *buf = p;
    *cap = ncap;
    return true;
}

void ckm_free(void *ptr)
{
    free(ptr);
}

/* a "Key: N kB" line of /proc/meminfo, in bytes; -1 when absent */
static double meminfo(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1.0;
    char line[256];
    double v = -1.0;
    size_t len = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            double kb;
            if (sscanf(line + len + 1, "%lf", &kb) == 1)
                v = kb * 1024.0;
            break;
        }
    fclose(f);
    return v;
}

static double read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1.0;
    double v = -1.0;
    if (fscanf(f, "%lf", &v) != 1) /* "max" (no limit) reads as nothing */
        v = -1.0;
    fclose(f);
    return v;
}

double ckm_memory_available(void)
{
    double avail = meminfo("MemAvailable");
    double limit = read_number("/sys/fs/cgroup/memory.max"), used = read_number("/sys/fs/cgroup/memory.current");
    if (limit > 0.0 && used >= 0.0 && (avail < 0.0 || limit - used < avail))
        avail = limit - used > 0.0 ? limit - used : 0.0;
    return avail;
}
