/*
 * exact_branch.c -- the branching rule of the branch-and-cut (Piccialli et al. 2022,
 * PC-SOS-SDP): from the node's SDP solution X (groups of weight w_t, v_t = sqrt(w_t)),
 *   Z = D^{-1/2} X D^{-1/2},  Z_ab = X_ab / (v_a v_b),
 *   score(a, b) = min{ Z_ab, sum_c w_c (Z_ac - Z_bc)^2 }  (point-level rows),
 * the pair of highest score that is not a cannot-link is branched on (must-link in one
 * child, cannot-link in the other): a pair the relaxation neither joins nor separates.
 * When every score is 0 (an integral-looking X) the pair with the largest Z_ab is split.
 * Cost O(s^3) time, O(s^2) bytes.
 */
#include "exact_branch.h"
#include "core.h"

#include <math.h>
#include <stdlib.h>

ckm_error ckm_exact_branch_pair(const ckm_reduced *r, const double *Xhat, size_t *pa, size_t *pb, ckm_err *err)
{
    size_t s = r->s;
    double *iv = ckm_alloc_array(s, sizeof(double)); /* 1 / v_t = 1 / sqrt(w_t) */
    unsigned char *is_cl = ckm_calloc_array(s * s, 1);
    if (!iv || !is_cl) {
        free(iv);
        free(is_cl);
        return ckm_fail(err, CKM_ERR_NOMEM, "exact: out of memory choosing the branching pair (%zu groups)", s);
    }
    for (size_t t = 0; t < s; t++)
        iv[t] = 1.0 / sqrt(r->mass[t]);
    for (size_t e = 0; e < r->n_cl; e++)
        is_cl[r->cl[2 * e] * s + r->cl[2 * e + 1]] = 1; /* a < b */
    double best = -1.0, best_z = -1.0;
    size_t za = 0, zb = 0;
    *pa = *pb = 0;
    for (size_t a = 0; a < s; a++)
        for (size_t b = a + 1; b < s; b++) {
            if (is_cl[a * s + b])
                continue;
            double zab = Xhat[a * s + b] * iv[a] * iv[b], dist = 0.0;
            for (size_t c = 0; c < s; c++) { /* w_c (Z_ac - Z_bc)^2, Z_ac = X_ac / (v_a v_c) */
                double diff = Xhat[a * s + c] * iv[a] - Xhat[b * s + c] * iv[b];
                dist += diff * diff; /* w_c / v_c^2 = 1 */
            }
            double score = fmin(zab, dist);
            if (score > best) {
                best = score;
                *pa = a;
                *pb = b;
            }
            if (zab > best_z) {
                best_z = zab;
                za = a;
                zb = b;
            }
        }
    if (best <= 1e-12 && best_z >= 0.0) { /* an integral-looking solution: split its closest pair */
        *pa = za;
        *pb = zb;
    }
    free(iv);
    free(is_cl);
    return CKM_OK;
}
