/*
 * test_embed.c -- libckm as a host program embeds it, linked against the SHARED library
 * (libckm.so, hidden visibility: only the CKM_API functions are visible).
 *   1. No process-wide side effect: another thread writing to stdout (here a pipe on fd 1)
 *      during a MILP-heavy solve loses nothing and sees nothing CBC printed.
 *   2. The stop request reaches a MILP: the interrupt flag set from another thread ends a
 *      solve that keeps CBC busy, with status "interrupted" and a checked labelling, and so
 *      does a time limit (how fast: bench/stop_latency.c; tests assert no wall-clock bound).
 *   3. Concurrent ckm_solve calls on different problems give the sequential results (no
 *      lock around CBC: each call owns its models).
 *   4. The settings ABI check (struct_size) and the structured counters.
 */
#include "../check.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Overlapping blobs whose assignment LPs with cannot-links and size bounds are fractional,
 * so restarts need CBC (measured: k = 8, 1000 pairs, sizes 375 +- 10 %: 2 CBC solves of
 * about 2 s in the first restart, on one core). */
static ckm_problem *milp_heavy(size_t n, size_t k, size_t pairs, size_t lo, size_t hi)
{
    const size_t d = 8;
    double *X = malloc(n * d * sizeof(double));
    int32_t *truth = malloc(n * sizeof(int32_t));
    uint64_t st = 3;
    for (size_t i = 0; i < n; i++) {
        size_t c = i % k;
        truth[i] = (int32_t)c;
        for (size_t f = 0; f < d; f++)
            X[i * d + f] = (f == c % d ? (double)c : 0.0) + (ck_unif(&st) + ck_unif(&st) + ck_unif(&st) - 1.5) * 1.2;
    }
    ckm_problem *p = NULL;
    ckm_constraints *c = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_create(X, n, d, k, &p, &err) == CKM_OK);
    CHECK(ckm_constraints_generate(truth, n, pairs, 0.5, 1, &c, &err) == CKM_OK);
    CHECK(ckm_problem_add_constraints(p, c, &err) == CKM_OK);
    if (hi > 0)
        CHECK(ckm_problem_set_size_range(p, lo, hi, &err) == CKM_OK);
    ckm_constraints_free(c);
    free(X);
    free(truth);
    return p;
}

/* ---- 1. stdout of another thread during CBC ---- */

typedef struct pipe_reader {
    int fd;
    char *buf;
    size_t len, cap;
} pipe_reader;

static void *read_all(void *arg)
{
    pipe_reader *r = arg;
    for (;;) {
        if (r->len + 4096 > r->cap) {
            r->cap = 2 * r->cap + 4096;
            r->buf = realloc(r->buf, r->cap);
        }
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
        if (got <= 0)
            break;
        r->len += (size_t)got;
    }
    r->buf[r->len] = '\0';
    return NULL;
}

typedef struct writer {
    volatile int done;
    int lines;
} writer;

static void *write_lines(void *arg)
{
    writer *w = arg;
    while (!w->done || w->lines < 50) {
        printf("host line %d\n", w->lines++);
        fflush(stdout);
        sleep_s(0.005);
    }
    return NULL;
}

static void test_stdout_survives(void)
{
    ckm_problem *p = milp_heavy(3000, 8, 1000, 338, 412);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.n_init = 1;
    s.time_limit_s = 20.0;
    int fds[2];
    CHECK(pipe(fds) == 0);
    fflush(stdout);
    int saved = dup(1);
    CHECK(saved >= 0 && dup2(fds[1], 1) == 1);
    close(fds[1]);
    pipe_reader rd = {fds[0], NULL, 0, 0};
    writer wr = {0, 0};
    pthread_t tr, tw;
    pthread_create(&tr, NULL, read_all, &rd);
    pthread_create(&tw, NULL, write_lines, &wr);
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    wr.done = 1;
    pthread_join(tw, NULL);
    fflush(stdout);
    dup2(saved, 1); /* closes the pipe's last write end: the reader sees EOF */
    close(saved);
    pthread_join(tr, NULL);
    close(fds[0]);
    /* exactly the host's lines, in order, nothing else */
    char expect[64];
    size_t pos = 0;
    int ok = 1;
    for (int q = 0; q < wr.lines && ok; q++) {
        int len = snprintf(expect, sizeof expect, "host line %d\n", q);
        ok = pos + (size_t)len <= rd.len && memcmp(rd.buf + pos, expect, (size_t)len) == 0;
        pos += (size_t)len;
    }
    CHECK(ok && pos == rd.len);
    if (!ok || pos != rd.len)
        fprintf(stderr, "  stdout had %zu bytes, expected %zu from %d lines; starts: %.200s\n", rd.len, pos, wr.lines,
                rd.buf);
    CHECK(r && r->has_labels && r->violations == 0);
    CHECK(r && r->stats.mip_solves >= 1 && r->stats.lp_solves >= r->stats.mip_solves);
    if (r)
        fprintf(stderr, "  stdout test: %d host lines intact while CBC ran %llu MILPs (%llu nodes), %.2f s\n",
                wr.lines, (unsigned long long)r->stats.mip_solves, (unsigned long long)r->stats.mip_nodes,
                r->time.total_s);
    ckm_result_free(r);
    free(rd.buf);
    ckm_problem_free(p);
}

