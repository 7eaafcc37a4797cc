/*
 * ckm.h -- the only public header of ckm, a C11 library for constrained k-means
 * (minimum sum-of-squares clustering with must-link, cannot-link and cluster-size
 * constraints).
 *
 * Conventions (hold for every function below):
 *  - Indices are 0-based. Points are stored row-major: point i, feature f is X[i*d + f].
 *  - Inputs are borrowed; whatever the library keeps it copies.
 *  - Functions that can fail return a ckm_error and, when the caller passes a non-NULL
 *    ckm_err, fill it with the code and a one-line message naming the problem
 *    (file:line:column where it applies). The library never prints, never exits and
 *    installs no signal handlers.
 *  - A proven-infeasible problem or a limit being hit is NOT an error: ckm_solve returns
 *    CKM_OK and the outcome is in ckm_result.status.
 *  - Every *_free function accepts NULL.
 *  - No global mutable state: randomness comes from ckm_settings.seed only, so the same
 *    input and settings give the same output, except where a wall-clock limit ends work
 *    (time_limit_s; with soft pairs or capacities step_limit_s, whose stopped steps the result's
 *    message counts: set it to 0 for runs reproducible on any machine).
 */
#ifndef CKM_H
#define CKM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CKM_API marks the public functions: the shared library is built with hidden visibility
 * and exports exactly these (and nothing internal). CKM_STATIC (defined by ckm.pc's
 * --static flags) is not needed on ELF systems and only affects Windows-style builds. */
#if defined(_WIN32) && !defined(CKM_STATIC)
#  if defined(CKM_BUILDING)
#    define CKM_API __declspec(dllexport)
#  else
#    define CKM_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define CKM_API __attribute__((visibility("default")))
#else
#  define CKM_API
#endif

#define CKM_VERSION_MAJOR 0
#define CKM_VERSION_MINOR 4
#define CKM_VERSION_PATCH 0

/* ------------------------------------------------------------------------------------ */
/* Errors (what went wrong with a call) -- separate from solve outcomes (ckm_status).    */
/* ------------------------------------------------------------------------------------ */

typedef enum ckm_error {
    CKM_OK = 0,
    CKM_ERR_NOMEM,        /* allocation failed or a size computation would overflow */
    CKM_ERR_IO,           /* a file could not be opened, read or written */
    CKM_ERR_PARSE,        /* malformed file content (message has file:line:column) */
    CKM_ERR_INVALID,      /* an argument or problem is invalid (k > n, i = j, lo > hi, ...) */
    CKM_ERR_UNSUPPORTED,  /* valid request this build/algorithm cannot honour */
    CKM_ERR_INTERNAL      /* a library invariant failed: a bug, please report */
} ckm_error;

#define CKM_MESSAGE_LEN 512

/* Largest accepted ckm_settings.threads. */
#define CKM_MAX_THREADS 256

/* Error details. Zero-initialise or leave untouched; functions overwrite it on failure. */
typedef struct ckm_err {
    ckm_error code;
    char message[CKM_MESSAGE_LEN];
} ckm_err;

/* Static English name of an error code ("invalid argument", ...). Never NULL. */
CKM_API const char *ckm_error_string(ckm_error code);

/* ------------------------------------------------------------------------------------ */
/* Version and capabilities                                                             */
/* ------------------------------------------------------------------------------------ */

/* "MAJOR.MINOR.PATCH". */
CKM_API const char *ckm_version(void);

/* Constraint kinds an algorithm honours (bit flags). */
enum {
    CKM_HONOURS_MUST_LINK = 1u << 0,
    CKM_HONOURS_CANNOT_LINK = 1u << 1,
    CKM_HONOURS_SIZE_BOUNDS = 1u << 2,
    CKM_HONOURS_EUCLIDEAN = 1u << 3, /* uses ckm_settings.distance = EUCLIDEAN; the others
                                        refuse it (CKM_ERR_UNSUPPORTED) */
    CKM_HONOURS_SOFT_PAIRS = 1u << 4, /* minimises SSE + penalty of violated soft pairs
                                        (ckm_problem_add_soft_pair); the others refuse a
                                        problem with soft pairs (CKM_ERR_UNSUPPORTED) */
    CKM_HONOURS_CAPACITIES = 1u << 5  /* after 0.4.0: capacity bounds on the clusters' total demand
                                        (ckm_problem_set_capacities); the others refuse a
                                        problem with them (CKM_ERR_UNSUPPORTED) */
};

/* Traits of an algorithm's run (ckm_algorithm_info.traits). */
enum {
    CKM_TRAIT_SEARCH = 1u << 0,     /* branch-and-cut: ckm_result.nodes and root_gap report its tree */
    CKM_TRAIT_OWN_THREADS = 1u << 1 /* its workers each call BLAS: a caller that sets OpenBLAS's thread
                                       count should give it one (the CLI does) */
};

/* Description of one registered algorithm. */
typedef struct ckm_algorithm_info {
    const char *name;        /* value for ckm_settings.algorithm, e.g. "kmeans" */
    const char *summary;     /* one line: method and source */
    unsigned honours;        /* CKM_HONOURS_* flags */
    int proves_optimality;   /* 1 when it can return CKM_STATUS_OPTIMAL */
    int default_max_iter;    /* what ckm_settings.max_iter = 0 means for it (iterations per
                                restart; exact: of the BLPKM iteration at every node) */
    unsigned traits;         /* CKM_TRAIT_* flags */
} ckm_algorithm_info;

/* Number of algorithms compiled into this build. */
CKM_API size_t ckm_algorithm_count(void);
/* Info of algorithm i (0 <= i < ckm_algorithm_count()), or NULL when out of range. */
CKM_API const ckm_algorithm_info *ckm_algorithm_at(size_t i);
/* Info of the algorithm called name, or NULL when there is none. */
CKM_API const ckm_algorithm_info *ckm_algorithm_find(const char *name);

/* ------------------------------------------------------------------------------------ */
/* Datasets and their readers                                                            */
/* ------------------------------------------------------------------------------------ */

typedef enum ckm_format {
    CKM_FORMAT_AUTO = 0,  /* by content: KEEL when a line starts with '@', PC-SOS-SDP when
                             the first line is "n d [k]" and exactly n rows of d values
                             follow, else delimited text */
    CKM_FORMAT_DELIMITED, /* CSV / TSV / ';' / whitespace, delimiter auto-detected */
    CKM_FORMAT_KEEL,      /* KEEL .dat: '@' header lines, '@data', class in last column */
    CKM_FORMAT_PCSOS,     /* PC-SOS-SDP / SOS-SDP: first line "n d [k]", then n rows */
    CKM_FORMAT_NPY        /* numpy .npy: '<f8' or '<f4', shape (n, d) or (n,), C order; AUTO
                             picks it when the file starts with the .npy magic */
} ckm_format;

typedef enum ckm_header_mode {
    CKM_HEADER_AUTO = 0,  /* first data line is a header when none of its fields is a number */
    CKM_HEADER_YES,
    CKM_HEADER_NO
} ckm_header_mode;

#define CKM_LABEL_COLUMN_NONE (-1)
#define CKM_LABEL_COLUMN_LAST (-2)

typedef struct ckm_read_options {
    ckm_format format;       /* default CKM_FORMAT_AUTO */
    ckm_header_mode header;  /* default CKM_HEADER_AUTO (delimited text only) */
    int label_column;        /* 0-based column holding ground-truth labels (any strings,
                                coded 0,1,.. in order of first appearance), or
                                CKM_LABEL_COLUMN_LAST, or CKM_LABEL_COLUMN_NONE (default;
                                KEEL files always take the last column as labels) */
} ckm_read_options;

