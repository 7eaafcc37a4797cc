/*
 * test_sizeflow.c -- size-constrained k-means and the size-bounded "predict" through the
 * public API: brute-force oracle on tiny instances, the published iris optimum with sizes
 * 50/50/50 (81.2778, CC-SOS-SDP README), balanced bounds, must-links routed to the MILP
 * model, infeasible bounds, degenerate inputs, transportation vs CLP agreement.
 */
#include "check.h"
#include "oracle.h"

static uint64_t sm_state;
static double unif(void) { return ck_unif(&sm_state); }

static void test_oracle(void)
{
    int matched = 0, total = 0;
    for (int inst = 0; inst < 40; inst++) {
        sm_state = 900 + (uint64_t)inst;
        size_t n = 6 + (size_t)inst % 4, k = 2 + (size_t)inst % 2, lo[3], hi[3];
        double X[20];
        for (size_t i = 0; i < 2 * n; i++)
            X[i] = 10 * unif();
        for (size_t j = 0; j < k; j++) {
            lo[j] = (size_t)(unif() * 3);
            hi[j] = lo[j] + 2 + (size_t)(unif() * 3);
        }
        size_t sum_lo = 0, sum_hi = 0;
        for (size_t j = 0; j < k; j++) {
            sum_lo += lo[j];
            sum_hi += hi[j];
        }
        if (sum_lo > n || sum_hi < n)
            continue;
        double opt = oracle_best(X, (int)n, 2, (int)k, NULL, 0, lo, hi, NULL);
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, n, 2, k, &p, &err) == CKM_OK);
        CHECK(ckm_problem_set_sizes(p, lo, hi, &err) == CKM_OK);
        ckm_result *r = ck_solve(p, "sizeflow", 20);
        if (r) {
            total++;
            CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0 && r->sse >= opt - 1e-9);
            matched += fabs(r->sse - opt) <= 1e-9 * (1 + opt);
            for (size_t j = 0; j < k; j++)
                CHECK(r->sizes[j] >= lo[j] && r->sizes[j] <= hi[j]);
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    CHECK(total >= 20 && matched >= total - 2);
    printf("sizeflow oracle: %d of %d at the optimum\n", matched, total);
}

static void test_iris(void)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(CKM_SOURCE_DIR "/data/iris.csv", NULL, &ds, &err) == CKM_OK);
    if (!ds)
        return;
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(ds->X, ds->n, ds->d, 3, &p, &err) == CKM_OK);
    ckm_problem_set_balanced(p);
    ckm_result *r = ck_solve(p, "sizeflow", 10);
    if (r) {
        CHECK_NEAR(r->sse, 81.2778, 5e-5); /* published optimum for sizes 50/50/50 */
        CHECK(r->sizes[0] == 50 && r->sizes[1] == 50 && r->sizes[2] == 50);
        /* predict with the result's centers reproduces its labels' cost or better */
        int32_t *lab = malloc(150 * sizeof *lab);
        size_t lo[3] = {50, 50, 50}, hi[3] = {50, 50, 50};
        double obj_t = 0, obj_lp = 0, prices[3];
        ckm_status st;
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, lo, hi, CKM_ASSIGN_TRANSPORT, lab, &obj_t,
                                    prices, &st, &err) == CKM_OK);
        CHECK(st == CKM_STATUS_OPTIMAL && obj_t <= r->sse + 1e-9);
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, lo, hi, CKM_ASSIGN_LP, lab, &obj_lp, NULL,
                                    &st, &err) == CKM_OK);
        CHECK(st == CKM_STATUS_OPTIMAL && fabs(obj_t - obj_lp) <= 1e-9 * obj_t);
        /* without bounds: nearest centers */
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, NULL, NULL, CKM_ASSIGN_AUTO, lab, &obj_t, NULL,
                                    &st, &err) == CKM_OK);
        CHECK(st == CKM_STATUS_OPTIMAL && obj_t <= r->sse);
        /* infeasible bounds and bad input */
        size_t big[3] = {60, 60, 60};
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, big, big, CKM_ASSIGN_AUTO, lab, &obj_t, NULL, &st,
                                    &err) == CKM_OK && st == CKM_STATUS_INFEASIBLE);
        size_t bad_lo[3] = {5, 5, 5}, bad_hi[3] = {100, 4, 100};
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, bad_lo, bad_hi, CKM_ASSIGN_AUTO, lab, &obj_t, NULL,
                                    &st, &err) == CKM_ERR_INVALID);
        CHECK(ckm_assign_to_centers(ds->X, 150, 4, r->centers, 3, lo, NULL, CKM_ASSIGN_AUTO, lab, &obj_t, NULL, &st,
                                    &err) == CKM_ERR_INVALID);
        /* ckm_predict, the one entry: the same optimum by the transportation solver, its prices the
           certificate (every point's reduced cost c_ij - u_i - p_j >= 0 at its own u_i) */
        ckm_prediction *pr = NULL;
        CHECK(ckm_predict(p, r->centers, NULL, &pr, &err) == CKM_OK && pr);
        if (pr) {
            CHECK(pr->status == CKM_STATUS_OPTIMAL && strcmp(pr->route, "transport") == 0 && pr->prices);
            CHECK(fabs(pr->objective - obj_lp) <= 1e-9 * obj_lp && pr->lower_bound == pr->objective);
            for (size_t i = 0; pr->prices && i < 150; i++) {
                double u = 0.0, best = INFINITY;
                for (size_t j = 0; j < 3; j++) {
                    double c = 0.0;
                    for (size_t q = 0; q < 4; q++)
                        c += pow(ds->X[i * 4 + q] - r->centers[j * 4 + q], 2);
                    if ((int32_t)j == pr->labels[i])
                        u = c - pr->prices[j];
                    best = fmin(best, c - pr->prices[j]);
                }
                CHECK(u <= best + 1e-9 * (1.0 + fabs(u)));
            }
        }
        ckm_prediction_free(pr);
        /* fewer points than centers: 2 new points, 3 centers, minimum sizes 0 (predict of a
           fitted model), each to its nearest center; a clustering of them is refused */
        ckm_problem *few = NULL;
        CHECK(ckm_problem_create(ds->X, 2, 4, 3, &few, &err) == CKM_OK && few);
        CHECK(few && ckm_problem_set_size_range(few, 0, 2, &err) == CKM_OK);
        CHECK(ckm_predict(few, r->centers, NULL, &pr, &err) == CKM_OK && pr && pr->has_labels);
        CHECK(pr && pr->status == CKM_STATUS_OPTIMAL && pr->labels[0] == r->labels[0] && pr->labels[1] == r->labels[1]);
        ckm_prediction_free(pr);
        ckm_result *none = NULL;
        CHECK(ckm_solve(few, NULL, &none, &err) == CKM_ERR_INVALID && none == NULL);
        ckm_problem_free(few);
        free(lab);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
}

