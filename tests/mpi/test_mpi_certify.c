/*
 * test_mpi_certify.c -- ckm_mpi_certify (ckm_mpi.h, docs/certify.md "Over MPI"), run by ctest
 * under mpiexec with 1, 2, 3 and 4 ranks. Rank 0 holds each problem; the truth is
 * ckm_certify in one process on the same problem and settings:
 *   - equal: the bound, and every subset's bound, status, points, groups and cut rounds,
 *     identical bit for bit, with pairs, sample weights, size bounds, capacities with zero
 *     demands, and subsets exact without the SDP (none of their problems is sent); ranks =
 *     the communicator's size, every subset's rank in range;
 *   - forced: k = 1 gives the exact answer, gap 0;
 *   - infeasible: a cannot-link clique larger than k: CKM_OK everywhere, rank 0's status
 *     infeasible;
 *   - a stop on the last rank only: CKM_OK everywhere, rank 0's status interrupted, its bound
 *     at most the full one; a stop on rank 0 only, the same;
 *   - failures: rank 0 without labels, bad settings, and every allocation failing in turn on
 *     the last rank: the same code on every rank, the failing rank's message, never a hang.
 */
#include "ckm_mpi.h"
#include "mpi_util.h"

/* n points in 2-D around k centers, labels by centre, on every rank the same */
typedef struct inst {
    size_t n, k;
    double *X, *w, *q;
    int32_t *lab;
} inst;

static inst make(size_t n, size_t k, uint64_t seed)
{
    inst in = {n, k, malloc(2 * n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double)),
               malloc(n * sizeof(int32_t))};
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        size_t j = i % k;
        in.lab[i] = (int32_t)j;
        in.X[2 * i] = 4.0 * (double)j + 3.0 * (ck_unif(&st) - 0.5) * 2.0;
        in.X[2 * i + 1] = 2.0 * (double)(j % 2) + 3.0 * (ck_unif(&st) - 0.5) * 2.0;
        in.w[i] = 0.5 + 1.5 * ck_unif(&st);
        in.q[i] = i % 7 == 3 ? 0.0 : (double)(1 + i % 3);
    }
    return in;
}

static void unmake(inst *in)
{
    free(in->X);
    free(in->w);
    free(in->q);
    free(in->lab);
}

enum { PAIRS = 1, WEIGHTS = 2, SIZES = 4, CAPS = 8, CHAINS = 16 };

/* the problem of in with the given kinds of constraints, all met by in->lab */
static ckm_problem *problem(const inst *in, int kinds)
{
    ckm_problem *p = NULL;
    CHECK(ckm_problem_create(in->X, in->n, 2, in->k, &p, NULL) == CKM_OK);
    for (size_t i = 0; (kinds & PAIRS) && i + 2 * in->k < in->n; i += 5) {
        ckm_problem_add_pair(p, i, i + in->k, CKM_MUST_LINK, NULL);
        ckm_problem_add_pair(p, i, i + 1, CKM_CANNOT_LINK, NULL);
    }
    for (size_t i = 0; (kinds & CHAINS) && i + in->k < in->n; i++) /* one group per cluster */
        ckm_problem_add_pair(p, i, i + in->k, CKM_MUST_LINK, NULL);
    if (kinds & WEIGHTS)
        CHECK(ckm_problem_set_weights(p, in->w, NULL) == CKM_OK);
    if (kinds & SIZES)
        CHECK(ckm_problem_set_size_range(p, in->n / in->k - 3, in->n / in->k + 3, NULL) == CKM_OK);
    if (kinds & CAPS) {
        double load[8] = {0}, lo[8], hi[8];
        for (size_t i = 0; i < in->n; i++)
            load[in->lab[i]] += in->q[i];
        for (size_t j = 0; j < in->k; j++) {
            lo[j] = load[j] - 4.0;
            hi[j] = load[j] + 4.0;
        }
        CHECK(ckm_problem_set_demands(p, in->q, NULL) == CKM_OK);
        CHECK(ckm_problem_set_capacities(p, lo, hi, NULL) == CKM_OK);
    }
    return p;
}

