/*
 * assign_common.c -- what both assignment models (assign.c: the full one; assign_cg.c: the
 * restricted one) share, so that neither calls into the other: the cannot-link incidence
 * lists of the groups (CSR) and the model's objective of a labelling,
 *   sum_t cost[t, l_t] + soft_P sum_e |soft_w_e| [pair e violated]   (assign.h).
 */
#include "assign.h"
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

double ckm_assign_total(const ckm_reduced *r, const double *cost, const int32_t *labels)
{
    double f = 0.0;
    for (size_t t = 0; t < r->s; t++)
        f += cost[t * r->k + (size_t)labels[t]];
    return f + ckm_soft_cost(r, labels);
}
