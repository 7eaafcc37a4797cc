/*
 * test_weights.c -- sample weights against independent truth.
 *   Weighted SSE = sum_i w_i ||x_i - c_l(i)||^2 with weighted means; an integer weight w_i is
 *   the same as w_i copies of row i. Checked on tiny instances (n = 7, k = 2..3, with and
 *   without must-link / cannot-link pairs) against:
 *   - brute force over all k^n labellings of the weighted problem (the test's own SSE code),
 *   - the exact algorithm on the problem with every row repeated w_i times (copies joined by
 *     must-links, so both problems have the same labellings),
 *   and every algorithm's result must honour the constraints, report the weighted SSE of its
 *   labels, and never go below the brute-force optimum.
 *   Size bounds count points, not weight (checked with one bound that only counts allow).
 */
#include "check.h"

#define N 7
#define D 2

static const char *ALGOS[] = {"kmeans", "blpkm", "cop", "bckm", "admm", "ipc", "exact", "sizeflow"};

static int takes_pairs(const char *a) { return strcmp(a, "kmeans") != 0 && strcmp(a, "sizeflow") != 0; }

/* the test's own weighted SSE of a labelling (independent of the library) */
static double wsse(const double *X, const double *w, const int32_t *lab, size_t n, size_t k)
{
    double c[8][D] = {{0}}, m[8] = {0}, f = 0.0;
    for (size_t i = 0; i < n; i++) {
        m[lab[i]] += w[i];
        for (int q = 0; q < D; q++)
            c[lab[i]][q] += w[i] * X[i * D + q];
    }
    for (size_t j = 0; j < k; j++)
        for (int q = 0; q < D; q++)
            c[j][q] = m[j] > 0 ? c[j][q] / m[j] : 0.0;
    for (size_t i = 0; i < n; i++)
        for (int q = 0; q < D; q++) {
            double t = X[i * D + q] - c[lab[i]][q];
            f += w[i] * t * t;
        }
    return f;
}

typedef struct pairs {
    size_t count, i[4], j[4];
    ckm_link type[4];
} pairs;

/* brute force: the smallest weighted SSE over labellings with every cluster non-empty that
 * satisfy the pairs and, when lo > 0, lo <= |C_j| (points) */
static double brute(const double *X, const double *w, size_t k, const pairs *pr, size_t lo)
{
    int32_t lab[N];
    double best = INFINITY;
    size_t total = 1;
    for (size_t q = 0; q < N; q++)
        total *= k;
    for (size_t code = 0; code < total; code++) {
        size_t c = code, cnt[8] = {0};
        for (size_t i = 0; i < N; i++) {
            lab[i] = (int32_t)(c % k);
            c /= k;
            cnt[lab[i]]++;
        }
        int ok = 1;
        for (size_t j = 0; j < k; j++)
            ok &= cnt[j] >= (lo > 0 ? lo : 1);
        for (size_t e = 0; e < pr->count; e++)
            ok &= (lab[pr->i[e]] == lab[pr->j[e]]) == (pr->type[e] == CKM_MUST_LINK);
        if (ok) {
            double f = wsse(X, w, lab, N, k);
            if (f < best)
                best = f;
        }
    }
    return best;
}

static ckm_problem *make(const double *X, const double *w, size_t n, size_t k, const pairs *pr)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, D, k, &p, &err) == CKM_OK);
    if (w)
        CHECK(ckm_problem_set_weights(p, w, &err) == CKM_OK);
    for (size_t e = 0; pr && e < pr->count; e++)
        CHECK(ckm_problem_add_pair(p, pr->i[e], pr->j[e], pr->type[e], &err) == CKM_OK);
    return p;
}

/* the same problem with row i repeated w_i times, copies joined by must-links */
static ckm_problem *repeated(const double *X, const double *w, size_t k, const pairs *pr)
{
    double R[64 * D];
    size_t first[N], m = 0;
    for (size_t i = 0; i < N; i++) {
        first[i] = m;
        for (int c = 0; c < (int)w[i]; c++, m++)
            memcpy(R + m * D, X + i * D, D * sizeof(double));
    }
    ckm_problem *p = make(R, NULL, m, k, NULL);
    ckm_err err = {CKM_OK, ""};
    for (size_t i = 0; i < N; i++)
        for (int c = 1; c < (int)w[i]; c++)
            CHECK(ckm_problem_add_pair(p, first[i], first[i] + (size_t)c, CKM_MUST_LINK, &err) == CKM_OK);
    for (size_t e = 0; e < pr->count; e++)
        CHECK(ckm_problem_add_pair(p, first[pr->i[e]], first[pr->j[e]], pr->type[e], &err) == CKM_OK);
    return p;
}