static void settings(ckm_settings *s)
{
    ckm_settings_default(s);
    s->threads = 1;
    s->cut_rounds = 3;
}

/* every rank the same code; the message names the rank when it names one */
static ckm_error run(const ckm_problem *p, const int32_t *lab, size_t T, const ckm_settings *s,
                     ckm_certificate **c, ckm_err *err)
{
    ckm_error rc = ckm_mpi_certify(MPI_COMM_WORLD, rank == 0 ? p : NULL, rank == 0 ? lab : NULL, T, s, c, err);
    int mine[2] = {(int)rc, -(int)rc}, all[2];
    reduce_int(mine, all, 2, MPI_MAX);
    CHECK(all[0] == -all[1]); /* the same code everywhere */
    CHECK(rank == 0 || *c == NULL);
    return rc;
}

static void test_equal(size_t n, size_t k, int kinds, size_t T)
{
    inst in = make(n, k, 11 + n + (uint64_t)kinds);
    ckm_problem *p = rank == 0 ? problem(&in, kinds) : NULL;
    ckm_settings s;
    settings(&s);
    ckm_certificate *one = NULL, *many = NULL;
    if (rank == 0)
        CHECK(ckm_certify(p, in.lab, T, &s, &one, NULL) == CKM_OK && one);
    CHECK(run(p, in.lab, T, &s, &many, NULL) == CKM_OK);
    if (rank == 0 && one && many) {
        CHECK(memcmp(&one->lower_bound, &many->lower_bound, sizeof(double)) == 0);
        CHECK(one->subsets == many->subsets && many->ranks == size && one->ranks == 1);
        CHECK(one->status == many->status && one->violations == 0);
        for (size_t t = 0; t < one->subsets && t < many->subsets; t++) {
            const ckm_certify_subset *a = &one->subset[t], *b = &many->subset[t];
            CHECK(memcmp(&a->lower_bound, &b->lower_bound, sizeof(double)) == 0);
            CHECK(a->status == b->status && a->points == b->points && a->groups == b->groups &&
                  a->cut_rounds == b->cut_rounds && a->sdp == b->sdp);
            CHECK(b->rank >= 0 && b->rank < size && a->rank == 0);
        }
        printf("n = %zu, k = %zu, kinds %d, T = %zu on %d ranks: bound %.17g (%s), one process %.17g\n", n, k, kinds,
               many->subsets, size, many->lower_bound, ckm_status_string(many->status), one->lower_bound);
    }
    ckm_certificate_free(one);
    ckm_certificate_free(many);
    ckm_problem_free(p);
    unmake(&in);
}

static void test_forced_and_infeasible(void)
{
    inst in = make(40, 1, 5);
    ckm_problem *p = rank == 0 ? problem(&in, WEIGHTS) : NULL;
    ckm_certificate *c = NULL;
    CHECK(run(p, in.lab, 0, NULL, &c, NULL) == CKM_OK);
    if (rank == 0 && c)
        CHECK(c->gap == 0.0 && c->status == CKM_STATUS_OPTIMAL && c->lower_bound == c->sse);
    ckm_certificate_free(c);
    ckm_problem_free(p);
    unmake(&in);
    in = make(40, 2, 6);
    p = NULL;
    if (rank == 0) {
        CHECK(ckm_problem_create(in.X, in.n, 2, 2, &p, NULL) == CKM_OK);
        ckm_problem_add_pair(p, 0, 1, CKM_CANNOT_LINK, NULL);
        ckm_problem_add_pair(p, 1, 2, CKM_CANNOT_LINK, NULL);
        ckm_problem_add_pair(p, 0, 2, CKM_CANNOT_LINK, NULL);
    }
    c = NULL;
    CHECK(run(p, in.lab, 2, NULL, &c, NULL) == CKM_OK);
    if (rank == 0)
        CHECK(c && c->status == CKM_STATUS_INFEASIBLE && c->lower_bound == INFINITY && c->message[0]);
    ckm_certificate_free(c);
    ckm_problem_free(p);
    unmake(&in);
}

