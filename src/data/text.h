/*
 * text.h -- shared text-file plumbing for the readers: slurp a file, split it into
 * numbered lines with comments stripped, split a line into fields, parse one number
 * with a precise "file:line:col" error. Lines point into one owned buffer. And the one
 * writer both label writers share (write.c, mpi/dist_api.c).
 */
#ifndef CKM_TEXT_H
#define CKM_TEXT_H

#include "core.h"

typedef struct ckm_line {
    char *text;    /* NUL-terminated, comment and trailing blanks removed, never empty */
    size_t number; /* 1-based line number in the file */
} ckm_line;

typedef struct ckm_text {
    const char *path;
    char *buf;
    ckm_line *lines; /* non-blank lines only */
    size_t count;
} ckm_text;

/* Read path and split it. Errors: cannot open/read, NUL byte (binary file). */
ckm_error ckm_text_load(const char *path, ckm_text *t, ckm_err *err);
void ckm_text_free(ckm_text *t);
/* ckm_text_load, and a parse error "path: no WHAT (file is empty or only comments)" when
 * the file has no non-blank line. */
ckm_error ckm_text_load_nonempty(const char *path, const char *what, ckm_text *t, ckm_err *err);

typedef struct ckm_field {
    char *s;     /* trimmed, NUL-terminated, surrounding double quotes removed */
    size_t col;  /* 1-based character column where the field starts */
} ckm_field;

/* Split line in place. delim = 0 means runs of blanks; otherwise that character (fields
 * are trimmed). Returns the field count; fields grows as needed. 0 on allocation error
 * (a non-empty line always has at least one field). */
size_t ckm_split(char *line, char delim, ckm_field **fields, size_t *cap);

/* Parse a finite double occupying the whole string. Returns 0 ok, 1 not a number,
 * 2 not finite. */
int ckm_parse_double(const char *s, double *out);
/* Parse a non-negative integer occupying the whole string (no sign, fits size_t). */
bool ckm_parse_size(const char *s, size_t *out);

/* One label file line, "%d\n" without printf (at most CKM_LABEL_LINE_MAX characters), at q;
 * returns its end (10^6 labels: 0.02 s against 0.3 s through printf). */
#define CKM_LABEL_LINE_MAX 12
char *ckm_put_label_line(char *q, int32_t v);

#endif
