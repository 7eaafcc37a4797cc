/*
 * test_alloc_fail.c -- allocation-failure injection over the public API (SQLite's practice).
 * This executable is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc, so every
 * allocation made by libckm's objects (linked statically into it) goes through the wrappers
 * below; COIN-OR, OpenBLAS and libc allocate on their own and are not failed.
 * For each operation (readers, problem building, ckm_solve with kmeans, blpkm, sizeflow,
 * cop, bckm, admm, ipc, exact, blpkm with capacities, and ckm_certify) and n = 1, 2, ...: the n-th allocation fails; the call must
 * return CKM_ERR_NOMEM with a message (never crash, never another code, never a result),
 * and the inputs must stay usable: the same call without injection then gives the
 * reference result. The loop ends at the first n the operation completes without reaching.
 * Leaks are found by LeakSanitizer at exit (the suite runs under ASan).
 */
#include "../check.h"

#include <stdatomic.h>

void *__real_malloc(size_t size);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t size);

static atomic_long alloc_count, fail_at; /* fail_at 0: never */
static atomic_int injected;

static int should_fail(void)
{
    long at = atomic_load(&fail_at);
    if (at <= 0)
        return 0;
    if (atomic_fetch_add(&alloc_count, 1) + 1 == at) {
        atomic_store(&injected, 1);
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size) { return should_fail() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t count, size_t size) { return should_fail() ? NULL : __real_calloc(count, size); }
void *__wrap_realloc(void *p, size_t size) { return should_fail() ? NULL : __real_realloc(p, size); }

static void arm(long n)
{
    atomic_store(&alloc_count, 0);
    atomic_store(&injected, 0);
    atomic_store(&fail_at, n);
}

static void disarm(void) { atomic_store(&fail_at, 0); }

/* One operation under test: run it (armed or not), compare with the reference when done. */
typedef struct op {
    const char *name;
    ckm_error (*call)(void *ctx, ckm_err *err, double *fingerprint);
    void *ctx;
} op;

static long exercise(const op *o)
{
    ckm_err err = {CKM_OK, ""};
    double ref = 0.0;
    CHECK(o->call(o->ctx, &err, &ref) == CKM_OK);
    long n = 1, bad = 0;
    for (;; n++) {
        ckm_err e = {CKM_OK, ""};
        double fp = 0.0;
        arm(n);
        ckm_error rc = o->call(o->ctx, &e, &fp);
        disarm();
        if (!atomic_load(&injected)) { /* completed before the n-th allocation */
            CHECK(rc == CKM_OK && fp == ref);
            break;
        }
        if (rc != CKM_ERR_NOMEM || !e.message[0]) {
            /* an allocation failure the library absorbed (e.g. a cache it can do without)
             * must still give the reference answer */
            if (!(rc == CKM_OK && fp == ref)) {
                bad++;
                if (bad <= 5)
                    fprintf(stderr, "  %s: allocation %ld failed -> %s (%s)\n", o->name, n, ckm_error_string(rc),
                            e.message);
            }
        }
        /* still usable: the same call without injection gives the reference */
        if (n % 97 == 1) {
            double again = 0.0;
            ckm_err e2 = {CKM_OK, ""};
            CHECK(o->call(o->ctx, &e2, &again) == CKM_OK && again == ref);
        }
    }
    CHECK(bad == 0);
    printf("%-22s %5ld allocations failed one at a time: %s\n", o->name, n - 1, bad ? "FAILURES" : "all clean");
    return n - 1;
}

/* ---- operations ---- */

static char path_iris[600], path_cons[600], path_sizes[600], path_labels[600], path_pcsos[600], path_keel[600];

static ckm_error op_read_points(void *ctx, ckm_err *err, double *fp)
{
    const char *path = ctx;
    ckm_dataset *ds = NULL;
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    if (path == path_iris)
        ro.label_column = CKM_LABEL_COLUMN_LAST;
    ckm_error rc = ckm_dataset_read(path, &ro, &ds, err);
    if (rc == CKM_OK) {
        *fp = (double)ds->n * 1000.0 + (double)ds->n_classes + ds->X[7];
        ckm_dataset_free(ds);
    }
    return rc;
}

static ckm_error op_read_constraints(void *ctx, ckm_err *err, double *fp)
{
    (void)ctx;
    ckm_constraints *c = NULL;
    ckm_error rc = ckm_constraints_read(path_cons, 150, &c, err);
    if (rc == CKM_OK) {
        *fp = (double)c->count;
        ckm_constraints_free(c);
    }
    return rc;
}

static ckm_error op_read_sizes_labels(void *ctx, ckm_err *err, double *fp)
{
    (void)ctx;
    size_t lo[3], hi[3];
    ckm_error rc = ckm_sizes_read(path_sizes, 3, lo, hi, err);
    if (rc != CKM_OK)
        return rc;
    int32_t *lab = NULL;
    size_t n = 0;
    if ((rc = ckm_labels_read(path_labels, &lab, &n, err)) != CKM_OK)
        return rc;
    *fp = (double)(lo[1] + hi[2] + n) + lab[n - 1];
    free(lab);
    return rc;
}

typedef struct solve_ctx {
    const double *X;
    size_t n, d, k;
    const int *pairs; /* (i, j, +1 ML / -1 CL) triples */
    size_t npairs;
    size_t lo, hi;
    const char *algo;
    int n_init;
    int caps; /* demands 1 + i % 3 and loads within [6, 10] (docs/capacities.md) */
} solve_ctx;

/* the points and pairs of c as a problem (*p: NULL until created) */
static ckm_error paired_problem(const solve_ctx *c, ckm_problem **p, ckm_err *err)
{
    ckm_error rc = ckm_problem_create(c->X, c->n, c->d, c->k, p, err);
    for (size_t q = 0; rc == CKM_OK && q < c->npairs; q++)
        rc = ckm_problem_add_pair(*p, (size_t)c->pairs[3 * q], (size_t)c->pairs[3 * q + 1],
                                  c->pairs[3 * q + 2] > 0 ? CKM_MUST_LINK : CKM_CANNOT_LINK, err);
    return rc;
}

static ckm_error op_solve(void *vctx, ckm_err *err, double *fp)
{
    const solve_ctx *c = vctx;
    ckm_problem *p = NULL;
    ckm_error rc = paired_problem(c, &p, err);
    if (rc == CKM_OK && (c->lo != 1 || c->hi != c->n))
        rc = ckm_problem_set_size_range(p, c->lo, c->hi, err);
    if (rc == CKM_OK && c->caps) {
        double q[64];
        for (size_t i = 0; i < c->n; i++)
            q[i] = 1.0 + (double)(i % 3);
        rc = ckm_problem_set_demands(p, q, err);
        if (rc == CKM_OK)
            rc = ckm_problem_set_capacity_range(p, 6.0, 10.0, err);
    }
    ckm_result *r = NULL;
    if (rc == CKM_OK) {
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "%s", c->algo);
        s.n_init = c->n_init;
        s.threads = 1;
        s.cut_rounds = 3;
        rc = ckm_solve(p, &s, &r, err);
    }
    if (rc == CKM_OK) {
        *fp = r->has_labels ? r->sse : -1.0;
        for (size_t i = 0; r->has_labels && i < c->n; i++)
            *fp += 1e-3 * (double)r->labels[i] * (double)(i + 1);
        if (rc == CKM_OK && !r->has_labels)
            *fp = -(double)r->status;
    }
    ckm_result_free(r);
    ckm_problem_free(p);
    return rc;
}