/* The center-shift tolerance (k-means' rule): a huge tol stops every restart after its
 * first step; tol = 0 leaves only "no label changes", so it runs at least as many steps as
 * the default 1e-4, and its labels are a fixed point: one more step from its centers
 * reproduces its SSE. */
static void test_tol(void)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_dataset_read(CKM_SOURCE_DIR "/data/wine.csv", NULL, &ds, &err) == CKM_OK);
    if (!ds)
        return;
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(ds->X, ds->n, ds->d, 3, &p, &err) == CKM_OK);
    ckm_problem_set_balanced(p);
    int iters[3] = {0, 0, 0};
    double tols[3] = {1e9, 1e-4, 0.0};
    ckm_result *r0 = NULL;
    for (int q = 0; q < 3; q++) {
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "sizeflow");
        s.n_init = 1;
        s.tol = tols[q];
        ckm_result *r = NULL;
        CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
        if (!r)
            continue;
        iters[q] = r->iterations;
        if (q == 2)
            r0 = r;
        else
            ckm_result_free(r);
    }
    CHECK(iters[0] == 1);
    CHECK(iters[2] >= iters[1] && iters[2] > 1);
    if (r0) {
        size_t n = ds->n, lo[3], hi[3];
        for (int j = 0; j < 3; j++) {
            lo[j] = n / 3;
            hi[j] = (n + 2) / 3;
        }
        int32_t *lab = malloc(n * sizeof *lab);
        double obj = 0;
        ckm_status st;
        CHECK(lab && ckm_assign_to_centers(ds->X, n, ds->d, r0->centers, 3, lo, hi, CKM_ASSIGN_TRANSPORT, lab, &obj, NULL,
                                           &st, &err) == CKM_OK);
        CHECK_NEAR(obj, r0->sse, 1e-9 * r0->sse);
        free(lab);
    }
    ckm_result_free(r0);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
}

static void test_special(void)
{
    ckm_err err = {CKM_OK, ""};
    /* balanced bounds for n = 10, k = 3: sizes 3..4 */
    double X[20];
    sm_state = 5;
    for (int i = 0; i < 20; i++)
        X[i] = unif();
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 10, 2, 3, &p, &err) == CKM_OK);
    ckm_problem_set_balanced(p);
    size_t lo, hi;
    CHECK(ckm_problem_size_bounds(p, 2, &lo, &hi, NULL) == CKM_OK);
    CHECK(lo == 3 && hi == 4);
    ckm_result *r = ck_solve(p, "sizeflow", 3);
    CHECK(r && r->violations == 0 && r->sizes[0] + r->sizes[1] + r->sizes[2] == 10);
    ckm_result_free(r);
    /* must-links: routed to the LP/MILP model and said so */
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 2, 3, CKM_MUST_LINK, &err) == CKM_OK);
    r = ck_solve(p, "sizeflow", 3);
    if (r) {
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->violations == 0);
        CHECK(strstr(r->message, "must-links present") != NULL);
    }
    ckm_result_free(r);
    /* cannot-links are not honoured: refused */
    CHECK(ckm_problem_add_pair(p, 4, 5, CKM_CANNOT_LINK, &err) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "sizeflow");
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_UNSUPPORTED);
    ckm_problem_free(p);
    /* identical points with exact sizes; k = 1; k = n */
    double same[12] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(ckm_problem_create(same, 6, 2, 2, &p, &err) == CKM_OK);
    size_t ex_lo[2] = {2, 4};
    CHECK(ckm_problem_set_sizes(p, ex_lo, ex_lo, &err) == CKM_OK);
    r = ck_solve(p, "sizeflow", 2);
    CHECK(r && r->sse == 0.0 && r->sizes[0] == 2 && r->sizes[1] == 4);
    ckm_result_free(r);
    ckm_problem_free(p);
    CHECK(ckm_problem_create(X, 10, 2, 1, &p, &err) == CKM_OK);
    r = ck_solve(p, "sizeflow", 1);
    CHECK(r && r->sizes[0] == 10);
    ckm_result_free(r);
    ckm_problem_free(p);
    CHECK(ckm_problem_create(X, 10, 2, 10, &p, &err) == CKM_OK);
    ckm_problem_set_balanced(p);
    r = ck_solve(p, "sizeflow", 1);
    CHECK(r && r->sse == 0.0);
    ckm_result_free(r);
    ckm_problem_free(p);
}

int main(void)
{
    test_oracle();
    test_iris();
    test_tol();
    test_special();
    return ck_report();
}
