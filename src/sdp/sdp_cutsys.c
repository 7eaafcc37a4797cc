/*
 * sdp_cutsys.c -- the (y, u) system of the ADMM with cut rows (sdp_admm.c, steps 2 and 4),
 *   [K    AB ] [y]   [r_y]     K  = AA* (m x m, applied inverted by sdp_aat.c),
 *   [AB'  G  ] [u] = [r_u],    AB = A B* (m x nb; column l = A(B_l), a few nonzeros),
 *                              G  = BB* + I (nb x nb, sparse),
 * solved through the Schur complement without forming it:
 *   w = K^{-1} r_y,   H u = r_u - AB' w,   y = K^{-1} (r_y - AB u),
 *   H = G - AB' K^{-1} AB = I + B (I - A* K^{-1} A) B*   (eigenvalues in [1, 1 + ||B||^2]),
 * H u = h by preconditioned conjugate gradients, warm-started from the previous u, to
 * ||h - H u|| <= CUTSYS_TOL ||h||. H is applied matrix-free: BB* through the distinct matrix
 * entries the rows touch (<Sym_e, Sym_e> = 1 on the diagonal, 1/2 off it, the row scaling
 * of sdp_cuts.c), AB and AB' from the rows' terms, K^{-1} by ckm_sdp_kinv. Cost per
 * CG step: O(terms + s + #cannot-links^2), against O(nb^2) per solve and O(nb^3) per round for a dense
 * factor of H (3000 rows: 72 MB, 0.33 s to build and factor, 2.5 ms per solve here).
 *
 * Preconditioner: block Jacobi on G, one block per apex. Every pair, triangle and size row
 * has one diagonal term Z_ii; rows sharing it are nearly parallel (a singleton's Z_ii
 * carries most of each row's norm), which is where H's large eigenvalues come from
 * (accent ml_50_cl_50_0: up to 208 with 2151 rows). Rows without a diagonal term (cliques)
 * are blocks of their own; blocks hold at most CUTSYS_BLOCK rows; each is inverted densely.
 * Any such block diagonal of G is SPD (G >= I), so CG converges whatever the grouping.
 */
#include "linalg.h"
#include "sdp_impl.h"

#include <cblas.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CUTSYS_TOL 1e-8    /* relative residual of the CG solve */
#define CUTSYS_MAX_IT 1000  /* CG steps per solve (far more than measured: see the log's count) */
#define CUTSYS_BLOCK 256    /* largest preconditioner block */

/* an index under a sort key: terms by matrix entry, rows by apex */
typedef struct keyed_index {
    size_t key, idx;
} keyed_index;

static int by_key(const void *a, const void *b)
{
    const keyed_index *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* the apex of row l: its diagonal term of largest |g|, SIZE_MAX if it has none */
static size_t apex_of(const ckm_sdp *p, size_t l)
{
    size_t apex = SIZE_MAX;
    double best = -1.0;
    for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++)
        if (p->bent[e].i == p->bent[e].j && fabs(p->bent[e].g) > best) {
            best = fabs(p->bent[e].g);
            apex = p->bent[e].i;
        }
    return apex;
}

