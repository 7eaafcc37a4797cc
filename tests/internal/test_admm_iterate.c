/*
 * test_admm_iterate.c -- numeric verification of the lp-box ADMM derivation
 * (docs/formulations.md, src/algo/admm_iterate.c): on small constrained instances, from a
 * deliberately poor feasible start, the iterates converge to a binary point (box copy p
 * within 1e-4 of 0/1), the primal residual of every reformulated constraint (copies, one cluster
 * per group, sizes, bilinear cannot-links, and capacities in the cases that set them: demands
 * 1-3, every load within 2 of the start's range) falls below 1e-4, the rounded labels satisfy
 * all constraints (the public checker, loads included), the final continuous objective
 * equals the SSE of those labels, and it is lower than the start's. Same input => same
 * iterates.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "admm_iterate.h"
#include "centers.h"

#include <stdint.h>

static uint64_t st = 5;
static double unif(void) { return ck_unif(&st); }

static double sse_of(const double *X, size_t n, size_t d, size_t k, const int32_t *lab)
{
    double f = 0.0, c[8 * 4], cnt[8];
    memset(c, 0, sizeof c);
    memset(cnt, 0, sizeof cnt);
    for (size_t i = 0; i < n; i++) {
        cnt[lab[i]] += 1;
        for (size_t q = 0; q < d; q++)
            c[(size_t)lab[i] * d + q] += X[i * d + q];
    }
    for (size_t j = 0; j < k; j++)
        for (size_t q = 0; q < d; q++)
            c[j * d + q] /= cnt[j] > 0 ? cnt[j] : 1;
    for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < d; q++) {
            double t = X[i * d + q] - c[(size_t)lab[i] * d + q];
            f += t * t;
        }
    return f;
}

/* The poor feasible start of the header on r's groups: contiguous blocks, cannot-links
 * mended by a shift. */
static void poor_start(const ckm_reduced *r, size_t k, int32_t *start)
{
    for (size_t t = 0; t < r->s; t++)
        start[t] = (int32_t)(t * k / r->s);
    for (size_t e = 0; e < r->n_cl; e++)
        if (start[r->cl[2 * e]] == start[r->cl[2 * e + 1]])
            start[r->cl[2 * e + 1]] = (start[r->cl[2 * e + 1]] + 1) % (int32_t)k;
}

static void run_case(int inst, bool caps)
{
    size_t n = 24 + (size_t)inst % 3 * 6, k = 2 + (size_t)inst % 3, d = 2;
    double X[36 * 2];
    for (size_t i = 0; i < n; i++) {
        size_t g = i % k;
        X[i * d] = 6.0 * (double)g + unif();
        X[i * d + 1] = 3.0 * (double)(g % 2) + unif();
    }
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    /* must-links inside true groups, cannot-links across; sizes around n/k */
    for (size_t q = 0; q < 3; q++) {
        CHECK(ckm_problem_add_pair(p, q, q + k, CKM_MUST_LINK, &err) == CKM_OK);
        CHECK(ckm_problem_add_pair(p, q + 2 * k, q + 2 * k + 1, CKM_CANNOT_LINK, &err) == CKM_OK);
    }
    CHECK(ckm_problem_set_size_range(p, n / k - 4, n / k + 4, &err) == CKM_OK);
    ckm_reduced *r = NULL;
    int infeasible = 0;
    char why[256];
    int32_t start[36], lab[36], lab2[36], full[36];
    if (caps) { /* demands 1-3; capacities: the start's loads widened by 2 (the start stays feasible) */
        double q[36], lo = INFINITY, hi = 0.0, load[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < n; i++)
            q[i] = 1.0 + (double)(i % 3);
        CHECK(ckm_problem_set_demands(p, q, &err) == CKM_OK);
        CHECK(ckm_reduce(p, &r, &infeasible, why, sizeof why, &err) == CKM_OK && r);
        poor_start(r, k, start);
        for (size_t i = 0; i < n; i++)
            load[start[r->comp[i]]] += q[i];
        for (size_t j = 0; j < k; j++) {
            lo = fmin(lo, load[j]);
            hi = fmax(hi, load[j]);
        }
        ckm_reduced_free(r);
        r = NULL;
        CHECK(ckm_problem_set_capacity_range(p, lo - 4.0, hi + 4.0, &err) == CKM_OK);
    }
    CHECK(ckm_reduce(p, &r, &infeasible, why, sizeof why, &err) == CKM_OK && !infeasible);
    if (!r) {
        ckm_problem_free(p);
        return;
    }
    /* a feasible but poor start: contiguous blocks of groups (the true groups alternate) */
    poor_start(r, k, start);
    ckm_settings set;
    ckm_settings_default(&set);
    ckm_context ctx = {.s = &set, .start = ckm_now(), .deadline = INFINITY, .max_iter = 100};
    ckm_admm_params par = {1000, 1e-4, 20.0, 1.1, 5, 1000.0};
    ckm_admm_ws *w = NULL;
    CHECK(ckm_admm_ws_init(&w, r, &err) == CKM_OK);
    double f[1000], res[1000];
    ckm_admm_info info, info2;
    CHECK(ckm_admm_iterate(w, &ctx, &par, start, lab, &info, f, res, &err) == CKM_OK);
    CHECK(info.converged && !info.stopped && info.iterations >= 10);
    CHECK(info.binary_gap <= 1e-4);
    CHECK(info.residual <= 1e-4 && res[info.iterations - 1] <= 1e-4);
    /* the rounded labels, expanded to points, satisfy everything (the public checker) */
    for (size_t i = 0; i < n; i++)
        full[i] = lab[r->comp[i]];
    ckm_check_report *rep = NULL;
    CHECK(ckm_check(p, full, &rep, &err) == CKM_OK && rep && rep->count == 0);
    ckm_check_report_free(rep);
    /* the continuous objective at the end is the SSE of the labels, and beats the start */
    double sse = sse_of(X, n, d, k, full);
    for (size_t i = 0; i < n; i++)
        full[i] = start[r->comp[i]];
    double sse0 = sse_of(X, n, d, k, full);
    CHECK(fabs(info.objective - sse) <= 1e-3 * (1.0 + sse));
    CHECK(sse < sse0);
    /* deterministic */
    CHECK(ckm_admm_iterate(w, &ctx, &par, start, lab2, &info2, NULL, NULL, &err) == CKM_OK);
    CHECK(info2.iterations == info.iterations && memcmp(lab, lab2, r->s * sizeof(int32_t)) == 0);
    printf("case %d%s: n %zu k %zu groups %zu: %d iterations, objective %.6f (start %.6f), rho %.1f, binary gap %.2g\n",
           inst, caps ? " (capacities)" : "", n, k, r->s, info.iterations, info.objective, sse0, info.rho, info.binary_gap);
    ckm_admm_ws_free(w);
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

int main(void)
{
    for (int inst = 0; inst < 6; inst++) {
        run_case(inst, false);
        run_case(inst, true);
    }
    return ck_report();
}
