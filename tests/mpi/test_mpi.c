/*
 * test_mpi.c -- the MPI mode (ckm_mpi.h), run by ctest under mpiexec with 1, 2, 3 and 4
 * ranks. Every rank builds the same data; the blocks are split several ways (even,
 * uneven, ranks with no rows). Checked against independent truth:
 *   - the same problem solved by ONE process (the distributed solver on MPI_COMM_SELF):
 *     labels, centers and SSE identical bit for bit, for every split;
 *   - the single-process library (ckm_solve) from the same initial centers and from the
 *     same seed (k-means++ and random rows, 3 restarts): the same labels, iterations and
 *     restarts, SSE equal to 1e-12 relative;
 *   - the SSE recomputed by ckm_sse from the gathered labels; sizes counted by hand;
 *     size bounds honoured;
 *   - failures on ONE rank (an unreadable block, every allocation failing in turn,
 *     a NaN, a stop request) come back on every rank with the same code and the failing
 *     rank's message, never a hang; the labels file written block by block equals the
 *     gathered labels.
 * Allocation failures: libckm's malloc/calloc/realloc in this executable go through
 * wrappers (-Wl,--wrap) that fail the n-th call on the armed rank.
 */
#include "ckm_mpi.h"
#include "mpi_util.h"

/* this rank's rows for split s: 0 even, 1 uneven (rank r gets weight r + 1), 2 rank 1 (or
 * the only rank's neighbour) empty and rank 0 taking a double share */
static void split(size_t N, int s, size_t *first, size_t *n)
{
    double w[16] = {0}, tot = 0.0;
    for (int r = 0; r < size; r++) {
        w[r] = s == 0 ? 1.0 : s == 1 ? (double)(r + 1) : (r == 1 ? 0.0 : r == 0 ? 2.0 : 1.0);
        tot += w[r];
    }
    double acc = 0.0;
    size_t a = 0, b = 0;
    for (int r = 0; r <= rank; r++) {
        a = (size_t)((double)N * acc / tot);
        acc += w[r];
        b = r == size - 1 ? N : (size_t)((double)N * acc / tot);
    }
    *first = a;
    *n = b - a;
}

typedef struct run {
    ckm_error rc;
    ckm_mpi_result *r;
    int32_t *all; /* gathered labels (every rank) */
} run;

static run solve(MPI_Comm comm, const double *X, size_t first, size_t n, size_t d, size_t k, const ckm_settings *s,
                 int sizes_kind, ckm_mpi_problem **keep)
{
    run out = {CKM_OK, NULL, NULL};
    ckm_err err = {CKM_OK, ""};
    ckm_mpi_problem *p = NULL;
    out.rc = ckm_mpi_problem_wrap(comm, X + first * d, n, d, k, &p, &err);
    CHECK(out.rc == CKM_OK);
    if (out.rc != CKM_OK)
        return out;
    size_t N = ckm_mpi_problem_n_total(p);
    if (sizes_kind == 1)
        CHECK(ckm_mpi_problem_set_balanced(p, &err) == CKM_OK);
    else if (sizes_kind == 2) { /* per-cluster bounds that differ */
        size_t lo[16], hi[16];
        for (size_t j = 0; j < k && j < 16; j++) {
            lo[j] = N / (2 * k) + j;
            hi[j] = 2 * N / k - j;
        }
        CHECK(ckm_mpi_problem_set_sizes(p, lo, hi, &err) == CKM_OK);
    }
    out.rc = ckm_mpi_solve(p, s, &out.r, &err);
    if (out.rc == CKM_OK && out.r->has_labels) {
        int csize;
        MPI_Comm_size(comm, &csize);
        int *cnt = malloc((size_t)csize * sizeof(int)), *disp = malloc((size_t)csize * sizeof(int)), mine = (int)n;
        MPI_Request rq;
        MPI_Iallgather(&mine, 1, MPI_INT, cnt, 1, MPI_INT, comm, &rq);
        wait_req(&rq);
        disp[0] = 0;
        for (int r = 1; r < csize; r++)
            disp[r] = disp[r - 1] + cnt[r - 1];
        out.all = malloc(N * sizeof(int32_t));
        MPI_Iallgatherv(out.r->labels, mine, MPI_INT32_T, out.all, cnt, disp, MPI_INT32_T, comm, &rq);
        wait_req(&rq);
        free(cnt);
        free(disp);
    }
    if (keep)
        *keep = p;
    else
        ckm_mpi_problem_free(p);
    return out;
}

