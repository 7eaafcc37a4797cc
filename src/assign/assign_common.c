/*
 * assign_common.c -- what both assignment models (assign.c: the full one; assign_cg.c: the
 * restricted one) share, so that neither calls into the other: the cannot-link incidence
 * lists of the groups (CSR), the model's objective of a labelling,
 *   sum_t cost[t, l_t] + soft_P sum_e |soft_w_e| [pair e violated]   (assign.h),
 * and the argmin basis the dual simplex starts from.
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

void ckm_argmin_basis(const double *obj, const size_t *gcol, size_t s, size_t k, size_t group_rows, size_t cols,
                      size_t rows, unsigned char *st)
{
    memset(st, CKM_LP_AT_LOWER, cols);
    for (size_t t = 0; t < s; t++) {
        size_t c0 = gcol ? gcol[t] : t * k, c1 = gcol ? gcol[t + 1] : t * k + k, best = c0;
        if (c0 == c1)
            continue; /* a group without columns (fixed by the restricted MILP's presolve) */
        for (size_t c = c0 + 1; c < c1; c++)
            best = obj[c] < obj[best] ? c : best;
        st[best] = CKM_LP_BASIC;
    }
    for (size_t q = 0; q < rows; q++)
        st[cols + q] = q < group_rows ? CKM_LP_AT_LOWER : CKM_LP_BASIC;
}
