/*
 * memory.h -- the memory model of a solve and its refusal (memory.c, docs/memory.md).
 */
#ifndef CKM_MEMORY_H
#define CKM_MEMORY_H

#include "algo.h"

/* Memory model (memory.c, docs/memory.md): estimated peak bytes of a solve of r by a with
 * threads workers and the assignment distance dist (the driver's share + a->bytes), and the refusal (CKM_ERR_NOMEM naming it
 * and ckm_memory_available) of a solve whose estimate exceeds what is available. */
double ckm_memory_estimate(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled);
ckm_error ckm_memory_check(const ckm_algo *a, const ckm_reduced *r, ckm_distance dist, int threads, int rescaled,
                           ckm_err *err);

#endif
