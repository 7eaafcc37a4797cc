/*
 * sdp_separate.c -- one cutting-plane round (sdp.h ckm_sdp_separate): the rows of sdp_cuts.c
 * that Xhat violates.
 * Separation on Zhat = Xhat / (v v') (cannot-link entries 0, tabulated once), violation
 * tolerance 1e-4: pairs by full scan; triangles by full scan for s <= 300, else from 50 s^2
 * random triples (50 s for each apex). Of pairs and triangles only the max_add most violated are kept (a bounded
 * heap in the total order of by_viol_desc: the kept set is that of sorting every candidate,
 * whatever the scan order, so two threads may each scan half of the apexes). A triangle row
 * (i, j) of the full scan first takes the maximum over h of its violations (a loop gcc
 * vectorises) and is walked only when that reaches the heap's worst; the apex h = i gives 0
 * up to rounding (Zhat symmetric), below the tolerance, so that maximum needs no test.
 * Measured on ECG5000 ml_0_cl_150_0's root (s = 500):
 * the full scan's most violated triangles raised the bound far less per round than the most
 * violated of the random sample (11369.6 against 11498.6 after 10 rounds; the full scan's
 * best share a few apexes), so s > 300 keeps the sample. Cliques by the greedy
 * heuristic of the SOS-SDP code (from each start, add the group with the smallest sum of
 * Zhat to the current set, k times; only for k <= 10, longer rows are not separated). The
 * most violated of each kind are taken in turn until max_add or the pool's cap (max_cuts) active
 * rows. Cuts whose slack exceeds 1e-6 with r = 0 are removed first (inactive).
 * Capacity rows (with capacities): both sides for every group, the violation divided by the
 * row's norm in Z (so a row of demands in the thousands competes with the unit rows). Rows
 * are added through ckm_sdp_add_row and the system refreshed by ckm_sdp_cuts_changed
 * (sdp_cuts.c).
 */
#include "sdp_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define VIOL_TOL 1e-4
#define ACTIVE_TOL 1e-6

typedef struct cand {
    double viol;
    size_t a, b, c; /* pair (a, b): apex a; triangle apex a, b < c; clique: offset a into the clique buffer */
} cand;

static int by_viol_desc(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->viol != b->viol)
        return a->viol > b->viol ? -1 : 1;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->c < b->c ? -1 : a->c > b->c;
}

typedef struct cand_list {
    cand *v;
    size_t n, cap;
} cand_list;

static bool push(cand_list *l, cand c)
{
    if (!ckm_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(cand)))
        return false;
    l->v[l->n++] = c;
    return true;
}

/* x sorts after y (less violated, or equal and later in index order) */
static bool worse(const cand *x, const cand *y) { return by_viol_desc(x, y) > 0; }

/* The cap best candidates seen: a heap whose root is the worst kept (v[0] when full). */
static void top_push(cand_list *t, cand c)
{
    size_t q;
    if (t->n < t->cap) { /* sift up: a parent is never better than its children */
        q = t->n++;
        while (q > 0 && worse(&c, &t->v[(q - 1) / 2])) {
            t->v[q] = t->v[(q - 1) / 2];
            q = (q - 1) / 2;
        }
        t->v[q] = c;
        return;
    }
    if (t->cap == 0 || !worse(&t->v[0], &c))
        return;
    q = 0; /* replace the root, sift down */
    for (;;) {
        size_t l = 2 * q + 1, r = l + 1, m = q;
        const cand *at = &c;
        if (l < t->n && worse(&t->v[l], at)) {
            m = l;
            at = &t->v[l];
        }
        if (r < t->n && worse(&t->v[r], at))
            m = r;
        if (m == q)
            break;
        t->v[q] = t->v[m];
        q = m;
    }
    t->v[q] = c;
}

/* a violation v may enter t: above the tolerance and not below t's worst when t is full
 * (top_push settles ties in the total order) */
static bool admits(const cand_list *t, double v) { return v > VIOL_TOL && (t->n < t->cap || v >= t->v[0].viol); }

/* one thread's scan of pairs (and of triangles when full) over apexes [begin, end) of the
 * s x s Zhat Zc */
typedef struct scan_job {
    const double *Zc;
    const unsigned char *is_cl;
    size_t s;
    bool full;
    cand_list pair[2], tri[2];
} scan_job;

