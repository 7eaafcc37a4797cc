/*
 * objective.h -- internal objective kernels: centers from labels, nearest-center
 * assignment through BLAS dgemm.
 */
#ifndef CKM_OBJECTIVE_H
#define CKM_OBJECTIVE_H

#include "ckm.h"

#include <stdbool.h>

/* centers (k*d) = means of the labelled points; sizes (k) filled when non-NULL. An empty
 * cluster gets a zero center. Labels must be in [0, k). */
ckm_error ckm_centers_from_labels(const double *X, const double *w, size_t n, size_t d,
                                  const int32_t *labels, size_t k, double *centers, size_t *sizes,
                                  ckm_err *err);

/* Four-lane vectors (GCC vector extensions) for the kernels' hand-vectorised loops
 * (screen.c, yinyang.c, greedy_sizes.c): SSE2 pairs by default, one AVX2 register each in the
 * target_clones("avx2") versions. */
typedef double ckm_v4d __attribute__((vector_size(32)));
typedef long long ckm_v4l __attribute__((vector_size(32)));
typedef float ckm_v4f __attribute__((vector_size(16)));
typedef int ckm_v4i __attribute__((vector_size(16)));
/* m ? a : b lane by lane, m a ckm_v4l comparison mask (a macro: it must inline into the
 * target_clones versions) */
#define CKM_V4D_PICK(m, a, b) ((ckm_v4d)(((ckm_v4l)(a) & (m)) | ((ckm_v4l)(b) & ~(m))))

/* ||a - b||^2 summed term by term in feature order (inline: the hot loops of seeding and
 * bounds call it per point). */
static inline double ckm_sqdist(const double *a, const double *b, size_t d)
{
    double s = 0.0;
    for (size_t f = 0; f < d; f++) {
        double t = a[f] - b[f];
        s += t * t;
    }
    return s;
}

/* out[i] = ||A_i||^2 for the m rows of A (m*d), summed in feature order: the one way every
 * kernel computes the norms of its distance expansion. */
void ckm_row_norms(const double *A, size_t m, size_t d, double *out);

/* mu (d) = the column means of the m rows of A (m*d): each column summed in row order, then
 * divided by m (the mean the single-precision copies are centred on: screen.c, seeding.c). */
void ckm_column_means(const double *A, size_t m, size_t d, double *mu);

/* Workspace for nearest-center search with k centers of dimension d. */
typedef struct ckm_nearest_ws {
    size_t k, d;
    int threads;      /* worker threads (>= 1) */
    size_t block;     /* rows per dgemm call */
    double *gram;     /* threads * block * k */
    double *cnorm;    /* k */
    double *panel;    /* CKM_FUSED_MIN_D <= d <= CKM_FUSED_MAX_D: the centers in panels of 8
                         (nearest_fused.c), else NULL */
    double *pnorm;    /* their norms, +inf for the padding */
    bool fma;         /* the fused pass's AVX2 + FMA kernel runs on this CPU */
} ckm_nearest_ws;

/* The fused pass (nearest_fused.c), used by ckm_nearest for CKM_FUSED_MIN_D <= d <=
 * CKM_FUSED_MAX_D (measured, 20 plain steps at 10^6 points: 20-22 % faster than dgemm and
 * the argmin at d = 4, 16 and 32, k = 100-1000; the same at d = 8, k = 5; 5-20 % slower at
 * d = 2-3, where the argmin outweighs the products; no gain at d = 64): panel
 * ((k + 7) / 8 * 8 * d) and pnorm ((k + 7) / 8 * 8) from the centers C and their norms;
 * labels and distances of rows [r0, r1) as ckm_nearest gives them (fma: the AVX2 + FMA
 * kernel, only where ckm_fused_available). */
#define CKM_FUSED_MIN_D 4
#define CKM_FUSED_MAX_D 32
void ckm_fused_panels(const double *C, const double *cnorm, size_t k, size_t d, double *panel, double *pnorm);
bool ckm_fused_available(void);
void ckm_fused_rows(const double *Y, const double *ynorm, size_t r0, size_t r1, size_t d, const double *panel,
                    const double *pnorm, size_t k, bool fma, int32_t *label, double *dist);

/* threads: 0 = all cores. */
ckm_error ckm_nearest_ws_init(ckm_nearest_ws *ws, size_t k, size_t d, int threads, ckm_err *err);
void ckm_nearest_ws_free(ckm_nearest_ws *ws);

/* For every point i < m: label[i] = argmin_j ||y_i - c_j||^2 (ties to the lowest j) and
 * dist[i] = that squared distance (clamped at 0), using ||y||^2 - 2 y.c + ||c||^2 with the
 * cross term from dgemm (or the fused pass, ckm_fused_rows). ynorm holds ||y_i||^2.
 * The result does not depend on the thread count. */
void ckm_nearest(const double *Y, const double *ynorm, size_t m, const double *C,
                 ckm_nearest_ws *ws, int32_t *label, double *dist);

