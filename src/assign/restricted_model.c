/*
 * restricted_model.c -- the restricted route's storage and model, shared by its LP rounds and
 * its MILP (route_restricted.c): grow-only buffers, the CLP model of the active columns
 * (ckm_cg_build through model.h: group rows only for the groups not placed, numbered by
 * row_of; the placed weight off the size rows; a cannot-link row only where both columns are
 * active, keyed e k + j ascending), the last optimal model kept for the next round's basis
 * (warm_basis), and reduced costs under the last LP's duals extended to every group (cg->u,
 * cg->v).
 */
#include "core.h"
#include "incidence.h"
#include "prices.h"
#include "restricted_costs.h"
#include "restricted_model.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ckm_cg_free(struct ckm_cg *cg)
{
    if (!cg)
        return;
    free(cg->on);
    free(cg->v_prev);
    free(cg->p_prev);
    free(cg->guess);
    free(cg->best);
    free(cg->agg_q);
    free(cg->p);
    ckm_prices_free(cg->prices);
    free(cg->gcol);
    free(cg->cj);
    free(cg->held);
    ckm_model_free(&cg->m);
    free(cg->x);
    free(cg->dual);
    free(cg->basis);
    free(cg->bas);
    free(cg->pcj);
    free(cg->prc);
    free(cg->pgcol);
    free(cg->prkey);
    free(cg->pbas);
    free(cg->agg);
    free(cg->lifted);
    free(cg->agg_w);
    free(cg->u);
    free(cg->v);
    free(cg->prow_of);
    free(cg->inc_start);
    free(cg->sinc_start);
    free(cg->sinc);
    free(cg->adj);
    free(cg->pslack);
    free(cg->inc);
    free(cg->rc_best);
    free(cg->j_best);
    ckm_cg_costs_free(cg);
    free(cg);
}

/* CLP's bytes for a model of nnz entries and cols columns (the fit of route_full.c's model). */
static double model_bytes(double nnz, double cols)
{
    return 190.0 * nnz + 175.0 * cols;
}

/* The restricted model the memory model counts on: (CG_Q + 1) columns for each group in the
 * LP, G = min(s, 2 (m + q) + s / 8) of them (the groups with cannot-links or soft pairs
 * (q), which the prices may not place or never place (model.h), and s / 8 for those lifted
 * or left on a tie or split by a must-link group's weight: twice the 1.5-5.7 % of the groups
 * the LPs held at 10^6 x 16, k = 100, 10^5 cannot-links, balanced), and the pair rows of the
 * pairs whose active clusters meet, min(1, 2 (CG_Q + 1)^2 / k) of them, 2 entries a row and 2
 * a column (3 with capacity rows). A step whose model outgrows it asks for the memory then
 * (ckm_cg_build). */
static double counted_model(const ckm_reduced *r)
{
    double s = (double)r->s, k = (double)r->k, m = (double)r->n_cl + (double)r->n_soft, q = CG_Q + 1.0;
    double cols = q * fmin(s, 2.0 * m + s / 8.0), rows = m * fmin(1.0, 2.0 * q * q / k);
    return model_bytes((r->has_caps ? 3.0 : 2.0) * cols + 2.0 * rows, cols);
}