int ckm_sdp_prepare_cuts(ckm_sdp *p)
{
    size_t nb = p->nb, nt = p->bstart[nb], s = p->s;
    ckm_cutsys *c = &p->sys;
    c->ne = 0;
    c->ng = 0;
    if (nb == 0)
        return 1;
    /* distinct entries: eid per term, weight per entry */
    keyed_index *kt = malloc(nt * sizeof *kt), *kr = malloc(nb * sizeof *kr);
    bool ok = kt && kr && ckm_grow((void **)&c->eid, &c->eid_cap, nt, sizeof(size_t)) &&
              ckm_grow((void **)&c->ew, &c->ew_cap, nt, sizeof(double)) &&
              ckm_grow((void **)&c->ez, &c->ez_cap, nt, sizeof(double));
    if (!ok) {
        free(kt);
        free(kr);
        return -1;
    }
    for (size_t e = 0; e < nt; e++)
        kt[e] = (keyed_index){p->bent[e].i * s + p->bent[e].j, e};
    qsort(kt, nt, sizeof *kt, by_key);
    for (size_t a = 0; a < nt; a++) {
        if (a > 0 && kt[a].key != kt[a - 1].key)
            c->ne++;
        c->eid[kt[a].idx] = c->ne;
        c->ew[c->ne] = kt[a].key / s == kt[a].key % s ? 1.0 : 0.5;
    }
    c->ne++;
    free(kt);
    /* blocks: rows sorted by apex, runs of equal apex cut at CUTSYS_BLOCK rows */
    for (size_t l = 0; l < nb; l++)
        kr[l] = (keyed_index){apex_of(p, l), l};
    qsort(kr, nb, sizeof *kr, by_key);
    size_t fac = 0;
    for (size_t a = 0; a < nb;) {
        size_t b = a + 1;
        while (b < nb && b - a < CUTSYS_BLOCK && kr[a].key != SIZE_MAX && kr[b].key == kr[a].key)
            b++;
        for (size_t x = a; x < b; x++)
            c->gmem[x] = kr[x].idx;
        c->gstart[c->ng] = a;
        c->goff[c->ng] = fac;
        c->ng++;
        fac += (b - a) * (b - a);
        a = b;
    }
    c->gstart[c->ng] = nb;
    c->goff[c->ng] = fac;
    free(kr);
    if (!ckm_grow((void **)&c->gfac, &c->gfac_cap, fac, sizeof(double)))
        return -1;
    /* each block of G = I + BB*: row a's terms scattered by entry, dotted with row b's */
    memset(c->ez, 0, c->ne * sizeof(double));
    for (size_t g = 0; g < c->ng; g++) {
        size_t g0 = c->gstart[g], bs = c->gstart[g + 1] - g0;
        double *F = c->gfac + c->goff[g];
        for (size_t x = 0; x < bs; x++) {
            size_t la = c->gmem[g0 + x];
            for (size_t e = p->bstart[la]; e < p->bstart[la + 1]; e++)
                c->ez[c->eid[e]] += p->bent[e].g;
            for (size_t y = 0; y <= x; y++) {
                size_t lb = c->gmem[g0 + y];
                double v = x == y ? 1.0 : 0.0;
                for (size_t e = p->bstart[lb]; e < p->bstart[lb + 1]; e++)
                    v += c->ew[c->eid[e]] * c->ez[c->eid[e]] * p->bent[e].g;
                F[x * bs + y] = F[y * bs + x] = v;
            }
            for (size_t e = p->bstart[la]; e < p->bstart[la + 1]; e++)
                c->ez[c->eid[e]] = 0.0;
        }
        if (ckm_spd_inverse(bs, F) != 0)
            return 0;
    }
    return 1;
}

/* out += c A(Sym_q) for one term q: A(Sym_ii) = v_i e_i + e_trace, A(Sym_ij) = (v_j e_i +
 * v_i e_j)/2; cut terms never sit on cannot-link entries. */
static inline void ab_term(const ckm_sdp *p, const ckm_cut_entry *q, double c, double *out)
{
    if (q->i == q->j) {
        out[q->i] += c * p->v[q->i];
        out[p->s] += c;
    } else {
        out[q->i] += 0.5 * c * p->v[q->j];
        out[q->j] += 0.5 * c * p->v[q->i];
    }
}

/* out = AB x (m), from the rows' terms */
static void ab_times(const ckm_sdp *p, const double *x, double *out)
{
    memset(out, 0, p->m * sizeof(double));
    for (size_t l = 0; l < p->nb; l++)
        for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++)
            ab_term(p, &p->bent[e], p->bent[e].g * x[l], out);
}

