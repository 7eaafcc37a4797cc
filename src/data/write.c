/*
 * write.c -- the output files: labels, centers, constraints (text, or .npy through npy.c)
 * and the JSON report, each written whole through ckm_write_file_atomic (atomic.c).
 */
#include "core.h"
#include "npy.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ckm_error sb_commit(ckm_sbuf *b, const char *path, ckm_err *err)
{
    ckm_error rc = b->failed ? ckm_fail(err, CKM_ERR_NOMEM, "out of memory")
                             : ckm_write_file_atomic(path, b->p ? b->p : "", b->len, err);
    free(b->p);
    return rc;
}

char *ckm_put_label_line(char *q, int32_t v)
{
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    char t[10];
    int m = 0;
    if (v < 0)
        *q++ = '-';
    do {
        t[m++] = (char)('0' + u % 10u);
        u /= 10u;
    } while (u);
    while (m)
        *q++ = t[--m];
    *q++ = '\n';
    return q;
}

/* One label per line (ckm_put_label_line: through sb_printf, 10^6 labels took 0.2 s of a CLI
   run that a Ctrl-C had ended) */
ckm_error ckm_write_labels(const char *path, const int32_t *labels, size_t n, ckm_err *err)
{
    if (ckm_npy_path(path))
        return ckm_npy_write_labels(path, labels, n, err);
    char *buf = ckm_alloc_array(n ? n : 1, CKM_LABEL_LINE_MAX), *q = buf;
    if (!buf)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu labels' text", n);
    for (size_t i = 0; i < n; i++)
        q = ckm_put_label_line(q, labels[i]);
    ckm_error rc = ckm_write_file_atomic(path, buf, (size_t)(q - buf), err);
    free(buf);
    return rc;
}

ckm_error ckm_write_centers(const char *path, const double *centers, size_t k, size_t d, ckm_err *err)
{
    if (ckm_npy_path(path))
        return ckm_npy_write_matrix(path, centers, k, d, err);
    ckm_sbuf b = {0};
    for (size_t j = 0; j < k; j++)
        for (size_t f = 0; f < d; f++)
            ckm_sb_printf(&b, "%.17g%s", centers[j * d + f], f + 1 < d ? "," : "\n");
    return sb_commit(&b, path, err);
}

ckm_error ckm_constraints_write(const char *path, const ckm_constraints *c, ckm_err *err)
{
    ckm_sbuf b = {0};
    for (size_t q = 0; q < c->count; q++) {
        ckm_sb_printf(&b, "%s %zu %zu", c->pairs[q].type == CKM_MUST_LINK ? "ML" : "CL", c->pairs[q].i,
                  c->pairs[q].j);
        if (c->confidence && c->confidence[q] != 0.0)
            ckm_sb_printf(&b, " %.17g", c->confidence[q]);
        ckm_sb_printf(&b, "\n");
    }
    return sb_commit(&b, path, err);
}

/* a number in full precision, or null when it is not finite */
static void json_value(ckm_sbuf *b, double v)
{
    if (isfinite(v))
        ckm_sb_printf(b, "%.17g", v);
    else
        ckm_sb_printf(b, "null");
}

static void json_number(ckm_sbuf *b, const char *name, double v, bool comma)
{
    ckm_sb_printf(b, "  \"%s\": ", name);
    json_value(b, v);
    ckm_sb_printf(b, "%s\n", comma ? "," : "");
}

static void json_string(ckm_sbuf *b, const char *name, const char *s)
{
    ckm_sb_printf(b, "  \"%s\": \"", name);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            ckm_sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            ckm_sb_printf(b, "\\u%04x", *p);
        else
            ckm_sb_printf(b, "%c", *p);
    }
    ckm_sb_printf(b, "\",\n");
}

/* End a JSON object whose last member ends in ",\n": drop that comma, close the brace, hand
 * the string to *out (or fail for a buffer that could not grow). */
