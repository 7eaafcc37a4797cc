/*
 * dist_certify.c -- ckm_mpi_certify: ckm_certify's decomposition bound with the subsets
 * dealt to the ranks of a communicator (ckm_mpi.h, docs/certify.md "Over MPI").
 *   Rank 0 runs ckm_certify's phases up to the split (certify_run.h): the same groups, T and
 *   subsets for the same seed. It deals the subsets by estimated cost, largest first, each
 *   to the rank with the least estimated work so far (ties: the lower rank; rank 0 takes
 *   its share), and sends every rank the problems of its subsets (points, weights,
 *   demands, pairs inside, size and capacity ranges: exactly the values ckm_certify's
 *   worker would build, so the rebuilt problem is the same). Subsets with no more groups
 *   than clusters need no problem (their bound is the groups' scatter).
 *   Every rank bounds its subsets on its own threads (certify_subset.c); rank 0 collects
 *   each subset's bound and record and sums the bounds in subset order, as ckm_certify
 *   does. A subset's bound depends only on its problem, the settings and its share of the
 *   time, so without a time limit that stops a subset the bound is ckm_certify's, bit for
 *   bit, for any number of ranks.
 *   Stops: while its workers run, a rank's main thread (the only one calling MPI: needs
 *   MPI_THREAD_FUNNELED) polls every 10 ms for a stop message from another rank, and sends
 *   one to every rank when its own caller asks to stop (should_stop / interrupt) or a worker
 *   fails; a stop message makes this rank's should_stop true, so its SDPs stop at their
 *   next check. Every stop message sent is received before the run ends (an all-to-all of
 *   the counts), then errors are agreed (the lowest failing rank's message everywhere).
 */
#include "certify_run.h"
#include "dist.h"
#include "problem_impl.h"
#include "sdp.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_LEN = 7301, TAG_DATA, TAG_STOP, TAG_RESULT };

/* should_stop of every rank's run: a stop message from another rank, then the caller's */
typedef struct stop_hook {
    atomic_int remote;
    ckm_stop_fn fn;
    void *user;
    const volatile int *flag;
} stop_hook;

static int hook_stop(void *u)
{
    stop_hook *h = u;
    return atomic_load(&h->remote) || (h->flag && *h->flag) || (h->fn && h->fn(h->user));
}

/* the caller asks to stop (its flag or callback), seen from the main thread */
static int caller_stop(const stop_hook *h)
{
    return (h->flag && *h->flag) || (h->fn && h->fn(h->user));
}

/* ---- a subset's problem as bytes ---- */

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const void *src, size_t bytes)
{
    if (b->failed || bytes == 0)
        return;
    if (b->len + bytes > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + bytes)
            cap *= 2;
        unsigned char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, bytes);
    b->len += bytes;
}

static void put_u64(buf *b, uint64_t v)
{
    put(b, &v, sizeof v);
}

/* header m, d, k, pairs, has_w, has_q, has_caps; X; w; pairs (i, j, type); lo, hi; q; caps */
static int pack_problem(const ckm_problem *p, buf *b)
{
    uint64_t head[7] = {p->n, p->d, p->k, p->n_pairs, p->w != NULL, p->q != NULL, p->cap_lo != NULL};
    put(b, head, sizeof head);
    put(b, p->X, p->n * p->d * sizeof(double));
    if (p->w)
        put(b, p->w, p->n * sizeof(double));
    for (size_t e = 0; e < p->n_pairs; e++) {
        put_u64(b, p->pairs[e].i);
        put_u64(b, p->pairs[e].j);
        put_u64(b, (uint64_t)p->pairs[e].type);
    }
    put(b, p->lo, p->k * sizeof(size_t));
    put(b, p->hi, p->k * sizeof(size_t));
    if (p->q)
        put(b, p->q, p->n * sizeof(double));
    if (p->cap_lo) {
        put(b, p->cap_lo, p->k * sizeof(double));
        put(b, p->cap_hi, p->k * sizeof(double));
    }
    return !b->failed;
}

