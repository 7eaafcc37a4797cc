/*
 * test_report.c -- progress events and traces (settings.progress, settings.trace), the
 * principal components (ckm_pca against hand-computed ones) and the HTML report
 * (ckm_report_html): its structure, escaping, subsample, and refusals (bad labels, a JSON
 * report of another run or that does not parse). The page in a real browser: tests/html.
 */
#include "check.h"
#include "fixtures.h"

typedef struct seen {
    size_t count, by_kind[4];
    ckm_progress first, last[4];
    double min_bound_gap; /* min over events of (sse - lower_bound), checked afterwards */
    double max_bound;
} seen;

static void on_event(void *user, const ckm_progress *ev)
{
    seen *s = user;
    if (s->count == 0)
        s->first = *ev;
    s->count++;
    s->by_kind[ev->kind & 3]++;
    s->last[ev->kind & 3] = *ev;
    if (isfinite(ev->lower_bound) && ev->lower_bound > s->max_bound)
        s->max_bound = ev->lower_bound;
}

static int same_event(const ckm_progress *a, const ckm_progress *b)
{
    return a->kind == b->kind && a->seconds == b->seconds && a->restart == b->restart && a->iteration == b->iteration &&
           (a->objective == b->objective || (isnan(a->objective) && isnan(b->objective)));
}

/* hand-computed: the square (0,0), (2,0), (0,1), (2,1): covariance diag(1, 1/4) */
static void test_pca(void)
{
    double X[8] = {0, 0, 2, 0, 0, 1, 2, 1}, Y[8], V[4], var[2];
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_pca(X, NULL, 4, 2, 2, Y, V, var, &err) == CKM_OK);
    CHECK_NEAR(var[0], 1.0, 1e-12);
    CHECK_NEAR(var[1], 0.25, 1e-12);
    CHECK_NEAR(V[0], 1.0, 1e-12); /* (1, 0), signed so its largest entry is positive */
    CHECK_NEAR(V[1], 0.0, 1e-12);
    CHECK_NEAR(V[3], 1.0, 1e-12);
    CHECK_NEAR(Y[0], -1.0, 1e-12);
    CHECK_NEAR(Y[1], -0.5, 1e-12);
    CHECK_NEAR(Y[6], 1.0, 1e-12);
    CHECK_NEAR(Y[7], 0.5, 1e-12);
    /* weighted, d = 1: points 0 and 4, weights 3 and 1: mean 1, variance (3 + 9) / 4 = 3 */
    double x1[2] = {0, 4}, w[2] = {3, 1}, y1[2];
    CHECK(ckm_pca(x1, w, 2, 1, 1, y1, NULL, var, &err) == CKM_OK);
    CHECK_NEAR(var[0], 3.0, 1e-12);
    CHECK_NEAR(y1[0], -1.0, 1e-12);
    CHECK_NEAR(y1[1], 3.0, 1e-12);
    /* a direction (1, -1) / sqrt 2 with its largest-magnitude entry made positive */
    double Z[6] = {1, -1, -1, 1, 2, -2}, V1[2], y3[3];
    CHECK(ckm_pca(Z, NULL, 3, 2, 1, y3, V1, var, &err) == CKM_OK);
    CHECK(fabs(V1[0]) > 0.7 && fabs(V1[1]) > 0.7 && (V1[0] > 0.0 || V1[1] > 0.0));
    CHECK(ckm_pca(X, NULL, 4, 2, 3, Y, NULL, NULL, &err) == CKM_ERR_INVALID);
    CHECK(ckm_pca(X, NULL, 4, 2, 0, Y, NULL, NULL, &err) == CKM_ERR_INVALID);
    double wz[4] = {1, 0, 1, 1};
    CHECK(ckm_pca(X, wz, 4, 2, 2, Y, NULL, NULL, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "weight 1");
}

static ckm_problem *iris(void)
{
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_dataset_read(CKM_SOURCE_DIR "/data/iris.csv", NULL, &ds, &err) != CKM_OK)
        return NULL;
    ckm_problem *p = NULL;
    ckm_problem_create(ds->X, ds->n, ds->d, 3, &p, &err);
    ckm_dataset_free(ds);
    return p;
}

/* kmeans with n_init restarts, the trace on and every event counted into *sn (s: the settings) */
static ckm_result *traced_kmeans(const ckm_problem *p, int n_init, ckm_settings *s, seen *sn)
{
    ckm_settings_default(s);
    s->trace = 1;
    s->n_init = n_init;
    s->progress = on_event;
    s->progress_user = sn;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, s, &r, &err) == CKM_OK);
    return r;
}

/* kmeans' trace: one RESTART per restart, each restart's steps non-increasing (Lloyd), the last
 * incumbent the result's objective; the callback sees the same events */
