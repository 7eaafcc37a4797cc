/*
 * limits.c -- the limits of a long computation (ckm_bk_limits, backend.h): none, and the
 * poll "a deadline passed or a stop was requested", shared by the COIN-OR solvers' event
 * handlers' callers and by the assignment steps' own loops (transport, auction, greedy).
 */
#include "backend.h"
#include "core.h"

#include <math.h>

ckm_bk_limits ckm_bk_no_limits(void) { return (ckm_bk_limits){INFINITY, NULL, NULL}; }

bool ckm_bk_limits_reached(const ckm_bk_limits *lim)
{
    return ckm_bk_limit_hit(lim) != 0;
}

int ckm_bk_limit_hit(const ckm_bk_limits *lim)
{
    if (!lim)
        return 0;
    if (ckm_now() > lim->deadline)
        return 1;
    return lim->stop && lim->stop(lim->stop_user) ? 2 : 0;
}
