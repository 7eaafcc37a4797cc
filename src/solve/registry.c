/*
 * registry.c -- the table of algorithms compiled in: per algorithm its public description
 * (name, summary, what it honours, whether it proves optimality, its default max_iter, its
 * traits), its run and its memory estimate. Adding an algorithm = one file in src/algo plus
 * one row here (docs/architecture.md, "Adding an algorithm"); nothing else in the library
 * tells algorithms apart by name.
 */
#include "algo.h"

#include <string.h>

static const ckm_algo algorithms[] = {
    {.info = {.name = "kmeans",
              .summary = "Lloyd's k-means with greedy k-means++ seeding and restarts (unconstrained baseline)",
              .honours = 0,
              .proves_optimality = 0,
              .default_max_iter = 300,
              .traits = 0},
     .run = ckm_algo_kmeans,
     .bytes = ckm_bytes_kmeans},
    {.info = {.name = "blpkm",
              .summary = "BLPKM_CC (Baumann 2020): k-means with an exact binary-LP assignment step (CLP, then CBC); "
                         "with soft pairs PCCC's model (Baumann & Hochbaum 2024)",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS |
                          CKM_HONOURS_EUCLIDEAN | CKM_HONOURS_SOFT_PAIRS,
              .proves_optimality = 0,
              .default_max_iter = 100,
              .traits = 0},
     .run = ckm_algo_blpkm,
     .bytes = ckm_bytes_blpkm},
    {.info = {.name = "cop",
              .summary = "COP-KMeans (Wagstaff et al. 2001): greedy constrained assignment; may fail on feasible problems",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK,
              .proves_optimality = 0,
              .default_max_iter = 300,
              .traits = 0},
     .run = ckm_algo_cop,
     .bytes = ckm_bytes_cop},
    {.info = {.name = "sizeflow",
              .summary = "size-constrained k-means (Bradley et al. 2000): exact transportation assignment; must-links via "
                         "CLP/CBC",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_SIZE_BOUNDS,
              .proves_optimality = 0,
              .default_max_iter = 300,
              .traits = 0},
     .run = ckm_algo_sizeflow,
     .bytes = ckm_bytes_sizeflow},
    {.info = {.name = "bckm",
              .summary = "BCKM (Le et al. 2018): LP / penalty alternation for the assignment; exact step when it stalls",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS,
              .proves_optimality = 0,
              .default_max_iter = 100,
              .traits = 0},
     .run = ckm_algo_bckm,
     .bytes = ckm_bytes_bckm},
    {.info = {.name = "admm",
              .summary = "lp-box ADMM (Bibi et al.): continuous reformulation, binary = box cap sphere; exact repair if "
                         "needed",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS,
              .proves_optimality = 0,
              .default_max_iter = 1000,
              .traits = 0},
     .run = ckm_algo_admm,
     .bytes = ckm_bytes_admm},
    {.info = {.name = "ipc",
              .summary = "IPC-k-means (Piccialli et al. 2022): SDP-seeded BLPKM with a safe SDP lower bound and certified "
                         "gap",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS,
              .proves_optimality = 1,
              .default_max_iter = 100,
              .traits = CKM_TRAIT_OWN_THREADS},
     .run = ckm_algo_ipc,
     .bytes = ckm_bytes_ipc},
    {.info = {.name = "exact",
              .summary = "PC-SOS-SDP branch-and-cut (Piccialli et al. 2022): global optimum with a proof, or a certified "
                         "gap at a limit",
              .honours = CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS,
              .proves_optimality = 1,
              .default_max_iter = 100,
              .traits = CKM_TRAIT_SEARCH | CKM_TRAIT_OWN_THREADS},
     .run = ckm_algo_exact,
     .bytes = ckm_bytes_exact},
};

#define N_ALGOS (sizeof algorithms / sizeof algorithms[0])

size_t ckm_algorithm_count(void) { return N_ALGOS; }

const ckm_algorithm_info *ckm_algorithm_at(size_t i)
{
    return i < N_ALGOS ? &algorithms[i].info : NULL;
}

const ckm_algo *ckm_algo_lookup(const char *name)
{
    for (size_t i = 0; i < N_ALGOS; i++)
        if (strcmp(algorithms[i].info.name, name) == 0)
            return &algorithms[i];
    return NULL;
}

const ckm_algorithm_info *ckm_algorithm_find(const char *name)
{
    const ckm_algo *a = name ? ckm_algo_lookup(name) : NULL;
    return a ? &a->info : NULL;
}
