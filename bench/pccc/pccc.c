/*
 * pccc.c -- the PCCC benchmark (Baumann & Hochbaum 2024, "An algorithm for clustering with
 * confidence-based must-link and cannot-link constraints") through the public API, on the
 * instances of bench/pccc/instances.tsv (features standardised, k = number of classes).
 *   col1 SEEDS          the COL1 constraint sets (5/10/15/20 %) as hard pairs: blpkm with
 *                       k-means++ seeds, one start per seed 0..SEEDS-1; and kmeans (no pairs).
 *   noisy SEEDS [MULTS] PCCC's noisy protocol, regenerated here (same rules, own RNG): for level
 *                       f and lower bound l, nf = ceil(f n), nf (nf - 1) / 2 distinct random pairs
 *                       i < j; each gets p ~ U[l, 1], keeps its ground-truth type with probability
 *                       p (else flipped) and confidence 2 (p - 1/2) (PCCC-Data, utilities.py,
 *                       generate_noisy_constraints: the weights are 2 (p - 0.5)). Methods:
 *                       soft (blpkm, soft pairs with those confidences; P = MULTS x the default,
 *                       default MULTS "1"), hard (the same pairs hard), kmeans (no pairs).
 *                       (Every confidence 1 instead was tried: at 10 % breast_cancer CBC then
 *                       ran into the 60 s limit, against 0.07 s with the confidences.)
 *   scale N K D PAIRS   synthetic: K Gaussian blobs (centers U[-10, 10]^D, sigma 2) of N points in
 *                       all, PAIRS soft pairs, 95 % cannot-links drawn across true clusters and
 *                       5 % must-links within, each flipped with probability 0.1, confidence
 *                       U(0.5, 1]; blpkm with k-means++ seeds, one start; prints one row
 *                       (run it under /usr/bin/time -v for the peak memory).
 * Each run: n_init 1, seed s, one thread, time limit LIMIT seconds (env PCCC_LIMIT, default 60).
 * Env PCCC_NINIT=N and PCCC_INIT=default|random|kmeans++ change the restarts and blpkm's seeding
 * (the CLI's defaults for blpkm: PCCC_NINIT=10 PCCC_INIT=default; kmeans keeps k-means++ and
 * takes the same restarts). Env PCCC_SETTING=LEVEL:L (e.g. 20:0.5, or a comma list of them) runs
 * the noisy protocol at those settings only (with PCCC_VERBOSE=2: one run's steps, to see where
 * its time goes). Env PCCC_SIZES=F adds size bounds to the noisy protocol's soft runs: every
 * cluster floor((1 - F) n / k) .. ceil((1 + F) n / k) points (F = 0: balanced); the hard runs
 * (the same pairs hard, mostly contradictory once sized) are left out then.
 * CSV rows: dataset,level,l,seed,method,mult,status,sse,penalty,objective,ari,pairs,soft_violated,seconds,
 *           steps_at_limit (steps stopped at the step limit, unproven: from the result's message)
 * usage: pccc SHARED_DATA_DIR INSTANCES_TSV col1|noisy SEEDS [MULTS] [DATASETS]
 *        pccc scale N K D PAIRS
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double limit_s = 60.0;
static int n_init = 1;                         /* env PCCC_NINIT */
static ckm_init blp_init = CKM_INIT_KMEANSPP; /* env PCCC_INIT */
static int verbosity; /* env PCCC_VERBOSE: the library's progress lines on stderr */
static const char *only_setting; /* env PCCC_SETTING: "LEVEL:L[,LEVEL:L...]", the noisy settings to run */
static double size_slack = -1.0; /* env PCCC_SIZES: F >= 0, the soft runs' size bounds; < 0: none */

static void log_stderr(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "  %s\n", line);
}

static const char *LEVELS[4] = {"05", "10", "15", "20"};
static const double LOWER[6] = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

typedef struct run_spec {
    const char *method;
    double mult;           /* of the default P; 0 = not soft */
    const char *algo;
    int init_kpp;
} run_spec;

/* Steps the result's message says stopped at the step limit (not proven optimal): the number
 * before "stopped at the step limit" (0 when the message does not say so). */
static size_t steps_at_limit(const char *msg)
{
    const char *at = strstr(msg, " stopped at the step limit");
    if (!at)
        return 0;
    const char *p = at;
    while (p > msg && p[-1] >= '0' && p[-1] <= '9')
        p--;
    return p < at ? (size_t)strtoul(p, NULL, 10) : 0;
}

