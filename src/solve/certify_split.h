/*
 * certify_split.h -- the split of the must-link groups into T subsets that each look like the
 * whole (anticlustering), and the choice of T (certify_split.c), for ckm_certify (certify.c;
 * docs/certify.md).
 */
#ifndef CKM_CERTIFY_SPLIT_H
#define CKM_CERTIFY_SPLIT_H

#include "reduced.h"

#include <stdbool.h>

typedef struct ckm_split_stats {
    double loss_dealt;  /* split loss after dealing (see ckm_certify_split), SSE units */
    double loss;        /* after the swaps */
    int sweeps;
    size_t swaps;
} ckm_split_stats;

/* Split r's s groups into T subsets (sub[t] in [0, T) for every group t), given one label per
 * group (glabel, in [0, k)). Every subset gets floor(s/T) or ceil(s/T) groups, and every
 * cluster's groups are dealt evenly (counts per subset differ by at most one). Then swaps of
 * two groups of the same cluster between two subsets lower the split loss
 *     loss = sum_t sum_j M_tj ||mu_tj - mu_j||^2
 * (M_tj, mu_tj: mass and weighted mean of cluster j's groups in subset t; mu_j: of all of
 * cluster j): by the parallel axis theorem the labelling's SSE equals the sum over subsets of
 * its SSE restricted to each (each cluster with the subset's own mean) plus this loss, so the
 * swaps raise the subsets' restricted SSEs, which bound their optima from above: the cheap
 * proxy of how high the subsets' bounds can go. Deterministic for a seed. */
ckm_error ckm_certify_split(const ckm_reduced *r, const int32_t *glabel, size_t T, uint64_t seed, size_t *sub,
                            ckm_split_stats *st, ckm_err *err);

/* Subsets for s groups and k clusters when the caller gives none: each subset's SDP root
 * (about CKM_CERTIFY_ITERATIONS iterations of the solver's cost model,
 * ckm_sdp_iteration_estimate_s) on `workers` threads within half of time_limit_s
 * (<= 0: none, then subsets of CKM_CERTIFY_DEFAULT_GROUPS groups), the memory of `workers`
 * relaxations within mem_bytes (< 0: unknown), at most CKM_SDP_MAX_GROUPS groups each, and
 * at least 4k + 1 groups each when s allows; one subset for k = 1 (exact: the total scatter). */
#define CKM_CERTIFY_ITERATIONS 1000
#define CKM_CERTIFY_DEFAULT_GROUPS 400
size_t ckm_certify_subset_count(size_t s, size_t k, double time_limit_s, int workers, double mem_bytes);

/* The most groups a subset may have: CKM_SDP_MAX_GROUPS, and `workers` relaxations (~120 m^2
 * bytes each, ckm_bytes_ipc) within half of mem_bytes (<= 0: unknown). */
size_t ckm_certify_groups_cap(int workers, double mem_bytes);

/* The split's floor (certify_floor.c) against the subset count ckm chooses (certify.c,
 * bound_replanned): a split made for a time limit is coarsened, at most CKM_CERTIFY_COARSEN
 * times, to ceil(T/2) subsets when its floor exceeds CKM_CERTIFY_FLOOR_MAX (a fraction of the
 * labels' SSE) and its first subsets' SDPs finish within their share or leave less than
 * CKM_CERTIFY_SDP_SMALL of the floor (the relaxation, not the split, is then near done), or to
 * ckm_certify_coarser(T) when that split's floor is lower by more than CKM_CERTIFY_WORTH times
 * the SDP part the first subsets show and its own first subsets (at most
 * CKM_CERTIFY_PROBE_SHARE of the time) promise a smaller gap. Measured at -t 300 on 2 threads (bench/README.md "The
 * split's floor"): AVOC's Facebook, floor 6.5 % at T = 18, certified 6.64 %, at T = 7 2.63 %;
 * Pulsar, floor 1.0 % at T = 70, certified 3.03 %, at T = 30 10.1 % (its larger subsets' SDPs
 * bound far less in their time): a floor near 1 % is not worth larger subsets there, while on
 * 10^5 overlapping blobs (k = 10) the SDP part barely grows from 109 to 250 groups a subset
 * and the floor falls from 0.92 % to 0.20 %. */
#define CKM_CERTIFY_FLOOR_MAX 0.02
#define CKM_CERTIFY_COARSEN 2
#define CKM_CERTIFY_WORTH 0.5
#define CKM_CERTIFY_PROBE_SHARE 0.15
/* Facebook at T = 18 (-t 300, 2 threads): floor 6.49 %, the probes' SDP part 0.144 %, but one
 * probe ran its 50 short cut rounds (ipc.c's schedule for a share) and its final solve to the
 * share's end: without this rule the split stayed at 18 subsets and certified 6.64 %, where
 * halving certified 2.29 % (bench/README.md "The short schedule on the real sets; a pool that
 * grows"). */
#define CKM_CERTIFY_SDP_SMALL 0.25

/* Whether re-planning halves a split at once: its floor (SSE minus the sum of the subsets'
 * least SSEs) above CKM_CERTIFY_FLOOR_MAX of the labels' SSE, and its probes either all
 * finished within their share or leave an SDP part (their least SSEs minus their bounds,
 * scaled to the split) below CKM_CERTIFY_SDP_SMALL of the floor. All in the labels' units. */
static inline bool ckm_certify_halve_at_once(double sse, double floor, double sdp, bool finished)
{
    return floor > CKM_CERTIFY_FLOOR_MAX * sse && (finished || sdp < CKM_CERTIFY_SDP_SMALL * floor);
}

/* the subset count after one coarsening by measurement: ceil(3 T / 5) */
static inline size_t ckm_certify_coarser(size_t T) { return (3 * T + 4) / 5; }

#endif
