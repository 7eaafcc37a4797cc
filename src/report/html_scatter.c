/*
 * html_scatter.c -- the report's map of the clustering: every point (or, past max_points, a
 * subsample of each cluster in proportion to its size, at least one point of each non-empty
 * cluster, chosen by a partial Fisher-Yates shuffle seeded from the options) at its
 * coordinates on the first two principal components (ckm_pca; one axis when d = 1), drawn
 * to the same scale on both axes so distances look as they are; the clusters' weighted means
 * projected alike; up to max_pairs pairs: violated hard pairs and paid soft pairs first
 * (their points are drawn whatever the subsample), then the others whose two points are drawn.
 * O(n d^2) for the projection, O(n + pairs) for the rest.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W_PX 760.0
#define H_PX 560.0
#define PAD 80.0

typedef struct scatter {
    const rp_page *P;
    double *xy;        /* n*2 coordinates */
    unsigned char *on; /* n: drawn */
    size_t drawn;
    rp_axis ax, ay;
} scatter;

/* a subsample of each cluster in proportion to its size (all points when n <= max) */
static ckm_error choose_points(scatter *S, size_t max, ckm_err *err)
{
    const ckm_problem *p = S->P->p;
    size_t n = p->n, k = p->k;
    if (n <= max) {
        memset(S->on, 1, n);
        return CKM_OK;
    }
    size_t *start = calloc(k + 1, sizeof *start), *idx = ckm_alloc_array(n, sizeof *idx);
    if (!start || !idx) {
        free(start);
        free(idx);
        return ckm_fail(err, CKM_ERR_NOMEM, "report: out of memory");
    }
    for (size_t i = 0; i < n; i++)
        start[S->P->lab[i] + 1]++;
    for (size_t j = 0; j < k; j++)
        start[j + 1] += start[j];
    for (size_t i = 0; i < n; i++)
        idx[start[S->P->lab[i]]++] = i;
    for (size_t j = k; j > 0; j--)
        start[j] = start[j - 1];
    start[0] = 0;
    ckm_rng rng;
    ckm_rng_seed(&rng, S->P->o->seed, 0x5ca77e7);
    for (size_t j = 0; j < k; j++) {
        size_t size = start[j + 1] - start[j], quota = (size_t)llround((double)size * (double)max / (double)n);
        if (quota == 0 && size > 0)
            quota = 1;
        size_t *a = idx + start[j];
        for (size_t q = 0; q < quota && q < size; q++) {
            size_t r = q + (size_t)ckm_rng_below(&rng, size - q);
            size_t t = a[q];
            a[q] = a[r];
            a[r] = t;
            S->on[a[q]] = 1;
        }
    }
    free(start);
    free(idx);
    return CKM_OK;
}

/* pair q of the hard list (q < n_pairs) or soft pair q - n_pairs: its points and whether it is
 * violated (hard) or paid (soft) by the labels */
static void pair_at(const ckm_problem *p, const int32_t *lab, size_t q, size_t *i, size_t *j, int *must, bool *bad)
{
    const ckm_pair *pr = q < p->n_pairs ? &p->pairs[q] : &p->soft[q - p->n_pairs];
    *i = pr->i;
    *j = pr->j;
    *must = pr->type == CKM_MUST_LINK;
    bool same = lab[pr->i] == lab[pr->j];
    *bad = *must ? !same : same;
}

static void draw_pair(scatter *S, size_t q, size_t *shown)
{
    const ckm_problem *p = S->P->p;
    size_t i, j;
    int must;
    bool bad;
    pair_at(p, S->P->lab, q, &i, &j, &must, &bad);
    const char *kind = q < p->n_pairs ? (must ? "ml" : "cl") : (must ? "sml" : "scl");
    ckm_sb_printf(S->P->b, "<line class=\"pair %s%s\" data-q=\"%zu\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
                  kind, bad ? " bad" : "", q, rp_map(&S->ax, S->xy[2 * i]), rp_map(&S->ay, S->xy[2 * i + 1]),
                  rp_map(&S->ax, S->xy[2 * j]), rp_map(&S->ay, S->xy[2 * j + 1]));
    (*shown)++;
}

