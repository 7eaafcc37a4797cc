/*
 * npy.h -- numpy .npy files (internal; npy.c states the format and what is accepted).
 */
#ifndef CKM_NPY_H
#define CKM_NPY_H

#include "ckm.h"

typedef struct ckm_npy {
    int fd;             /* positioned at the first data byte after ckm_npy_open */
    char descr[16];     /* e.g. "<f8" */
    char kind;          /* 'f', 'i' or 'u' */
    size_t elem;        /* bytes per element */
    size_t ndim;        /* 1 or 2 */
    size_t shape[2];    /* (n, d); d = 1 for 1-D */
    size_t count;       /* n * d */
    size_t data_offset;
} ckm_npy;

/* 1 when path starts with the .npy magic / ends in ".npy". */
int ckm_npy_is(const char *path);
int ckm_npy_path(const char *path);
/* Open and validate the header (dtype supported, C order, data size = file size). */
ckm_error ckm_npy_open(const char *path, ckm_npy *a, ckm_err *err);
/* The elements as doubles (count entries; float arrays only), all finite. */
ckm_error ckm_npy_read_doubles(const char *path, ckm_npy *a, double *out, ckm_err *err);
/* Rows [first, first + rows) of a 2-D float array as doubles (read by offset), all finite. */
ckm_error ckm_npy_read_rows(const char *path, ckm_npy *a, size_t first, size_t rows, double *out, ckm_err *err);
/* The elements as labels in [0, INT32_MAX] (1-D integer arrays only). */
ckm_error ckm_npy_read_labels(const char *path, ckm_npy *a, int32_t *out, ckm_err *err);
void ckm_npy_free(ckm_npy *a);
/* Atomic writers: labels '<i4' (n,), a matrix '<f8' (n, d). */
ckm_error ckm_npy_write_labels(const char *path, const int32_t *labels, size_t n, ckm_err *err);
ckm_error ckm_npy_write_matrix(const char *path, const double *X, size_t n, size_t d, ckm_err *err);

#endif