/* (AB' w)_l */
static double abt_row(const ckm_sdp *p, size_t l, const double *w)
{
    size_t s = p->s;
    double v = 0.0;
    for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++) {
        const ckm_cut_entry *q = &p->bent[e];
        v += q->i == q->j ? q->g * (p->v[q->i] * w[q->i] + w[s])
                          : 0.5 * q->g * (p->v[q->j] * w[q->i] + p->v[q->i] * w[q->j]);
    }
    return v;
}

/* out = H x = x + B(B* x) - AB' K^{-1} AB x; B* x (by entry, into ez) and AB x (into wm,
 * as ab_times) in one pass over the terms */
static void apply_h(ckm_sdp *p, const double *x, double *out)
{
    ckm_cutsys *c = &p->sys;
    double *w = c->wm;
    memset(c->ez, 0, c->ne * sizeof(double));
    memset(w, 0, p->m * sizeof(double));
    for (size_t l = 0; l < p->nb; l++)
        for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++) {
            double g = p->bent[e].g * x[l];
            c->ez[c->eid[e]] += g;
            ab_term(p, &p->bent[e], g, w);
        }
    ckm_sdp_kinv(p, w);
    for (size_t l = 0; l < p->nb; l++) {
        double v = x[l] - abt_row(p, l, c->wm);
        for (size_t e = p->bstart[l]; e < p->bstart[l + 1]; e++)
            v += c->ew[c->eid[e]] * c->ez[c->eid[e]] * p->bent[e].g;
        out[l] = v;
    }
}

/* z = P^{-1} r, block by block, by each block's inverse: one dsymv, or a plain loop below 16
 * rows, where the call costs about as much as the work (bench/spd_apply.c, OpenBLAS 0.3.21,
 * one thread, us per block of 8 / 16 / 32 / 64 / 256 rows: loop 0.021 / 0.059 / 0.24 / 0.94 /
 * 22.7, dsymv 0.040 / 0.077 / 0.15 / 0.35 / 3.0, the factor's two dtrsv 0.135 / 0.272 / 0.57 /
 * 1.19 / 8.4) */
static void precondition(const ckm_sdp *p, const double *r, double *z)
{
    const ckm_cutsys *c = &p->sys;
    double *zb = c->zb, *zo = c->zb + CUTSYS_BLOCK;
    for (size_t g = 0; g < c->ng; g++) {
        size_t g0 = c->gstart[g], bs = c->gstart[g + 1] - g0;
        const double *F = c->gfac + c->goff[g];
        for (size_t x = 0; x < bs; x++)
            zb[x] = r[c->gmem[g0 + x]];
        if (bs >= 16) {
            cblas_dsymv(CblasRowMajor, CblasLower, (int)bs, 1.0, F, (int)bs, zb, 1, 0.0, zo, 1);
        } else {
            for (size_t x = 0; x < bs; x++) {
                double v = 0.0;
                for (size_t y = 0; y < bs; y++)
                    v += F[x * bs + y] * zb[y];
                zo[x] = v;
            }
        }
        for (size_t x = 0; x < bs; x++)
            z[c->gmem[g0 + x]] = zo[x];
    }
}

static double dot(const double *a, const double *b, size_t n)
{
    double v = 0.0;
    for (size_t i = 0; i < n; i++)
        v += a[i] * b[i];
    return v;
}