/* reads a received buffer. Every field is 8 bytes wide (uint64 or double) and the buffer
 * comes from malloc, so each array taken is aligned for its type and is read in place. */
typedef struct cursor {
    const unsigned char *p;
    size_t len, at;
} cursor;

_Static_assert(sizeof(size_t) == sizeof(uint64_t) && sizeof(double) == sizeof(uint64_t),
               "a subset's message is made of 8-byte fields");

/* count 8-byte fields, or NULL past the buffer's end */
static const void *take(cursor *c, size_t count)
{
    if (count > (c->len - c->at) / 8)
        return NULL;
    const void *q = c->p + c->at;
    c->at += 8 * count;
    return q;
}

/* The problem pack_problem wrote, rebuilt through the same calls in the same order as
 * ckm_certify_subset_problem (so it is the same problem). */
static ckm_error unpack_problem(const unsigned char *bytes, size_t len, ckm_problem **out, ckm_err *err)
{
    cursor c = {bytes, len, 0};
    const uint64_t *head = take(&c, 7);
    *out = NULL;
    if (!head)
        return ckm_fail(err, CKM_ERR_INTERNAL, "certify: a subset's message is truncated");
    size_t m = head[0], d = head[1], k = head[2], np = head[3], md = 0;
    int has_w = head[4] != 0, has_q = head[5] != 0, has_caps = head[6] != 0;
    const double *X = ckm_mul_ok(m, d, &md) ? take(&c, md) : NULL, *w = has_w ? take(&c, m) : NULL;
    const uint64_t *pairs = X && (!has_w || w) ? take(&c, 3 * np) : NULL;
    const size_t *lo = pairs ? take(&c, k) : NULL, *hi = lo ? take(&c, k) : NULL;
    const double *q = hi && has_q ? take(&c, m) : NULL;
    const double *cap_lo = hi && has_caps ? take(&c, k) : NULL, *cap_hi = cap_lo ? take(&c, k) : NULL;
    if (!hi || (has_q && !q) || (has_caps && !cap_hi))
        return ckm_fail(err, CKM_ERR_INTERNAL, "certify: a subset's message is truncated");
    ckm_problem *p = NULL;
    ckm_error rc = ckm_problem_create(X, m, d, k, &p, err);
    if (rc == CKM_OK && has_w)
        rc = ckm_problem_set_weights(p, w, err);
    for (size_t e = 0; e < np && rc == CKM_OK; e++)
        rc = ckm_problem_add_pair(p, pairs[3 * e], pairs[3 * e + 1], (ckm_link)pairs[3 * e + 2], err);
    if (rc == CKM_OK)
        rc = ckm_problem_set_sizes(p, lo, hi, err);
    if (rc == CKM_OK && has_q)
        rc = ckm_problem_set_demands(p, q, err);
    if (rc == CKM_OK && has_caps)
        rc = ckm_problem_set_capacities(p, cap_lo, cap_hi, err);
    if (rc != CKM_OK)
        ckm_problem_free(p);
    else
        *out = p;
    return rc;
}

/* ---- messages of any length: a length, then pieces of 64 KiB (a receiver without the
   memory for the whole drains the pieces through a buffer on its stack and reports it) ---- */

#define PIECE ((size_t)1 << 16)

static void send_bytes(MPI_Comm comm, int to, const void *bytes, uint64_t len)
{
    ckm_dist_send(&len, 1, MPI_UINT64_T, to, TAG_LEN, comm);
    for (size_t at = 0; at < len; at += PIECE) {
        size_t m = len - at < PIECE ? len - at : PIECE;
        ckm_dist_send((const char *)bytes + at, (int)m, MPI_BYTE, to, TAG_DATA, comm);
    }
}

/* the bytes (malloc'ed), or NULL when the memory is missing (then *len is still set) */
static unsigned char *recv_bytes(MPI_Comm comm, int from, uint64_t *len)
{
    ckm_dist_recv(len, 1, MPI_UINT64_T, from, TAG_LEN, comm);
    unsigned char *b = malloc(*len ? *len : 1);
    unsigned char sink[PIECE];
    for (size_t at = 0; at < *len; at += PIECE) {
        size_t m = *len - at < PIECE ? *len - at : PIECE;
        ckm_dist_recv(b ? b + at : sink, (int)m, MPI_BYTE, from, TAG_DATA, comm);
    }
    return b;
}

