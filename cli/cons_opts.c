/*
 * cons_opts.c -- the one option group for the constraints, the same on every command that
 * builds a problem (cluster, check, certify, assign, report): pairs (--constraints), sizes
 * (--min-size, --max-size, --sizes, --balanced), demands and capacities. Invariant: the same
 * group values give the same problem whichever command reads them, so labels found by
 * `cluster` are checked, certified, re-assigned and drawn under the constraints they were
 * found under.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static const cli_opt cons_options[CLI_CONS_COUNT] = {
    [CLI_CONS_PAIRS] = {"constraints", 'c', "FILE",
                        "must/cannot-links: 'ML i j' / 'CL i j' (or 'i j 1' / 'i j -1'), 0-based; a 4th field "
                        "'ML i j 0.8' makes the pair soft with that confidence in (0, 1] (blpkm solves with soft "
                        "pairs; check and report show them; certify and assign refuse them)", NULL},
    [CLI_CONS_MIN] = {"min-size", 0, "N", "every cluster has at least N points", NULL},
    [CLI_CONS_MAX] = {"max-size", 0, "N", "every cluster has at most N points", NULL},
    [CLI_CONS_SIZES] = {"sizes", 0, "FILE", "per-cluster bounds: K lines 'lo hi' or one exact size", NULL},
    [CLI_CONS_BAL] = {"balanced", 0, NULL, "sizes floor(n/K)..ceil(n/K) for every cluster", NULL},
    [CLI_CONS_DEMANDS] = {"demands", 0, "FILE",
                          "demand of each point, one per line (>= 0; .npy too): what capacity bounds sum "
                          "(population, workload); independent of weights and sizes", NULL},
    [CLI_CONS_MINCAP] = {"min-capacity", 0, "X", "every cluster's total demand is at least X (needs --demands)",
                         NULL},
    [CLI_CONS_MAXCAP] = {"max-capacity", 0, "X", "every cluster's total demand is at most X (needs --demands)",
                         NULL},
    [CLI_CONS_CAPS] = {"capacities", 0, "FILE",
                       "per-cluster capacity bounds: K lines 'lo hi' (hi may be inf) or one exact capacity", NULL},
};

void cli_cons_group_init(cli_opt *group)
{
    memcpy(group, cons_options, sizeof cons_options);
}

void cli_print_cons_options(const cli_opt *group)
{
    printf("\nconstraint options (the same on every command that takes constraints):\n");
    cli_print_options(group, CLI_CONS_COUNT);
}

int cli_cons_apply(const char *cmd, const cli_opt *g, ckm_problem *p)
{
    int code;
    if (g[CLI_CONS_PAIRS].value && (code = cli_add_constraints(cmd, p, g[CLI_CONS_PAIRS].value)) != EXIT_SOLVED)
        return code;
    if (!cli_apply_sizes(cmd, p, g[CLI_CONS_MIN].value, g[CLI_CONS_MAX].value, g[CLI_CONS_SIZES].value,
                         g[CLI_CONS_BAL].value))
        return EXIT_USAGE;
    return cli_apply_capacities(cmd, p, g[CLI_CONS_DEMANDS].value, g[CLI_CONS_MINCAP].value, g[CLI_CONS_MAXCAP].value,
                                g[CLI_CONS_CAPS].value);
}
