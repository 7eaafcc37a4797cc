/*
 * transport_types.h -- the types every file of src/transport shares (no functions): the
 * solver's statistics, its workspace handle (transport_ws.h has the buffers) and the size
 * up to which the n x k costs are stored. Prefix ckm_transport_.
 */
#ifndef CKM_TRANSPORT_TYPES_H
#define CKM_TRANSPORT_TYPES_H

#include "backend.h"
#include "ckm.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The solver's buffers, kept between solves of one shape (transport_ws.h): with one
 * workspace, Lloyd steps after the first allocate nothing. NULL wherever a workspace is
 * taken: the call allocates and frees its own. */
typedef struct ckm_transport_ws ckm_transport_ws;

typedef struct ckm_transport_stats {
    size_t augmentations; /* shortest-path augmentations performed */
    size_t searches;      /* Dijkstra searches (each serves one or more augmentations) */
    size_t backward;      /* of which backward, from the deficits */
    size_t moves;         /* points moved between clusters by augmentations */
    size_t clamped;       /* negative reduced costs (rounding) clamped to 0 in the searches */
    size_t passes;        /* ckm_transport_points: pricing rounds (each prices the rows in doubt) */
    size_t rows_priced;   /* ckm_transport_points: rows whose k costs were computed, summed
                             over the rounds (n per full pass) */
    size_t vouched;       /* ckm_transport_points: rows a check passed on their margin alone
                             (the prices and centers moved less since), summed over the
                             checks */
    size_t widened;       /* ckm_transport_points: times the candidate lists were doubled */
    size_t width;         /* ckm_transport_points: candidate clusters per point at the end
                             (k on the matrix route) */
    size_t repriced;      /* ckm_transport_points: passes that found arcs the lists lacked */
    size_t quick;         /* ckm_transport_points: optimality shown without a second pass */
    size_t rebased;       /* ckm_transport_points: times every row's bound was moved to one
                             epoch (the epochs' slots used up) */
    size_t bids;          /* auction.c: bids made for starting prices */
    size_t reauctions;    /* ckm_transport_points: auctions after an SSP round whose prices
                             left the argmin labels far off the bounds */
    size_t auction_phases; /* auction.c: completed epsilon phases */
    int stopped;          /* the limits stopped the solve: labels and prices are unusable */
    double seconds;
} ckm_transport_stats;

/* Up to this many costs (2 GiB) ckm_transport_points may store the n x k matrix, and only
 * while k^3 <= CKM_TRANSPORT_MATRIX_CUBE n: past that the matrix solver's k x k move lists
 * (transport.c) cost more than pricing on candidate arcs. Measured on sizeflow's balanced
 * runs (16 dimensions, overlapping and separated blobs, 20 steps, 2026-12-07,
 * bench/README.md "Which route, by k"): the two routes tie near k = 50 at n = 10^4, 100 at
 * 10^5 and 170-200 at 10^6 (there the candidates need a third of the matrix's memory); k^3 =
 * 5 n puts the switch at 37, 79 and 171. At 10^5 points, k = 1000 the candidates took
 * 9.1-11.5 s, the matrix 98-134 s. */
#define CKM_TRANSPORT_MATRIX_MAX ((size_t)1 << 28)
#ifndef CKM_TRANSPORT_MATRIX_CUBE /* a bench build may set it: 0 = never the matrix, 10^18 = by n k alone */
#define CKM_TRANSPORT_MATRIX_CUBE ((size_t)5)
#endif

#endif