/* ---- the run ---- */

typedef struct mpi_cert {
    MPI_Comm comm;           /* a duplicate of the caller's: its tags are ours */
    int rank, size;
    ckm_cert_run R;          /* rank 0: the whole run; others: settings and context only */
    stop_hook hook;
    size_t T, k;
    int settled;             /* rank 0 settled the run before any subset (infeasible) */
    int *owner;              /* T: the rank bounding each subset */
    size_t *groups, *points; /* T each (sent as MPI_UINT64_T: size_t is 64 bits, asserted above) */
    double *incumbent, *scatter, *bound; /* T each (rank 0: its run's lists) */
    ckm_certify_subset *rec; /* T (rank 0: its certificate's) */
    ckm_problem **given;     /* T: this rank's subsets' problems (ranks > 0) */
    size_t *ids, count;      /* this rank's subsets, ascending */
    cert_job J;
    ckm_error rc;            /* this rank's failure (with err) before the agreement */
    ckm_err err;
    int *stop_to, *stop_from; /* size each: stop messages sent to / received from each rank */
    int *expect;             /* size: stop messages each rank sent here (the all-to-all) */
    MPI_Request *req;        /* size: this rank's stop messages in flight */
} mpi_cert;

static ckm_error note(mpi_cert *M, ckm_error rc, const ckm_err *e)
{
    if (rc != CKM_OK && M->rc == CKM_OK) {
        M->rc = rc;
        M->err = *e;
    }
    return rc;
}

/* settings read behind the stop hook; rank 0 begins the run, the others start theirs */
static ckm_error setup(mpi_cert *M, const ckm_problem *p, const int32_t *labels, size_t subsets,
                       const ckm_settings *s, ckm_err *err)
{
    ckm_settings base;
    ckm_error rc = ckm_read_settings(s, &base, err);
    atomic_init(&M->hook.remote, 0);
    if (rc == CKM_OK) {
        M->hook.fn = base.should_stop;
        M->hook.user = base.stop_user;
        M->hook.flag = base.interrupt;
        base.should_stop = hook_stop;
        base.stop_user = &M->hook;
        base.interrupt = NULL;
        if (M->rank == 0 && (!p || !labels))
            rc = ckm_fail(err, CKM_ERR_INVALID, "certify: rank 0 passes the problem and the labels");
        else if (M->rank == 0)
            rc = ckm_cert_begin(&M->R, p, labels, subsets, &base, err);
        else
            rc = ckm_cert_start(&M->R, &base, err);
    }
    size_t R = (size_t)M->size;
    M->stop_to = ckm_calloc_array(R, sizeof(int));
    M->stop_from = ckm_calloc_array(R, sizeof(int));
    M->expect = ckm_calloc_array(R, sizeof(int));
    M->req = ckm_alloc_array(R, sizeof(MPI_Request));
    for (size_t r = 0; M->req && r < R; r++)
        M->req[r] = MPI_REQUEST_NULL;
    if (rc == CKM_OK && (!M->stop_to || !M->stop_from || !M->expect || !M->req))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
    return ckm_dist_agree(M->comm, rc, err);
}

/* a subset's estimated cost, for the deal */
typedef struct costed {
    double cost;
    size_t t;
} costed;

