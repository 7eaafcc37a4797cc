/*
 * memory.c -- the memory model of every algorithm (docs/memory.md) and the refusal of a
 * solve that would need more than the machine can give it, BEFORE anything large is
 * allocated. Estimates count the dominant terms only, in bytes (n points, d features, k
 * clusters, s must-link groups, m lifted cannot-links, T worker threads):
 *   driver     24 n + 8 s d + 8 k d (+ 8 n d for a rescaled copy, scale.c; + 2 s d + 32 s
 *              from d = 32: k-means++'s bf16 copy and its bounds, seeding.c)
 *   LP model   the exact assignment step (blpkm, bckm, admm, cop, ipc, exact, fallback, and
 *              sizeflow with must-links): s k columns (+ one per soft pair), 2 s k + 2 k m
 *              nonzeros (+ 3 k per soft cannot-link, 6 k per soft must-link); ckm's arrays
 *              plus CLP's copies, estimated at ~64 bytes per nonzero and ~160 per column
 *              (not measured; a refusal is meant for problems clearly out of reach)
 *   kmeans     80 s (labels, distances, seeding) + T * 256 * k * 8 (blocked distances);
 *              bounded Lloyd (s k >= 2^16, k d >= 128): + 8 s + 4 s (t + 1), t = max(1, k / 20) groups,
 *              and from d = 32 the single-precision copy 4 s d + 8 s
 *   sizeflow   the transportation route: the s x k cost matrix 8 s k while s k <= 2^28, with
 *              the costs of every 8th row (s k) and that sample's own move lists (its
 *              starting prices; kept, like the matrix, from one Lloyd step to the next),
 *              else (12 * 32 + 22) s of candidate arcs and their bounds (transport_points.c); the solver's move
 *              lists k^2 (12 L + 9) (L = 16, fewer past k = 1448) and 16 s of member lists
 *   blpkm      with soft pairs past CKM_SOFT_MODEL_MAX_NNZ (assign.h): no model, local-search
 *              steps: 8 s k costs + 16 s + 32 per soft pair
 *   admm       about ten s x k iterates: 80 s k
 *   ipc        the SDP relaxation, nine s x s matrices, a tenth while a round separates cuts
 *              (sdp_separate.c), plus the eigensolver's work: ~120 s^2
 *   exact      T relaxations at once (one per worker), plus the open tree (checked as it
 *              grows: exact.c)
 * Available memory: MemAvailable of /proc/meminfo, lowered to the cgroup's memory.max minus
 * memory.current when a limit is set; unknown (no refusal) when neither can be read.
 */
#include "algo.h"
#include "assign.h"
#include "seeding.h"
#include "transport.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static double lp_bytes(const ckm_reduced *r)
{
    double cols = (double)r->s * (double)r->k + (double)r->n_soft;
    return 64.0 * ckm_assign_nnz(r) + 160.0 * cols;
}

double ckm_memory_estimate(const char *algorithm, const ckm_reduced *r, int threads, int rescaled)
{
    double n = (double)r->n, d = (double)r->d, k = (double)r->k, s = (double)r->s, T = threads > 0 ? threads : 1;
    double b = 24.0 * n + 8.0 * s * d + 8.0 * k * d + (rescaled ? 8.0 * n * d : 0.0) +
               (r->d >= CKM_SEED_FLOAT_FROM_D ? 2.0 * s * d + 32.0 * s : 0.0);
    if (strcmp(algorithm, "kmeans") == 0) {
        double t = k / 20.0 < 1.0 ? 1.0 : floor(k / 20.0);
        double bounded = s * k >= 65536.0 && k * d >= 128.0 ? 8.0 * s + 4.0 * s * (t + 1.0) + (d >= 32.0 ? 4.0 * s * d + 8.0 * s : 0.0)
                                          : 0.0;
        return b + 80.0 * s + T * 256.0 * k * 8.0 + bounded;
    }
    if (strcmp(algorithm, "sizeflow") == 0) {
        if (r->s < r->n) /* must-links: the LP/MILP route with the stored costs */
            return b + 8.0 * s * k + lp_bytes(r);
        bool matrix = s * k <= 268435456.0;
        double L = (double)ckm_transport_list_len(r->k, !matrix), C = k <= 256.0 ? 16.0 : 32.0;
        /* costs or candidate arcs (+ argmin, bounds, epochs, rows to price and the epochs'
           centers and prices), move lists and their heads, member lists, the auction's heaps
           and stack */
        double arcs = matrix ? 9.0 * s * k + k * k * (12.0 * L + 25.0) + 2.0 * s
                             : (12.0 * C + 22.0) * s + 64.0 * k * (d + 1.0);
        return b + arcs + k * k * (12.0 * L + 25.0) + 16.0 * s + 20.0 * s;
    }
    if (strcmp(algorithm, "admm") == 0)
        return b + 80.0 * s * k + lp_bytes(r);
    if (strcmp(algorithm, "ipc") == 0)
        return b + 120.0 * s * s + lp_bytes(r);
    if (strcmp(algorithm, "exact") == 0)
        return b + T * (120.0 * s * s + lp_bytes(r));
    if (strcmp(algorithm, "blpkm") == 0 && ckm_assign_local(r)) /* costs, labels, adjacency */
        return b + 8.0 * s * k + 16.0 * s + 32.0 * (double)r->n_soft + 16.0 * k;
    return b + lp_bytes(r); /* blpkm, bckm, cop */
}

/* a "Key: N kB" line of /proc/meminfo, in bytes; -1 when absent */
static double meminfo(const char *key)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1.0;
    char line[256];
    double v = -1.0;
    size_t len = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            double kb;
            if (sscanf(line + len + 1, "%lf", &kb) == 1)
                v = kb * 1024.0;
            break;
        }
    fclose(f);
    return v;
}

static double read_number(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1.0;
    double v = -1.0;
    if (fscanf(f, "%lf", &v) != 1) /* "max" (no limit) reads as nothing */
        v = -1.0;
    fclose(f);
    return v;
}

double ckm_memory_available(void)
{
    double avail = meminfo("MemAvailable");
    double limit = read_number("/sys/fs/cgroup/memory.max"), used = read_number("/sys/fs/cgroup/memory.current");
    if (limit > 0.0 && used >= 0.0 && (avail < 0.0 || limit - used < avail))
        avail = limit - used > 0.0 ? limit - used : 0.0;
    return avail;
}

ckm_error ckm_memory_check(const char *algorithm, const ckm_reduced *r, int threads, int rescaled, ckm_err *err)
{
    double need = ckm_memory_estimate(algorithm, r, threads, rescaled), have = ckm_memory_available();
    if (have < 0.0 || need <= have)
        return CKM_OK;
    return ckm_fail(err, CKM_ERR_NOMEM,
                    "%s would need about %.0f MB for n = %zu, d = %zu, k = %zu, %zu groups, %zu lifted cannot-links "
                    "(memory model: docs/memory.md), but only %.0f MB are available",
                    algorithm, need / 1048576.0, r->n, r->d, r->k, r->s, r->n_cl, have / 1048576.0);
}
