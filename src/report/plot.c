/*
 * plot.c -- what the report's SVG plots share: the palette, escaping, number formatting, and
 * linear axes with ticks at 1-2-5 steps (about five per axis).
 */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Okabe & Ito's seven colours (their black left for the marks), then Paul Tol's "muted" nine */
static const char *const palette[RP_COLORS] = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
                                               "#CC79A7", "#332288", "#88CCEE", "#44AA99", "#117733", "#999933",
                                               "#DDCC77", "#CC6677", "#882255", "#AA4499"};

const char *rp_color(size_t j) { return palette[j % RP_COLORS]; }

void rp_escape(ckm_sbuf *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': ckm_sb_printf(b, "&amp;"); break;
        case '<': ckm_sb_printf(b, "&lt;"); break;
        case '>': ckm_sb_printf(b, "&gt;"); break;
        case '"': ckm_sb_printf(b, "&quot;"); break;
        default: ckm_sb_put(b, s, 1);
        }
    }
}

void rp_num(ckm_sbuf *b, double v)
{
    if (isnan(v))
        ckm_sb_printf(b, "-");
    else if (isinf(v))
        ckm_sb_printf(b, "%sinf", v < 0 ? "-" : "");
    else
        ckm_sb_printf(b, "%.6g", v);
}

rp_axis rp_axis_make(double lo, double hi, double px0, double px1, double frac)
{
    if (!isfinite(lo) || !isfinite(hi)) {
        lo = 0.0;
        hi = 1.0;
    }
    if (hi <= lo) {
        double m = fabs(lo) > 0.0 ? 0.05 * fabs(lo) : 0.5;
        lo -= m;
        hi += m;
    }
    double pad = frac * (hi - lo);
    return (rp_axis){lo - pad, hi + pad, px0, px1, false};
}

double rp_map(const rp_axis *a, double v) { return a->px0 + (v - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0); }

static double tick_step(const rp_axis *a)
{
    double raw = (a->hi - a->lo) / 5.0, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    double step = mag * (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0);
    return a->integer && step < 1.0 ? 1.0 : step;
}

void rp_draw_axes(ckm_sbuf *b, const rp_axis *x, const rp_axis *y, const char *xtitle, const char *ytitle)
{
    double x0 = fmin(x->px0, x->px1), x1 = fmax(x->px0, x->px1), y0 = fmin(y->px0, y->px1), y1 = fmax(y->px0, y->px1);
    ckm_sb_printf(b, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", x0, y0, x1 - x0,
                  y1 - y0);
    ckm_sb_printf(b, "<g class=\"ticks\">");
    double sx = tick_step(x), sy = tick_step(y);
    for (double v = ceil(x->lo / sx) * sx; v <= x->hi + 1e-9 * sx; v += sx) {
        double px = rp_map(x, v);
        ckm_sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
                         "text-anchor=\"middle\">%.6g</text>",
                      px, y1, px, y1 + 4, px, y1 + 16, fabs(v) < 1e-12 * sx ? 0.0 : v);
    }
    for (double v = ceil(y->lo / sy) * sy; v <= y->hi + 1e-9 * sy; v += sy) {
        double py = rp_map(y, v);
        ckm_sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><text x=\"%.1f\" y=\"%.1f\" "
                         "text-anchor=\"end\">%.6g</text>",
                      x0 - 4, py, x0, py, x0 - 6, py + 4, fabs(v) < 1e-12 * sy ? 0.0 : v);
    }
    ckm_sb_printf(b, "</g>\n<text class=\"title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (x0 + x1) / 2, y1 + 34);
    rp_escape(b, xtitle);
    ckm_sb_printf(b, "</text><text class=\"title\" transform=\"translate(%.1f,%.1f) rotate(-90)\" text-anchor=\"middle\">",
                  x0 - 58, (y0 + y1) / 2);
    rp_escape(b, ytitle);
    ckm_sb_printf(b, "</text>\n");
}
