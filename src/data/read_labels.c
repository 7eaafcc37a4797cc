/*
 * read_labels.c -- a labelling from a file: a numpy .npy integer array (npy.c), or text with
 * one non-negative integer per line (blank lines and comments skipped, text.c; file:line:col
 * messages).
 */
#include "core.h"
#include "npy.h"
#include "text.h"

#include <stdint.h>
#include <stdlib.h>

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
