/*
 * soft.c -- soft pairs on the reduced problem (reduced.h, docs/soft.md).
 *   Input: soft pairs (i, j, type, confidence c in (0, 1]) as added to the problem.
 *   Point pair -> group pair (a, b) = (comp i, comp j):
 *     a = b                        ML always satisfied (redundant), CL always violated;
 *     hard cannot-link a - b       CL always satisfied (redundant), ML always violated;
 *     otherwise                    net_ab += c (ML) or -= c (CL).
 *   Each group pair with net != 0 becomes one model pair: must-link of confidence net if
 *   net > 0, cannot-link of confidence -net if net < 0. For any labelling l the input
 *   penalty sum_q c_q [q violated] equals sum_e |net_e| [e violated] plus a constant that
 *   does not depend on l (the decided pairs' and the netted-out confidence), so both have
 *   the same minimisers; the reported penalty is the input one, from the checker.
 * Cost: O(soft pairs) expected (hash map on group pairs).
 */
#include "core.h"
#include "pairset.h"
#include "problem_impl.h"
#include "reduced.h"

#include <math.h>
#include <stdlib.h>

bool ckm_reduce_soft(const ckm_problem *p, ckm_reduced *r, const ckm_pairset *clset)
{
    r->n_soft = 0;
    r->soft_redundant = r->soft_contradicted = 0;
    if (p->n_soft == 0)
        return true;
    ckm_pairset net;
    ckm_pairset_init(&net);
    size_t cap = 0, wcap = 0;
    bool ok = true;
    for (size_t q = 0; q < p->n_soft && ok; q++) {
        size_t a = r->comp[p->soft[q].i], b = r->comp[p->soft[q].j];
        bool ml = p->soft[q].type == CKM_MUST_LINK;
        if (a > b) {
            size_t t = a;
            a = b;
            b = t;
        }
        bool apart = a != b && ckm_pairset_find(clset, a, b, NULL);
        if (a == b || apart) {
            /* together (a = b) or apart (hard cannot-link): the hard constraints decide */
            if (ml == (a == b))
                r->soft_redundant++;
            else
                r->soft_contradicted++;
            continue;
        }
        double signed_c = ml ? p->soft_conf[q] : -p->soft_conf[q];
        size_t e;
        if (ckm_pairset_find(&net, a, b, &e)) {
            r->soft_w[e] += signed_c;
            continue;
        }
        ok = ckm_grow((void **)&r->soft, &cap, 2 * (r->n_soft + 1), sizeof(size_t)) &&
             ckm_grow((void **)&r->soft_w, &wcap, r->n_soft + 1, sizeof(double)) &&
             ckm_pairset_insert(&net, a, b, r->n_soft);
        if (ok) {
            r->soft[2 * r->n_soft] = a;
            r->soft[2 * r->n_soft + 1] = b;
            r->soft_w[r->n_soft++] = signed_c;
        }
    }
    ckm_pairset_free(&net);
    /* drop the pairs that netted out exactly */
    size_t kept = 0;
    for (size_t e = 0; e < r->n_soft; e++)
        if (r->soft_w[e] != 0.0) {
            r->soft[2 * kept] = r->soft[2 * e];
            r->soft[2 * kept + 1] = r->soft[2 * e + 1];
            r->soft_w[kept++] = r->soft_w[e];
        }
    r->n_soft = kept;
    return ok;
}

double ckm_soft_cost(const ckm_reduced *r, const int32_t *labels)
{
    double f = 0.0;
    for (size_t e = 0; e < r->n_soft; e++) {
        bool same = labels[r->soft[2 * e]] == labels[r->soft[2 * e + 1]];
        if (same != (r->soft_w[e] > 0.0))
            f += fabs(r->soft_w[e]);
    }
    return r->soft_P * f;
}
