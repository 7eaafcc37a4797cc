/*
 * test_capacity.c -- capacity bounds on the clusters' total demand (docs/capacities.md)
 * against independent truth:
 *   - the API's validation (bad demands and bounds named, defaults, clearing);
 *   - the checker on hand-computed loads (a violation names the cluster and its load; the
 *     tolerance is 1e-9 of the total demand);
 *   - preprocessing's proofs, each with its reason: total demand below the sum of minimum
 *     capacities or above the sum of maximums, one point or must-link group above every
 *     maximum;
 *   - algorithms without capacity rows refuse the problem, naming blpkm, bckm, admm, ipc, exact;
 *   - brute force over every labelling of tiny instances (n = 7, k = 2-3, demands integer
 *     or real, and a second run where three of the seven demands are 0, capacities around
 *     the mean load or equal to it, with and without pairs and size bounds):
 *     blpkm, bckm, admm, ipc and exact report "infeasible" exactly when no labelling meets
 *     every constraint; ipc's lower bound (with the SDP's capacity rows) never exceeds the
 *     optimum, and exact proves it (status optimal, SSE within its 1e-4 gap);
 *     and otherwise return a labelling the test's own check accepts (loads, pairs, sizes),
 *     its SSE (blpkm's recomputed) never below the brute-force optimum;
 *   - unit demands with capacities equal to size bounds give blpkm the same labels and SSE
 *     from the same seed as the size bounds themselves;
 *   - ckm_predict (fixed centers under pairs, sizes and capacities, some demands 0) against
 *     the brute-force minimum of sum_i ||x_i - c_l(i)||^2 over every feasible labelling, and
 *     "infeasible" exactly when there is none.
 */
#include "check.h"

#include <stdbool.h>

#define N 7
#define D 2

static ckm_err E;

static void api(void)
{
    double X[4 * D] = {0, 0, 1, 0, 5, 5, 6, 5};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 4, D, 2, &p, &E) == CKM_OK);
    double lo, hi;
    CHECK(ckm_problem_has_capacities(p) == 0 && ckm_problem_demands(p) == NULL);
    CHECK(ckm_problem_capacity_bounds(p, 1, &lo, &hi, &E) == CKM_OK && lo == 0.0 && isinf(hi));
    CHECK(ckm_problem_capacity_bounds(p, 2, &lo, &hi, &E) == CKM_ERR_INVALID);
    double bad[3][4] = {{1, -1, 1, 1}, {1, 1, NAN, 1}, {INFINITY, 1, 1, 1}};
    const char *name[3] = {"demand 1 is -1: demands must be finite and >= 0", "demand 2 is nan", "demand 0 is inf"};
    for (int c = 0; c < 3; c++) {
        CHECK(ckm_problem_set_demands(p, bad[c], &E) == CKM_ERR_INVALID);
        CHECK_MSG(E, name[c]);
    }
    double zeros[4] = {1, 2, 0, 0}; /* a point that loads no cluster is legitimate */
    CHECK(ckm_problem_set_demands(p, zeros, &E) == CKM_OK && ckm_problem_demands(p)[2] == 0.0);
    CHECK(ckm_problem_set_capacity_range(p, -1.0, 3.0, &E) == CKM_ERR_INVALID);
    CHECK_MSG(E, "minimum -1 is not a finite value >= 0");
    CHECK(ckm_problem_set_capacity_range(p, 4.0, 3.0, &E) == CKM_ERR_INVALID);
    CHECK_MSG(E, "maximum 3 is below the minimum 4");
    CHECK(ckm_problem_set_capacity_range(p, 1.0, NAN, &E) == CKM_ERR_INVALID);
    CHECK(ckm_problem_set_capacity_range(p, INFINITY, INFINITY, &E) == CKM_ERR_INVALID);
    double clo[2] = {0.0, 2.0}, chi[2] = {INFINITY, 1.0};
    CHECK(ckm_problem_set_capacities(p, clo, chi, &E) == CKM_ERR_INVALID);
    CHECK_MSG(E, "cluster 1");
    CHECK(ckm_problem_has_capacities(p) == 0); /* nothing set by a refused call */
    chi[1] = 9.5;
    CHECK(ckm_problem_set_capacities(p, clo, chi, &E) == CKM_OK && ckm_problem_has_capacities(p) == 1);
    CHECK(ckm_problem_capacity_bounds(p, 1, &lo, &hi, &E) == CKM_OK && lo == 2.0 && hi == 9.5);
    ckm_problem_clear_capacities(p);
    CHECK(ckm_problem_has_capacities(p) == 0);
    double q[4] = {1, 2, 3, 4};
    CHECK(ckm_problem_set_demands(p, q, &E) == CKM_OK && ckm_problem_demands(p)[3] == 4.0);
    CHECK(ckm_problem_set_demands(p, NULL, &E) == CKM_OK && ckm_problem_demands(p) == NULL);
    ckm_problem_free(p);
}