static void run(const ckm_dataset *ds, const ckm_problem *p, const char *name, const char *level, double l, int seed,
                const char *method, double mult, size_t pairs)
{
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "%s", strcmp(method, "kmeans") == 0 ? "kmeans" : "blpkm");
    s.init = strcmp(method, "kmeans") == 0 ? CKM_INIT_KMEANSPP : blp_init;
    s.n_init = n_init;
    s.seed = (uint64_t)seed;
    s.threads = 1;
    s.time_limit_s = limit_s;
    s.verbosity = verbosity;
    s.log = log_stderr;
    if (mult > 0) {
        /* P = mult x the default 2 TSS / n (standardised data: TSS = n d, so P = 2 d mult) */
        s.soft_penalty = mult * 2.0 * (double)ds->d;
    }
    ckm_result *r = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "pccc: %s %s %s seed %d: %s\n", name, level, method, seed, err.message);
        exit(1);
    }
    ckm_scores sc = {0, 0, 0, 0, 0, 0};
    if (r->has_labels)
        ckm_compare(ds->labels, r->labels, ds->n, &sc, &err);
    printf("%s,%s,%.1f,%d,%s,%g,%s,%.10g,%.10g,%.10g,%.6f,%zu,%zu,%.4f,%zu\n", name, level, l, seed, method, mult,
           ckm_status_string(r->status), r->has_labels ? r->sse : -1.0, r->has_labels ? r->penalty : -1.0,
           r->has_labels ? r->objective : -1.0, r->has_labels ? sc.ari : -1.0, pairs,
           r->soft_must_link_violated + r->soft_cannot_link_violated, r->time.total_s, steps_at_limit(r->message));
    fflush(stdout);
    ckm_result_free(r);
}

static ckm_problem *new_problem(const ckm_dataset *ds)
{
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_problem_create(ds->X, ds->n, ds->d, ds->n_classes, &p, &err) != CKM_OK) {
        fprintf(stderr, "pccc: %s\n", err.message);
        exit(1);
    }
    return p;
}