static void scan_apexes(void *ctx, size_t begin, size_t end, int tid)
{
    scan_job *J = ctx;
    size_t s = J->s;
    cand_list *P = &J->pair[tid], *T = &J->tri[tid];
    for (size_t i = begin; i < end; i++) {
        const double *zi = J->Zc + i * s;
        double zii = zi[i];
        for (size_t j = 0; j < s; j++) /* pairs: Zhat_ij - Zhat_ii > tol */
            if (j != i && !J->is_cl[i * s + j] && admits(P, zi[j] - zii))
                top_push(P, (cand){zi[j] - zii, i, j, 0});
        for (size_t j = 0; j < s && J->full; j++) { /* triangles: Zhat_ij + Zhat_ih - Zhat_ii - Zhat_jh > tol */
            if (j == i)
                continue;
            const double *zj = J->Zc + j * s;
            double a = zi[j], most = -INFINITY;
            for (size_t h = j + 1; h < s; h++) {
                double v = a + zi[h] - zii - zj[h];
                most = v > most ? v : most;
            }
            if (!admits(T, most))
                continue;
            for (size_t h = j + 1; h < s; h++) {
                double v = a + zi[h] - zii - zj[h];
                if (h != i && admits(T, v))
                    top_push(T, (cand){v, i, j, h});
            }
        }
    }
}

static double zhat(const ckm_sdp *p, size_t i, size_t j)
{
    return p->Xhat[i * p->s + j] / (p->v[i] * p->v[j]);
}

/* drop rows with slack > tol and r = 0 (compacting every per-row array) */
static size_t remove_inactive(ckm_sdp *p)
{
    ckm_sdp_B(p, p->Xhat, p->bx);
    size_t keep = 0, e_out = 0;
    for (size_t l = 0; l < p->nb; l++) {
        if (p->bx[l] - p->d[l] > ACTIVE_TOL && p->r[l] <= 0.0)
            continue;
        size_t e0 = p->bstart[l], e1 = p->bstart[l + 1];
        memmove(p->bent + e_out, p->bent + e0, (e1 - e0) * sizeof(ckm_cut_entry));
        p->bstart[keep] = e_out;
        e_out += e1 - e0;
        p->d[keep] = p->d[l];
        p->u[keep] = p->u[l];
        p->r[keep] = p->r[l];
        p->t[keep] = p->t[l];
        p->btype[keep] = p->btype[l];
        keep++;
    }
    size_t removed = p->nb - keep;
    p->nb = keep;
    p->bstart[keep] = e_out;
    return removed;
}

/* Sampled triangles: 50 s^2 trials (i, j, h), distinct, j < h, 50 s for each apex i in turn with
 * two ckm_rng draws (j, h) each (every triple is as likely to be drawn as with three draws a
 * trial, and each apex gets its share exactly; a chunk then reads a few rows i, which stay in
 * cache, so only Zhat_jh is a random read), in chunks; with two threads one draws chunk c + 1
 * while the other evaluates chunk c (the draws stay in one sequence and the heap's kept set
 * does not depend on the order of pushes, so the candidates are those of one thread). */
#define SAMPLE_CHUNK 65536
typedef struct sample_job {
    const double *Zc;
    size_t s, total, next; /* trials in all (50 s per apex), trials drawn */
    ckm_rng *rng;
    ckm_rng_range range;
    uint32_t *buf[2];      /* (i, j, h) per valid trial */
    size_t len[2];
    int fill, eval;        /* buffer to draw into / to evaluate; -1: none */
    cand_list *tri;
} sample_job;

static void sample_draw(sample_job *S)
{
    uint32_t *b = S->buf[S->fill];
    size_t n = 0, end = S->next + SAMPLE_CHUNK < S->total ? S->next + SAMPLE_CHUNK : S->total;
    for (; S->next < end; S->next++) {
        uint32_t i = (uint32_t)(S->next / (50 * S->s)), j = (uint32_t)ckm_rng_in(S->rng, &S->range),
                 h = (uint32_t)ckm_rng_in(S->rng, &S->range);
        if (i == j || i == h || j == h)
            continue;
        b[3 * n] = i;
        b[3 * n + 1] = j < h ? j : h;
        b[3 * n + 2] = j < h ? h : j;
        n++;
    }
    S->len[S->fill] = n;
}

static void sample_eval(sample_job *S)
{
    const uint32_t *b = S->buf[S->eval];
    size_t s = S->s;
    for (size_t t = 0; t < S->len[S->eval]; t++) {
        size_t i = b[3 * t], j = b[3 * t + 1], h = b[3 * t + 2];
        const double *zi = S->Zc + i * s;
        double v = zi[j] + zi[h] - zi[i] - S->Zc[j * s + h];
        if (admits(S->tri, v))
            top_push(S->tri, (cand){v, i, j, h});
    }
}

