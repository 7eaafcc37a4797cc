/*
 * test_sdp.c -- the Peng-Wei relaxation and its solver (src/sdp): the adjoint identity
 * <A(X), y> = <X, A*(y)>; (AA*)^{-1} (sdp_aat.c) inverts A A* built from those maps, with and
 * without cannot-link rows; the hand-computed safe-bound certificate of sdp-notes 4.1
 * (points 0, 1, 4, 5, k = 2, optimum 1) and its perturbed duals (1.0, 0.931768, 0.477319,
 * where the naive dual value would exceed the optimum); the solver reaching the optimum
 * there and on the must-link / cannot-link variant (26/3); and on random tiny instances
 * the safe bound never exceeds the brute-force optimum and is within 1 % of it on
 * well-separated data; with cutting planes (pair, triangle, clique rounds) the bound stays
 * below the optimum after every round, the cut maps are adjoint (<B(X), u> = <X, B*(u)>),
 * and the bound closes to within 1e-3 of the optimum on most instances; with exact sizes the
 * size rows (1/c_max <= Z_ii <= 1/c_min) keep the bound below the sized optimum and lift it
 * above the size-free optimum; cuts inherited by a branch-and-cut child (exported on points,
 * imported on the child's groups) keep its bound below the child's optimum. The cut
 * system's CG solve (sdp_cutsys.c) satisfies the full (y, u) system built densely from the
 * operator maps themselves (K = A A*, A B*, B B* + I column by column), from a random warm
 * start, to 1e-6 of the right-hand side. Separation with two threads (apex halves; the
 * pipelined random triples when s > 300) adds the same rows as with one, and the projection
 * in two halves reaches the same bound as one thread. A pool grown past its first cap
 * (ckm_sdp_grow_cuts) takes rows past it and keeps every bound below a labelling's SSE; the
 * separation counts the violated rows a full pool turned away (none while it has room), and
 * the crowding test that grows certify's pools (ckm_ipc_pool_crowded) holds on hand-made
 * round sequences. The
 * hopeless stop gives up a solve whose bound cannot reach an incumbent far above it, and not
 * one whose incumbent it reaches.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "../oracle.h"
#include "ipc.h"
#include "sdp_impl.h"
#include "sdp_fixture.h"

static uint64_t st = 17;
static double unif(void) { return ck_unif(&st); }

static void test_adjoint(void)
{
    double X[7 * 2];
    for (int i = 0; i < 14; i++)
        X[i] = unif();
    oracle_pair cl[2] = {{0, 3, 0}, {2, 5, 0}};
    ckm_problem *p = NULL;
    ckm_reduced *r = sdp_reduce(X, 7, 2, 3, cl, 2, NULL, NULL, &p);
    ckm_sdp *sdp = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(r && ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
    if (sdp) {
        size_t s = 7, m = ckm_sdp_dual_size(sdp);
        CHECK(m == 7 + 1 + 2);
        double Z[49], At[49], y[10], ax[10];
        for (size_t i = 0; i < s; i++)
            for (size_t j = 0; j <= i; j++)
                Z[i * s + j] = Z[j * s + i] = unif() - 0.5;
        for (size_t q = 0; q < m; q++)
            y[q] = unif() - 0.5;
        memset(At, 0, sizeof At);
        ckm_sdp_At_add(sdp, y, 1.0, At);
        ckm_sdp_A(sdp, Z, ax);
        double l = 0, rr = 0;
        for (size_t q = 0; q < m; q++)
            l += ax[q] * y[q];
        for (size_t q = 0; q < s * s; q++)
            rr += Z[q] * At[q];
        CHECK(fabs(l - rr) <= 1e-12);
    }
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

/* (AA*)^{-1} in closed form with the links' block elimination (sdp_aat.c) against AA* built
 * from the operator maps themselves: ckm_sdp_kinv(A(A*(y))) = y, on groups of unequal mass
 * (two must-links: v is not constant) with links that share a group, and without links. */
