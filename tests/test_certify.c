/*
 * test_certify.c -- ckm_certify (docs/certify.md) against independent truth:
 *   soundness   on tiny instances (n <= 10, k <= 3) with random pairs, size bounds, sample
 *               weights and capacities (some demands 0), the decomposed bound never exceeds
 *               the brute-force optimum, for every subset count T and several split seeds; on
 *               36 points it never exceeds the optimum exact proves;
 *   T = 1       the bound equals ipc's root bound (same relaxation, no cut rounds); with cut
 *               rounds (a looser first solve) it is not below that root bound;
 *   split       must-link groups stay whole, subsets differ by at most one group, the split's
 *               identity SSE = sum of restricted SSEs + loss (loss >= 0), same seed same split;
 *   stops       an interrupt before anything and a tiny time limit give valid bounds and the
 *               stop status; refusals of bad input with a message; infeasible problems;
 *               labels that violate constraints (bound, no gap); the JSON report;
 *   forced      k = 1 and one must-link group per cluster: bound = SSE, gap 0 (by hand);
 *   floor       the split's floor between the subsets' brute-force optima and the restricted
 *               labels, above the bound; not measured with sizes; a split
 *               whose floor exceeds 2 % and whose first subsets finish early is coarsened;
 *               re-planning by measurement leaves consistent records on every path.
 */
#include "check.h"
#include "oracle.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static double unif(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

typedef struct inst {
    int n, k, np;
    double X[2 * 12], w[12], q[12];
    oracle_pair pairs[24];
    size_t lo[3], hi[3];
    double cap_lo[3], cap_hi[3];
    bool weighted, capacitated;
} inst;

/* every labelling meeting the constraints; the least weighted SSE (INFINITY: none), its labels */
static double brute(const inst *in, int32_t *best)
{
    int32_t lab[12];
    long total = 1;
    for (int i = 0; i < in->n; i++)
        total *= in->k;
    double opt = INFINITY;
    for (long code = 0; code < total; code++) {
        long c = code;
        size_t size[3] = {0, 0, 0};
        double load[3] = {0, 0, 0};
        for (int i = 0; i < in->n; i++) {
            lab[i] = (int32_t)(c % in->k);
            c /= in->k;
            size[lab[i]]++;
            load[lab[i]] += in->q[i];
        }
        bool ok = true;
        for (int j = 0; j < in->k && ok; j++)
            ok = size[j] >= in->lo[j] && size[j] <= in->hi[j] &&
                 (!in->capacitated || (load[j] >= in->cap_lo[j] - 1e-9 && load[j] <= in->cap_hi[j] + 1e-9));
        for (int e = 0; e < in->np && ok; e++)
            ok = (lab[in->pairs[e].i] == lab[in->pairs[e].j]) == (in->pairs[e].ml != 0);
        if (!ok)
            continue;
        double sse;
        if (ckm_sse_weighted(in->X, in->weighted ? in->w : NULL, (size_t)in->n, 2, lab, (size_t)in->k, &sse, NULL) !=
            CKM_OK)
            continue;
        if (sse < opt) {
            opt = sse;
            memcpy(best, lab, (size_t)in->n * sizeof(int32_t));
        }
    }
    return opt;
}

static ckm_problem *build(const inst *in)
{
    ckm_problem *p = oracle_problem(in->X, in->n, 2, in->k, in->pairs, in->np, in->lo, in->hi);
    if (!p)
        return NULL;
    if (in->weighted && ckm_problem_set_weights(p, in->w, NULL) != CKM_OK)
        CHECK(0);
    if (in->capacitated && (ckm_problem_set_demands(p, in->q, NULL) != CKM_OK ||
                            ckm_problem_set_capacities(p, in->cap_lo, in->cap_hi, NULL) != CKM_OK))
        CHECK(0);
    return p;
}

static void draw(inst *in, int round)
{
    memset(in, 0, sizeof *in);
    in->n = 6 + (int)(unif() * 5); /* 6..10 */
    in->k = 2 + (int)(unif() * 2);
    in->np = oracle_random_instance(unif, in->n, round % 3 == 0 ? 0 : (int)(unif() * 5), in->X, in->pairs);
    for (int i = 0; i < in->n; i++) {
        in->w[i] = 0.5 + 2.0 * unif();
        in->q[i] = 1.0 + (double)(int)(unif() * 3);
    }
    in->weighted = round % 2 == 1;
    for (int j = 0; j < in->k; j++) {
        in->lo[j] = round % 4 == 2 ? 2 : 1;
        in->hi[j] = round % 4 == 2 ? (size_t)in->n / 2 + 1 : (size_t)in->n;
    }
    in->capacitated = round % 5 == 4;
    for (int i = 0; in->capacitated && round % 10 == 9 && i < in->n; i += 3)
        in->q[i] = 0.0; /* points that load no cluster */
    if (in->capacitated) {
        double Q = 0;
        for (int i = 0; i < in->n; i++)
            Q += in->q[i];
        for (int j = 0; j < in->k; j++) {
            in->cap_lo[j] = 0.6 * Q / in->k;
            in->cap_hi[j] = 1.5 * Q / in->k;
        }
    }
}