static void run_free(run *r)
{
    ckm_mpi_result_free(r->r);
    free(r->all);
}

static void settings(ckm_settings *s, const char *algo, int n_init)
{
    ckm_settings_default(s);
    snprintf(s->algorithm, sizeof s->algorithm, "%s", algo);
    s->n_init = n_init;
    s->threads = 1;
    s->seed = 7;
}

/* The distributed runs agree with one process, with ckm_solve and with recomputation. */
static void test_equal(const char *algo, int sizes_kind, size_t N, size_t d, size_t k)
{
    double *X = blobs(N, d, k, 11 + N);
    ckm_settings s;
    settings(&s, algo, 3);
    /* one process: the reference */
    run ref = solve(MPI_COMM_SELF, X, 0, N, d, k, &s, sizes_kind, NULL);
    CHECK(ref.rc == CKM_OK && ref.r->has_labels);
    for (int sp = 0; sp < 3; sp++) {
        size_t first, n;
        split(N, sp, &first, &n);
        run got = solve(MPI_COMM_WORLD, X, first, n, d, k, &s, sizes_kind, NULL);
        CHECK(got.rc == CKM_OK && got.r->has_labels);
        if (got.rc != CKM_OK || !got.r->has_labels || !ref.r)
            continue;
        CHECK(memcmp(got.all, ref.all, N * sizeof(int32_t)) == 0);
        CHECK(memcmp(got.r->centers, ref.r->centers, k * d * sizeof(double)) == 0);
        CHECK(memcmp(&got.r->sse, &ref.r->sse, sizeof(double)) == 0);
        CHECK(got.r->iterations == ref.r->iterations && got.r->restarts == ref.r->restarts);
        /* independent recomputation */
        double sse = 0.0;
        ckm_err err = {CKM_OK, ""};
        CHECK(ckm_sse(X, N, d, got.all, k, &sse, &err) == CKM_OK);
        CHECK_NEAR(sse, got.r->sse, 1e-11 * sse);
        size_t count[16] = {0};
        for (size_t i = 0; i < N; i++)
            count[got.all[i]]++;
        for (size_t j = 0; j < k; j++) {
            CHECK(count[j] == got.r->sizes[j]);
            if (sizes_kind == 1)
                CHECK(count[j] >= N / k && count[j] <= (N + k - 1) / k);
            if (sizes_kind == 2)
                CHECK(count[j] >= N / (2 * k) + j && count[j] <= 2 * N / k - j);
        }
        CHECK(got.r->violations == 0);
        if (strcmp(algo, "sizeflow") == 0)
            CHECK(got.r->prices != NULL && got.r->certificate_rows_checked == N);
        run_free(&got);
    }
    /* the single-process library (ckm_solve): from the same initial centers, and from the
       same seed with k-means++ and with random rows (n_init 3): the same labels */
    double *C0 = malloc(k * d * sizeof(double));
    for (size_t j = 0; j < k; j++)
        memcpy(C0 + j * d, X + (j * 37 % N) * d, d * sizeof(double));
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_wrap(X, N, d, k, &p, &err) == CKM_OK);
    if (sizes_kind == 1)
        ckm_problem_set_balanced(p);
    else if (sizes_kind == 2) {
        size_t lo[16], hi[16];
        for (size_t j = 0; j < k && j < 16; j++) {
            lo[j] = N / (2 * k) + j;
            hi[j] = 2 * N / k - j;
        }
        CHECK(ckm_problem_set_sizes(p, lo, hi, &err) == CKM_OK);
    }
    for (int start = 0; start < 3; start++) {
        ckm_settings s1;
        settings(&s1, algo, start == 0 ? 1 : 3);
        if (start == 0)
            s1.init_centers = C0;
        else
            s1.init = start == 1 ? CKM_INIT_KMEANSPP : CKM_INIT_RANDOM;
        size_t first, n;
        split(N, 1, &first, &n);
        run got = solve(MPI_COMM_WORLD, X, first, n, d, k, &s1, sizes_kind, NULL);
        ckm_result *one = NULL;
        CHECK(ckm_solve(p, &s1, &one, &err) == CKM_OK);
        CHECK(got.rc == CKM_OK && got.r->has_labels && one && one->has_labels);
        if (got.all && one && one->has_labels) {
            if (memcmp(got.all, one->labels, N * sizeof(int32_t)) != 0 && rank == 0)
                fprintf(stderr, "%s, %zu x %zu, k = %zu, start %d: labels differ from ckm_solve's\n", algo, N, d, k,
                        start);
            CHECK(memcmp(got.all, one->labels, N * sizeof(int32_t)) == 0);
            CHECK_NEAR(got.r->sse, one->sse, 1e-12 * one->sse);
            CHECK(got.r->iterations == one->iterations && got.r->restarts == one->restarts);
        }
        ckm_result_free(one);
        run_free(&got);
    }
    ckm_problem_free(p);
    free(C0);
    run_free(&ref);
    free(X);
}