struct ckm_cg *ckm_cg_new(const ckm_reduced *r, int implicit)
{
    struct ckm_cg *cg = calloc(1, sizeof *cg);
    if (!cg)
        return NULL;
    cg->words = (r->k + 63) / 64;
    cg->blk_rows = ckm_cg_block_rows(r->k);
    size_t bits;
    if (!ckm_mul_ok(r->s, cg->words, &bits) || !(cg->on = ckm_calloc_array(bits, sizeof(uint64_t))) ||
        !(cg->v_prev = ckm_calloc_array(r->k, sizeof(double))) || !(cg->gcol = ckm_alloc_array(r->s + 1, sizeof(size_t))) ||
        !(cg->pgcol = ckm_alloc_array(r->s + 1, sizeof(size_t))) ||
        !(cg->rc_best = ckm_alloc_array(r->s * CG_ADD, sizeof(double))) ||
        !(cg->j_best = ckm_alloc_array(r->s * CG_ADD, sizeof(int32_t))) ||
        !(cg->held = ckm_alloc_array(r->s, sizeof(int32_t))) || !(cg->prow_of = ckm_alloc_array(r->s, sizeof(size_t))) ||
        !(cg->agg = ckm_alloc_array(r->s, sizeof(int32_t))) || !(cg->lifted = ckm_calloc_array(r->s, 1)) ||
        !(cg->agg_w = ckm_calloc_array(r->k, sizeof(double))) || !(cg->u = ckm_calloc_array(r->s, sizeof(double))) ||
        !(cg->v = ckm_calloc_array(r->k, sizeof(double))) || !(cg->p = ckm_calloc_array(r->k, sizeof(double))) ||
        !(cg->p_prev = ckm_calloc_array(r->k, sizeof(double))) || !(cg->agg_q = ckm_calloc_array(r->k, sizeof(double))) ||
        !ckm_incidence(r->s, r->n_cl, r->cl, &cg->inc_start, &cg->inc) ||
        !ckm_incidence(r->s, r->n_soft, r->soft, &cg->sinc_start, &cg->sinc) ||
        !(cg->adj = ckm_calloc_array(r->k, sizeof(double))) || (implicit && !ckm_cg_costs_new(cg, r))) {
        ckm_cg_free(cg);
        return NULL;
    }
    cg->model_high = counted_model(r);
    cg->avail = -1.0;
    return cg;
}

double ckm_cg_bytes(const ckm_reduced *r, int implicit)
{
    /* the step's costs: with the matrix, the s x k costs twice (the step's, first_prices'
     * per-point copy); implicit (restricted_costs.c), the shifted means and their norms, one
     * block of costs, and first_prices' transportation problem from those means
     * (transport_points.c past its matrix: 12 s C + 22 s of candidates, C = 16 for k <= 256,
     * else 32, and its auction's 20 s); then the bitsets, the cannot-link and soft-pair
     * incidence, 33 bytes per group (placement, extended duals, row maps, the transportation
     * labels), and the restricted model (counted_model) */
    double s = (double)r->s, k = (double)r->k, m = (double)r->n_cl + (double)r->n_soft;
    double costs = implicit ? 8.0 * s * ((double)r->d + 1.0) + 8.0 * 1048576.0 + (12.0 * (k <= 256 ? 16 : 32) + 42.0) * s
                            : 16.0 * s * k;
    return costs + s * k / 4.0 + 16.0 * m + 33.0 * s + counted_model(r);
}

/* Grow a buffer to at least need elements of size sz (contents kept). */
static bool grow(void **p, size_t need, size_t sz)
{
    void *q = realloc(*p, (need ? need : 1) * sz);
    if (!q)
        return false;
    *p = q;
    return true;
}

/* The LP's buffers for cols columns (the y clusters too) and rows rows. */
static bool reserve(struct ckm_cg *cg, size_t cols, size_t rows)
{
    if (cols >= cg->cap_cols) { /* >=: never a NULL buffer, even with no column (every group placed) */
        size_t c = cols + cols / 2 + 1;
        if (!grow((void **)&cg->cj, c, sizeof(int32_t)) || !grow((void **)&cg->x, c, sizeof(double)))
            return false;
        cg->cap_cols = c;
        cg->cap_rows = 0; /* the basis spans columns and rows */
    }
    if (rows > cg->cap_rows) {
        size_t q = rows + rows / 2;
        if (!grow((void **)&cg->dual, q, sizeof(double)) || !grow((void **)&cg->basis, cg->cap_cols + q, 1) ||
            !grow((void **)&cg->bas, cg->cap_cols + q, 1))
            return false;
        cg->cap_rows = q;
    }
    return true;
}

/* The previous optimal basis carried over (phase 2, columns only added since): old columns
 * and rows keep their status, new pair rows' slacks are basic (dual 0), and a new
 * column sits at its upper bound 1 when its reduced cost under the old duals is negative
 * (it was priced in for that), else at 0. A group the prices had placed at f and pricing
 * lifted into the LP gets its row nonbasic and column f basic (rc_tf = 0 by the implied
 * u_t; the weight leaves agg_w as column f takes it on, so the size rows' activity is
 * unchanged). As many basic variables as rows, and dual feasible for the dual simplex: the
 * old duals, with 0 on the new cannot-link rows, leave every nonbasic column's reduced
 * cost of the right sign (>= 0 at 0, < 0 at 1); only the group rows the new columns at 1
 * overfill are primal infeasible. Measured (60,000 x 20, k = 100, 10^6 cannot-links): a
 * round that priced in 483 columns took 5.2 s by the primal simplex from this basis with
 * the new columns at 0, and 4-6 s by the dual one from the argmin basis. */
