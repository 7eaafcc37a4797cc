/*
 * read_points.c -- dense point readers: delimited text (CSV, TSV, ';' or blanks, delimiter
 * detected from the first data line, optional header, optional label column), KEEL .dat
 * and the PC-SOS-SDP "n d [k]" format. Every rejected input gets "file:line[:col]: why".
 * Invariant on success: n >= 1, d >= 1, every value finite, labels coded 0..n_classes-1.
 * Cost: O(file size) time, one copy of the text plus the n*d matrix in memory.
 */
#include "ckm.h"
#include "npy.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void ckm_read_options_default(ckm_read_options *opt)
{
    opt->format = CKM_FORMAT_AUTO;
    opt->header = CKM_HEADER_AUTO;
    opt->label_column = CKM_LABEL_COLUMN_NONE;
}

void ckm_dataset_free(ckm_dataset *ds)
{
    if (!ds)
        return;
    free(ds->X);
    free(ds->labels);
    if (ds->class_names)
        for (size_t c = 0; c < ds->n_classes; c++)
            free(ds->class_names[c]);
    free(ds->class_names);
    free(ds);
}

/* Label strings -> codes in order of first appearance (linear probe over an open hash). */
typedef struct label_coder {
    char **names;
    size_t count, cap;
    size_t *table; /* index+1 into names, 0 = empty */
    size_t tcap;
} label_coder;

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static bool coder_rehash(label_coder *c, size_t tcap)
{
    size_t *t = calloc(tcap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < c->count; i++) {
        size_t h = hash_str(c->names[i]) & (tcap - 1);
        while (t[h])
            h = (h + 1) & (tcap - 1);
        t[h] = i + 1;
    }
    free(c->table);
    c->table = t;
    c->tcap = tcap;
    return true;
}

/* Returns the code, or -1 on allocation failure. */
static long coder_code(label_coder *c, const char *s)
{
    if (c->tcap == 0 || 2 * (c->count + 1) > c->tcap)
        if (!coder_rehash(c, c->tcap ? 2 * c->tcap : 64))
            return -1;
    size_t h = hash_str(s) & (c->tcap - 1);
    while (c->table[h]) {
        if (strcmp(c->names[c->table[h] - 1], s) == 0)
            return (long)(c->table[h] - 1);
        h = (h + 1) & (c->tcap - 1);
    }
    if (!ckm_grow((void **)&c->names, &c->cap, c->count + 1, sizeof *c->names))
        return -1;
    char *copy = strdup(s);
    if (!copy)
        return -1;
    c->names[c->count] = copy;
    c->table[h] = ++c->count;
    return (long)(c->count - 1);
}

static void coder_free(label_coder *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->names[i]);
    free(c->names);
    free(c->table);
}

static bool none_numeric(const ckm_field *f, size_t nf)
{
    for (size_t i = 0; i < nf; i++) {
        double v;
        if (ckm_parse_double(f[i].s, &v) != 1)
            return false;
    }
    return true;
}

static char detect_delim(const char *line)
{
    if (strchr(line, ','))
        return ',';
    if (strchr(line, '\t'))
        return '\t';
    if (strchr(line, ';'))
        return ';';
    return 0;
}

typedef struct parse_job {
    const ckm_text *t;
    size_t first;    /* index of first data line in t->lines */
    size_t rows;     /* number of data lines */
    char delim;
    long label_col;  /* -1 none */
    size_t width;    /* fields per row */
} parse_job;