/* ---- 2. stops reach the MILP ---- */

typedef struct flag_setter {
    volatile int *flag;
    double after_s;
} flag_setter;

static void *set_flag_later(void *arg)
{
    flag_setter *f = arg;
    sleep_s(f->after_s);
    __atomic_store_n((int *)f->flag, 1, __ATOMIC_RELAXED);
    return NULL;
}

static void test_stops(void)
{
    /* asserted: why each run ended and that its labelling is checked; the times are printed,
     * not asserted (a sanitized build on a loaded machine is slow): the latency is measured by
     * bench/stop_latency.c */
    ckm_problem *p = milp_heavy(3000, 8, 1000, 338, 412);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.n_init = 1000;
    s.time_limit_s = 3.0;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = now_s();
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    double took = now_s() - t0;
    CHECK(r && r->status == CKM_STATUS_TIME_LIMIT && r->has_labels && r->violations == 0);
    CHECK(r && r->stats.mip_solves >= 1);
    fprintf(stderr, "  time limit 3 s: returned after %.2f s (%llu CBC solves)\n", took,
            r ? (unsigned long long)r->stats.mip_solves : 0ULL);
    ckm_result_free(r);
    /* the interrupt flag, set from another thread while CBC works */
    volatile int flag = 0;
    s.time_limit_s = 0.0;
    s.interrupt = &flag;
    flag_setter fs = {&flag, 2.0};
    pthread_t th;
    pthread_create(&th, NULL, set_flag_later, &fs);
    t0 = now_s();
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    took = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(r && r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->violations == 0);
    fprintf(stderr, "  interrupt flag at 2 s: returned after %.2f s (%s)\n", took, r ? ckm_status_string(r->status) : "-");
    ckm_result_free(r);
    ckm_problem_free(p);
}

/* ---- 3. concurrent solves ---- */

typedef struct job {
    const ckm_problem *p;
    const char *algo;
    ckm_result *r;
    ckm_error rc;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", j->algo);
    s.n_init = 3;
    s.threads = 1;
    /* exact: the SDP, its cuts and the MILP checks running side by side are the point here,
     * not the proof (to gap 1e-4 this search took 9 s, under the sanitizers 300 s) */
    s.node_limit = 4;
    s.cut_rounds = 2;
    s.gap = 0.02;
    ckm_err err = {CKM_OK, ""};
    j->rc = ckm_solve(j->p, &s, &j->r, &err);
    return NULL;
}

static int same_result(const ckm_result *a, const ckm_result *b)
{
    return a && b && a->status == b->status && a->has_labels == b->has_labels && a->sse == b->sse &&
           (!a->has_labels || memcmp(a->labels, b->labels, a->n * sizeof(int32_t)) == 0);
}

static void test_concurrent(void)
{
    ckm_problem *p[4] = {milp_heavy(400, 4, 120, 90, 110), milp_heavy(300, 3, 60, 0, 0),
                         milp_heavy(40, 3, 20, 12, 15), milp_heavy(500, 5, 0, 95, 105)};
    const char *algo[4] = {"blpkm", "bckm", "exact", "sizeflow"};
    job seq[4], par[4];
    for (int q = 0; q < 4; q++) {
        seq[q] = (job){p[q], algo[q], NULL, CKM_OK};
        run_job(&seq[q]);
        CHECK(seq[q].rc == CKM_OK && seq[q].r && seq[q].r->has_labels);
    }
    for (int round = 0; round < 2; round++) {
        pthread_t th[4];
        for (int q = 0; q < 4; q++) {
            par[q] = (job){p[q], algo[q], NULL, CKM_OK};
            pthread_create(&th[q], NULL, run_job, &par[q]);
        }
        for (int q = 0; q < 4; q++) {
            pthread_join(th[q], NULL);
            CHECK(par[q].rc == CKM_OK && same_result(seq[q].r, par[q].r));
            if (!same_result(seq[q].r, par[q].r))
                fprintf(stderr, "  %s: concurrent result differs from the sequential one\n", algo[q]);
            ckm_result_free(par[q].r);
        }
    }
    for (int q = 0; q < 4; q++) {
        ckm_result_free(seq[q].r);
        ckm_problem_free(p[q]);
    }
}

