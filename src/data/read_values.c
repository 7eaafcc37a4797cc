/*
 * read_values.c -- one number per point from a file (sample weights, demands): text with one
 * value per line (blank lines and '#' comments skipped, text.c), or a numpy .npy float array
 * of shape (n,) or (n, 1). Every value must be finite and >= 0, and > 0 unless zero is
 * allowed; a refusal names the file and line:column (text) or the element (.npy).
 */
#include "core.h"
#include "npy.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>

/* A value's range: finite, >= 0, and > 0 unless allow_zero. */
static bool in_range(double v, int allow_zero)
{
    return isfinite(v) && (allow_zero ? v >= 0.0 : v > 0.0);
}

static const char *range_text(int allow_zero)
{
    return allow_zero ? "finite and >= 0" : "finite and > 0";
}

static ckm_error read_npy(const char *path, const char *what, int allow_zero, double **out, size_t *n, ckm_err *err)
{
    ckm_npy a;
    ckm_error rc = ckm_npy_open(path, &a, err);
    if (rc != CKM_OK)
        return rc;
    double *v = NULL;
    if (a.kind != 'f' || (a.ndim == 2 && a.shape[1] != 1) || a.count == 0)
        rc = ckm_fail(err, CKM_ERR_PARSE, "%s: need a non-empty float array of one %s per point, shape (n,) or (n, 1)",
                      path, what);
    else if (!(v = ckm_alloc_array(a.count, sizeof(double))))
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu %ss", a.count, what);
    else
        rc = ckm_npy_read_doubles(path, &a, v, err);
    for (size_t i = 0; rc == CKM_OK && i < a.count; i++)
        if (!in_range(v[i], allow_zero))
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s: element %zu is %g: a %s must be %s", path, i, v[i], what,
                          range_text(allow_zero));
    *n = a.count;
    ckm_npy_free(&a);
    if (rc != CKM_OK)
        free(v);
    else
        *out = v;
    return rc;
}

ckm_error ckm_values_read(const char *path, const char *what, int allow_zero, double **values, size_t *n, ckm_err *err)
{
    *values = NULL;
    *n = 0;
    if (ckm_npy_is(path))
        return read_npy(path, what, allow_zero, values, n, err);
    ckm_text t;
    ckm_error rc = ckm_text_load_nonempty(path, what, &t, err);
    if (rc != CKM_OK)
        return rc;
    double *v = ckm_alloc_array(t.count, sizeof(double));
    if (!v) {
        ckm_text_free(&t);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory for %zu %ss", t.count, what);
    }
    ckm_field *f = NULL;
    size_t fcap = 0;
    for (size_t i = 0; i < t.count && rc == CKM_OK; i++) {
        size_t nf = ckm_split(t.lines[i].text, 0, &f, &fcap), line = t.lines[i].number;
        int bad = nf == 1 ? ckm_parse_double(f[0].s, &v[i]) : 0;
        if (nf == 0) /* a non-blank line has a field: allocation failure */
            rc = ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory splitting line %zu", path, line);
        else if (nf != 1)
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu: expected one %s per line, got %zu fields", path, line, what, nf);
        else if (bad)
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu:%zu: '%s' is not a %s number", path, line, f[0].col, f[0].s,
                          bad == 2 ? "finite" : "valid");
        else if (!in_range(v[i], allow_zero))
            rc = ckm_fail(err, CKM_ERR_PARSE, "%s:%zu:%zu: %s %s: a %s must be %s", path, line, f[0].col, what, f[0].s,
                          what, range_text(allow_zero));
    }
    free(f);
    if (rc != CKM_OK) {
        free(v);
    } else {
        *values = v;
        *n = t.count;
    }
    ckm_text_free(&t);
    return rc;
}
