/*
 * dist_api.c -- the public MPI functions of ckm_mpi.h: reading blocks of a .npy file,
 * the distributed problem, the solve (validation, the algorithm, the global re-check of
 * the result) and the streamed labels file.
 * Invariant: every function is collective and returns the same code on every rank
 * (ckm_dist_agree after anything that can fail locally).
 */
#include "dist.h"
#include "npy.h"
#include "text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rows [first, first + rows) of path; *N and *d from its header. */
static ckm_error read_rows(const char *path, bool whole, int rank, int size, double **X, size_t *n_local,
                           size_t *first, size_t *N, size_t *d, ckm_err *err)
{
    ckm_npy a;
    ckm_error rc = ckm_npy_open(path, &a, err);
    if (rc != CKM_OK)
        return rc;
    if (a.ndim != 2 && a.ndim != 1) {
        ckm_npy_free(&a);
        return ckm_fail(err, CKM_ERR_PARSE, "%s: points must be a 1-D or 2-D array", path);
    }
    *N = a.shape[0];
    *d = a.shape[1];
    size_t lo = 0, hi = *N;
    if (!whole) {
        lo = (size_t)(((ckm_uxint)*N * (unsigned)rank) / (unsigned)size);
        hi = (size_t)(((ckm_uxint)*N * (unsigned)(rank + 1)) / (unsigned)size);
    }
    *first = lo;
    *n_local = hi - lo;
    *X = NULL;
    if (hi > lo) {
        size_t cnt;
        *X = ckm_mul_ok(hi - lo, *d, &cnt) ? ckm_alloc_array(cnt, sizeof(double)) : NULL;
        if (!*X)
            rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory for rows %zu..%zu (%zu columns)", path, lo, hi, *d);
        else
            rc = ckm_npy_read_rows(path, &a, lo, hi - lo, *X, err);
    }
    ckm_npy_free(&a);
    if (rc != CKM_OK) {
        free(*X);
        *X = NULL;
    }
    return rc;
}