/* ---- callbacks from worker threads (exact with 2 workers) ---- */

typedef struct cb_log {
    pthread_t caller;
    int calls, from_workers, overlapping;
    volatile int inside;
    pthread_mutex_t lock;
} cb_log;

static void count_log(void *user, const char *line)
{
    cb_log *c = user;
    (void)line;
    if (__atomic_fetch_add(&c->inside, 1, __ATOMIC_SEQ_CST) != 0)
        __atomic_fetch_add(&c->overlapping, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_lock(&c->lock);
    c->calls++;
    if (!pthread_equal(pthread_self(), c->caller))
        c->from_workers++;
    pthread_mutex_unlock(&c->lock);
    sleep_s(0.0005); /* widen the window in which a second call would overlap */
    __atomic_fetch_sub(&c->inside, 1, __ATOMIC_SEQ_CST);
}

static int stop_calls;
static int count_stop(void *user)
{
    (void)user;
    __atomic_fetch_add(&stop_calls, 1, __ATOMIC_SEQ_CST);
    return 0;
}

static void test_worker_callbacks(void)
{
    ckm_problem *p = milp_heavy(60, 4, 20, 0, 0);
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "exact");
    s.threads = 2;
    s.gap = 0.0; /* the root closes this instance at 1e-6 since the 5000-row cut pool: branch to the node limit */
    s.node_limit = 5;
    s.verbosity = 2;
    cb_log c = {pthread_self(), 0, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER};
    s.log = count_log;
    s.log_user = &c;
    s.should_stop = count_stop;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && r->has_labels && r->violations == 0);
    /* the log is called from the workers too, but never twice at once; should_stop is polled */
    CHECK(r && r->nodes > 1);
    CHECK(c.calls > 0 && c.from_workers > 0 && c.overlapping == 0 && stop_calls > 0);
    fprintf(stderr, "  exact, 2 workers: %d log calls (%d from worker threads, %d overlapping), %d stop polls, %zu nodes\n",
            c.calls, c.from_workers, c.overlapping, stop_calls, r ? r->nodes : 0);
    ckm_result_free(r);
    ckm_problem_free(p);
}

/* ---- 4. settings ABI, counters ---- */

static void test_abi(void)
{
    ckm_problem *p = milp_heavy(60, 3, 10, 0, 0);
    ckm_settings s;
    ckm_settings_default(&s);
    CHECK(s.struct_size == sizeof s && s.interrupt == NULL);
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    s.struct_size = 0; /* a caller that never called ckm_settings_default */
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && r == NULL && strstr(err.message, "ckm_settings_default"));
    s.struct_size = (uint32_t)sizeof s + 8; /* a newer header than this library */
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID);
    /* a 0.2 caller: the 0.3 members past its size are never read (garbage here) */
    s.lloyd = (ckm_lloyd)77;
    s.init_centers = (const double *)&s;
    s.struct_size = CKM_SETTINGS_SIZE_0_2;
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.n_init = 2;
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK && r && r->restarts == 2);
    ckm_result_free(r);
    r = NULL;
    s.struct_size = (uint32_t)sizeof s; /* the same bytes read by a 0.3 caller: refused */
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_ERR_INVALID && strstr(err.message, "lloyd = 77"));
    s.lloyd = CKM_LLOYD_AUTO;
    s.init_centers = NULL;
    snprintf(s.algorithm, sizeof s.algorithm, "admm");
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && r->struct_size == sizeof *r && r->stats.restarts == (uint64_t)r->restarts && r->stats.admm_iterations > 0);
    ckm_result_free(r);
    snprintf(s.algorithm, sizeof s.algorithm, "ipc");
    CHECK(ckm_solve(p, &s, &r, &err) == CKM_OK);
    CHECK(r && r->stats.sdp_iterations > 0 && r->stats.lp_solves > 0);
    ckm_result_free(r);
    ckm_problem *plain = milp_heavy(60, 3, 0, 0, 0);
    CHECK(ckm_solve(plain, NULL, &r, &err) == CKM_OK); /* NULL settings: the defaults (kmeans) */
    ckm_problem_free(plain);
    CHECK(r && r->stats.iterations >= (uint64_t)r->iterations && r->stats.lp_solves == 0);
    char *json = NULL;
    CHECK(r && ckm_result_to_json(r, NULL, &json, &err) == CKM_OK && json);
    ckm_free(json);
    ckm_free(NULL);
    ckm_result_free(r);
    ckm_problem_free(p);
}

int main(void)
{
    test_abi();
    test_worker_callbacks();
    test_concurrent();
    test_stdout_survives();
    test_stops();
    return ck_report();
}
