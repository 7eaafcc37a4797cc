/*
 * part_pool.c -- see part_pool.h. Rows append at the end (ckm_grow doubles each array), so a
 * pool of r rows and z entries holds 16 z + 24 r bytes, up to twice that after growth.
 */
#include "part_pool.h"

#include "core.h"

#include <stdlib.h>
#include <string.h>

bool ckm_part_pool_add(ckm_part_pool *s, size_t nz, const int32_t *col, const double *coef, double rhs, double viol)
{
    size_t at = s->n ? s->start[s->n] : 0;
    if (!ckm_grow((void **)&s->start, &s->scap, s->n + 2, sizeof(size_t)) ||
        !ckm_grow((void **)&s->col, &s->ccap, at + nz, sizeof(int32_t)) ||
        !ckm_grow((void **)&s->coef, &s->fcap, at + nz, sizeof(double)) ||
        !ckm_grow((void **)&s->rhs, &s->rcap, s->n + 1, sizeof(double)) ||
        !ckm_grow((void **)&s->viol, &s->vcap, s->n + 1, sizeof(double)))
        return false;
    s->start[0] = 0;
    if (nz > 0) { /* a row of no entries (0 <= rhs < 0: a cycle of hard cannot-links) is a row too */
        memcpy(s->col + at, col, nz * sizeof(int32_t));
        memcpy(s->coef + at, coef, nz * sizeof(double));
    }
    s->rhs[s->n] = rhs;
    s->viol[s->n] = viol;
    s->start[++s->n] = at + nz;
    return true;
}

void ckm_part_pool_free(ckm_part_pool *s)
{
    free(s->start);
    free(s->col);
    free(s->coef);
    free(s->rhs);
    free(s->viol);
    free(s->basis);
    *s = (ckm_part_pool){0};
}