/* The blocks' layout after each rank read its rows: d must agree; first/N from a scan. */
static ckm_error layout(MPI_Comm comm, size_t n_local, size_t d, size_t *first, size_t *N, ckm_err *err)
{
    unsigned long long mine[2] = {n_local, d}, lo[2], hi[2], sum = 0, before = 0, nl = n_local;
    ckm_dist_allreduce(mine, lo, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
    ckm_dist_allreduce(mine, hi, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
    ckm_dist_allreduce(&nl, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
    ckm_dist_exscan(&nl, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0)
        before = 0; /* MPI_Exscan leaves rank 0's result undefined */
    *first = (size_t)before;
    *N = (size_t)sum;
    if (lo[1] != hi[1])
        return ckm_fail(err, CKM_ERR_INVALID, "the ranks' blocks have different numbers of columns (%llu .. %llu)",
                        lo[1], hi[1]);
    return CKM_OK;
}

static ckm_error read_common(MPI_Comm comm, const char *path, bool part, double **X, size_t *n_local, size_t *first,
                             size_t *n_total, size_t *d, ckm_err *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    size_t N = 0, f = 0, n = 0, dd = 0;
    double *Xr = NULL;
    ckm_error rc = path ? read_rows(path, part, rank, size, &Xr, &n, &f, &N, &dd, err)
                        : ckm_fail(err, CKM_ERR_INVALID, "no path");
    if ((rc = ckm_dist_agree(comm, rc, err)) != CKM_OK) {
        free(Xr);
        return rc;
    }
    size_t f2, N2;
    rc = layout(comm, n, dd, &f2, &N2, err);
    if (!part && rc == CKM_OK && (f2 != f || N2 != N))
        rc = ckm_fail(err, CKM_ERR_INVALID, "%s: the ranks read different files (row counts disagree)", path);
    if ((rc = ckm_dist_agree(comm, rc, err)) != CKM_OK) {
        free(Xr);
        return rc;
    }
    *X = Xr;
    *n_local = n;
    *first = f2;
    *n_total = N2;
    *d = dd;
    return CKM_OK;
}

ckm_error ckm_mpi_read_npy(MPI_Comm comm, const char *path, double **X, size_t *n_local, size_t *first,
                           size_t *n_total, size_t *d, ckm_err *err)
{
    return read_common(comm, path, false, X, n_local, first, n_total, d, err);
}

ckm_error ckm_mpi_read_npy_part(MPI_Comm comm, const char *path, double **X, size_t *n_local, size_t *first,
                                size_t *n_total, size_t *d, ckm_err *err)
{
    return read_common(comm, path, true, X, n_local, first, n_total, d, err);
}

ckm_error ckm_mpi_problem_wrap(MPI_Comm comm, const double *X, size_t n_local, size_t d, size_t k,
                               ckm_mpi_problem **out, ckm_err *err)
{
    *out = NULL;
    int size;
    MPI_Comm_size(comm, &size);
    ckm_mpi_problem *p = calloc(1, sizeof *p);
    ckm_error rc = CKM_OK;
    if (!p || !(p->starts = ckm_alloc_array((size_t)size + 1, sizeof(size_t))))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    else if (d < 1)
        rc = ckm_fail(err, CKM_ERR_INVALID, "d = 0: points need at least one column");
    else if (n_local > 0 && !X)
        rc = ckm_fail(err, CKM_ERR_INVALID, "X is NULL for %zu rows", n_local);
    else if (n_local > (size_t)INT32_MAX)
        rc = ckm_fail(err, CKM_ERR_INVALID, "%zu rows on one rank: at most 2^31 - 1 per rank", n_local);
    double xmax = 0.0;
    for (size_t q = 0; rc == CKM_OK && q < n_local * d; q++) {
        double v = fabs(X[q]);
        if (!(v - v == 0.0))
            rc = ckm_fail(err, CKM_ERR_PARSE, "row %zu, column %zu of this rank's block: value is not finite", q / d,
                          q % d);
        xmax = v > xmax ? v : xmax;
    }
    if ((rc = ckm_dist_agree(comm, rc, err)) != CKM_OK)
        goto fail;
    size_t first, N;
    if ((rc = ckm_dist_agree(comm, layout(comm, n_local, d, &first, &N, err), err)) != CKM_OK)
        goto fail;
    unsigned long long kk[2] = {k, k};
    ckm_dist_allreduce(MPI_IN_PLACE, &kk[0], 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm);
    ckm_dist_allreduce(MPI_IN_PLACE, &kk[1], 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm);
    ckm_dist_allreduce(MPI_IN_PLACE, &xmax, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (kk[0] != kk[1])
        rc = ckm_fail(err, CKM_ERR_INVALID, "the ranks passed different k (%llu .. %llu)", kk[0], kk[1]);
    else if (k < 1 || k > N)
        rc = ckm_fail(err, CKM_ERR_INVALID, "k = %zu must be between 1 and the number of points, %zu", k, N);
    else if (!(xmax * xmax * 4.0 * (double)d < 0x1p1000))
        rc = ckm_fail(err, CKM_ERR_INVALID, "values up to %g: squared distances would overflow", xmax);
    else if (!(p->lo = ckm_alloc_array(k, sizeof(size_t))) || !(p->hi = ckm_alloc_array(k, sizeof(size_t))))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    if ((rc = ckm_dist_agree(comm, rc, err)) != CKM_OK)
        goto fail;
    unsigned long long f = first, *all = malloc((size_t)size * sizeof *all);
    if ((rc = ckm_dist_agree(comm, all ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory"), err)) != CKM_OK)
        goto fail;
    ckm_dist_allgather(&f, all, 1, MPI_UNSIGNED_LONG_LONG, comm);
    for (int r = 0; r < size; r++)
        p->starts[r] = (size_t)all[r];
    p->starts[size] = N;
    free(all);
    MPI_Comm_dup(comm, &p->comm);
    MPI_Comm_rank(p->comm, &p->rank);
    p->size = size;
    p->X = X;
    p->n = n_local;
    p->first = first;
    p->N = N;
    p->d = d;
    p->k = k;
    p->xmax = xmax;
    for (size_t j = 0; j < k; j++) { /* ckm_problem's default: 1..N, no empty cluster */
        p->lo[j] = 1;
        p->hi[j] = N;
    }
    *out = p;
    return CKM_OK;
fail:
    if (p) {
        free(p->starts);
        free(p->lo);
        free(p->hi);
        free(p);
    }
    return rc;
}

void ckm_mpi_problem_free(ckm_mpi_problem *p)
{
    if (!p)
        return;
    MPI_Comm_free(&p->comm);
    free(p->starts);
    free(p->lo);
    free(p->hi);
    free(p);
}

size_t ckm_mpi_problem_n_local(const ckm_mpi_problem *p)
{
    return p ? p->n : 0;
}

size_t ckm_mpi_problem_first(const ckm_mpi_problem *p)
{
    return p ? p->first : 0;
}

size_t ckm_mpi_problem_n_total(const ckm_mpi_problem *p)
{
    return p ? p->N : 0;
}

ckm_error ckm_mpi_problem_set_sizes(ckm_mpi_problem *p, const size_t *lo, const size_t *hi, ckm_err *err)
{
    size_t k = p->k;
    ckm_error rc = CKM_OK;
    if (!lo || !hi)
        rc = ckm_fail(err, CKM_ERR_INVALID, "size bounds: lo and hi must not be NULL");
    for (size_t j = 0; rc == CKM_OK && j < k; j++)
        if (lo[j] > hi[j])
            rc = ckm_fail(err, CKM_ERR_INVALID, "size bounds of cluster %zu: lower %zu > upper %zu", j, lo[j], hi[j]);
    /* the same values on every rank: compare a checksum of the bounds by MIN and MAX */
    unsigned long long h = 1469598103934665603ull;
    for (size_t j = 0; rc == CKM_OK && j < k; j++) {
        h = (h ^ (unsigned long long)lo[j]) * 1099511628211ull;
        h = (h ^ (unsigned long long)hi[j]) * 1099511628211ull;
    }
    if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
        return rc;
    unsigned long long hl = h, hh = h;
    ckm_dist_allreduce(MPI_IN_PLACE, &hl, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, p->comm);
    ckm_dist_allreduce(MPI_IN_PLACE, &hh, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, p->comm);
    if (hl != hh)
        return ckm_dist_agree(p->comm, ckm_fail(err, CKM_ERR_INVALID, "the ranks passed different size bounds"), err);
    for (size_t j = 0; j < k; j++) {
        p->lo[j] = lo[j] < p->N ? lo[j] : p->N + 1; /* above N: infeasible, reported by the solve */
        p->hi[j] = hi[j] < p->N ? hi[j] : p->N;
    }
    p->sized = true;
    return CKM_OK;
}

ckm_error ckm_mpi_problem_set_size_range(ckm_mpi_problem *p, size_t lo, size_t hi, ckm_err *err)
{
    size_t *l = ckm_alloc_array(p->k, sizeof(size_t)), *h = ckm_alloc_array(p->k, sizeof(size_t));
    ckm_error rc = l && h ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    if ((rc = ckm_dist_agree(p->comm, rc, err)) == CKM_OK) {
        for (size_t j = 0; j < p->k; j++) {
            l[j] = lo;
            h[j] = hi;
        }
        rc = ckm_mpi_problem_set_sizes(p, l, h, err);
    }
    free(l);
    free(h);
    return rc;
}

ckm_error ckm_mpi_problem_set_balanced(ckm_mpi_problem *p, ckm_err *err)
{
    return ckm_mpi_problem_set_size_range(p, p->N / p->k, (p->N + p->k - 1) / p->k, err);
}

void ckm_mpi_result_free(ckm_mpi_result *r)
{
    if (!r)
        return;
    free(r->labels);
    free(r->centers);
    free(r->sizes);
    free(r->prices);
    free(r);
}

/* The independent re-check of a result: sizes counted from the labels, bounds, SSE by
 * exact sum against the means of the labels. */
static void recheck(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *r, int64_t *count, ckm_xint *xs)
{
    size_t k = p->k;
    ckm_dist_means(c, p, r->labels, r->centers, count, xs);
    r->violations = 0;
    for (size_t j = 0; j < k; j++) {
        r->sizes[j] = (size_t)count[j];
        r->violations += r->sizes[j] < p->lo[j] || r->sizes[j] > p->hi[j];
    }
    r->sse = ckm_dist_sse(c, p, r->labels, r->centers);
}

/* The distributed algorithms: their registry names (what they honour and their default
 * max_iter come from ckm_algorithm_find) and runs; prices: the result carries cluster prices. */
typedef struct distributed {
    const char *name;
    ckm_error (*run)(ckm_dist *c, const ckm_mpi_problem *p, ckm_mpi_result *out, ckm_err *err);
    bool prices;
} distributed;
static const distributed runs[] = {{"kmeans", ckm_dist_kmeans, false}, {"sizeflow", ckm_dist_sizeflow, true}};

ckm_error ckm_mpi_solve(const ckm_mpi_problem *p, const ckm_settings *s, ckm_mpi_result **out, ckm_err *err)
{
    *out = NULL;
    ckm_settings def;
    if (!s) {
        ckm_settings_default(&def);
        s = &def;
    }
    size_t k = p->k, d = p->d, n = p->n;
    ckm_mpi_result *r = calloc(1, sizeof *r);
    ckm_error rc = CKM_OK;
    if (!r || !(r->labels = ckm_alloc_array(n ? n : 1, sizeof(int32_t))) ||
        !(r->centers = ckm_alloc_array(k * d, sizeof(double))) || !(r->sizes = ckm_calloc_array(k, sizeof(size_t))) ||
        !(r->prices = ckm_calloc_array(k, sizeof(double))))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the result");
    const distributed *run = NULL;
    for (size_t q = 0; q < sizeof runs / sizeof runs[0]; q++)
        if (strcmp(s->algorithm, runs[q].name) == 0)
            run = &runs[q];
    const ckm_algorithm_info *info = run ? ckm_algorithm_find(run->name) : NULL;
    bool sizeflow = run && run->prices;
    if (rc == CKM_OK && !run)
        rc = ckm_fail(err, CKM_ERR_UNSUPPORTED,
                      "algorithm '%s' does not run over MPI: the distributed algorithms are kmeans and sizeflow",
                      s->algorithm);
    else if (rc == CKM_OK && p->sized && !(info->honours & CKM_HONOURS_SIZE_BOUNDS))
        rc = ckm_fail(err, CKM_ERR_UNSUPPORTED, "%s ignores size bounds: use sizeflow for size-bounded clusters",
                      run->name);
    else if (rc == CKM_OK && (s->n_init < 1 || s->max_iter < 0 || !(s->tol >= 0.0) || !(s->time_limit_s >= 0.0)))
        rc = ckm_fail(err, CKM_ERR_INVALID, "settings: n_init >= 1, max_iter >= 0, tol >= 0, time_limit_s >= 0");
    for (size_t q = 0; rc == CKM_OK && s->init_centers && q < k * d; q++)
        if (!isfinite(s->init_centers[q]))
            rc = ckm_fail(err, CKM_ERR_INVALID, "init_centers: entry %zu is not finite", q);
    int64_t *count = ckm_alloc_array(k + 1, sizeof(int64_t));
    ckm_xint *xs = ckm_alloc_array(k * d + k + 1, sizeof(ckm_xint));
    if (rc == CKM_OK && (!count || !xs))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    ckm_dist c;
    memset(&c, 0, sizeof c);
    if (rc == CKM_OK)
        rc = ckm_dist_open(&c, p->comm, s, &r->comm, err);
    if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
        goto fail;
    r->struct_size = (uint32_t)sizeof *r;
    r->n_local = n;
    r->first = p->first;
    r->n = p->N;
    r->d = d;
    r->k = k;
    r->sse = NAN;
    r->seed = s->seed;
    snprintf(r->algorithm, sizeof r->algorithm, "%s", run->name);
    c.max_iter = s->max_iter > 0 ? s->max_iter : info->default_max_iter;
    size_t slo, shi;
    ckm_bound_sums(p->lo, p->hi, k, &slo, &shi);
    if (slo > p->N || shi < p->N) {
        r->status = CKM_STATUS_INFEASIBLE;
        snprintf(r->message, sizeof r->message,
                 "size bounds cannot be met: the lower bounds add up to %zu and the upper bounds to %zu for %zu points",
                 slo, shi, p->N);
    } else {
        rc = run->run(&c, p, r, err);
        if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
            goto fail;
        if (r->has_labels) {
            recheck(&c, p, r, count, xs);
            if (r->violations)
                rc = ckm_fail(err, CKM_ERR_INTERNAL, "the labels break %zu size bounds", r->violations);
        }
        if (!r->has_labels && (r->status == CKM_STATUS_TIME_LIMIT || r->status == CKM_STATUS_INTERRUPTED))
            snprintf(r->message, sizeof r->message, "stopped (%s) before the first labelling",
                     ckm_status_string(r->status));
    }
    if (!sizeflow || !r->has_labels) {
        free(r->prices);
        r->prices = NULL;
    }
    if (!r->has_labels) {
        free(r->labels);
        free(r->centers);
        free(r->sizes);
        r->labels = NULL;
        r->centers = NULL;
        r->sizes = NULL;
    }
    r->seconds = ckm_now() - c.start;
    if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
        goto fail;
    ckm_dist_close(&c);
    free(count);
    free(xs);
    *out = r;
    return CKM_OK;
fail:
    ckm_dist_close(&c);
    free(count);
    free(xs);
    ckm_mpi_result_free(r);
    return rc;
}

/* rank 0: append the text or int32 bytes of m labels to fd */
static int put_labels(int fd, const int32_t *lab, size_t m, bool npy, char *buf, size_t cap)
{
    size_t used = 0;
    for (size_t i = 0; i < m; i++) {
        if (cap - used < CKM_LABEL_LINE_MAX) {
            if (write(fd, buf, used) != (ssize_t)used)
                return -1;
            used = 0;
        }
        if (npy) {
            memcpy(buf + used, &lab[i], 4); /* x86-64 and the like: little-endian '<i4' */
            used += 4;
        } else {
            used = (size_t)(ckm_put_label_line(buf + used, lab[i]) - buf);
        }
    }
    return used == 0 || write(fd, buf, used) == (ssize_t)used ? 0 : -1;
}

ckm_error ckm_mpi_write_labels(const ckm_mpi_problem *p, const ckm_mpi_result *r, const char *path, ckm_err *err)
{
    ckm_error rc = r && r->has_labels && path ? CKM_OK
                                              : ckm_fail(err, CKM_ERR_INVALID, "no labels to write (or no path)");
    if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
        return rc;
    bool npy = ckm_npy_path(path);
    char *tmp = NULL, *buf = NULL;
    int fd = -1;
    size_t cap = 1 << 16;
    int32_t *in = NULL;
    size_t most = 0;
    for (int q = 0; q < p->size; q++)
        most = p->starts[q + 1] - p->starts[q] > most ? p->starts[q + 1] - p->starts[q] : most;
    if (p->rank == 0) {
        size_t pl = strlen(path);
        tmp = malloc(pl + 16);
        buf = malloc(cap);
        in = ckm_alloc_array(most ? most : 1, sizeof(int32_t));
        if (!tmp || !buf || !in)
            rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory writing %s", path);
        else {
            memcpy(tmp, path, pl);
            memcpy(tmp + pl, ".tmp.XXXXXX", 12);
            fd = mkstemp(tmp);
            if (fd < 0)
                rc = ckm_fail(err, CKM_ERR_IO, "%s: cannot create temporary file: %s", path, strerror(errno));
        }
        if (rc == CKM_OK && npy) {
            char h[128];
            int hl = snprintf(h, sizeof h, "{'descr': '<i4', 'fortran_order': False, 'shape': (%zu,), }", p->N);
            size_t total = 10 + (size_t)hl + 1, pad = (64 - total % 64) % 64;
            char head[256];
            memcpy(head, "\x93NUMPY\x01\x00", 8);
            size_t hlen = (size_t)hl + pad + 1;
            head[8] = (char)(hlen & 0xff);
            head[9] = (char)(hlen >> 8);
            memcpy(head + 10, h, (size_t)hl);
            memset(head + 10 + hl, ' ', pad);
            head[10 + (size_t)hl + pad] = '\n';
            if (write(fd, head, 10 + hlen) != (ssize_t)(10 + hlen))
                rc = ckm_fail(err, CKM_ERR_IO, "%s: write failed: %s", path, strerror(errno));
        }
    }
    if ((rc = ckm_dist_agree(p->comm, rc, err)) != CKM_OK)
        goto done;
    /* rank order: rank 0 writes its own block, then receives and writes each other block */
    int bad = 0;
    for (int q = 0; q < p->size; q++) {
        size_t m = p->starts[q + 1] - p->starts[q];
        if (m == 0)
            continue;
        if (p->rank == 0) {
            const int32_t *src = r->labels;
            if (q != 0) {
                ckm_dist_recv(in, (int)m, MPI_INT32_T, q, 7, p->comm);
                src = in;
            }
            if (!bad && put_labels(fd, src, m, npy, buf, cap) != 0)
                bad = errno ? errno : EIO;
        } else if (p->rank == q) {
            ckm_dist_send(r->labels, (int)m, MPI_INT32_T, 0, 7, p->comm);
        }
    }
    if (p->rank == 0) {
        if (!bad && fsync(fd) != 0)
            bad = errno;
        if (close(fd) != 0 && !bad)
            bad = errno;
        fd = -1;
        if (!bad && rename(tmp, path) != 0)
            bad = errno;
        if (bad) {
            unlink(tmp);
            rc = ckm_fail(err, CKM_ERR_IO, "%s: write failed: %s", path, strerror(bad));
        }
    }
    rc = ckm_dist_agree(p->comm, rc, err);
done:
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    free(tmp);
    free(buf);
    free(in);
    return rc;
}