static int by_cost_down(const void *a, const void *b) /* cost descending, then t ascending */
{
    const costed *x = a, *y = b;
    if (x->cost != y->cost)
        return x->cost > y->cost ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* rank 0: each subset to the rank with the least estimated work so far, largest first
 * (order: T entries, load: size entries of scratch) */
static void deal(mpi_cert *M, costed *order, double *load)
{
    for (size_t t = 0; t < M->T; t++)
        order[t] = (costed){M->groups[t] > M->k ? ckm_sdp_iteration_estimate_s(M->groups[t]) : 0.0, t};
    qsort(order, M->T, sizeof *order, by_cost_down);
    for (int r = 0; r < M->size; r++)
        load[r] = 0.0;
    for (size_t a = 0; a < M->T; a++) {
        int best = 0;
        for (int r = 1; r < M->size; r++)
            if (load[r] < load[best])
                best = r;
        M->owner[order[a].t] = best;
        load[best] += order[a].cost + 1e-9; /* exact subsets count a little: spread too */
    }
}

/* T, the subsets' figures and the deal, from rank 0 to every rank */
static ckm_error share_plan(mpi_cert *M, ckm_err *err)
{
    double head[4] = {0};
    if (M->rank == 0) {
        const ckm_certificate *c = M->R.c;
        double left = isfinite(M->R.ctx.deadline) ? M->R.ctx.deadline - ckm_now() : -1.0;
        head[0] = M->R.settled;
        head[1] = (double)(M->R.settled ? 0 : c->subsets);
        head[2] = (double)c->k;
        head[3] = left;
    }
    ckm_dist_bcast_raw(head, 4, MPI_DOUBLE, 0, M->comm);
    M->settled = head[0] != 0.0;
    M->T = (size_t)head[1];
    M->k = (size_t)head[2];
    if (M->rank != 0 && head[3] >= 0.0)
        M->R.ctx.deadline = ckm_now() + head[3];
    if (M->settled)
        return CKM_OK;
    size_t T = M->T;
    ckm_error rc = CKM_OK;
    M->owner = ckm_alloc_array(T, sizeof(int));
    M->groups = ckm_alloc_array(T, sizeof(size_t));
    M->points = ckm_alloc_array(T, sizeof(size_t));
    costed *order = ckm_alloc_array(T, sizeof(costed));
    double *load = ckm_alloc_array((size_t)M->size, sizeof(double));
    if (M->rank == 0) {
        M->incumbent = M->R.L.incumbent;
        M->scatter = M->R.L.scatter;
        M->bound = M->R.L.bound;
        M->rec = M->R.c->subset;
    } else {
        M->incumbent = ckm_alloc_array(T, sizeof(double));
        M->scatter = ckm_alloc_array(T, sizeof(double));
        M->bound = ckm_calloc_array(T, sizeof(double));
        M->rec = ckm_calloc_array(T, sizeof(ckm_certify_subset));
        M->given = ckm_calloc_array(T, sizeof(ckm_problem *));
    }
    if (!M->owner || !M->groups || !M->points || !order || !load || !M->incumbent || !M->scatter || !M->bound ||
        !M->rec || (M->rank != 0 && !M->given))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory for %zu subsets", T);
    if ((rc = ckm_dist_agree(M->comm, rc, err)) == CKM_OK) {
        if (M->rank == 0) {
            for (size_t t = 0; t < T; t++) {
                M->groups[t] = M->R.L.groups[t];
                M->points[t] = M->R.L.pt_start[t + 1] - M->R.L.pt_start[t];
            }
            deal(M, order, load);
        }
        ckm_dist_bcast_raw(M->owner, (int)T, MPI_INT, 0, M->comm);
        ckm_dist_bcast_raw(M->groups, (int)T, MPI_UINT64_T, 0, M->comm);
        ckm_dist_bcast_raw(M->points, (int)T, MPI_UINT64_T, 0, M->comm);
        ckm_dist_bcast_raw(M->incumbent, (int)T, MPI_DOUBLE, 0, M->comm);
        ckm_dist_bcast_raw(M->scatter, (int)T, MPI_DOUBLE, 0, M->comm);
        for (size_t t = 0; t < T; t++)
            M->count += M->owner[t] == M->rank;
        M->ids = ckm_alloc_array(M->count ? M->count : 1, sizeof(size_t));
        size_t q = 0;
        for (size_t t = 0; M->ids && t < T; t++)
            if (M->owner[t] == M->rank)
                M->ids[q++] = t;
        rc = M->ids ? CKM_OK : ckm_fail(err, CKM_ERR_NOMEM, "certify: out of memory");
        rc = ckm_dist_agree(M->comm, rc, err);
    }
    free(order);
    free(load);
    return rc;
}

/* rank 0 sends every other rank its subsets' problems (a failure to build one is sent as an
 * empty message and noted here); the others rebuild them. Everything sent is received. */
static void hand_out(mpi_cert *M)
{
    ckm_err e = {CKM_OK, ""};
    double t0 = ckm_now(), bytes_sent = 0.0;
    size_t sent = 0;
    for (size_t t = 0; t < M->T; t++) {
        if (M->owner[t] == 0 || M->groups[t] <= M->k || (M->rank != 0 && M->owner[t] != M->rank))
            continue;
        if (M->rank == 0) {
            ckm_problem *sub = NULL;
            buf b = {0};
            if (note(M, ckm_certify_subset_problem(&M->J, t, &sub, &e), &e) == CKM_OK && !pack_problem(sub, &b))
                note(M, ckm_fail(&e, CKM_ERR_NOMEM, "certify: out of memory packing subset %zu", t), &e);
            send_bytes(M->comm, M->owner[t], b.p, b.failed ? 0 : b.len);
            bytes_sent += b.failed ? 0.0 : (double)b.len;
            sent++;
            free(b.p);
            ckm_problem_free(sub);
            continue;
        }
        uint64_t len = 0;
        unsigned char *bytes = recv_bytes(M->comm, 0, &len);
        if (len == 0) /* rank 0 failed to build it: its own error says why */
            note(M, ckm_fail(&e, CKM_ERR_INTERNAL, "certify: subset %zu did not arrive", t), &e);
        else if (!bytes)
            note(M, ckm_fail(&e, CKM_ERR_NOMEM, "certify: out of memory for subset %zu (%llu bytes)", t,
                             (unsigned long long)len), &e);
        else
            note(M, unpack_problem(bytes, len, &M->given[t], &e), &e);
        free(bytes);
    }
    if (M->rank == 0)
        ckm_ctx_log(&M->R.ctx, 1, "certify: %zu subsets dealt to %d ranks; %zu problems sent (%.1f MB) in %.3f s", M->T,
                    M->size, sent, bytes_sent / 1e6, ckm_now() - t0);
}

/* this rank's job: rank 0's run restricted to its subsets; the others' from the handed-out
 * problems */
static void setup_job(mpi_cert *M)
{
    cert_job *J = &M->J;
    if (M->rank == 0) {
        ckm_cert_job(&M->R, J);
    } else {
        *J = (cert_job){.given = M->given, .points = M->points, .groups = M->groups, .ctx = &M->R.ctx,
                        .sub_s = &M->R.sub_s, .T = M->T, .k = M->k, .incumbent = M->incumbent, .scatter = M->scatter, .bound = M->bound,
                        .rec = M->rec, .rc = CKM_OK};
        atomic_init(&J->failed, 0);
    }
    int threads = ckm_thread_count(M->R.s.threads);
    J->workers = (size_t)threads < M->count ? threads : (int)M->count;
    J->ids = M->ids;
    J->count = M->count;
}

typedef struct bound_run {
    cert_job *J;
    atomic_int done;
} bound_run;

static void *bound_thread(void *arg)
{
    bound_run *b = arg;
    ckm_cert_bound(b->J);
    atomic_store(&b->done, 1);
    return NULL;
}

/* a stop message to every other rank, once */
static void announce_stop(mpi_cert *M, MPI_Request *req, int *sent)
{
    static const int one = 1;
    if (*sent)
        return;
    *sent = 1;
    for (int r = 0; r < M->size; r++)
        if (r != M->rank) {
            MPI_Isend(&one, 1, MPI_INT, r, TAG_STOP, M->comm, &req[r]);
            M->stop_to[r] = 1;
        }
}

/* stop messages that arrived, received; true when there was one */
static int poll_stops(mpi_cert *M)
{
    int got = 0;
    for (;;) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_STOP, M->comm, &flag, &st);
        if (!flag)
            return got;
        int v;
        MPI_Recv(&v, 1, MPI_INT, st.MPI_SOURCE, TAG_STOP, M->comm, MPI_STATUS_IGNORE);
        M->stop_from[st.MPI_SOURCE]++;
        got = 1;
    }
}

