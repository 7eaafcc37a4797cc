/*
 * algo.h -- the ONE internal interface every algorithm implements: a function from the run
 * context and the reduced problem (super-points, lifted cannot-links, bounds) to one label
 * per super-point (ckm_algo_out, run.h), and its registry row with everything the driver
 * needs to know about it. An algorithm never expands labels, computes the reported SSE or
 * checks constraints: the driver (src/solve/solve.c) does that, identically for all.
 */
#ifndef CKM_ALGO_H
#define CKM_ALGO_H

#include "ckm.h"
#include "reduced.h"
#include "run.h"

typedef ckm_error (*ckm_algo_run)(const ckm_context *ctx, const ckm_reduced *r,
                                  ckm_algo_out *out, ckm_err *err);

/* Estimated peak bytes of an algorithm's own work on r with `threads` workers and the
 * assignment distance dist, beyond the
 * driver's share (the memory model, docs/memory.md; src/solve/memory.c adds the driver's). */
typedef double (*ckm_algo_bytes)(const ckm_reduced *r, ckm_distance dist, int threads);

/* A registry row, defined in the algorithm's own file and listed by src/solve/registry.c:
 * everything the driver needs to know about the algorithm. info.default_max_iter is the one
 * place its iteration default is written (the run context carries it as ctx->max_iter;
 * ckm.h, the CLI's help and docs/cli.md are checked against it by tests/cli/defaults.sh). */
typedef struct ckm_algo {
    ckm_algorithm_info info;
    ckm_algo_run run;
    ckm_algo_bytes bytes;
} ckm_algo;

const ckm_algo *ckm_algo_lookup(const char *name);

/* Every algorithm (src/algo/<name>.c) defines its row, `const ckm_algo ckm_algorithm_<name>`,
 * with its run and estimate static in its file; src/solve/registry.c lists the rows. */

#endif