static void sample_role(void *ctx, size_t begin, size_t end, int tid)
{
    (void)tid;
    for (size_t role = begin; role < end; role++) {
        sample_job *S = ctx;
        if (role == 0 && S->fill >= 0)
            sample_draw(S);
        else if (role == 1 && S->eval >= 0)
            sample_eval(S);
    }
}

static bool sample_triangles(const double *Zc, size_t s, ckm_rng *rng, int threads, cand_list *tri)
{
    sample_job S = {.Zc = Zc, .s = s, .total = 50 * s * s, .rng = rng, .range = ckm_rng_range_make(s), .tri = tri};
    S.buf[0] = ckm_alloc_array(3 * SAMPLE_CHUNK, sizeof(uint32_t));
    S.buf[1] = ckm_alloc_array(3 * SAMPLE_CHUNK, sizeof(uint32_t));
    bool ok = S.buf[0] && S.buf[1];
    S.fill = 0;
    S.eval = -1;
    while (ok && (S.fill >= 0 || S.eval >= 0)) {
        ckm_parallel_for(threads, 2, sample_role, &S);
        int drawn = S.fill;
        S.eval = drawn;                                       /* what was drawn is evaluated next */
        S.fill = S.next < S.total ? (drawn >= 0 ? 1 - drawn : 0) : -1; /* the other buffer */
    }
    free(S.buf[0]);
    free(S.buf[1]);
    return ok;
}

/* Pairs and triangles into L[0] and L[1]: the apex scan on `threads` threads (each into its own
 * heaps), then the sampled triangles when s > 300; every heap's candidates appended (sorting
 * them later gives the max_add best of each kind, the same with one thread or two). */
static bool pairs_triangles(const ckm_sdp *p, const double *Zc, ckm_rng *rng, int threads, size_t max_add, cand_list *L)
{
    size_t s = p->s;
    int parts = threads > 1 && s >= 64 ? 2 : 1;
    scan_job J = {.Zc = Zc, .is_cl = p->is_cl, .s = s, .full = s <= 300};
    bool ok = true;
    for (int q = 0; q < parts && ok; q++) {
        J.pair[q].cap = J.tri[q].cap = max_add;
        ok = (J.pair[q].v = ckm_alloc_array(max_add + 1, sizeof(cand))) &&
             (J.tri[q].v = ckm_alloc_array(max_add + 1, sizeof(cand)));
    }
    if (ok) {
        ckm_parallel_for(parts, s, scan_apexes, &J);
        if (!J.full)
            ok = sample_triangles(Zc, s, rng, parts, &J.tri[0]);
        for (int kind = 0; kind < 2; kind++)
            for (int q = 0; q < parts && ok; q++) {
                cand_list *from = kind == 0 ? &J.pair[q] : &J.tri[q];
                for (size_t c = 0; c < from->n && ok; c++)
                    ok = push(&L[kind], from->v[c]);
            }
    }
    for (int q = 0; q < 2; q++) {
        free(J.pair[q].v);
        free(J.tri[q].v);
    }
    return ok;
}

/* size rows: 1/c_max <= Zhat_ii <= 1/c_min (b = 0: the lower side, 1: the upper) */
static bool size_candidates(const ckm_sdp *p, const double *Zc, cand_list *L)
{
    bool ok = true;
    for (size_t i = 0; i < p->s && ok; i++) {
        double z = Zc[i * p->s + i], lo = 1.0 / p->c_max - z, hi = z - 1.0 / p->c_min;
        if (lo > VIOL_TOL)
            ok = push(L, (cand){lo, i, 0, 0});
        else if (hi > VIOL_TOL)
            ok = push(L, (cand){hi, i, 1, 0});
    }
    return ok;
}

/* The capacity row of group i, side b (0: U Z_ii - sum Q_b Z_ib >= 0, 1: sum Q_b Z_ib - L Z_ii
 * >= 0) as Z-coefficients on (i, x) for every group x; returns its value on Zc. */