/* ckm_nearest with a hook: row(row_ctx, i, g, j, tid) is called for every row i after its
 * argmin j, with g[c] = y_i . c_c (k entries, valid during the call; ws->cnorm holds
 * ||c_c||^2, so ||y_i||^2 + ws->cnorm[c] - 2 g[c] is the squared distance exactly as
 * ckm_nearest computes it); tid < ws->threads names the calling thread. label and dist
 * may be NULL. */
typedef void (*ckm_nearest_row_fn)(void *ctx, size_t i, const double *g, size_t j, int tid);
/* argmin_c ||c||^2 - 2 y.c over the k values cn[c] - 2 g[c] (the lowest index among equal
 * least values, as ckm_nearest); *best = the least value. */
size_t ckm_row_argmin(const double *cn, const double *g, size_t k, double *best);
void ckm_nearest_rows(const double *Y, const double *ynorm, size_t m, const double *C,
                      ckm_nearest_ws *ws, int32_t *label, double *dist, ckm_nearest_row_fn row,
                      void *row_ctx);

/* A full nearest-center pass in single precision with plain Lloyd's labels (screen.c):
 * rows whose float argmin is certain go to `certain`, the rest through the plain double
 * computation (ckm_nearest_rows) to `exact`. */
typedef void (*ckm_screen_row_fn)(void *ctx, size_t i, const double *e, double ynf, double E, size_t j, int tid);
typedef struct ckm_screen {
    size_t s, d, k, block;
    int threads;
    bool own;                /* small k d: our threads (or the caller alone) run single-threaded
                                sgemm calls, each thread its own product buffer */
    bool float_only;         /* every row decided by its float argmin (CKM_PRECISION_SINGLE) */
    const double *Y, *ynorm; /* borrowed: the points and ||y||^2 */
    float *Yf;               /* s*d: fl32(y - mu) */
    double *ynf, *mu;        /* s: ||y'||^2; d: the points' mean */
    float *Cf;               /* k*d: fl32(c - mu) of the current pass */
    double *cnf, cmax;       /* k: ||c'||^2; their maximum */
    double cmax_plain;       /* max ||c||^2 (uncentred) */
    float *gram;             /* block * k (times threads when own) */
    double *erow;            /* threads * k */
    char *unsure;            /* s */
    double *Yg, *yng;        /* gathered uncertain rows */
    size_t *idx;
    size_t unsure_rows;      /* of the last pass */
} ckm_screen;

ckm_error ckm_screen_init(ckm_screen *sc, const double *Y, const double *ynorm, size_t s, size_t d, size_t k,
                          int threads, ckm_err *err);
void ckm_screen_free(ckm_screen *sc);
/* One pass over all s rows against the k centers C, taken in the order `order` (k
 * entries, position q -> center order[q]; NULL: q itself). certain(ctx, i, e, ynf, E, j):
 * ynf + e[q] is within E of ||y_i - c_order[q]||^2 (e valid during the call, by position),
 * j is the argmin's center index and tid < sc->threads names the calling thread.
 * exact(ctx, i, g, j, tid) as ckm_nearest_rows's hook (double row by center index, its
 * argmin). Returns the number of rows that took the exact route. */
size_t ckm_screen_pass(ckm_screen *sc, const double *C, const size_t *order, ckm_nearest_ws *near,
                       ckm_screen_row_fn certain, ckm_nearest_row_fn exact, void *ctx);
/* The same pass on rows [r_begin, r_end) only (r_begin a multiple of sc->block, so that
 * every row meets the block layout of a whole pass); near may be NULL under float_only,
 * where no row takes the exact route. */
size_t ckm_screen_pass_range(ckm_screen *sc, const double *C, const size_t *order, ckm_nearest_ws *near,
                             ckm_screen_row_fn certain, ckm_nearest_row_fn exact, void *ctx, size_t r_begin,
                             size_t r_end);

/* Lloyd's assignment step with Yinyang bounds (yinyang.c): the labels ckm_nearest would
 * give, measuring few distances once the centers settle. */
typedef struct ckm_yinyang {
    size_t s, d, k, t;  /* points, dimension, centers, center groups */
    int threads;
    size_t *group;      /* k: group of each center */
    size_t *gstart;     /* t + 1: centers of group g are gmem[gstart[g] .. gstart[g+1]) */
    size_t *gmem;       /* k */
    size_t *pos;        /* k: position of center c in gmem */
    double *row;        /* threads * k: a dgemm row's ||c||^2 - 2 y.c during a reset */
    double *ub;         /* s: upper bound on the distance to the assigned center, minus
                           cum[assigned] */
    float *lb;          /* s * t: lower bound per group (excluding the assigned center),
                           plus gcum[group], rounded down */
    double *drift, *gdrift, *cnorm; /* k, t, k: the last step's */
    double *cum, *gcum; /* k, t: drifts summed since the last reset */
    float *glb;         /* s: min_g of the lower bounds, plus allcum, rounded down */
    double allcum;      /* largest group drift summed since the last reset */
    double *scratch;    /* threads * 3t */
    size_t *sidx;       /* threads * 3t */
    size_t *tcount;     /* threads * 2: labels changed, distances measured */
    size_t *hard;       /* s: a step's points measured by whole rows (each thread a slice
                           from its range's start) */
    double *hy, *hg;    /* threads * hblock * d, threads * hblock * k: their rows, products */
    double *cg, *cgn;   /* k * d, k: a step's centers and their squared norms in group order */
    size_t hblock;      /* rows per dgemm block of those (0: k d too large, none) */
    double ymax, margin;
    size_t measured;    /* distances measured by the last reset or step */
} ckm_yinyang;

