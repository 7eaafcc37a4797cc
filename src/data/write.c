/*
 * write.c -- output files, always atomic: write "<path>.tmp.XXXXXX" in the same
 * directory, fsync, rename over path. An interrupted run leaves the old file or the
 * complete new one, never a torn file. Also the small text readers/writers for labels.
 */
#include "core.h"
#include "npy.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ckm_error ckm_write_file_atomic(const char *path, const char *data, size_t len, ckm_err *err)
{
    size_t pl = strlen(path);
    char *tmp = malloc(pl + 16);
    if (!tmp)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    memcpy(tmp, path, pl);
    memcpy(tmp + pl, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        ckm_error rc = ckm_fail(err, CKM_ERR_IO, "%s: cannot create temporary file: %s", path,
                                strerror(errno));
        free(tmp);
        return rc;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        off += (size_t)w;
    }
    int ok = off == len && fsync(fd) == 0;
    int saved = errno;
    if (close(fd) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0) {
        saved = errno;
        ok = 0;
    }
    if (!ok) {
        unlink(tmp);
        free(tmp);
        return ckm_fail(err, CKM_ERR_IO, "%s: write failed: %s", path, strerror(saved));
    }
    free(tmp);
    return CKM_OK;
}

/* Growable text buffer for building file contents. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool failed;
} sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || !ckm_grow((void **)&b->p, &b->cap, b->len + (size_t)need + 1, 1)) {
        b->failed = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

static ckm_error sb_commit(sbuf *b, const char *path, ckm_err *err)
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
    sbuf b = {0};
    for (size_t j = 0; j < k; j++)
        for (size_t f = 0; f < d; f++)
            sb_printf(&b, "%.17g%s", centers[j * d + f], f + 1 < d ? "," : "\n");
    return sb_commit(&b, path, err);
}

ckm_error ckm_constraints_write(const char *path, const ckm_constraints *c, ckm_err *err)
{
    sbuf b = {0};
    for (size_t q = 0; q < c->count; q++) {
        sb_printf(&b, "%s %zu %zu", c->pairs[q].type == CKM_MUST_LINK ? "ML" : "CL", c->pairs[q].i,
                  c->pairs[q].j);
        if (c->confidence && c->confidence[q] != 0.0)
            sb_printf(&b, " %.17g", c->confidence[q]);
        sb_printf(&b, "\n");
    }
    return sb_commit(&b, path, err);
}

ckm_error ckm_labels_read(const char *path, int32_t **labels, size_t *n, ckm_err *err)
{
    *labels = NULL;
    *n = 0;
    if (ckm_npy_is(path)) {
        ckm_npy a;
        ckm_error rc = ckm_npy_open(path, &a, err);
        if (rc != CKM_OK)
            return rc;
        int32_t *lab = a.count ? ckm_alloc_array(a.count, sizeof(int32_t)) : NULL;
        if (a.count == 0)
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s: no labels (the array is empty)", path);
        else if (!lab)
            rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu labels", a.count);
        else
            rc = ckm_npy_read_labels(path, &a, lab, err);
        ckm_npy_free(&a);
        if (rc != CKM_OK) {
            free(lab);
            return rc;
        }
        *labels = lab;
        *n = a.count;
        return CKM_OK;
    }
    ckm_text t;
    ckm_error rc = ckm_text_load_nonempty(path, "labels", &t, err);
    if (rc != CKM_OK)
        return rc;
    int32_t *l = ckm_alloc_array(t.count, sizeof(int32_t));
    if (!l) {
        ckm_text_free(&t);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    ckm_field *f = NULL;
    size_t fcap = 0;
    for (size_t i = 0; i < t.count && rc == CKM_OK; i++) {
        size_t nf = ckm_split(t.lines[i].text, 0, &f, &fcap);
        size_t v;
        if (nf == 0) /* a non-blank line has a field: allocation failure */
            rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", path, t.lines[i].number);
        else if (nf != 1)
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: expected one label per line, got %zu fields",
                          path, t.lines[i].number, nf);
        else if (!ckm_parse_size(f[0].s, &v) || v > INT32_MAX)
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu:%zu: '%s' is not a label (integer 0..%d)",
                          path, t.lines[i].number, f[0].col, f[0].s, INT32_MAX);
        else
            l[i] = (int32_t)v;
    }
    free(f);
    if (rc != CKM_OK) {
        free(l);
    } else {
        *labels = l;
        *n = t.count;
    }
    ckm_text_free(&t);
    return rc;
}

