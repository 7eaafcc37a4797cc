/*
 * sbuf.c -- a growable text buffer (core.h): what the writers and the HTML report build
 * their text in. A failed allocation sets `failed` and makes every later append a no-op,
 * so a writer checks once at the end.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ckm_sb_printf(ckm_sbuf *b, const char *fmt, ...)
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

void ckm_sb_put(ckm_sbuf *b, const char *s, size_t len)
{
    if (b->failed)
        return;
    if (!ckm_grow((void **)&b->p, &b->cap, b->len + len + 1, 1)) {
        b->failed = true;
        return;
    }
    memcpy(b->p + b->len, s, len);
    b->len += len;
    b->p[b->len] = '\0';
}
