/*
 * test_soft.c -- soft (confidence-weighted) pairs through the public API:
 *   - the file format (a fourth field; malformed confidences rejected with line:column),
 *     ckm_constraints_write / read round trip, ckm_problem_add_soft_pair's checks;
 *   - blpkm's objective SSE + P sum c [violated] on tiny instances against brute force
 *     over every labelling: never below the optimum, equal to it on most instances, and
 *     the reported sse / penalty / objective / violation counts equal to the values this
 *     file recomputes from the returned labels;
 *   - confidence-1 soft pairs with a large P give the hard optimum (brute force);
 *   - contradictory (noisy) soft sets never make a run infeasible;
 *   - soft pairs on hard ones (redundant / always violated), opposite soft pairs netting
 *     out (ckm_problem_analyze), the default P = 2 TSS / n (also weighted), P in data
 *     units under rescaling, settings.soft_penalty / step_limit_s checks, algorithms
 *     refusing soft pairs;
 *   - local-search steps past the model size limit (12,000 points, 170,000 soft pairs).
 */
#include "check.h"
#include "oracle.h"

static uint64_t st = 17;
static double unif(void) { return ck_unif(&st); }

static ckm_result *solve_soft(const ckm_problem *p, const char *algo, int n_init, double P, ckm_error *rc_out)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
    s.n_init = n_init;
    s.soft_penalty = P;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = ckm_solve(p, &s, &r, &err);
    if (rc_out)
        *rc_out = rc;
    else
        CHECK(rc == CKM_OK);
    return r;
}