static void test_trace_kmeans(ckm_problem *p)
{
    ckm_settings s;
    seen sn = {0};
    ckm_result *r = traced_kmeans(p, 5, &s, &sn);
    ckm_err err = {CKM_OK, ""};
    if (!r)
        return;
    CHECK(r->trace && r->trace_len == sn.count);
    size_t restarts = 0;
    int monotone = 1;
    for (size_t i = 0; i < r->trace_len; i++) {
        const ckm_progress *e = &r->trace[i];
        restarts += e->kind == CKM_PROGRESS_RESTART;
        if (i > 0 && e->kind == CKM_PROGRESS_STEP && r->trace[i - 1].kind == CKM_PROGRESS_STEP &&
            e->restart == r->trace[i - 1].restart)
            monotone &= e->objective <= r->trace[i - 1].objective * (1 + 1e-12);
        CHECK(i == 0 || e->seconds >= r->trace[i - 1].seconds);
    }
    CHECK(restarts == 5);
    CHECK(monotone);
    CHECK(sn.by_kind[CKM_PROGRESS_STEP] > 5);
    const ckm_progress *lastr = &sn.last[CKM_PROGRESS_RESTART];
    CHECK_NEAR(lastr->incumbent, r->objective, 1e-9 * r->objective);
    CHECK(lastr->done == 5 && lastr->total == 5 && lastr->restarts == 5);
    char *json = NULL;
    CHECK(ckm_result_to_json(r, NULL, &json, &err) == CKM_OK);
    CHECK(json && strstr(json, "\"trace\": [") && strstr(json, "\"kind\": \"restart\""));
    ckm_free(json);
    ckm_result_free(r);
    /* no trace asked: none kept, the callback still called */
    s.trace = 0;
    memset(&sn, 0, sizeof sn);
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && r->trace == NULL && r->trace_len == 0 && sn.count > 5);
    CHECK(ckm_result_to_json(r, NULL, &json, &err) == CKM_OK);
    CHECK(json && !strstr(json, "\"trace\""));
    ckm_free(json);
    ckm_result_free(r);
}

/* more events than CKM_TRACE_MAX: thinned, the first and each kind's last kept, in order */
static void test_trace_thinning(ckm_problem *p)
{
    ckm_settings s;
    seen sn = {0};
    ckm_result *r = traced_kmeans(p, 1500, &s, &sn);
    if (!r)
        return;
    CHECK(sn.count > CKM_TRACE_MAX);
    CHECK(r->trace_len <= CKM_TRACE_MAX && r->trace_len >= CKM_TRACE_MAX / 4);
    CHECK(same_event(&r->trace[0], &sn.first));
    int saw_last_restart = 0, saw_last_step = 0, ordered = 1;
    for (size_t i = 0; i < r->trace_len; i++) {
        saw_last_restart |= same_event(&r->trace[i], &sn.last[CKM_PROGRESS_RESTART]);
        saw_last_step |= same_event(&r->trace[i], &sn.last[CKM_PROGRESS_STEP]);
        ordered &= i == 0 || r->trace[i].seconds >= r->trace[i - 1].seconds;
    }
    CHECK(saw_last_restart && saw_last_step && ordered);
    size_t restarts = 0;
    for (size_t i = 0; i < r->trace_len; i++)
        restarts += r->trace[i].kind == CKM_PROGRESS_RESTART;
    CHECK(restarts == 1500); /* the rarer kind stays whole: the steps were thinned */
    ckm_result_free(r);
}

/* ipc and certify: every bound reported is below the labels' SSE, certify's last is its bound */
static void test_bound_events(void)
{
    ckm_problem *p = ck_linked();
    if (!p)
        return;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "ipc");
    s.trace = 1;
    s.cut_rounds = 2;
    seen sn = {0};
    s.progress = on_event;
    s.progress_user = &sn;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && sn.by_kind[CKM_PROGRESS_BOUND] >= 1);
    CHECK(r && sn.max_bound <= r->sse * (1 + 1e-9));
    if (r && r->has_labels) {
        ckm_settings c;
        ckm_settings_default(&c);
        c.trace = 1;
        c.cut_rounds = 1;
        seen cs = {0};
        c.progress = on_event;
        c.progress_user = &cs;
        ckm_certificate *cert = NULL;
        CHECK(ckm_certify(p, r->labels, 3, &c, &cert, &err) == CKM_OK);
        if (cert) {
            CHECK(cert->trace && cert->trace_len == 4); /* the start, then one per subset */
            CHECK(cert->trace && cert->trace[0].done == 0 && cert->trace[0].total == 3);
            CHECK(cs.last[CKM_PROGRESS_BOUND].done == 3);
            CHECK_NEAR(cs.last[CKM_PROGRESS_BOUND].lower_bound, cert->lower_bound, 1e-9 * cert->sse);
            CHECK(cert->trace && cert->trace[0].lower_bound <= cert->lower_bound * (1 + 1e-12));
            CHECK_NEAR(cs.last[CKM_PROGRESS_BOUND].incumbent, cert->sse, 1e-9 * cert->sse);
            char *json = NULL;
            CHECK(ckm_certificate_to_json(cert, &json, &err) == CKM_OK && strstr(json, "\"kind\": \"bound\""));
            ckm_free(json);
        }
        ckm_certificate_free(cert);
    }
    ckm_result_free(r);
    ckm_problem_free(p);
}