/* violated / paid pairs first (their points switched on), then the others between drawn points */
static void draw_pairs(scatter *S, size_t *shown, size_t *bad_total)
{
    const ckm_problem *p = S->P->p;
    size_t total = p->n_pairs + p->n_soft, max = S->P->o->max_pairs ? S->P->o->max_pairs : 2000;
    ckm_sb_printf(S->P->b, "<g class=\"pairs\">\n");
    for (int pass = 0; pass < 2; pass++)
        for (size_t q = 0; q < total; q++) {
            size_t i, j;
            int must;
            bool bad;
            pair_at(p, S->P->lab, q, &i, &j, &must, &bad);
            if (pass == 0 && bad)
                ++*bad_total;
            if ((pass == 0) != bad || *shown >= max || (pass == 1 && !(S->on[i] && S->on[j])))
                continue;
            draw_pair(S, q, shown);
        }
    ckm_sb_printf(S->P->b, "</g>\n");
}

static void bad_points_on(scatter *S)
{
    const ckm_problem *p = S->P->p;
    size_t max = S->P->o->max_pairs ? S->P->o->max_pairs : 2000, shown = 0;
    for (size_t q = 0; q < p->n_pairs + p->n_soft && shown < max; q++) {
        size_t i, j;
        int must;
        bool bad;
        pair_at(p, S->P->lab, q, &i, &j, &must, &bad);
        if (bad) {
            S->on[i] = S->on[j] = 1;
            shown++;
        }
    }
}

static void set_axes(scatter *S)
{
    const ckm_problem *p = S->P->p;
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < p->n; i++)
        for (int c = 0; c < 2; c++) {
            lo[c] = fmin(lo[c], S->xy[2 * i + c]);
            hi[c] = fmax(hi[c], S->xy[2 * i + c]);
        }
    /* one scale for both: the larger range decides, the other is centered in its pixels */
    double span_px[2] = {W_PX - 2 * PAD, H_PX - 2 * PAD};
    double per_px = fmax((hi[0] - lo[0]) / span_px[0], (hi[1] - lo[1]) / span_px[1]);
    if (!(per_px > 0.0))
        per_px = 1.0 / span_px[0];
    per_px *= 1.04;
    double mid0 = (lo[0] + hi[0]) / 2, mid1 = (lo[1] + hi[1]) / 2;
    S->ax = (rp_axis){mid0 - per_px * span_px[0] / 2, mid0 + per_px * span_px[0] / 2, PAD, W_PX - PAD, false};
    S->ay = (rp_axis){mid1 - per_px * span_px[1] / 2, mid1 + per_px * span_px[1] / 2, H_PX - PAD, PAD, false};
}

static void draw_points_and_centers(scatter *S, const double *cxy)
{
    const rp_page *P = S->P;
    ckm_sb_printf(P->b, "<g class=\"points\">\n");
    for (size_t i = 0; i < P->p->n; i++)
        if (S->on[i]) {
            /* the colour class names the cluster up to RP_COLORS clusters; past them data-c does */
            ckm_sb_printf(P->b, "<circle class=\"pt c%d\" data-i=\"%zu\"", (int)(P->lab[i] % RP_COLORS), i);
            if (P->p->k > RP_COLORS)
                ckm_sb_printf(P->b, " data-c=\"%d\"", P->lab[i]);
            ckm_sb_printf(P->b, " cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\"/>\n", rp_map(&S->ax, S->xy[2 * i]),
                          rp_map(&S->ay, S->xy[2 * i + 1]));
            S->drawn++;
        }
    ckm_sb_printf(P->b, "</g>\n<g class=\"centers\">\n");
    for (size_t j = 0; j < P->p->k; j++) {
        if (P->chk->sizes[j] == 0)
            continue;
        double x = rp_map(&S->ax, cxy[2 * j]), y = rp_map(&S->ay, cxy[2 * j + 1]);
        ckm_sb_printf(P->b, "<g class=\"center\" data-c=\"%zu\"><circle class=\"c%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\"/>"
                            "<path d=\"M%.1f %.1fh12M%.1f %.1fv12\"/></g>\n",
                      j, (int)(j % RP_COLORS), x, y, x - 6, y, x, y - 6);
    }
    ckm_sb_printf(P->b, "</g>\n");
}