static int always(void *user)
{
    (void)user;
    return 1;
}

/* should_stop true on rank `who` only */
static void test_stop(int who)
{
    inst in = make(160, 3, 7);
    ckm_problem *p = rank == 0 ? problem(&in, PAIRS) : NULL;
    ckm_settings s;
    settings(&s);
    ckm_certificate *full = NULL, *c = NULL;
    if (rank == 0)
        CHECK(ckm_certify(p, in.lab, 6, &s, &full, NULL) == CKM_OK);
    if (rank == who)
        s.should_stop = always;
    CHECK(run(p, in.lab, 6, &s, &c, NULL) == CKM_OK);
    if (rank == 0 && c && full) {
        CHECK(c->status == CKM_STATUS_INTERRUPTED);
        CHECK(c->lower_bound <= full->lower_bound);
        printf("stop on rank %d of %d: %s, bound %.6f (full %.6f)\n", who, size, ckm_status_string(c->status),
               c->lower_bound, full->lower_bound);
    }
    ckm_certificate_free(full);
    ckm_certificate_free(c);
    ckm_problem_free(p);
    unmake(&in);
}

static void test_failures(void)
{
    inst in = make(40, 2, 8);
    ckm_problem *p = rank == 0 ? problem(&in, PAIRS) : NULL;
    ckm_certificate *c = NULL;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc = ckm_mpi_certify(MPI_COMM_WORLD, p, NULL, 2, NULL, &c, &err);
    CHECK(rc == CKM_ERR_INVALID && !c && strstr(err.message, "rank 0") && strstr(err.message, "labels"));
    ckm_settings s;
    settings(&s);
    s.gap = 1.5;
    CHECK(run(p, in.lab, 2, &s, &c, &err) == CKM_ERR_INVALID && strstr(err.message, "gap"));
    settings(&s);
    s.cut_rounds = 0;
    int last = size - 1, hits = 0, calls = 0;
    for (long at = 0; at < 5000; at++) {
        injected = 0;
        alloc_count = 0;
        fail_at = rank == last ? at : -1;
        c = NULL;
        rc = run(p, in.lab, 2, &s, &c, &err);
        fail_at = -1;
        int mine = injected, any;
        reduce_int(&mine, &any, 1, MPI_MAX);
        calls++;
        ckm_certificate_free(c);
        if (!any) {
            CHECK(rc == CKM_OK);
            break;
        }
        hits++;
        if (rc != CKM_OK) { /* the failing rank named, or the one that could not go on */
            CHECK(size == 1 || strstr(err.message, "rank "));
            CHECK(rc == CKM_ERR_NOMEM || rc == CKM_ERR_INTERNAL);
        }
    }
    if (rank == 0)
        printf("allocation failures on rank %d: %d injected, %d runs, none hung\n", last, hits, calls);
    CHECK(hits > 0);
    ckm_problem_free(p);
    unmake(&in);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_equal(150, 3, PAIRS, 3);
    test_equal(150, 3, WEIGHTS | SIZES, 4);
    test_equal(140, 3, CAPS | PAIRS, 5);
    test_equal(60, 4, CHAINS, 3); /* one group per cluster: every subset exact */
    test_equal(120, 2, PAIRS | WEIGHTS, 0);
    test_forced_and_infeasible();
    test_stop(size - 1);
    test_stop(0);
    test_failures();
    int fp[2] = {ck_failed, ck_passed}, FP[2];
    reduce_int(fp, FP, 2, MPI_SUM);
    if (rank == 0)
        printf("%d ranks: %d passed, %d failed\n", size, FP[1], FP[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    ck_cleanup();
    MPI_Finalize();
    return FP[0] ? 1 : 0;
}
