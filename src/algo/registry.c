/*
 * registry.c -- the table of algorithms compiled in. Adding an algorithm = one file in
 * src/algo plus one row here (docs/architecture.md, "Adding an algorithm").
 */
#include "algo.h"

#include <string.h>

static const ckm_algo algorithms[] = {
    {{"kmeans", "Lloyd's k-means with greedy k-means++ seeding and restarts (unconstrained baseline)",
      0, 0},
     ckm_algo_kmeans},
    {{"blpkm",
      "BLPKM_CC (Baumann 2020): k-means with an exact binary-LP assignment step (CLP, then CBC); "
      "with soft pairs PCCC's model (Baumann & Hochbaum 2024)",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS | CKM_HONOURS_EUCLIDEAN |
          CKM_HONOURS_SOFT_PAIRS,
      0},
     ckm_algo_blpkm},
    {{"cop", "COP-KMeans (Wagstaff et al. 2001): greedy constrained assignment; may fail on feasible problems",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK, 0},
     ckm_algo_cop},
    {{"sizeflow",
      "size-constrained k-means (Bradley et al. 2000): exact transportation assignment; must-links via CLP/CBC",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_SIZE_BOUNDS, 0},
     ckm_algo_sizeflow},
    {{"bckm",
      "BCKM (Le et al. 2018): LP / penalty alternation for the assignment; exact step when it stalls",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS, 0},
     ckm_algo_bckm},
    {{"admm",
      "lp-box ADMM (Bibi et al.): continuous reformulation, binary = box cap sphere; exact repair if needed",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS, 0},
     ckm_algo_admm},
    {{"ipc",
      "IPC-k-means (Piccialli et al. 2022): SDP-seeded BLPKM with a safe SDP lower bound and certified gap",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS, 1},
     ckm_algo_ipc},
    {{"exact",
      "PC-SOS-SDP branch-and-cut (Piccialli et al. 2022): global optimum with a proof, or a certified gap at a limit",
      CKM_HONOURS_MUST_LINK | CKM_HONOURS_CANNOT_LINK | CKM_HONOURS_SIZE_BOUNDS, 1},
     ckm_algo_exact},
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