static ckm_certificate *certify(const ckm_problem *p, const int32_t *lab, size_t T, uint64_t seed, int cuts,
                                ckm_error *rc)
{
    ckm_settings s;
    ckm_settings_default(&s);
    s.seed = seed;
    s.threads = 2;
    s.cut_rounds = cuts;
    ckm_certificate *c = NULL;
    ckm_err err = {CKM_OK, ""};
    *rc = ckm_certify(p, lab, T, &s, &c, &err);
    if (*rc != CKM_OK)
        fprintf(stderr, "certify: %s\n", err.message);
    return c;
}

/* the decomposed bound never exceeds the optimum; the split's identity holds */
static void soundness_tiny(void)
{
    int rounds = 0, feasible = 0, sdp_subsets = 0, tight = 0;
    for (int round = 0; round < 60; round++) {
        inst in;
        draw(&in, round);
        int32_t best[12];
        double opt = brute(&in, best);
        ckm_problem *p = build(&in);
        if (!p)
            continue;
        rounds++;
        int32_t lab[12];
        bool feas = isfinite(opt);
        for (int i = 0; i < in.n; i++) /* the optimum, or (infeasible) any labels */
            lab[i] = feas ? best[i] : (int32_t)(i % in.k);
        feasible += feas;
        for (size_t T = 1; T <= 3; T++)
            for (uint64_t seed = 0; seed < 2; seed++) {
                ckm_error rc;
                ckm_certificate *c = certify(p, lab, T, seed, round % 2 ? 50 : 0, &rc);
                CHECK(rc == CKM_OK && c);
                if (!c)
                    continue;
                if (!feas) {
                    CHECK(c->status == CKM_STATUS_INFEASIBLE || c->violations > 0);
                    ckm_certificate_free(c);
                    continue;
                }
                double scale = 1e-7 * (1.0 + opt);
                CHECK(c->lower_bound <= opt + scale);
                if (!(c->lower_bound <= opt + scale))
                    fprintf(stderr, "  round %d T %zu seed %llu: bound %.12g > optimum %.12g\n", round, T,
                            (unsigned long long)seed, c->lower_bound, opt);
                CHECK(c->violations == 0 && isfinite(c->gap));
                CHECK(c->subsets == T);
                CHECK(c->labels_split_sse <= c->sse + 1e-9 * (1.0 + c->sse)); /* the loss is >= 0 */
                double sum = 0;
                for (size_t t = 0; t < T; t++) {
                    sum += c->subset[t].lower_bound;
                    sdp_subsets += c->subset[t].sdp;
                }
                CHECK_NEAR(sum, c->lower_bound, 1e-9 * (1.0 + opt));
                tight += T == 1 && c->lower_bound >= opt - 1e-4 * (1.0 + opt);
                ckm_certificate_free(c);
            }
        ckm_problem_free(p);
    }
    printf("tiny: %d instances (%d feasible), %d subsets bounded by the SDP, T = 1 tight on %d\n", rounds, feasible,
           sdp_subsets, tight);
    CHECK(rounds >= 50 && feasible >= 30 && sdp_subsets >= 100);
}

/* blobs: n points around k centers (sd), labels = nearest true center */
static void blobs(size_t n, size_t k, double sd, double *X, int32_t *lab)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i % k;
        double u1 = unif() + 1e-12, u2 = unif();
        double r = sd * sqrt(-2 * log(u1));
        X[2 * i] = 4.0 * (double)j + r * cos(6.283185307179586 * u2);
        X[2 * i + 1] = 3.0 * (double)(j % 2) + r * sin(6.283185307179586 * u2);
        lab[i] = (int32_t)j;
    }
}

/* 36 points, k = 3, with pairs: the bound at T = 2, 3, 4 never exceeds exact's optimum */
static void soundness_exact(void)
{
    double X[72];
    int32_t lab[36];
    for (int rep = 0; rep < 2; rep++) {
        blobs(36, 3, 1.2, X, lab);
        ckm_problem *p = NULL;
        CHECK(ckm_problem_create(X, 36, 2, 3, &p, NULL) == CKM_OK);
        for (int e = 0; e < 6; e++) {
            size_t i = (size_t)(unif() * 36), j = (size_t)(unif() * 36);
            if (i != j)
                ckm_problem_add_pair(p, i, j, lab[i] == lab[j] ? CKM_MUST_LINK : CKM_CANNOT_LINK, NULL);
        }
        ckm_settings s;
        ckm_settings_default(&s);
        s.algorithm[0] = 0;
        strcpy(s.algorithm, "exact");
        s.threads = 1;
        ckm_result *res = NULL;
        CHECK(ckm_solve(p, &s, &res, NULL) == CKM_OK && res && res->status == CKM_STATUS_OPTIMAL);
        if (!res || res->status != CKM_STATUS_OPTIMAL) {
            ckm_result_free(res);
            ckm_problem_free(p);
            continue;
        }
        for (size_t T = 2; T <= 4; T++) {
            ckm_error rc;
            ckm_certificate *c = certify(p, res->labels, T, (uint64_t)rep, 50, &rc);
            CHECK(rc == CKM_OK && c && c->lower_bound <= res->lower_bound * (1 + 1e-7) && c->lower_bound > 0);
            if (c)
                printf("36 points, T = %zu: bound %.6f, exact's optimum %.6f (gap %.3g %%)\n", T, c->lower_bound,
                       res->sse, 100 * c->gap);
            ckm_certificate_free(c);
        }
        ckm_result_free(res);
        ckm_problem_free(p);
    }
}

