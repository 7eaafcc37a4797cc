/*
 * stop_latency.c -- how long after a stop request each algorithm returns, and whether two
 * MILP-heavy solves in two threads run in parallel (issue 32, items 1 and 2). Public API
 * only, so the same file builds against an older libckm for a side-by-side run
 * (bench/stop_latency_run.sh).
 *
 *   stop_latency latency CSV      every algorithm x stop time T in {0.25, 0.5, 1, 2, 4} s:
 *                                 a should_stop callback answers yes from t0 + T on; the
 *                                 latency is the return time - (t0 + T). Rows:
 *                                 algo,instance,T,latency_s,status,polls
 *   stop_latency parallel CSV     blpkm on two MILP-heavy problems, one after the other and
 *                                 then in two threads: wall times, ratio, same SSEs?
 * Instances: "milp" = 3000 overlapping points in R^8, k = 8, 500 must-links + 500
 * cannot-links from the truth, sizes 338..412 (4 of 23 blpkm steps need CBC at 53464e8);
 * "sdp" (ipc, exact) = the same points with 1500 + 1500 pairs, so the SDP keeps about
 * 1500 groups; what an algorithm does not honour is left out: sizeflow gets the sizes only
 * ("sizes"), cop the pairs only ("pairs"), kmeans neither ("plain").
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *ALGOS[] = {"kmeans", "blpkm", "cop", "bckm", "admm", "ipc", "exact", "sizeflow"};
#define N_ALGOS (sizeof ALGOS / sizeof ALGOS[0])

static ckm_problem *make_problem(size_t n, size_t k, size_t pairs, int sizes, uint64_t seed)
{
    const size_t d = 8;
    double *X = malloc(n * d * sizeof(double));
    int32_t *truth = malloc(n * sizeof(int32_t));
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        size_t c = i % k;
        truth[i] = (int32_t)c;
        for (size_t f = 0; f < d; f++) /* centers one unit apart, noise sd 1.2: overlapping */
            X[i * d + f] = (f == c % d ? (double)c : 0.0) +
                           (bench_unif(&st) + bench_unif(&st) + bench_unif(&st) - 1.5) * 1.2;
    }
    ckm_problem *p = NULL;
    ckm_constraints *c = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK)
        goto fail;
    if (pairs > 0) {
        if (ckm_constraints_generate(truth, n, pairs, 0.5, seed, &c, &err) != CKM_OK ||
            ckm_problem_add_constraints(p, c, &err) != CKM_OK)
            goto fail;
    }
    if (sizes && ckm_problem_set_size_range(p, (size_t)(0.9 * (double)n / (double)k),
                                            (size_t)(1.1 * (double)n / (double)k), &err) != CKM_OK)
        goto fail;
    ckm_constraints_free(c);
    free(X);
    free(truth);
    return p;
fail:
    fprintf(stderr, "stop_latency: %s\n", err.message);
    exit(1);
}

typedef struct stopper {
    double at;
    unsigned long polls;
} stopper;

static int stop_at(void *user)
{
    stopper *s = user;
    s->polls++;
    return bench_now() >= s->at;
}

static int latency(FILE *out)
{
    const double times[] = {0.25, 0.5, 1.0, 2.0, 4.0};
    ckm_problem *inst[5] = {make_problem(3000, 8, 1000, 1, 3), make_problem(3000, 8, 3000, 1, 3),
                            make_problem(3000, 8, 0, 1, 3), make_problem(3000, 8, 1000, 0, 3),
                            make_problem(3000, 8, 0, 0, 3)};
    const char *names[5] = {"milp", "sdp", "sizes", "pairs", "plain"};
    fprintf(out, "algo,instance,T,latency_s,status,polls\n");
    for (size_t a = 0; a < N_ALGOS; a++) {
        const char *algo = ALGOS[a];
        int is_sdp = strcmp(algo, "ipc") == 0 || strcmp(algo, "exact") == 0;
        int which = is_sdp ? 1 : strcmp(algo, "sizeflow") == 0 ? 2 : strcmp(algo, "cop") == 0 ? 3
                  : strcmp(algo, "kmeans") == 0 ? 4 : 0;
        ckm_problem *p = inst[which];
        for (size_t t = 0; t < sizeof times / sizeof times[0]; t++) {
            ckm_settings s;
            ckm_settings_default(&s);
            snprintf(s.algorithm, sizeof s.algorithm, "%s", algo);
            s.n_init = 1000000; /* never done before the stop */
            s.threads = 1;
            if (is_sdp)
                s.n_init = 1;
            stopper st = {bench_now() + times[t], 0};
            s.should_stop = stop_at;
            s.stop_user = &st;
            ckm_result *r = NULL;
            ckm_err err = {CKM_OK, ""};
            ckm_error rc = ckm_solve(p, &s, &r, &err);
            double lat = bench_now() - st.at;
            fprintf(out, "%s,%s,%.2f,%.3f,%s,%lu\n", algo, names[which], times[t], lat,
                    rc == CKM_OK && r ? ckm_status_string(r->status) : err.message, st.polls);
            fflush(out);
            ckm_result_free(r);
        }
    }
    for (int i = 0; i < 5; i++)
        ckm_problem_free(inst[i]);
    return 0;
}

typedef struct job {
    ckm_problem *p;
    double sse, seconds;
    int ok;
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.n_init = 2;
    s.threads = 1;
    s.seed = 5;
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = bench_now();
    j->ok = ckm_solve(j->p, &s, &r, &err) == CKM_OK && r && r->has_labels;
    j->seconds = bench_now() - t0;
    j->sse = j->ok ? r->sse : NAN;
    if (!j->ok)
        fprintf(stderr, "stop_latency: %s\n", err.message);
    ckm_result_free(r);
    return NULL;
}

static int parallel(FILE *out)
{
    job seq[2] = {{make_problem(3000, 8, 1000, 1, 3), 0, 0, 0}, {make_problem(3000, 8, 1000, 1, 4), 0, 0, 0}};
    job par[2] = {seq[0], seq[1]};
    double t0 = bench_now();
    run_job(&seq[0]);
    run_job(&seq[1]);
    double t_seq = bench_now() - t0;
    pthread_t th[2];
    t0 = bench_now();
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, run_job, &par[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    double t_par = bench_now() - t0;
    fprintf(out, "sequential_s,parallel_s,ratio,same_sse\n%.2f,%.2f,%.3f,%d\n", t_seq, t_par, t_par / t_seq,
            seq[0].ok && par[0].ok && seq[1].ok && par[1].ok && seq[0].sse == par[0].sse && seq[1].sse == par[1].sse);
    ckm_problem_free(seq[0].p);
    ckm_problem_free(seq[1].p);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "latency") != 0 && strcmp(argv[1], "parallel") != 0)) {
        fprintf(stderr, "usage: stop_latency latency|parallel OUT.csv\n");
        return 2;
    }
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 2;
    }
    int rc = strcmp(argv[1], "latency") == 0 ? latency(out) : parallel(out);
    fclose(out);
    return rc;
}