static double capacity_row(const ckm_sdp *p, const double *Zc, size_t i, size_t b, double *zc)
{
    size_t s = p->s;
    double v = 0.0, sign = b == 0 ? -1.0 : 1.0;
    for (size_t x = 0; x < s; x++) {
        zc[x] = sign * p->dem[x];
        if (x == i)
            zc[x] += b == 0 ? p->cap_hi : -p->cap_lo;
        v += zc[x] * Zc[i * s + x];
    }
    return v;
}

/* capacity rows violated by more than the tolerance, per unit of row norm (b as above) */
static bool capacity_candidates(const ckm_sdp *p, const double *Zc, double *zc, cand_list *L)
{
    bool ok = true;
    for (size_t i = 0; p->dem && i < p->s && ok; i++)
        for (size_t b = 0; b < 2 && ok; b++) {
            if ((b == 0 && !isfinite(p->cap_hi)) || (b == 1 && !(p->cap_lo > 0.0)))
                continue; /* no maximum; no minimum (Z >= 0 holds it) */
            double v = capacity_row(p, Zc, i, b, zc), norm = 0.0;
            for (size_t x = 0; x < p->s; x++)
                norm += (x == i ? 1.0 : 0.5) * zc[x] * zc[x];
            norm = sqrt(norm);
            if (norm > 0.0 && -v / norm > VIOL_TOL)
                ok = push(L, (cand){-v / norm, i, b, 0});
        }
    return ok;
}

/* cliques of k + 1 groups: greedy from every start (not for k > 10: rows too long); the
 * members of candidate a are (*cliques)[a (k + 1) ..], sorted, each set once */
static bool clique_candidates(const ckm_sdp *p, const double *Zc, cand_list *L, size_t **cliques)
{
    size_t s = p->s, q1 = p->k + 1, ncl = 0;
    if (q1 > s || q1 * (q1 - 1) / 2 > CKM_SDP_ROW_MAX_TERMS)
        return true;
    *cliques = ckm_alloc_array(s * q1, sizeof(size_t));
    unsigned char *in = calloc(s, 1);
    double *acc = ckm_alloc_array(s, sizeof(double));
    bool ok = *cliques && in && acc;
    for (size_t start = 0; start < s && ok; start++) {
        size_t *Q = *cliques + ncl * q1;
        memset(in, 0, s);
        for (size_t x = 0; x < s; x++)
            acc[x] = Zc[start * s + x];
        Q[0] = start;
        in[start] = 1;
        double total = 0.0;
        for (size_t c = 1; c < q1; c++) {
            size_t best = s;
            for (size_t x = 0; x < s; x++)
                if (!in[x] && (best == s || acc[x] < acc[best]))
                    best = x;
            total += acc[best];
            Q[c] = best;
            in[best] = 1;
            for (size_t x = 0; x < s; x++)
                acc[x] += Zc[best * s + x];
        }
        double v = 1.0 / p->c_max - total;
        if (v <= VIOL_TOL)
            continue;
        for (size_t a = 1; a < q1; a++) /* sort the members; skip a set already found */
            for (size_t b = a; b > 0 && Q[b - 1] > Q[b]; b--) {
                size_t x = Q[b];
                Q[b] = Q[b - 1];
                Q[b - 1] = x;
            }
        bool dup = false;
        for (size_t c = 0; c < ncl && !dup; c++)
            dup = memcmp(*cliques + c * q1, Q, q1 * sizeof(size_t)) == 0;
        if (!dup)
            ok = push(L, (cand){v, ncl++, 0, 0});
    }
    free(in);
    free(acc);
    return ok;
}

/* the terms (ti, tj, zc) and right-hand side of candidate c of a kind (0 pair, 1 triangle,
 * 2 clique, 3 size, 4 capacity); returns the number of terms */
