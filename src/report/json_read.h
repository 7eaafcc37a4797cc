/*
 * json_read.h -- a small JSON reader (RFC 8259) for the run reports the HTML report embeds:
 * the whole text parsed into a tree, strings decoded to UTF-8, numbers kept with their
 * source text (shown and compared as written). Depth at most 64; O(length).
 */
#ifndef CKM_JSON_READ_H
#define CKM_JSON_READ_H

#include "core.h"

typedef enum cj_type { CJ_NULL, CJ_FALSE, CJ_TRUE, CJ_NUMBER, CJ_STRING, CJ_ARRAY, CJ_OBJECT } cj_type;

typedef struct cj_node {
    cj_type type;
    double num;            /* CJ_NUMBER */
    char *str;             /* CJ_STRING: decoded, NUL-terminated; CJ_NUMBER: its source text */
    size_t count;          /* CJ_ARRAY, CJ_OBJECT: members */
    struct cj_node *item;  /* count members */
    char **key;            /* CJ_OBJECT: count keys */
} cj_node;

/* Parse text[0..len) (one value, white space around it). On success *out owns the tree
 * (cj_free); else CKM_ERR_PARSE with the line:column and what was expected, in err. */
ckm_error cj_parse(const char *text, size_t len, cj_node **out, ckm_err *err);
void cj_free(cj_node *n);
/* Member `key` of an object, or NULL (not an object, or no such member). */
const cj_node *cj_get(const cj_node *obj, const char *key);
/* The number of n; NAN for null, a missing member or another type; "inf" strings as INFINITY. */
double cj_number(const cj_node *n);
/* The string of n, or NULL. */
const char *cj_string(const cj_node *n);

#endif
