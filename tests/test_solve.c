/*
 * test_solve.c -- the solve driver: settings validation, capability refusal, stop
 * requests and time limits, result invariants (SSE recomputed, centers = means), the
 * algorithm registry and version/status strings.
 */
#include "check.h"

static int stop_now(void *user)
{
    int *calls = user;
    (*calls)++;
    return 1;
}

static int log_lines;
static void count_log(void *user, const char *line)
{
    (void)user;
    (void)line;
    log_lines++;
}

int main(void)
{
    double X[16] = {0, 0, 0, 1, 1, 0, 1, 1, 10, 10, 10, 11, 11, 10, 11, 11};
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, 8, 2, 2, &p, &err) == CKM_OK);
    if (!p)
        return ck_report();
    ckm_settings s;
    ckm_settings_default(&s);
    CHECK(strcmp(s.algorithm, "kmeans") == 0 && s.n_init == 10 && s.max_iter == 0);
    CHECK(s.distance == CKM_DISTANCE_SQEUCLIDEAN && s.init == CKM_INIT_DEFAULT);
    ckm_result *r = NULL;

    /* settings validation */
    s.n_init = 0;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && r == NULL);
    CHECK_MSG(err, "n_init = 0");
    ckm_settings_default(&s);
    s.max_iter = -1;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    ckm_settings_default(&s);
    s.distance = (ckm_distance)9;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "not a ckm_distance");
    ckm_settings_default(&s);
    s.init = (ckm_init)9;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    ckm_settings_default(&s);
    s.tol = NAN;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    ckm_settings_default(&s);
    s.threads = -1;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "magic");
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "unknown algorithm 'magic' (available: kmeans");

    /* a plain solve: the result carries recomputed SSE, sizes, means */
    ckm_settings_default(&s);
    s.seed = 3;
    s.verbosity = 1;
    s.log = count_log;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->status == CKM_STATUS_FEASIBLE && r->has_labels && r->violations == 0);
        CHECK_NEAR(r->sse, 4.0, 1e-12); /* two unit squares: 4 corners * 0.5 each, twice */
        CHECK(r->sizes[0] == 4 && r->sizes[1] == 4);
        CHECK(r->labels[0] == r->labels[3] && r->labels[0] != r->labels[4]);
        size_t far = (size_t)r->labels[4];
        CHECK_NEAR(r->centers[far * 2], 10.5, 1e-12);
        CHECK(isinf(r->lower_bound) && isnan(r->gap));
        CHECK(r->restarts == 10 && r->super_points == 8 && r->seed == 3);
        CHECK(r->time.total_s >= r->time.solve_s && r->time.solve_s >= 0.0);
        CHECK(strcmp(r->algorithm, "kmeans") == 0);
        char *json = NULL;
        CHECK(ckm_result_to_json(r, "\"extra\": 1", &json, &err) == CKM_OK);
        if (json) {
            CHECK(strstr(json, "\"status\": \"feasible\"") != NULL);
            CHECK(strstr(json, "\"sizes\": [4, 4]") != NULL);
            CHECK(strstr(json, "\"lower_bound\": null") != NULL);
            CHECK(strstr(json, "\"extra\": 1,") != NULL);
            CHECK(strstr(json, "\"seed\": 3") != NULL);
        }
        ckm_free(json);
    }
    CHECK(log_lines >= 11); /* header line + one per restart */
    ckm_result_free(r);
    r = NULL;

    /* stop callback before any labelling: status interrupted, and the stop fallback's checked
     * labelling (one exact assignment step on k-means++ seeds) within the grace period */
    ckm_settings_default(&s);
    int calls = 0;
    s.should_stop = stop_now;
    s.stop_user = &calls;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (r) {
        CHECK(r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->violations == 0 && calls >= 1);
        CHECK(isfinite(r->sse) && r->sse >= 0.0 && strstr(r->message, "stopped before a labelling was found"));
    }
    ckm_result_free(r);
    r = NULL;
    /* an already-expired time limit: the same */
    ckm_settings_default(&s);
    s.time_limit_s = 1e-12;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    if (r)
        CHECK(r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0 &&
              strstr(r->message, "stopped before a labelling was found"));
    ckm_result_free(r);
    r = NULL;

    /* no pairs, no size bounds, stopped before any labelling: each point to its nearest seed;
     * 60 points at 3 places and k = 6, so seeds coincide and ties leave clusters empty until
     * each takes a point of a cluster with two or more (every cluster non-empty, SSE checked) */
    {
        double Y[60 * 2];
        for (size_t i = 0; i < 60; i++) {
            Y[2 * i] = (double)(i % 3) * 10.0;
            Y[2 * i + 1] = (double)(i % 3);
        }
        ckm_problem *q = NULL;
        CHECK(ckm_problem_create(Y, 60, 2, 6, &q, &err) == CKM_OK);
        ckm_settings_default(&s);
        calls = 0;
        s.should_stop = stop_now;
        s.stop_user = &calls;
        CHECK(ckm_solve(q, &s, &r, &err) == CKM_OK);
        if (r) {
            CHECK(r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->violations == 0);
            CHECK(strstr(r->message, "labels from the nearest seed") != NULL);
            size_t nonempty = 0;
            for (size_t j = 0; j < 6; j++)
                nonempty += r->sizes[j] > 0;
            CHECK(nonempty == 6);
            double sse = 0.0; /* recomputed here from the labels */
            for (size_t j = 0; j < 6; j++) {
                double c0 = 0.0, c1 = 0.0, m = 0.0;
                for (size_t i = 0; i < 60; i++)
                    if (r->labels[i] == (int32_t)j) {
                        c0 += Y[2 * i];
                        c1 += Y[2 * i + 1];
                        m += 1.0;
                    }
                for (size_t i = 0; i < 60; i++)
                    if (r->labels[i] == (int32_t)j)
                        sse += (Y[2 * i] - c0 / m) * (Y[2 * i] - c0 / m) + (Y[2 * i + 1] - c1 / m) * (Y[2 * i + 1] - c1 / m);
            }
            CHECK(fabs(sse - r->sse) <= 1e-9 * (1.0 + sse));
        }
        ckm_result_free(r);
        r = NULL;
        ckm_problem_free(q);
    }

    /* sizeflow under exact sizes, stopped before any labelling: the fallback's greedy sized
     * labelling, or the exact transportation step to its seeds when that finishes within the
     * grace; either way every size holds */
    {
        enum { SN = 400 };
        double Y[SN * 2];
        uint64_t ys = 17;
        for (size_t q = 0; q < SN * 2; q++)
            Y[q] = ck_unif(&ys) * ck_unif(&ys);
        ckm_problem *q = NULL;
        CHECK(ckm_problem_create(Y, SN, 2, 8, &q, &err) == CKM_OK);
        CHECK(ckm_problem_set_size_range(q, SN / 8, SN / 8, &err) == CKM_OK);
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "sizeflow");
        calls = 0;
        s.should_stop = stop_now;
        s.stop_user = &calls;
        CHECK(ckm_solve(q, &s, &r, &err) == CKM_OK);
        if (r) {
            CHECK(r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->violations == 0 && calls >= 1);
            CHECK(strstr(r->message, "sized assignment to seeds") != NULL);
            for (size_t j = 0; j < 8; j++)
                CHECK(r->sizes[j] == SN / 8);
        }
        ckm_result_free(r);
        r = NULL;
        ckm_problem_free(q);
    }

    /* constraints kmeans cannot honour: refused, naming the kind and count */
    CHECK(ckm_problem_add_pair(p, 0, 4, CKM_CANNOT_LINK, &err) == CKM_OK);
    CHECK(ckm_solve(p, NULL, &r, &err) == CKM_ERR_UNSUPPORTED && r == NULL);
    CHECK_MSG(err, "algorithm 'kmeans' does not honour cannot-link constraints (the problem has 1)");
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) == CKM_OK);
    CHECK(ckm_solve(p, NULL, &r, &err) == CKM_ERR_UNSUPPORTED);
    CHECK_MSG(err, "must-link");
    ckm_problem_free(p);
    CHECK(ckm_problem_create(X, 8, 2, 2, &p, &err) == CKM_OK);
    CHECK(ckm_problem_set_size_range(p, 4, 4, &err) == CKM_OK);
    CHECK(ckm_solve(p, NULL, &r, &err) == CKM_ERR_UNSUPPORTED);
    CHECK_MSG(err, "cluster-size bounds");
    /* min-size 0 is looser than the default and needs no size support */
    CHECK(ckm_problem_set_size_range(p, 0, 8, &err) == CKM_OK);
    CHECK(ckm_solve(p, NULL, &r, &err) == CKM_OK);
    ckm_result_free(r);
    ckm_problem_free(p);

    /* registry, strings */
    CHECK(ckm_algorithm_count() >= 1);
    CHECK(ckm_algorithm_find("kmeans") == ckm_algorithm_at(0));
    CHECK(ckm_algorithm_find("nope") == NULL && ckm_algorithm_at(999) == NULL);
    CHECK(strcmp(ckm_version(), "0.4.0") == 0);
    CHECK(strcmp(ckm_status_string(CKM_STATUS_INFEASIBLE), "infeasible") == 0);
    CHECK(strcmp(ckm_error_string(CKM_ERR_PARSE), "malformed input") == 0);
    ckm_result_free(NULL);
    return ck_report();
}
