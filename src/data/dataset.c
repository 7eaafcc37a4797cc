/*
 * dataset.c -- dataset transformations (standardisation) and constraint generation from
 * ground-truth labels (Wagstaff et al. 2001 protocol: random distinct pairs, the type
 * given by whether the labels agree).
 */
#include "core.h"
#include "pairset.h"

#include <math.h>
#include <stdlib.h>

void ckm_dataset_standardize(ckm_dataset *ds)
{
    size_t n = ds->n, d = ds->d;
    for (size_t f = 0; f < d; f++) {
        double mu = 0.0, v = 0.0;
        for (size_t i = 0; i < n; i++)
            mu += ds->X[i * d + f];
        mu /= (double)n;
        for (size_t i = 0; i < n; i++) {
            double t = ds->X[i * d + f] - mu;
            v += t * t;
        }
        double sd = sqrt(v / (double)n);
        for (size_t i = 0; i < n; i++)
            ds->X[i * d + f] = sd > 0.0 ? (ds->X[i * d + f] - mu) / sd : 0.0;
    }
}

ckm_error ckm_constraints_generate(const int32_t *labels, size_t n, size_t count, double ml_fraction,
                                   uint64_t seed, ckm_constraints **out, ckm_err *err)
{
    *out = NULL;
    if (n < 2)
        return ckm_fail(err, CKM_ERR_INVALID, "need at least 2 points to make pairs (n = %zu)", n);
    if (!(ml_fraction <= 1.0) || isnan(ml_fraction))
        return ckm_fail(err, CKM_ERR_INVALID, "ML fraction %g must be in [0, 1]", ml_fraction);
    /* count pairs of each type available: same-label pairs = sum_c C(n_c, 2) */
    int32_t maxl = -1;
    for (size_t i = 0; i < n; i++) {
        if (labels[i] < 0)
            return ckm_fail(err, CKM_ERR_INVALID, "label of point %zu is negative", i);
        if (labels[i] > maxl)
            maxl = labels[i];
    }
    size_t *cnt = ckm_calloc_array((size_t)maxl + 1, sizeof(size_t));
    if (!cnt)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++)
        cnt[labels[i]]++;
    double same = 0.0, all = (double)n * (double)(n - 1) / 2.0;
    for (int32_t c = 0; c <= maxl; c++)
        same += (double)cnt[c] * (double)(cnt[c] - (cnt[c] > 0)) / 2.0;
    free(cnt);
    size_t want_ml = SIZE_MAX, want_cl = SIZE_MAX;
    if (ml_fraction >= 0.0) {
        want_ml = (size_t)llround((double)count * ml_fraction);
        want_cl = count - want_ml;
        if ((double)want_ml > same)
            return ckm_fail(err, CKM_ERR_INVALID, "%zu must-links requested but only %.0f same-label pairs exist",
                            want_ml, same);
        if ((double)want_cl > all - same)
            return ckm_fail(err, CKM_ERR_INVALID, "%zu cannot-links requested but only %.0f different-label pairs exist",
                            want_cl, all - same);
    } else if ((double)count > all) {
        return ckm_fail(err, CKM_ERR_INVALID, "%zu constraints requested but only %.0f distinct pairs exist",
                        count, all);
    }
    /* rejection sampling is fine while the request is a small share of the pairs; beyond
       half of the available pairs of a type it would crawl, so refuse clearly */
    if ((ml_fraction >= 0.0 && ((double)want_ml > 0.5 * same || (double)want_cl > 0.5 * (all - same))) ||
        (ml_fraction < 0.0 && (double)count > 0.5 * all))
        return ckm_fail(err, CKM_ERR_INVALID, "%zu constraints is more than half of the available pairs; ask for fewer",
                        count);
    ckm_constraints *c = calloc(1, sizeof *c);
    if (!c || !(c->pairs = ckm_alloc_array(count ? count : 1, sizeof(ckm_pair)))) {
        ckm_constraints_free(c);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    ckm_pairset seen;
    ckm_pairset_init(&seen);
    ckm_rng rng;
    ckm_rng_seed(&rng, seed, 0x636b6d67656eULL);
    size_t got_ml = 0, got_cl = 0;
    while (c->count < count) {
        size_t i = (size_t)ckm_rng_below(&rng, n), j = (size_t)ckm_rng_below(&rng, n);
        if (i == j)
            continue;
        if (i > j) {
            size_t t = i;
            i = j;
            j = t;
        }
        ckm_link type = labels[i] == labels[j] ? CKM_MUST_LINK : CKM_CANNOT_LINK;
        if (ml_fraction >= 0.0 && ((type == CKM_MUST_LINK && got_ml == want_ml) ||
                                   (type == CKM_CANNOT_LINK && got_cl == want_cl)))
            continue;
        if (ckm_pairset_find(&seen, i, j, NULL))
            continue;
        if (!ckm_pairset_insert(&seen, i, j, c->count)) {
            ckm_pairset_free(&seen);
            ckm_constraints_free(c);
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        }
        ckm_pair p = {i, j, type, 0};
        c->pairs[c->count++] = p;
        if (type == CKM_MUST_LINK)
            got_ml++;
        else
            got_cl++;
    }
    ckm_pairset_free(&seen);
    *out = c;
    return CKM_OK;
}
