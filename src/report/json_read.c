/*
 * json_read.c -- recursive-descent JSON reader (json_read.h). Grammar of RFC 8259: value =
 * object | array | string | number | true | false | null; a number is
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?; strings decode \uXXXX (surrogate pairs
 * joined) to UTF-8 and refuse raw control characters.
 */
#include "json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cj_in {
    const char *s, *end, *at;
    int depth;
    ckm_err *err;
} cj_in;

static ckm_error bad(cj_in *in, const char *what)
{
    size_t line = 1, col = 1;
    for (const char *q = in->s; q < in->at; q++, col++)
        if (*q == '\n') {
            line++;
            col = 0;
        }
    return ckm_fail(in->err, CKM_ERR_PARSE, "JSON %zu:%zu: %s", line, col, what);
}

static void skip_ws(cj_in *in)
{
    while (in->at < in->end && (*in->at == ' ' || *in->at == '\t' || *in->at == '\n' || *in->at == '\r'))
        in->at++;
}

static int hex4(const char *p, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16u)
            return 0;
        *v = *v * 16u + d;
    }
    return 1;
}

static void put_utf8(ckm_sbuf *b, unsigned cp)
{
    char u[4];
    size_t m;
    if (cp < 0x80) {
        u[0] = (char)cp, m = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), m = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)), m = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), m = 4;
    }
    ckm_sb_put(b, u, m);
}

/* at the opening quote: the decoded string into *out */
static ckm_error read_string(cj_in *in, char **out)
{
    ckm_sbuf b = {0};
    ckm_sb_put(&b, "", 0);
    in->at++;
    while (in->at < in->end && *in->at != '"') {
        unsigned char c = (unsigned char)*in->at;
        if (c < 0x20) {
            free(b.p);
            return bad(in, "a control character inside a string");
        }
        if (c != '\\') {
            ckm_sb_put(&b, in->at++, 1);
            continue;
        }
        if (in->end - in->at < 2) {
            free(b.p);
            return bad(in, "an unfinished escape");
        }
        char e = in->at[1];
        const char *plain = strchr("\"\\/bfnrt", e);
        if (e && plain) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            ckm_sb_put(&b, &to[plain - "\"\\/bfnrt"], 1);
            in->at += 2;
            continue;
        }
        unsigned cp, lo;
        if (e != 'u' || in->end - in->at < 6 || !hex4(in->at + 2, &cp)) {
            free(b.p);
            return bad(in, "an invalid escape");
        }
        in->at += 6;
        if (cp >= 0xD800 && cp < 0xDC00 && in->end - in->at >= 6 && in->at[0] == '\\' && in->at[1] == 'u' &&
            hex4(in->at + 2, &lo) && lo >= 0xDC00 && lo < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            in->at += 6;
        }
        put_utf8(&b, cp);
    }
    if (in->at >= in->end) {
        free(b.p);
        return bad(in, "an unterminated string");
    }
    in->at++;
    if (b.failed)
        return ckm_fail(in->err, CKM_ERR_NOMEM, "out of memory");
    *out = b.p;
    return CKM_OK;
}

static size_t digits(const cj_in *in, const char *p)
{
    size_t m = 0;
    while (p + m < in->end && p[m] >= '0' && p[m] <= '9')
        m++;
    return m;
}

static ckm_error read_number(cj_in *in, cj_node *n)
{
    const char *p = in->at;
    if (p < in->end && *p == '-')
        p++;
    size_t m = digits(in, p);
    if (m == 0 || (m > 1 && *p == '0'))
        return bad(in, "a malformed number");
    p += m;
    if (p < in->end && *p == '.') {
        if ((m = digits(in, p + 1)) == 0)
            return bad(in, "a malformed number");
        p += 1 + m;
    }
    if (p < in->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < in->end && (*p == '+' || *p == '-'))
            p++;
        if ((m = digits(in, p)) == 0)
            return bad(in, "a malformed number");
        p += m;
    }
    size_t len = (size_t)(p - in->at);
    if (!(n->str = malloc(len + 1)))
        return ckm_fail(in->err, CKM_ERR_NOMEM, "out of memory");
    memcpy(n->str, in->at, len);
    n->str[len] = '\0';
    n->num = strtod(n->str, NULL);
    n->type = CJ_NUMBER;
    in->at = p;
    return CKM_OK;
}

