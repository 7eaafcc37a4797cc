/*
 * npy.c -- numpy's .npy format (NEP 1, format versions 1.0, 2.0 and 3.0) for points,
 * labels and centers.
 *   file = "\x93NUMPY" major minor  header_len (uint16 LE for 1.x, uint32 LE for 2.x/3.x)
 *          header: a Python dict literal {'descr': '<f8', 'fortran_order': False,
 *          'shape': (n, d), } padded with spaces to a multiple of 64 bytes, ending in '\n'
 *          then the n*d elements, C order, little-endian here.
 * Read: points as '<f8' or '<f4' (converted to double), shape (n, d) or (n,) (= n x 1),
 * C order; labels as '<i4', '<i8', '<u1'..'<u8' or '|i1'/'|u1', shape (n,). Everything
 * else (Fortran order, big-endian, other dtypes, object arrays, truncated data, trailing
 * bytes) is a parse error naming the file and what was found. Points are read with one
 * read() per 8 MB block straight into the dataset's array: the disk or page cache is
 * the limit (a 10^6 x 16 float64 file: bench/README.md, "npy").
 * Write: labels as '<i4' (n,), centers as '<f8' (k, d), version 1.0, atomically
 * (write.c's temp file + rename).
 */
#include "core.h"
#include "npy.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

int ckm_npy_is(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    char head[6];
    ssize_t got = read(fd, head, sizeof head);
    close(fd);
    return got == (ssize_t)sizeof head && memcmp(head, MAGIC, sizeof head) == 0;
}

int ckm_npy_path(const char *path)
{
    size_t l = strlen(path);
    return l >= 4 && strcmp(path + l - 4, ".npy") == 0;
}

/* read exactly len bytes (0 ok, -1 error with errno, 1 end of file first) */
static int read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t got = read(fd, p, len);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (got == 0)
            return 1;
        p += got;
        len -= (size_t)got;
    }
    return 0;
}

/* the value after 'key': in the header dict (NULL if absent) */
static const char *find_key(const char *h, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s'", key);
    const char *k = strstr(h, pat);
    if (!k)
        return NULL;
    k += strlen(pat);
    while (*k == ' ')
        k++;
    if (*k != ':')
        return NULL;
    k++;
    while (*k == ' ')
        k++;
    return k;
}

static ckm_error bad(ckm_err *err, const char *path, const char *what)
{
    return ckm_fail(err, CKM_ERR_PARSE, "%s: not a .npy file ckm reads: %s", path, what);
}

/* parse the header dict into descr, fortran flag and shape */
static ckm_error parse_header(const char *path, const char *h, ckm_npy *a, ckm_err *err)
{
    const char *v = find_key(h, "descr");
    if (!v || (*v != '\'' && *v != '"'))
        return bad(err, path, "the header has no 'descr' string (a structured or object array?)");
    char q = *v++;
    size_t dl = 0;
    while (v[dl] && v[dl] != q && dl < sizeof a->descr - 1)
        dl++;
    if (v[dl] != q)
        return bad(err, path, "the header's 'descr' is malformed");
    memcpy(a->descr, v, dl);
    a->descr[dl] = '\0';
    v = find_key(h, "fortran_order");
    if (!v)
        return bad(err, path, "the header has no 'fortran_order'");
    if (strncmp(v, "True", 4) == 0)
        return bad(err, path, "the array is in Fortran order; save np.ascontiguousarray(a) instead");
    if (strncmp(v, "False", 5) != 0)
        return bad(err, path, "the header's 'fortran_order' is neither True nor False");
    v = find_key(h, "shape");
    if (!v || *v != '(')
        return bad(err, path, "the header has no 'shape' tuple");
    v++;
    a->ndim = 0;
    for (;;) {
        while (*v == ' ')
            v++;
        if (*v == ')')
            break;
        if (*v < '0' || *v > '9' || a->ndim == 2)
            return bad(err, path, "'shape' must be (n,) or (n, d) with non-negative integers");
        size_t x = 0;
        while (*v >= '0' && *v <= '9') {
            size_t digit = (size_t)(*v++ - '0');
            if (x > (SIZE_MAX - digit) / 10)
                return bad(err, path, "a dimension in 'shape' overflows");
            x = 10 * x + digit;
        }
        a->shape[a->ndim++] = x;
        while (*v == ' ')
            v++;
        if (*v == ',')
            v++;
        else if (*v != ')')
            return bad(err, path, "'shape' is malformed");
    }
    if (a->ndim == 0)
        return bad(err, path, "the array is a scalar (shape ())");
    if (a->ndim == 1)
        a->shape[1] = 1;
    return CKM_OK;
}

