/*
 * gap.c -- the optimality test shared by ipc, exact and the SDP solver (rule in core.h).
 */
#include "core.h"

#include <math.h>

bool ckm_gap_closed(double ub, double lb, double rel, double tss)
{
    if (!isfinite(ub))
        return false;
    return ub - fmax(lb, 0.0) <= fmax(rel * ub, CKM_GAP_ABS * tss);
}
