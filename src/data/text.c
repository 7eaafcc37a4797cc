/*
 * text.c -- file slurping and tokenising for all readers (see text.h).
 * Cost: one read of the file, O(bytes) splitting; lines are views into one buffer.
 * Files as spreadsheets save them are read as they are: a UTF-8 byte-order mark at the
 * start is skipped, and CRLF line ends lose their '\r' with the other trailing blanks.
 */
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

ckm_error ckm_text_load(const char *path, ckm_text *t, ckm_err *err)
{
    memset(t, 0, sizeof *t);
    t->path = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ckm_fail(err, CKM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 0, len = 0;
    char *buf = NULL;
    for (;;) {
        if (!ckm_grow((void **)&buf, &cap, len + 65536 + 1, 1)) {
            free(buf);
            fclose(f);
            return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory reading file", path);
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) {
        free(buf);
        return ckm_fail(err, CKM_ERR_IO, "%s: read error", path);
    }
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) {
        free(buf);
        return ckm_fail(err, CKM_ERR_PARSE, "%s: contains a NUL byte (binary file?)", path);
    }
    t->buf = buf;
    size_t lcap = 0, number = 0;
    char *p = buf;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        p += 3; /* UTF-8 byte-order mark (Excel's "CSV UTF-8") */
    while (*p) {
        char *end = strchr(p, '\n');
        char *next = end ? end + 1 : p + strlen(p);
        if (end)
            *end = '\0';
        number++;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        size_t l = strlen(p);
        while (l > 0 && is_blank(p[l - 1]))
            p[--l] = '\0';
        char *q = p;
        while (is_blank(*q))
            q++;
        if (*q) {
            if (!ckm_grow((void **)&t->lines, &lcap, t->count + 1, sizeof *t->lines)) {
                ckm_text_free(t);
                return ckm_fail(err, CKM_ERR_NOMEM, "%s: out of memory", path);
            }
            t->lines[t->count].text = p;
            t->lines[t->count].number = number;
            t->count++;
        }
        p = next;
    }
    return CKM_OK;
}

ckm_error ckm_text_load_nonempty(const char *path, const char *what, ckm_text *t, ckm_err *err)
{
    ckm_error rc = ckm_text_load(path, t, err);
    if (rc == CKM_OK && t->count == 0) {
        ckm_text_free(t);
        rc = ckm_fail(err, CKM_ERR_PARSE, "%s: no %s (file is empty or only comments)", path, what);
    }
    return rc;
}

void ckm_text_free(ckm_text *t)
{
    free(t->buf);
    free(t->lines);
    t->buf = NULL;
    t->lines = NULL;
    t->count = 0;
}

size_t ckm_split(char *line, char delim, ckm_field **fields, size_t *cap)
{
    size_t count = 0;
    char *p = line;
    for (;;) {
        if (delim == 0) {
            while (is_blank(*p))
                p++;
            if (!*p)
                break;
        }
        char *start = p;
        if (delim == 0) {
            while (*p && !is_blank(*p))
                p++;
        } else {
            while (*p && *p != delim)
                p++;
        }
        char saved = *p;
        *p = '\0';
        char *s = start;
        while (is_blank(*s))
            s++;
        size_t l = strlen(s);
        while (l > 0 && is_blank(s[l - 1]))
            s[--l] = '\0';
        if (l >= 2 && s[0] == '"' && s[l - 1] == '"') {
            s[l - 1] = '\0';
            s++;
        }
        if (!ckm_grow((void **)fields, cap, count + 1, sizeof **fields))
            return 0;
        (*fields)[count].s = s;
        (*fields)[count].col = (size_t)(start - line) + 1 + (size_t)(s - start);
        count++;
        if (saved == '\0')
            break;
        p++;
    }
    return count;
}

int ckm_parse_double(const char *s, double *out)
{
    if (!*s)
        return 1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0')
        return 1;
    if (!isfinite(v))
        return 2;
    /* ERANGE on underflow is fine (a tiny value); overflow gives HUGE_VAL, caught above */
    *out = v;
    return 0;
}

bool ckm_parse_size(const char *s, size_t *out)
{
    if (!*s)
        return false;
    size_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        size_t digit = (size_t)(*p - '0');
        if (v > (SIZE_MAX - digit) / 10)
            return false;
        v = v * 10 + digit;
    }
    *out = v;
    return true;
}