static ckm_error json_close(ckm_sbuf *b, char **out, ckm_err *err)
{
    if (!b->failed && b->len >= 2)
        b->len -= 2;
    ckm_sb_printf(b, "\n}\n");
    if (b->failed) {
        free(b->p);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    *out = b->p;
    return CKM_OK;
}

/* The trace's events, one object each: kind, seconds, restart, iteration, objective,
 * incumbent, lower_bound (null where none), done, total. Nothing without a trace. */
static void json_trace(ckm_sbuf *b, const ckm_progress *ev, size_t len)
{
    if (!ev)
        return;
    static const char *const kind[] = {"", "step", "restart", "bound"};
    ckm_sb_printf(b, "  \"trace\": [");
    for (size_t i = 0; i < len; i++) {
        const ckm_progress *e = &ev[i];
        ckm_sb_printf(b, "%s\n    {\"kind\": \"%s\", \"seconds\": %.6f, \"restart\": %d, \"iteration\": %d, \"objective\": ",
                  i ? "," : "", kind[(int)e->kind & 3], e->seconds, e->restart, e->iteration);
        json_value(b, e->objective);
        ckm_sb_printf(b, ", \"incumbent\": ");
        json_value(b, e->incumbent);
        ckm_sb_printf(b, ", \"lower_bound\": ");
        json_value(b, e->lower_bound);
        ckm_sb_printf(b, ", \"done\": %zu, \"total\": %zu}", e->done, e->total);
    }
    ckm_sb_printf(b, "%s],\n", len ? "\n  " : "");
}

ckm_error ckm_result_to_json(const ckm_result *r, const char *extra_json, char **out, ckm_err *err)
{
    ckm_sbuf b = {0};
    ckm_sb_printf(&b, "{\n");
    json_string(&b, "status", ckm_status_string(r->status));
    json_string(&b, "algorithm", r->algorithm);
    json_string(&b, "ckm_version", ckm_version());
    ckm_sb_printf(&b, "  \"n\": %zu,\n  \"d\": %zu,\n  \"k\": %zu,\n", r->n, r->d, r->k);
    ckm_sb_printf(&b, "  \"has_labels\": %s,\n", r->has_labels ? "true" : "false");
    json_number(&b, "sse", r->sse, true);
    json_number(&b, "lower_bound", r->lower_bound, true);
    json_number(&b, "gap", r->gap, true);
    ckm_sb_printf(&b, "  \"sizes\": ");
    if (r->sizes) {
        ckm_sb_printf(&b, "[");
        for (size_t j = 0; j < r->k; j++)
            ckm_sb_printf(&b, "%s%zu", j ? ", " : "", r->sizes[j]);
        ckm_sb_printf(&b, "],\n");
    } else {
        ckm_sb_printf(&b, "null,\n");
    }
    ckm_sb_printf(&b, "  \"violations\": %zu,\n", r->violations);
    ckm_sb_printf(&b, "  \"iterations\": %d,\n  \"restarts\": %d,\n  \"super_points\": %zu,\n",
              r->iterations, r->restarts, r->super_points);
    ckm_sb_printf(&b, "  \"nodes\": %zu,\n", r->nodes);
    json_number(&b, "root_gap", r->root_gap, true);
    ckm_sb_printf(&b, "  \"seed\": %llu,\n", (unsigned long long)r->seed);
    json_number(&b, "seconds", r->time.total_s, true);
    ckm_sb_printf(&b, "  \"timings\": {\"preprocess\": %.6f, \"solve\": %.6f, \"check\": %.6f, \"total\": %.6f},\n",
              r->time.preprocess_s, r->time.solve_s, r->time.check_s, r->time.total_s);
    ckm_sb_printf(&b, "  \"weighted\": %s,\n", r->weighted ? "true" : "false");
    json_number(&b, "objective", r->objective, true);
    json_number(&b, "penalty", r->penalty, true);
    json_number(&b, "soft_penalty", r->soft_penalty, true);
    ckm_sb_printf(&b, "  \"soft_must_link_violated\": %zu,\n  \"soft_cannot_link_violated\": %zu,\n",
              r->soft_must_link_violated, r->soft_cannot_link_violated);
    const ckm_stats *st = &r->stats;
    ckm_sb_printf(&b,
              "  \"stats\": {\"lp_solves\": %llu, \"mip_solves\": %llu, \"mip_nodes\": %llu, \"transport_solves\": %llu, "
              "\"admm_iterations\": %llu, \"sdp_iterations\": %llu, \"cut_rounds\": %llu, \"cuts_added\": %llu, "
              "\"nodes\": %llu, \"restarts\": %llu, \"iterations\": %llu, \"repairs\": %llu, \"fallback\": %llu, "
              "\"numeric_fallbacks\": %llu},\n",
              (unsigned long long)st->lp_solves, (unsigned long long)st->mip_solves, (unsigned long long)st->mip_nodes,
              (unsigned long long)st->transport_solves, (unsigned long long)st->admm_iterations,
              (unsigned long long)st->sdp_iterations, (unsigned long long)st->cut_rounds,
              (unsigned long long)st->cuts_added, (unsigned long long)st->nodes, (unsigned long long)st->restarts,
              (unsigned long long)st->iterations, (unsigned long long)st->repairs, (unsigned long long)st->fallback,
              (unsigned long long)st->numeric_fallbacks);
    json_trace(&b, r->struct_size >= offsetof(ckm_result, trace_len) + sizeof r->trace_len ? r->trace : NULL,
               r->trace_len);
    if (extra_json && *extra_json)
        ckm_sb_printf(&b, "  %s,\n", extra_json);
    json_string(&b, "message", r->message);
    return json_close(&b, out, err);
}

ckm_error ckm_certificate_to_json(const ckm_certificate *c, char **out, ckm_err *err)
{
    ckm_sbuf b = {0};
    ckm_sb_printf(&b, "{\n");
    json_string(&b, "status", ckm_status_string(c->status));
    json_string(&b, "ckm_version", ckm_version());
    ckm_sb_printf(&b, "  \"n\": %zu,\n  \"d\": %zu,\n  \"k\": %zu,\n  \"groups\": %zu,\n", c->n, c->d, c->k, c->groups);
    ckm_sb_printf(&b, "  \"weighted\": %s,\n", c->weighted ? "true" : "false");
    json_number(&b, "sse", c->sse, true);
    ckm_sb_printf(&b, "  \"violations\": %zu,\n", c->violations);
    if (c->lower_bound == INFINITY) /* proven infeasible: no labelling, every bound holds */
        ckm_sb_printf(&b, "  \"lower_bound\": \"inf\",\n");
    else
        json_number(&b, "lower_bound", c->lower_bound, true);
    json_number(&b, "gap", c->gap, true);
    json_number(&b, "labels_split_sse", c->labels_split_sse, true);
    json_number(&b, "split_floor_sse", c->split_floor_sse, true);
    ckm_sb_printf(&b, "  \"subsets\": %zu,\n  \"workers\": %d,\n  \"ranks\": %d,\n", c->subsets, c->workers,
              c->ranks > 0 ? c->ranks : 1);
    json_number(&b, "memory_mb", c->memory_mb, true);
    ckm_sb_printf(&b, "  \"timings\": {\"split\": %.6f, \"bound\": %.6f, \"total\": %.6f},\n", c->split_s, c->bound_s,
              c->total_s);
    ckm_sb_printf(&b, "  \"stats\": {\"sdp_iterations\": %llu, \"cut_rounds\": %llu, \"cuts_added\": %llu},\n",
              (unsigned long long)c->stats.sdp_iterations, (unsigned long long)c->stats.cut_rounds,
              (unsigned long long)c->stats.cuts_added);
    ckm_sb_printf(&b, "  \"subset\": [");
    for (size_t t = 0; c->subset && t < c->subsets; t++) {
        const ckm_certify_subset *q = &c->subset[t];
        ckm_sb_printf(&b, "%s\n    {\"points\": %zu, \"groups\": %zu, \"lower_bound\": ", t ? "," : "", q->points,
                  q->groups);
        json_value(&b, q->lower_bound);
        ckm_sb_printf(&b, ", \"labels_sse\": ");
        json_value(&b, q->labels_sse);
        ckm_sb_printf(&b, ", \"status\": \"%s\", \"sdp\": %s, \"cut_rounds\": %d, \"seconds\": %.6f, \"rank\": %d}",
                  ckm_status_string(q->status), q->sdp ? "true" : "false", q->cut_rounds, q->seconds, q->rank);
    }
    ckm_sb_printf(&b, "%s],\n", c->subsets ? "\n  " : "");
    json_trace(&b, c->struct_size >= offsetof(ckm_certificate, trace_len) + sizeof c->trace_len ? c->trace : NULL,
               c->trace_len);
    json_string(&b, "message", c->message);
    return json_close(&b, out, err);
}
