/*
 * assign_cg_mip.c -- the restricted assignment step's MILP (assign_cg.c has the model and
 * its LP): used when the LP optimum of the restricted model is a fractional vertex.
 *
 * MILP (fractional LP vertex), by reduced-cost fixing with the final LP's duals (z_LP its
 * value; they stay dual feasible as columns are added, each omitted one priced out): for
 * every 0/1 point x of the full model (the Lagrangian bound, duals' signs as in backend.h)
 *   cost(x) >= z_LP + sum_{rc_tj > 0} rc_tj y_tj + sum_{rc_tj < 0} |rc_tj| (1 - y_tj)
 * (rc_tj with the cannot-link rows' duals for the LP's own columns). So a labelling of cost
 * <= z_LP + delta takes every column with rc < -delta and no column with rc > delta: CBC
 * gets only the rest (within()), after a presolve that fixes each group left with one
 * column and strikes that cluster from its cannot-link partners (presolve()). An optimum
 * <= z_LP + delta there is the full model's optimum. delta starts at 1e-8 (|z_LP| + 1) and
 * grows 4x, capped at the best labelling's excess (the start's, or one CBC found); at the
 * cap CBC's answer is proven as it searches from that labelling. The full model is never
 * built: at 60,000 x 20, k = 100, 10^6 cannot-links the first step's CBC models had
 * 1834-6234 columns of the 5,000,300.
 */
#include "assign_cg.h"
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Columns a labelling of cost <= z_lp + delta may use (the Lagrangian bound of the header
 * with the final LP's duals, which stay dual feasible as columns are added: each omitted
 * column priced out; in full, cost(x) >= z_lp + sum_{rc > 0} rc_tj y_tj + sum_{rc < 0}
 * |rc_tj| (1 - y_tj)): a column with rc_tj < -delta is one every such labelling takes (its
 * group then keeps that column alone), else every (t, j) with rc_tj <= delta (+ tolerance).
 * Omitted ones are activated (the restricted model grows); into mip
 * (s x words) go the columns kept, the model CBC gets. Returns how many groups keep all k
 * (s of them: nothing was left out). */
static size_t within(struct ckm_cg *cg, const ckm_reduced *r, double delta, uint64_t *mip)
{
    size_t s = r->s, k = r->k, W = cg->words, whole = 0;
    memset(mip, 0, s * W * sizeof(uint64_t));
    for (size_t t = 0; t < s; t++) {
        size_t in = 0, forced = 0;
        const double *row = ckm_cg_cost_row(cg, r, t);
        for (size_t j = 0; j < k; j++) {
            double rc = ckm_cg_rc(cg, r, row[j], t, j), tol = ckm_cg_tol(cg, r, row[j], t, j) + 1e-9 * fabs(delta);
            if (rc < -(delta + tol)) {
                if (!forced++)
                    memset(mip + t * W, 0, W * sizeof(uint64_t));
            } else if (forced || rc > delta + tol) {
                continue;
            }
            SET_ON(cg, t, j);
            BIT_SET(mip + t * W, j);
            in++;
        }
        whole += in == k;
    }
    return whole;
}

/* The MILP's presolve on the column set mip: a group with one column left is fixed there;
 * its cannot-link partners lose that cluster (cascading); the fixed weight leaves the size
 * rows. Writes cg->fixed (allocated here) and cg->fixed_w, clears the fixed groups' bits.
 * false when the set holds no labelling: a group without columns, or a cluster over its
 * maximum. (CBC is run without its own preprocessing, mip_cbc.cpp: on 50,000 groups of
 * which all but a few thousand have one column left this is what makes the MILP small.) */
static bool presolve(struct ckm_cg *cg, const ckm_reduced *r, uint64_t *mip, bool *ok)
{
    size_t s = r->s, k = r->k, W = cg->words, head = 0, tail = 0;
    if ((!cg->fixed && !(cg->fixed = ckm_alloc_array(s, sizeof(int32_t)))) ||
        (!cg->row_of && !(cg->row_of = ckm_alloc_array(s, sizeof(size_t)))) ||
        (!cg->fixed_w && !(cg->fixed_w = ckm_alloc_array(k, sizeof(double)))))
        return false;
    size_t *queue = ckm_alloc_array(s, sizeof(size_t));
    if (!queue)
        return false;
    *ok = true;
    cg->fixed_on = 1;
    memset(cg->fixed_w, 0, k * sizeof(double));
    for (size_t t = 0; t < s; t++) {
        cg->fixed[t] = -1;
        size_t c = ckm_cg_bits(mip + t * W, W);
        if (c == 0)
            *ok = false;
        else if (c == 1)
            queue[tail++] = t;
    }
    while (*ok && head < tail) {
        size_t t = queue[head++], j = 0;
        if (ckm_cg_bits(mip + t * W, W) == 0) {
            *ok = false;
            break;
        }
        while (!BIT(mip + t * W, j))
            j++;
        cg->fixed[t] = (int32_t)j;
        mip[t * W + j / 64] = 0; /* the group's only bit */
        cg->fixed_w[j] += (double)r->weight[t];
        for (size_t q = cg->inc_start[t]; q < cg->inc_start[t + 1]; q++) {
            size_t b = ckm_pair_other(r->cl, cg->inc[q], t);
            uint64_t bit = (uint64_t)1 << (j % 64), *wb = mip + b * W + j / 64;
            if (cg->fixed[b] < 0 && (*wb & bit)) {
                *wb &= ~bit;
                size_t c = ckm_cg_bits(mip + b * W, W);
                if (c == 0)
                    *ok = false;
                else if (c == 1)
                    queue[tail++] = b;
            } else if (cg->fixed[b] == (int32_t)j) {
                *ok = false; /* two fixed groups of one cannot-link in one cluster */
            }
        }
    }
    for (size_t j = 0; j < k && *ok; j++)
        *ok = cg->fixed_w[j] <= (double)r->hi[j];
    free(queue);
    return true;
}

