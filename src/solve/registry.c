/*
 * registry.c -- the algorithms compiled in, in order. Each row (ckm_algo, algo.h) is defined
 * in its algorithm's own file: its public description (name, summary, what it honours,
 * whether it proves optimality, its default max_iter, its traits), its run and its memory
 * estimate. Adding an algorithm = its file in src/algo plus its line in the two lists
 * below (docs/architecture.md, "Adding an algorithm"); nothing else in the library tells
 * algorithms apart by name.
 */
#include "algo.h"

#include <string.h>

/* each algorithm's row, defined in its own file in src/algo (algo.h) */
extern const ckm_algo ckm_algorithm_kmeans;
extern const ckm_algo ckm_algorithm_blpkm;
extern const ckm_algo ckm_algorithm_cop;
extern const ckm_algo ckm_algorithm_sizeflow;
extern const ckm_algo ckm_algorithm_bckm;
extern const ckm_algo ckm_algorithm_admm;
extern const ckm_algo ckm_algorithm_ipc;
extern const ckm_algo ckm_algorithm_exact;

/* the order of ckm_algorithm_at and of the CLI's list */
static const ckm_algo *const algorithms[] = {
    &ckm_algorithm_kmeans, &ckm_algorithm_blpkm, &ckm_algorithm_cop,  &ckm_algorithm_sizeflow,
    &ckm_algorithm_bckm,   &ckm_algorithm_admm,  &ckm_algorithm_ipc, &ckm_algorithm_exact,
};

#define N_ALGOS (sizeof algorithms / sizeof algorithms[0])

size_t ckm_algorithm_count(void) { return N_ALGOS; }

const ckm_algorithm_info *ckm_algorithm_at(size_t i)
{
    return i < N_ALGOS ? &algorithms[i]->info : NULL;
}

const ckm_algo *ckm_algo_lookup(const char *name)
{
    for (size_t i = 0; i < N_ALGOS; i++)
        if (strcmp(algorithms[i]->info.name, name) == 0)
            return algorithms[i];
    return NULL;
}

const ckm_algorithm_info *ckm_algorithm_find(const char *name)
{
    const ckm_algo *a = name ? ckm_algo_lookup(name) : NULL;
    return a ? &a->info : NULL;
}