/* T = 1: the whole problem's root bound, as ipc computes it (no cut rounds, one thread);
 * labels violating a pair make certify's run the same relaxation without an incumbent */
static void whole_problem(void)
{
    double X[80];
    int32_t lab[40];
    blobs(40, 3, 1.5, X, lab);
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 40, 2, 3, &p, NULL) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, NULL) == CKM_OK); /* labels 0 and 1 differ */
    CHECK(ckm_problem_add_pair(p, 2, 5, CKM_CANNOT_LINK, NULL) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    strcpy(s.algorithm, "ipc");
    s.cut_rounds = 0;
    s.threads = 1;
    s.n_init = 1;
    ckm_result *res = NULL;
    CHECK(ckm_solve(p, &s, &res, NULL) == CKM_OK && res);
    ckm_certificate *c = NULL;
    s.threads = 1;
    CHECK(ckm_certify(p, lab, 1, &s, &c, NULL) == CKM_OK && c);
    if (c && res) {
        CHECK(c->violations > 0 && isnan(c->gap));
        CHECK_NEAR(c->lower_bound, res->lower_bound, 1e-9 * res->lower_bound);
        printf("T = 1: certify %.10f, ipc root %.10f\n", c->lower_bound, res->lower_bound);
    }
    ckm_certificate_free(c);
    ckm_result_free(res);
    ckm_problem_free(p);
}

/* A first solve to 3e-4 when cut rounds follow (ipc.c) is still polished to full accuracy: with
 * labels far from the optimum (no early stop at them), T = 1 and cut rounds, the bound is at
 * least the root's solved to 1e-5 (cut_rounds 0) less 1e-5 of the total scatter (the solver's
 * tolerance is relative to the data's scale, not to a tiny SSE), whether rounds ran or the
 * separation found no row to add. Tightly separated blobs (exact root: the bound left by the
 * first solve alone is 0 and 0.33 against 0.043 and 1.03) and overlapping ones. */
static void loose_first_solve(void)
{
    double X[120];
    int32_t lab[60], bad[60];
    const double sd[3] = {0.02, 0.1, 2.0};
    for (int c = 0; c < 3; c++) {
        blobs(60, 4, sd[c], X, lab);
        for (int i = 0; i < 60; i++)
            bad[i] = (int32_t)((i * 7 + i / 5) % 4);
        double mx = 0.0, my = 0.0, tss = 0.0;
        for (int i = 0; i < 60; i++) {
            mx += X[2 * i] / 60;
            my += X[2 * i + 1] / 60;
        }
        for (int i = 0; i < 60; i++)
            tss += (X[2 * i] - mx) * (X[2 * i] - mx) + (X[2 * i + 1] - my) * (X[2 * i + 1] - my);
        ckm_problem *p = NULL;
        CHECK(ckm_problem_create(X, 60, 2, 4, &p, NULL) == CKM_OK);
        ckm_error rc0, rc1;
        ckm_certificate *c0 = certify(p, bad, 1, 0, 0, &rc0), *c1 = certify(p, bad, 1, 0, 5, &rc1);
        CHECK(rc0 == CKM_OK && rc1 == CKM_OK && c0 && c1);
        if (c0 && c1) {
            CHECK(c1->lower_bound >= c0->lower_bound - 1e-5 * tss);
            CHECK(c1->lower_bound < c1->sse);
            printf("sd %.2f, T = 1: root to 1e-5 %.10f, loose root + 5 rounds %.10f (scatter %.1f)\n", sd[c],
                   c0->lower_bound, c1->lower_bound, tss);
        }
        ckm_certificate_free(c0);
        ckm_certificate_free(c1);
        ckm_problem_free(p);
    }
}

static ckm_problem *blob_problem(size_t n, size_t k, double sd, double **X, int32_t **lab);

/* the least weighted SSE of the points of subset t alone over every labelling (empty clusters
 * allowed: below the subset's optimum, so any floor that is sound stays above it) that keeps
 * the must-links and cannot-links inside the subset */
