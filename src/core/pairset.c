/*
 * pairset.c -- see pairset.h. Load factor kept <= 1/2; linear probing.
 */
#include "pairset.h"

#include <stdint.h>
#include <stdlib.h>

void ckm_pairset_init(ckm_pairset *s)
{
    s->keys_a = s->keys_b = s->vals = NULL;
    s->count = s->cap = 0;
}

void ckm_pairset_free(ckm_pairset *s)
{
    free(s->keys_a);
    free(s->keys_b);
    free(s->vals);
    ckm_pairset_init(s);
}

static size_t slot_of(size_t a, size_t b, size_t cap)
{
    uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)b + 0x632be59bd9b4e019ULL) * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 29;
    return (size_t)h & (cap - 1);
}

static void order(size_t *i, size_t *j)
{
    if (*i > *j) {
        size_t t = *i;
        *i = *j;
        *j = t;
    }
}

static bool rehash(ckm_pairset *s, size_t cap)
{
    size_t *ka = malloc(cap * sizeof *ka), *kb = malloc(cap * sizeof *kb),
           *v = malloc(cap * sizeof *v);
    if (!ka || !kb || !v) {
        free(ka);
        free(kb);
        free(v);
        return false;
    }
    for (size_t i = 0; i < cap; i++)
        ka[i] = SIZE_MAX;
    for (size_t i = 0; i < s->cap; i++) {
        if (s->keys_a[i] == SIZE_MAX)
            continue;
        size_t h = slot_of(s->keys_a[i], s->keys_b[i], cap);
        while (ka[h] != SIZE_MAX)
            h = (h + 1) & (cap - 1);
        ka[h] = s->keys_a[i];
        kb[h] = s->keys_b[i];
        v[h] = s->vals[i];
    }
    free(s->keys_a);
    free(s->keys_b);
    free(s->vals);
    s->keys_a = ka;
    s->keys_b = kb;
    s->vals = v;
    s->cap = cap;
    return true;
}

bool ckm_pairset_insert(ckm_pairset *s, size_t i, size_t j, size_t val)
{
    order(&i, &j);
    if (2 * (s->count + 1) > s->cap) {
        if (s->cap > SIZE_MAX / 4 || !rehash(s, s->cap ? 2 * s->cap : 64))
            return false;
    }
    size_t h = slot_of(i, j, s->cap);
    while (s->keys_a[h] != SIZE_MAX) {
        if (s->keys_a[h] == i && s->keys_b[h] == j) {
            s->vals[h] = val;
            return true;
        }
        h = (h + 1) & (s->cap - 1);
    }
    s->keys_a[h] = i;
    s->keys_b[h] = j;
    s->vals[h] = val;
    s->count++;
    return true;
}

int ckm_pairset_find(const ckm_pairset *s, size_t i, size_t j, size_t *val)
{
    if (s->cap == 0)
        return 0;
    order(&i, &j);
    size_t h = slot_of(i, j, s->cap);
    while (s->keys_a[h] != SIZE_MAX) {
        if (s->keys_a[h] == i && s->keys_b[h] == j) {
            if (val)
                *val = s->vals[h];
            return 1;
        }
        h = (h + 1) & (s->cap - 1);
    }
    return 0;
}