static void json_number(sbuf *b, const char *name, double v, bool comma)
{
    if (isfinite(v))
        sb_printf(b, "  \"%s\": %.17g%s\n", name, v, comma ? "," : "");
    else
        sb_printf(b, "  \"%s\": null%s\n", name, comma ? "," : "");
}

static void json_string(sbuf *b, const char *name, const char *s)
{
    sb_printf(b, "  \"%s\": \"", name);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(b, "\\%c", *p);
        else if (*p < 0x20)
            sb_printf(b, "\\u%04x", *p);
        else
            sb_printf(b, "%c", *p);
    }
    sb_printf(b, "\",\n");
}

ckm_error ckm_result_to_json(const ckm_result *r, const char *extra_json, char **out, ckm_err *err)
{
    sbuf b = {0};
    sb_printf(&b, "{\n");
    json_string(&b, "status", ckm_status_string(r->status));
    json_string(&b, "algorithm", r->algorithm);
    json_string(&b, "ckm_version", ckm_version());
    sb_printf(&b, "  \"n\": %zu,\n  \"d\": %zu,\n  \"k\": %zu,\n", r->n, r->d, r->k);
    sb_printf(&b, "  \"has_labels\": %s,\n", r->has_labels ? "true" : "false");
    json_number(&b, "sse", r->sse, true);
    json_number(&b, "lower_bound", r->lower_bound, true);
    json_number(&b, "gap", r->gap, true);
    sb_printf(&b, "  \"sizes\": ");
    if (r->sizes) {
        sb_printf(&b, "[");
        for (size_t j = 0; j < r->k; j++)
            sb_printf(&b, "%s%zu", j ? ", " : "", r->sizes[j]);
        sb_printf(&b, "],\n");
    } else {
        sb_printf(&b, "null,\n");
    }
    sb_printf(&b, "  \"violations\": %zu,\n", r->violations);
    sb_printf(&b, "  \"iterations\": %d,\n  \"restarts\": %d,\n  \"super_points\": %zu,\n",
              r->iterations, r->restarts, r->super_points);
    sb_printf(&b, "  \"nodes\": %zu,\n", r->nodes);
    json_number(&b, "root_gap", r->root_gap, true);
    sb_printf(&b, "  \"seed\": %llu,\n", (unsigned long long)r->seed);
    json_number(&b, "seconds", r->time.total_s, true);
    sb_printf(&b, "  \"timings\": {\"preprocess\": %.6f, \"solve\": %.6f, \"check\": %.6f, \"total\": %.6f},\n",
              r->time.preprocess_s, r->time.solve_s, r->time.check_s, r->time.total_s);
    sb_printf(&b, "  \"weighted\": %s,\n", r->weighted ? "true" : "false");
    json_number(&b, "objective", r->objective, true);
    json_number(&b, "penalty", r->penalty, true);
    json_number(&b, "soft_penalty", r->soft_penalty, true);
    sb_printf(&b, "  \"soft_must_link_violated\": %zu,\n  \"soft_cannot_link_violated\": %zu,\n",
              r->soft_must_link_violated, r->soft_cannot_link_violated);
    const ckm_stats *st = &r->stats;
    sb_printf(&b,
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
    if (extra_json && *extra_json)
        sb_printf(&b, "  %s,\n", extra_json);
    json_string(&b, "message", r->message);
    /* drop the trailing comma of the last member */
    if (!b.failed && b.len >= 2)
        b.len -= 2;
    sb_printf(&b, "\n}\n");
    if (b.failed) {
        free(b.p);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    *out = b.p;
    return CKM_OK;
}