static double brute_subset(const inst *in, const size_t *sub, size_t t)
{
    int idx[12], m = 0;
    for (int i = 0; i < in->n; i++)
        if (sub[i] == t)
            idx[m++] = i;
    double Xs[24], ws[12], best = INFINITY;
    int32_t lab[12];
    for (int a = 0; a < m; a++) {
        Xs[2 * a] = in->X[2 * idx[a]];
        Xs[2 * a + 1] = in->X[2 * idx[a] + 1];
        ws[a] = in->w[idx[a]];
    }
    long total = 1;
    for (int a = 0; a < m; a++)
        total *= in->k;
    for (long code = 0; code < total; code++) {
        long c = code;
        for (int a = 0; a < m; a++, c /= in->k)
            lab[a] = (int32_t)(c % in->k);
        bool ok = true;
        for (int e = 0; e < in->np && ok; e++)
            for (int a = 0; a < m && ok; a++)
                for (int b = 0; b < m && ok; b++)
                    if (idx[a] == in->pairs[e].i && idx[b] == in->pairs[e].j)
                        ok = in->pairs[e].ml ? lab[a] == lab[b] : lab[a] != lab[b];
        double sse;
        if (ok && ckm_sse_weighted(Xs, in->weighted ? ws : NULL, (size_t)m, 2, lab, (size_t)in->k, &sse, NULL) ==
                      CKM_OK)
            best = fmin(best, sse);
    }
    return best;
}

/* The split's floor (certify_floor.c): on tiny instances with pairs and weights, every
 * subset's least SSE lies between its brute-force optimum and its restricted labels, so
 * optimum-sum <= split_floor_sse <= labels_split_sse and lower_bound <= split_floor_sse; with
 * labels far from any subset's optimum (alternating on random points) the floor is strictly
 * below the restricted sum; with cannot-links it stays above the optimum that honours them;
 * not measured with sizes or violated labels. The
 * subset count chosen for a time limit is coarsened when the floor exceeds 2 % and the first
 * subsets' SDPs finish within their share. */
static void split_floor(void)
{
    int measured = 0, below = 0;
    for (int round = 0; round < 40; round++) {
        inst in;
        draw(&in, round);
        in.capacitated = false;
        for (int j = 0; j < in.k; j++) {
            in.lo[j] = 1;
            in.hi[j] = (size_t)in.n;
        }
        ckm_problem *p = build(&in);
        if (!p)
            continue;
        int32_t lab[12];
        for (int i = 0; i < in.n; i++) /* alternating labels, then each must-link's second end follows its first */
            lab[i] = (int32_t)(i % in.k);
        for (int pass = 0; pass < in.np; pass++)
            for (int e = 0; e < in.np; e++)
                if (in.pairs[e].ml)
                    lab[in.pairs[e].j] = lab[in.pairs[e].i];
        for (size_t T = 2; T <= 3; T++) {
            ckm_error rc;
            ckm_certificate *c = certify(p, lab, T, (uint64_t)round, 0, &rc);
            CHECK(rc == CKM_OK && c);
            if (!c)
                continue;
            if (c->violations > 0) {
                CHECK(isnan(c->split_floor_sse));
                ckm_certificate_free(c);
                continue;
            }
            double tol = 1e-9 * (1.0 + c->sse), opt = 0.0;
            for (size_t t = 0; t < T; t++)
                opt += brute_subset(&in, c->subset_of, t);
            measured += isfinite(c->split_floor_sse);
            CHECK(isfinite(c->split_floor_sse));
            CHECK(c->split_floor_sse >= opt - tol);
            if (!(c->split_floor_sse >= opt - tol))
                fprintf(stderr, "  round %d T %zu: floor %.12g below the subsets' optima %.12g\n", round, T,
                        c->split_floor_sse, opt);
            CHECK(c->split_floor_sse <= c->labels_split_sse + tol);
            CHECK(c->lower_bound <= c->split_floor_sse + tol);
            below += c->split_floor_sse < c->labels_split_sse - tol;
            ckm_certificate_free(c);
        }
        ckm_problem_free(p);
    }
    printf("split floor: measured on %d certificates, below the restricted labels on %d\n", measured, below);
    CHECK(measured >= 50 && below >= measured / 2);

    /* measured with a cannot-link (kmeans' labels that break it do not count); not with size
     * bounds */
    double X[80];
    int32_t lab[40];
    blobs(40, 2, 1.0, X, lab);
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 40, 2, 2, &p, NULL) == CKM_OK);
    ckm_error rc;
    ckm_certificate *c = certify(p, lab, 2, 1, 0, &rc);
    CHECK(c && isfinite(c->split_floor_sse));
    ckm_certificate_free(c);
    CHECK(ckm_problem_set_size_range(p, 5, 35, NULL) == CKM_OK);
    c = certify(p, lab, 2, 1, 0, &rc);
    CHECK(c && isnan(c->split_floor_sse));
    ckm_certificate_free(c);
    CHECK(ckm_problem_set_size_range(p, 1, 40, NULL) == CKM_OK);
    CHECK(ckm_problem_add_pair(p, 0, 1, CKM_CANNOT_LINK, NULL) == CKM_OK); /* labels 0, 1 differ: met */
    c = certify(p, lab, 2, 1, 0, &rc);
    CHECK(c && c->violations == 0 && isfinite(c->split_floor_sse) && c->lower_bound <= c->split_floor_sse);
    ckm_certificate_free(c);
    ckm_problem_free(p);

    /* re-planning: 300 points in 3 separated blobs, T chosen for a 2 s limit on one thread; the
     * true labels leave a floor near 0 and keep T; with every fifth point moved to the next
     * cluster the floor is far above 2 %, and on an idle machine the first subset's SDP (no cut
     * rounds, about 100 groups of separated points) finishes within its share, so the groups
     * are re-split into fewer subsets (once or twice, as fast as the machine is). The rule,
     * whatever the machine's speed: at most two halvings (the floor is above 2 % and a probe
     * that finished needs no comparison), and a split that kept its count while another
     * halving was allowed did so because its first subset (the probe, one worker) did not
     * finish within its share (the comparison may then coarsen it to ceil(3 T / 5) at most
     * twice, never below two halvings). */
    enum { N = 300 };
    double *Xb;
    int32_t *lb;
    p = blob_problem(N, 3, 0.3, &Xb, &lb);
    ckm_settings s;
    ckm_settings_default(&s);
    s.time_limit_s = 2.0;
    s.threads = 1;
    s.cut_rounds = 0;
    size_t T_good = 0, T_bad = 0;
    c = NULL;
    CHECK(ckm_certify(p, lb, 0, &s, &c, NULL) == CKM_OK && c);
    if (c) {
        T_good = c->subsets;
        CHECK(isfinite(c->split_floor_sse) && c->sse - c->split_floor_sse <= 0.02 * c->sse);
    }
    ckm_certificate_free(c);
    for (size_t i = 0; i < N; i += 5)
        lb[i] = (lb[i] + 1) % 3;
    c = NULL;
    CHECK(ckm_certify(p, lb, 0, &s, &c, NULL) == CKM_OK && c);
    bool probe_stopped = false, could_coarsen = false;
    if (c) {
        T_bad = c->subsets;
        CHECK(isfinite(c->split_floor_sse) && c->lower_bound <= c->split_floor_sse * (1 + 1e-9));
        could_coarsen = c->sse - c->split_floor_sse > 0.02 * c->sse && T_bad >= 2 &&
                        T_bad > ((T_good + 1) / 2 + 1) / 2;
        probe_stopped = c->subset[0].status == CKM_STATUS_TIME_LIMIT;
    }
    ckm_certificate_free(c);
    printf("re-planning: %zu subsets for the true labels, %zu for perturbed ones%s\n", T_good, T_bad,
           could_coarsen ? " (kept though a coarsening was allowed: its probe must have been stopped)" : "");
    CHECK(T_good >= 2 && T_bad <= T_good && T_bad >= ((T_good + 1) / 2 + 1) / 2);
    CHECK(!could_coarsen || probe_stopped);
    free(Xb);
    free(lb);
    ckm_problem_free(p);
}