/* loads by hand: demands 1, 2, 3, 4; labels 0 0 1 1 give loads 3 and 7 */
static void checker(void)
{
    double X[4 * D] = {0, 0, 1, 0, 5, 5, 6, 5}, q[4] = {1, 2, 3, 4};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 4, D, 2, &p, &E) == CKM_OK);
    CHECK(ckm_problem_set_demands(p, q, &E) == CKM_OK);
    int32_t lab[4] = {0, 0, 1, 1};
    ckm_check_report *r = NULL;
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK && r->count == 0 && r->capacity_violated == 0);
    CHECK(r && r->loads && r->loads[0] == 3.0 && r->loads[1] == 7.0); /* reported without bounds too */
    ckm_check_report_free(r);
    CHECK(ckm_problem_set_capacity_range(p, 0.0, 5.0, &E) == CKM_OK);
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK);
    CHECK(r->capacity_violated == 1 && r->count == 1 && r->violations[0].kind == CKM_VIOLATION_CAPACITY &&
          r->violations[0].index == 1 && r->violations[0].value == 7);
    ckm_check_report_free(r);
    CHECK(ckm_problem_set_capacity_range(p, 3.0, 7.0, &E) == CKM_OK); /* both loads on a bound */
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK && r->count == 0);
    ckm_check_report_free(r);
    /* tolerance 1e-9 x total demand (10): 7 + 5e-9 passes, 7 + 2e-8 does not */
    CHECK(ckm_problem_set_capacity_range(p, 0.0, 7.0 - 5e-9, &E) == CKM_OK);
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK && r->count == 0);
    ckm_check_report_free(r);
    CHECK(ckm_problem_set_capacity_range(p, 0.0, 7.0 - 2e-8, &E) == CKM_OK);
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK && r->capacity_violated == 1);
    ckm_check_report_free(r);
    /* minimum: cluster 0's load 3 below 4 */
    CHECK(ckm_problem_set_capacity_range(p, 4.0, 100.0, &E) == CKM_OK);
    CHECK(ckm_check(p, lab, &r, &E) == CKM_OK && r->capacity_violated == 1 && r->violations[0].index == 0);
    ckm_check_report_free(r);
    ckm_problem_free(p);
}

static ckm_result *solve(const ckm_problem *p, const char *algo, int n_init, uint64_t seed, ckm_error *rc)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
    s.n_init = n_init;
    s.seed = seed;
    s.init = CKM_INIT_KMEANSPP;
    s.step_limit_s = 0.0; /* every step proven: the results do not depend on the machine's load */
    ckm_result *r = NULL;
    *rc = ckm_solve(p, &s, &r, &E);
    return r;
}