static void warm_basis(struct ckm_cg *cg, const ckm_reduced *r, size_t cols, size_t rows)
{
    size_t s = r->s, k = r->k, S = cg->m.S, pS = cg->pS;
    unsigned char *st = cg->basis;
    for (size_t t = 0; t < s; t++) {
        if (cg->m.row_of[t] == SIZE_MAX)
            continue;
        size_t p = cg->pgcol[t];
        bool new_row = cg->prow_of[t] == SIZE_MAX;
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
            bool old = p < cg->pgcol[t + 1] && cg->pcj[p] == cg->cj[c];
            if (old)
                st[c] = cg->pbas[p++];
            else if (new_row && cg->cj[c] == cg->agg[t])
                st[c] = CKM_LP_BASIC;
            else
                st[c] = ckm_cg_reduced(cg, r, cg->m.obj[c], t, (size_t)cg->cj[c]) < 0.0 ? CKM_LP_AT_UPPER : CKM_LP_AT_LOWER;
        }
        st[cols + cg->m.row_of[t]] = new_row ? CKM_LP_AT_LOWER : cg->pbas[cg->pcols + cg->prow_of[t]];
    }
    for (size_t i = 0, q = 0; i < cg->m.slacks; i++) { /* a soft pair's slack: its old status, or 0 */
        while (q < cg->pcols - cg->pycols && cg->pslack[q] < cg->m.slack_of[i])
            q++;
        bool old = q < cg->pcols - cg->pycols && cg->pslack[q] == cg->m.slack_of[i];
        st[cg->m.ycols + i] = old ? cg->pbas[cg->pycols + q] : CKM_LP_AT_LOWER;
    }
    for (size_t j = 0; j < k; j++)
        st[cols + S + j] = cg->pbas[cg->pcols + pS + j];
    size_t p = 0, np = cg->pcap0 - pS - k, nq = cg->m.cap0 - S - k;
    for (size_t q = 0; q < nq; q++) {
        while (p < np && cg->prkey[p] < cg->m.pkey[q])
            p++;
        st[cols + S + k + q] = p < np && cg->prkey[p] == cg->m.pkey[q] ? cg->pbas[cg->pcols + pS + k + p] : CKM_LP_BASIC;
    }
    for (size_t j = 0; cg->m.cap0 < rows && j < k; j++) /* capacity rows, the last k */
        st[cols + cg->m.cap0 + j] = cg->pbas[cg->pcols + cg->pcap0 + j];
}

/* Keep the model just solved to optimality (phase 2) for warm_basis. */
bool ckm_cg_keep(struct ckm_cg *cg, const ckm_reduced *r)
{
    size_t npair = cg->m.cap0 - cg->m.S - r->k;
    if (cg->cols >= cg->cap_pcols) { /* >=: never a NULL buffer, even with no column */
        if (!grow((void **)&cg->pcj, cg->cols + 1, sizeof(int32_t)) || !grow((void **)&cg->prc, cg->cols + 1, sizeof(double)))
            return false;
        cg->cap_pcols = cg->cols + 1;
        cg->cap_prows = 0;
    }
    if (cg->rows > cg->cap_prows) {
        if (!grow((void **)&cg->prkey, cg->rows, sizeof(size_t)) /* npair <= rows, whatever S */ ||
            !grow((void **)&cg->pbas, cg->cap_pcols + cg->rows, 1))
            return false;
        cg->cap_prows = cg->rows;
    }
    memcpy(cg->pcj, cg->cj, cg->cols * sizeof(int32_t));
    memcpy(cg->pgcol, cg->gcol, (r->s + 1) * sizeof(size_t));
    if (npair) /* m.pkey is NULL without pair rows */
        memcpy(cg->prkey, cg->m.pkey, npair * sizeof(size_t));
    memcpy(cg->pbas, cg->bas, cg->cols + cg->rows);
    memcpy(cg->prow_of, cg->m.row_of, r->s * sizeof(size_t));
    if (cg->m.slacks > cg->cap_pslack) {
        if (!grow((void **)&cg->pslack, cg->m.slacks, sizeof(size_t)))
            return false;
        cg->cap_pslack = cg->m.slacks;
    }
    if (cg->m.slacks) /* m.slack_of is NULL without soft rows */
        memcpy(cg->pslack, cg->m.slack_of, cg->m.slacks * sizeof(size_t));
    cg->pycols = cg->m.ycols;
    cg->pS = cg->m.S;
    cg->pcap0 = cg->m.cap0;
    cg->pcols = cg->cols;
    cg->prows = cg->rows;
    cg->warm = 1;
    return true;
}