/* Parse rows [first, first+rows) into a new dataset. */
static ckm_error parse_rows(const parse_job *job, ckm_dataset *ds, ckm_err *err)
{
    const char *path = job->t->path;
    size_t d = job->width - (job->label_col >= 0 ? 1 : 0);
    if (d == 0)
        return ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: no feature columns (only a label column)",
                        path, job->t->lines[job->first].number);
    size_t nd;
    if (!ckm_mul_ok(job->rows, d, &nd) || !(ds->X = ckm_alloc_array(nd, sizeof(double))))
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: %zu x %zu matrix does not fit in memory", path,
                        job->rows, d);
    label_coder coder = {0};
    if (job->label_col >= 0 && !(ds->labels = ckm_alloc_array(job->rows, sizeof(int32_t))))
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory", path);
    ckm_field *f = NULL;
    size_t fcap = 0;
    ckm_error rc = CKM_OK;
    for (size_t r = 0; r < job->rows && rc == CKM_OK; r++) {
        const ckm_line *ln = &job->t->lines[job->first + r];
        size_t nf = ckm_split(ln->text, job->delim, &f, &fcap);
        if (nf == 0) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory", path);
            break;
        }
        if (nf != job->width) {
            rc = ckm_fail(err, CKM_ERR_PARSE,
                          "%s:%zu: ragged row: %zu fields, expected %zu (as in the first data row)",
                          path, ln->number, nf, job->width);
            break;
        }
        size_t col = 0;
        for (size_t c = 0; c < nf; c++) {
            if ((long)c == job->label_col) {
                long code = coder_code(&coder, f[c].s);
                if (code < 0 || code > INT32_MAX) {
                    rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory", path);
                    break;
                }
                ds->labels[r] = (int32_t)code;
                continue;
            }
            double v = 0.0;
            int pr = ckm_parse_double(f[c].s, &v);
            if (pr != 0) {
                rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu:%zu: field %zu: %s'%s'", path,
                              ln->number, f[c].col, c + 1,
                              pr == 1 ? (f[c].s[0] ? "not a number: " : "empty value")
                                      : "value is not finite: ",
                              f[c].s);
                break;
            }
            ds->X[r * d + col++] = v;
        }
    }
    free(f);
    if (rc == CKM_OK) {
        ds->n = job->rows;
        ds->d = d;
        if (ds->labels) {
            ds->n_classes = coder.count;
            ds->class_names = coder.names;
            coder.names = NULL;
            coder.count = 0;
        }
    }
    coder_free(&coder);
    return rc;
}