static void infeasible_case(const double *q, size_t n, size_t k, double lo, double hi, size_t ml_i, size_t ml_j,
                            const char *why)
{
    double X[8 * D];
    for (size_t t = 0; t < n * D; t++)
        X[t] = (double)(t * 7 % 11);
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, n, D, k, &p, &E) == CKM_OK);
    CHECK(ckm_problem_set_demands(p, q, &E) == CKM_OK);
    CHECK(ckm_problem_set_capacity_range(p, lo, hi, &E) == CKM_OK);
    if (ml_i != ml_j)
        CHECK(ckm_problem_add_pair(p, ml_i, ml_j, CKM_MUST_LINK, &E) == CKM_OK);
    ckm_error rc;
    ckm_result *r = solve(p, "blpkm", 1, 0, &rc);
    CHECK(rc == CKM_OK && r && r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
    if (r) {
        if (!strstr(r->message, why))
            fprintf(stderr, "reason '%s' lacks '%s'\n", r->message, why);
        CHECK(strstr(r->message, why) != NULL);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
}

static void proofs(void)
{
    double q[6] = {1, 2, 3, 4, 5, 6}; /* total 21 */
    infeasible_case(q, 6, 3, 7.5, 100.0, 0, 0, "total demand 21 is below the sum of minimum capacities 22.5");
    infeasible_case(q, 6, 3, 0.0, 6.9, 0, 0, "total demand 21 is above the sum of maximum capacities 20.7");
    double big[6] = {1, 1, 1, 1, 1, 9};
    infeasible_case(big, 6, 3, 0.0, 8.0, 0, 0, "point 5 has demand 9, above every maximum capacity");
    infeasible_case(q, 6, 3, 0.0, 10.0, 4, 5, "must-link component of point 4 (2 points) has demand 11");
}

static void refusals(void)
{
    double X[6 * D] = {0, 0, 1, 0, 5, 5, 6, 5, 9, 9, 9, 8};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 6, D, 2, &p, &E) == CKM_OK);
    CHECK(ckm_problem_set_capacity_range(p, 0.0, 4.0, &E) == CKM_OK);
    const char *others[] = {"kmeans", "sizeflow", "cop"};
    for (size_t a = 0; a < sizeof others / sizeof others[0]; a++) {
        ckm_error rc;
        ckm_result *r = solve(p, others[a], 1, 0, &rc);
        CHECK(rc == CKM_ERR_UNSUPPORTED && r == NULL);
        CHECK_MSG(E, "does not honour capacity bounds");
        CHECK_MSG(E, "algorithms that do: blpkm, bckm, admm, ipc, exact");
    }
    ckm_problem_free(p);
}

/* ---- brute force on tiny instances ---- */

typedef struct inst {
    double X[N * D], q[N], clo[3], chi[3];
    size_t k, lo, hi, npairs, pi[3], pj[3];
    ckm_link pt[3];
} inst;

static double sse_of(const inst *in, const int32_t *lab)
{
    double c[3][D] = {{0}}, m[3] = {0}, f = 0.0;
    for (size_t i = 0; i < N; i++) {
        m[lab[i]] += 1.0;
        for (int d = 0; d < D; d++)
            c[lab[i]][d] += in->X[i * D + d];
    }
    for (size_t i = 0; i < N; i++)
        for (int d = 0; d < D; d++) {
            double t = in->X[i * D + d] - c[lab[i]][d] / m[lab[i]];
            f += t * t;
        }
    return f;
}

/* the test's own feasibility check: every cluster non-empty and within the size bounds, the
 * pairs, and every load within [clo_j - tol, chi_j + tol], tol = 1e-9 x total demand */
static bool feasible(const inst *in, const int32_t *lab)
{
    double load[3] = {0}, total = 0.0;
    size_t cnt[3] = {0};
    for (size_t i = 0; i < N; i++) {
        if (lab[i] < 0 || (size_t)lab[i] >= in->k)
            return false;
        load[lab[i]] += in->q[i];
        total += in->q[i];
        cnt[lab[i]]++;
    }
    for (size_t j = 0; j < in->k; j++)
        if (cnt[j] < (in->lo ? in->lo : 1) || cnt[j] > in->hi || load[j] < in->clo[j] - 1e-9 * total ||
            load[j] > in->chi[j] + 1e-9 * total)
            return false;
    for (size_t e = 0; e < in->npairs; e++)
        if ((lab[in->pi[e]] == lab[in->pj[e]]) != (in->pt[e] == CKM_MUST_LINK))
            return false;
    return true;
}

/* the least value(in, lab, C) over every feasible labelling lab of in (brute force), or
 * INFINITY when there is none */
static double least_feasible(const inst *in, double (*value)(const inst *, const int32_t *, const double *),
                             const double *C)
{
    int32_t lab[N];
    double best = INFINITY;
    size_t total = 1;
    for (size_t i = 0; i < N; i++)
        total *= in->k;
    for (size_t code = 0; code < total; code++) {
        size_t c = code;
        for (size_t i = 0; i < N; i++, c /= in->k)
            lab[i] = (int32_t)(c % in->k);
        if (feasible(in, lab))
            best = fmin(best, value(in, lab, C));
    }
    return best;
}

static double sse_value(const inst *in, const int32_t *lab, const double *C)
{
    (void)C;
    return sse_of(in, lab);
}

/* the optimum SSE (brute force) */
static double brute(const inst *in) { return least_feasible(in, sse_value, NULL); }