int main(void)
{
    uint64_t rng = 11;
    int instances = 0;
    for (int inst = 0; inst < 12; inst++) {
        double X[N * D], w[N];
        for (size_t q = 0; q < N * D; q++)
            X[q] = 10.0 * ck_unif(&rng);
        for (size_t i = 0; i < N; i++)
            w[i] = (double)(1 + (int)(4.0 * ck_unif(&rng))); /* 1..4 */
        size_t k = 2 + (size_t)(inst % 2);
        pairs pr = {0, {0}, {0}, {0}};
        if (inst % 3 == 1) {
            pr = (pairs){2, {0, 2}, {1, 3}, {CKM_MUST_LINK, CKM_CANNOT_LINK}};
        } else if (inst % 3 == 2) {
            pr = (pairs){3, {0, 1, 4}, {5, 6, 5}, {CKM_CANNOT_LINK, CKM_CANNOT_LINK, CKM_MUST_LINK}};
        }
        double opt = brute(X, w, k, &pr, 0);
        if (!isfinite(opt))
            continue;
        instances++;
        ckm_problem *p = make(X, w, N, k, &pr), *rp = repeated(X, w, k, &pr);
        ckm_result *r = ck_solve(p, "exact", 1), *rr = ck_solve(rp, "exact", 1);
        /* the weighted optimum = brute force = the optimum with repeated rows */
        CHECK(r && r->status == CKM_STATUS_OPTIMAL && r->weighted == 1);
        CHECK(rr && rr->status == CKM_STATUS_OPTIMAL && rr->weighted == 0);
        if (r && rr && r->has_labels && rr->has_labels) {
            CHECK_NEAR(r->sse, opt, 1e-9 * (1.0 + opt));
            CHECK_NEAR(rr->sse, opt, 1e-9 * (1.0 + opt));
            CHECK_NEAR(wsse(X, w, r->labels, N, k), r->sse, 1e-9 * (1.0 + opt));
            CHECK(r->lower_bound <= opt * (1.0 + 1e-9) + 1e-9);
        }
        ckm_result_free(r);
        ckm_result_free(rr);
        /* every algorithm: feasible, reports the weighted SSE of its labels, >= the optimum */
        for (size_t a = 0; a < sizeof ALGOS / sizeof *ALGOS; a++) {
            if (pr.count > 0 && !takes_pairs(ALGOS[a]))
                continue;
            ckm_result *ra = ck_solve(p, ALGOS[a], 3);
            CHECK(ra && ra->has_labels && ra->violations == 0);
            if (!ra || !ra->has_labels) {
                fprintf(stderr, "  %s on instance %d: %s\n", ALGOS[a], inst, ra ? ra->message : "no result");
            } else {
                CHECK_NEAR(wsse(X, w, ra->labels, N, k), ra->sse, 1e-9 * (1.0 + opt));
                CHECK(ra->sse >= opt * (1.0 - 1e-9) - 1e-9);
                /* the weighted centers: sum w_i x_i / sum w_i per cluster */
                for (size_t j = 0; j < k; j++) {
                    double m = 0.0, c0 = 0.0;
                    for (size_t i = 0; i < N; i++)
                        if ((size_t)ra->labels[i] == j) {
                            m += w[i];
                            c0 += w[i] * X[i * D];
                        }
                    if (m > 0)
                        CHECK_NEAR(ra->centers[j * D], c0 / m, 1e-9 * (1.0 + fabs(c0 / m)));
                }
            }
            ckm_result_free(ra);
        }
        ckm_problem_free(p);
        ckm_problem_free(rp);
    }
    CHECK(instances >= 10);

    /* size bounds count points, not weight: 7 points with weights 1..7, k = 2, sizes >= 3 */
    {
        double X[N * D], w[N];
        for (size_t i = 0; i < N; i++) {
            X[i * D] = (double)i;
            X[i * D + 1] = 0.0;
            w[i] = (double)(i + 1);
        }
        pairs none = {0, {0}, {0}, {0}};
        double opt = brute(X, w, 2, &none, 3);
        ckm_problem *p = make(X, w, N, 2, NULL);
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_set_size_range(p, 3, 4, &err) == CKM_OK);
        const char *sized[] = {"exact", "blpkm", "sizeflow", "bckm", "admm", "ipc"};
        for (size_t a = 0; a < sizeof sized / sizeof *sized; a++) {
            ckm_result *r = ck_solve(p, sized[a], 3);
            CHECK(r && r->has_labels && r->violations == 0);
            if (r && r->has_labels) {
                CHECK((r->sizes[0] == 3 || r->sizes[0] == 4) && r->sizes[0] + r->sizes[1] == N);
                CHECK(r->sse >= opt * (1.0 - 1e-9) - 1e-9);
                if (strcmp(sized[a], "exact") == 0)
                    CHECK_NEAR(r->sse, opt, 1e-9 * (1.0 + opt));
            }
            ckm_result_free(r);
        }
        ckm_problem_free(p);
    }
    return ck_report();
}