/* This rank's subsets on its workers (a thread of their own) while this thread relays
 * stops; then every stop message sent is received (the counts, all to all). */
/* One poll of the stop relay: stops that arrived raise this rank's flag; the caller's stop
 * or a worker's failure is announced (once). */
static void relay(mpi_cert *M, int *sent)
{
    if (poll_stops(M))
        atomic_store(&M->hook.remote, 1);
    if (caller_stop(&M->hook) || atomic_load(&M->J.failed) || M->rc != CKM_OK)
        announce_stop(M, M->req, sent);
}

static void nap(void)
{
    struct timespec ts = {0, 10000000L};
    nanosleep(&ts, NULL); /* EINTR (the CLI's SIGINT): poll at once */
}

/* This rank's subsets on its workers (a thread of their own) while this thread relays
 * stops, then until every rank is done (a nonblocking barrier: an idle rank still relays
 * its caller's stop); then every stop message sent is received (the counts, all to all:
 * no rank announces after its own count went out). */
static void bound_here(mpi_cert *M)
{
    cert_job *J = &M->J;
    ckm_err e = {CKM_OK, ""};
    J->rc = CKM_OK;
    bound_run b = {.J = J};
    atomic_init(&b.done, 0);
    pthread_t th;
    int started = M->count > 0 && pthread_create(&th, NULL, bound_thread, &b) == 0, sent = 0;
    if (M->count > 0 && !started)
        note(M, ckm_fail(&e, CKM_ERR_INTERNAL, "certify: cannot start a thread"), &e);
    while (started && !atomic_load(&b.done)) {
        nap();
        relay(M, &sent);
    }
    if (started)
        pthread_join(th, NULL);
    note(M, J->rc, &J->err);
    MPI_Request bar;
    MPI_Ibarrier(M->comm, &bar);
    for (int done = 0; !done;) {
        relay(M, &sent);
        MPI_Test(&bar, &done, MPI_STATUS_IGNORE);
        if (!done)
            nap();
    }
    MPI_Request a2a;
    MPI_Ialltoall(M->stop_to, 1, MPI_INT, M->expect, 1, MPI_INT, M->comm, &a2a);
    ckm_dist_wait(&a2a);
    for (int r = 0; r < M->size; r++)
        for (; M->stop_from[r] < M->expect[r]; M->stop_from[r]++) {
            int v;
            ckm_dist_recv(&v, 1, MPI_INT, r, TAG_STOP, M->comm);
        }
    for (int r = 0; r < M->size; r++)
        if (M->req[r] != MPI_REQUEST_NULL)
            ckm_dist_wait(&M->req[r]);
}