static void test_file_format(void)
{
    ckm_constraints *c = NULL;
    ckm_err err = {CKM_OK, ""};
    const char *good = ck_file("soft.txt", "ML 0 1\nCL 0 2 0.25\n# note\nML 1 3 1\n2 3 -1 0.5\n2 3 1\n0 2 -1\n");
    CHECK(ckm_constraints_read(good, 4, &c, &err) == CKM_OK);
    if (c) {
        CHECK(c->count == 6 && c->confidence);
        if (c->count == 6 && c->confidence) {
            CHECK(c->confidence[0] == 0.0 && c->confidence[1] == 0.25 && c->confidence[2] == 1.0);
            CHECK(c->confidence[3] == 0.5 && c->pairs[3].type == CKM_CANNOT_LINK && c->pairs[3].line == 5);
            CHECK(c->confidence[4] == 0.0 && c->confidence[5] == 0.0); /* hard after soft */
        }
        /* round trip */
        const char *out = ck_file("soft_out.txt", "");
        CHECK(ckm_constraints_write(out, c, &err) == CKM_OK);
        ckm_constraints *c2 = NULL;
        CHECK(ckm_constraints_read(out, 4, &c2, &err) == CKM_OK);
        if (c2) {
            CHECK(c2->count == c->count && c2->confidence);
            for (size_t q = 0; c2->confidence && q < c->count && q < c2->count; q++)
                CHECK(c2->confidence[q] == c->confidence[q] && c2->pairs[q].type == c->pairs[q].type &&
                      c2->pairs[q].i == c->pairs[q].i);
        }
        /* a problem takes them: 3 hard, 3 soft */
        double X[8] = {0, 0, 1, 0, 5, 5, 6, 5};
        ckm_problem *p = NULL;
        CHECK(ckm_problem_create(X, 4, 2, 2, &p, &err) == CKM_OK);
        CHECK(ckm_problem_add_constraints(p, c, &err) == CKM_OK);
        CHECK(ckm_problem_must_link_count(p) == 2 && ckm_problem_cannot_link_count(p) == 1);
        CHECK(ckm_problem_soft_pair_count(p) == 3);
        ckm_pair pr;
        double conf = 0;
        CHECK(ckm_problem_soft_pair(p, 2, &pr, &conf, &err) == CKM_OK && conf == 0.5 && pr.line == 5);
        CHECK(ckm_problem_soft_pair(p, 3, &pr, &conf, &err) == CKM_ERR_INVALID);
        ckm_problem_free(p);
        ckm_constraints_free(c2);
    }
    ckm_constraints_free(c);
    /* malformed confidences: each names file, line and column */
    const char *bad[] = {"ML 0 1 0\n", "ML 0 1 -0.5\n", "CL 0 1 1.0001\n", "CL 0 1 nan\n", "CL 0 1 inf\n",
                         "CL 0 1 high\n", "0 1 -1 0x\n", "ML 0 1 0.5 0.5\n", "ML 0 0 0.5\n", "ML 0 9 0.5\n"};
    const char *needle[] = {":1:8: confidence '0'", ":1:8: confidence '-0.5'", ":1:8: confidence '1.0001'",
                            ":1:8: confidence 'nan'", ":1:8: confidence 'inf'", ":1:8: confidence 'high'",
                            ":1:8: confidence '0x'", "got 5 fields", "with itself", "out of range"};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        ckm_constraints *cb = NULL;
        ckm_err e = {CKM_OK, ""};
        CHECK(ckm_constraints_read(ck_file("bad.txt", bad[b]), 4, &cb, &e) == CKM_ERR_PARSE && !cb);
        CHECK_MSG(e, needle[b]);
    }
    /* the API's checks */
    double X[4] = {0, 1, 2, 3};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 4, 1, 2, &p, &err) == CKM_OK);
    double badc[] = {0.0, -1.0, 1.5, NAN, INFINITY};
    for (size_t b = 0; b < 5; b++) {
        ckm_err e = {CKM_OK, ""};
        CHECK(ckm_problem_add_soft_pair(p, 0, 1, CKM_MUST_LINK, badc[b], &e) == CKM_ERR_INVALID);
        CHECK_MSG(e, "is not in (0, 1]");
    }
    CHECK(ckm_problem_add_soft_pair(p, 2, 2, CKM_CANNOT_LINK, 0.5, &err) == CKM_ERR_INVALID);
    CHECK(ckm_problem_add_soft_pair(p, 2, 4, CKM_CANNOT_LINK, 0.5, &err) == CKM_ERR_INVALID);
    CHECK(ckm_problem_add_soft_pair(p, 2, 3, (ckm_link)0, 0.5, &err) == CKM_ERR_INVALID);
    CHECK(ckm_problem_soft_pair_count(p) == 0);
    ckm_problem_free(p);
}

