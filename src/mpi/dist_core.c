/*
 * dist_core.c -- the MPI mode's run context: collective helpers that count what they send,
 * error agreement (one rank's failure reaches every rank, no hang), stop agreement, and
 * the exact sums of dist.h (SSE, means, the stopping threshold).
 * Every helper is collective over c->comm; all ranks call them in the same order.
 */
#include "dist.h"

#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ckm_x_exponent(double B)
{
    if (!(B > 0.0) || !isfinite(B))
        return 0;
    return ilogb(B) + 1 - 82;
}

/* MPI user operation: element-wise sum of ckm_xint (copied: MPI buffers need not be
 * 16-byte aligned). */
static void xsum_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const unsigned char *a = in;
    unsigned char *b = inout;
    for (int q = 0; q < *len; q++) {
        ckm_xint x, y;
        memcpy(&x, a + (size_t)q * sizeof x, sizeof x);
        memcpy(&y, b + (size_t)q * sizeof y, sizeof y);
        y += x;
        memcpy(b + (size_t)q * sizeof y, &y, sizeof y);
    }
}

ckm_error ckm_dist_open(ckm_dist *c, MPI_Comm comm, const ckm_settings *set, ckm_mpi_comm_stats *st, ckm_err *err)
{
    memset(c, 0, sizeof *c);
    c->comm = comm;
    MPI_Comm_rank(comm, &c->rank);
    MPI_Comm_size(comm, &c->size);
    c->st = st;
    c->set = set;
    c->start = ckm_now();
    c->deadline = set && set->time_limit_s > 0.0 ? c->start + set->time_limit_s : INFINITY;
    if (MPI_Type_contiguous((int)sizeof(ckm_xint), MPI_BYTE, &c->xt) != MPI_SUCCESS ||
        MPI_Type_commit(&c->xt) != MPI_SUCCESS)
        return ckm_fail(err, CKM_ERR_INTERNAL, "MPI: cannot create the exact-sum datatype");
    if (MPI_Op_create(xsum_op, 1, &c->xsum) != MPI_SUCCESS) {
        MPI_Type_free(&c->xt);
        return ckm_fail(err, CKM_ERR_INTERNAL, "MPI: cannot create the exact-sum operation");
    }
    return CKM_OK;
}

void ckm_dist_close(ckm_dist *c)
{
    if (c->xsum != MPI_OP_NULL && c->xsum != 0)
        MPI_Op_free(&c->xsum);
    if (c->xt != MPI_DATATYPE_NULL && c->xt != 0)
        MPI_Type_free(&c->xt);
}

void ckm_dist_counted(ckm_dist *c, size_t bytes, bool bcast, double t0)
{
    if (!c->st)
        return;
    if (bcast)
        c->st->broadcasts++;
    else
        c->st->allreduces++;
    c->st->bytes += bytes;
    c->st->comm_seconds += ckm_now() - t0;
}

/* Counts above INT_MAX go in pieces (MPI counts are int). */
#define PIECE ((size_t)1 << 28)

void ckm_dist_reduce(ckm_dist *c, void *buf, size_t count, size_t elem, MPI_Datatype type, MPI_Op op)
{
    for (size_t at = 0; at < count; at += PIECE) {
        size_t m = count - at < PIECE ? count - at : PIECE;
        double t0 = ckm_now();
        ckm_dist_allreduce(MPI_IN_PLACE, (char *)buf + at * elem, (int)m, type, op, c->comm);
        ckm_dist_counted(c, m * elem, false, t0);
    }
}

void ckm_dist_sum_x(ckm_dist *c, ckm_xint *buf, size_t count)
{
    ckm_dist_reduce(c, buf, count, sizeof *buf, c->xt, c->xsum);
}

void ckm_dist_sum_i64(ckm_dist *c, int64_t *buf, size_t count)
{
    ckm_dist_reduce(c, buf, count, sizeof *buf, MPI_INT64_T, MPI_SUM);
}

void ckm_dist_max(ckm_dist *c, double *buf, size_t count)
{
    ckm_dist_reduce(c, buf, count, sizeof *buf, MPI_DOUBLE, MPI_MAX);
}

void ckm_dist_minloc(ckm_dist *c, ckm_dist_loc *buf, size_t count)
{
    ckm_dist_reduce(c, buf, count, sizeof *buf, MPI_DOUBLE_INT, MPI_MINLOC);
}

void ckm_dist_bcast(ckm_dist *c, void *buf, size_t bytes, int root)
{
    for (size_t at = 0; at < bytes; at += PIECE) {
        size_t m = bytes - at < PIECE ? bytes - at : PIECE;
        double t0 = ckm_now();
        ckm_dist_bcast_raw((char *)buf + at, (int)m, MPI_BYTE, root, c->comm);
        ckm_dist_counted(c, m, true, t0);
    }
}

ckm_error ckm_dist_agree(MPI_Comm comm, ckm_error rc, ckm_err *err)
{
    int rank, size, mine, low;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    mine = rc != CKM_OK ? rank : INT_MAX;
    ckm_dist_allreduce(&mine, &low, 1, MPI_INT, MPI_MIN, comm);
    if (low == INT_MAX)
        return CKM_OK;
    struct {
        int code;
        char message[CKM_MESSAGE_LEN];
    } m;
    memset(&m, 0, sizeof m);
    if (rank == low) {
        m.code = (int)rc;
        if (err)
            snprintf(m.message, sizeof m.message, "%s", err->message);
    }
    ckm_dist_bcast_raw(&m, (int)sizeof m, MPI_BYTE, low, comm);
    m.message[sizeof m.message - 1] = '\0';
    if (size == 1)
        return ckm_fail(err, (ckm_error)m.code, "%s", m.message);
    return ckm_fail(err, (ckm_error)m.code, "rank %d of %d: %s", low, size, m.message);
}