static size_t row_terms(const ckm_sdp *p, const double *Zc, int kind, cand c, const size_t *cliques, size_t *ti,
                        size_t *tj, double *zc, double *rhs)
{
    size_t nt = 0, q1 = p->k + 1;
    *rhs = 0.0;
    if (kind == 4) {
        capacity_row(p, Zc, c.a, c.b, zc);
        for (size_t x = 0; x < p->s; x++) {
            ti[x] = c.a;
            tj[x] = x;
        }
        return p->s;
    }
    if (kind == 0) {
        ti[0] = tj[0] = c.a;
        zc[0] = 1.0;
        ti[1] = c.a;
        tj[1] = c.b;
        zc[1] = -1.0;
        nt = 2;
    } else if (kind == 1) {
        size_t tt[4][2] = {{c.a, c.a}, {c.b, c.c}, {c.a, c.b}, {c.a, c.c}};
        double cc[4] = {1.0, 1.0, -1.0, -1.0};
        for (int q = 0; q < 4; q++) {
            ti[q] = tt[q][0];
            tj[q] = tt[q][1];
            zc[q] = cc[q];
        }
        nt = 4;
    } else if (kind == 3) {
        ti[0] = tj[0] = c.a; /* Z_ii >= 1/c_max, or -Z_ii >= -1/c_min */
        zc[0] = c.b == 0 ? 1.0 : -1.0;
        nt = 1;
        *rhs = c.b == 0 ? 1.0 / p->c_max : -1.0 / p->c_min;
    } else {
        const size_t *Q = cliques + c.a * q1;
        for (size_t a = 0; a < q1; a++)
            for (size_t b = a + 1; b < q1; b++) {
                ti[nt] = Q[a];
                tj[nt] = Q[b];
                zc[nt++] = 1.0;
            }
        *rhs = 1.0 / p->c_max;
    }
    return nt;
}

ckm_error ckm_sdp_separate(ckm_sdp *p, ckm_rng *rng, int threads, size_t max_add, ckm_cut_stats *st, ckm_err *err)
{
    size_t s = p->s;
    memset(st, 0, sizeof *st);
    st->removed = remove_inactive(p);
    enum { KINDS = 5 };
    cand_list L[KINDS] = {{NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}, {NULL, 0, 0}};
    size_t *cliques = NULL, added = 0, nbuf = s > CKM_SDP_ROW_MAX_TERMS ? s : CKM_SDP_ROW_MAX_TERMS;
    double *Zc = ckm_alloc_array(s * s, sizeof(double)), *zc = ckm_alloc_array(nbuf, sizeof(double));
    size_t *ti = ckm_alloc_array(nbuf, sizeof(size_t)), *tj = ckm_alloc_array(nbuf, sizeof(size_t));
    bool ok = Zc && zc && ti && tj;
    if (ok) /* Zc = Zhat with the cannot-link entries 0, exactly symmetric */
        for (size_t i = 0; i < s; i++)
            for (size_t j = 0; j <= i; j++)
                Zc[i * s + j] = Zc[j * s + i] = p->is_cl[i * s + j] ? 0.0 : zhat(p, i, j);
    ok = ok && pairs_triangles(p, Zc, rng, threads, max_add, L) && size_candidates(p, Zc, &L[3]) &&
         clique_candidates(p, Zc, &L[2], &cliques) && capacity_candidates(p, Zc, zc, &L[4]);
    if (!ok) {
        for (int kind = 0; kind < KINDS; kind++)
            free(L[kind].v);
        free(cliques);
        free(Zc);
        free(zc);
        free(ti);
        free(tj);
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory separating cuts");
    }
    for (int kind = 0; kind < KINDS; kind++) {
        if (L[kind].n > 1)
            qsort(L[kind].v, L[kind].n, sizeof(cand), by_viol_desc);
        if (L[kind].n)
            st->max_violation = fmax(st->max_violation, L[kind].v[0].viol);
    }
    /* take the most violated of each kind in turn */
    size_t next[KINDS] = {0, 0, 0, 0, 0};
    size_t *count[KINDS] = {&st->added_pair, &st->added_triangle, &st->added_clique, &st->added_size,
                            &st->added_capacity};
    bool more = true;
    while (more && added < max_add && p->nb < p->max_cuts && ok) {
        more = false;
        for (int kind = 0; kind < KINDS && added < max_add && p->nb < p->max_cuts && ok; kind++) {
            if (next[kind] >= L[kind].n)
                continue;
            more = true;
            double rhs;
            size_t nt = row_terms(p, Zc, kind, L[kind].v[next[kind]++], cliques, ti, tj, zc, &rhs);
            size_t before = p->nb;
            ok = ckm_sdp_add_row(p, ti, tj, zc, nt, rhs, (unsigned char)(kind == 4 ? 5 : kind));
            if (p->nb > before) {
                added++;
                (*count[kind])++;
            }
        }
    }
    for (int kind = 0; kind < KINDS; kind++) {
        if (p->nb >= p->max_cuts)
            st->turned_away += L[kind].n - next[kind];
        free(L[kind].v);
    }
    free(cliques);
    free(Zc);
    free(zc);
    free(ti);
    free(tj);
    if (!ok)
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory adding cuts");
    st->active = p->nb;
    return ckm_sdp_cuts_changed(p, p->nb - added, err);
}
