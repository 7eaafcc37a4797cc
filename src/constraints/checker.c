/*
 * checker.c -- THE independent checker. Given only the original problem and a labelling
 * it verifies every label range, every must-link and cannot-link pair, every size bound,
 * and recomputes the SSE from the labels (cluster means, then squared distances); soft
 * pairs are counted (violated ones and their confidence), not reported as violations; every
 * cluster's load sum_{i in C_j} q_i (demands, 1 without them) against its capacity bounds,
 * within ckm_problem_capacity_tol (1e-9 of the total demand). It
 * shares no code with any solver beyond ckm_sse, so a solver bug cannot hide here.
 * Cost: O(n d + pairs + soft pairs + k).
 */
#include "core.h"
#include "problem_impl.h"

#include <math.h>
#include <stdlib.h>

void ckm_check_report_free(ckm_check_report *r)
{
    if (!r)
        return;
    free(r->violations);
    free(r->sizes);
    free(r->loads);
    free(r);
}

static bool push(ckm_check_report *r, size_t *cap, int kind, size_t index, long long value)
{
    if (!ckm_grow((void **)&r->violations, cap, r->count + 1, sizeof *r->violations))
        return false;
    ckm_violation v;
    v.kind = kind;
    v.index = index;
    v.value = value;
    r->violations[r->count++] = v;
    return true;
}

ckm_error ckm_check(const ckm_problem *p, const int32_t *labels, ckm_check_report **out, ckm_err *err)
{
    *out = NULL;
    ckm_check_report *r = calloc(1, sizeof *r);
    if (!r || !(r->sizes = ckm_calloc_array(p->k, sizeof(size_t)))) {
        ckm_check_report_free(r);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    size_t cap = 0;
    bool ok = true;
    for (size_t i = 0; i < p->n && ok; i++) {
        if (labels[i] < 0 || (size_t)labels[i] >= p->k) {
            r->label_invalid++;
            ok = push(r, &cap, CKM_VIOLATION_LABEL, i, labels[i]);
        } else {
            r->sizes[labels[i]]++;
        }
    }
    for (size_t q = 0; q < p->n_pairs && ok; q++) {
        const ckm_pair *pr = &p->pairs[q];
        int32_t a = labels[pr->i], b = labels[pr->j];
        bool same = a == b;
        if (pr->type == CKM_MUST_LINK && !same) {
            r->must_link_violated++;
            ok = push(r, &cap, CKM_VIOLATION_PAIR, q, 0);
        } else if (pr->type == CKM_CANNOT_LINK && same) {
            r->cannot_link_violated++;
            ok = push(r, &cap, CKM_VIOLATION_PAIR, q, 0);
        }
    }
    for (size_t q = 0; q < p->n_soft && r->label_invalid == 0; q++) {
        const ckm_pair *pr = &p->soft[q];
        bool same = labels[pr->i] == labels[pr->j];
        if (pr->type == CKM_MUST_LINK && !same)
            r->soft_must_link_violated++;
        else if (pr->type == CKM_CANNOT_LINK && same)
            r->soft_cannot_link_violated++;
        else
            continue;
        r->soft_violated_confidence += p->soft_conf[q];
    }
    for (size_t j = 0; j < p->k && ok; j++)
        if (r->sizes[j] < p->lo[j] || r->sizes[j] > p->hi[j]) {
            r->size_violated++;
            ok = push(r, &cap, CKM_VIOLATION_SIZE, j, (long long)r->sizes[j]);
        }
    if (ok && r->label_invalid == 0) {
        if (!(r->loads = ckm_calloc_array(p->k, sizeof(double))))
            ok = false;
        for (size_t i = 0; ok && i < p->n; i++)
            r->loads[labels[i]] += p->q ? p->q[i] : 1.0;
        double tol = ckm_problem_capacity_tol(p);
        for (size_t j = 0; ok && p->cap_lo && j < p->k; j++)
            if (r->loads[j] < p->cap_lo[j] - tol || r->loads[j] > p->cap_hi[j] + tol) {
                r->capacity_violated++;
                ok = push(r, &cap, CKM_VIOLATION_CAPACITY, j, llround(fmin(r->loads[j], 9e18)));
            }
    }
    if (!ok) {
        ckm_check_report_free(r);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    r->sse = NAN;
    if (r->label_invalid == 0) {
        ckm_error rc = ckm_sse_weighted(p->X, p->w, p->n, p->d, labels, p->k, &r->sse, err);
        if (rc != CKM_OK) {
            ckm_check_report_free(r);
            return rc;
        }
    }
    *out = r;
    return CKM_OK;
}