/* Defaults: AUTO format, AUTO header, no label column. */
CKM_API void ckm_read_options_default(ckm_read_options *opt);

/* A dense dataset. Owned by whoever holds it; free with ckm_dataset_free. */
typedef struct ckm_dataset {
    size_t n;            /* points (rows), >= 1 */
    size_t d;            /* features, >= 1 */
    double *X;           /* n*d, row-major, all finite */
    int32_t *labels;     /* n ground-truth codes 0..n_classes-1, or NULL when none */
    size_t n_classes;    /* distinct labels (0 when labels is NULL) */
    char **class_names;  /* n_classes label strings as read, or NULL */
    size_t k_hint;       /* k stated in a PC-SOS-SDP header line, else 0 */
    ckm_format format;   /* the format actually read */
    int had_header;      /* 1 when a header row was skipped */
} ckm_dataset;

/* Read points from path. On success *out owns a new dataset. Errors: CKM_ERR_IO,
 * CKM_ERR_PARSE ("file:line:col: ..." for empty file, ragged rows, non-numeric, NaN/Inf,
 * n = 0, d = 0), CKM_ERR_NOMEM. */
CKM_API ckm_error ckm_dataset_read(const char *path, const ckm_read_options *opt, ckm_dataset **out,
                           ckm_err *err);

/* Build a dataset from memory (copies X, and labels when non-NULL; labels must be >= 0).
 * Rejects n = 0, d = 0 and non-finite values. */
CKM_API ckm_error ckm_dataset_from_array(const double *X, size_t n, size_t d, const int32_t *labels,
                                 ckm_dataset **out, ckm_err *err);

CKM_API void ckm_dataset_free(ckm_dataset *ds);

/* Standardise every column to mean 0 and population standard deviation 1 (as
 * scikit-learn's StandardScaler); a constant column becomes all zeros. */
CKM_API void ckm_dataset_standardize(ckm_dataset *ds);

/* ------------------------------------------------------------------------------------ */
/* Constraints                                                                           */
/* ------------------------------------------------------------------------------------ */

typedef enum ckm_link { CKM_MUST_LINK = 1, CKM_CANNOT_LINK = -1 } ckm_link;

typedef struct ckm_pair {
    size_t i, j;      /* 0-based point indices, i != j */
    ckm_link type;
    size_t line;      /* source line (1-based) when read from a file, else 0 */
} ckm_pair;

typedef struct ckm_constraints {
    size_t count;
    ckm_pair *pairs;
    double *confidence; /* NULL when every pair is hard; else count entries: 0 for a hard
                           pair, the confidence in (0, 1] of a soft pair (0.4.0) */
} ckm_constraints;

/* Read a constraint file: per line "ML i j" or "CL i j" (the PC-SOS-SDP format), or
 * "i j 1" / "i j -1"; 0-based indices; '#' starts a comment; blank lines ignored.
 * A fourth field makes the pair soft with that confidence: "ML i j 0.8", "CL i j 0.6",
 * "i j -1 0.6"; a confidence must be a number in (0, 1] (1 is still soft: penalised, not
 * enforced). n > 0 enables range checks (index >= n is an error naming line and column).
 * i = j, malformed lines or confidences, and a pair given both as hard ML and hard CL are
 * CKM_ERR_PARSE. Exact duplicates of hard pairs are kept once; soft pairs are all kept
 * (repeats add up, opposite soft pairs net out: docs/soft.md), and a soft pair may lie on
 * a hard one (preprocessing then decides it: ckm_analysis). */
CKM_API ckm_error ckm_constraints_read(const char *path, size_t n, ckm_constraints **out,
                               ckm_err *err);
CKM_API void ckm_constraints_free(ckm_constraints *c);

/* Wagstaff-style random constraints from ground-truth labels (length n): distinct random
 * pairs i < j, ML when the labels agree and CL otherwise, no pair twice. With
 * 0 <= ml_fraction <= 1, exactly round(count * ml_fraction) pairs are ML and the rest CL;
 * with ml_fraction < 0 the type simply follows the labels of uniformly drawn pairs.
 * Errors when count exceeds the available pairs of a type. Deterministic in seed. */
CKM_API ckm_error ckm_constraints_generate(const int32_t *labels, size_t n, size_t count,
                                   double ml_fraction, uint64_t seed, ckm_constraints **out,
                                   ckm_err *err);
/* Write "ML i j" / "CL i j" lines, "ML i j w" for a soft pair (atomic). */
CKM_API ckm_error ckm_constraints_write(const char *path, const ckm_constraints *c, ckm_err *err);

/* Read per-cluster size bounds: one line per cluster, "lo hi" or a single exact size;
 * '#' comments. Exactly k lines are required. lo and hi are written to arrays of length
 * k supplied by the caller. */
