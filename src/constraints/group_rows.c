/*
 * group_rows.c -- the hard rows of the reduced problem (reduced.h) on group labels: size
 * bounds, capacities (within cap_tol) and the lifted cannot-links; must-links hold by
 * construction. The one such check of the algorithms and routes (ckm_check on point labels is
 * the independent one). O(s + k + cannot-links).
 */
#include "reduced.h"

#include <string.h>

bool ckm_group_labels_feasible(const ckm_reduced *r, const int32_t *labels, double *wsum)
{
    memset(wsum, 0, r->k * sizeof(double));
    for (size_t t = 0; t < r->s; t++)
        wsum[labels[t]] += (double)r->weight[t];
    for (size_t j = 0; j < r->k; j++)
        if (wsum[j] < (double)r->lo[j] || wsum[j] > (double)r->hi[j])
            return false;
    if (r->has_caps) { /* the loads, in wsum for the check, then the weights again */
        memset(wsum, 0, r->k * sizeof(double));
        for (size_t t = 0; t < r->s; t++)
            wsum[labels[t]] += r->demand[t];
        bool held = true;
        for (size_t j = 0; j < r->k; j++)
            held = held && wsum[j] >= r->cap_lo[j] - r->cap_tol && wsum[j] <= r->cap_hi[j] + r->cap_tol;
        memset(wsum, 0, r->k * sizeof(double));
        for (size_t t = 0; t < r->s; t++)
            wsum[labels[t]] += (double)r->weight[t];
        if (!held)
            return false;
    }
    return ckm_group_cannot_links_met(r, labels);
}

bool ckm_group_cannot_links_met(const ckm_reduced *r, const int32_t *labels)
{
    for (size_t e = 0; e < r->n_cl; e++)
        if (labels[r->cl[2 * e]] == labels[r->cl[2 * e + 1]])
            return false;
    return true;
}
