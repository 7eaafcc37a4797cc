/*
 * seeding.h -- initial centers (k-means++ or random points) on a reduced problem.
 */
#ifndef CKM_SEEDING_H
#define CKM_SEEDING_H

#include "ckm.h"
#include "core.h"
#include "reduced.h"
#include "run.h"

/* The points whose nearest chosen center is a, with S = sum w_t D(t)^2 and R2 = max D(t)^2
 * over them (seeding.c). */
typedef struct ckm_seed_list {
    int32_t *pt;
    size_t len, cap;
    double S, R2;
} ckm_seed_list;

typedef struct ckm_seeder {
    const ckm_reduced *r;
    size_t s, d, k, trials;
    int threads;
    const double *Y;
    const double *w;        /* the groups' weights (r->mass) */
    double *closest;        /* squared distance to the nearest chosen center */
    int32_t *near;          /* that center */
    double *cumsum;         /* running sum of w D^2 in point order (the draws) */
    double *partial;        /* per block of points and trial: gains (scan mode) */
    double *cand_dist;      /* trials x s: scan mode's distances to the trials */
    double *far;            /* trials x k: squared distances of the chosen centers to the trials */
    double *trial_t;        /* d x tp (tp: trials rounded up to 4): the trials' coordinates,
                               feature-major, for scan mode's vector kernel */
    ckm_seed_list *list;    /* k member lists, by nearest chosen center */
    size_t *pick;
    /* the bf16 filter of scan mode (from d = CKM_SEED_FLOAT_FROM_D; seeding.c) */
    uint16_t *Yh;           /* s*d: bf16(y - mu), mu the points' mean, or NULL (filter off) */
    double *fnorm;          /* s: upper bounds on ||y - mu|| */
    double *hnorm;          /* s: ||bf16(y - mu)||^2, summed in double */
    double *rb, *c1;        /* s: the points' shares of the filter's threshold (seeding.c) */
    double f_add, f_inv, f_e, f_up; /* the threshold's constants (depend on d only) */
    float *tile;            /* threads x tile_pts x d: a tile of Yh widened to float */
    size_t tile_pts;
    float *trial_f;         /* d x tf (tf: trials rounded up to 8): the trials' rows (bf16 values) */
    bool filter_tried;      /* the copy was attempted (once per seeder) */
    bool filter;            /* Yh usable */
} ckm_seeder;

/* From this many features, k-means++'s full scans run through a bf16 filter (seeding.c);
 * below it the double kernel alone (16 features: the data are small against the work per
 * point, and the pruning soon takes over). */
#define CKM_SEED_FLOAT_FROM_D 32

/* Can a trial at squared distance far2 from a center come closer than D2 to a point (or a
 * list, with D2 its largest) whose nearest chosen center that is? Not when
 * ||C_a - y|| >= 2 D, tested as far2 >= 4 (1 + 1e-9) D2, a margin far above the rounding of
 * the squares, so only points whose gain is exactly zero are skipped (seeding.c and its MPI
 * twin, dist_seed.c). */
static inline bool ckm_seed_may_gain(double far2, double D2)
{
    return far2 < 4.0 * (1.0 + 1e-9) * D2;
}

/* The draw of k-means++: index t with cumsum[t-1] <= x < cumsum[t] (binary search), clamped
 * to [0, s) (s >= 1; seeding.c, and dist_seed.c on each rank's block). */
size_t ckm_seed_draw(const double *cumsum, size_t s, double x);

/* k distinct indices below n (k <= n), drawn uniformly by rejection of repeats: the random
 * start's draws (seeding.c, dist_seed.c). */
void ckm_seed_distinct(ckm_rng *rng, size_t n, size_t k, size_t *out);

ckm_error ckm_seeder_init(ckm_seeder *ws, const ckm_reduced *r, int threads, ckm_err *err);
void ckm_seeder_free(ckm_seeder *ws);
/* C (k*d) = initial centers; init RANDOM or KMEANSPP (DEFAULT means KMEANSPP). */
void ckm_seed_centers(ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C);
/* The starting centers of a restart: the caller's (ctx->init_centers) when given, else
 * ckm_seed_centers, whose k-means++ then polls ctx's stop once per center (on a stop the
 * remaining centers repeat the first: the caller must check ckm_ctx_stop next). */
void ckm_seed_start(const ckm_context *ctx, ckm_seeder *ws, ckm_init init, ckm_rng *rng, double *C);

#endif
