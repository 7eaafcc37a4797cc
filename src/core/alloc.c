/*
 * alloc.c -- checked size arithmetic and allocation. Every n*d or n*k product in the
 * library goes through ckm_mul_ok so huge inputs fail cleanly instead of wrapping.
 */
#include "core.h"

#include <stdlib.h>

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