/* ckm_certify of labels i % 3 on the instance of op_solve, in two subsets (one thread) */
static ckm_error op_certify(void *vctx, ckm_err *err, double *fp)
{
    const solve_ctx *c = vctx;
    ckm_problem *p = NULL;
    ckm_error rc = paired_problem(c, &p, err);
    int32_t lab[64];
    for (size_t i = 0; i < c->n; i++)
        lab[i] = (int32_t)(i % c->k);
    ckm_certificate *cert = NULL;
    if (rc == CKM_OK) {
        ckm_settings s;
        ckm_settings_default(&s);
        s.threads = 1;
        s.cut_rounds = 3;
        rc = ckm_certify(p, lab, 2, &s, &cert, err);
    }
    if (rc == CKM_OK) {
        *fp = cert->lower_bound;
        for (size_t i = 0; i < c->n; i++)
            *fp += 1e-3 * (double)cert->subset_of[i] * (double)(i + 1);
    }
    ckm_certificate_free(cert);
    ckm_problem_free(p);
    return rc;
}

int main(void)
{
    snprintf(path_iris, sizeof path_iris, "%s/data/iris.csv", CKM_SOURCE_DIR);
    snprintf(path_cons, sizeof path_cons, "%s", ck_file("cons.txt", "ML 0 1\nCL 2 60\n# comment\n3 4 1\n5 120 -1\n"));
    snprintf(path_sizes, sizeof path_sizes, "%s", ck_file("sizes.txt", "1 50\n40 60\n70\n"));
    snprintf(path_labels, sizeof path_labels, "%s", ck_file("labels.txt", "0\n1\n# c\n2\n1\n"));
    snprintf(path_pcsos, sizeof path_pcsos, "%s", ck_file("p.txt", "4 2 2\n0 0\n1 1.5\n2 2\n3 -1e3\n"));
    snprintf(path_keel, sizeof path_keel, "%s",
             ck_file("k.dat", "@relation x\n@attribute a real\n@attribute b real\n@attribute c {p,q}\n@data\n"
                              "1,2,p\n3,4,q\n5,6,p\n7,8,q\n"));
    /* 12 points in three blobs, two must-links, two cannot-links */
    double X[24];
    uint64_t st = 3;
    for (int i = 0; i < 12; i++) {
        X[2 * i] = (i % 3) * 4.0 + ck_unif(&st);
        X[2 * i + 1] = (i % 3) * -2.0 + ck_unif(&st);
    }
    const int pairs[] = {0, 3, 1, 1, 4, 1, 0, 1, -1, 2, 5, -1};
    solve_ctx base = {X, 12, 2, 3, pairs, 4, 1, 12, "kmeans", 2, 0};
    const char *algos[] = {"kmeans", "blpkm", "cop", "sizeflow", "bckm", "admm", "ipc", "exact"};
    solve_ctx ctxs[9];
    op ops[5 + 9 + 1] = {{"read points (iris)", op_read_points, path_iris},
                     {"read PC-SOS-SDP points", op_read_points, path_pcsos},
                     {"read KEEL points", op_read_points, path_keel},
                     {"read constraints", op_read_constraints, NULL},
                     {"read sizes + labels", op_read_sizes_labels, NULL}};
    char names[8][40];
    for (int a = 0; a < 8; a++) {
        ctxs[a] = base;
        ctxs[a].algo = algos[a];
        if (strcmp(algos[a], "kmeans") == 0)
            ctxs[a].npairs = 0;
        if (strcmp(algos[a], "sizeflow") == 0) {
            ctxs[a].npairs = 2; /* must-links only */
            ctxs[a].lo = 3;
            ctxs[a].hi = 5;
        } else if (strcmp(algos[a], "kmeans") != 0 && strcmp(algos[a], "cop") != 0) {
            ctxs[a].lo = 3;
            ctxs[a].hi = 5;
        }
        snprintf(names[a], sizeof names[a], "solve %s", algos[a]);
        ops[5 + a] = (op){names[a], op_solve, &ctxs[a]};
    }
    ctxs[8] = ctxs[1]; /* blpkm, pairs, sizes 3..5, and capacities */
    ctxs[8].caps = 1;
    ops[5 + 8] = (op){"solve blpkm with capacities", op_solve, &ctxs[8]};
    ops[5 + 9] = (op){"certify (2 subsets)", op_certify, &base};
    long total = 0;
    for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++)
        total += exercise(&ops[q]);
    printf("%ld injected allocation failures in all\n", total);
    ck_cleanup();
    return ck_report();
}
