/*
 * html_charts.c -- the report's bar and line charts as inline SVG:
 *   sizes   one bar per cluster (its size), its size bounds as marks, a bar outside them
 *           outlined; loads against capacities the same way when the problem has demands;
 *   steps   the objective after each Lloyd-type step, one line per restart (STEP events of
 *           the JSON report's trace), the kept restart's line drawn last and thicker;
 *   bounds  the incumbent and the proven lower bound over time (BOUND events: ipc, exact,
 *           certify), as step lines;
 *   subsets certify's subsets: each subset's labels' SSE and its bound, side by side.
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W_PX 760.0
#define H_PX 300.0
#define LEFT 84.0
#define RIGHT 16.0
#define TOP 14.0
#define BOTTOM 48.0

static void svg_open(ckm_sbuf *b, const char *id, const char *label)
{
    ckm_sb_printf(b, "<svg class=\"chart\" id=\"%s\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", id, W_PX, H_PX);
    rp_escape(b, label);
    ckm_sb_printf(b, "\">\n");
}

/* one bar per cluster of value v[j] with bounds [lo[j], hi[j]] (NULL: none; hi may be inf) */
static void bars(ckm_sbuf *b, const char *id, const char *what, size_t k, const double *v, const double *lo,
                 const double *hi)
{
    double top = 0.0;
    for (size_t j = 0; j < k; j++) {
        top = fmax(top, v[j]);
        if (lo)
            top = fmax(top, lo[j]);
        if (hi && isfinite(hi[j]))
            top = fmax(top, hi[j]);
    }
    rp_axis x = {-0.5, (double)k - 0.5, LEFT, W_PX - RIGHT, true};
    rp_axis y = rp_axis_make(0.0, top, H_PX - BOTTOM, TOP, 0.0);
    y.lo = 0.0;
    y.hi = top > 0.0 ? top * 1.05 : 1.0;
    svg_open(b, id, what);
    rp_draw_axes(b, &x, &y, "cluster", what);
    double w = (x.px1 - x.px0) / (double)k, gap = w > 4.0 ? 0.15 * w : 0.0;
    for (size_t j = 0; j < k; j++) {
        bool out = (lo && v[j] < lo[j] - 1e-9 * fmax(1.0, fabs(lo[j]))) ||
                   (hi && v[j] > hi[j] + 1e-9 * fmax(1.0, fabs(hi[j])));
        double x0 = x.px0 + (double)j * w + gap, y0 = rp_map(&y, v[j]);
        ckm_sb_printf(b, "<rect class=\"bar c%d%s\" data-c=\"%zu\" data-value=\"%.17g\" x=\"%.2f\" y=\"%.2f\" "
                         "width=\"%.2f\" height=\"%.2f\"><title>cluster %zu: %.6g</title></rect>\n",
                      (int)(j % RP_COLORS), out ? " out" : "", j, v[j], x0, y0, fmax(w - 2 * gap, 0.3),
                      rp_map(&y, 0.0) - y0, j, v[j]);
        if (lo && lo[j] > 0.0)
            ckm_sb_printf(b, "<line class=\"bound lo\" data-c=\"%zu\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\"/>\n",
                          j, x0 - gap, x0 + w - gap, rp_map(&y, lo[j]), rp_map(&y, lo[j]));
        if (hi && isfinite(hi[j]))
            ckm_sb_printf(b, "<line class=\"bound hi\" data-c=\"%zu\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\"/>\n",
                          j, x0 - gap, x0 + w - gap, rp_map(&y, hi[j]), rp_map(&y, hi[j]));
    }
    ckm_sb_printf(b, "</svg>\n");
}

void rp_sizes(const rp_page *P)
{
    const ckm_problem *p = P->p;
    size_t k = p->k;
    bool sized = ckm_problem_has_size_bounds(p);
    double *v = malloc(k * sizeof *v), *lo = malloc(k * sizeof *lo), *hi = malloc(k * sizeof *hi);
    if (!v || !lo || !hi) {
        P->b->failed = true;
        goto done;
    }
    ckm_sb_printf(P->b, "<section id=\"sizes\"><h2>Cluster sizes%s</h2>\n", sized ? " against their bounds" : "");
    for (size_t j = 0; j < k; j++) {
        v[j] = (double)P->chk->sizes[j];
        lo[j] = (double)p->lo[j];
        hi[j] = (double)p->hi[j];
    }
    bars(P->b, "size-bars", "points", k, v, sized ? lo : NULL, sized ? hi : NULL);
    if (p->q && P->chk->loads) {
        ckm_sb_printf(P->b, "<h3>Loads (total demand)%s</h3>\n", p->cap_lo ? " against the capacities" : "");
        bars(P->b, "load-bars", "load", k, P->chk->loads, p->cap_lo, p->cap_hi);
    }
    ckm_sb_printf(P->b, "<p class=\"note\">Marks: size%s bounds (lower and upper); an outlined bar is outside them.</p>"
                        "</section>\n",
                  p->cap_lo ? " and capacity" : "");
done:
    free(v);
    free(lo);
    free(hi);
}