static void col1(const char *root, const ckm_dataset *ds, const char *name, const char *pattern, int seeds)
{
    for (int c = 0; c < 4; c++) {
        char path[1024], file[512];
        const char *at = strstr(pattern, "{cs}");
        snprintf(file, sizeof file, "%.*s%s%s", (int)(at - pattern), pattern, LEVELS[c], at + 4);
        snprintf(path, sizeof path, "%s/%s", root, file);
        ckm_constraints *cons = NULL;
        ckm_err err = {CKM_OK, ""};
        ckm_problem *p = new_problem(ds);
        if (ckm_constraints_read(path, ds->n, &cons, &err) != CKM_OK || ckm_problem_add_constraints(p, cons, &err) != CKM_OK) {
            fprintf(stderr, "pccc: %s: %s\n", name, err.message);
            exit(1);
        }
        for (int seed = 0; seed < seeds; seed++)
            run(ds, p, name, LEVELS[c], 0.0, seed, "hard", 0.0, cons->count);
        ckm_constraints_free(cons);
        ckm_problem_free(p);
    }
    ckm_problem *p = new_problem(ds);
    for (int seed = 0; seed < seeds; seed++)
        run(ds, p, name, "-", 0.0, seed, "kmeans", 0.0, 0);
    ckm_problem_free(p);
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (uint64_t)(unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void noisy(const ckm_dataset *ds, const char *name, int seeds, const char *mults)
{
    size_t n = ds->n;
    unsigned char *used = calloc(n * n, 1);
    size_t *pi = malloc(n * n / 2 * sizeof(size_t) + 8), *pj = malloc(n * n / 2 * sizeof(size_t) + 8);
    double *conf = malloc(n * n / 2 * sizeof(double) + 8);
    int *ml = malloc(n * n / 2 * sizeof(int) + 8);
    if (!used || !pi || !pj || !conf || !ml)
        exit(1);
    for (int seed = 0; seed < seeds; seed++) {
        ckm_problem *plain = new_problem(ds);
        run(ds, plain, name, "-", 0.0, seed, "kmeans", 0.0, 0);
        ckm_problem_free(plain);
    }
    for (int c = 0; c < 4; c++)
        for (int li = 0; li < 6; li++)
            for (int seed = 0; seed < seeds; seed++) {
                double frac = atof(LEVELS[c]) / 100.0, l = LOWER[li];
                char setting[32];
                snprintf(setting, sizeof setting, "%s:%.1f", LEVELS[c], l);
                if (only_setting && !bench_in_list(only_setting, setting))
                    continue;
                size_t nf = (size_t)ceil(frac * (double)n), m = nf * (nf - 1) / 2, got = 0;
                uint64_t rs = hash_name(name) ^ ((uint64_t)c << 40) ^ ((uint64_t)li << 48) ^ (uint64_t)seed;
                memset(used, 0, n * n);
                while (got < m) {
                    size_t i = (size_t)(bench_unif(&rs) * (double)n), j = (size_t)(bench_unif(&rs) * (double)n);
                    if (i == j)
                        continue;
                    if (i > j) {
                        size_t t = i;
                        i = j;
                        j = t;
                    }
                    if (used[i * n + j])
                        continue;
                    used[i * n + j] = 1;
                    double pr = l + (1.0 - l) * bench_unif(&rs);
                    bool same = ds->labels[i] == ds->labels[j];
                    bool keep = bench_unif(&rs) <= pr;
                    pi[got] = i;
                    pj[got] = j;
                    ml[got] = keep ? same : !same;
                    conf[got] = 2.0 * (pr - 0.5);
                    got++;
                }
                size_t wrong = 0;
                for (size_t q = 0; q < m; q++)
                    wrong += ml[q] != (ds->labels[pi[q]] == ds->labels[pj[q]]);
                char level[16];
                snprintf(level, sizeof level, "%s", LEVELS[c]);
                /* soft with confidences (pairs of confidence 0 carry nothing: left out), at each P */
                ckm_err err = {CKM_OK, ""};
                ckm_problem *soft = new_problem(ds), *hard = new_problem(ds);
                if (size_slack >= 0.0) {
                    double per = (double)n / (double)ds->n_classes;
                    if (ckm_problem_set_size_range(soft, (size_t)floor((1.0 - size_slack) * per),
                                                   (size_t)ceil((1.0 + size_slack) * per), &err) != CKM_OK) {
                        fprintf(stderr, "pccc: %s: %s\n", name, err.message);
                        exit(1);
                    }
                }
                for (size_t q = 0; q < m; q++) {
                    ckm_link t = ml[q] ? CKM_MUST_LINK : CKM_CANNOT_LINK;
                    if (conf[q] > 0.0 && ckm_problem_add_soft_pair(soft, pi[q], pj[q], t, conf[q], &err) != CKM_OK)
                        exit(1);
                    if (ckm_problem_add_pair(hard, pi[q], pj[q], t, &err) != CKM_OK)
                        exit(1);
                }
                for (const char *mp = mults; mp && *mp;) {
                    double mult = atof(mp);
                    run(ds, soft, name, level, l, seed, "soft", mult, m);
                    const char *comma = strchr(mp, ',');
                    mp = comma ? comma + 1 : NULL;
                }
                if (size_slack < 0.0)
                    run(ds, hard, name, level, l, seed, "hard", 0.0, m);
                fprintf(stderr, "pccc: %s %s%% l = %.1f seed %d: %zu pairs, %zu wrong\n", name, level, l, seed, m,
                        wrong);
                ckm_problem_free(soft);
                ckm_problem_free(hard);
            }
    free(used);
    free(pi);
    free(pj);
    free(conf);
    free(ml);
}

static int scale(size_t n, size_t k, size_t d, size_t pairs)
{
    uint64_t rs = 42;
    double *X = malloc(n * d * sizeof(double)), *Cn = malloc(k * d * sizeof(double));
    int32_t *y = malloc(n * sizeof(int32_t));
    if (!X || !Cn || !y)
        return 1;
    for (size_t q = 0; q < k * d; q++)
        Cn[q] = -10.0 + 20.0 * bench_unif(&rs);
    for (size_t i = 0; i < n; i++) {
        y[i] = (int32_t)(i % k);
        for (size_t f = 0; f < d; f++) {
            double u1 = bench_unif(&rs), u2 = bench_unif(&rs);
            X[i * d + f] = Cn[(size_t)y[i] * d + f] + 2.0 * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        }
    }
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    double t0 = bench_now();
    if (ckm_dataset_from_array(X, n, d, y, &ds, &err) != CKM_OK)
        return 1;
    ckm_problem *p = NULL;
    if (ckm_problem_create(X, n, d, k, &p, &err) != CKM_OK)
        return 1;
    size_t wrong = 0;
    for (size_t q = 0; q < pairs; q++) {
        bool ml = bench_unif(&rs) < 0.05;
        size_t i = (size_t)(bench_unif(&rs) * (double)n), j;
        do {
            j = ml ? (size_t)(bench_unif(&rs) * (double)(n / k)) * k + (size_t)y[i] : (size_t)(bench_unif(&rs) * (double)n);
        } while (j >= n || j == i || (!ml && y[j] == y[i]));
        bool flip = bench_unif(&rs) < 0.1;
        wrong += flip;
        double conf = 0.5 + 0.5 * bench_unif(&rs);
        if (ckm_problem_add_soft_pair(p, i, j, (ml != flip) ? CKM_MUST_LINK : CKM_CANNOT_LINK, conf, &err) != CKM_OK) {
            fprintf(stderr, "pccc: %s\n", err.message);
            return 1;
        }
    }
    double t_build = bench_now() - t0;
    ckm_settings s;
    ckm_settings_default(&s);
    snprintf(s.algorithm, sizeof s.algorithm, "blpkm");
    s.init = CKM_INIT_KMEANSPP;
    s.n_init = 1;
    s.time_limit_s = limit_s;
    s.verbosity = verbosity;
    s.log = log_stderr;
    ckm_result *r = NULL;
    if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
        fprintf(stderr, "pccc: %s\n", err.message);
        return 1;
    }
    ckm_scores sc = {0, 0, 0, 0, 0, 0};
    if (r->has_labels)
        ckm_compare(y, r->labels, n, &sc, &err);
    printf("n,k,d,pairs,wrong,status,sse,penalty,objective,ari,soft_violated,iterations,build_s,solve_s\n");
    printf("%zu,%zu,%zu,%zu,%zu,%s,%.10g,%.10g,%.10g,%.6f,%zu,%d,%.3f,%.3f\n", n, k, d, pairs, wrong,
           ckm_status_string(r->status), r->sse, r->penalty, r->objective, sc.ari,
           r->soft_must_link_violated + r->soft_cannot_link_violated, r->iterations, t_build, r->time.total_s);
    fprintf(stderr, "pccc: %s\n", r->message);
    ckm_result_free(r);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    free(X);
    free(Cn);
    free(y);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "scale") == 0) {
        if (getenv("PCCC_LIMIT"))
            limit_s = atof(getenv("PCCC_LIMIT"));
        if (getenv("PCCC_VERBOSE"))
            verbosity = atoi(getenv("PCCC_VERBOSE"));
        return scale((size_t)atol(argv[2]), (size_t)atol(argv[3]), (size_t)atol(argv[4]), (size_t)atol(argv[5]));
    }
    if (argc < 5) {
        fprintf(stderr, "usage: pccc SHARED_DATA_DIR INSTANCES_TSV col1|noisy SEEDS [MULTS] [DATASETS]\n");
        return 2;
    }
    if (getenv("PCCC_LIMIT"))
        limit_s = atof(getenv("PCCC_LIMIT"));
    if (getenv("PCCC_VERBOSE"))
        verbosity = atoi(getenv("PCCC_VERBOSE"));
    only_setting = getenv("PCCC_SETTING");
    if (getenv("PCCC_SIZES"))
        size_slack = atof(getenv("PCCC_SIZES"));
    if (getenv("PCCC_NINIT"))
        n_init = atoi(getenv("PCCC_NINIT"));
    const char *iv = getenv("PCCC_INIT");
    if (iv)
        blp_init = strcmp(iv, "default") == 0 ? CKM_INIT_DEFAULT : strcmp(iv, "random") == 0 ? CKM_INIT_RANDOM : CKM_INIT_KMEANSPP;
    const char *mode = argv[3], *mults = argc > 5 ? argv[5] : "1", *only = argc > 6 ? argv[6] : NULL;
    int seeds = atoi(argv[4]);
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    char line[2048];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *name = strtok(line, "\t"), *file = strtok(NULL, "\t"), *header = strtok(NULL, "\t"),
             *pattern = strtok(NULL, "\t\n");
        if (!name || !file || !header || !pattern || (only && !bench_in_list(only, name)))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", argv[1], file);
        ckm_dataset *ds = bench_read_standardized("pccc", path, header);
        if (!ds)
            return 1;
        if (strcmp(mode, "col1") == 0)
            col1(argv[1], ds, name, pattern, seeds);
        else
            noisy(ds, name, seeds, mults);
        ckm_dataset_free(ds);
    }
    fclose(f);
    return 0;
}
