/*
 * problem.c -- the problem object: points, k, deduplicated pairs, size bounds, sample
 * weights, demands and capacity bounds.
 * Validation at the boundary (indices, i = j, ML/CL clash on one pair, lo > hi); bounds
 * that merely cannot be met are left for preprocessing to prove infeasible.
 */
#include "problem_impl.h"
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A problem on X, copied (copy = 1) or borrowed (copy = 0: the caller keeps X alive). */
static ckm_error problem_new(const double *X, size_t n, size_t d, size_t k, int copy, ckm_problem **out,
                             ckm_err *err)
{
    *out = NULL;
    if (n == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "no points (n = 0)");
    if (d == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "points have no features (d = 0)");
    if (k < 1)
        return ckm_fail(err, CKM_ERR_INVALID, "k = %zu: need at least one cluster", k);
    if (k > (size_t)INT32_MAX)
        return ckm_fail(err, CKM_ERR_INVALID, "k = %zu is too large", k);
    size_t nd, kd;
    if (!ckm_mul_ok(n, d, &nd) || !ckm_mul_ok(nd, sizeof(double), &nd) ||
        !ckm_mul_ok(k, d, &kd) || !ckm_mul_ok(n, k, &kd))
        return ckm_fail(err, CKM_ERR_NOMEM, "problem size n = %zu, d = %zu, k = %zu overflows", n,
                        d, k);
    for (size_t i = 0; i < n * d; i++)
        if (!(X[i] - X[i] == 0.0))
            return ckm_fail(err, CKM_ERR_INVALID, "point %zu, feature %zu is not finite", i / d,
                            i % d);
    ckm_problem *p = calloc(1, sizeof *p);
    if (!p)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    p->n = n;
    p->d = d;
    p->k = k;
    ckm_pairset_init(&p->index);
    p->X_owned = copy ? malloc(nd) : NULL;
    p->X = copy ? p->X_owned : X;
    p->lo = ckm_alloc_array(k, sizeof(size_t));
    p->hi = ckm_alloc_array(k, sizeof(size_t));
    if (!p->X || !p->lo || !p->hi) {
        ckm_problem_free(p);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu x %zu points", n, d);
    }
    if (copy)
        memcpy(p->X_owned, X, nd);
    for (size_t j = 0; j < k; j++) {
        p->lo[j] = 1;
        p->hi[j] = n;
    }
    *out = p;
    return CKM_OK;
}

ckm_error ckm_problem_create(const double *X, size_t n, size_t d, size_t k, ckm_problem **out, ckm_err *err)
{
    return problem_new(X, n, d, k, 1, out, err);
}

ckm_error ckm_problem_wrap(const double *X, size_t n, size_t d, size_t k, ckm_problem **out, ckm_err *err)
{
    return problem_new(X, n, d, k, 0, out, err);
}

void ckm_problem_free(ckm_problem *p)
{
    if (!p)
        return;
    free(p->X_owned);
    free(p->pairs);
    ckm_pairset_free(&p->index);
    free(p->lo);
    free(p->hi);
    free(p->w);
    free(p->soft);
    free(p->soft_conf);
    free(p->q);
    free(p->cap_lo);
    free(p->cap_hi);
    free(p);
}

size_t ckm_problem_n(const ckm_problem *p) { return p->n; }
size_t ckm_problem_d(const ckm_problem *p) { return p->d; }
size_t ckm_problem_k(const ckm_problem *p) { return p->k; }
const double *ckm_problem_points(const ckm_problem *p) { return p->X; }
size_t ckm_problem_must_link_count(const ckm_problem *p) { return p->n_ml; }
size_t ckm_problem_cannot_link_count(const ckm_problem *p) { return p->n_cl; }
ckm_error ckm_problem_pair(const ckm_problem *p, size_t i, ckm_pair *out, ckm_err *err)
{
    if (i >= p->n_pairs)
        return ckm_fail(err, CKM_ERR_INVALID, "pair index %zu is out of range (the problem holds %zu pairs)", i,
                        p->n_pairs);
    *out = p->pairs[i];
    return CKM_OK;
}