/* The kept model's reduced costs rc = c - A' y (cannot-link rows included), for ckm_cg_rc;
 * called once the LP is final, while the model built is still the kept one. */
void ckm_cg_kept_rc(struct ckm_cg *cg)
{
    const ckm_model *m = &cg->m;
    for (size_t c = 0; c < cg->pcols; c++) {
        double v = m->obj[c];
        for (int p = m->col_start[c]; p < m->col_start[c + 1]; p++)
            v -= m->value[p] * cg->dual[m->row_index[p]];
        cg->prc[c] = v;
    }
}

/* Reduced cost of (t, j), of cost c, under the duals of the kept (last optimal) LP: its own,
 * with the cannot-link rows' duals, for a column of that LP; ckm_cg_reduced() for one outside
 * it (no rows of its own there), plus adj[j] (the soft must-link rows it would enter, from
 * ckm_cg_soft_adjust; NULL: none). */
double ckm_cg_rc(const struct ckm_cg *cg, const ckm_reduced *r, double c, size_t t, size_t j, const double *adj)
{
    long col = ckm_cluster_find(cg->pcj, cg->pgcol[t], cg->pgcol[t + 1], (int32_t)j);
    return col >= 0 ? cg->prc[col] : ckm_cg_reduced(cg, r, c, t, j) + (adj ? adj[j] : 0.0);
}

/* Row of the model built last with pair-row key key, or SIZE_MAX (the keys ascend). */
static size_t pair_row(const ckm_model *m, size_t key)
{
    size_t lo = 0, hi = m->cap0 - m->pair0;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->pkey[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->cap0 - m->pair0 && m->pkey[lo] == key ? m->pair0 + lo : SIZE_MAX;
}

bool ckm_cg_soft_adjust(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, double *adj)
{
    bool any = false;
    for (size_t i = cg->sinc_start[t]; i < cg->sinc_start[t + 1]; i++) {
        size_t e = cg->sinc[i], b = ckm_pair_other(r->soft, e, t);
        if (r->soft_w[e] < 0.0)
            continue; /* a soft cannot-link row needs both columns: none with (t, j) absent */
        if (!any)
            memset(adj, 0, r->k * sizeof(double));
        any = true;
        int dir = r->soft[2 * e] == t ? 1 : 0; /* the row where t enters with -1 */
        for (size_t c = cg->gcol[b]; c < cg->gcol[b + 1]; c++) {
            size_t row = pair_row(&cg->m, ckm_model_key(r, true, e, (size_t)cg->cj[c], dir));
            if (row != SIZE_MAX)
                adj[cg->cj[c]] += cg->dual[row];
        }
    }
    return any;
}

/* Refuse (CKM_ERR_NOMEM) a model of nnz entries and cols columns that outgrows both what the
 * memory model counted (counted_model, checked against the available memory before the run)
 * and every model built so far by more than 80 % of the memory available now, rather than
 * let CLP's copies of it run the machine out of memory. */
static ckm_error check_growth(struct ckm_cg *cg, size_t cols, size_t rows, size_t nnz, ckm_err *err)
{
    double need = model_bytes((double)nnz, (double)cols);
    if (need <= cg->model_high)
        return CKM_OK;
    double have = cg->avail >= 0.0 ? cg->avail : ckm_memory_available(), more = need - cg->model_high;
    if (have >= 0.0 && more > 0.8 * have)
        return ckm_fail(err, CKM_ERR_NOMEM,
                        "the restricted assignment model grew to %zu columns and %zu rows, about %.0f MB with "
                        "CLP's copies, %.0f MB more than any before it (docs/memory.md), but only %.0f MB are available",
                        cols, rows, need / 1048576.0, more / 1048576.0, have / 1048576.0);
    cg->model_high = need;
    return CKM_OK;
}

/* Build the restricted model (model.h's rows on the active columns, the placed groups held at
 * their cluster): y columns at the step's costs, or 0 in phase 1 with the artificials. Then
 * the basis the dual simplex starts from: the last optimal one carried over (warm_basis),
 * else the argmin basis. */
ckm_error ckm_cg_build(struct ckm_cg *cg, const ckm_reduced *r, int phase1, ckm_err *err)
{
    static const char nomem[] = "out of memory for the restricted assignment model";
    size_t s = r->s, k = r->k, ycols = 0;
    for (size_t t = 0; t < s; t++) {
        cg->gcol[t] = ycols;
        ycols += ckm_cg_bits(cg->on + t * cg->words, cg->words);
        cg->held[t] = ckm_cg_placed(cg, t);
    }
    cg->gcol[s] = ycols;
    if (!reserve(cg, ycols, 0))
        return ckm_fail(err, CKM_ERR_NOMEM, nomem);
    for (size_t t = 0, c = 0; t < s; t++)
        for (size_t j = 0; j < k; j++)
            if (ckm_cg_on(cg, t, j))
                cg->cj[c++] = (int32_t)j;
    ckm_colset cs = {cg->gcol, cg->cj, cg->held};
    bool too_large;
    if (!ckm_model_build(&cg->m, r, &cs, phase1 != 0, &too_large))
        return ckm_fail(err, CKM_ERR_NOMEM, nomem);
    ckm_model *m = &cg->m;
    ckm_error rc = check_growth(cg, m->cols, m->rows, m->nnz, err);
    if (rc != CKM_OK)
        return rc;
    if (!reserve(cg, m->cols, m->rows))
        return ckm_fail(err, CKM_ERR_NOMEM, nomem);
    for (size_t t = 0; t < s; t++)
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++)
            m->obj[c] = phase1 ? 0.0 : ckm_cg_cost(cg, r, t, (size_t)cg->cj[c]);
    if (cg->warm && !phase1 && !cg->lifts)
        warm_basis(cg, r, m->cols, m->rows);
    else
        ckm_argmin_basis(m->obj, cg->gcol, s, k, m->S, m->cols, m->rows, cg->basis);
    cg->cols = m->cols;
    cg->rows = m->rows;
    cg->ycols = ycols;
    cg->S = m->S;
    cg->cap0 = m->cap0;
    return CKM_OK;
}

