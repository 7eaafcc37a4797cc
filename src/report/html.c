/*
 * html.c -- ckm_report_html: one self-contained page about a labelling (docs/report.md).
 * The labels are checked against the problem by ckm_check (the one independent checker),
 * the JSON report (when given) is parsed and must be of this run: same n and k, and its SSE
 * that of these labels within 1e-9 relative. Sections, in order: the summary (problem,
 * answer, command), the map (html_scatter.c), sizes and loads, convergence and certify's
 * subsets (html_charts.c), the per-cluster table, agreement with the truth, violations; the
 * JSON report itself is embedded (application/json, "</" escaped) for scripts. Cost:
 * O(n d^2) for the projection, O(n d) for the per-cluster figures.
 */
#include "objective.h"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_report_options_default(ckm_report_options *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = (uint32_t)sizeof *o;
}

/* the clusters' weighted means (ckm_centers_from_labels), each cluster's SSE and its largest
 * distance to its mean */
static ckm_error cluster_figures(rp_page *P, ckm_err *err)
{
    const ckm_problem *p = P->p;
    size_t n = p->n, d = p->d, k = p->k;
    P->centers = calloc(k * d, sizeof *P->centers);
    P->cl_sse = calloc(k, sizeof *P->cl_sse);
    P->radius = calloc(k, sizeof *P->radius);
    if (!P->centers || !P->cl_sse || !P->radius)
        return ckm_fail(err, CKM_ERR_NOMEM, "report: out of memory");
    ckm_error rc = ckm_centers_from_labels(p->X, p->w, n, d, P->lab, k, P->centers, NULL, err);
    if (rc != CKM_OK)
        return rc;
    for (size_t i = 0; i < n; i++) {
        size_t j = (size_t)P->lab[i];
        double s = ckm_sqdist(p->X + i * d, P->centers + j * d, d);
        P->cl_sse[j] += (p->w ? p->w[i] : 1.0) * s;
        P->radius[j] = fmax(P->radius[j], sqrt(s));
    }
    return CKM_OK;
}

/* the JSON report must describe this problem and these labels */
static ckm_error same_run(const rp_page *P, ckm_err *err)
{
    const cj_node *j = P->json;
    if (j->type != CJ_OBJECT)
        return ckm_fail(err, CKM_ERR_INVALID, "report: the JSON report is not an object (not a ckm report)");
    double n = cj_number(cj_get(j, "n")), k = cj_number(cj_get(j, "k")), sse = cj_number(cj_get(j, "sse"));
    if (isnan(n) || isnan(k))
        return ckm_fail(err, CKM_ERR_INVALID, "report: the JSON report has no \"n\" and \"k\" (not a ckm report)");
    if (n != (double)P->p->n || k != (double)P->p->k)
        return ckm_fail(err, CKM_ERR_INVALID,
                        "report: the JSON report is of another run: its n = %.0f, k = %.0f; the data and labels have "
                        "n = %zu, k = %zu",
                        n, k, P->p->n, P->p->k);
    double mine = P->chk->sse;
    if (isfinite(sse) && fabs(sse - mine) > 1e-9 * fmax(fabs(mine), 1e-300))
        return ckm_fail(err, CKM_ERR_INVALID,
                        "report: the JSON report is of another run: its SSE %.17g, these labels' %.17g on this data "
                        "(same data options?)",
                        sse, mine);
    return CKM_OK;
}

/* a row of the summary; value from the JSON report (its text in data-value) */
static void fact_json(ckm_sbuf *b, const cj_node *json, const char *key, const char *label, bool percent)
{
    const cj_node *v = cj_get(json, key);
    if (!v || (v->type != CJ_NUMBER && v->type != CJ_STRING))
        return;
    ckm_sb_printf(b, "<tr><th>");
    rp_escape(b, label);
    ckm_sb_printf(b, "</th><td data-key=\"%s\" data-value=\"", key);
    rp_escape(b, v->str);
    ckm_sb_printf(b, "\">");
    if (v->type == CJ_STRING)
        rp_escape(b, v->str);
    else if (percent) {
        ckm_sb_printf(b, "%.4g %%", 100.0 * v->num);
    } else
        rp_num(b, v->num);
    ckm_sb_printf(b, "</td></tr>\n");
}