/* element size and kind ('f' float, 'i' signed, 'u' unsigned) of a little-endian descr */
static int dtype_of(const char *descr, char *kind)
{
    if (strlen(descr) != 3)
        return 0;
    char order = descr[0];
    int size = descr[2] - '0';
    *kind = descr[1];
    if (size != 1 && size != 2 && size != 4 && size != 8)
        return 0;
    if (order == '>' && size > 1)
        return 0;
    if (order != '<' && order != '|' && order != '=')
        return 0;
    if (*kind == 'f' && (size == 4 || size == 8))
        return size;
    if ((*kind == 'i' || *kind == 'u') && size >= 1)
        return size;
    return 0;
}

void ckm_npy_free(ckm_npy *a)
{
    if (a && a->fd >= 0)
        close(a->fd);
    if (a)
        a->fd = -1;
}

ckm_error ckm_npy_open(const char *path, ckm_npy *a, ckm_err *err)
{
    memset(a, 0, sizeof *a);
    a->fd = open(path, O_RDONLY);
    if (a->fd < 0)
        return ckm_fail(err, CKM_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char pre[10];
    int r = read_all(a->fd, pre, 8);
    if (r < 0 || r > 0 || memcmp(pre, MAGIC, 6) != 0) {
        ckm_npy_free(a);
        return r < 0 ? ckm_fail(err, CKM_ERR_IO, "%s: cannot read: %s", path, strerror(errno))
                     : bad(err, path, "no \\x93NUMPY magic at its start");
    }
    int major = pre[6];
    size_t hl;
    if (major == 1) {
        if (read_all(a->fd, pre + 8, 2) != 0) {
            ckm_npy_free(a);
            return bad(err, path, "the header is truncated");
        }
        hl = (size_t)pre[8] | (size_t)pre[9] << 8;
        a->data_offset = 10 + hl;
    } else if (major == 2 || major == 3) {
        unsigned char l4[4];
        if (read_all(a->fd, l4, 4) != 0) {
            ckm_npy_free(a);
            return bad(err, path, "the header is truncated");
        }
        hl = (size_t)l4[0] | (size_t)l4[1] << 8 | (size_t)l4[2] << 16 | (size_t)l4[3] << 24;
        a->data_offset = 12 + hl;
    } else {
        ckm_npy_free(a);
        return ckm_fail(err, CKM_ERR_PARSE, "%s: .npy format version %d is not one of 1, 2, 3", path, major);
    }
    if (hl > (1u << 20)) {
        ckm_npy_free(a);
        return bad(err, path, "the header is longer than 1 MB");
    }
    char *h = malloc(hl + 1);
    if (!h) {
        ckm_npy_free(a);
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
    }
    if (read_all(a->fd, h, hl) != 0) {
        free(h);
        ckm_npy_free(a);
        return bad(err, path, "the header is truncated");
    }
    h[hl] = '\0';
    if (memchr(h, '\0', hl)) {
        free(h);
        ckm_npy_free(a);
        return bad(err, path, "the header contains a NUL byte");
    }
    ckm_error rc = parse_header(path, h, a, err);
    free(h);
    if (rc == CKM_OK && !(a->elem = (size_t)dtype_of(a->descr, &a->kind))) {
        rc = ckm_fail(err, CKM_ERR_PARSE,
                      "%s: dtype '%s' is not supported (points: '<f8' or '<f4'; labels: integers; "
                      "little-endian)",
                      path, a->descr);
    }
    size_t cnt, bytes;
    if (rc == CKM_OK && (!ckm_mul_ok(a->shape[0], a->shape[1], &cnt) || !ckm_mul_ok(cnt, a->elem, &bytes)))
        rc = ckm_fail(err, CKM_ERR_PARSE, "%s: shape (%zu, %zu) overflows", path, a->shape[0], a->shape[1]);
    if (rc == CKM_OK) {
        /* the data must be exactly the rest of the file */
        off_t end = lseek(a->fd, 0, SEEK_END);
        if (end < 0 || lseek(a->fd, (off_t)a->data_offset, SEEK_SET) < 0)
            rc = ckm_fail(err, CKM_ERR_IO, "%s: cannot seek: %s", path, strerror(errno));
        else if ((size_t)end - a->data_offset != bytes)
            rc = ckm_fail(err, CKM_ERR_PARSE,
                          "%s: shape (%zu, %zu) of '%s' needs %zu data bytes, the file has %lld after its header",
                          path, a->shape[0], a->shape[1], a->descr, bytes, (long long)end - (long long)a->data_offset);
    }
    a->count = rc == CKM_OK ? cnt : 0;
    if (rc != CKM_OK)
        ckm_npy_free(a);
    return rc;
}

ckm_error ckm_npy_read_doubles(const char *path, ckm_npy *a, double *out, ckm_err *err)
{
    return ckm_npy_read_rows(path, a, 0, a->shape[0], out, err);
}

ckm_error ckm_npy_read_rows(const char *path, ckm_npy *a, size_t first, size_t rows, double *out, ckm_err *err)
{
    if (a->kind != 'f')
        return ckm_fail(err, CKM_ERR_PARSE, "%s: points must be floating point ('<f8' or '<f4'), not '%s'", path,
                        a->descr);
    size_t d = a->shape[1], count = rows * d;
    if (first > a->shape[0] || rows > a->shape[0] - first)
        return ckm_fail(err, CKM_ERR_INVALID, "%s: rows %zu..%zu are outside its %zu rows", path, first,
                        first + rows, a->shape[0]);
    /* the file size was checked against the shape: these offsets fit */
    if (lseek(a->fd, (off_t)(a->data_offset + first * d * a->elem), SEEK_SET) < 0)
        return ckm_fail(err, CKM_ERR_IO, "%s: cannot seek: %s", path, strerror(errno));
    if (a->elem == 8) {
        /* straight into the array, in blocks */
        char *p = (char *)out;
        size_t left = count * 8;
        while (left > 0) {
            size_t chunk = left < (8u << 20) ? left : (8u << 20);
            if (read_all(a->fd, p, chunk) != 0)
                return ckm_fail(err, CKM_ERR_IO, "%s: read failed: %s", path, strerror(errno));
            p += chunk;
            left -= chunk;
        }
    } else {
        float *buf = malloc((1u << 20) * sizeof(float));
        if (!buf)
            return ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        for (size_t done = 0; done < count;) {
            size_t chunk = count - done < (1u << 20) ? count - done : (1u << 20);
            if (read_all(a->fd, buf, chunk * sizeof(float)) != 0) {
                free(buf);
                return ckm_fail(err, CKM_ERR_IO, "%s: read failed: %s", path, strerror(errno));
            }
            for (size_t q = 0; q < chunk; q++)
                out[done + q] = (double)buf[q];
            done += chunk;
        }
        free(buf);
    }
    for (size_t q = 0; q < count; q++)
        if (!(out[q] - out[q] == 0.0))
            return ckm_fail(err, CKM_ERR_PARSE, "%s: row %zu, column %zu (0-based): value is not finite", path,
                            first + q / d, q % d);
    return CKM_OK;
}

ckm_error ckm_npy_read_labels(const char *path, ckm_npy *a, int32_t *out, ckm_err *err)
{
    if (a->kind == 'f' || a->ndim != 1)
        return ckm_fail(err, CKM_ERR_PARSE, "%s: labels must be a 1-D integer array, not '%s' of %zu dimensions", path,
                        a->descr, a->ndim);
    unsigned char buf[8 * 4096];
    size_t per = sizeof buf / a->elem;
    for (size_t done = 0; done < a->count;) {
        size_t chunk = a->count - done < per ? a->count - done : per;
        if (read_all(a->fd, buf, chunk * a->elem) != 0)
            return ckm_fail(err, CKM_ERR_IO, "%s: read failed: %s", path, strerror(errno));
        for (size_t q = 0; q < chunk; q++) {
            const unsigned char *e = buf + q * a->elem;
            uint64_t u = 0;
            for (size_t b = 0; b < a->elem; b++)
                u |= (uint64_t)e[b] << (8 * b);
            if (a->kind == 'u' && u > (uint64_t)INT32_MAX)
                return ckm_fail(err, CKM_ERR_PARSE, "%s: label %zu (0-based) is %llu: labels must be in [0, %d]", path,
                                done + q, (unsigned long long)u, INT32_MAX);
            int64_t v = (int64_t)u;
            if (a->kind == 'i' && a->elem < 8 && (u >> (8 * a->elem - 1)) & 1)
                v = (int64_t)(u | ~((UINT64_C(1) << (8 * a->elem)) - 1)); /* sign-extend */
            if (v < 0 || v > INT32_MAX)
                return ckm_fail(err, CKM_ERR_PARSE, "%s: label %zu (0-based) is %lld: labels must be in [0, %d]", path,
                                done + q, (long long)v, INT32_MAX);
            out[done + q] = (int32_t)v;
        }
        done += chunk;
    }
    return CKM_OK;
}

/* header of a version 1.0 file for descr and shape, padded so the data starts at a multiple
 * of 64 bytes; returns its length */
static size_t header(char *buf, size_t cap, const char *descr, size_t n, size_t d, int two_d)
{
    char dict[200];
    int len = two_d ? snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }", descr,
                               n, d)
                    : snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu,), }", descr, n);
    size_t total = 10 + (size_t)len + 1;
    size_t padded = (total + 63) / 64 * 64;
    if (padded > cap)
        return 0;
    memcpy(buf, MAGIC, 6);
    buf[6] = 1;
    buf[7] = 0;
    size_t hl = padded - 10;
    buf[8] = (char)(hl & 0xff);
    buf[9] = (char)(hl >> 8);
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', padded - 10 - (size_t)len - 1);
    buf[padded - 1] = '\n';
    return padded;
}