/* the trace's events of one kind as (x, y) ranges */
typedef struct trace_view {
    const cj_node *ev; /* the "trace" array */
    double tmax, ylo, yhi;
    int restarts, steps_max;
    size_t n_step, n_bound;
} trace_view;

static const char *ev_kind(const cj_node *e) { return cj_string(cj_get(e, "kind")); }

static void trace_extent(trace_view *T)
{
    T->ylo = INFINITY;
    T->yhi = -INFINITY;
    for (size_t i = 0; i < T->ev->count; i++) {
        const cj_node *e = &T->ev->item[i];
        const char *kind = ev_kind(e);
        if (!kind)
            continue;
        T->tmax = fmax(T->tmax, cj_number(cj_get(e, "seconds")));
        if (strcmp(kind, "step") == 0) {
            T->n_step++;
            T->restarts = (int)fmax(T->restarts, cj_number(cj_get(e, "restart")) + 1);
            T->steps_max = (int)fmax(T->steps_max, cj_number(cj_get(e, "iteration")));
        } else if (strcmp(kind, "bound") == 0) {
            T->n_bound++;
        }
    }
}

static void y_extent(const trace_view *T, const char *kind, const char *const *fields, double *lo, double *hi)
{
    *lo = INFINITY;
    *hi = -INFINITY;
    for (size_t i = 0; i < T->ev->count; i++) {
        const cj_node *e = &T->ev->item[i];
        if (!ev_kind(e) || strcmp(ev_kind(e), kind) != 0)
            continue;
        for (const char *const *f = fields; *f; f++) {
            double v = cj_number(cj_get(e, *f));
            if (isfinite(v)) {
                *lo = fmin(*lo, v);
                *hi = fmax(*hi, v);
            }
        }
    }
}

/* objective per step, one polyline per restart; the kept restart (lowest final) thicker */
static void step_chart(ckm_sbuf *b, const trace_view *T)
{
    double lo, hi;
    static const char *const f[] = {"objective", NULL};
    y_extent(T, "step", f, &lo, &hi);
    rp_axis x = rp_axis_make(1.0, fmax((double)T->steps_max, 2.0), LEFT, W_PX - RIGHT, 0.02);
    x.integer = true;
    rp_axis y = rp_axis_make(lo, hi, H_PX - BOTTOM, TOP, 0.05);
    svg_open(b, "steps", "objective per step, one line per restart");
    rp_draw_axes(b, &x, &y, "step of the restart", "objective");
    int best = -1;
    double best_f = INFINITY;
    for (size_t i = 0; i < T->ev->count; i++) { /* the kept restart: the RESTART event with the lowest objective */
        const cj_node *e = &T->ev->item[i];
        if (ev_kind(e) && strcmp(ev_kind(e), "restart") == 0 && cj_number(cj_get(e, "objective")) < best_f) {
            best_f = cj_number(cj_get(e, "objective"));
            best = (int)cj_number(cj_get(e, "restart"));
        }
    }
    for (int r = 0; r < T->restarts; r++) {
        size_t pts = 0;
        for (size_t i = 0; i < T->ev->count; i++) {
            const cj_node *e = &T->ev->item[i];
            double v = cj_number(cj_get(e, "objective"));
            if (!ev_kind(e) || strcmp(ev_kind(e), "step") != 0 || (int)cj_number(cj_get(e, "restart")) != r || !isfinite(v))
                continue;
            if (pts++ == 0)
                ckm_sb_printf(b, "<polyline class=\"restart%s\" data-restart=\"%d\" points=\"", r == best ? " kept" : "", r);
            ckm_sb_printf(b, "%.1f,%.1f ", rp_map(&x, cj_number(cj_get(e, "iteration"))), rp_map(&y, v));
        }
        if (pts)
            ckm_sb_printf(b, "\"/>\n");
    }
    ckm_sb_printf(b, "</svg>\n");
}

/* a step line of field over time, for BOUND events */
static void bound_line(ckm_sbuf *b, const trace_view *T, const rp_axis *x, const rp_axis *y, const char *field,
                       const char *cls)
{
    size_t pts = 0;
    double last_y = NAN;
    for (size_t i = 0; i < T->ev->count; i++) {
        const cj_node *e = &T->ev->item[i];
        double v = cj_number(cj_get(e, field));
        if (!ev_kind(e) || strcmp(ev_kind(e), "bound") != 0 || !isfinite(v))
            continue;
        double px = rp_map(x, cj_number(cj_get(e, "seconds"))), py = rp_map(y, v);
        if (pts++ == 0)
            ckm_sb_printf(b, "<polyline class=\"%s\" points=\"", cls);
        else
            ckm_sb_printf(b, "%.1f,%.1f ", px, last_y);
        ckm_sb_printf(b, "%.1f,%.1f ", px, py);
        last_y = py;
    }
    if (pts)
        ckm_sb_printf(b, "%.1f,%.1f\"/>\n", x->px1, last_y);
}