/* every rank's failures so far agreed: the lowest failing rank's code and message */
static ckm_error agree(mpi_cert *M, ckm_err *err)
{
    ckm_err e = M->err;
    ckm_error rc = ckm_dist_agree(M->comm, M->rc, &e);
    if (rc != CKM_OK && err)
        *err = e;
    return rc;
}

/* One subset's outcome, as a rank sends it to rank 0. */
typedef struct subset_result {
    uint64_t t;
    double bound;
    ckm_certify_subset rec;
} subset_result;

/* What a rank reports besides its subsets. */
typedef struct rank_result {
    uint64_t count, workers, sdp_iterations, cut_rounds, cuts_added;
    int infeasible;
    char reason[CKM_MESSAGE_LEN];
} rank_result;

/* every rank's subsets, infeasibility and counters to rank 0 (ranks in order) */
static void collect(mpi_cert *M)
{
    ckm_counters *cn = &M->R.counters;
    if (M->rank != 0) {
        rank_result h = {.count = M->count, .workers = (uint64_t)M->J.workers,
                         .sdp_iterations = atomic_load(&cn->v[CKM_COUNT_SDP_ITER]),
                         .cut_rounds = atomic_load(&cn->v[CKM_COUNT_CUT_ROUNDS]),
                         .cuts_added = atomic_load(&cn->v[CKM_COUNT_CUTS]), .infeasible = M->J.infeasible};
        snprintf(h.reason, sizeof h.reason, "%s", M->J.reason);
        ckm_dist_send(&h, (int)sizeof h, MPI_BYTE, 0, TAG_RESULT, M->comm);
        for (size_t q = 0; q < M->count; q++) {
            size_t t = M->ids[q];
            subset_result s = {.t = t, .bound = M->bound[t], .rec = M->rec[t]};
            ckm_dist_send(&s, (int)sizeof s, MPI_BYTE, 0, TAG_RESULT, M->comm);
        }
        return;
    }
    M->R.c->workers = M->J.workers;
    for (int r = 1; r < M->size; r++) {
        rank_result h;
        ckm_dist_recv(&h, (int)sizeof h, MPI_BYTE, r, TAG_RESULT, M->comm);
        h.reason[sizeof h.reason - 1] = '\0';
        M->R.c->workers += (int)h.workers;
        atomic_fetch_add(&cn->v[CKM_COUNT_SDP_ITER], h.sdp_iterations);
        atomic_fetch_add(&cn->v[CKM_COUNT_CUT_ROUNDS], h.cut_rounds);
        atomic_fetch_add(&cn->v[CKM_COUNT_CUTS], h.cuts_added);
        if (h.infeasible && !M->J.infeasible) { /* the lowest rank's proof */
            M->J.infeasible = 1;
            snprintf(M->J.reason, sizeof M->J.reason, "%s", h.reason);
        }
        for (uint64_t q = 0; q < h.count; q++) {
            subset_result s;
            ckm_dist_recv(&s, (int)sizeof s, MPI_BYTE, r, TAG_RESULT, M->comm);
            if (s.t < M->T && M->owner[s.t] == r) {
                M->bound[s.t] = s.bound;
                M->rec[s.t] = s.rec;
            }
        }
    }
    for (size_t t = 0; t < M->T; t++)
        M->rec[t].rank = M->owner[t];
    M->R.c->ranks = M->size;
}