static size_t count(const char *hay, const char *needle)
{
    size_t c = 0;
    for (const char *q = hay; (q = strstr(q, needle)); q += strlen(needle))
        c++;
    return c;
}

static void test_html(ckm_problem *p)
{
    ckm_settings s;
    ckm_settings_default(&s);
    s.trace = 1;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_solve(p, &s, &r, &err) != CKM_OK || !r)
        return;
    char *json = NULL, *page = NULL;
    ckm_result_to_json(r, "\"note\": \"</script><b>x</b>\", \"u\": \"\\u00e9\\ud83d\\ude00\"", &json, &err);
    ckm_report_options o;
    ckm_report_options_default(&o);
    o.json = json;
    o.title = "<b>&";
    o.command = "ckm cluster 'a b'";
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_OK);
    if (page) {
        CHECK(strncmp(page, "<!DOCTYPE html>", 15) == 0);
        CHECK(count(page, "<circle class=\"pt") == 150);
        CHECK(count(page, "</script>") == 2); /* the embedded JSON's "</" cannot end its element */
        CHECK(strstr(page, "<\\/script>") != NULL);
        CHECK(strstr(page, "<title>&lt;b&gt;&amp;</title>") != NULL);
        CHECK(strstr(page, "ckm cluster &#39;a b&#39;") || strstr(page, "ckm cluster 'a b'"));
        CHECK(count(page, "<rect class=\"bar") == 3);
        CHECK(strstr(page, "id=\"steps\"") != NULL);
        CHECK(strstr(page, "http://") == NULL && strstr(page, "https://") == NULL); /* nothing fetched */
        CHECK(strstr(page, "<script src") == NULL && strstr(page, "<link") == NULL);
    }
    ckm_free(page);
    page = NULL;
    /* labels alone, a subsample of at most about 50 points */
    ckm_report_options_default(&o);
    o.max_points = 50;
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_OK);
    if (page) {
        size_t pts = count(page, "<circle class=\"pt");
        CHECK(pts >= 48 && pts <= 53);
        CHECK(strstr(page, "id=\"convergence\"") == NULL);
    }
    ckm_free(page);
    page = NULL;
    CHECK(ckm_report_html(p, r->labels, NULL, &page, &err) == CKM_OK);
    ckm_free(page);
    page = NULL;
    /* refusals */
    int32_t bad[150];
    memcpy(bad, r->labels, sizeof bad);
    bad[7] = 3;
    CHECK(ckm_report_html(p, bad, NULL, &page, &err) == CKM_ERR_INVALID && !page);
    CHECK_MSG(err, "label 7 is 3");
    bad[7] = r->labels[7] == 0 ? 1 : 0; /* another labelling: its SSE is not the report's */
    ckm_report_options_default(&o);
    o.json = json;
    CHECK(ckm_report_html(p, bad, &o, &page, &err) == CKM_ERR_INVALID && !page);
    CHECK_MSG(err, "another run");
    o.json = "{\"n\": 149, \"k\": 3}";
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "its n = 149");
    o.json = "{\"n\": 150, \"k\": 3,\n \"sse\": 1e}";
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_PARSE);
    CHECK_MSG(err, "JSON 2:");
    CHECK_MSG(err, "malformed number");
    o.json = "[1, 2]";
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_INVALID);
    o.json = "{\"n\": 150, \"k\": 3} x";
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_PARSE);
    int32_t truth[150];
    memset(truth, 0, sizeof truth);
    truth[3] = -2;
    ckm_report_options_default(&o);
    o.truth = truth;
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "truth label 3");
    o.struct_size = 4;
    o.truth = NULL;
    CHECK(ckm_report_html(p, r->labels, &o, &page, &err) == CKM_ERR_INVALID);
    ckm_free(json);
    ckm_result_free(r);
}

int main(void)
{
    test_pca();
    ckm_problem *p = iris();
    CHECK(p != NULL);
    if (p) {
        test_trace_kmeans(p);
        test_trace_thinning(p);
        test_html(p);
    }
    test_bound_events();
    ckm_problem_free(p);
    return ck_report();
}
