/*
 * read_constraints.c -- constraint and size-bound files.
 * Constraints: "ML i j" | "CL i j" | "i j 1" | "i j -1" per line, 0-based, '#' comments;
 * an optional fourth field makes the pair soft with that confidence in (0, 1].
 * Invariants on success: i != j, i, j < n (when n > 0), no pair listed as both hard ML and
 * hard CL, exact duplicates of hard pairs (either orientation) kept once, every soft line
 * kept (repeats add up in the model), file order otherwise preserved; confidence is NULL
 * when the file has no soft pair.
 * Sizes: k lines "lo hi" or "s" (exact), lo <= hi.
 */
#include "ckm.h"
#include "pairset.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

void ckm_constraints_free(ckm_constraints *c)
{
    if (!c)
        return;
    free(c->pairs);
    free(c->confidence);
    free(c);
}

static ckm_error parse_index(const ckm_text *t, const ckm_line *ln, const ckm_field *f,
                             size_t n, size_t *out, ckm_err *err)
{
    if (!ckm_parse_size(f->s, out))
        return ckm_fail(err, CKM_ERR_PARSE,
                        "%s:%zu:%zu: '%s' is not a point index (a non-negative integer)",
                        t->path, ln->number, f->col, f->s);
    if (n > 0 && *out >= n)
        return ckm_fail(err, CKM_ERR_PARSE,
                        "%s:%zu:%zu: point index %zu out of range (n = %zu, indices are 0-based)",
                        t->path, ln->number, f->col, *out, n);
    return CKM_OK;
}

ckm_error ckm_constraints_read(const char *path, size_t n, ckm_constraints **out, ckm_err *err)
{
    *out = NULL;
    ckm_text t;
    ckm_error rc = ckm_text_load(path, &t, err);
    if (rc != CKM_OK)
        return rc;
    ckm_constraints *c = calloc(1, sizeof *c);
    ckm_pairset seen;
    ckm_pairset_init(&seen);
    ckm_field *f = NULL;
    size_t fcap = 0, pcap = 0, ccap = 0;
    if (!c)
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    for (size_t l = 0; rc == CKM_OK && l < t.count; l++) {
        const ckm_line *ln = &t.lines[l];
        size_t nf = ckm_split(ln->text, 0, &f, &fcap);
        if (nf == 0) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
            break;
        }
        if (nf != 3 && nf != 4) {
            rc = ckm_fail(err, CKM_ERR_PARSE,
                          "%s:%zu: expected 'ML i j', 'CL i j', 'i j 1' or 'i j -1' (and an optional "
                          "confidence), got %zu field%s",
                          path, ln->number, nf, nf == 1 ? "" : "s");
            break;
        }
        double conf = 0.0; /* hard */
        if (nf == 4) {
            if (ckm_parse_double(f[3].s, &conf) != 0 || !(conf > 0.0 && conf <= 1.0)) {
                rc = ckm_fail(err, CKM_ERR_PARSE,
                              "%s:%zu:%zu: confidence '%s' is not a number in (0, 1] (leave the field out "
                              "for a hard pair)",
                              path, ln->number, f[3].col, f[3].s);
                break;
            }
        }
        ckm_pair p = {0, 0, CKM_MUST_LINK, ln->number};
        const ckm_field *fi, *fj;
        if (strcasecmp(f[0].s, "ML") == 0 || strcasecmp(f[0].s, "CL") == 0) {
            p.type = (f[0].s[0] == 'M' || f[0].s[0] == 'm') ? CKM_MUST_LINK : CKM_CANNOT_LINK;
            fi = &f[1];
            fj = &f[2];
        } else {
            fi = &f[0];
            fj = &f[1];
            if (strcmp(f[2].s, "1") == 0 || strcmp(f[2].s, "+1") == 0)
                p.type = CKM_MUST_LINK;
            else if (strcmp(f[2].s, "-1") == 0)
                p.type = CKM_CANNOT_LINK;
            else {
                rc = ckm_fail(err, CKM_ERR_PARSE,
                              "%s:%zu:%zu: constraint type '%s' must be 1 (must-link) or -1 "
                              "(cannot-link), or the line must start with ML or CL",
                              path, ln->number, f[2].col, f[2].s);
                break;
            }
        }
        if ((rc = parse_index(&t, ln, fi, n, &p.i, err)) != CKM_OK ||
            (rc = parse_index(&t, ln, fj, n, &p.j, err)) != CKM_OK)
            break;
        if (p.i == p.j) {
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: constraint links point %zu with itself",
                          path, ln->number, p.i);
            break;
        }
        size_t prev;
        int found = conf == 0.0 && ckm_pairset_find(&seen, p.i, p.j, &prev);
        if (found) {
            if (c->pairs[prev].type != p.type) {
                rc = ckm_fail(err, CKM_ERR_PARSE,
                              "%s:%zu: pair (%zu, %zu) is %s here but %s on line %zu", path,
                              ln->number, p.i, p.j,
                              p.type == CKM_MUST_LINK ? "must-link" : "cannot-link",
                              p.type == CKM_MUST_LINK ? "cannot-link" : "must-link",
                              c->pairs[prev].line);
                break;
            }
            continue; /* exact duplicate */
        }
        if (!ckm_grow((void **)&c->pairs, &pcap, c->count + 1, sizeof *c->pairs) ||
            (conf == 0.0 && !ckm_pairset_insert(&seen, p.i, p.j, c->count))) {
            rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
            break;
        }
        if (conf != 0.0 || c->confidence) {
            /* the first soft pair gives every earlier (hard) pair its 0 */
            size_t had = ccap;
            if (!ckm_grow((void **)&c->confidence, &ccap, c->count + 1, sizeof *c->confidence)) {
                rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
                break;
            }
            if (had == 0)
                memset(c->confidence, 0, c->count * sizeof *c->confidence);
            c->confidence[c->count] = conf;
        }
        c->pairs[c->count++] = p;
    }
    free(f);
    ckm_pairset_free(&seen);
    ckm_text_free(&t);
    if (rc != CKM_OK) {
        ckm_constraints_free(c);
        return rc;
    }
    *out = c;
    return CKM_OK;
}