/* blpkm against brute force on tiny instances with hard and soft pairs */
static void test_brute_force(void)
{
    int equal = 0, total = 0, violating = 0;
    for (int inst = 0; inst < 40; inst++) {
        int n = 7 + inst % 3, k = 2 + inst % 2, d = 2;
        double X[24];
        oracle_pair hp[4];
        int nh = oracle_random_instance(unif, n, inst % 3, X, hp);
        oracle_soft sp[10];
        int ns = 0;
        for (int q = 0; q < 8; q++) {
            int i = (int)(unif() * n), j = (int)(unif() * n);
            int ml = unif() < 0.5;
            double c = 0.1 + 0.9 * unif();
            if (i != j)
                sp[ns++] = (oracle_soft){i, j, ml, c};
        }
        double P = inst % 2 ? 0.0 : 5.0 + 20.0 * unif(); /* 0 = the default */
        ckm_problem *p = oracle_problem(X, n, d, k, hp, nh, NULL, NULL);
        CHECK(p != NULL);
        if (!p)
            continue;
        ckm_err err = {CKM_OK, ""};
        for (int q = 0; q < ns; q++)
            CHECK(ckm_problem_add_soft_pair(p, (size_t)sp[q].i, (size_t)sp[q].j,
                                            sp[q].ml ? CKM_MUST_LINK : CKM_CANNOT_LINK, sp[q].c, &err) == CKM_OK);
        ckm_result *r = solve_soft(p, "blpkm", 20, P, NULL);
        if (!r) {
            ckm_problem_free(p);
            continue;
        }
        double Pused = P;
        if (P == 0.0) { /* the default: 2 TSS / n */
            double mu[2] = {0, 0}, tss = 0;
            for (int i = 0; i < n; i++)
                for (int f = 0; f < d; f++)
                    mu[f] += X[i * d + f] / n;
            for (int i = 0; i < n; i++)
                for (int f = 0; f < d; f++)
                    tss += (X[i * d + f] - mu[f]) * (X[i * d + f] - mu[f]);
            Pused = 2.0 * tss / n;
        }
        CHECK_NEAR(r->soft_penalty, Pused, 1e-12 * Pused);
        size_t lo[4] = {1, 1, 1, 1}, hi[4] = {12, 12, 12, 12};
        double best = oracle_best_soft(X, n, d, k, hp, nh, lo, hi, sp, ns, Pused, NULL);
        if (isinf(best)) {
            CHECK(r->status == CKM_STATUS_INFEASIBLE);
        } else {
            CHECK(r->has_labels);
            if (r->has_labels) {
                double sse;
                size_t vml, vcl;
                CHECK(ckm_sse(X, (size_t)n, (size_t)d, r->labels, (size_t)k, &sse, &err) == CKM_OK);
                double pen = oracle_penalty(r->labels, sp, ns, Pused, &vml, &vcl);
                CHECK_NEAR(r->sse, sse, 1e-9 * (1 + sse));
                CHECK_NEAR(r->penalty, pen, 1e-9 * (1 + pen));
                CHECK_NEAR(r->objective, sse + pen, 1e-9 * (1 + sse + pen));
                CHECK(r->soft_must_link_violated == vml && r->soft_cannot_link_violated == vcl);
                CHECK(r->violations == 0);
                CHECK(r->objective >= best - 1e-9 * (1 + best));
                equal += fabs(r->objective - best) <= 1e-9 * (1 + best);
                violating += vml + vcl > 0;
                total++;
            }
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
    printf("blpkm with soft pairs: %d of %d instances at the brute-force optimum, %d of them violate a soft pair\n",
           equal, total, violating);
    CHECK(total >= 30 && equal >= total * 8 / 10 && violating >= 10);
}

/* soft pairs of confidence 1 and a large P give the hard optimum */
static void test_large_penalty_is_hard(void)
{
    int compared = 0;
    for (int inst = 0; inst < 12; inst++) {
        int n = 8, k = 2 + inst % 2, d = 2;
        double X[16];
        oracle_pair hp[6];
        int nh = oracle_random_instance(unif, n, 5, X, hp);
        size_t lo[4] = {1, 1, 1, 1}, hi[4] = {8, 8, 8, 8};
        double opt = oracle_best(X, n, d, k, hp, nh, lo, hi, NULL);
        if (isinf(opt))
            continue;
        ckm_problem *hard = oracle_problem(X, n, d, k, hp, nh, NULL, NULL), *soft = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(hard && ckm_problem_create(X, (size_t)n, (size_t)d, (size_t)k, &soft, &err) == CKM_OK);
        for (int q = 0; q < nh && soft; q++)
            CHECK(ckm_problem_add_soft_pair(soft, (size_t)hp[q].i, (size_t)hp[q].j,
                                            hp[q].ml ? CKM_MUST_LINK : CKM_CANNOT_LINK, 1.0, &err) == CKM_OK);
        ckm_result *rh = hard ? solve_soft(hard, "blpkm", 20, 0.0, NULL) : NULL;
        ckm_result *rs = soft ? solve_soft(soft, "blpkm", 20, 1e6, NULL) : NULL;
        if (rh && rs && rh->has_labels && rs->has_labels) {
            CHECK_NEAR(rh->sse, opt, 1e-9 * (1 + opt));
            CHECK_NEAR(rs->sse, opt, 1e-9 * (1 + opt));
            CHECK(rs->soft_must_link_violated + rs->soft_cannot_link_violated == 0 && rs->penalty == 0.0);
            CHECK(rs->objective == rs->sse);
            compared++;
        }
        ckm_result_free(rh);
        ckm_result_free(rs);
        ckm_problem_free(hard);
        ckm_problem_free(soft);
    }
    CHECK(compared >= 8);
}

/* contradictory soft sets are never infeasible; the same pairs hard are */
static void test_noisy_never_infeasible(void)
{
    double X[12] = {0, 0, 1, 0, 0, 1, 5, 5, 6, 5, 5, 6};
    /* a must-link chain 0-1-2 closed by a cannot-link 0-2, and a cannot-link clique on 4 points with k = 3 */
    int pairs[][3] = {{0, 1, 1}, {1, 2, 1}, {0, 2, 0}, {3, 4, 0}, {3, 5, 0}, {4, 5, 0}, {0, 3, 0}, {0, 4, 0},
                      {0, 5, 0}, {1, 2, 0}};
    size_t np = sizeof pairs / sizeof pairs[0];
    for (int soft = 0; soft < 2; soft++) {
        ckm_problem *p = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_problem_create(X, 6, 2, 3, &p, &err) == CKM_OK);
        for (size_t q = 0; q < np; q++) {
            ckm_link t = pairs[q][2] ? CKM_MUST_LINK : CKM_CANNOT_LINK;
            if (soft)
                CHECK(ckm_problem_add_soft_pair(p, (size_t)pairs[q][0], (size_t)pairs[q][1], t, 0.6, &err) == CKM_OK);
            else if (q + 1 < np) /* (1, 2) cannot be both hard ML and hard CL */
                CHECK(ckm_problem_add_pair(p, (size_t)pairs[q][0], (size_t)pairs[q][1], t, &err) == CKM_OK);
        }
        ckm_result *r = solve_soft(p, "blpkm", 5, 0.0, NULL);
        if (r) {
            if (soft) {
                CHECK(r->status == CKM_STATUS_FEASIBLE && r->has_labels);
                CHECK(r->soft_must_link_violated + r->soft_cannot_link_violated >= 2);
            } else {
                CHECK(r->status == CKM_STATUS_INFEASIBLE && !r->has_labels);
            }
        }
        ckm_result_free(r);
        ckm_problem_free(p);
    }
}

/* soft pairs decided by hard ones; opposite soft pairs net out; penalty counts them all */
static void test_soft_on_hard(void)
{
    double X[12] = {0, 0, 1, 0, 0, 1, 5, 5, 6, 5, 5, 6};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 6, 2, 2, &p, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 1, 2, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 3, 4, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_problem_add_soft_pair(p, 0, 1, CKM_MUST_LINK, 0.5, &err) == CKM_OK);   /* redundant */
    CHECK(ckm_problem_add_soft_pair(p, 0, 2, CKM_CANNOT_LINK, 0.25, &err) == CKM_OK); /* always violated (chain) */
    CHECK(ckm_problem_add_soft_pair(p, 3, 4, CKM_CANNOT_LINK, 0.5, &err) == CKM_OK); /* redundant */
    CHECK(ckm_problem_add_soft_pair(p, 4, 3, CKM_MUST_LINK, 0.125, &err) == CKM_OK); /* always violated */
    CHECK(ckm_problem_add_soft_pair(p, 2, 5, CKM_MUST_LINK, 0.75, &err) == CKM_OK);  /* nets with the next */
    CHECK(ckm_problem_add_soft_pair(p, 5, 0, CKM_CANNOT_LINK, 0.5, &err) == CKM_OK); /* same groups: {0,1,2}-{5} */
    CHECK(ckm_problem_add_soft_pair(p, 3, 5, CKM_MUST_LINK, 0.5, &err) == CKM_OK);
    CHECK(ckm_problem_add_soft_pair(p, 5, 3, CKM_CANNOT_LINK, 0.5, &err) == CKM_OK); /* nets to 0: dropped */
    ckm_analysis *a = NULL;
    CHECK(ckm_problem_analyze(p, &a, &err) == CKM_OK);
    if (a) {
        CHECK(a->soft_redundant == 2 && a->soft_contradicted == 2);
        CHECK(a->soft_group_pairs == 1);
    }
    ckm_analysis_free(a);
    ckm_result *r = solve_soft(p, "blpkm", 5, 2.0, NULL);
    if (r && r->has_labels) {
        /* from the labels: the two always-violated pairs, one of the netted pair, and one of (3, 5) */
        int32_t *l = r->labels;
        double pen = 2.0 * (0.25 + 0.125);
        pen += 2.0 * (l[2] == l[5] ? 0.5 : 0.75);
        pen += 2.0 * 0.5;
        CHECK_NEAR(r->penalty, pen, 1e-12);
        CHECK(strstr(r->message, "2 soft pairs always violated and 2 always satisfied") != NULL);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
}

/* default P with weights and under rescaling; settings checks; refusals */
static void test_penalty_settings(void)
{
    double X[12] = {0, 0, 1, 0, 0, 1, 5, 5, 6, 5, 5, 6}, w[6] = {1, 2, 1, 3, 1, 1};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 6, 2, 2, &p, &err) == CKM_OK);
    CHECK(ckm_problem_add_soft_pair(p, 0, 3, CKM_MUST_LINK, 0.9, &err) == CKM_OK);
    CHECK(ckm_problem_set_weights(p, w, &err) == CKM_OK);
    ckm_result *r = solve_soft(p, "blpkm", 3, 0.0, NULL);
    double W = 9, mu[2] = {0, 0}, tss = 0;
    for (int i = 0; i < 6; i++)
        for (int f = 0; f < 2; f++)
            mu[f] += w[i] * X[2 * i + f] / W;
    for (int i = 0; i < 6; i++)
        for (int f = 0; f < 2; f++)
            tss += w[i] * (X[2 * i + f] - mu[f]) * (X[2 * i + f] - mu[f]);
    if (r)
        CHECK_NEAR(r->soft_penalty, 2.0 * tss / W, 1e-12 * tss);
    ckm_result_free(r);
    /* invalid settings */
    ckm_error rc;
    CHECK(solve_soft(p, "blpkm", 1, -1.0, &rc) == NULL && rc == CKM_ERR_INVALID);
    CHECK(solve_soft(p, "blpkm", 1, NAN, &rc) == NULL && rc == CKM_ERR_INVALID);
    CHECK(solve_soft(p, "blpkm", 1, INFINITY, &rc) == NULL && rc == CKM_ERR_INVALID);
    /* the step limit: finite and >= 0 */
    double bad_limits[3] = {-1.0, NAN, INFINITY};
    for (int b = 0; b < 3; b++) {
        ckm_settings s;
        ckm_settings_default(&s);
        CHECK(s.step_limit_s == 2.0);
        snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
        s.step_limit_s = bad_limits[b];
        ckm_result *rb = NULL;
        CHECK(ckm_solve(p, &s, &rb, &err) == CKM_ERR_INVALID && rb == NULL);
        CHECK_MSG(err, "step_limit_s");
    }
    /* a P whose costs CLP would abort on is refused (measured: an assertion with 1e30 on iris) */
    CHECK(solve_soft(p, "blpkm", 1, 1e30, &rc) == NULL && rc == CKM_ERR_INVALID);
    /* points that all coincide: any P gives the same labels, the given one is reported */
    {
        double Z[8] = {3, 3, 3, 3, 3, 3, 3, 3};
        ckm_problem *pz = NULL;
        CHECK(ckm_problem_create(Z, 4, 2, 2, &pz, &err) == CKM_OK);
        CHECK(pz && ckm_problem_add_soft_pair(pz, 0, 1, CKM_CANNOT_LINK, 0.5, &err) == CKM_OK);
        ckm_result *rz = pz ? solve_soft(pz, "blpkm", 2, 1e30, NULL) : NULL;
        CHECK(rz && rz->has_labels && rz->soft_penalty == 1e30 && rz->soft_cannot_link_violated == 0);
        ckm_result_free(rz);
        ckm_problem_free(pz);
    }
    /* algorithms without soft pairs refuse them */
    const char *refuse[] = {"kmeans", "cop", "sizeflow", "bckm", "admm", "ipc", "exact"};
    for (size_t a = 0; a < sizeof refuse / sizeof refuse[0]; a++) {
        CHECK(solve_soft(p, refuse[a], 1, 0.0, &rc) == NULL && rc == CKM_ERR_UNSUPPORTED);
        CHECK(!(ckm_algorithm_find(refuse[a])->honours & CKM_HONOURS_SOFT_PAIRS));
    }
    CHECK(ckm_algorithm_find("blpkm")->honours & CKM_HONOURS_SOFT_PAIRS);
    ckm_problem_free(p);
    /* rescaled data (2^-e inside): same labels, P and penalty in data units */
    double Y[12];
    for (int i = 0; i < 12; i++)
        Y[i] = X[i] * 1e12;
    ckm_problem *p1 = NULL, *p2 = NULL;
    CHECK(ckm_problem_create(X, 6, 2, 2, &p1, &err) == CKM_OK && ckm_problem_create(Y, 6, 2, 2, &p2, &err) == CKM_OK);
    CHECK(ckm_problem_add_soft_pair(p1, 0, 3, CKM_MUST_LINK, 0.9, &err) == CKM_OK &&
          ckm_problem_add_soft_pair(p2, 0, 3, CKM_MUST_LINK, 0.9, &err) == CKM_OK);
    ckm_result *r1 = solve_soft(p1, "blpkm", 3, 400.0, NULL), *r2 = solve_soft(p2, "blpkm", 3, 400e24, NULL);
    if (r1 && r2 && r1->has_labels && r2->has_labels) {
        CHECK(memcmp(r1->labels, r2->labels, 6 * sizeof(int32_t)) == 0);
        CHECK_NEAR(r2->soft_penalty / 1e24, 400.0, 1e-10);
        CHECK_NEAR(r2->objective / 1e24, r1->objective, 1e-9 * r1->objective);
        CHECK(r1->soft_must_link_violated == 0); /* 360 > the SSE cost of joining them */
    }
    ckm_result_free(r1);
    ckm_result_free(r2);
    ckm_problem_free(p1);
    ckm_problem_free(p2);
}