/* Without size bounds every cluster keeps at least one row, as ckm_solve's default: on data
 * with repeated rows (where an empty cluster costs nothing) the labels equal ckm_solve's. */
static void test_default_bounds(void)
{
    size_t N = 43, d = 2, k = 4, first, n;
    double *X = calloc(N * d, sizeof(double));
    for (size_t i = 40; i < N; i++)
        X[i * d] = X[i * d + 1] = 10.0;
    split(N, 1, &first, &n);
    ckm_settings s;
    settings(&s, "sizeflow", 2);
    run got = solve(MPI_COMM_WORLD, X, first, n, d, k, &s, 0, NULL);
    ckm_problem *p = NULL;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_problem_wrap(X, N, d, k, &p, &err) == CKM_OK);
    ckm_result *one = NULL;
    CHECK(ckm_solve(p, &s, &one, &err) == CKM_OK);
    CHECK(got.rc == CKM_OK && got.all && one && one->has_labels);
    if (got.all && one && one->has_labels) {
        CHECK(memcmp(got.all, one->labels, N * sizeof(int32_t)) == 0);
        for (size_t j = 0; j < k; j++)
            CHECK(got.r->sizes[j] >= 1);
    }
    ckm_result_free(one);
    ckm_problem_free(p);
    run_free(&got);
    free(X);
}