/* Re-planning by measurement keeps the certificate consistent whatever path the machine's
 * speed takes it down (a coarser split tried and kept; tried and refused, the finer one made
 * again with its probes' bounds; not worth trying, the same): 3000 overlapping points, k = 6,
 * a 4 s limit on one thread (on an idle machine: 59 subsets, 36 not worth it, 59 made again).
 * The count is the one chosen for the limit (seen with size bounds the labels meet, which
 * turn re-planning off) or one or two coarsenings of it (halvings or ceil(3 T / 5)); every subset's record counts its
 * points, its bound is at most its labels' restricted SSE, the bounds add up to the whole's,
 * which is at most the split's floor; the first subset (a probe, restored after a re-split)
 * has its SDP's record and a bound above its groups' scatter (0: singletons). */
static void replan_paths(void)
{
    enum { N = 3000, K = 6 };
    double *X = malloc(2 * N * sizeof(double));
    int32_t *lab = malloc(N * sizeof(int32_t));
    double cx[K], cy[K];
    for (int j = 0; j < K; j++) {
        cx[j] = 8.0 * unif() - 4.0;
        cy[j] = 8.0 * unif() - 4.0;
    }
    for (int i = 0; i < N; i++) {
        int j = i % K;
        double u1 = unif() + 1e-12, u2 = unif(), rr = sqrt(-2 * log(u1));
        X[2 * i] = cx[j] + rr * cos(6.283185307179586 * u2);
        X[2 * i + 1] = cy[j] + rr * sin(6.283185307179586 * u2);
    }
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, N, 2, K, &p, NULL) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    strcpy(s.algorithm, "kmeans");
    s.n_init = 3;
    s.threads = 1;
    ckm_result *res = NULL;
    CHECK(ckm_solve(p, &s, &res, NULL) == CKM_OK && res && res->has_labels);
    if (res && res->has_labels)
        memcpy(lab, res->labels, N * sizeof(int32_t));
    ckm_result_free(res);
    ckm_settings_default(&s);
    s.time_limit_s = 4.0;
    s.threads = 1;
    size_t T0 = 0;
    ckm_problem *q = NULL; /* the same with size bounds the labels meet: no floor, no re-plan */
    CHECK(ckm_problem_create(X, N, 2, K, &q, NULL) == CKM_OK &&
          ckm_problem_set_size_range(q, 1, N - 1, NULL) == CKM_OK);
    ckm_certificate *c = NULL;
    CHECK(ckm_certify(q, lab, 0, &s, &c, NULL) == CKM_OK && c && isnan(c->split_floor_sse));
    if (c)
        T0 = c->subsets;
    ckm_certificate_free(c);
    ckm_problem_free(q);
    c = NULL;
    CHECK(ckm_certify(p, lab, 0, &s, &c, NULL) == CKM_OK && c);
    if (c) {
        size_t T = c->subsets, T1 = (3 * T0 + 4) / 5, T2 = (3 * T1 + 4) / 5, H1 = (T0 + 1) / 2;
        size_t H2 = (H1 + 1) / 2, HC = (3 * H1 + 4) / 5, CH = (T1 + 1) / 2; /* halvings and 3/5 steps */
        CHECK(T == T0 || T == T1 || T == T2 || T == H1 || T == H2 || T == HC || T == CH);
        size_t *count = calloc(T, sizeof(size_t));
        for (size_t i = 0; i < N && count; i++)
            if (c->subset_of[i] < T)
                count[c->subset_of[i]]++;
        double sum = 0.0;
        for (size_t t = 0; t < T && count; t++) {
            CHECK(c->subset[t].points == count[t] && c->subset[t].groups == count[t]);
            CHECK(c->subset[t].lower_bound <= c->subset[t].labels_sse * (1 + 1e-9));
            sum += c->subset[t].lower_bound;
        }
        CHECK_NEAR(sum, c->lower_bound, 1e-9 * c->lower_bound);
        CHECK(c->lower_bound <= c->split_floor_sse * (1 + 1e-9));
        CHECK(c->subset[0].sdp == 1 && c->subset[0].seconds > 0.0 && c->subset[0].lower_bound > 0.0);
        printf("re-planning paths: %zu subsets chosen for the limit, %zu kept (%zu and %zu allowed), gap %.3g %%\n",
               T0, T, T1, T2, 100 * c->gap);
        free(count);
    }
    ckm_certificate_free(c);
    ckm_problem_free(p);
    free(X);
    free(lab);
}