CKM_API ckm_error ckm_sizes_read(const char *path, size_t k, size_t *lo, size_t *hi, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Problems                                                                              */
/* ------------------------------------------------------------------------------------ */

/* Opaque: points, k, constraints, size bounds. Copies everything it is given. */
typedef struct ckm_problem ckm_problem;

/* New problem on n points of dimension d (X row-major, finite) with k >= 1 clusters. Size
 * bounds default to lo = 1 (no empty cluster), hi = n. A clustering needs k <= n (ckm_solve
 * and ckm_certify refuse more clusters than points); assigning new points to k given centers
 * (ckm_predict) may have fewer points than centers, with minimum sizes 0. */
CKM_API ckm_error ckm_problem_create(const double *X, size_t n, size_t d, size_t k,
                             ckm_problem **out, ckm_err *err);
/* Like ckm_problem_create, but the problem BORROWS X instead of copying it: X must stay
 * valid and unchanged until ckm_problem_free(p). For large data the caller already holds
 * (a numpy array, a memory map): no copy of n*d doubles. Pairs, bounds and weights are
 * still copied. */
CKM_API ckm_error ckm_problem_wrap(const double *X, size_t n, size_t d, size_t k, ckm_problem **out,
                                   ckm_err *err);
CKM_API void ckm_problem_free(ckm_problem *p);

CKM_API size_t ckm_problem_n(const ckm_problem *p);
CKM_API size_t ckm_problem_d(const ckm_problem *p);
CKM_API size_t ckm_problem_k(const ckm_problem *p);
CKM_API const double *ckm_problem_points(const ckm_problem *p);
/* Number of (deduplicated) must-link / cannot-link pairs held. */
CKM_API size_t ckm_problem_must_link_count(const ckm_problem *p);
CKM_API size_t ckm_problem_cannot_link_count(const ckm_problem *p);

/* Add one pair. Errors: index >= n, i = j, or the same pair already added with the
 * opposite type (CKM_ERR_INVALID). A repeated pair of the same type is ignored. */
CKM_API ckm_error ckm_problem_add_pair(ckm_problem *p, size_t i, size_t j, ckm_link type,
                               ckm_err *err);
/* Soft pair: violating it costs settings.soft_penalty * confidence in the objective
 * (docs/soft.md) instead of being forbidden; confidence in (0, 1]. Pairs are kept as added:
 * a repeated soft pair adds its confidence again, and a soft must-link and a soft
 * cannot-link on the same points net out in the model (one of them is always violated).
 * A soft pair on points the hard constraints already join (same must-link group) or
 * separate (hard cannot-link between their groups) is decided by them: redundant or
 * always violated (counted in ckm_analysis). Errors: index >= n, i = j, confidence not
 * in (0, 1] (CKM_ERR_INVALID). Only algorithms with CKM_HONOURS_SOFT_PAIRS take such a
 * problem. */
CKM_API ckm_error ckm_problem_add_soft_pair(ckm_problem *p, size_t i, size_t j, ckm_link type,
                                            double confidence, ckm_err *err);
/* Number of soft pairs added, and soft pair q (0 <= q < count; CKM_ERR_INVALID otherwise)
 * with its confidence. */
CKM_API size_t ckm_problem_soft_pair_count(const ckm_problem *p);
CKM_API ckm_error ckm_problem_soft_pair(const ckm_problem *p, size_t q, ckm_pair *out, double *confidence,
                                        ckm_err *err);
/* Add every pair of a set, hard and soft (stops at the first invalid one, naming its source
 * line). */
CKM_API ckm_error ckm_problem_add_constraints(ckm_problem *p, const ckm_constraints *c,
                                      ckm_err *err);

/* Same bounds lo <= |C_j| <= hi for every cluster. Errors: lo > hi. (Bounds that no
 * labelling can meet, e.g. k*lo > n, are not errors: solving reports them infeasible.) */
CKM_API ckm_error ckm_problem_set_size_range(ckm_problem *p, size_t lo, size_t hi, ckm_err *err);
/* Per-cluster bounds (arrays of length k); lo == hi gives exact sizes. */
CKM_API ckm_error ckm_problem_set_sizes(ckm_problem *p, const size_t *lo, const size_t *hi,
                                ckm_err *err);
/* Balanced sizes: floor(n/k) <= |C_j| <= ceil(n/k) for every cluster. */
CKM_API void ckm_problem_set_balanced(ckm_problem *p);
/* Current bounds of cluster j. Errors: j >= k (CKM_ERR_INVALID). */
CKM_API ckm_error ckm_problem_size_bounds(const ckm_problem *p, size_t j, size_t *lo, size_t *hi,
                                          ckm_err *err);

/* Sample weights w (n entries, each finite and > 0; copied), or NULL to remove them. Every
 * algorithm then minimises the weighted SSE  sum_i w_i ||x_i - c_l(i)||^2  with weighted
 * means  c_j = sum_{i in C_j} w_i x_i / sum_{i in C_j} w_i;  an integer weight is the same as
 * repeating the row that many times. Size bounds still count points, not weight. Errors:
 * a weight that is 0, negative, NaN or infinite (CKM_ERR_INVALID, naming the row). */
CKM_API ckm_error ckm_problem_set_weights(ckm_problem *p, const double *w, ckm_err *err);
/* The weights set, or NULL when none (all 1). */
CKM_API const double *ckm_problem_weights(const ckm_problem *p);

/* --- after 0.4.0: capacities (docs/capacities.md) ---
 * A demand q_i >= 0 per point (population, workload, tonnage; 0 for a point that loads no
 * cluster: a census block without people, an idle machine), independent of the sample
 * weights (which weight the SSE) and of the size bounds (which count points), and capacity
 * bounds L_j <= sum_{i in C_j} q_i <= U_j on each cluster's total demand (its load). Loads
 * are compared with a tolerance of 1e-9 times the total demand (the rounding of a sum of
 * doubles; ckm_check uses the same). Without demands set, every demand is 1. */
/* Demands q (n entries, each finite and >= 0; copied), or NULL to remove them (all 1).
 * Errors: a demand that is negative, NaN or infinite (CKM_ERR_INVALID, naming the row). */
CKM_API ckm_error ckm_problem_set_demands(ckm_problem *p, const double *q, ckm_err *err);
/* The demands set, or NULL when none (all 1). */
CKM_API const double *ckm_problem_demands(const ckm_problem *p);
/* Same capacity bounds lo <= load(C_j) <= hi for every cluster; hi = INFINITY for no maximum.
 * Errors: lo < 0, lo > hi, NaN, lo infinite (CKM_ERR_INVALID). Bounds no labelling can meet
 * are not errors: solving reports them infeasible, with the reason when a quick proof finds
 * it (total demand outside [sum lo, sum hi], a must-link group above every maximum). */
CKM_API ckm_error ckm_problem_set_capacity_range(ckm_problem *p, double lo, double hi, ckm_err *err);
/* Per-cluster capacity bounds (arrays of length k), checked as above. */
CKM_API ckm_error ckm_problem_set_capacities(ckm_problem *p, const double *lo, const double *hi, ckm_err *err);
/* Remove every capacity bound (the demands stay). */
CKM_API void ckm_problem_clear_capacities(ckm_problem *p);
/* 1 when capacity bounds are set. */
CKM_API int ckm_problem_has_capacities(const ckm_problem *p);
/* Capacity bounds of cluster j (0 and INFINITY when none are set). Errors: j >= k. */
CKM_API ckm_error ckm_problem_capacity_bounds(const ckm_problem *p, size_t j, double *lo, double *hi,
                                              ckm_err *err);

/* What constraint preprocessing finds, without solving: must-link components ("groups"),
 * lifted cannot-links, and the quick infeasibility proofs (sum of minimums > n, sum of
 * maximums < n, a group heavier than every maximum, fewer groups than clusters that need a
 * point, a cannot-link inside a group, a greedy cannot-link clique larger than k, an odd
 * cannot-link cycle when k = 2). ckm_solve runs exactly this first. */
typedef struct ckm_analysis {
    int infeasible;                 /* 1 when a proof succeeded; reason says which */
    char reason[CKM_MESSAGE_LEN];
    size_t groups;                  /* must-link components (0 if a cannot-link lies inside one);
                                       with k = 2 those that cannot-link chains force together
                                       are merged (docs/formulations.md) */
    size_t *group_of;               /* n: group of each point, groups numbered by smallest member;
                                       NULL when groups = 0 */
    size_t *group_size;             /* groups entries, or NULL */
    size_t lifted_cannot_links;     /* distinct cannot-linked group pairs */
    /* --- 0.4.0: soft pairs (docs/soft.md) --- */
    size_t soft_redundant;          /* soft pairs the hard constraints always satisfy */
    size_t soft_contradicted;       /* soft pairs the hard constraints always violate */
    size_t soft_group_pairs;        /* group pairs left in the model after netting */
} ckm_analysis;

CKM_API ckm_error ckm_problem_analyze(const ckm_problem *p, ckm_analysis **out, ckm_err *err);
CKM_API void ckm_analysis_free(ckm_analysis *a);

/* ------------------------------------------------------------------------------------ */
/* Independent checker                                                                   */
/* ------------------------------------------------------------------------------------ */

typedef enum ckm_violation_kind {
    CKM_VIOLATION_PAIR = 0,
    CKM_VIOLATION_SIZE,
    CKM_VIOLATION_LABEL,
    CKM_VIOLATION_CAPACITY /* after 0.4.0: index the cluster, value its load rounded to an integer
                              (ckm_check_report.loads has it exactly) */
} ckm_violation_kind;

typedef struct ckm_violation {
    ckm_violation_kind kind;
    size_t index;   /* PAIR: index into the problem's pair list (see ckm_problem_pair);
                       SIZE: cluster; LABEL: point */
    long long value;/* SIZE: actual size; LABEL: the bad label; PAIR: unused (0) */
} ckm_violation;

typedef struct ckm_check_report {
    size_t must_link_violated;
    size_t cannot_link_violated;
    size_t size_violated;        /* clusters outside [lo, hi] */
    size_t label_invalid;        /* labels outside [0, k) */
    size_t count;                /* total = sum of the above */
    ckm_violation *violations;   /* count entries, in that order */
    double sse;                  /* recomputed from the labels, weighted by the problem's sample
                                    weights (NAN if a label is invalid) */
    size_t *sizes;               /* k cluster sizes */
    /* --- 0.4.0: soft pairs, not counted in count (violating them is allowed) --- */
    size_t soft_must_link_violated;
    size_t soft_cannot_link_violated;
    double soft_violated_confidence; /* sum of the confidences of the violated soft pairs */
    /* --- after 0.4.0: capacities (counted in count; their violations come after the size ones) --- */
    size_t capacity_violated;    /* clusters whose load is outside their capacity bounds by more
                                    than the tolerance */
    double *loads;               /* k cluster loads sum_{i in C_j} q_i (q_i = 1 without demands);
                                    NULL if a label is invalid */
} ckm_check_report;

/* Verify labels (length n) against every constraint of p, recompute the SSE from the
 * labels alone. Never trusts a solver. */
CKM_API ckm_error ckm_check(const ckm_problem *p, const int32_t *labels, ckm_check_report **out,
                    ckm_err *err);
CKM_API void ckm_check_report_free(ckm_check_report *r);
/* The i-th stored pair into *out. Errors: i >= must_link_count + cannot_link_count
 * (CKM_ERR_INVALID). */
CKM_API ckm_error ckm_problem_pair(const ckm_problem *p, size_t i, ckm_pair *out, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Settings, results, solving                                                            */
/* ------------------------------------------------------------------------------------ */

/* Called with progress messages when verbosity > 0. */
typedef void (*ckm_log_fn)(void *user, const char *line);
/* Polled during long runs; return non-zero to ask the solver to stop early. */
typedef int (*ckm_stop_fn)(void *user);
/* Callbacks and threads: ckm_solve calls log and should_stop from the calling thread AND,
 * for algorithms that run in parallel (exact with threads > 1: its node workers; ipc/exact
 * SDP callers inside them), from worker threads the library creates for the duration of
 * the call; never after ckm_solve returns, and never two log calls at once (the library
 * serialises them per call). should_stop may be called concurrently from several threads:
 * make it thread-safe (reading a flag is enough). CBC (the MILP solver) polls should_stop
 * at each of its branch-and-bound nodes. Neither callback may call ckm_solve recursively
 * with the same settings object. */

/* After 0.4.0. One event of a run's progress: what settings.progress receives and what a
 * result's (or certificate's) trace keeps, in order. Objective values are in the data's
 * units (weighted where the problem has sample weights; plus the soft-pair penalty where the
 * algorithm minimises it). */
typedef enum ckm_progress_kind {
    CKM_PROGRESS_STEP = 1, /* a Lloyd-type step ended (kmeans, blpkm, sizeflow, ipc's IPC-k-means,
                              the stop fallback's): objective = its assignment's cost against the
                              centers it assigned to (kmeans with bounds: an upper bound of it),
                              which the objective after the centers' update does not exceed */
    CKM_PROGRESS_RESTART,  /* a restart ended: objective of its labels, incumbent the best so far */
    CKM_PROGRESS_BOUND     /* ipc, exact, certify: the lower bound or the incumbent moved, or a
                              node batch / subset finished */
} ckm_progress_kind;

typedef struct ckm_progress {
    ckm_progress_kind kind;
    double seconds;      /* since the call began */
    int restart;         /* STEP, RESTART: 0-based restart; else 0 */
    int restarts;        /* restarts asked for (settings.n_init; 1 for exact and certify) */
    int iteration;       /* STEP: 1-based step of the restart; RESTART: the restart's steps */
    double objective;    /* STEP, RESTART: see the kinds; NAN when none */
    double incumbent;    /* the best labelling's objective so far; NAN when none */
    double lower_bound;  /* the best proven lower bound so far; -INFINITY when none */
    size_t done, total;  /* exact: nodes processed and still open; certify: subsets bounded
                            of all; STEP / RESTART: restarts finished of settings.n_init */
} ckm_progress;

/* After 0.4.0. Receives each progress event (settings.progress), whatever the verbosity;
 * called like log (serialised, possibly from a worker thread, never after the call returns).
 * The event is valid during the call only. Keep it cheap: a solver waits for it. */
typedef void (*ckm_progress_fn)(void *user, const ckm_progress *ev);

/* Distance used inside an algorithm's assignment step (the reported objective is always
 * the SSE). */
typedef enum ckm_distance {
    CKM_DISTANCE_SQEUCLIDEAN = 0, /* ||x - c||^2: consistent with the SSE (default) */
    CKM_DISTANCE_EUCLIDEAN        /* ||x - c||: BLPKM_CC's published code (blpkm only) */
} ckm_distance;

/* How initial centers are chosen. */
typedef enum ckm_init {
    CKM_INIT_DEFAULT = 0, /* the algorithm's own: blpkm -> random (k-means++ with soft pairs);
                             the others -> k-means++ */
    CKM_INIT_RANDOM,      /* k distinct data points, uniformly (BLPKM_CC as published) */
    CKM_INIT_KMEANSPP     /* greedy k-means++ on the must-link groups (weights = sizes) */
} ckm_init;

/* How kmeans finds each point's nearest center. Both give the same labels from the same
 * centers (see docs/formulations.md: bounds skip a center only when it is farther than the
 * assigned one by more than the rounding of either computation). */
typedef enum ckm_lloyd {
    CKM_LLOYD_AUTO = 0, /* bounds when n k >= 2^16 and k d >= 128, else plain */
    CKM_LLOYD_PLAIN,    /* every distance in every iteration (dgemm) */
    CKM_LLOYD_BOUNDS    /* Yinyang bounds (Ding et al. 2015): after the first iteration only
                           the distances the triangle inequality cannot rule out; memory
                           n (12 + 4 max(1, k/20)) bytes, plus a float copy of the
                           points (4 n d bytes) from d = 32 */
} ckm_lloyd;

/* Arithmetic of kmeans' nearest-center passes. */
typedef enum ckm_precision {
    CKM_PRECISION_DOUBLE = 0, /* double; the bounded passes may screen in single precision but
                                 decide every uncertain row in double: plain Lloyd's labels */
    CKM_PRECISION_SINGLE      /* full passes decide by float32 GEMM distances alone (centers,
                                 sums and the reported SSE stay double): labels may differ
                                 from double's where two centers are within float rounding;
                                 bench/README.md measures the effect on SSE and time */
} ckm_precision;

/* ABI policy (docs/abi.md): ckm_settings is caller-allocated, so its first member is its
 * size. ckm_settings_default() sets struct_size = sizeof(ckm_settings) of the header the
 * caller compiled against; the library reads only that many bytes and uses defaults for
 * members a newer library added after them. Members are only ever appended. A struct_size
 * smaller than CKM_SETTINGS_SIZE_0_2 (the first versioned layout) or larger than the
 * library's own is CKM_ERR_INVALID ("call ckm_settings_default first"). */
typedef struct ckm_settings {
    uint32_t struct_size;  /* sizeof(ckm_settings) as set by ckm_settings_default */
    uint32_t reserved;     /* 0 */
    char algorithm[32];    /* registry name; default "kmeans" */
    uint64_t seed;         /* RNG seed; default 0. Same seed + input => same output */
    int n_init;            /* restarts, best SSE kept; default 10, >= 1 */
    int max_iter;          /* iterations per restart; 0 = the algorithm's default
                              (ckm_algorithm_info.default_max_iter: kmeans 300,
                              blpkm 100, cop 300, sizeflow 300, bckm 100, admm 1000,
                              ipc 100, exact 100); default 0 */
    ckm_distance distance; /* assignment-step distance; default SQEUCLIDEAN */
    ckm_init init;         /* default CKM_INIT_DEFAULT */
    double tol;            /* kmeans, sizeflow: stop when sum_j ||c_j - c_j'||^2 <= tol * mean
                              feature variance (scikit-learn's rule); admm: stop when the
                              std of the last 10 objective values <= tol * |their mean|
                              (and the primal residual <= 1e-4); default 1e-4, >= 0 */
    double time_limit_s;   /* wall-clock limit in seconds; <= 0 means none; default 0 */
    int threads;           /* worker threads for algorithms that run in parallel;
                              0 = the cores this process may use (default: its CPU
                              affinity mask, capped by a cgroup CPU quota), at most
                              CKM_MAX_THREADS (more is CKM_ERR_INVALID). BLAS threads follow
                              OPENBLAS_NUM_THREADS; ipc's eigensolver rounds
                              differently with another BLAS thread count, so its
                              iterates (and possibly its result) are reproducible
                              for a fixed OPENBLAS_NUM_THREADS. exact processes
                              that many branch-and-cut nodes at once (each with one
                              thread inside): run OpenBLAS with 1 thread then (the
                              library never changes that process-wide setting; the
                              ckm tool does), or the workers oversubscribe the cores.
                              exact's result is the same for the same thread count. */
    int cut_rounds;        /* ipc: cutting-plane rounds after the first SDP solve (the
                              paper's root limit 50 is the default); 0 = the bound of
                              the plain relaxation; >= 0. Counted in rounds of 50 ADMM
                              iterations: certify's subsets with a time limit run
                              rounds of 25, up to twice as many (docs/certify.md) */
    double gap;            /* ipc, exact: relative optimality tolerance; a labelling is
                              proven optimal when (SSE - lower bound) / SSE <= gap, and
                              exact prunes a node whose bound is within gap of the
                              incumbent; default 1e-4 (the paper's), in [0, 1) */
    int node_limit;        /* exact: branch-and-cut nodes to process before stopping with
                              status ITERATION_LIMIT; 0 = no limit (default); >= 0 */
    int verbosity;         /* 0 quiet (default), 1 progress, 2 debug */
    ckm_log_fn log;        /* receives progress lines; NULL = discard */
    void *log_user;
    ckm_stop_fn should_stop; /* NULL = never */
    void *stop_user;
    const volatile int *interrupt; /* when non-NULL and *interrupt != 0 the run stops as if
                                      should_stop had returned 1: a flag another thread (a
                                      signal handler, a foreign-language binding) sets
                                      without any callback; read atomically; default NULL */
    /* --- 0.3.0 --- */
    ckm_lloyd lloyd;       /* kmeans' assignment step; default CKM_LLOYD_AUTO */
    const double *init_centers; /* k*d initial centers (row-major, finite; borrowed for the
                                   call) used instead of seeding by every algorithm that
                                   starts from centers (kmeans, sizeflow, blpkm, cop, bckm,
                                   admm); then only one restart runs, whatever n_init,
                                   since all would be the same, and sizeflow keeps the
                                   given order of centers (center j starts cluster j and
                                   its size bounds); default NULL = seeding by init */
    ckm_precision precision; /* kmeans' distances; default CKM_PRECISION_DOUBLE */
    /* --- 0.4.0 --- */
    double soft_penalty;   /* P: violating a soft pair of confidence c costs P c in the
                              objective SSE + penalty, in the SSE's units (squared distance,
                              times sample weight); 0 = the default, the mean squared distance
                              between two points, 2 TSS / n (docs/soft.md); finite, >= 0; one
                              whose pair costs CLP could not take is CKM_ERR_INVALID */
    union {
        double step_limit_s;      /* blpkm (and the Lloyd steps of bckm, admm, ipc) with soft
                                     pairs or capacities: such an assignment step is NP-hard (a
                                     max-cut, a generalized assignment); one that has not proven
                                     its optimum after this many seconds uses the best labelling
                                     found so far (never worse than the previous step's), and
                                     the run goes on; counted in the result message with the
                                     largest certified gap of those steps. Such a step depends
                                     on the machine's speed, so the labels may differ between
                                     machines or loads; 0 = no limit (every step exact, however
                                     long, and reproducible); default 2; finite, >= 0 */
        double soft_step_limit_s; /* the same member under its 0.4.0 name (it always bounded
                                     capacity steps too) */
    };
    double memory_limit_mb; /* exact: budget in MB (10^6 bytes) for the search: the
                              relaxations of a batch of nodes plus the open tree (each open
                              node's decisions, its parent's s x s solution and cut pool).
                              A batch that would pass it runs fewer nodes; when not even one
                              fits, the search stops with status MEMORY_LIMIT, the incumbent
                              and its certified gap; a budget the root alone exceeds is
                              CKM_ERR_NOMEM before anything is solved (docs/memory.md).
                              0 = none but the machine's available memory (default);
                              finite, >= 0 */
    int async_nodes;       /* exact with more than one thread: 0 (default) processes nodes in
                              synchronous batches of `threads` nodes, merged in queue order,
                              so the result is the same on every run; 1 runs an
                              asynchronous node pool: a worker takes the best open node as
                              soon as it is free, no worker waits for a slower one (faster
                              when node times differ), but which incumbent a node starts
                              from, and so the nodes and possibly the optimal labelling
                              among equals, depend on timing. 0 or 1 */
    /* --- after 0.4.0: progress --- */
    ckm_progress_fn progress; /* receives every progress event (a live progress line, a
                                 notebook bar); NULL = none (default) */
    void *progress_user;
    int trace;             /* 1: keep the run's progress events in the result's (certificate's)
                              trace (at most CKM_TRACE_MAX; past that, each kind is thinned
                              evenly, its first and last events kept); kmeans then also
                              measures each step's objective (an O(n d) pass where its bounds
                              hold no distances). 0 (default): no trace. 0 or 1 */
} ckm_settings;

/* The most progress events a trace keeps. */
#define CKM_TRACE_MAX 4096

/* Size of the first versioned ckm_settings layout (0.2.0): up to `interrupt`. */
#define CKM_SETTINGS_SIZE_0_2 ((uint32_t)offsetof(ckm_settings, lloyd))

/* Fill s with the defaults documented above. */
CKM_API void ckm_settings_default(ckm_settings *s);

typedef enum ckm_status {
    CKM_STATUS_OPTIMAL = 0,    /* labels proven optimal (lower bound = sse within gap) */
    CKM_STATUS_FEASIBLE,       /* labels satisfy every constraint; optimality not proven */
    CKM_STATUS_INFEASIBLE,     /* proven: no labelling satisfies the constraints (message
                                  gives the reason); no labels */
    CKM_STATUS_TIME_LIMIT,     /* time limit hit; labels present iff has_labels */
    CKM_STATUS_ITERATION_LIMIT,/* iteration/node limit hit; labels present iff has_labels */
    CKM_STATUS_INTERRUPTED,    /* should_stop asked to stop; labels present iff has_labels */
    CKM_STATUS_NO_SOLUTION,    /* a heuristic found no feasible labelling (not a proof) */
    CKM_STATUS_MEMORY_LIMIT    /* exact: the open tree would outgrow the available memory
                                  (docs/memory.md); labels present iff has_labels, with the
                                  certified gap */
} ckm_status;

/* Static lower-case name ("optimal", "feasible", "infeasible", "time limit", ...). */
CKM_API const char *ckm_status_string(ckm_status s);

typedef struct ckm_timings {
    double preprocess_s;  /* constraint closure and infeasibility proofs */
    double solve_s;       /* the algorithm */
    double check_s;       /* independent check + SSE recomputation */
    double total_s;
} ckm_timings;

/* Structured counters of the work a solve did (all algorithms; 0 where not applicable). */
typedef struct ckm_stats {
    uint64_t lp_solves;        /* LP relaxations solved with CLP (assignment steps, BCKM LPs) */
    uint64_t mip_solves;       /* MILPs solved with CBC (assignment steps whose LP vertex was
                                  fractional) */
    uint64_t mip_nodes;        /* branch-and-bound nodes CBC processed, summed */
    uint64_t transport_solves; /* transportation problems (sizeflow, size-bounded fallback) */
    uint64_t admm_iterations;  /* lp-box ADMM iterations (admm), summed over restarts */
    uint64_t sdp_iterations;   /* ADMM iterations of the SDP relaxation (ipc, exact) */
    uint64_t cut_rounds;       /* SDP cutting-plane rounds (ipc, exact) */
    uint64_t cuts_added;       /* SDP cuts added over all rounds */
    uint64_t nodes;            /* exact: branch-and-cut nodes processed */
    uint64_t restarts;         /* restarts run */
    uint64_t iterations;       /* Lloyd-type iterations over all restarts */
    uint64_t repairs;          /* admm: rounded labellings repaired by an exact step;
                                  bckm: stalled steps finished by the exact step */
    uint64_t fallback;         /* 1 when a stopped run's labels came from the fallback */
    uint64_t numeric_fallbacks;/* silent numerical safeguards that fired: negative reduced
                                  costs (rounding) clamped to 0 in the transportation solver,
                                  admm v-updates skipped for a system not numerically positive
                                  definite. Results stay checked; a large count flags data
                                  worth a look */
} ckm_stats;

/* ABI policy: results are allocated by the library; members are only ever appended, and
 * struct_size tells a caller compiled against an older header how much was filled. */
typedef struct ckm_result {
    uint32_t struct_size;    /* sizeof(ckm_result) of the library that made it */
    ckm_status status;
    int has_labels;          /* 1 when labels/centers/sse are set */
    size_t n, d, k;
    int32_t *labels;         /* n labels in [0, k), or NULL */
    double *centers;         /* k*d cluster means (row-major), or NULL */
    size_t *sizes;           /* k cluster sizes, or NULL */
    double sse;              /* recomputed from labels by the checker; NAN without labels */
    double lower_bound;      /* proven lower bound on the optimal SSE; -INFINITY if none */
    double gap;              /* (sse - lower_bound) / sse when both exist, else NAN */
    size_t violations;       /* from the independent checker; 0 whenever labels exist
                                (a non-zero value is reported as CKM_ERR_INTERNAL) */
    int iterations;          /* iterations of the best restart */
    int restarts;            /* restarts actually run */
    size_t super_points;     /* groups after merging must-link components (k = 2: and cannot-link chains) */
    size_t nodes;            /* exact: branch-and-cut nodes processed; 0 for other algorithms */
    double root_gap;         /* exact: (best SSE after the root - root bound) / that SSE; NAN otherwise */
    char algorithm[32];
    uint64_t seed;
    ckm_timings time;
    char message[CKM_MESSAGE_LEN]; /* reason for infeasible / no solution; notes */
    ckm_stats stats;         /* what the solve did */
    int weighted;            /* 1 when the problem had sample weights: sse, lower_bound and
                                gap are then of the weighted SSE */
    /* --- 0.4.0: soft pairs (all 0 without them) --- */
    double soft_penalty;     /* P used (settings.soft_penalty or its default) */
    double penalty;          /* P * sum of the confidences of the violated soft pairs, from the
                                checker; 0 without labels */
    double objective;        /* sse + penalty: what the algorithm minimised (= sse without soft
                                pairs); NAN without labels */
    size_t soft_must_link_violated;
    size_t soft_cannot_link_violated;
    /* --- after 0.4.0 --- */
    ckm_progress *trace;     /* settings.trace: the run's progress events in order, else NULL */
    size_t trace_len;
} ckm_result;

/* Solve p with settings s (NULL = defaults). On CKM_OK *out owns a new result whatever
 * the status. Errors: unknown algorithm, algorithm that cannot honour the problem's
 * constraint kinds (CKM_ERR_UNSUPPORTED), invalid settings, out of memory.
 * Thread safety: distinct calls may run concurrently (on the same or different problems;
 * a problem is only read); MILP solves (CBC) are serialised internally. No process-wide
 * side effect: no signal handler, no change to file descriptors, stdio, the locale or
 * BLAS thread settings (docs/embedding.md). */
CKM_API ckm_error ckm_solve(const ckm_problem *p, const ckm_settings *s, ckm_result **out,
                    ckm_err *err);
CKM_API void ckm_result_free(ckm_result *r);

/* ------------------------------------------------------------------------------------ */
/* Assigning points to given centers ("predict")                                        */
/* ------------------------------------------------------------------------------------ */

/* After 0.4.0. What ckm_predict returns (library-allocated; members are only appended). */
typedef struct ckm_prediction {
    uint32_t struct_size;  /* sizeof(ckm_prediction) as the library filled it */
    ckm_status status;     /* OPTIMAL: the labels are optimal for these centers under every
                              constraint; INFEASIBLE: no labelling meets them (message says
                              why); TIME_LIMIT / INTERRUPTED: settings.time_limit_s or a stop
                              came before the proof (labels when one was found by then) */
    int has_labels;
    int32_t *labels;       /* n cluster indices (has_labels), else NULL */
    double objective;      /* sum_i w_i ||x_i - c_l(i)||^2 of the labels, data units (w: the
                              problem's sample weights, 1 without); NAN without labels */
    double lower_bound;    /* a proven lower bound on that minimum: the objective when OPTIMAL;
                              at a limit the step's bound (its LP or its prices) when known;
                              -INFINITY when none */
    double *prices;        /* k cluster prices certifying the labels when the transportation
                              solver assigned them (size bounds only: c_ij - u_i - p_j >= 0 for
                              every point and cluster, = 0 on the labels, p_j > 0 only at a
                              minimum, < 0 only at a maximum; docs/formulations.md), else NULL */
    char route[16];        /* how it was solved: "transport" (no pairs, capacities or weights),
                              or the assignment step's route ("full", "restricted", "priced") */
    char message[CKM_MESSAGE_LEN]; /* the reason when infeasible or stopped, else empty */
    double seconds;
} ckm_prediction;

/* After 0.4.0. Assign the points of p to the k fixed centers (k*d, data units) -- the predict
 * of constrained k-means -- minimising sum_i w_i ||x_i - c_l(i)||^2 under EVERY hard
 * constraint of p: must-links, cannot-links, size bounds and capacities. p may have more
 * centers than points (set minimum sizes 0: the default minimum 1 cannot then hold). Without
 * pairs, capacities or sample weights the exact transportation solver assigns the points (size
 * bounds, any n k: no n x k matrix past 2^28 costs) and certifies them with prices; otherwise
 * blpkm's exact assignment step on the route its chooser takes (CLP, then CBC when the LP is
 * fractional; restricted columns with a pricing proof, or Lagrangian prices, on large
 * models). s (NULL: defaults) gives time_limit_s, should_stop / stop_user / interrupt and
 * threads. Labels returned have passed ckm_check. Errors: centers not finite, problems with
 * soft pairs (CKM_ERR_UNSUPPORTED), a model over the available memory (CKM_ERR_NOMEM,
 * docs/memory.md) before it is built, out of memory. Infeasibility and limits are statuses.
 * On CKM_OK *out owns a new prediction (ckm_prediction_free). */
CKM_API ckm_error ckm_predict(const ckm_problem *p, const double *centers, const ckm_settings *s,
                              ckm_prediction **out, ckm_err *err);
CKM_API void ckm_prediction_free(ckm_prediction *r);

typedef enum ckm_assign_method {
    CKM_ASSIGN_AUTO = 0,   /* the transportation solver */
    CKM_ASSIGN_TRANSPORT,  /* exact successive-shortest-path transportation solver, O(n k) memory */
    CKM_ASSIGN_LP          /* the same LP through COIN-OR CLP (for comparison; much slower) */
} ckm_assign_method;

/* Kept for binary compatibility (0.2-0.4): ckm_predict on the n points X (n*d) with size
 * bounds lo_j <= |C_j| <= hi_j only (lo, hi: k entries each, or both NULL for the nearest
 * center), any k. labels: n (written unless infeasible). objective: the sum of squared
 * distances of the labels. prices (k, or NULL): the transportation solver's certificate
 * (zeros with CKM_ASSIGN_LP, which forces the assignment step's full model, CLP). *status =
 * CKM_STATUS_OPTIMAL or CKM_STATUS_INFEASIBLE (sum lo > n or sum hi < n). */
CKM_API ckm_error ckm_assign_to_centers(const double *X, size_t n, size_t d, const double *centers,
                                size_t k, const size_t *lo, const size_t *hi,
                                ckm_assign_method method, int32_t *labels, double *objective,
                                double *prices, ckm_status *status, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Certificates: a safe lower bound and certified gap for any labelling (docs/certify.md) */
/* ------------------------------------------------------------------------------------ */

/* After 0.4.0. One subset of the decomposition. */
typedef struct ckm_certify_subset {
    size_t points;         /* points in the subset */
    size_t groups;         /* its must-link groups */
    double lower_bound;    /* safe lower bound of the subset's constrained MSSC (data units) */
    double labels_sse;     /* SSE of the given labels restricted to the subset, every cluster with
                              the subset's own mean: >= the subset's optimum when the labels
                              satisfy every constraint */
    ckm_status status;     /* OPTIMAL: the bound reached labels_sse within settings.gap;
                              FEASIBLE: the SDP's cut rounds ended (no violated cut, stall, or
                              settings.cut_rounds); TIME_LIMIT / INTERRUPTED: stopped, the bound
                              is the best safe one so far (or the groups' own scatter when the
                              SDP never ran); INFEASIBLE: no labelling of the subset exists */
    int sdp;               /* 1 when the SDP ran; 0: the bound is exact without it (no more
                              groups than clusters) or the subset was never reached */
    int cut_rounds;        /* cutting-plane rounds of its SDP */
    double seconds;        /* wall time of its bound */
    int rank;              /* the MPI rank that bounded it (ckm_mpi_certify); 0 in one process */
} ckm_certify_subset;

/* After 0.4.0. What ckm_certify proved (library-allocated; members only ever appended). */
typedef struct ckm_certificate {
    uint32_t struct_size;  /* sizeof(ckm_certificate) of the library that made it */
    ckm_status status;     /* OPTIMAL: the labels meet every constraint and the bound proves them
                              optimal within settings.gap (the one gap rule of ipc and exact);
                              FEASIBLE: every subset bounded; TIME_LIMIT / INTERRUPTED: some
                              subsets hold a cheaper bound (still valid); INFEASIBLE: proven that
                              no labelling meets the constraints (message says why) */
    size_t n, d, k;
    size_t groups;         /* must-link groups (kept whole by the split) */
    int weighted;          /* sample weights set: sse and the bounds are of the weighted SSE */
    double sse;            /* the labels' SSE, recomputed by ckm_check */
    size_t violations;     /* the labels' violated constraints (ckm_check) */
    double lower_bound;    /* sum of the subsets' bounds: <= the SSE of every labelling that
                              meets the constraints (INFINITY when none does) */
    double gap;            /* (sse - lower_bound) / sse; NAN when the labels violate a constraint */
    double labels_split_sse; /* sum of the subsets' labels_sse (restricted labels are upper bounds
                              of the subsets' optima): lower_bound <= it, so sse minus it is
                              what the split costs the bound at least (the split loss) */
    size_t subsets;        /* T */
    size_t *subset_of;     /* n: subset of each point */
    ckm_certify_subset *subset; /* T entries */
    double split_s, bound_s, total_s; /* wall times */
    double memory_mb;      /* the memory model's estimate of the bounds running at once */
    int workers;           /* subsets bounded at once (over all ranks with ckm_mpi_certify) */
    ckm_stats stats;       /* sdp_iterations, cut_rounds, cuts_added summed over the subsets */
    char message[CKM_MESSAGE_LEN];
    int ranks;             /* MPI ranks that bounded the subsets (ckm_mpi_certify); 1 in one process */
    ckm_progress *trace;   /* settings.trace: BOUND events as subsets finish (the bound so far:
                              every subset not yet bounded counted at its groups' own scatter) */
    size_t trace_len;
    double split_floor_sse; /* after ranks' trace: the split's floor, the sum over subsets of the
                              least SSE found for each alone (its restricted labels, or k-means
                              with one-group moves on it when that is cheaper): lower_bound <= it
                              whatever the relaxations, so no certified gap below (sse - it) / sse
                              through this split. A labelling found that joins a cannot-link of
                              the subset does not count. NAN when not measured (size or capacity bounds,
                              labels that violate a constraint) */
} ckm_certificate;

/* After 0.4.0. A safe lower bound on the optimal SSE of p (every hard constraint: must-links,
 * cannot-links, size and capacity bounds; sample weights) and the certified gap of labels
 * (n entries in [0, k)), at any scale: the must-link groups are split into `subsets` subsets
 * that each look like the whole (anticlustering guided by the labels), and the bounds of the
 * subsets' problems (ipc's safe SDP bound with cuts, several subsets at once on
 * settings.threads threads) add up to a bound of the whole (Croella, Piccialli & Sudoso 2025).
 * subsets = 0 chooses T from settings.time_limit_s (what the SDP handles in about half of it;
 * then coarsened at most twice, from the first subsets' measured bounds against the split's
 * floor -- split_floor_sse --, docs/certify.md) or, without a limit, subsets of about 400
 * groups; subsets = 1 is the whole problem's root
 * bound. Settings used: time_limit_s, threads, seed (the split), cut_rounds, gap,
 * verbosity / log, should_stop / interrupt. A stop returns the bound reached so far (CKM_OK,
 * status TIME_LIMIT or INTERRUPTED). Labels that violate constraints are certified too: the
 * bound holds, the gap is NAN. Errors: labels NULL or out of range, subsets > the number of
 * groups, soft pairs (CKM_ERR_UNSUPPORTED), out of memory. */
CKM_API ckm_error ckm_certify(const ckm_problem *p, const int32_t *labels, size_t subsets, const ckm_settings *s,
                              ckm_certificate **out, ckm_err *err);
CKM_API void ckm_certificate_free(ckm_certificate *c);
/* JSON report of a certificate (the subsets' table included, subset_of not); release the
 * string with ckm_free. */
CKM_API ckm_error ckm_certificate_to_json(const ckm_certificate *c, char **out, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Reports: principal components and a self-contained HTML page (docs/report.md)          */
/* ------------------------------------------------------------------------------------ */

/* After 0.4.0. The m leading principal components of the n points X (n*d, row-major) with
 * sample weights w (n, finite, > 0; NULL: all 1): the weighted covariance's eigenvectors, each
 * signed so that its largest-magnitude entry is positive. proj (n*m) receives each point's
 * coordinates about the weighted mean; components (m*d, rows) and variance (m: the
 * eigenvalues, descending) may be NULL. O(n d^2 + d^3). Errors: m = 0 or m > d, n = 0, a
 * weight not > 0 (CKM_ERR_INVALID), out of memory. */
CKM_API ckm_error ckm_pca(const double *X, const double *w, size_t n, size_t d, size_t m, double *proj,
                          double *components, double *variance, ckm_err *err);

/* After 0.4.0. What ckm_report_html shows beside the problem and its labels. */
typedef struct ckm_report_options {
    uint32_t struct_size;  /* sizeof(ckm_report_options), set by ckm_report_options_default */
    const char *title;     /* the page's title; NULL: "ckm report" */
    const char *command;   /* the command line or parameters of the run, shown verbatim; NULL: none */
    const char *json;      /* the run's JSON report (ckm_result_to_json or ckm_certificate_to_json
                              of these labels, or such a file), embedded in the page, its figures
                              and trace shown; NULL: the labels alone (SSE and constraints from
                              ckm_check) */
    const int32_t *truth;  /* n ground-truth labels (>= 0) for ARI and NMI, or NULL */
    size_t max_points;     /* points drawn at most: past it a subsample of each cluster in
                              proportion to its size (each non-empty cluster keeps >= 1), drawn
                              with the points of violated pairs; 0: 20000 */
    size_t max_pairs;      /* pairs drawn at most (violated and paid ones first); 0: 2000 */
    uint64_t seed;         /* the subsample's */
} ckm_report_options;

CKM_API void ckm_report_options_default(ckm_report_options *o);

/* After 0.4.0. A self-contained HTML page about labels (n entries) of p: no network access,
 * no external script, style or font; inline SVG plots and a little inline CSS and JavaScript.
 * It shows the problem and the answer (n, d, k, constraint counts, algorithm, status, SSE,
 * bound and certified gap, time, the command), the points on their first two principal
 * components (ckm_pca on p's points and weights) coloured by cluster with centers,
 * must-links, cannot-links and the violated or paid pairs, cluster sizes against their
 * bounds and loads against capacities, the run's convergence from the JSON report's trace
 * (objective per step and restart; bound and incumbent over time) and certify's subsets, a
 * per-cluster table (size, load, share of the SSE, radius) and, with truth, ARI and NMI.
 * Every figure taken from the JSON report carries its JSON text in a data-value attribute.
 * o: NULL for the defaults. On success *out holds the page (release with ckm_free; write it
 * with ckm_write_file_atomic). Errors: labels out of [0, k) or truth negative, a JSON report
 * that does not parse or is of another run (its n or k differ from p's, or its SSE from these
 * labels' by more than 1e-9 relative), CKM_ERR_NOMEM. */
CKM_API ckm_error ckm_report_html(const ckm_problem *p, const int32_t *labels, const ckm_report_options *o,
                                  char **out, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Evaluation metrics (labels are arbitrary non-negative integers)                       */
/* ------------------------------------------------------------------------------------ */

typedef struct ckm_scores {
    double ari;      /* adjusted Rand index (Hubert & Arabie 1985) */
    double nmi;      /* normalised mutual information, arithmetic-mean normalisation */
    double ami;      /* adjusted mutual information, exact expected MI, arithmetic mean */
    double rand;     /* Rand index: agreeing pairs / C(n,2) */
    double mirkin;   /* Mirkin index: disagreeing pairs / C(n,2), 0 = identical */
    double hubert;   /* Hubert index: (agreeing - disagreeing) / C(n,2) */
} ckm_scores;

/* Compare two labellings of n >= 1 points. Errors: negative labels, n = 0. */
CKM_API ckm_error ckm_compare(const int32_t *truth, const int32_t *pred, size_t n, ckm_scores *out,
                      ckm_err *err);

/* SSE of a labelling: sum_i ||x_i - mean of its cluster||^2. Labels must be in [0, k). */
CKM_API ckm_error ckm_sse(const double *X, size_t n, size_t d, const int32_t *labels, size_t k,
                  double *sse, ckm_err *err);
/* Weighted SSE (w: n weights > 0, or NULL for all 1), with weighted means. */
CKM_API ckm_error ckm_sse_weighted(const double *X, const double *w, size_t n, size_t d,
                                   const int32_t *labels, size_t k, double *sse, ckm_err *err);

/* ------------------------------------------------------------------------------------ */
/* Writers (atomic: temp file in the same directory + rename)                            */
/* ------------------------------------------------------------------------------------ */

/* One label per line; a path ending in ".npy" gets a numpy '<i4' array of shape (n,). */
CKM_API ckm_error ckm_write_labels(const char *path, const int32_t *labels, size_t n, ckm_err *err);
/* k rows of d values, comma separated, full precision; a path ending in ".npy" gets a numpy
 * '<f8' array of shape (k, d). */
CKM_API ckm_error ckm_write_centers(const char *path, const double *centers, size_t k, size_t d,
                            ckm_err *err);
/* Write an arbitrary buffer atomically. */
CKM_API ckm_error ckm_write_file_atomic(const char *path, const char *data, size_t len, ckm_err *err);
/* Read integer labels, one per line ('#' comments, blank lines skipped), or from a numpy
 * .npy file (1-D integer array; detected by its magic). */
CKM_API ckm_error ckm_labels_read(const char *path, int32_t **labels, size_t *n, ckm_err *err);

/* After 0.4.0. Read one value per point (sample weights: what "weight", allow_zero 0; demands:
 * "demand", allow_zero 1) from text with one number per line ('#' comments and blank lines
 * skipped), or from a numpy .npy float array of shape (n,) or (n, 1) (detected by its magic).
 * Every value must be finite and >= 0, and > 0 unless allow_zero. On success *values holds *n
 * values (release with ckm_free). Errors: CKM_ERR_IO, CKM_ERR_PARSE naming the file and
 * line:column (or the .npy element) of a field that is not a finite number, out of range, or
 * not alone on its line, and an empty file; CKM_ERR_NOMEM. */
CKM_API ckm_error ckm_values_read(const char *path, const char *what, int allow_zero, double **values, size_t *n,
                                  ckm_err *err);

/* JSON report of a result. extra_json, when non-NULL, is a string of additional
 * comma-separated JSON members ("\"ari\": 0.9, ...") inserted before the closing brace.
 * Returns a NUL-terminated string in *out; release it with ckm_free. */
CKM_API ckm_error ckm_result_to_json(const ckm_result *r, const char *extra_json, char **out,
                             ckm_err *err);

/* Release memory the library handed out as a plain buffer (ckm_result_to_json's string,
 * ckm_labels_read's labels, ckm_values_read's values). Accepts NULL. Use it instead of free(): the library and the
 * caller may use different allocators (another C runtime, a debug heap, a binding). */
CKM_API void ckm_free(void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* CKM_H */