static void fact(ckm_sbuf *b, const char *key, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fact(ckm_sbuf *b, const char *key, const char *label, const char *fmt, ...)
{
    char v[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    ckm_sb_printf(b, "<tr><th>%s</th><td data-key=\"%s\">", label, key);
    rp_escape(b, v);
    ckm_sb_printf(b, "</td></tr>\n");
}

static void summary(const rp_page *P)
{
    const ckm_problem *p = P->p;
    ckm_sbuf *b = P->b;
    const cj_node *j = P->json;
    ckm_sb_printf(b, "<section id=\"summary\"><h2>Problem and answer</h2>\n<table class=\"facts\">\n");
    fact(b, "n", "points n", "%zu", p->n);
    fact(b, "d", "dimensions d", "%zu", p->d);
    fact(b, "k", "clusters k", "%zu", p->k);
    fact(b, "pairs", "must-link / cannot-link", "%zu / %zu", p->n_ml, p->n_cl);
    if (p->n_soft)
        fact(b, "soft", "soft must-link / cannot-link", "%zu / %zu", p->n_sml, p->n_scl);
    fact(b, "size_bounds", "size bounds", "%s", ckm_problem_has_size_bounds(p) ? "yes" : "none (1..n)");
    if (p->q)
        fact(b, "capacities", "capacities", "%s", p->cap_lo ? "yes" : "demands only");
    if (p->w)
        fact(b, "weights", "sample weights", "yes (the SSE is weighted)");
    if (j) {
        fact_json(b, j, "algorithm", "algorithm", false);
        fact_json(b, j, "status", "status", false);
        fact_json(b, j, "sse", "SSE", false);
        fact_json(b, j, "lower_bound", "lower bound", false);
        fact_json(b, j, "gap", "certified gap", true);
        fact_json(b, j, "objective", "objective (SSE + penalty)", false);
        fact_json(b, j, "seconds", "seconds", false);
        const cj_node *t = cj_get(j, "timings");
        if (t && !cj_get(j, "seconds"))
            fact_json(b, t, "total", "seconds", false);
        fact_json(b, j, "restarts", "restarts", false);
        fact_json(b, j, "iterations", "iterations (kept restart)", false);
        fact_json(b, j, "nodes", "branch-and-cut nodes", false);
        const cj_node *sub = cj_get(j, "subsets");
        if (sub && sub->type == CJ_NUMBER)
            fact_json(b, j, "subsets", "certify's subsets", false);
        fact_json(b, j, "labels_split_sse", "labels' SSE summed over the subsets", false);
        fact_json(b, j, "split_floor_sse", "split's floor (no bound through this split exceeds it)", false);
        fact_json(b, j, "message", "message", false);
    }
    ckm_sb_printf(b, "<tr><th>SSE of these labels (recomputed)</th><td data-key=\"check_sse\" data-value=\"%.17g\">",
                  P->chk->sse);
    rp_num(b, P->chk->sse);
    ckm_sb_printf(b, "</td></tr>\n<tr><th>constraints violated</th><td data-key=\"violations\">%zu</td></tr>\n",
                  P->chk->count);
    ckm_sb_printf(b, "</table>\n");
    if (P->o->command && *P->o->command) {
        ckm_sb_printf(b, "<p class=\"cmd\">Command: <code id=\"command\">");
        rp_escape(b, P->o->command);
        ckm_sb_printf(b, "</code></p>\n");
    }
    ckm_sb_printf(b, "</section>\n");
}

static void cluster_table(const rp_page *P)
{
    const ckm_problem *p = P->p;
    ckm_sbuf *b = P->b;
    bool sized = ckm_problem_has_size_bounds(p);
    double total = 0.0;
    for (size_t j = 0; j < p->k; j++)
        total += P->cl_sse[j];
    ckm_sb_printf(b, "<section id=\"clusters\"><h2>Clusters</h2>\n<table class=\"grid\" id=\"cluster-table\"><thead><tr>"
                     "<th>cluster</th><th>size</th>%s%s%s<th>SSE</th><th>share of the SSE</th><th>radius</th></tr>"
                     "</thead><tbody>\n",
                  sized ? "<th>size bounds</th>" : "", p->q ? "<th>load</th>" : "", p->cap_lo ? "<th>capacity</th>" : "");
    for (size_t j = 0; j < p->k; j++) {
        ckm_sb_printf(b, "<tr data-c=\"%zu\"><td><span class=\"sw c%d\"></span>%zu</td><td class=\"size\">%zu</td>", j,
                      (int)(j % RP_COLORS), j, P->chk->sizes[j]);
        if (sized)
            ckm_sb_printf(b, "<td>%zu..%zu</td>", p->lo[j], p->hi[j]);
        if (p->q) {
            ckm_sb_printf(b, "<td class=\"load\">");
            rp_num(b, P->chk->loads ? P->chk->loads[j] : NAN);
            ckm_sb_printf(b, "</td>");
        }
        if (p->cap_lo) {
            ckm_sb_printf(b, "<td>");
            rp_num(b, p->cap_lo[j]);
            ckm_sb_printf(b, "..");
            rp_num(b, p->cap_hi[j]);
            ckm_sb_printf(b, "</td>");
        }
        ckm_sb_printf(b, "<td class=\"sse\" data-value=\"%.17g\">", P->cl_sse[j]);
        rp_num(b, P->cl_sse[j]);
        ckm_sb_printf(b, "</td><td>%.2f %%</td><td>", total > 0.0 ? 100.0 * P->cl_sse[j] / total : 0.0);
        rp_num(b, P->radius[j]);
        ckm_sb_printf(b, "</td></tr>\n");
    }
    ckm_sb_printf(b, "</tbody></table>\n<p class=\"note\">SSE: the cluster's %ssum of squared distances to its mean; "
                     "radius: the largest distance of its points to that mean.</p></section>\n",
                  p->w ? "weighted " : "");
}

static ckm_error truth_section(const rp_page *P, ckm_err *err)
{
    if (!P->o->truth)
        return CKM_OK;
    ckm_scores sc;
    ckm_error rc = ckm_compare(P->o->truth, P->lab, P->p->n, &sc, err);
    if (rc != CKM_OK)
        return rc;
    ckm_sb_printf(P->b, "<section id=\"truth\"><h2>Agreement with the ground truth</h2><table class=\"facts\">"
                        "<tr><th>ARI</th><td data-key=\"ari\" data-value=\"%.17g\">%.4f</td></tr>"
                        "<tr><th>NMI</th><td data-key=\"nmi\" data-value=\"%.17g\">%.4f</td></tr></table></section>\n",
                  sc.ari, sc.ari, sc.nmi, sc.nmi);
    return CKM_OK;
}

static void violations(const rp_page *P)
{
    const ckm_check_report *c = P->chk;
    if (c->count == 0)
        return;
    ckm_sbuf *b = P->b;
    ckm_sb_printf(b, "<section id=\"violations\"><h2>Violated constraints (%zu)</h2><ul>\n", c->count);
    for (size_t q = 0; q < c->count && q < 50; q++) {
        const ckm_violation *v = &c->violations[q];
        if (v->kind == CKM_VIOLATION_PAIR) {
            const ckm_pair *pr = &P->p->pairs[v->index];
            ckm_sb_printf(b, "<li>%s %zu %zu: clusters %d and %d</li>\n", pr->type == CKM_MUST_LINK ? "must-link" : "cannot-link",
                          pr->i, pr->j, P->lab[pr->i], P->lab[pr->j]);
        } else if (v->kind == CKM_VIOLATION_SIZE) {
            ckm_sb_printf(b, "<li>cluster %zu has %lld points, outside %zu..%zu</li>\n", v->index, v->value,
                          P->p->lo[v->index], P->p->hi[v->index]);
        } else if (v->kind == CKM_VIOLATION_CAPACITY) {
            ckm_sb_printf(b, "<li>cluster %zu's load %.6g is outside its capacity bounds</li>\n", v->index,
                          c->loads ? c->loads[v->index] : (double)v->value);
        }
    }
    ckm_sb_printf(b, "</ul></section>\n");
}

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;margin:0 auto;max-width:1240px;"
    "padding:12px 20px;background:#fff}h1{font-size:22px;margin:6px 0}h2{font-size:17px;margin:18px 0 6px}"
    "h3{font-size:14px;margin:10px 0 4px}main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 28px}"
    "#map,#convergence,#subsets,#clusters{grid-column:1/-1}svg{width:100%;height:auto;display:block}"
    "table.facts th{text-align:left;font-weight:600;padding:2px 14px 2px 0;vertical-align:top}"
    "table.grid{border-collapse:collapse}table.grid td,table.grid th{padding:2px 10px;border-bottom:1px solid #ddd;"
    "text-align:right}.frame{fill:none;stroke:#888}.ticks line{stroke:#888}.ticks text,.title{font-size:11px;fill:#444}"
    ".pt{stroke:none;fill-opacity:.75}.center circle{stroke:#000;stroke-width:1.5}.center path{stroke:#000;stroke-width:2}"
    ".pair{stroke:#333;stroke-width:.9;opacity:.55}.pair.cl,.pair.scl{stroke-dasharray:4 3}.pair.sml,.pair.scl{stroke-width:.5}"
    ".pair.bad{stroke:#C00;stroke-width:2.4;opacity:.95}.badkey{color:#C00;font-weight:600}"
    ".bar.out{stroke:#C00;stroke-width:2}.bound{stroke:#000;stroke-width:2}.restart{fill:none;stroke:#999;stroke-width:1}"
    ".restart.kept{stroke:#0072B2;stroke-width:2.5}.incumbent{fill:none;stroke:#D55E00;stroke-width:2}"
    ".lower-bound{fill:none;stroke:#0072B2;stroke-width:2}.labels-sse{fill:#ccc}.subset-bound{fill:#0072B2}"
    ".legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:2px 14px;font-size:12px}"
    ".sw,.key{display:inline-block;width:11px;height:11px;margin-right:5px;vertical-align:-1px;border-radius:2px}"
    ".key.incumbent{background:#D55E00}.key.lower-bound{background:#0072B2}.key.labels-sse{background:#ccc}"
    ".key.subset-bound{background:#0072B2}.note{color:#555;font-size:12px}.cmd code{background:#f4f4f4;padding:2px 5px;"
    "word-break:break-all}.tip{position:fixed;background:#222;color:#fff;padding:2px 6px;font-size:12px;border-radius:3px;"
    "pointer-events:none}.toggle{font-size:12px;float:right}#map{position:relative}\n";

static const char script[] =
    "(function(){'use strict';\n"
    "var el=document.getElementById('ckm-json');\n"
    "window.ckmReport=el?JSON.parse(el.textContent):null;\n"
    "var tip=document.getElementById('tip'),svg=document.getElementById('scatter');\n"
    "if(svg&&tip){svg.addEventListener('mousemove',function(e){var t=e.target;\n"
    " if(t.classList&&t.classList.contains('pt')){tip.hidden=false;\n"
    "  var c=t.getAttribute('data-c')||(t.getAttribute('class')||'').split(' ')[1].slice(1);\n"
    "  tip.textContent='point '+t.getAttribute('data-i')+', cluster '+c;\n"
    "  tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';}else{tip.hidden=true;}});\n"
    " svg.addEventListener('mouseleave',function(){tip.hidden=true;});}\n"
    "var box=document.getElementById('show-pairs'),g=document.querySelector('#scatter g.pairs');\n"
    "if(box&&g){box.addEventListener('change',function(){g.style.display=box.checked?'':'none';});}\n"
    "document.body.setAttribute('data-ready','1');})();\n";

static void palette_css(ckm_sbuf *b, size_t k)
{
    for (size_t j = 0; j < RP_COLORS && j < k; j++)
        ckm_sb_printf(b, ".c%zu{fill:%s;background:%s}", j, rp_color(j), rp_color(j));
    ckm_sb_printf(b, "\n");
}

/* the JSON report for scripts: "</" written "<\/" so no text ends the script element */
static void embed_json(ckm_sbuf *b, const char *json)
{
    ckm_sb_printf(b, "<script type=\"application/json\" id=\"ckm-json\">");
    for (const char *s = json; *s; s++) {
        if (s[0] == '<' && s[1] == '/')
            ckm_sb_printf(b, "<\\");
        else
            ckm_sb_put(b, s, 1);
    }
    ckm_sb_printf(b, "</script>\n");
}

static ckm_error page(rp_page *P, ckm_err *err)
{
    ckm_sbuf *b = P->b;
    const char *title = P->o->title && *P->o->title ? P->o->title : "ckm report";
    ckm_sb_printf(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>");
    rp_escape(b, title);
    ckm_sb_printf(b, "</title>\n<style>%s", css);
    palette_css(b, P->p->k);
    ckm_sb_printf(b, "</style></head>\n<body>\n<h1>");
    rp_escape(b, title);
    ckm_sb_printf(b, "</h1>\n<p class=\"note\">ckm %s: constrained k-means. Figures from the run's JSON report carry "
                     "its exact text (data-value).</p>\n<main>\n",
                  ckm_version());
    summary(P);
    rp_sizes(P);
    ckm_error rc = truth_section(P, err);
    if (rc != CKM_OK || (rc = rp_scatter(P, err)) != CKM_OK)
        return rc;
    rp_convergence(P);
    rp_subsets(P);
    cluster_table(P);
    violations(P);
    ckm_sb_printf(b, "</main>\n");
    if (P->o->json)
        embed_json(b, P->o->json);
    ckm_sb_printf(b, "<script>\n%s</script>\n</body></html>\n", script);
    return CKM_OK;
}

static ckm_error check_inputs(const ckm_problem *p, const int32_t *labels, const ckm_report_options *o, ckm_err *err)
{
    if (!p || !labels)
        return ckm_fail(err, CKM_ERR_INVALID, "report: need a problem and labels");
    if (o->struct_size < offsetof(ckm_report_options, seed) + sizeof o->seed)
        return ckm_fail(err, CKM_ERR_INVALID, "report: options.struct_size = %u: call ckm_report_options_default first",
                        (unsigned)o->struct_size);
    for (size_t i = 0; i < p->n; i++)
        if (labels[i] < 0 || (size_t)labels[i] >= p->k)
            return ckm_fail(err, CKM_ERR_INVALID, "report: label %zu is %d, outside [0, %zu)", i, labels[i], p->k);
    for (size_t i = 0; o->truth && i < p->n; i++)
        if (o->truth[i] < 0)
            return ckm_fail(err, CKM_ERR_INVALID, "report: truth label %zu is %d (must be >= 0)", i, o->truth[i]);
    return CKM_OK;
}

ckm_error ckm_report_html(const ckm_problem *p, const int32_t *labels, const ckm_report_options *o_in, char **out,
                          ckm_err *err)
{
    *out = NULL;
    ckm_report_options o;
    if (o_in)
        o = *o_in;
    else
        ckm_report_options_default(&o);
    ckm_error rc = check_inputs(p, labels, &o, err);
    if (rc != CKM_OK)
        return rc;
    ckm_sbuf b = {0};
    ckm_check_report *chk = NULL;
    cj_node *json = NULL;
    rp_page P = {.p = p, .lab = labels, .o = &o, .b = &b};
    if ((rc = ckm_check(p, labels, &chk, err)) != CKM_OK)
        goto done;
    P.chk = chk;
    if (o.json && (rc = cj_parse(o.json, strlen(o.json), &json, err)) != CKM_OK)
        goto done;
    P.json = json;
    if ((json && (rc = same_run(&P, err)) != CKM_OK) || (rc = cluster_figures(&P, err)) != CKM_OK ||
        (rc = page(&P, err)) != CKM_OK)
        goto done;
    if (b.failed) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "report: out of memory");
        goto done;
    }
    *out = b.p;
    b.p = NULL;
done:
    free(b.p);
    free(P.centers);
    free(P.cl_sse);
    free(P.radius);
    cj_free(json);
    ckm_check_report_free(chk);
    return rc;
}