/* Replace *dst by a copy of the n values v, each finite and > 0 (>= 0 with zero_ok; v NULL:
 * none); one, what, hint name a value in the messages ("sample weight", "weights", and a hint
 * or ""). */
static ckm_error set_per_point(size_t n, const double *v, bool zero_ok, double **dst, const char *one, const char *what,
                               const char *hint, ckm_err *err)
{
    if (!v) {
        free(*dst);
        *dst = NULL;
        return CKM_OK;
    }
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]) || !(zero_ok ? v[i] >= 0.0 : v[i] > 0.0))
            return ckm_fail(err, CKM_ERR_INVALID, "%s %zu is %g: %s must be finite and %s%s", one, i, v[i], what,
                            zero_ok ? ">= 0" : "> 0", hint);
    double *c = ckm_alloc_array(n, sizeof(double));
    if (!c)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu %ss", n, one);
    memcpy(c, v, n * sizeof(double));
    free(*dst);
    *dst = c;
    return CKM_OK;
}

ckm_error ckm_problem_set_weights(ckm_problem *p, const double *w, ckm_err *err)
{
    return set_per_point(p->n, w, false, &p->w, "sample weight", "weights",
                        " (drop a row instead of giving it weight 0)", err);
}

const double *ckm_problem_weights(const ckm_problem *p) { return p->w; }

static const char *link_name(ckm_link t) { return t == CKM_MUST_LINK ? "must-link" : "cannot-link"; }

/* The checks every pair passes, hard or soft ("soft " in what for the soft ones). */
static ckm_error check_pair(const ckm_problem *p, size_t i, size_t j, ckm_link type, const char *what, ckm_err *err)
{
    if (type != CKM_MUST_LINK && type != CKM_CANNOT_LINK)
        return ckm_fail(err, CKM_ERR_INVALID, "constraint type %d is neither must-link nor cannot-link",
                        (int)type);
    if (i >= p->n || j >= p->n)
        return ckm_fail(err, CKM_ERR_INVALID, "%s%s (%zu, %zu): index out of range (n = %zu)", what,
                        link_name(type), i, j, p->n);
    if (i == j)
        return ckm_fail(err, CKM_ERR_INVALID, "%s%s (%zu, %zu) links a point with itself", what,
                        link_name(type), i, j);
    return CKM_OK;
}

ckm_error ckm_problem_add_pair(ckm_problem *p, size_t i, size_t j, ckm_link type, ckm_err *err)
{
    ckm_error rc = check_pair(p, i, j, type, "", err);
    if (rc != CKM_OK)
        return rc;
    size_t prev;
    if (ckm_pairset_find(&p->index, i, j, &prev)) {
        if (p->pairs[prev].type != type)
            return ckm_fail(err, CKM_ERR_INVALID, "pair (%zu, %zu) is both must-link and cannot-link",
                            i, j);
        return CKM_OK;
    }
    if (!ckm_grow((void **)&p->pairs, &p->pairs_cap, p->n_pairs + 1, sizeof *p->pairs) ||
        !ckm_pairset_insert(&p->index, i, j, p->n_pairs))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory adding constraints");
    ckm_pair pr = {i, j, type, 0};
    p->pairs[p->n_pairs++] = pr;
    if (type == CKM_MUST_LINK)
        p->n_ml++;
    else
        p->n_cl++;
    return CKM_OK;
}

