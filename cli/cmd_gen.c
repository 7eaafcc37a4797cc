/*
 * cmd_gen.c -- `ckm gen-constraints --labels FILE --count N --seed S`: a Wagstaff-style
 * random constraint set from ground-truth labels, written atomically or to stdout.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

enum { G_LABELS, G_COUNT_, G_MLF, G_SEED, G_OUT, G_HELP, G_COUNT };

int cmd_gen(int argc, char **argv)
{
    const char *cmd = "gen-constraints";
    cli_opt opts[G_COUNT] = {
        [G_LABELS] = {"labels", 0, "FILE", "ground-truth labels, one integer per line", NULL},
        [G_COUNT_] = {"count", 'n', "N", "number of constraints", NULL},
        [G_MLF] = {"ml-fraction", 0, "F", "share of must-links in [0,1] (default: as random pairs fall)", NULL},
        [G_SEED] = {"seed", 's', "S", "random seed (default 0)", NULL},
        [G_OUT] = {"out", 'o', "FILE", "output file (default: standard output)", NULL},
        [G_HELP] = {"help", 'h', NULL, "show this help", NULL},
    };
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, G_COUNT, pos, 0, &npos))
        return EXIT_USAGE;
    if (opts[G_HELP].value) {
        printf("usage: ckm gen-constraints --labels FILE --count N [--ml-fraction F] [--seed S] [--out FILE]\n\n"
               "Draw N distinct random pairs; must-link when their labels agree, else cannot-link.\n\noptions:\n");
        cli_print_options(opts, G_COUNT);
        return EXIT_SOLVED;
    }
    if (!opts[G_LABELS].value || !opts[G_COUNT_].value) {
        fprintf(stderr, "ckm gen-constraints: need --labels FILE and --count N (see --help)\n");
        return EXIT_USAGE;
    }
    size_t count;
    uint64_t seed = 0;
    double mlf = -1.0;
    if (!cli_size(cmd, "count", opts[G_COUNT_].value, &count) ||
        (opts[G_SEED].value && !cli_u64(cmd, "seed", opts[G_SEED].value, &seed)) ||
        (opts[G_MLF].value && !cli_double(cmd, "ml-fraction", opts[G_MLF].value, 0.0, &mlf)))
        return EXIT_USAGE;
    if (opts[G_MLF].value && mlf > 1.0) {
        fprintf(stderr, "ckm gen-constraints: --ml-fraction: %s is not in [0, 1]\n", opts[G_MLF].value);
        return EXIT_USAGE;
    }
    const char *inputs[] = {opts[G_LABELS].value};
    if (!cli_output_ok(cmd, opts[G_OUT].value, inputs, 1))
        return EXIT_USAGE;
    ckm_err err = {CKM_OK, ""};
    int32_t *labels = NULL;
    size_t n = 0;
    ckm_constraints *c = NULL;
    int code = EXIT_SOLVED;
    ckm_error rc;
    if ((rc = ckm_labels_read(opts[G_LABELS].value, &labels, &n, &err)) != CKM_OK ||
        (rc = ckm_constraints_generate(labels, n, count, mlf, seed, &c, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
    } else if (opts[G_OUT].value) {
        if ((rc = ckm_constraints_write(opts[G_OUT].value, c, &err)) != CKM_OK)
            code = cli_error(cmd, rc, &err);
    } else {
        for (size_t q = 0; q < c->count; q++)
            printf("%s %zu %zu\n", c->pairs[q].type == CKM_MUST_LINK ? "ML" : "CL", c->pairs[q].i,
                   c->pairs[q].j);
    }
    ckm_constraints_free(c);
    ckm_free(labels);
    return code;
}
