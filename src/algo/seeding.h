/*
 * seeding.h -- initial centers (k-means++ or random points) on a reduced problem.
 */
#ifndef CKM_SEEDING_H
#define CKM_SEEDING_H

#include "ckm.h"
#include "core.h"
#include "reduced.h"

typedef struct ckm_seeder {
    const ckm_reduced *r;
    size_t s, d, k, trials;
    int threads;
    const double *Y;
    double *w, *closest, *cumsum, *cand_dist, *partial;
    size_t *pick;
} ckm_seeder;

ckm_error ckm_seeder_init(ckm_seeder *ws, const ckm_reduced *r, int threads, ckm_err *err);
void ckm_seeder_free(ckm_seeder *ws);
/* C (k*d) = initial centers; init RANDOM or KMEANSPP (DEFAULT means KMEANSPP). */
void ckm_seed_centers(ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C);
struct ckm_context;
/* The starting centers of a restart: the caller's (ctx->init_centers) when given, else
 * ckm_seed_centers, whose k-means++ then polls ctx's stop once per center (on a stop the
 * remaining centers repeat the first: the caller must check ckm_ctx_stop next). */
void ckm_seed_start(const struct ckm_context *ctx, ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C);

#endif