static ckm_error read_delimited(const ckm_text *t, const ckm_read_options *opt, ckm_dataset *ds,
                                ckm_err *err)
{
    ckm_field *f = NULL;
    size_t fcap = 0;
    size_t first = 0;
    char delim = detect_delim(t->lines[0].text);
    /* inspect the first line on a scratch copy: splitting writes into the buffer */
    char *copy = strdup(t->lines[0].text);
    if (!copy)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    size_t nf = ckm_split(copy, delim, &f, &fcap);
    if (nf == 0) { /* a non-blank line has a field: allocation failure */
        free(copy);
        free(f);
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", t->path, t->lines[0].number);
    }
    /* auto: a header has no numeric field at all, so a typo in the first data row is
       reported as an error instead of silently dropping that row */
    bool header = opt->header == CKM_HEADER_YES ||
                  (opt->header == CKM_HEADER_AUTO && none_numeric(f, nf));
    free(copy);
    if (header) {
        first = 1;
        ds->had_header = 1;
        if (t->count < 2) {
            free(f);
            return ckm_fail(err, CKM_ERR_PARSE, "%s: no data rows after the header line %zu",
                            t->path, t->lines[0].number);
        }
        /* the header may use another delimiter only if rows do; detect from first row */
        delim = detect_delim(t->lines[1].text);
    }
    copy = strdup(t->lines[first].text);
    if (!copy) {
        free(f);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    nf = ckm_split(copy, delim, &f, &fcap);
    free(copy);
    free(f);
    if (nf == 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", t->path, t->lines[first].number);
    long lc = opt->label_column;
    if (lc == CKM_LABEL_COLUMN_LAST)
        lc = (long)nf - 1;
    else if (lc >= 0 && (size_t)lc >= nf)
        return ckm_fail(err, CKM_ERR_INVALID,
                        "%s:%zu: label column %ld does not exist (rows have %zu columns, "
                        "numbered from 0)",
                        t->path, t->lines[first].number, lc, nf);
    else if (lc < 0)
        lc = -1;
    parse_job job = {t, first, t->count - first, delim, lc, nf};
    ds->format = CKM_FORMAT_DELIMITED;
    return parse_rows(&job, ds, err);
}

static ckm_error read_keel(const ckm_text *t, ckm_dataset *ds, ckm_err *err)
{
    size_t i = 0;
    bool seen_data = false;
    for (; i < t->count; i++) {
        const char *s = t->lines[i].text;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s != '@')
            break;
        if (strncasecmp(s, "@data", 5) == 0)
            seen_data = true;
    }
    if (!seen_data)
        return ckm_fail(err, CKM_ERR_PARSE, "%s: KEEL file without an '@data' line", t->path);
    if (i >= t->count)
        return ckm_fail(err, CKM_ERR_PARSE, "%s: no data rows after '@data'", t->path);
    /* some distributed KEEL files carry one column-name row after @data: skip it */
    ckm_field *f = NULL;
    size_t fcap = 0;
    char *copy = strdup(t->lines[i].text);
    if (!copy)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    size_t nf = ckm_split(copy, ',', &f, &fcap);
    bool names = nf > 1 && none_numeric(f, nf);
    free(copy);
    free(f);
    if (nf == 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", t->path, t->lines[i].number);
    if (names) {
        ds->had_header = 1;
        i++;
        if (i >= t->count)
            return ckm_fail(err, CKM_ERR_PARSE, "%s: no data rows after '@data'", t->path);
    }
    copy = strdup(t->lines[i].text);
    f = NULL;
    fcap = 0;
    if (!copy)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    nf = ckm_split(copy, ',', &f, &fcap);
    free(copy);
    free(f);
    if (nf == 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", t->path, t->lines[i].number);
    if (nf < 2)
        return ckm_fail(err, CKM_ERR_PARSE,
                        "%s:%zu: KEEL row needs at least one feature and the class", t->path,
                        t->lines[i].number);
    parse_job job = {t, i, t->count - i, ',', (long)nf - 1, nf};
    ds->format = CKM_FORMAT_KEEL;
    return parse_rows(&job, ds, err);
}

/* First line "n d [k]" with the second line holding d fields: PC-SOS-SDP. 1 yes, 0 no,
 * -1 out of memory (then the answer is unknown). */
static int looks_pcsos(const ckm_text *t, size_t *n, size_t *d, size_t *k)
{
    if (t->count < 2)
        return 0;
    ckm_field *f = NULL;
    size_t fcap = 0;
    char *copy = strdup(t->lines[0].text);
    if (!copy)
        return -1;
    size_t nf = ckm_split(copy, 0, &f, &fcap);
    int ok = (nf == 2 || nf == 3) && ckm_parse_size(f[0].s, n) && ckm_parse_size(f[1].s, d);
    *k = 0;
    if (ok && nf == 3)
        ok = ckm_parse_size(f[2].s, k);
    free(copy);
    if (nf == 0) /* a non-blank line has a field */
        ok = -1;
    if (ok == 1) {
        copy = strdup(t->lines[1].text);
        size_t nf2 = copy ? ckm_split(copy, 0, &f, &fcap) : 0;
        ok = nf2 == 0 ? -1 : nf2 == *d;
        free(copy);
    }
    free(f);
    return ok;
}

static ckm_error read_pcsos(const ckm_text *t, ckm_dataset *ds, ckm_err *err)
{
    size_t n, d, k;
    int looks = looks_pcsos(t, &n, &d, &k);
    if (looks < 0)
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory reading the header", t->path);
    if (!looks) {
        if (t->count < 2)
            return ckm_fail(err, CKM_ERR_PARSE, "%s: PC-SOS-SDP file needs a header and rows",
                            t->path);
        return ckm_fail(err, CKM_ERR_PARSE,
                        "%s:%zu: PC-SOS-SDP header must be 'n d [k]' and the next row hold d "
                        "values",
                        t->path, t->lines[0].number);
    }
    if (n == 0 || d == 0)
        return ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: header gives n = %zu, d = %zu (both must be >= 1)",
                        t->path, t->lines[0].number, n, d);
    if (t->count - 1 != n)
        return ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: header says n = %zu rows but the file has %zu",
                        t->path, t->lines[0].number, n, t->count - 1);
    ds->k_hint = k;
    ds->had_header = 1;
    parse_job job = {t, 1, n, 0, -1, d};
    ds->format = CKM_FORMAT_PCSOS;
    return parse_rows(&job, ds, err);
}

/* a .npy file of points (npy.c): no labels, no header */
static ckm_error read_npy(const char *path, const ckm_read_options *opt, ckm_dataset **out, ckm_err *err)
{
    if (opt->label_column != CKM_LABEL_COLUMN_NONE)
        return ckm_fail(err, CKM_ERR_INVALID, "%s: a .npy array of points has no label column (give the labels "
                                              "as a separate file)", path);
    ckm_npy a;
    ckm_error rc = ckm_npy_open(path, &a, err);
    if (rc != CKM_OK)
        return rc;
    ckm_dataset *ds = calloc(1, sizeof *ds);
    if (!ds) {
        ckm_npy_free(&a);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    ds->format = CKM_FORMAT_NPY;
    ds->n = a.shape[0];
    ds->d = a.shape[1];
    if (ds->n == 0 || ds->d == 0)
        rc = ckm_fail(err, CKM_ERR_PARSE, "%s: no data (shape (%zu, %zu))", path, ds->n, ds->d);
    else if (!(ds->X = ckm_alloc_array(a.count, sizeof(double))))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu x %zu points", ds->n, ds->d);
    else
        rc = ckm_npy_read_doubles(path, &a, ds->X, err);
    ckm_npy_free(&a);
    if (rc != CKM_OK) {
        ckm_dataset_free(ds);
        return rc;
    }
    *out = ds;
    return CKM_OK;
}

ckm_error ckm_dataset_read(const char *path, const ckm_read_options *opt, ckm_dataset **out,
                           ckm_err *err)
{
    ckm_read_options defaults;
    if (!opt) {
        ckm_read_options_default(&defaults);
        opt = &defaults;
    }
    *out = NULL;
    if (opt->format == CKM_FORMAT_NPY || (opt->format == CKM_FORMAT_AUTO && ckm_npy_is(path)))
        return read_npy(path, opt, out, err);
    ckm_text t;
    ckm_error rc = ckm_text_load_nonempty(path, "data", &t, err);
    if (rc != CKM_OK)
        return rc;
    ckm_dataset *ds = calloc(1, sizeof *ds);
    if (!ds) {
        ckm_text_free(&t);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    ckm_format fmt = opt->format;
    if (fmt == CKM_FORMAT_AUTO) {
        size_t n, d, k;
        const char *s = t.lines[0].text;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '@')
            fmt = CKM_FORMAT_KEEL;
        else {
            int looks = looks_pcsos(&t, &n, &d, &k);
            if (looks < 0) {
                ckm_text_free(&t);
                ckm_dataset_free(ds);
                return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory detecting the format", path);
            }
            fmt = looks && t.count - 1 == n ? CKM_FORMAT_PCSOS : CKM_FORMAT_DELIMITED;
        }
    }
    if (fmt == CKM_FORMAT_KEEL)
        rc = read_keel(&t, ds, err);
    else if (fmt == CKM_FORMAT_PCSOS)
        rc = read_pcsos(&t, ds, err);
    else
        rc = read_delimited(&t, opt, ds, err);
    ckm_text_free(&t);
    if (rc != CKM_OK) {
        ckm_dataset_free(ds);
        return rc;
    }
    *out = ds;
    return CKM_OK;
}

ckm_error ckm_dataset_from_array(const double *X, size_t n, size_t d, const int32_t *labels,
                                 ckm_dataset **out, ckm_err *err)
{
    *out = NULL;
    if (n == 0 || d == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "dataset needs n >= 1 and d >= 1 (got n = %zu, d = %zu)",
                        n, d);
    size_t nd;
    if (!ckm_mul_ok(n, d, &nd))
        return ckm_fail(err, CKM_ERR_NOMEM, "n * d = %zu * %zu overflows", n, d);
    for (size_t i = 0; i < nd; i++)
        if (!(X[i] - X[i] == 0.0))
            return ckm_fail(err, CKM_ERR_INVALID, "point %zu, feature %zu is not finite", i / d,
                            i % d);
    ckm_dataset *ds = calloc(1, sizeof *ds);
    if (!ds || !(ds->X = ckm_alloc_array(nd, sizeof(double)))) {
        ckm_dataset_free(ds);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu x %zu points", n, d);
    }
    memcpy(ds->X, X, nd * sizeof(double));
    if (labels) {
        int32_t maxl = -1;
        for (size_t i = 0; i < n; i++) {
            if (labels[i] < 0) {
                ckm_dataset_free(ds);
                return ckm_fail(err, CKM_ERR_INVALID, "label of point %zu is negative (%d)", i,
                                (int)labels[i]);
            }
            if (labels[i] > maxl)
                maxl = labels[i];
        }
        if (!(ds->labels = ckm_alloc_array(n, sizeof(int32_t)))) {
            ckm_dataset_free(ds);
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        }
        memcpy(ds->labels, labels, n * sizeof(int32_t));
        ds->n_classes = (size_t)maxl + 1;
    }
    ds->n = n;
    ds->d = d;
    ds->format = CKM_FORMAT_DELIMITED;
    *out = ds;
    return CKM_OK;
}