static void legend(const scatter *S, size_t pairs_shown, size_t bad_total)
{
    const rp_page *P = S->P;
    const ckm_problem *p = P->p;
    ckm_sb_printf(P->b, "<ul class=\"legend\" id=\"legend\">\n");
    for (size_t j = 0; j < p->k; j++)
        ckm_sb_printf(P->b, "<li data-c=\"%zu\" data-size=\"%zu\"><span class=\"sw c%d\"></span>cluster %zu: %zu</li>\n", j,
                      P->chk->sizes[j], (int)(j % RP_COLORS), j, P->chk->sizes[j]);
    ckm_sb_printf(P->b, "</ul>\n<p class=\"note\" id=\"scatter-note\" data-drawn=\"%zu\" data-pairs-drawn=\"%zu\">%zu of "
                        "%zu points drawn%s; %zu of %zu pairs drawn (must-link solid, cannot-link dashed, soft thin; "
                        "violated or paid: <span class=\"badkey\">thick red</span>, %zu in all)%s.</p>\n",
                  S->drawn, pairs_shown, S->drawn, p->n, S->drawn < p->n ? " (each cluster in proportion to its size)" : "",
                  pairs_shown, p->n_pairs + p->n_soft, bad_total,
                  p->k > RP_COLORS ? "; colours repeat every 16 clusters (hover a point for its cluster)" : "");
}

ckm_error rp_scatter(const rp_page *P, ckm_err *err)
{
    const ckm_problem *p = P->p;
    size_t n = p->n, d = p->d, k = p->k, m = d >= 2 ? 2 : 1;
    scatter S = {.P = P};
    double *proj = ckm_alloc_array(n, m * sizeof(double)), var[2] = {0, 0};
    double *components = ckm_alloc_array(m, d * sizeof(double)), *cxy = ckm_alloc_array(k, 2 * sizeof(double));
    S.xy = ckm_alloc_array(n, 2 * sizeof(double));
    S.on = calloc(n, 1);
    ckm_error rc = CKM_OK;
    if (!proj || !components || !cxy || !S.xy || !S.on) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    if ((rc = ckm_pca(p->X, p->w, n, d, m, proj, components, var, err)) != CKM_OK)
        goto done;
    for (size_t i = 0; i < n; i++) {
        S.xy[2 * i] = proj[i * m];
        S.xy[2 * i + 1] = m == 2 ? proj[i * m + 1] : 0.0;
    }
    /* the centers on the same axes: the weighted means of the clusters' projections */
    double *mass = calloc(k, sizeof *mass);
    if (!mass) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    memset(cxy, 0, k * 2 * sizeof *cxy);
    for (size_t i = 0; i < n; i++) {
        size_t j = (size_t)P->lab[i];
        double wi = p->w ? p->w[i] : 1.0;
        mass[j] += wi;
        for (size_t c = 0; c < 2; c++)
            cxy[2 * j + c] += wi * S.xy[2 * i + c];
    }
    for (size_t j = 0; j < k; j++)
        for (size_t c = 0; c < 2; c++)
            cxy[2 * j + c] = mass[j] > 0.0 ? cxy[2 * j + c] / mass[j] : 0.0;
    free(mass);
    if ((rc = choose_points(&S, P->o->max_points ? P->o->max_points : 20000, err)) != CKM_OK)
        goto done;
    bad_points_on(&S);
    set_axes(&S);
    ckm_sbuf *b = P->b;
    ckm_sb_printf(b, "<section id=\"map\"><h2>Clusters on the first %s</h2>\n",
                  m == 2 ? "two principal components" : "principal component (d = 1)");
    if (p->n_pairs + p->n_soft > 0)
        ckm_sb_printf(b, "<label class=\"toggle\"><input type=\"checkbox\" id=\"show-pairs\" checked> pairs</label>\n");
    ckm_sb_printf(b, "<svg class=\"scatter\" id=\"scatter\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
                     "aria-label=\"points coloured by cluster\">\n",
                  W_PX, H_PX);
    char xt[64], yt[64];
    snprintf(xt, sizeof xt, "PC1 (variance %.4g)", var[0]);
    snprintf(yt, sizeof yt, m == 2 ? "PC2 (variance %.4g)" : "(none: d = 1)", var[1]);
    rp_draw_axes(b, &S.ax, &S.ay, xt, yt);
    size_t pairs_shown = 0, bad_total = 0;
    draw_points_and_centers(&S, cxy);
    draw_pairs(&S, &pairs_shown, &bad_total);
    ckm_sb_printf(b, "</svg>\n<div class=\"tip\" id=\"tip\" hidden></div>\n");
    legend(&S, pairs_shown, bad_total);
    ckm_sb_printf(b, "</section>\n");
done:
    free(proj);
    free(components);
    free(cxy);
    free(S.xy);
    free(S.on);
    return rc;
}