/* past CKM_SOFT_MODEL_MAX_NNZ (3e7 nonzeros) blpkm steps by local search: the run says so, and
 * what it reports is still the labels' own SSE and penalty */
static void test_local_mode(void)
{
    size_t n = 12000, k = 60, d = 3, m = 170000; /* 2 n k + 3 k m = 3.2e7 */
    double *X = malloc(n * d * sizeof(double));
    size_t *pi = malloc(m * sizeof(size_t)), *pj = malloc(m * sizeof(size_t));
    double *conf = malloc(m * sizeof(double));
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(X && pi && pj && conf);
    if (!X || !pi || !pj || !conf)
        goto out;
    for (size_t i = 0; i < n; i++)
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = (double)(i % k) * (f == 0 ? 3.0 : 0.0) + unif();
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    bool added = p != NULL;
    for (size_t q = 0; q < m && added; q++) {
        pi[q] = (size_t)(unif() * (double)n);
        do
            pj[q] = (size_t)(unif() * (double)n);
        while (pj[q] == pi[q]);
        conf[q] = 0.1 + 0.9 * unif();
        added = ckm_problem_add_soft_pair(p, pi[q], pj[q], CKM_CANNOT_LINK, conf[q], &err) == CKM_OK;
    }
    CHECK(added);
    ckm_result *r = added ? solve_soft(p, "blpkm", 1, 0.0, NULL) : NULL;
    if (r) {
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->has_labels);
        CHECK(strstr(r->message, "by local search") != NULL);
        if (r->has_labels) {
            double pen = 0, sse;
            size_t viol = 0;
            for (size_t q = 0; q < m; q++)
                if (r->labels[pi[q]] == r->labels[pj[q]]) {
                    pen += r->soft_penalty * conf[q];
                    viol++;
                }
            CHECK(ckm_sse(X, n, d, r->labels, k, &sse, &err) == CKM_OK);
            CHECK_NEAR(r->sse, sse, 1e-9 * sse);
            CHECK_NEAR(r->penalty, pen, 1e-9 * pen);
            CHECK(r->soft_cannot_link_violated == viol);
            printf("local search: %zu of %zu soft cannot-links violated\n", viol, m);
            /* a random cannot-link joins two points of one cluster with probability ~ 1/k: the search
             * must do much better than that */
            CHECK((double)viol < 0.5 * (double)m / (double)k);
        }
    }
    ckm_result_free(r);