static void mpi_cert_free(mpi_cert *M)
{
    for (size_t t = 0; M->given && t < M->T; t++)
        ckm_problem_free(M->given[t]);
    free(M->given);
    if (M->rank != 0) {
        free(M->incumbent);
        free(M->scatter);
        free(M->bound);
        free(M->rec);
    }
    free(M->owner);
    free(M->groups);
    free(M->points);
    free(M->ids);
    free(M->stop_to);
    free(M->stop_from);
    free(M->expect);
    free(M->req);
    ckm_cert_end(&M->R);
    MPI_Comm_free(&M->comm);
}

ckm_error ckm_mpi_certify(MPI_Comm comm, const ckm_problem *p, const int32_t *labels, size_t subsets,
                          const ckm_settings *s, ckm_certificate **out, ckm_err *err)
{
    *out = NULL;
    mpi_cert M;
    memset(&M, 0, sizeof M);
    MPI_Comm_dup(comm, &M.comm);
    MPI_Comm_rank(M.comm, &M.rank);
    MPI_Comm_size(M.comm, &M.size);
    M.rc = CKM_OK;
    ckm_error rc = setup(&M, p, labels, subsets, s, err);
    if (rc == CKM_OK)
        rc = share_plan(&M, err);
    if (rc == CKM_OK && !M.settled) {
        double t0 = ckm_now();
        setup_job(&M);
        hand_out(&M);
        if ((rc = agree(&M, err)) == CKM_OK) {
            bound_here(&M);
            rc = agree(&M, err);
        }
        if (rc == CKM_OK) {
            collect(&M);
            if (M.rank == 0)
                M.R.c->bound_s = ckm_now() - t0;
        }
    }
    if (rc == CKM_OK && M.rank == 0) {
        if (M.settled)
            M.R.c->ranks = M.size;
        ckm_cert_finish(&M.R, &M.J, out);
    }
    mpi_cert_free(&M);
    return rc;
}