/* A failure on the last rank reaches every rank: code and message. */
static void test_failures(void)
{
    size_t N = 600, d = 2, k = 4, first, n;
    double *X = blobs(N, d, k, 5);
    split(N, 0, &first, &n);
    int bad = size - 1;
    char want[64];
    snprintf(want, sizeof want, size > 1 ? "rank %d of %d: " : "", bad, size);
    ckm_err err = {CKM_OK, ""};
    ckm_mpi_problem *p = NULL;

    /* a NaN in one rank's block (the last rank always has rows with split 0) */
    double *Y = malloc(N * d * sizeof(double));
    memcpy(Y, X, N * d * sizeof(double));
    if (rank == bad)
        Y[(first + n - 1) * d] = NAN;
    CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, Y + first * d, n, d, k, &p, &err) == CKM_ERR_PARSE);
    CHECK(p == NULL);
    CHECK_MSG(err, want);
    CHECK_MSG(err, "not finite");
    free(Y);

    /* k above N, k differing between ranks */
    CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, X + first * d, n, d, N + 1, &p, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "between 1 and the number of points");
    CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, X + first * d, n, d, rank == bad ? k + 1 : k, &p, &err) ==
          (size > 1 ? CKM_ERR_INVALID : CKM_OK));
    ckm_mpi_problem_free(p);
    p = NULL;

    /* an unreadable block: the last rank's part file is missing */
    char path[512];
    const char *ok = ck_file("part.npy", "");
    {
        /* write a valid part file with two rows (numpy format 1.0) */
        FILE *f = fopen(ok, "wb");
        char h[128];
        int hl = snprintf(h, sizeof h, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }");
        size_t pad = (64 - (10 + (size_t)hl + 1) % 64) % 64, len = (size_t)hl + pad + 1;
        unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)(len & 0xff),
                                 (unsigned char)(len >> 8)};
        fwrite(pre, 1, 10, f);
        fwrite(h, 1, (size_t)hl, f);
        for (size_t q = 0; q < pad; q++)
            fputc(' ', f);
        fputc('\n', f);
        double v[4] = {1, 2, 3, 4};
        fwrite(v, sizeof(double), 4, f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s", rank == bad ? "/nonexistent/ckm/part.npy" : ok);
    double *B = NULL;
    size_t bn, bf, bN, bd;
    CHECK(ckm_mpi_read_npy_part(MPI_COMM_WORLD, path, &B, &bn, &bf, &bN, &bd, &err) == CKM_ERR_IO);
    CHECK(B == NULL);
    CHECK_MSG(err, want);
    CHECK_MSG(err, "cannot open");
    /* the good case: every rank's two rows, in rank order */
    CHECK(ckm_mpi_read_npy_part(MPI_COMM_WORLD, ok, &B, &bn, &bf, &bN, &bd, &err) == CKM_OK);
    CHECK(bn == 2 && bd == 2 && bN == 2 * (size_t)size && bf == 2 * (size_t)rank && B && B[3] == 4.0);
    ckm_free(B);

    /* every allocation of a solve failing in turn on the last rank: every rank returns
       CKM_ERR_NOMEM with that rank's message (or the run succeeds when the failure hit
       nothing), never a hang; until a solve runs without reaching the failure */
    ckm_settings s;
    settings(&s, "sizeflow", 1);
    int cases = 0, agreed = 0;
    for (long at = 0; at < 100000; at++) {
        CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, X + first * d, n, d, k, &p, &err) == CKM_OK);
        CHECK(ckm_mpi_problem_set_balanced(p, &err) == CKM_OK);
        ckm_mpi_result *r = NULL;
        injected = 0;
        alloc_count = 0;
        fail_at = rank == bad ? at : -1;
        ckm_error rc = ckm_mpi_solve(p, &s, &r, &err);
        fail_at = -1;
        int mine[3] = {injected, (int)rc, -(int)rc}, all[3]; /* max: any hit, highest code, -lowest */
        reduce_int(mine, all, 3, MPI_MAX);
        int any = all[0];
        CHECK(all[1] == -all[2]); /* the same outcome everywhere */
        if (rc != CKM_OK) {
            cases++;
            agreed += rc == CKM_ERR_NOMEM && strstr(err.message, want) != NULL;
        }
        ckm_mpi_result_free(r);
        ckm_mpi_problem_free(p);
        p = NULL;
        if (!any)
            break;
    }
    CHECK(cases > 10);
    CHECK(agreed == cases);
    if (rank == 0)
        printf("allocation failures on rank %d: %d failing cases, all agreed\n", bad, cases);

    /* a stop request seen by one rank stops every rank at the same step */
    ckm_settings st;
    settings(&st, "kmeans", 50);
    CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, X + first * d, n, d, k, &p, &err) == CKM_OK);
    volatile int flag = 0;
    if (rank == bad)
        st.interrupt = &flag;
    flag = 1;
    ckm_mpi_result *r = NULL;
    CHECK(ckm_mpi_solve(p, &st, &r, &err) == CKM_OK);
    /* the request rides on the seeding's and the first iteration's reductions: that
       assignment's labels come back, the same on every rank, and nothing more runs */
    CHECK(r && r->status == CKM_STATUS_INTERRUPTED && r->has_labels && r->restarts == 1 && r->iterations == 0);
    ckm_mpi_result_free(r);
    /* sizeflow: a stop on one rank from its second poll on (in the seeding), from its
       sixth (in or after the first step), and one present from the start: every rank stops
       alike; labels, when any, are a complete step's and within the bounds */
    for (int from = 0; from < 3; from++) {
        ckm_mpi_problem *q = NULL;
        CHECK(ckm_mpi_problem_wrap(MPI_COMM_WORLD, X + first * d, n, d, k, &q, &err) == CKM_OK);
        CHECK(ckm_mpi_problem_set_balanced(q, &err) == CKM_OK);
        settings(&st, "sizeflow", 3);
        int polls = from == 1 ? -4 : 0; /* the seeding polls k - 1 = 3 times */
        volatile int now = 1;
        if (rank == bad && from < 2) {
            st.should_stop = stop_second;
            st.stop_user = &polls;
        } else if (rank == bad)
            st.interrupt = &now;
        CHECK(ckm_mpi_solve(q, &st, &r, &err) == CKM_OK);
        CHECK(r && r->status == CKM_STATUS_INTERRUPTED);
        if (r) {
            int h = r->has_labels, hm[2] = {h, -h}, all[2];
            reduce_int(hm, all, 2, MPI_MAX);
            CHECK(all[0] == -all[1]);
            CHECK(from == 1 || !h); /* stopped in the seeding: no step completed */
        }
        if (r && r->has_labels) {
            CHECK(r->violations == 0 && r->prices != NULL && r->iterations >= 1);
            for (size_t j = 0; j < k; j++)
                CHECK(r->sizes[j] == N / k);
        }
        ckm_mpi_result_free(r);
        ckm_mpi_problem_free(q);
    }
    /* unsupported algorithm; kmeans with size bounds; infeasible bounds */
    settings(&st, "blpkm", 1);
    CHECK(ckm_mpi_solve(p, &st, &r, &err) == CKM_ERR_UNSUPPORTED);
    CHECK_MSG(err, "kmeans and sizeflow");
    settings(&st, "kmeans", 1);
    CHECK(ckm_mpi_problem_set_size_range(p, 10, 20, &err) == CKM_OK);
    CHECK(ckm_mpi_solve(p, &st, &r, &err) == CKM_ERR_UNSUPPORTED);
    settings(&st, "sizeflow", 1);
    CHECK(ckm_mpi_solve(p, &st, &r, &err) == CKM_OK);
    CHECK(r && r->status == CKM_STATUS_INFEASIBLE && !r->has_labels && strstr(r->message, "cannot be met"));
    ckm_mpi_result_free(r);
    /* bounds that differ between ranks */
    size_t lo[4] = {1, 1, 1, 1}, hi[4] = {600, 600, 600, (size_t)(600 - (rank == bad))};
    CHECK(ckm_mpi_problem_set_sizes(p, lo, hi, &err) == (size > 1 ? CKM_ERR_INVALID : CKM_OK));
    ckm_mpi_problem_free(p);
    free(X);
}