void ckm_sdp_cut_solve(ckm_sdp *p, double *y, const double *ru)
{
    ckm_cutsys *c = &p->sys;
    size_t nb = p->nb, m = p->m;
    double *u = p->u, *r = c->cr, *z = c->cz, *d = c->cd, *q = c->cq;
    /* h = r_u - AB' K^{-1} r_y  (into r) */
    memcpy(c->wm, y, m * sizeof(double));
    ckm_sdp_kinv(p, c->wm);
    double hn = 0.0;
    for (size_t l = 0; l < nb; l++) {
        r[l] = ru[l] - abt_row(p, l, c->wm);
        hn += r[l] * r[l];
    }
    hn = sqrt(hn);
    /* r = h - H u (u: the last solution) */
    apply_h(p, u, q);
    double rn = 0.0;
    for (size_t l = 0; l < nb; l++) {
        r[l] -= q[l];
        rn += r[l] * r[l];
    }
    rn = sqrt(rn);
    double tol = CUTSYS_TOL * hn;
    if (rn > tol) {
        precondition(p, r, z);
        memcpy(d, z, nb * sizeof(double));
        double rz = dot(r, z, nb);
        for (int it = 0; it < CUTSYS_MAX_IT && rn > tol; it++) {
            apply_h(p, d, q);
            double dq = dot(d, q, nb);
            if (!(dq > 0.0))
                break;
            double alpha = rz / dq;
            rn = 0.0;
            for (size_t l = 0; l < nb; l++) {
                u[l] += alpha * d[l];
                r[l] -= alpha * q[l];
                rn += r[l] * r[l];
            }
            rn = sqrt(rn);
            c->steps++;
            if (rn <= tol)
                break;
            precondition(p, r, z);
            double rz1 = dot(r, z, nb), beta = rz1 / rz;
            rz = rz1;
            for (size_t l = 0; l < nb; l++)
                d[l] = z[l] + beta * d[l];
        }
    }
    /* y = K^{-1} (r_y - AB u) */
    ab_times(p, u, c->wm);
    for (size_t i = 0; i < m; i++)
        y[i] -= c->wm[i];
    ckm_sdp_kinv(p, y);
}

bool ckm_sdp_cutsys_alloc(ckm_cutsys *c, size_t m, size_t max_rows)
{
    size_t n = max_rows ? max_rows : 1;
    c->cr = ckm_alloc_array(n, sizeof(double));
    c->cz = ckm_alloc_array(n, sizeof(double));
    c->cd = ckm_alloc_array(n, sizeof(double));
    c->cq = ckm_alloc_array(n, sizeof(double));
    c->ch = ckm_alloc_array(n, sizeof(double));
    c->zb = ckm_alloc_array(2 * CUTSYS_BLOCK, sizeof(double));
    c->wm = ckm_alloc_array(m, sizeof(double));
    c->gstart = ckm_alloc_array(n + 1, sizeof(size_t));
    c->goff = ckm_alloc_array(n + 1, sizeof(size_t));
    c->gmem = ckm_alloc_array(n, sizeof(size_t));
    return c->cr && c->cz && c->cd && c->cq && c->ch && c->zb && c->wm && c->gstart && c->goff && c->gmem;
}

void ckm_sdp_cutsys_free(ckm_cutsys *c)
{
    void *arrs[] = {c->cr, c->cz, c->cd, c->cq, c->ch, c->zb, c->wm, c->gstart, c->goff, c->gmem, c->gfac, c->eid, c->ew, c->ez};
    for (size_t i = 0; i < sizeof arrs / sizeof arrs[0]; i++)
        free(arrs[i]);
}

/* After rows first.. were added (or rows removed): their slacks t from the current Xhat,
 * and the (y, u) system prepared again. */
ckm_error ckm_sdp_cuts_changed(ckm_sdp *p, size_t first, ckm_err *err)
{
    ckm_sdp_B(p, p->Xhat, p->bx);
    for (size_t l = first; l < p->nb; l++)
        p->t[l] = fmax(p->bx[l] - p->d[l], 0.0);
    int ok = ckm_sdp_prepare_cuts(p);
    if (ok < 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "sdp: out of memory factoring the cut system (%zu cuts, %zu entries)", p->nb,
                        p->bstart[p->nb]);
    if (ok == 0)
        return ckm_fail(err, CKM_ERR_INTERNAL, "sdp: the cut system is not positive definite (%zu cuts)", p->nb);
    return CKM_OK;
}
