/*
 * transport_ws.h -- the buffers of the transportation solver (transport.c, transport_points.c),
 * kept from one solve to the next: sizeflow's Lloyd steps solve problems of one shape, so
 * after the first step a step allocates nothing of size n, k^2, k^2 L or n k (a matrix
 * allocated and freed per step cost 10^6 x 16, k = 100 a page fault per 4 KiB of its
 * 800 MB at every step: sys time 194 s of a 250 s run).
 * Invariants:
 *   - every buffer holds at least what the last ckm_transport_ws_reserve asked for, and
 *     a buffer only grows (never shrinks until ckm_transport_ws_free);
 *   - bytes counts every byte ever allocated through the workspace (reserves, member-list
 *     growth, the matrix, the sample's buffers and its own workspace), so a caller can
 *     show that a step allocated nothing (tests/internal/test_transport.c).
 */
#ifndef CKM_TRANSPORT_WS_H
#define CKM_TRANSPORT_WS_H

#include "transport_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the points of one cluster (SSP's member lists) */
typedef struct ckm_members {
    int32_t *a;
    size_t len, cap;
} ckm_members;

struct ckm_transport_ws {
    size_t bytes;                       /* allocated over the workspace's life */
    size_t n_cap, k_cap, kk_cap, kkL_cap;
    size_t *pos;                        /* n */
    ckm_members *mem;                   /* k */
    long long *size, *f, *cap, *e;      /* k + 1 */
    double *pi, *dist;                  /* k + 1 */
    double *gate;                       /* k + 1: a search's settled nodes (INFINITY, else 0:
                                           added to dist, it keeps them out) */
    int *pred, *order;                  /* k + 1 */
    int32_t *pred_pt;                   /* k + 1 */
    size_t *cnt, *slo, *shi;            /* k + 1: imbalance counts, the sample's bounds */
    uint8_t *len;                       /* k^2 */
    double *tau, *head, *headT;         /* k^2 */
    double *key;                        /* k^2 L */
    int32_t *pt;                        /* k^2 L */
    double *cost;                       /* the n x k matrix of ckm_transport_points */
    size_t cost_cap;
    double *sc;                         /* the sample's costs (transport.c, sample_prices) */
    size_t sc_cap;
    int32_t *slab;                      /* the sample's labels */
    size_t slab_cap;
    struct ckm_transport_ws *sub;       /* the sample's own solve */
};

/* The solver's buffers, kept between solves of one shape: with one
 * workspace, Lloyd steps after the first allocate nothing. NULL wherever a workspace is
 * taken: the call allocates and frees its own. */
typedef struct ckm_transport_ws ckm_transport_ws;
ckm_transport_ws *ckm_transport_ws_new(void); /* NULL when out of memory */
void ckm_transport_ws_free(ckm_transport_ws *ws);
/* Bytes the workspace has allocated over its life (0 for NULL). */
size_t ckm_transport_ws_bytes(const ckm_transport_ws *ws);

/* Buffers for n points, k clusters and move lists of L entries; false when out of memory
 * (then the workspace holds what it held, still valid for ckm_transport_ws_free). The
 * member lists come back empty (len 0), their capacity kept. */
bool ckm_transport_ws_reserve(ckm_transport_ws *w, size_t n, size_t k, size_t L);
/* *p holds at least count elements of elem bytes (grown, contents not kept, when *cap is
 * smaller); false when out of memory or count * elem overflows. */
bool ckm_transport_ws_array(ckm_transport_ws *w, void **p, size_t *cap, size_t count, size_t elem);
/* Member list a holds room for need entries (grown by doubling, counted in bytes). */
bool ckm_transport_ws_members(ckm_transport_ws *w, size_t a, size_t need);

#endif