out:
    ckm_problem_free(p);
    free(X);
    free(pi);
    free(pj);
    free(conf);
}

/* blpkm's default seeding: k-means++ with soft pairs (PCCC's start), random points without
 * them (BLPKM_CC). One step from the seeds (max_iter 1) shows the seeds in the labels; the
 * two seedings are first required to differ there, so the comparison can fail. */
static ckm_result *one_step(const ckm_problem *p, ckm_init init)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.n_init = 1;
    s.max_iter = 1;
    s.seed = 7;
    s.init = init;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    return r;
}

static bool same_labels(const ckm_result *a, const ckm_result *b, size_t n)
{
    return a && b && a->has_labels && b->has_labels && memcmp(a->labels, b->labels, n * sizeof(int32_t)) == 0;
}

static void test_default_init(void)
{
    enum { N = 120, D = 2, K = 6 };
    static double X[N * D];
    for (size_t i = 0; i < N * D; i++)
        X[i] = 10.0 * unif();
    ckm_problem *soft = NULL, *plain = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, N, D, K, &soft, &err) == CKM_OK && ckm_problem_create(X, N, D, K, &plain, &err) == CKM_OK);
    if (!soft || !plain)
        goto out;
    for (size_t q = 0; q < 10; q++)
        CHECK(ckm_problem_add_soft_pair(soft, q, q + 50, q % 2 ? CKM_MUST_LINK : CKM_CANNOT_LINK, 0.7, &err) == CKM_OK);
    CHECK(ckm_problem_add_pair(plain, 0, 50, CKM_CANNOT_LINK, &err) == CKM_OK);
    ckm_result *sd = one_step(soft, CKM_INIT_DEFAULT), *sk = one_step(soft, CKM_INIT_KMEANSPP),
               *sr = one_step(soft, CKM_INIT_RANDOM), *pd = one_step(plain, CKM_INIT_DEFAULT),
               *pk = one_step(plain, CKM_INIT_KMEANSPP), *pr = one_step(plain, CKM_INIT_RANDOM);
    CHECK(!same_labels(sk, sr, N) && !same_labels(pk, pr, N)); /* the seedings show */
    CHECK(same_labels(sd, sk, N)); /* soft pairs: k-means++ */
    CHECK(same_labels(pd, pr, N)); /* none: random points */
    ckm_result *all[6] = {sd, sk, sr, pd, pk, pr};
    for (int i = 0; i < 6; i++)
        ckm_result_free(all[i]);
out:
    ckm_problem_free(soft);
    ckm_problem_free(plain);
}

int main(void)
{
    test_file_format();
    test_brute_force();
    test_large_penalty_is_hard();
    test_noisy_never_infeasible();
    test_soft_on_hard();
    test_penalty_settings();
    test_local_mode();
    test_default_init();
    ck_cleanup();
    return ck_report();
}