static ckm_problem *build(const inst *in, int unit_as_sizes)
{
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(in->X, N, D, in->k, &p, &E) == CKM_OK);
    if (!unit_as_sizes) {
        CHECK(ckm_problem_set_demands(p, in->q, &E) == CKM_OK);
        CHECK(ckm_problem_set_capacities(p, in->clo, in->chi, &E) == CKM_OK);
    }
    if (in->lo > 0 || in->hi < N)
        CHECK(ckm_problem_set_size_range(p, in->lo, in->hi, &E) == CKM_OK);
    for (size_t e = 0; e < in->npairs; e++)
        CHECK(ckm_problem_add_pair(p, in->pi[e], in->pj[e], in->pt[e], &E) == CKM_OK);
    return p;
}

/* A tiny instance of the brute-force runs: n = 7 points, k = 2-3, integer or real demands (with
 * zeros: three of the seven are 0, points that load no cluster), capacities around the mean
 * load (or exactly at it), pairs and size bounds on some. */
static void make_inst(inst *in, int it, bool zeros, uint64_t *st)
{
    memset(in, 0, sizeof *in);
    in->k = 2 + (size_t)(it % 2);
    in->hi = N;
    for (size_t t = 0; t < N * D; t++)
        in->X[t] = 10.0 * ck_unif(st);
    double total = 0.0;
    for (size_t i = 0; i < N; i++) {
        in->q[i] = it % 3 == 0 ? 0.5 + 4.0 * ck_unif(st) : (double)(1 + (int)(5.0 * ck_unif(st)));
        if (zeros && (i + (size_t)it) % 7 < 3)
            in->q[i] = 0.0;
        total += in->q[i];
    }
    double mean = total / (double)in->k, slack = 0.05 + 0.45 * ck_unif(st);
    for (size_t j = 0; j < in->k; j++) {
        in->clo[j] = it % 4 == 1 ? 0.0 : floor(mean * (1.0 - slack));
        in->chi[j] = it % 5 == 2 ? INFINITY : ceil(mean * (1.0 + slack));
        if (it % 7 == 3) /* every load the mean: often no labelling, and no quick proof */
            in->clo[j] = in->chi[j] = mean;
    }
    if (it % 3 == 1) { /* pairs */
        in->npairs = 2;
        in->pi[0] = 0, in->pj[0] = 1, in->pt[0] = CKM_MUST_LINK;
        in->pi[1] = 2, in->pj[1] = 3, in->pt[1] = CKM_CANNOT_LINK;
    }
    if (it % 6 == 5) { /* size bounds too */
        in->lo = 2;
        in->hi = 5;
    }
}

/* Counts of one brute-force run. */
typedef struct tally {
    int feasible, infeasible, optimal, binding, other[4], ipc_proven, ipc_gain;
} tally;

/* bckm, admm, ipc, exact on instance `it`: a feasible labelling, never below the optimum opt,
 * or the same infeasibility; ipc's certified lower bound never above the optimum, "optimal"
 * only when its labels are; exact proven within its 1e-4 gap (on every other instance: its
 * search costs seconds under the sanitizers). */
static void others_on(const inst *in, const ckm_problem *p, int it, double opt, double loose_opt, tally *tl)
{
    const char *others[] = {"bckm", "admm", "ipc", "exact"};
    for (int alg = 0; alg < 4; alg++) {
        if (alg == 3 && it % 2 == 1)
            continue;
        ckm_error rc;
        ckm_result *b = solve(p, others[alg], alg == 3 ? 1 : 3, (uint64_t)it, &rc);
        CHECK(rc == CKM_OK && b);
        if (b && !isfinite(opt)) {
            CHECK(b->status == CKM_STATUS_INFEASIBLE && !b->has_labels);
        } else if (b) {
            CHECK(b->has_labels && (b->status == CKM_STATUS_FEASIBLE || (alg >= 2 && b->status == CKM_STATUS_OPTIMAL)));
            if (alg == 3) {
                CHECK(b->status == CKM_STATUS_OPTIMAL);
                CHECK(b->sse <= opt * (1.0 + 1e-4) + 1e-9);
                CHECK(b->lower_bound <= opt + 1e-7 * (1.0 + opt));
            }
            if (b->has_labels) {
                CHECK(feasible(in, b->labels));
                CHECK(b->sse >= opt - 1e-9 * (1.0 + opt));
                tl->other[alg] += b->sse <= opt + 1e-9 * (1.0 + opt);
            }
            if (alg == 2) {
                CHECK(isfinite(b->lower_bound) && b->lower_bound <= opt + 1e-7 * (1.0 + opt));
                if (b->status == CKM_STATUS_OPTIMAL)
                    CHECK(b->sse <= opt + 1e-3 * (1.0 + opt));
                tl->ipc_proven += b->status == CKM_STATUS_OPTIMAL;
                tl->ipc_gain += isfinite(b->lower_bound) && b->lower_bound > loose_opt + 1e-6 * (1.0 + opt);
            }
        }
        ckm_result_free(b);
    }
}