ckm_lp ckm_cg_model(const struct ckm_cg *cg)
{
    return ckm_model_lp(&cg->m, cg->basis, cg->bas);
}

/* Labels from the restricted 0/1 point; false when some y is fractional. */
bool ckm_cg_labels(const struct ckm_cg *cg, size_t s, int32_t *labels)
{
    for (size_t t = 0; t < s; t++) {
        int32_t lab = ckm_cg_placed(cg, t);
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
            double v = cg->x[c];
            if (v > 1e-6 && v < 1.0 - 1e-6)
                return false;
            if (v >= 0.5)
                lab = cg->cj[c];
        }
        if (lab < 0)
            return false;
        labels[t] = lab;
    }
    return true;
}

/* Group t's cluster of largest LP value not taken by a labelled cannot-link partner (the
 * placed cluster for a placed group), or -1 when every one of its columns is taken. */
static int32_t best_free(const struct ckm_cg *cg, const ckm_reduced *r, size_t t, const int32_t *lab)
{
    int32_t f = ckm_cg_placed(cg, t), best = -1;
    if (f >= 0)
        return f;
    double top = -1.0;
    for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1]; c++) {
        bool taken = false;
        for (size_t i = cg->inc_start[t]; i < cg->inc_start[t + 1] && !taken; i++)
            taken = lab[ckm_pair_other(r->cl, cg->inc[i], t)] == cg->cj[c];
        if (!taken && cg->x[c] > top) {
            top = cg->x[c];
            best = cg->cj[c];
        }
    }
    return best;
}

bool ckm_cg_round(const struct ckm_cg *cg, const ckm_reduced *r, int32_t *lab)
{
    size_t s = r->s;
    for (size_t t = 0; t < s; t++) { /* the integral groups first */
        lab[t] = ckm_cg_placed(cg, t);
        for (size_t c = cg->gcol[t]; c < cg->gcol[t + 1] && lab[t] < 0; c++)
            if (cg->x[c] >= 1.0 - 1e-6)
                lab[t] = cg->cj[c];
    }
    for (size_t t = 0; t < s; t++)
        if (lab[t] < 0 && (lab[t] = best_free(cg, r, t, lab)) < 0)
            return false;
    return true;
}

