/*
 * pairset.h -- open-addressing hash map from an unordered index pair {i, j} to a size_t
 * value. Used to deduplicate constraints and to answer "are a and b linked?" in O(1).
 */
#ifndef CKM_PAIRSET_H
#define CKM_PAIRSET_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ckm_pairset {
    size_t *keys_a, *keys_b, *vals; /* keys_a == SIZE_MAX marks an empty slot */
    size_t count, cap;               /* cap is 0 or a power of two */
} ckm_pairset;

void ckm_pairset_init(ckm_pairset *s);
void ckm_pairset_free(ckm_pairset *s);
/* Insert {i, j} -> val (overwrites). false on allocation failure. */
bool ckm_pairset_insert(ckm_pairset *s, size_t i, size_t j, size_t val);
/* 1 and *val when {i, j} is present, else 0. val may be NULL. */
int ckm_pairset_find(const ckm_pairset *s, size_t i, size_t j, size_t *val);

#endif