ckm_error ckm_problem_add_soft_pair(ckm_problem *p, size_t i, size_t j, ckm_link type, double confidence,
                                   ckm_err *err)
{
    ckm_error rc = check_pair(p, i, j, type, "soft ", err);
    if (rc != CKM_OK)
        return rc;
    if (!(confidence > 0.0 && confidence <= 1.0))
        return ckm_fail(err, CKM_ERR_INVALID,
                        "soft %s (%zu, %zu): confidence %g is not in (0, 1] (a certain pair is a hard one)",
                        link_name(type), i, j, confidence);
    if (!ckm_grow((void **)&p->soft, &p->soft_cap, p->n_soft + 1, sizeof *p->soft) ||
        !ckm_grow((void **)&p->soft_conf, &p->soft_conf_cap, p->n_soft + 1, sizeof *p->soft_conf))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory adding soft constraints");
    ckm_pair pr = {i, j, type, 0};
    p->soft[p->n_soft] = pr;
    p->soft_conf[p->n_soft++] = confidence;
    if (type == CKM_MUST_LINK)
        p->n_sml++;
    else
        p->n_scl++;
    return CKM_OK;
}

size_t ckm_problem_soft_pair_count(const ckm_problem *p) { return p->n_soft; }

ckm_error ckm_problem_soft_pair(const ckm_problem *p, size_t q, ckm_pair *out, double *confidence, ckm_err *err)
{
    if (q >= p->n_soft)
        return ckm_fail(err, CKM_ERR_INVALID, "soft pair index %zu is out of range (the problem holds %zu)", q,
                        p->n_soft);
    *out = p->soft[q];
    if (confidence)
        *confidence = p->soft_conf[q];
    return CKM_OK;
}

ckm_error ckm_problem_add_constraints(ckm_problem *p, const ckm_constraints *c, ckm_err *err)
{
    for (size_t q = 0; q < c->count; q++) {
        const ckm_pair *pr = &c->pairs[q];
        ckm_err e = {CKM_OK, ""};
        bool soft = c->confidence && c->confidence[q] != 0.0;
        ckm_error rc = soft ? ckm_problem_add_soft_pair(p, pr->i, pr->j, pr->type, c->confidence[q], &e)
                            : ckm_problem_add_pair(p, pr->i, pr->j, pr->type, &e);
        if (rc != CKM_OK) {
            if (pr->line)
                return ckm_fail(err, rc, "constraint on line %zu: %s", pr->line, e.message);
            return ckm_fail(err, rc, "constraint %zu: %s", q, e.message);
        }
        if (soft)
            p->soft[p->n_soft - 1].line = pr->line;
        else
            p->pairs[p->n_pairs - 1].line = pr->line;
    }
    return CKM_OK;
}

ckm_error ckm_problem_set_size_range(ckm_problem *p, size_t lo, size_t hi, ckm_err *err)
{
    if (lo > hi)
        return ckm_fail(err, CKM_ERR_INVALID, "size bounds: minimum %zu > maximum %zu", lo, hi);
    for (size_t j = 0; j < p->k; j++) {
        p->lo[j] = lo;
        p->hi[j] = hi;
    }
    return CKM_OK;
}

ckm_error ckm_problem_set_sizes(ckm_problem *p, const size_t *lo, const size_t *hi, ckm_err *err)
{
    for (size_t j = 0; j < p->k; j++)
        if (lo[j] > hi[j])
            return ckm_fail(err, CKM_ERR_INVALID, "size bounds of cluster %zu: minimum %zu > maximum %zu",
                            j, lo[j], hi[j]);
    memcpy(p->lo, lo, p->k * sizeof *lo);
    memcpy(p->hi, hi, p->k * sizeof *hi);
    return CKM_OK;
}

void ckm_problem_set_balanced(ckm_problem *p)
{
    for (size_t j = 0; j < p->k; j++) {
        p->lo[j] = p->n / p->k;
        p->hi[j] = (p->n + p->k - 1) / p->k;
    }
}

ckm_error ckm_problem_size_bounds(const ckm_problem *p, size_t j, size_t *lo, size_t *hi, ckm_err *err)
{
    if (j >= p->k)
        return ckm_fail(err, CKM_ERR_INVALID, "cluster %zu is out of range (k = %zu)", j, p->k);
    *lo = p->lo[j];
    *hi = p->hi[j];
    return CKM_OK;
}