/* n blob points (k blobs, sd) as a problem; X and the true labels malloc'ed into *X, *lab */
static ckm_problem *blob_problem(size_t n, size_t k, double sd, double **X, int32_t **lab)
{
    *X = malloc(2 * n * sizeof(double));
    *lab = malloc(n * sizeof(int32_t));
    blobs(n, k, sd, *X, *lab);
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(*X, n, 2, k, &p, NULL) == CKM_OK);
    return p;
}

/* the split: groups whole, balanced counts, determinism, identity with the loss */
static void split(void)
{
    enum { N = 400 };
    double *X;
    int32_t *lab;
    ckm_problem *p = blob_problem(N, 4, 1.0, &X, &lab);
    for (size_t i = 0; i + 10 < N; i += 40) /* must-link chains i, i+4, i+8 (same blob) */
        CHECK(ckm_problem_add_pair(p, i, i + 4, CKM_MUST_LINK, NULL) == CKM_OK &&
              ckm_problem_add_pair(p, i + 4, i + 8, CKM_MUST_LINK, NULL) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    s.cut_rounds = 0;
    s.seed = 7;
    ckm_certificate *a = NULL, *b = NULL;
    CHECK(ckm_certify(p, lab, 5, &s, &a, NULL) == CKM_OK && a);
    CHECK(ckm_certify(p, lab, 5, &s, &b, NULL) == CKM_OK && b);
    if (a && b) {
        CHECK(memcmp(a->subset_of, b->subset_of, N * sizeof(size_t)) == 0);
        CHECK(a->lower_bound == b->lower_bound);
        bool whole = true;
        for (size_t i = 0; i + 10 < N; i += 40)
            whole &= a->subset_of[i] == a->subset_of[i + 4] && a->subset_of[i + 4] == a->subset_of[i + 8];
        CHECK(whole);
        size_t gmin = SIZE_MAX, gmax = 0;
        for (size_t t = 0; t < 5; t++) {
            gmin = a->subset[t].groups < gmin ? a->subset[t].groups : gmin;
            gmax = a->subset[t].groups > gmax ? a->subset[t].groups : gmax;
        }
        CHECK(a->groups == N - 20 && gmax - gmin <= 1);
        /* SSE = sum of restricted SSEs + loss, loss >= 0; recompute the restricted SSEs */
        double sum = 0;
        for (size_t t = 0; t < 5; t++)
            sum += a->subset[t].labels_sse;
        CHECK_NEAR(sum, a->labels_split_sse, 1e-9 * a->sse);
        CHECK(a->labels_split_sse <= a->sse && a->labels_split_sse > 0.99 * a->sse);
        printf("split: 5 subsets of %zu-%zu groups, loss %.4g %% of the SSE, bound %.6f, gap %.3g %%\n", gmin, gmax,
               100 * (a->sse - a->labels_split_sse) / a->sse, a->lower_bound, 100 * a->gap);
        double mine = 0;
        for (size_t t = 0; t < 5; t++) {
            int32_t sub[N];
            size_t m = 0;
            double Xs[2 * N];
            for (size_t i = 0; i < N; i++)
                if (a->subset_of[i] == t) {
                    Xs[2 * m] = X[2 * i];
                    Xs[2 * m + 1] = X[2 * i + 1];
                    sub[m++] = lab[i];
                }
            double v;
            CHECK(ckm_sse(Xs, m, 2, sub, 4, &v, NULL) == CKM_OK);
            mine += v;
            CHECK_NEAR(v, a->subset[t].labels_sse, 1e-9 * v);
        }
        CHECK_NEAR(mine, a->labels_split_sse, 1e-9 * mine);
    }
    ckm_certificate_free(a);
    ckm_certificate_free(b);
    ckm_problem_free(p);
    free(X);
    free(lab);
}

static int stop_now(void *u)
{
    (void)u;
    return 1;
}

/* a stop request after `after` polls (one thread: the polls come in a fixed order) */
#define POLLS 1200
static int stop_after(void *u)
{
    long *left = u;
    return --*left < 0;
}

/* stops: an interrupt before anything, one after some subsets, then a time limit far below the work */
static void stops(void)
{
    enum { N = 3000 };
    double *X;
    int32_t *lab;
    ckm_problem *p = blob_problem(N, 3, 1.5, &X, &lab);
    CHECK(ckm_problem_add_pair(p, 0, 3, CKM_MUST_LINK, NULL) == CKM_OK);
    double opt_ub;
    CHECK(ckm_sse(X, N, 2, lab, 3, &opt_ub, NULL) == CKM_OK);
    ckm_settings s;
    ckm_settings_default(&s);
    s.should_stop = stop_now;
    ckm_certificate *c = NULL;
    CHECK(ckm_certify(p, lab, 4, &s, &c, NULL) == CKM_OK && c);
    if (c) {
        CHECK(c->status == CKM_STATUS_INTERRUPTED);
        CHECK(c->lower_bound >= 0 && c->lower_bound <= opt_ub);
        printf("interrupted at once: bound %.6g (the groups' scatter), %s\n", c->lower_bound, c->message);
    }
    ckm_certificate_free(c);
    ckm_settings_default(&s);
    { /* a stop after some subsets: 600 points in 12 subsets of 50 */
        double *X2;
        int32_t *lab2;
        ckm_problem *p2 = blob_problem(600, 3, 1.5, &X2, &lab2);
        double ub2;
        CHECK(ckm_sse(X2, 600, 2, lab2, 3, &ub2, NULL) == CKM_OK);
        long left = POLLS;
        s.should_stop = stop_after;
        s.stop_user = &left;
        s.threads = 1;
        s.cut_rounds = 0;
        c = NULL;
        CHECK(ckm_certify(p2, lab2, 12, &s, &c, NULL) == CKM_OK && c);
        if (c) {
            size_t bounded = 0, stopped = 0;
            for (size_t t = 0; t < c->subsets; t++) {
                bounded += c->subset[t].status == CKM_STATUS_OPTIMAL || c->subset[t].status == CKM_STATUS_FEASIBLE;
                stopped += c->subset[t].status == CKM_STATUS_INTERRUPTED;
            }
            CHECK(c->status == CKM_STATUS_INTERRUPTED && bounded > 0 && stopped > 0);
            CHECK(c->lower_bound <= ub2 && c->lower_bound > 0.05 * ub2);
            printf("interrupted after %zu of 12 subsets: bound %.6g, gap %.3g %%\n", bounded, c->lower_bound,
                   100 * c->gap);
        }
        ckm_certificate_free(c);
        ckm_problem_free(p2);
        free(X2);
        free(lab2);
    }
    ckm_settings_default(&s);
    s.time_limit_s = 0.3;
    c = NULL;
    CHECK(ckm_certify(p, lab, 2, &s, &c, NULL) == CKM_OK && c);
    if (c) {
        CHECK(c->status == CKM_STATUS_TIME_LIMIT || c->status == CKM_STATUS_FEASIBLE ||
              c->status == CKM_STATUS_OPTIMAL);
        CHECK(c->lower_bound >= 0 && c->lower_bound <= opt_ub * (1 + 1e-9));
        printf("time limit 0.3 s: %s, bound %.6g, gap %.3g %%\n", ckm_status_string(c->status), c->lower_bound,
               100 * c->gap);
    }
    ckm_certificate_free(c);
    ckm_problem_free(p);
    free(X);
    free(lab);
}

/* refusals with a message; infeasible problems; JSON */
static void refusals(void)
{
    double X[20] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 1, 6, 1, 7, 1, 8, 1, 9, 1};
    int32_t lab[10] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 10, 2, 2, &p, NULL) == CKM_OK);
    ckm_certificate *c = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_certify(p, NULL, 0, NULL, &c, &err) == CKM_ERR_INVALID && !c && strstr(err.message, "labels"));
    int32_t bad[10] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 2};
    CHECK(ckm_certify(p, bad, 0, NULL, &c, &err) == CKM_ERR_INVALID && strstr(err.message, "point 9"));
    CHECK(ckm_certify(p, lab, 11, NULL, &c, &err) == CKM_ERR_INVALID && strstr(err.message, "groups"));
    ckm_settings s;
    ckm_settings_default(&s);
    s.gap = 1.5;
    CHECK(ckm_certify(p, lab, 1, &s, &c, &err) == CKM_ERR_INVALID && strstr(err.message, "gap"));
    CHECK(ckm_problem_add_soft_pair(p, 0, 9, CKM_MUST_LINK, 0.5, NULL) == CKM_OK);
    CHECK(ckm_certify(p, lab, 1, NULL, &c, &err) == CKM_ERR_UNSUPPORTED && strstr(err.message, "soft"));
    ckm_problem_free(p);
    /* k = 2 and a cannot-link triangle: infeasible, proven in preprocessing */
    CHECK(ckm_problem_create(X, 10, 2, 2, &p, NULL) == CKM_OK);
    ckm_problem_add_pair(p, 0, 1, CKM_CANNOT_LINK, NULL);
    ckm_problem_add_pair(p, 1, 2, CKM_CANNOT_LINK, NULL);
    ckm_problem_add_pair(p, 0, 2, CKM_CANNOT_LINK, NULL);
    CHECK(ckm_certify(p, lab, 0, NULL, &c, &err) == CKM_OK && c && c->status == CKM_STATUS_INFEASIBLE &&
          c->lower_bound == INFINITY && c->violations > 0 && c->message[0]);
    char *json = NULL;
    CHECK(c && ckm_certificate_to_json(c, &json, NULL) == CKM_OK && strstr(json, "\"status\": \"infeasible\"") &&
          strstr(json, "\"lower_bound\": \"inf\""));
    ckm_free(json);
    ckm_certificate_free(c);
    ckm_problem_free(p);
    /* a feasible run's report names every subset */
    CHECK(ckm_problem_create(X, 10, 2, 2, &p, NULL) == CKM_OK);
    c = NULL;
    CHECK(ckm_certify(p, lab, 2, NULL, &c, NULL) == CKM_OK && c && c->violations == 0);
    json = NULL;
    CHECK(c && ckm_certificate_to_json(c, &json, NULL) == CKM_OK && strstr(json, "\"subsets\": 2") &&
          strstr(json, "\"subset\": [") && strstr(json, "\"labels_sse\""));
    if (c)
        printf("10 points, T = 2: %s, bound %.6f, SSE %.6f\n", ckm_status_string(c->status), c->lower_bound, c->sse);
    ckm_free(json);
    ckm_certificate_free(c);
    ckm_problem_free(p);
}

