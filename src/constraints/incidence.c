/*
 * incidence.c -- see incidence.h: a counting sort of the pairs' ends.
 */
#include "incidence.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

bool ckm_incidence(size_t s, size_t m, const size_t *ab, size_t **start_out, size_t **inc_out)
{
    *start_out = *inc_out = NULL;
    size_t *start = ckm_calloc_array(s + 1, sizeof(size_t)), *inc = ckm_alloc_array(2 * m + 1, sizeof(size_t));
    size_t *fill = ckm_alloc_array(s + 1, sizeof(size_t));
    if (!start || !inc || !fill) {
        free(start);
        free(inc);
        free(fill);
        return false;
    }
    for (size_t e = 0; e < m; e++) {
        start[ab[2 * e] + 1]++;
        start[ab[2 * e + 1] + 1]++;
    }
    for (size_t t = 0; t < s; t++)
        start[t + 1] += start[t];
    memcpy(fill, start, (s + 1) * sizeof(size_t));
    for (size_t e = 0; e < m; e++) {
        inc[fill[ab[2 * e]]++] = e;
        inc[fill[ab[2 * e + 1]]++] = e;
    }
    free(fill);
    *start_out = start;
    *inc_out = inc;
    return true;
}
