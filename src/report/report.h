/*
 * report.h -- the HTML report's parts (ckm_report_html, html.c): what the sections share, the
 * plot helpers (plot.c) and the sections drawn as inline SVG (html_scatter.c: the points on
 * their principal components; html_charts.c: sizes and loads, convergence, certify's
 * subsets). Invariant: every number taken from the run's JSON report is written with its
 * JSON text in a data-value attribute, so a reader (or a test) can compare it with the file.
 */
#ifndef CKM_REPORT_H
#define CKM_REPORT_H

#include "core.h"
#include "json_read.h"
#include "problem_impl.h"

typedef struct rp_page {
    const ckm_problem *p;
    const int32_t *lab;           /* n labels in [0, k) */
    const ckm_report_options *o;
    const ckm_check_report *chk;  /* the labels checked against p */
    const cj_node *json;          /* the run's report, or NULL */
    double *centers;              /* k*d weighted means of the clusters (0 for an empty one) */
    double *cl_sse, *radius;      /* k: each cluster's (weighted) SSE, and its largest distance */
    ckm_sbuf *b;                  /* the page */
} rp_page;

/* Palette: colour-blind-safe (Okabe & Ito 2008, then Tol's muted scheme); cluster j gets
 * class "c(j mod RP_COLORS)". */
#define RP_COLORS 16
const char *rp_color(size_t j);

/* Text with &, <, >, " escaped for HTML. */
void rp_escape(ckm_sbuf *b, const char *s);
/* A value for reading: %.6g, "-" for NaN, "inf" for infinities. */
void rp_num(ckm_sbuf *b, double v);

/* A linear axis: data [lo, hi] onto pixels [px0, px1] (px1 < px0 for a y axis); integer: ticks
 * only at integers (clusters, subsets, steps). */
typedef struct rp_axis {
    double lo, hi, px0, px1;
    bool integer;
} rp_axis;
/* Widen [lo, hi] to a non-empty range with a margin of frac on each side. */
rp_axis rp_axis_make(double lo, double hi, double px0, double px1, double frac);
double rp_map(const rp_axis *a, double v);
/* Frame, ticks at 1-2-5 steps with their labels, and the two axis titles. */
void rp_draw_axes(ckm_sbuf *b, const rp_axis *x, const rp_axis *y, const char *xtitle, const char *ytitle);

/* Sections: each appends one <section> to P->b (or nothing when it has nothing to show). */
ckm_error rp_scatter(const rp_page *P, ckm_err *err);
void rp_sizes(const rp_page *P);
void rp_convergence(const rp_page *P);
void rp_subsets(const rp_page *P);

#endif