/* CBC on the model of the columns in mip (the active set is swapped for it while the
 * model is built), from the start labelling when all its columns are there. */
static ckm_error bounded_mip(struct ckm_cg *cg, const ckm_reduced *r, uint64_t *mip,
                             const int32_t *start, const ckm_bk_limits *lim, ckm_bk_result *br, ckm_assign_result *res,
                             ckm_err *err)
{
    bool any;
    if (!presolve(cg, r, mip, &any))
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
    if (!any) {
        memset(br, 0, sizeof *br);
        br->status = CKM_BK_INFEASIBLE;
        return CKM_OK;
    }
    uint64_t *on = cg->on;
    cg->on = mip;
    ckm_error brc = ckm_cg_build(cg, r, 0, err);
    cg->on = on;
    if (brc != CKM_OK)
        return brc;
    for (size_t t = 0; start && t < r->s; t++)
        if (cg->fixed[t] >= 0 ? cg->fixed[t] != start[t] : ckm_cg_col(cg, t, start[t]) < 0)
            start = NULL;
    if (start) {
        memset(cg->start, 0, cg->cols * sizeof(double));
        for (size_t t = 0; t < r->s; t++)
            if (cg->fixed[t] < 0)
                cg->start[ckm_cg_col(cg, t, start[t])] = 1.0;
    }
    ckm_lp lp = ckm_cg_model(cg);
    lp.basis = NULL;
    lp.basis_out = NULL;
    res->used_mip = 1;
    ckm_error rc = ckm_bk_mip(&lp, lim, start ? cg->start : NULL, cg->x, br, err);
    res->mip_nodes += br->nodes;
    res->stopped = br->stopped;
    return rc;
}

/* The step's MILP when the LP vertex is fractional (z_lp its value), by reduced-cost
 * fixing: a labelling of cost <= z_lp + delta uses only columns with rc <= delta
 * (within()), so CBC on those alone, if it finds an optimum z_R <= z_lp + delta, has found
 * the full model's. delta starts at 1e-8 (|z_lp| + 1) and grows 4x per run, capped by the
 * excess over z_lp of the best labelling known (the start, or an optimum of an earlier run
 * above its delta, which becomes CBC's next start); at the cap CBC's answer is proven (it
 * keeps that labelling when nothing is better). Without one, delta grows until every
 * column is in (CBC's verdict is then the full model's). Small first: a column set under a
 * large delta can be most of the s k (a poor start after the centers moved: 10^6
 * cannot-link rows, measured at 24 GB). */
ckm_error ckm_cg_proven_mip(struct ckm_cg *cg, const ckm_reduced *r, const int32_t *start, const ckm_bk_limits *lim,
                            double z_lp, int32_t *labels, ckm_assign_result *res, ckm_err *err)
{
    size_t words = r->s * cg->words;
    uint64_t *mip = ckm_alloc_array(words, sizeof(uint64_t));
    if (!mip)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
    int32_t *best = ckm_alloc_array(r->s, sizeof(int32_t));
    if (!best) {
        free(mip);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for the restricted assignment model");
    }
    double cap = start ? ckm_cg_total(cg, r, start) - z_lp : INFINITY;
    double delta = fmin(cap, 1e-8 * (fabs(z_lp) + 1.0));
    const int32_t *from = start;
    ckm_error rc = CKM_OK;
    for (;;) {
        size_t whole = within(cg, r, delta, mip);
        if (from && delta >= cap) /* the bound holds the incumbent; its columns, whatever the rounding */
            for (size_t t = 0; t < r->s; t++)
                BIT_SET(mip + t * cg->words, (size_t)from[t]);
        ckm_bk_result br;
        if ((rc = bounded_mip(cg, r, mip, from, lim, &br, res, err)) != CKM_OK)
            break;
        res->status = br.status;
        if (br.status == CKM_BK_LIMIT_FEASIBLE || br.status == CKM_BK_LIMIT_NONE || br.status == CKM_BK_FAILED) {
            if (br.status == CKM_BK_LIMIT_FEASIBLE && !ckm_cg_labels(cg, r->s, labels))
                res->status = CKM_BK_FAILED;
            break;
        }
        bool all = whole == r->s;
        if (br.status == CKM_BK_OPTIMAL) {
            if (!ckm_cg_labels(cg, r->s, labels)) {
                res->status = CKM_BK_FAILED;
                break;
            }
            double excess = ckm_cg_total(cg, r, labels) - z_lp; /* CBC's value lacks the fixed groups */
            if (all || excess <= delta + 1e-9 * (fabs(z_lp) + 1.0) || delta >= cap) {
                res->restricted = 1;
                break;
            }
            if (excess < cap) { /* the best labelling so far: the cap, and CBC's next start */
                cap = excess;
                memcpy(best, labels, r->s * sizeof(int32_t));
                from = best;
            }
            delta = fmin(cap, 4.0 * delta);
        } else if (all) { /* CBC: no point in the full model */
            break;
        } else if (from && delta >= cap) { /* nothing beats the incumbent (its columns were in) */
            memcpy(labels, from, r->s * sizeof(int32_t));
            res->status = CKM_BK_OPTIMAL;
            res->restricted = 1;
            break;
        } else {
            delta = fmin(cap, 4.0 * delta);
        }
    }
    free(mip);
    free(best);
    cg->fixed_on = 0; /* the LPs of later steps fix nothing */
    return rc;
}