static ckm_error read_value(cj_in *in, cj_node *n);

/* members of an array or object, at its opening bracket */
static ckm_error read_members(cj_in *in, cj_node *n, bool object)
{
    char close = object ? '}' : ']';
    size_t cap = 0;
    n->type = object ? CJ_OBJECT : CJ_ARRAY;
    in->at++;
    skip_ws(in);
    if (in->at < in->end && *in->at == close) {
        in->at++;
        return CKM_OK;
    }
    for (;;) {
        if (!ckm_grow((void **)&n->item, &cap, n->count + 1, sizeof *n->item))
            return ckm_fail(in->err, CKM_ERR_NOMEM, "out of memory");
        if (object) {
            char **keys = realloc(n->key, cap * sizeof *n->key);
            if (!keys)
                return ckm_fail(in->err, CKM_ERR_NOMEM, "out of memory");
            n->key = keys;
        }
        cj_node *v = &n->item[n->count];
        memset(v, 0, sizeof *v);
        if (object) {
            n->key[n->count] = NULL;
            skip_ws(in);
            if (in->at >= in->end || *in->at != '"')
                return bad(in, "expected a member name");
            ckm_error rc = read_string(in, &n->key[n->count]);
            n->count++;
            if (rc != CKM_OK)
                return rc;
            skip_ws(in);
            if (in->at >= in->end || *in->at != ':')
                return bad(in, "expected ':' after a member name");
            in->at++;
        } else {
            n->count++;
        }
        ckm_error rc = read_value(in, v);
        if (rc != CKM_OK)
            return rc;
        skip_ws(in);
        if (in->at < in->end && *in->at == ',') {
            in->at++;
            continue;
        }
        if (in->at < in->end && *in->at == close) {
            in->at++;
            return CKM_OK;
        }
        return bad(in, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static ckm_error read_value(cj_in *in, cj_node *n)
{
    skip_ws(in);
    if (in->at >= in->end)
        return bad(in, "expected a value");
    static const struct { const char *word; cj_type type; } lit[] = {
        {"null", CJ_NULL}, {"true", CJ_TRUE}, {"false", CJ_FALSE}};
    for (size_t q = 0; q < 3; q++) {
        size_t m = strlen(lit[q].word);
        if ((size_t)(in->end - in->at) >= m && memcmp(in->at, lit[q].word, m) == 0) {
            n->type = lit[q].type;
            in->at += m;
            return CKM_OK;
        }
    }
    char c = *in->at;
    if (c == '"') {
        n->type = CJ_STRING;
        return read_string(in, &n->str);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
        return read_number(in, n);
    if (c != '[' && c != '{')
        return bad(in, "expected a value");
    if (++in->depth > 64)
        return bad(in, "nesting deeper than 64");
    ckm_error rc = read_members(in, n, c == '{');
    in->depth--;
    return rc;
}

static void free_members(cj_node *n)
{
    for (size_t i = 0; i < n->count; i++) {
        free_members(&n->item[i]);
        if (n->key)
            free(n->key[i]);
    }
    free(n->item);
    free(n->key);
    free(n->str);
}

void cj_free(cj_node *n)
{
    if (!n)
        return;
    free_members(n);
    free(n);
}

ckm_error cj_parse(const char *text, size_t len, cj_node **out, ckm_err *err)
{
    *out = NULL;
    cj_node *n = calloc(1, sizeof *n);
    if (!n)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    cj_in in = {text, text + len, text, 0, err};
    ckm_error rc = read_value(&in, n);
    if (rc == CKM_OK) {
        skip_ws(&in);
        if (in.at != in.end)
            rc = bad(&in, "unexpected text after the value");
    }
    if (rc != CKM_OK) {
        cj_free(n);
        return rc;
    }
    *out = n;
    return CKM_OK;
}

const cj_node *cj_get(const cj_node *obj, const char *key)
{
    if (!obj || obj->type != CJ_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->count; i++)
        if (strcmp(obj->key[i], key) == 0)
            return &obj->item[i];
    return NULL;
}

double cj_number(const cj_node *n)
{
    if (n && n->type == CJ_NUMBER)
        return n->num;
    if (n && n->type == CJ_STRING && strcmp(n->str, "inf") == 0)
        return INFINITY;
    return NAN;
}

const char *cj_string(const cj_node *n) { return n && n->type == CJ_STRING ? n->str : NULL; }
