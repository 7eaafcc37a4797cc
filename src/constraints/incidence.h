/*
 * incidence.h -- which pairs touch each group: incidence lists over s groups of m pairs
 * (CSR), built once per problem by the routes of the assignment step, its local searches
 * and its fixing. O(s + m) time and memory.
 */
#ifndef CKM_INCIDENCE_H
#define CKM_INCIDENCE_H

#include <stdbool.h>
#include <stddef.h>

/* The pair ids incident to group t are inc[start[t] .. start[t+1]) for the m pairs ab
 * (2 m entries). false on allocation failure (the caller frees both outputs either way). */
bool ckm_incidence(size_t s, size_t m, const size_t *ab, size_t **start, size_t **inc);

/* The other end of pair e of ab when one end is t. */
static inline size_t ckm_pair_other(const size_t *ab, size_t e, size_t t)
{
    return ab[2 * e] == t ? ab[2 * e + 1] : ab[2 * e];
}

/* A soft pair of penalty p moved into the cost row (k clusters) of one end when the other end
 * sits in cluster at: a must-link (must) is paid in every cluster but at, a cannot-link in at
 * only. The split route's fixing and search and the soft local search price pairs so. */
static inline void ckm_pair_pay(double *row, size_t k, size_t at, double p, bool must)
{
    if (!must) {
        row[at] += p;
        return;
    }
    for (size_t j = 0; j < k; j++)
        row[j] += j == at ? 0.0 : p;
}

#endif