static void test_aat_inverse(void)
{
    uint64_t own = 29; /* its own stream: the other tests' data stay as they were */
    double X[9 * 2];
    for (int i = 0; i < 18; i++)
        X[i] = ck_unif(&own);
    oracle_pair with_links[] = {{0, 1, 1}, {1, 2, 1}, {0, 3, 0}, {3, 5, 0}, {0, 5, 0}, {6, 8, 0}};
    for (int np = 6; np >= 2; np -= 4) { /* np = 2: the must-links alone, no link rows */
        ckm_problem *p = NULL;
        ckm_reduced *r = sdp_reduce(X, 9, 2, 3, with_links, np, NULL, NULL, &p);
        ckm_sdp *sdp = NULL;
        ckm_err err = {CKM_OK, ""};
        CHECK(r && ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
        if (sdp) {
            size_t s = sdp->s, m = ckm_sdp_dual_size(sdp);
            CHECK(s == 7 && m == s + 1 + (np == 6 ? 4u : 0u));
            double At[49], y[12], x[12], worst = 0.0;
            for (size_t q = 0; q < m; q++)
                y[q] = ck_unif(&own) - 0.5;
            memset(At, 0, sizeof At);
            ckm_sdp_At_add(sdp, y, 1.0, At);
            ckm_sdp_A(sdp, At, x);
            ckm_sdp_kinv(sdp, x);
            for (size_t q = 0; q < m; q++)
                worst = fmax(worst, fabs(x[q] - y[q]));
            CHECK(worst <= 1e-12);
        }
        ckm_sdp_free(sdp);
        ckm_reduced_free(r);
        ckm_problem_free(p);
    }
}

static void test_certificate(void)
{
    double X[4] = {0, 1, 4, 5};
    ckm_problem *p = NULL;
    ckm_reduced *r = sdp_reduce(X, 4, 1, 2, NULL, 0, NULL, NULL, &p);
    ckm_sdp *sdp = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(r && ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
    if (!sdp)
        return;
    /* sdp-notes 4.1: y_R = (-2, 2, 2, -2), y_T = -8, V_13 = V_24 = V_23 = 2, V_14 = 10 (1-based) */
    double y[5] = {-2, 2, 2, -2, -8}, V[16];
    memset(V, 0, sizeof V);
    V[0 * 4 + 2] = V[2 * 4 + 0] = 2;
    V[1 * 4 + 3] = V[3 * 4 + 1] = 2;
    V[1 * 4 + 2] = V[2 * 4 + 1] = 2;
    V[0 * 4 + 3] = V[3 * 4 + 0] = 10;
    CHECK(fabs(ckm_sdp_safe_bound(sdp, y, V) - 1.0) <= 1e-9);
    y[4] = -7.9; /* P1: the naive value 1.2 exceeds the optimum */
    CHECK(fabs(ckm_sdp_safe_bound(sdp, y, V) - 1.0) <= 1e-9);
    y[4] = -8;
    y[0] = -1.7; /* P2 */
    CHECK(fabs(ckm_sdp_safe_bound(sdp, y, V) - 0.931768) <= 1e-6);
    y[0] = -2;
    V[0 * 4 + 3] = V[3 * 4 + 0] = 9; /* P3 */
    CHECK(fabs(ckm_sdp_safe_bound(sdp, y, V) - 0.477319) <= 1e-6);
    V[0] = -1e-3; /* a negative V is not a certificate */
    CHECK(isnan(ckm_sdp_safe_bound(sdp, y, V)));
    /* the solver: tight relaxation, bound 1 */
    ckm_sdp_params par;
    ckm_sdp_params_default(&par);
    ckm_sdp_info info;
    CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
    CHECK(info.converged && info.lower_bound <= 1.0 + 1e-9 && info.lower_bound >= 1.0 - 1e-4);
    printf("4 points: bound %.9f after %d iterations\n", info.lower_bound, info.iterations);
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(p);
    /* with must-link {3,4} and cannot-link {1,2} (1-based): optimum {0},{1,4,5} = 26/3 */
    oracle_pair pr[2] = {{2, 3, 1}, {0, 1, 0}};
    r = sdp_reduce(X, 4, 1, 2, pr, 2, NULL, NULL, &p);
    CHECK(r && r->s == 3 && ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
    if (sdp) {
        CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
        CHECK(info.lower_bound <= 26.0 / 3.0 + 1e-9 && info.lower_bound >= 26.0 / 3.0 - 1e-4);
        printf("with links: bound %.9f after %d iterations\n", info.lower_bound, info.iterations);
    }
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

static void test_oracle(void)
{
    int tight = 0, separated = 0, checked = 0;
    for (int inst = 0; inst < 30; inst++) {
        int n = 7 + inst % 3, k = 2 + inst % 2, sep = inst % 2 == 0;
        double X[20];
        for (int i = 0; i < n; i++) {
            int g = i % k;
            X[2 * i] = (sep ? 10.0 * g : 0.0) + (sep ? 1.0 : 10.0) * unif();
            X[2 * i + 1] = (sep ? 5.0 * (g % 2) : 0.0) + (sep ? 1.0 : 10.0) * unif();
        }
        oracle_pair pairs[4];
        int np = 0;
        if (inst % 3 != 0) /* links consistent with the groups i % k */
            for (int q = 0; q < 2; q++) {
                int i = (int)(unif() * n), j = (int)(unif() * n);
                if (i != j && !(np == 1 && ((pairs[0].i == i && pairs[0].j == j) || (pairs[0].i == j && pairs[0].j == i))))
                    pairs[np++] = (oracle_pair){i, j, i % k == j % k};
            }
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = NULL;
        ckm_reduced *r = sdp_reduce(X, n, 2, k, pairs, np, NULL, NULL, &p);
        if (!r || r->s < 2 || isinf(opt)) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        ckm_sdp_params par;
        ckm_sdp_info info;
        ckm_sdp *sdp = sdp_root(r, 1e-5, 0, &par, &info); /* 1e-5: the default tolerance */
        if (!sdp) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        checked++;
        CHECK(info.lower_bound <= opt + 1e-9 * (1.0 + opt));
        if (info.lower_bound > opt + 1e-9 * (1.0 + opt))
            printf("  instance %d: bound %.9f above the optimum %.9f\n", inst, info.lower_bound, opt);
        if (sep) {
            separated++;
            tight += info.lower_bound >= 0.99 * opt;
        }
        ckm_sdp_free(sdp);
        ckm_reduced_free(r);
        ckm_problem_free(p);
    }
    CHECK(checked >= 25 && tight == separated);
    printf("oracle: %d instances, bound within 1%% of the optimum on %d of %d well-separated\n", checked, tight,
           separated);
}

static int systems_checked;
static double system_worst;

/* ckm_sdp_cut_solve against [K AB; AB' G] [y; u] = [ry; ru] assembled from the maps:
 * column q of K = A(A*(e_q)), of AB = A(B*(e_l)), column l of G = B(B*(e_l)) + e_l. */
static void check_cut_system(ckm_sdp *sdp)
{
    size_t s = sdp->s, m = sdp->m, nb = sdp->nb, N = m + nb, ss = s * s;
    double *Sys = calloc(N * N, sizeof(double)), *T = malloc(ss * sizeof(double)), *e = calloc(N, sizeof(double));
    double *col = malloc(N * sizeof(double)), *rhs = malloc(N * sizeof(double)), *y = malloc(m * sizeof(double));
    double *ru = malloc(nb * sizeof(double));
    for (size_t c = 0; c < N; c++) {
        memset(T, 0, ss * sizeof(double));
        memset(e, 0, N * sizeof(double));
        e[c] = 1.0;
        ckm_sdp_At_add(sdp, e, 1.0, T);
        ckm_sdp_Bt_add(sdp, e + m, 1.0, T);
        ckm_sdp_A(sdp, T, col);
        ckm_sdp_B(sdp, T, col + m);
        if (c >= m)
            col[c] += 1.0;
        for (size_t q = 0; q < N; q++)
            Sys[q * N + c] = col[q];
    }
    for (size_t q = 0; q < N; q++)
        rhs[q] = unif() - 0.5;
    memcpy(y, rhs, m * sizeof(double));
    memcpy(ru, rhs + m, nb * sizeof(double));
    for (size_t l = 0; l < nb; l++)
        sdp->u[l] = unif() - 0.5; /* any warm start */
    ckm_sdp_cut_solve(sdp, y, ru);
    double res = 0.0, rn = 0.0;
    for (size_t q = 0; q < N; q++) {
        double v = -rhs[q];
        for (size_t c = 0; c < N; c++)
            v += Sys[q * N + c] * (c < m ? y[c] : sdp->u[c - m]);
        res += v * v;
        rn += rhs[q] * rhs[q];
    }
    res = sqrt(res / rn);
    CHECK(res <= 1e-6);
    systems_checked++;
    system_worst = fmax(system_worst, res);
    free(Sys), free(T), free(e), free(col), free(rhs), free(y), free(ru);
}

static void test_cuts(void)
{
    int closed = 0, checked = 0, rounds_total = 0;
    ckm_rng rng;
    ckm_rng_seed(&rng, 3, 0);
    for (int inst = 0; inst < 16; inst++) {
        int n = 8 + inst % 3, k = 2 + inst % 2;
        double X[20];
        oracle_pair pairs[4];
        int np = oracle_random_instance(unif, n, inst % 2 ? 3 : 0, X, pairs);
        size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        ckm_problem *p = NULL;
        ckm_reduced *r = sdp_reduce(X, n, 2, k, pairs, np, NULL, NULL, &p);
        if (!r || r->s <= (size_t)k || isinf(opt)) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        ckm_err err = {CKM_OK, ""};
        ckm_sdp_params par;
        ckm_sdp_info info;
        ckm_sdp *sdp = sdp_root(r, 1e-6, 0, &par, &info);
        if (!sdp) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        CHECK(info.lower_bound <= opt + 1e-9 * (1.0 + opt));
        for (int round = 0; round < 15; round++) {
            ckm_cut_stats cs;
            CHECK(ckm_sdp_separate(sdp, &rng, 1 + round % 2, 200, &cs, &err) == CKM_OK);
            if (cs.added_pair + cs.added_triangle + cs.added_clique + cs.added_size == 0)
                break;
            rounds_total++;
            CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
            CHECK(info.lower_bound <= opt + 1e-9 * (1.0 + opt));
            if (info.lower_bound > opt + 1e-9 * (1.0 + opt))
                printf("  instance %d round %d: bound %.9f above the optimum %.9f\n", inst, round, info.lower_bound, opt);
        }
        /* adjoint identity of the cut maps with the rows now present */
        size_t s = r->s, nb = sdp->nb;
        if (nb > 0) {
            double *Z = calloc(s * s, sizeof(double)), *Bt = calloc(s * s, sizeof(double));
            double *u = calloc(nb, sizeof(double)), *bx = calloc(nb, sizeof(double));
            for (size_t i = 0; i < s; i++)
                for (size_t j = 0; j <= i; j++)
                    Z[i * s + j] = Z[j * s + i] = unif() - 0.5;
            for (size_t l = 0; l < nb; l++)
                u[l] = unif() - 0.5;
            ckm_sdp_B(sdp, Z, bx);
            ckm_sdp_Bt_add(sdp, u, 1.0, Bt);
            double a = 0, b = 0;
            for (size_t l = 0; l < nb; l++)
                a += bx[l] * u[l];
            for (size_t q = 0; q < s * s; q++)
                b += Z[q] * Bt[q];
            CHECK(fabs(a - b) <= 1e-10 * (1.0 + fabs(a)));
            free(Z);
            free(Bt);
            free(u);
            free(bx);
        }
        if (nb > 0)
            check_cut_system(sdp);
        checked++;
        closed += info.lower_bound >= opt - 1e-3 * opt;
        ckm_sdp_free(sdp);
        ckm_reduced_free(r);
        ckm_problem_free(p);
    }
    CHECK(checked >= 12 && closed * 4 >= checked * 3);
    printf("cuts: %d instances, %d cut rounds, bound within 1e-3 of the optimum on %d\n", checked, rounds_total, closed);
    CHECK(systems_checked >= 10);
    printf("cut system: %d CG solves against the dense system, relative residual at most %.1e\n", systems_checked,
           system_worst);
}

/* Size rows: with exact cluster sizes the bound after cut rounds never exceeds the
 * brute-force optimum WITH those sizes, and on some instances it exceeds the optimum
 * WITHOUT them (only size information can do that: proof that the rows act). */
static void test_size_rows(void)
{
    int checked = 0, above_free = 0, with_rows = 0;
    ckm_rng rng;
    ckm_rng_seed(&rng, 5, 0);
    for (int inst = 0; inst < 12; inst++) {
        int n = 9, k = 3;
        double X[20];
        oracle_pair pairs[4];
        int np = oracle_random_instance(unif, n, inst % 3 == 2 ? 2 : 0, X, pairs);
        size_t lo[3] = {3, 3, 3}, hi[3] = {3, 3, 3}, lo1[3] = {1, 1, 1}, hin[3] = {9, 9, 9};
        double opt = oracle_best(X, n, 2, k, pairs, np, lo, hi, NULL);
        double opt_free = oracle_best(X, n, 2, k, pairs, np, lo1, hin, NULL);
        ckm_err err = {CKM_OK, ""};
        ckm_problem *p = NULL;
        ckm_reduced *r = sdp_reduce(X, n, 2, k, pairs, np, lo, hi, &p);
        if (!r || isinf(opt) || r->s <= (size_t)k) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        ckm_sdp_params par;
        ckm_sdp_info info;
        ckm_sdp *sdp = sdp_root(r, 1e-6, 0, &par, &info);
        CHECK(sdp && fabs(sdp->c_min - 3.0) < 1e-12 && fabs(sdp->c_max - 3.0) < 1e-12);
        if (!sdp) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        size_t rows = 0;
        for (int round = 0; round < 10; round++) {
            ckm_cut_stats cs;
            CHECK(ckm_sdp_separate(sdp, &rng, 1 + round % 2, 200, &cs, &err) == CKM_OK);
            rows += cs.added_size;
            if (cs.added_pair + cs.added_triangle + cs.added_clique + cs.added_size == 0)
                break;
            CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
            CHECK(info.lower_bound <= opt + 1e-9 * (1.0 + opt));
        }
        checked++;
        with_rows += rows > 0;
        above_free += info.lower_bound > opt_free + 1e-6 * (1.0 + opt_free);
        ckm_sdp_free(sdp);
        ckm_reduced_free(r);
        ckm_problem_free(p);
    }
    CHECK(checked >= 8 && with_rows >= 1 && above_free >= 1);
    printf("size rows: %d instances with exact sizes 3/3/3, rows added on %d, bound above the size-free optimum "
           "on %d\n",
           checked, with_rows, above_free);
}

/* Whether every cut row of sdp holds (B(X) >= d - 1e-12) at the labelling `labels` of the
 * points, X_ab = v_a v_b / (mass of the cluster) on the groups of r. */
static bool rows_hold(const ckm_sdp *sdp, const ckm_reduced *r, const int32_t *labels, int k)
{
    size_t s = r->s;
    double mass[8] = {0}, *X = calloc(s * s, sizeof(double)), *bx = calloc(sdp->nb + 1, sizeof(double));
    bool ok = X && bx;
    for (size_t t = 0; ok && t < s; t++)
        mass[labels[r->members[r->member_start[t]]]] += r->mass[t];
    for (size_t a = 0; ok && a < s; a++)
        for (size_t b = 0; b < s; b++) {
            int32_t la = labels[r->members[r->member_start[a]]], lb = labels[r->members[r->member_start[b]]];
            if (la == lb)
                X[a * s + b] = sqrt(r->mass[a] * r->mass[b]) / mass[la];
        }
    if (ok)
        ckm_sdp_B(sdp, X, bx);
    for (size_t l = 0; ok && l < sdp->nb; l++)
        ok = bx[l] >= sdp->d[l] - 1e-12;
    (void)k;
    free(X);
    free(bx);
    return ok;
}

/* Cut inheritance (branch-and-cut children): cuts exported from a node after some rounds, on
 * points, and imported into its ML child (one group fewer) and CL child (one cannot-link more)
 * hold at the child's brute-force optimal labelling, and never lift the child's bound above
 * that optimum, before or after the child's solve; merged ends cancel (the ML child imports
 * fewer rows, none empty). */
static void test_inherit(void)
{
    int children = 0, imported_rows = 0;
    ckm_rng rng;
    ckm_rng_seed(&rng, 5, 0);
    for (int inst = 0; inst < 12; inst++) {
        int n = 8 + inst % 3, k = 2 + inst % 2;
        double X[20];
        oracle_pair pairs[6];
        int np = oracle_random_instance(unif, n, 2, X, pairs);
        ckm_problem *p = NULL;
        ckm_reduced *r = sdp_reduce(X, n, 2, k, pairs, np, NULL, NULL, &p);
        if (!r || r->s <= (size_t)k + 1) {
            ckm_reduced_free(r);
            ckm_problem_free(p);
            continue;
        }
        ckm_err err = {CKM_OK, ""};
        ckm_sdp_params par;
        ckm_sdp_info info;
        ckm_sdp *sdp = sdp_root(r, 1e-6, 0, &par, &info);
        for (int round = 0; sdp && round < 4; round++) {
            ckm_cut_stats cs;
            CHECK(ckm_sdp_separate(sdp, &rng, 1 + round % 2, 200, &cs, &err) == CKM_OK);
            CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
        }
        size_t rep[12];
        for (size_t t = 0; t < r->s; t++)
            rep[t] = r->members[r->member_start[t]];
        ckm_cut_pool *pool = NULL;
        CHECK(sdp && ckm_sdp_export_cuts(sdp, rep, &pool, &err) == CKM_OK && pool->rows == sdp->nb);
        /* branch on the first two groups that are not a cannot-link */
        size_t a = 0, b = 1;
        for (size_t e = 0; e < r->n_cl; e++)
            if (r->cl[2 * e] == 0 && r->cl[2 * e + 1] == 1)
                b = 2;
        size_t added_ml = 0;
        for (int ml = 1; ml >= 0 && pool; ml--) {
            oracle_pair cp[7];
            memcpy(cp, pairs, (size_t)np * sizeof *cp);
            cp[np] = (oracle_pair){(int)rep[a], (int)rep[b], ml};
            size_t lo[3] = {1, 1, 1}, hi[3] = {(size_t)n, (size_t)n, (size_t)n};
            int32_t best[12];
            double opt = oracle_best(X, n, 2, k, cp, np + 1, lo, hi, best);
            ckm_problem *pc = NULL;
            ckm_reduced *rc = sdp_reduce(X, n, 2, k, cp, np + 1, NULL, NULL, &pc);
            if (rc && rc->s > (size_t)k && isfinite(opt)) {
                ckm_sdp *child = NULL;
                size_t added = 0;
                CHECK(ckm_sdp_create(rc, NULL, &child, NULL, &err) == CKM_OK);
                CHECK(child && ckm_sdp_import_cuts(child, rc->comp, pool, &added, &err) == CKM_OK);
                CHECK(added <= pool->rows);
                for (size_t l = 0; child && l < child->nb; l++)
                    CHECK(child->bstart[l + 1] > child->bstart[l]);
                CHECK(child && rows_hold(child, rc, best, k));
                if (ml)
                    added_ml = added;
                else
                    CHECK(added_ml <= added); /* the CL child keeps the groups: every row survives */
                ckm_sdp_params cpar;
                ckm_sdp_info cinfo;
                ckm_sdp_params_default(&cpar);
                cpar.tol = 1e-6;
                CHECK(child && ckm_sdp_solve(child, NULL, &cpar, &cinfo, &err) == CKM_OK);
                CHECK(cinfo.lower_bound <= opt + 1e-9 * (1.0 + opt));
                if (cinfo.lower_bound > opt + 1e-9 * (1.0 + opt))
                    printf("  instance %d %s child: bound %.9f above its optimum %.9f\n", inst, ml ? "ML" : "CL",
                           cinfo.lower_bound, opt);
                children++;
                imported_rows += (int)added;
                ckm_sdp_free(child);
            }
            ckm_reduced_free(rc);
            ckm_problem_free(pc);
        }
        ckm_cut_pool_free(pool);
        ckm_sdp_free(sdp);
        ckm_reduced_free(r);
        ckm_problem_free(p);
    }
    CHECK(children >= 10 && imported_rows > 0);
    printf("inherit: %d children, %d rows imported, every child bound below its optimum\n", children, imported_rows);
}

/* The ends of a pair or triangle cut that a must-link child merges cancel only up to
 * rounding: a pool row (o,p) -c1, (o,q) +c2, (p,p) +c1, (p,q) -c2 with c2 one ulp above c1 (a
 * valid cut Z_pp - Z_pq - Z_op + Z_oq >= 0 as its coefficients come out of the parent's
 * scaling) merges, with p and q joined, to residues of 1e-16 on (o,g) and (g,g). Those are
 * cancellations: nothing may be imported that a feasible labelling violates (before the fix
 * the residues were kept, renormalised, and became Z_og - Z_gg >= 0, false whenever o is not
 * with g). */
static void test_import_cancellation(void)
{
    double X[6 * 2] = {0.0, 0.0, 0.3, 0.1, 0.2, 0.4, 5.0, 5.0, 5.2, 4.9, 4.8, 5.3};
    oracle_pair ml = {0, 1, 1};
    ckm_problem *pc = NULL;
    ckm_reduced *rc = sdp_reduce(X, 6, 2, 2, &ml, 1, NULL, NULL, &pc);
    ckm_sdp *child = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(rc && ckm_sdp_create(rc, NULL, &child, NULL, &err) == CKM_OK);
    double c1 = 0.8944271909999159, c2 = nextafter(c1, 1.0);
    size_t start[2] = {0, 4}, pi[4] = {2, 2, 0, 0}, pj[4] = {0, 1, 0, 1};
    double zc[4] = {-c1, c2, c1, -c2}, rhs[1] = {0.0};
    ckm_cut_pool pool = {1, start, pi, pj, zc, rhs};
    size_t added = 99;
    if (child) {
        CHECK(ckm_sdp_import_cuts(child, rc->comp, &pool, &added, &err) == CKM_OK);
        int32_t lab[6];
        int feasible = 0;
        for (int code = 0; code < 64; code++) { /* every labelling with 0 and 1 together */
            for (int i = 0; i < 6; i++)
                lab[i] = (code >> i) & 1;
            if (lab[0] != lab[1] || code == 0 || code == 63)
                continue;
            feasible++;
            CHECK(rows_hold(child, rc, lab, 2));
        }
        CHECK(feasible == 30);
        printf("import cancellation: %zu row(s) imported from a row that cancels up to rounding, checked on "
               "%d labellings\n", added, feasible);
    }
    ckm_sdp_free(child);
    ckm_reduced_free(rc);
    ckm_problem_free(pc);
}

/* Two threads change nothing in the cuts: on s = 100 (full triangle scan, split by apex) and
 * s = 320 (sampled triangles, drawn and evaluated in a pipeline), two relaxations solved
 * alike get the same rows from ckm_sdp_separate with 1 and 2 threads. And the projection in
 * two halves (ckm_sdp_params.threads = 2) reaches the same bound as one thread, up to the
 * solver's tolerance, and stays below a feasible labelling's SSE. */
static void test_threads(void)
{
    int sizes[2] = {100, 320};
    for (int c = 0; c < 2; c++) {
        int n = sizes[c], k = 4;
        double *X = malloc((size_t)n * 2 * sizeof(double));
        for (int i = 0; i < n; i++) { /* four overlapping blobs: the relaxation is not tight */
            X[2 * i] = 0.5 * (i % 2) + unif();
            X[2 * i + 1] = 0.5 * ((i / 2) % 2) + unif();
        }
        ckm_problem *pp = NULL;
        ckm_reduced *r = sdp_reduce(X, n, 2, k, NULL, 0, NULL, NULL, &pp);
        ckm_sdp_params par;
        ckm_sdp_info i1, i2;
        ckm_sdp *a = sdp_root(r, 1e-4, 60, &par, &i1), *b = sdp_root(r, 1e-4, 60, &par, &i2);
        CHECK(a && b && i1.lower_bound == i2.lower_bound);
        ckm_err err = {CKM_OK, ""};
        ckm_rng ra, rb;
        ckm_rng_seed(&ra, 9, 0);
        ckm_rng_seed(&rb, 9, 0);
        ckm_cut_stats ca, cb;
        CHECK(ckm_sdp_separate(a, &ra, 1, 300, &ca, &err) == CKM_OK);
        CHECK(ckm_sdp_separate(b, &rb, 2, 300, &cb, &err) == CKM_OK);
        CHECK(ca.added_triangle > 0 && ca.added_triangle == cb.added_triangle && ca.added_pair == cb.added_pair);
        bool same = a->nb == b->nb && a->bstart[a->nb] == b->bstart[b->nb];
        for (size_t l = 0; same && l < a->nb; l++)
            same = a->d[l] == b->d[l] && a->bstart[l] == b->bstart[l];
        for (size_t e = 0; same && e < a->bstart[a->nb]; e++)
            same = a->bent[e].i == b->bent[e].i && a->bent[e].j == b->bent[e].j && a->bent[e].g == b->bent[e].g;
        CHECK(same);
        /* the projection in two halves (s = 100 only, for time): the same bound to the tolerance */
        ckm_sdp_params p1, p2;
        ckm_sdp_params_default(&p1);
        p1.max_iter = c == 0 ? 3000 : 1;
        p2 = p1;
        p2.threads = 2;
        CHECK(ckm_sdp_solve(a, NULL, &p1, &i1, &err) == CKM_OK);
        CHECK(ckm_sdp_solve(b, NULL, &p2, &i2, &err) == CKM_OK);
        if (c == 1)
            i1.converged = i2.converged = 1;
        int32_t *lab = malloc((size_t)n * sizeof(int32_t));
        for (int i = 0; i < n; i++)
            lab[i] = (int32_t)(i % 4);
        double sse = 0.0; /* of the blob labelling, by hand */
        for (int g = 0; g < k; g++) {
            double m[2] = {0.0, 0.0}, cnt = 0.0;
            for (int i = 0; i < n; i++)
                if (lab[i] == g) {
                    m[0] += X[2 * i];
                    m[1] += X[2 * i + 1];
                    cnt += 1.0;
                }
            for (int i = 0; i < n; i++)
                if (lab[i] == g)
                    sse += pow(X[2 * i] - m[0] / cnt, 2) + pow(X[2 * i + 1] - m[1] / cnt, 2);
        }
        CHECK(i1.converged && i2.converged && i2.lower_bound <= sse + 1e-9 * sse);
        CHECK(fabs(i1.lower_bound - i2.lower_bound) <= 1e-3 * sse);
        printf("threads: s = %d, %zu rows alike with 1 and 2 threads; bounds %.6f / %.6f (blob SSE %.6f)\n", n, a->nb,
               i1.lower_bound, i2.lower_bound, sse);
        free(lab);
        ckm_sdp_free(a);
        ckm_sdp_free(b);
        ckm_reduced_free(r);
        ckm_problem_free(pp);
        free(X);
    }
}

/* A pool grown past CKM_SDP_MAX_CUTS (ckm_sdp_grow_cuts, certify's stalled subsets): 120
 * random points, k = 4, rounds of up to 2500 rows until the 5000-row pool is full, then the cap
 * raised to 10,000 (a smaller raise and one past CKM_SDP_GROWN_CUTS tried too): rows are added
 * past the old cap, the solves from the grown system run, and every bound stays below the SSE
 * of a labelling (Lloyd's from the first k points; the optimum is at most that) and never
 * falls (the best seen). Under the sanitizers this also checks every row array grew. */
static void test_pool_growth(void)
{
    enum { N = 120, K = 4 };
    double X[2 * N], C[2 * K];
    int lab[N];
    for (int i = 0; i < 2 * N; i++)
        X[i] = unif();
    memcpy(C, X, sizeof C);
    double sse = 0.0;
    for (int it = 0; it < 20; it++) { /* Lloyd's: an upper bound on the optimum */
        double S[2 * K] = {0}, w[K] = {0};
        sse = 0.0;
        for (int i = 0; i < N; i++) {
            double best = INFINITY;
            for (int j = 0; j < K; j++) {
                double dx = X[2 * i] - C[2 * j], dy = X[2 * i + 1] - C[2 * j + 1], v = dx * dx + dy * dy;
                if (v < best) {
                    best = v;
                    lab[i] = j;
                }
            }
            sse += best;
            S[2 * lab[i]] += X[2 * i];
            S[2 * lab[i] + 1] += X[2 * i + 1];
            w[lab[i]] += 1.0;
        }
        for (int j = 0; j < K; j++)
            if (w[j] > 0)
                C[2 * j] = S[2 * j] / w[j], C[2 * j + 1] = S[2 * j + 1] / w[j];
    }
    ckm_problem *p = NULL;
    ckm_reduced *r = sdp_reduce(X, N, 2, K, NULL, 0, NULL, NULL, &p);
    ckm_sdp_params par;
    ckm_sdp_info info;
    ckm_sdp *sdp = r ? sdp_root(r, 1e-3, 0, &par, &info) : NULL;
    CHECK(sdp != NULL);
    if (!sdp) {
        ckm_reduced_free(r);
        ckm_problem_free(p);
        return;
    }
    ckm_err err = {CKM_OK, ""};
    ckm_rng rng;
    ckm_rng_seed(&rng, 9, 0);
    par.max_iter = 25;
    CHECK(ckm_sdp_max_cuts(sdp) == CKM_SDP_MAX_CUTS);
    CHECK(ckm_sdp_grow_cuts(sdp, 100, &err) == CKM_OK && ckm_sdp_max_cuts(sdp) == CKM_SDP_MAX_CUTS); /* no-op */
    double last = info.lower_bound;
    size_t most = 0, away_full = 0;
    bool full = false, grown = false;
    for (int round = 0; round < 16 && !(grown && most > CKM_SDP_MAX_CUTS); round++) {
        ckm_cut_stats cs;
        CHECK(ckm_sdp_separate(sdp, &rng, 1, 2500, &cs, &err) == CKM_OK);
        if (cs.active < ckm_sdp_max_cuts(sdp))
            CHECK(cs.turned_away == 0); /* room left: nothing violated was turned away */
        else
            away_full += cs.turned_away;
        if (cs.active >= ckm_sdp_max_cuts(sdp) && !grown) {
            full = true;
            CHECK(ckm_sdp_grow_cuts(sdp, 2 * CKM_SDP_MAX_CUTS, &err) == CKM_OK);
            CHECK(ckm_sdp_max_cuts(sdp) == 2 * CKM_SDP_MAX_CUTS);
            grown = true;
            continue; /* the next round adds past the old cap */
        }
        most = cs.active > most ? cs.active : most;
        CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
        CHECK(info.lower_bound <= sse + 1e-9 * sse && info.lower_bound >= last);
        last = info.lower_bound;
    }
    printf("pool growth: full at %d rows, grown to %zu, %zu rows active at most, bound %.6g below the "
           "labelling's %.6g\n",
           CKM_SDP_MAX_CUTS, ckm_sdp_max_cuts(sdp), most, last, sse);
    CHECK(full && grown && most > CKM_SDP_MAX_CUTS);
    CHECK(away_full > 0); /* the round that filled the pool had more violated rows than room */
    CHECK(ckm_sdp_grow_cuts(sdp, 10 * CKM_SDP_GROWN_CUTS, &err) == CKM_OK); /* clamped */
    CHECK(ckm_sdp_max_cuts(sdp) == CKM_SDP_GROWN_CUTS);
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

/* ckm_ipc_pool_crowded on hand-made rounds (cap 5000, patience 3, 10 rounds of time needed):
 * crowded rounds (full, at least as many turned away as added) count in a row, any other
 * round resets the count, a pool with room or turning away fewer than it added is not
 * crowded, and three crowded rounds grow the pool only with 10 rounds' time left. */
static void test_pool_crowded(void)
{
    int streak = 0;
    /* full, 150 added, 4000 turned away: crowded twice, the third grows (100 s left, 7 s rounds) */
    CHECK(!ckm_ipc_pool_crowded(5000, 5000, 4000, 150, &streak, 3, 100.0, 10.0, 7.0) && streak == 1);
    CHECK(!ckm_ipc_pool_crowded(5000, 5000, 4000, 150, &streak, 3, 93.0, 10.0, 7.0) && streak == 2);
    CHECK(ckm_ipc_pool_crowded(5000, 5000, 4000, 150, &streak, 3, 86.0, 10.0, 7.0) && streak == 3);
    /* equal counts are crowded; 69 s left with 7 s rounds is under 10 rounds: no growth */
    streak = 2;
    CHECK(!ckm_ipc_pool_crowded(5000, 5000, 150, 150, &streak, 3, 69.0, 10.0, 7.0) && streak == 3);
    CHECK(ckm_ipc_pool_crowded(5000, 5000, 150, 150, &streak, 3, 70.0, 10.0, 7.0) && streak == 4);
    /* room in the pool, or fewer turned away than added: the count starts again */
    streak = 2;
    CHECK(!ckm_ipc_pool_crowded(4999, 5000, 4000, 150, &streak, 3, 1e9, 10.0, 1.0) && streak == 0);
    streak = 2;
    CHECK(!ckm_ipc_pool_crowded(5000, 5000, 149, 150, &streak, 3, 1e9, 10.0, 1.0) && streak == 0);
    /* a grown pool of 10,000 with 9000 rows active is not full */
    streak = 5;
    CHECK(!ckm_ipc_pool_crowded(9000, 10000, 0, 4000, &streak, 3, 1e9, 10.0, 1.0) && streak == 0);
}

/* ckm_sdp_hopeless on made-up bound sequences (checks every 20 iterations, window 100, cap
 * 3000, incumbent U with U (1 - 1e-4) = 10.05): a bound rising 2e-5 an iteration from 10 would
 * reach 10.0596 by the cap, never hopeless, though the last window's rise alone (0.002) is far
 * short; a flat bound of 10 is hopeless at the first full window (iteration 120) and not
 * before; while the window holds -inf (no bound yet) it is not; with the window 0, never. */
static void test_hopeless_rule(void)
{
    ckm_sdp_params par;
    ckm_sdp_params_default(&par);
    par.hopeless_window = 100;
    par.upper_bound = 10.05 / (1.0 - 1e-4);
    ckm_hopeless_window rising = {.checks = 0}, flat = {.checks = 0}, none = {.checks = 0}, off = {.checks = 0};
    int rising_hopeless = 0, flat_first = 0, none_hopeless = 0, off_hopeless = 0;
    for (int it = CKM_SDP_BOUND_EVERY; it < 3000; it += CKM_SDP_BOUND_EVERY) {
        rising_hopeless += ckm_sdp_hopeless(&par, &rising, it, 10.0 + 2e-5 * (it - 20));
        if (ckm_sdp_hopeless(&par, &flat, it, 10.0) && !flat_first)
            flat_first = it;
        none_hopeless += ckm_sdp_hopeless(&par, &none, it, it < 200 ? -INFINITY : 10.0 + 2e-5 * (it - 200));
        par.hopeless_window = 0;
        off_hopeless += ckm_sdp_hopeless(&par, &off, it, 10.0);
        par.hopeless_window = 100;
    }
    CHECK(rising_hopeless == 0 && flat_first == 120 && none_hopeless == 0 && off_hopeless == 0);
    printf("hopeless rule: rising bound never hopeless (%d), flat bound hopeless from iteration %d\n", rising_hopeless,
           flat_first);
}

/* The hopeless stop (ckm_sdp_params.hopeless_window): on 60 overlapping points (k = 3) solved
 * to 1e-7, an incumbent three times the relaxation's value stops the solve early with a bound
 * below the converged one; an incumbent 5e-5 above the converged bound (within the gap rule's
 * 1e-4 of it, reached after iteration 120, where the first hopeless tests run) is reached,
 * not given up; without a window nothing changes. */
static void test_hopeless(void)
{
    enum { N = 60 };
    double X[2 * N];
    for (int i = 0; i < N; i++) {
        X[2 * i] = 3.0 * (i % 3) + 4.0 * unif();
        X[2 * i + 1] = 4.0 * unif();
    }
    ckm_problem *p = NULL;
    ckm_reduced *r = sdp_reduce(X, N, 2, 3, NULL, 0, NULL, NULL, &p);
    ckm_sdp_params par;
    ckm_sdp_info ref, info;
    ckm_sdp *sdp = r ? sdp_root(r, 1e-7, 0, &par, &ref) : NULL;
    CHECK(sdp && ref.converged && isfinite(ref.lower_bound) && ref.lower_bound > 0.0);
    ckm_sdp_free(sdp);
    if (!sdp || !isfinite(ref.lower_bound)) {
        ckm_reduced_free(r);
        ckm_problem_free(p);
        return;
    }
    double lstar = ref.lower_bound;
    struct {
        double ub, prune_tol;
        int window;
    } cases[3] = {{3.0 * lstar, 1e-4, 100}, {(1.0 + 5e-5) * lstar, 1e-4, 100}, {3.0 * lstar, 1e-4, 0}};
    ckm_err err = {CKM_OK, ""};
    for (int c = 0; c < 3; c++) {
        sdp = NULL;
        CHECK(ckm_sdp_create(r, NULL, &sdp, NULL, &err) == CKM_OK);
        if (!sdp)
            break;
        ckm_sdp_params_default(&par);
        par.tol = 1e-7;
        par.upper_bound = cases[c].ub;
        par.prune_tol = cases[c].prune_tol;
        par.hopeless_window = cases[c].window;
        CHECK(ckm_sdp_solve(sdp, NULL, &par, &info, &err) == CKM_OK);
        CHECK(info.lower_bound <= lstar + 1e-7 * lstar);
        printf("hopeless: case %d (incumbent %.4g x the bound, window %d): %d iterations (converged: %d), bound "
               "%.8g, hopeless %d, pruned %d\n",
               c, cases[c].ub / lstar, cases[c].window, info.iterations, ref.iterations, info.lower_bound, info.hopeless,
               info.pruned);
        if (c == 0)
            CHECK(info.hopeless && !info.pruned && info.iterations < ref.iterations && info.lower_bound > -INFINITY);
        if (c == 1) /* reached after the first hopeless tests (iteration 120 on): none gave up */
            CHECK(!info.hopeless && info.pruned && info.iterations > 120 &&
                  info.lower_bound >= (1.0 - 1e-4) * cases[c].ub);
        if (c == 2)
            CHECK(!info.hopeless && info.converged && info.iterations == ref.iterations && info.lower_bound == lstar);
        ckm_sdp_free(sdp);
    }
    ckm_reduced_free(r);
    ckm_problem_free(p);
}

int main(void)
{
    test_aat_inverse();
    test_adjoint();
    test_certificate();
    test_oracle();
    test_cuts();
    test_size_rows();
    test_inherit();
    test_import_cancellation();
    test_threads();
    test_pool_growth();
    test_pool_crowded();
    test_hopeless_rule();
    test_hopeless();
    return ck_report();
}