int ckm_problem_has_size_bounds(const ckm_problem *p)
{
    for (size_t j = 0; j < p->k; j++)
        if (p->lo[j] > 1 || p->hi[j] < p->n)
            return 1;
    return 0;
}

ckm_error ckm_problem_set_demands(ckm_problem *p, const double *q, ckm_err *err)
{
    return set_per_point(p->n, q, true, &p->q, "demand", "demands", "", err);
}

const double *ckm_problem_demands(const ckm_problem *p) { return p->q; }

static ckm_error check_capacity(size_t j, double lo, double hi, ckm_err *err)
{
    if (!(lo >= 0.0) || !isfinite(lo))
        return ckm_fail(err, CKM_ERR_INVALID, "capacity bounds of cluster %zu: minimum %g is not a finite value >= 0",
                        j, lo);
    if (!(hi >= lo)) /* NaN too */
        return ckm_fail(err, CKM_ERR_INVALID, "capacity bounds of cluster %zu: maximum %g is below the minimum %g", j,
                        hi, lo);
    return CKM_OK;
}

ckm_error ckm_problem_set_capacities(ckm_problem *p, const double *lo, const double *hi, ckm_err *err)
{
    for (size_t j = 0; j < p->k; j++) {
        ckm_error rc = check_capacity(j, lo[j], hi[j], err);
        if (rc != CKM_OK)
            return rc;
    }
    if (!p->cap_lo) {
        p->cap_lo = ckm_alloc_array(p->k, sizeof(double));
        p->cap_hi = ckm_alloc_array(p->k, sizeof(double));
        if (!p->cap_lo || !p->cap_hi) {
            ckm_problem_clear_capacities(p);
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu capacity bounds", p->k);
        }
    }
    memcpy(p->cap_lo, lo, p->k * sizeof(double));
    memcpy(p->cap_hi, hi, p->k * sizeof(double));
    return CKM_OK;
}

ckm_error ckm_problem_set_capacity_range(ckm_problem *p, double lo, double hi, ckm_err *err)
{
    ckm_error rc = check_capacity(0, lo, hi, err);
    if (rc != CKM_OK)
        return rc;
    double *a = ckm_alloc_array(p->k, sizeof(double)), *b = ckm_alloc_array(p->k, sizeof(double));
    if (!a || !b) {
        free(a);
        free(b);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu capacity bounds", p->k);
    }
    for (size_t j = 0; j < p->k; j++) {
        a[j] = lo;
        b[j] = hi;
    }
    rc = ckm_problem_set_capacities(p, a, b, err);
    free(a);
    free(b);
    return rc;
}

void ckm_problem_clear_capacities(ckm_problem *p)
{
    free(p->cap_lo);
    free(p->cap_hi);
    p->cap_lo = p->cap_hi = NULL;
}

int ckm_problem_has_capacities(const ckm_problem *p) { return p->cap_lo != NULL; }

ckm_error ckm_problem_capacity_bounds(const ckm_problem *p, size_t j, double *lo, double *hi, ckm_err *err)
{
    if (j >= p->k)
        return ckm_fail(err, CKM_ERR_INVALID, "cluster %zu is out of range (k = %zu)", j, p->k);
    *lo = p->cap_lo ? p->cap_lo[j] : 0.0;
    *hi = p->cap_hi ? p->cap_hi[j] : INFINITY;
    return CKM_OK;
}

double ckm_problem_capacity_tol(const ckm_problem *p)
{
    double total = 0.0;
    for (size_t i = 0; i < p->n; i++)
        total += p->q ? p->q[i] : 1.0;
    return 1e-9 * fmax(1.0, total);
}

ckm_error ckm_problem_check_k(const ckm_problem *p, ckm_err *err)
{
    if (p->k > p->n)
        return ckm_fail(err, CKM_ERR_INVALID, "k = %zu is larger than the number of points n = %zu", p->k, p->n);
    return CKM_OK;
}