/* The group count for k centers in R^d: max(1, k / 10) where steps measure whole rows
 * (k d <= 2^14), else max(1, k / 20) (measured; the paper uses k / 10). */
size_t ckm_yinyang_groups_for(size_t k, size_t d);
/* Bytes the bounds of s points take (ckm_yinyang_init with ckm_yinyang_groups_for's t):
 * 8 s (upper) + 4 s (t + 1) (lower, global) + 8 s (a step's whole-row list, k d <= 2^14). */
double ckm_yinyang_bytes(size_t s, size_t d, size_t k);
/* t groups (1 <= t <= k; others mean 1); threads as for ckm_nearest_ws_init. */
ckm_error ckm_yinyang_init(ckm_yinyang *yy, size_t s, size_t d, size_t k, size_t t, int threads,
                           ckm_err *err);
void ckm_yinyang_free(ckm_yinyang *yy);
/* Group the centers C (k*d); call once per run before the first reset. */
void ckm_yinyang_group(ckm_yinyang *yy, const double *C);
/* Fresh bounds for the centers C from a full pass, and the labels ckm_nearest gives:
 * through the single-precision screen when sc is non-NULL, else by dgemm alone. */
void ckm_yinyang_reset(ckm_yinyang *yy, const double *Y, const double *ynorm, const double *C,
                       ckm_nearest_ws *near, ckm_screen *sc, int32_t *labels);
/* The centers moved from Cold to C: update the bounds and relabel (the argmin over C);
 * true. false (and nothing changed but the bounds, now unusable) when the step would cost
 * more than 0.8 of a full pass (estimated on a sample): a full pass is cheaper then. */
bool ckm_yinyang_step(ckm_yinyang *yy, const double *Y, const double *ynorm, const double *Cold,
                      const double *C, int32_t *labels);

/* Center j jumped by `jump` (its new position is point i, which moved from cluster
 * `from` to j: kmeans' empty-cluster repair): the bounds stay valid at O(1) cost. */
void ckm_yinyang_jump(ckm_yinyang *yy, size_t j, double jump, size_t i, size_t from);

/* dist[i] = ||y_i - c_labels[i]||^2 as ||y||^2 + ||c||^2 - 2 y.c, clamped at 0: O(s d). */
void ckm_yinyang_assigned(const double *Y, const double *ynorm, size_t s, size_t d, const double *C,
                          const int32_t *labels, double *dist);

/* out (m*k) = squared distances ||y_i - c_j||^2 (clamped at 0), by dgemm per block of rows
 * on threads (as settings; every value the same whatever the count). */
ckm_error ckm_sqdist_matrix(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out, int threads,
                            ckm_err *err);
/* The same with the centers' squared norms cnorm (k) given: no allocation, so no error
 * (restricted_costs.c's blocks of costs). */
void ckm_sqdist_rows(const double *Y, size_t m, size_t d, const double *C, const double *cnorm, size_t k, double *out,
                     int threads);
/* The same, asking stop(stop_ctx) before each run of blocks of about 2^23 entries (10^6 x 100
 * takes about 0.5 s, page faults included); a yes leaves out half written and *stopped
 * true. The block layout, so every written value, is ckm_sqdist_matrix's. */
ckm_error ckm_sqdist_matrix_poll(const double *Y, size_t m, size_t d, const double *C, size_t k, double *out,
                                 int threads, bool (*stop)(const void *), const void *stop_ctx, bool *stopped,
                                 ckm_err *err);

/* The data as the algorithms see them (scale.c): X itself, or a copy transformed by
 * x -> (x - mu) 2^-e (center) or x -> x 2^-e, with the way back for objectives (times 4^e)
 * and centers. */
typedef struct ckm_scaled {
    const double *X; /* n*d: the points to cluster (the caller's, or own) */
    double *own;     /* the transformed copy, or NULL */
    double *mu;      /* d column means (used when center) */
    size_t d;
    int e;
    bool center;
} ckm_scaled;

ckm_error ckm_scaled_init(ckm_scaled *sc, const double *X, size_t n, size_t d, ckm_err *err);
bool ckm_scaled_active(const ckm_scaled *sc);
void ckm_scaled_free(ckm_scaled *sc);
/* an objective (SSE, bound) of the transformed data in the data's units */
double ckm_scaled_objective(const ckm_scaled *sc, double v);
/* k*d centers of the transformed data, in place, to the data's coordinates */
void ckm_scaled_centers(const ckm_scaled *sc, double *C, size_t k);

#endif