/* the exact answer where the labelling is forced: k = 1 (every point in one cluster, with
 * and without sample weights, for any subset count) and one must-link group per cluster:
 * the bound equals the SSE, the gap is 0, the status optimal */
static void forced(void)
{
    double X[20] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 1, 6, 1, 7, 1, 8, 1, 9, 1};
    double w[10] = {1, 2, 1, 3, 1, 1, 0.5, 1, 2, 1};
    int32_t zero[10] = {0}, two[10] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    for (int weighted = 0; weighted < 2; weighted++)
        for (size_t T = 0; T <= 1; T++) {
            ckm_problem *p = NULL;
            CHECK(ckm_problem_create(X, 10, 2, 1, &p, NULL) == CKM_OK);
            if (weighted)
                CHECK(ckm_problem_set_weights(p, w, NULL) == CKM_OK);
            ckm_certificate *c = NULL;
            ckm_err err = {CKM_OK, ""};
            CHECK(ckm_certify(p, zero, T, NULL, &c, &err) == CKM_OK && c);
            if (c) {
                CHECK(c->status == CKM_STATUS_OPTIMAL && c->subsets == 1 && c->gap == 0.0);
                CHECK_NEAR(c->lower_bound, c->sse, 1e-12 * c->sse);
                printf("k = 1%s, T = %zu: SSE %.10f, bound %.10f\n", weighted ? " weighted" : "", T, c->sse,
                       c->lower_bound);
            }
            ckm_certificate_free(c);
            ckm_problem_free(p);
        }
    /* two groups, k = 2: the split labels are the only feasible ones */
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(X, 10, 2, 2, &p, NULL) == CKM_OK);
    for (int i = 1; i < 10; i++)
        if (i != 5)
            CHECK(ckm_problem_add_pair(p, i < 5 ? 0 : 5, i, CKM_MUST_LINK, NULL) == CKM_OK);
    ckm_certificate *c = NULL;
    CHECK(ckm_certify(p, two, 0, NULL, &c, NULL) == CKM_OK && c && c->groups == 2);
    double sse = 0.0; /* by hand: x 0..4 around 2 and 5..9 around 7, y constant in each */
    for (int i = 0; i < 10; i++)
        sse += (X[2 * i] - (i < 5 ? 2.0 : 7.0)) * (X[2 * i] - (i < 5 ? 2.0 : 7.0));
    if (c) {
        CHECK(c->status == CKM_STATUS_OPTIMAL && c->gap == 0.0);
        CHECK_NEAR(c->sse, sse, 1e-12);
        CHECK_NEAR(c->lower_bound, sse, 1e-12);
    }
    ckm_certificate_free(c);
    ckm_problem_free(p);
}

int main(void)
{
    forced();
    soundness_tiny();
    soundness_exact();
    whole_problem();
    loose_first_solve();
    split();
    split_floor();
    replan_paths();
    stops();
    refusals();
    return ck_report();
}