static void bound_chart(ckm_sbuf *b, const trace_view *T)
{
    double lo, hi;
    static const char *const f[] = {"incumbent", "lower_bound", NULL};
    y_extent(T, "bound", f, &lo, &hi);
    rp_axis x = rp_axis_make(0.0, fmax(T->tmax, 1e-3), LEFT, W_PX - RIGHT, 0.0);
    rp_axis y = rp_axis_make(lo, hi, H_PX - BOTTOM, TOP, 0.05);
    svg_open(b, "bounds", "incumbent and lower bound over time");
    rp_draw_axes(b, &x, &y, "seconds", "objective");
    bound_line(b, T, &x, &y, "incumbent", "incumbent");
    bound_line(b, T, &x, &y, "lower_bound", "lower-bound");
    ckm_sb_printf(b, "</svg>\n<p class=\"note\"><span class=\"key incumbent\"></span> incumbent (best labelling's "
                     "objective) &nbsp; <span class=\"key lower-bound\"></span> proven lower bound</p>\n");
}

void rp_convergence(const rp_page *P)
{
    const cj_node *ev = cj_get(P->json, "trace");
    ckm_sbuf *b = P->b;
    if (!ev || ev->type != CJ_ARRAY || ev->count == 0) {
        if (P->json)
            ckm_sb_printf(b, "<section id=\"convergence\"><h2>Convergence</h2><p class=\"note\">Not recorded: the run's "
                             "report has no trace (run with the trace on: ckm's --html, or settings.trace = 1).</p>"
                             "</section>\n");
        return;
    }
    trace_view T = {.ev = ev};
    trace_extent(&T);
    ckm_sb_printf(b, "<section id=\"convergence\" data-events=\"%zu\"><h2>Convergence</h2>\n", ev->count);
    if (T.n_step) {
        ckm_sb_printf(b, "<h3>Objective per step (each restart one line; the kept one thicker)</h3>\n");
        step_chart(b, &T);
    }
    if (T.n_bound) {
        ckm_sb_printf(b, "<h3>The gap closing: incumbent and lower bound</h3>\n");
        bound_chart(b, &T);
    }
    ckm_sb_printf(b, "</section>\n");
}

void rp_subsets(const rp_page *P)
{
    const cj_node *sub = cj_get(P->json, "subset");
    if (!sub || sub->type != CJ_ARRAY || sub->count == 0)
        return;
    ckm_sbuf *b = P->b;
    size_t T = sub->count;
    double top = 0.0;
    for (size_t t = 0; t < T; t++)
        top = fmax(top, fmax(cj_number(cj_get(&sub->item[t], "labels_sse")), cj_number(cj_get(&sub->item[t], "lower_bound"))));
    rp_axis x = {-0.5, (double)T - 0.5, LEFT, W_PX - RIGHT, true};
    rp_axis y = {0.0, top > 0.0 ? 1.05 * top : 1.0, H_PX - BOTTOM, TOP, false};
    ckm_sb_printf(b, "<section id=\"subsets\"><h2>Certify's subsets: each one's bound against the labels' SSE on it</h2>\n");
    svg_open(b, "subset-bars", "per-subset bounds");
    rp_draw_axes(b, &x, &y, "subset", "SSE");
    double w = (x.px1 - x.px0) / (double)T;
    for (size_t t = 0; t < T; t++) {
        const cj_node *s = &sub->item[t];
        const cj_node *lb = cj_get(s, "lower_bound"), *ls = cj_get(s, "labels_sse");
        double vl = cj_number(ls), vb = cj_number(lb), x0 = x.px0 + (double)t * w;
        if (isfinite(vl))
            ckm_sb_printf(b, "<rect class=\"labels-sse\" data-t=\"%zu\" data-value=\"%s\" x=\"%.2f\" y=\"%.2f\" "
                             "width=\"%.2f\" height=\"%.2f\"/>\n",
                          t, ls->str, x0 + 0.1 * w, rp_map(&y, vl), 0.8 * w, rp_map(&y, 0) - rp_map(&y, vl));
        if (isfinite(vb))
            ckm_sb_printf(b, "<rect class=\"subset-bound\" data-t=\"%zu\" data-value=\"%s\" x=\"%.2f\" y=\"%.2f\" "
                             "width=\"%.2f\" height=\"%.2f\"><title>subset %zu: bound %.6g, labels %.6g (%s)</title></rect>\n",
                          t, lb->str, x0 + 0.25 * w, rp_map(&y, vb), 0.5 * w, rp_map(&y, 0) - rp_map(&y, vb), t, vb, vl,
                          cj_string(cj_get(s, "status")) ? cj_string(cj_get(s, "status")) : "");
    }
    ckm_sb_printf(b, "</svg>\n<p class=\"note\"><span class=\"key labels-sse\"></span> the labels' SSE on the subset "
                     "&nbsp; <span class=\"key subset-bound\"></span> its proven bound (the certificate adds these up)</p>"
                     "</section>\n");
}