static ckm_error write_npy(const char *path, const char *descr, size_t n, size_t d, int two_d, const void *data,
                           size_t bytes, ckm_err *err)
{
    char head[256];
    size_t hl = header(head, sizeof head, descr, n, d, two_d);
    if (!hl || bytes > SIZE_MAX - hl)
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: array too large", path);
    size_t total = hl + bytes;
    char *buf = malloc(total);
    if (!buf)
        return ckm_fail(err, CKM_ERR_NOMEM, "out of memory writing %s", path);
    memcpy(buf, head, hl);
    memcpy(buf + hl, data, bytes);
    ckm_error rc = ckm_write_file_atomic(path, buf, total, err);
    free(buf);
    return rc;
}

ckm_error ckm_npy_write_labels(const char *path, const int32_t *labels, size_t n, ckm_err *err)
{
    return write_npy(path, "<i4", n, 1, 0, labels, n * sizeof(int32_t), err);
}

ckm_error ckm_npy_write_matrix(const char *path, const double *X, size_t n, size_t d, ckm_err *err)
{
    size_t bytes;
    if (!ckm_mul_ok(n * d, sizeof(double), &bytes))
        return ckm_fail(err, CKM_ERR_NOMEM, "%s: array too large", path);
    return write_npy(path, "<f8", n, d, 1, X, bytes, err);
}