int ckm_dist_stop_local(const ckm_dist *c)
{
    const ckm_settings *s = c->set;
    if ((s->should_stop && s->should_stop(s->stop_user)) ||
        (s->interrupt && atomic_load((const volatile _Atomic int *)(const volatile void *)s->interrupt)))
        return 2;
    return ckm_now() >= c->deadline ? 1 : 0;
}

ckm_status ckm_dist_stop(ckm_dist *c)
{
    int why = ckm_dist_stop_local(c); /* 2 interrupted, 1 time limit: the maximum wins */
    ckm_dist_reduce(c, &why, 1, sizeof why, MPI_INT, MPI_MAX);
    return why == 2 ? CKM_STATUS_INTERRUPTED : why == 1 ? CKM_STATUS_TIME_LIMIT : CKM_STATUS_FEASIBLE;
}

void ckm_dist_log(const ckm_dist *c, int level, const char *fmt, ...)
{
    const ckm_settings *s = c->set;
    if (c->rank != 0 || !s->log || s->verbosity < level)
        return;
    char line[CKM_MESSAGE_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    s->log(s->log_user, line);
}

double ckm_dist_sse(ckm_dist *c, const ckm_mpi_problem *p, const int32_t *lab, const double *C)
{
    size_t d = p->d;
    /* every squared distance is at most (2 max|x| + max|c|)^2 d-ish: bound it by the largest
       one measured anywhere (a global maximum, so the grid is global too) */
    double B = 0.0;
    for (size_t i = 0; i < p->n; i++) {
        double v = ckm_sqdist(p->X + i * d, C + (size_t)lab[i] * d, d);
        B = v > B ? v : B;
    }
    ckm_dist_max(c, &B, 1);
    int e = ckm_x_exponent(B);
    ckm_xint S = 0;
    for (size_t i = 0; i < p->n; i++)
        S += ckm_x_term(ckm_sqdist(p->X + i * d, C + (size_t)lab[i] * d, d), e);
    ckm_dist_sum_x(c, &S, 1);
    return ckm_x_value(S, e);
}

void ckm_dist_fetch_rows(ckm_dist *c, const ckm_mpi_problem *p, const size_t *t, size_t m, double *out)
{
    size_t d = p->d, md = m * d;
    memset(out, 0, md * sizeof(double));
    for (size_t q = 0; q < m; q++)
        if (t[q] >= p->first && t[q] < p->first + p->n)
            memcpy(out + q * d, p->X + (t[q] - p->first) * d, d * sizeof(double));
    ckm_dist_reduce(c, out, md, sizeof *out, MPI_DOUBLE, MPI_SUM);
}

void ckm_dist_local_sums(const ckm_mpi_problem *p, const int32_t *lab, ckm_xint *S)
{
    size_t d = p->d, k = p->k, kd = k * d;
    int e = ckm_x_exponent(p->xmax);
    memset(S, 0, (kd + k) * sizeof(ckm_xint));
    for (size_t i = 0; i < p->n; i++) {
        size_t j = (size_t)lab[i];
        const double *x = p->X + i * d;
        ckm_xint *s = S + j * d;
        for (size_t f = 0; f < d; f++)
            s[f] += ckm_x_term(x[f], e);
        S[kd + j] += 1;
    }
}

void ckm_dist_means_of(const ckm_mpi_problem *p, const ckm_xint *S, int64_t *count, double *C)
{
    size_t d = p->d, k = p->k, kd = k * d;
    int e = ckm_x_exponent(p->xmax);
    for (size_t j = 0; j < k; j++) {
        count[j] = (int64_t)S[kd + j];
        if (count[j] > 0)
            for (size_t f = 0; f < d; f++)
                C[j * d + f] = ckm_x_value(S[j * d + f], e) / (double)count[j];
    }
}

void ckm_dist_means(ckm_dist *c, const ckm_mpi_problem *p, const int32_t *lab, double *C, int64_t *count,
                    ckm_xint *S)
{
    /* k*d sums and k counts in one reduction: the counts ride as exact integers too */
    ckm_dist_local_sums(p, lab, S);
    ckm_dist_sum_x(c, S, p->k * p->d + p->k);
    ckm_dist_means_of(p, S, count, C);
}

double ckm_dist_shift_tol(ckm_dist *c, const ckm_mpi_problem *p, double tol, ckm_xint *S, double *mu)
{
    size_t d = p->d;
    double var = 0.0;
    memset(S, 0, d * sizeof(ckm_xint));
    int e = ckm_x_exponent(p->xmax);
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = 0; f < d; f++)
            S[f] += ckm_x_term(p->X[i * d + f], e);
    ckm_dist_sum_x(c, S, d);
    for (size_t f = 0; f < d; f++)
        mu[f] = ckm_x_value(S[f], e) / (double)p->N;
    /* (x - mu)^2 <= (2 max|x|)^2 */
    int e2 = ckm_x_exponent(4.0 * p->xmax * p->xmax);
    memset(S, 0, d * sizeof(ckm_xint));
    for (size_t i = 0; i < p->n; i++)
        for (size_t f = 0; f < d; f++) {
            double v = p->X[i * d + f] - mu[f];
            S[f] += ckm_x_term(v * v, e2);
        }
    ckm_dist_sum_x(c, S, d);
    for (size_t f = 0; f < d; f++)
        var += ckm_x_value(S[f], e2) / (double)p->N;
    return tol * var / (double)d;
}