ckm_error ckm_sizes_read(const char *path, size_t k, size_t *lo, size_t *hi, ckm_err *err)
{
    ckm_text t;
    ckm_error rc = ckm_text_load(path, &t, err);
    if (rc != CKM_OK)
        return rc;
    ckm_field *f = NULL;
    size_t fcap = 0;
    if (t.count != k)
        rc = ckm_fail(err, CKM_ERR_PARSE,
                      "%s: %zu size line%s for k = %zu clusters (need one 'lo hi' or exact "
                      "size per cluster)",
                      path, t.count, t.count == 1 ? "" : "s", k);
    for (size_t l = 0; rc == CKM_OK && l < t.count; l++) {
        const ckm_line *ln = &t.lines[l];
        size_t nf = ckm_split(ln->text, 0, &f, &fcap);
        if (nf == 0) { /* a non-blank line has a field: allocation failure */
            rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", path, ln->number);
            break;
        }
        if (nf != 1 && nf != 2) {
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: expected 'lo hi' or one exact size, got %zu fields",
                          path, ln->number, nf);
            break;
        }
        size_t v[2];
        for (size_t c = 0; c < nf; c++)
            if (!ckm_parse_size(f[c].s, &v[c])) {
                rc = ckm_fail(err, CKM_ERR_PARSE,
                              "%s:%zu:%zu: '%s' is not a cluster size (non-negative integer)",
                              path, ln->number, f[c].col, f[c].s);
                break;
            }
        if (rc != CKM_OK)
            break;
        if (nf == 1)
            v[1] = v[0];
        if (v[0] > v[1]) {
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: cluster %zu: lower bound %zu > upper bound %zu",
                          path, ln->number, l, v[0], v[1]);
            break;
        }
        lo[l] = v[0];
        hi[l] = v[1];
    }
    free(f);
    ckm_text_free(&t);
    return rc;
}