/* The streamed labels file equals the gathered labels (text and .npy). */
static void test_write(void)
{
    size_t N = 500, d = 3, k = 5, first, n;
    double *X = blobs(N, d, k, 3);
    split(N, 2, &first, &n);
    ckm_settings s;
    settings(&s, "sizeflow", 1);
    ckm_mpi_problem *p = NULL;
    run got = solve(MPI_COMM_WORLD, X, first, n, d, k, &s, 1, &p);
    CHECK(got.rc == CKM_OK && got.all);
    char path[2][600];
    const char *base = ck_file("x", "");
    /* rank 0's temp dir name reaches the others */
    char dir[512];
    snprintf(dir, sizeof dir, "%s", base);
    MPI_Request rq;
    MPI_Ibcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD, &rq);
    wait_req(&rq);
    snprintf(path[0], sizeof path[0], "%s.labels.txt", dir);
    snprintf(path[1], sizeof path[1], "%s.labels.npy", dir);
    ckm_err err = {CKM_OK, ""};
    for (int q = 0; q < 2; q++) {
        CHECK(ckm_mpi_write_labels(p, got.r, path[q], &err) == CKM_OK);
        if (rank == 0) {
            int32_t *back = NULL;
            size_t m = 0;
            CHECK(ckm_labels_read(path[q], &back, &m, &err) == CKM_OK);
            CHECK(m == N && back && memcmp(back, got.all, N * sizeof(int32_t)) == 0);
            ckm_free(back);
        }
    }
    /* an unwritable path: every rank gets the error */
    CHECK(ckm_mpi_write_labels(p, got.r, "/nonexistent/dir/labels.txt", &err) == CKM_ERR_IO);
    run_free(&got);
    ckm_mpi_problem_free(p);
    free(X);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    test_equal("kmeans", 0, 2000, 3, 8);
    test_equal("kmeans", 0, 901, 5, 1);
    test_equal("kmeans", 0, 5000, 8, 16); /* N k >= 65536, k d >= 128: Yinyang bounds per rank */
    test_equal("sizeflow", 1, 1500, 4, 7);
    test_equal("sizeflow", 2, 1200, 2, 5);
    test_default_bounds();
    test_failures();
    test_write();
    int fp[2] = {ck_failed, ck_passed}, FP[2];
    reduce_int(fp, FP, 2, MPI_SUM);
    int F = FP[0], P = FP[1];
    if (rank == 0)
        printf("%d ranks: %d passed, %d failed\n", size, P, F);
    MPI_Barrier(MPI_COMM_WORLD);
    ck_cleanup();
    MPI_Finalize();
    return F ? 1 : 0;
}