/* blpkm on every instance against brute force, then the other algorithms (others_on). */
static tally brute_force(int count, uint64_t seed, bool zeros)
{
    uint64_t st = seed;
    tally tl;
    memset(&tl, 0, sizeof tl);
    for (int it = 0; it < count; it++) {
        inst in;
        make_inst(&in, it, zeros, &st);
        double opt = brute(&in);
        /* does the capacity matter here? the optimum without it */
        inst loose = in;
        for (size_t j = 0; j < in.k; j++) {
            loose.clo[j] = 0.0;
            loose.chi[j] = INFINITY;
        }
        double loose_opt = brute(&loose);
        ckm_problem *p = build(&in, 0);
        ckm_error rc;
        ckm_result *r = solve(p, "blpkm", 5, (uint64_t)it, &rc);
        CHECK(rc == CKM_OK && r);
        if (r && !isfinite(opt)) {
            tl.infeasible++;
            CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
        } else if (r) {
            tl.feasible++;
            CHECK(r->has_labels && r->status == CKM_STATUS_FEASIBLE);
            if (r->has_labels) {
                CHECK(feasible(&in, r->labels));
                CHECK_NEAR(r->sse, sse_of(&in, r->labels), 1e-9 * (1.0 + opt));
                CHECK(r->sse >= opt - 1e-9 * (1.0 + opt));
                tl.optimal += r->sse <= opt + 1e-9 * (1.0 + opt);
            }
            tl.binding += loose_opt < opt - 1e-9 * (1.0 + opt);
        }
        others_on(&in, p, it, opt, loose_opt, &tl);
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    printf("brute force%s: %d feasible (%d where the capacities bind, blpkm optimal on %d, bckm on %d, admm on %d, ipc "
           "on %d, exact on %d, proven by ipc on %d, ipc's bound above the optimum without capacities on %d), %d "
           "infeasible\n",
           zeros ? " with zero demands" : "", tl.feasible, tl.binding, tl.optimal, tl.other[0], tl.other[1],
           tl.other[2], tl.other[3], tl.ipc_proven, tl.ipc_gain, tl.infeasible);
    return tl;
}

/* unit demands, capacities [lo, hi] = size bounds [lo, hi]: the same problem */
static void unit_demands_are_sizes(void)
{
    uint64_t st = 77;
    for (int it = 0; it < 6; it++) {
        inst in;
        memset(&in, 0, sizeof in);
        in.k = 3;
        for (size_t t = 0; t < N * D; t++)
            in.X[t] = 10.0 * ck_unif(&st);
        for (size_t i = 0; i < N; i++)
            in.q[i] = 1.0;
        for (size_t j = 0; j < in.k; j++) {
            in.clo[j] = 2.0;
            in.chi[j] = 3.0;
        }
        in.hi = N;
        ckm_problem *pc = build(&in, 0);
        in.lo = 2;
        in.hi = 3;
        ckm_problem *ps = build(&in, 1);
        ckm_error rc1, rc2;
        ckm_result *a = solve(pc, "blpkm", 3, (uint64_t)it, &rc1), *b = solve(ps, "blpkm", 3, (uint64_t)it, &rc2);
        CHECK(rc1 == CKM_OK && rc2 == CKM_OK && a && b && a->has_labels && b->has_labels);
        if (a && b && a->has_labels && b->has_labels) {
            CHECK_NEAR(a->sse, b->sse, 1e-12 * (1.0 + b->sse));
            CHECK(memcmp(a->labels, b->labels, N * sizeof(int32_t)) == 0);
        }
        ckm_result_free(a);
        ckm_result_free(b);
        ckm_problem_free(pc);
        ckm_problem_free(ps);
    }
}

/* sum_i ||x_i - C_lab(i)||^2 */
static double to_centers(const inst *in, const int32_t *lab, const double *C)
{
    double f = 0.0;
    for (size_t i = 0; i < N; i++)
        for (int d = 0; d < D; d++) {
            double t = in->X[i * D + d] - C[(size_t)lab[i] * D + d];
            f += t * t;
        }
    return f;
}

/* the least sum of squared distances to centers C over the feasible labellings (brute force) */
static double assign_brute(const inst *in, const double *C) { return least_feasible(in, to_centers, C); }

static void assign_to_centers(void)
{
    uint64_t st = 4242;
    int solved = 0, infeasible = 0;
    for (int it = 0; it < 40; it++) {
        inst in;
        memset(&in, 0, sizeof in);
        in.k = 2 + (size_t)(it % 2);
        in.hi = N;
        double C[3 * D], total = 0.0;
        for (size_t t = 0; t < N * D; t++)
            in.X[t] = 10.0 * ck_unif(&st);
        for (size_t t = 0; t < in.k * D; t++)
            C[t] = 10.0 * ck_unif(&st);
        for (size_t i = 0; i < N; i++) {
            in.q[i] = (double)(1 + (int)(5.0 * ck_unif(&st)));
            total += in.q[i] = it % 4 == 3 && i % 3 == 0 ? 0.0 : in.q[i]; /* some demands 0 */
        }
        for (size_t j = 0; j < in.k; j++) {
            in.clo[j] = it % 5 == 4 ? total / (double)in.k : floor(0.8 * total / (double)in.k);
            in.chi[j] = it % 5 == 4 ? total / (double)in.k : ceil(1.2 * total / (double)in.k);
        }
        if (it % 3 == 1) {
            in.npairs = 2;
            in.pi[0] = 0, in.pj[0] = 1, in.pt[0] = CKM_MUST_LINK;
            in.pi[1] = 2, in.pj[1] = 3, in.pt[1] = CKM_CANNOT_LINK;
        }
        double best = assign_brute(&in, C);
        ckm_problem *p = build(&in, 0);
        ckm_prediction *r = NULL;
        CHECK(ckm_predict(p, C, NULL, &r, &E) == CKM_OK && r);
        if (r && isfinite(best)) {
            solved++;
            CHECK(r->status == CKM_STATUS_OPTIMAL && r->has_labels == 1 && strcmp(r->route, "transport") != 0);
            CHECK(r->has_labels && feasible(&in, r->labels));
            CHECK_NEAR(r->objective, best, 1e-9 * (1.0 + best));
            CHECK(r->lower_bound == r->objective && r->prices == NULL);
        } else if (r) {
            infeasible++;
            CHECK(r->status == CKM_STATUS_INFEASIBLE && r->has_labels == 0 && r->labels == NULL && r->message[0] != '\0');
        }
        ckm_prediction_free(r);
        ckm_problem_free(p);
    }
    printf("assignment to centers: %d optimal, %d infeasible\n", solved, infeasible);
    CHECK(solved >= 20 && infeasible >= 3);
    /* soft pairs and non-finite centers are refused */
    double X[4 * D] = {0, 0, 1, 0, 5, 5, 6, 5}, C[2 * D] = {0, 0, NAN, 5};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 4, D, 2, &p, &E) == CKM_OK);
    ckm_prediction *r = NULL;
    CHECK(ckm_predict(p, C, NULL, &r, &E) == CKM_ERR_INVALID && r == NULL);
    CHECK_MSG(E, "center 1, feature 0 is not finite");
    C[2] = 5.0;
    CHECK(ckm_problem_add_soft_pair(p, 0, 1, CKM_MUST_LINK, 0.5, &E) == CKM_OK);
    CHECK(ckm_predict(p, C, NULL, &r, &E) == CKM_ERR_UNSUPPORTED && r == NULL);
    ckm_problem_free(p);
}

int main(void)
{
    api();
    checker();
    proofs();
    refusals();
    tally all = brute_force(90, 2026, false);
    CHECK(all.feasible >= 30 && all.infeasible >= 5 && all.binding >= 15); /* the cases occur */
    tally zero = brute_force(36, 7, true);
    CHECK(zero.feasible >= 12 && zero.infeasible >= 2 && zero.binding >= 6);
    unit_demands_are_sizes();
    assign_to_centers();
    return ck_report();
}
