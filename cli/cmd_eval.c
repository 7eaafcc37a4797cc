/*
 * cmd_eval.c -- `ckm eval --truth FILE --pred FILE`: agreement scores between two
 * labellings (one integer label per line each).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

enum { E_TRUTH, E_PRED, E_HELP, E_COUNT };

int cmd_eval(int argc, char **argv)
{
    const char *cmd = "eval";
    cli_opt opts[E_COUNT] = {
        [E_TRUTH] = {"truth", 0, "FILE", "reference labels, one integer per line", NULL},
        [E_PRED] = {"pred", 0, "FILE", "predicted labels, one integer per line", NULL},
        [E_HELP] = {"help", 'h', NULL, "show this help", NULL},
    };
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, E_COUNT, pos, 0, &npos))
        return EXIT_USAGE;
    if (opts[E_HELP].value) {
        printf("usage: ckm eval --truth FILE --pred FILE\n\n"
               "Print ARI, NMI and AMI (arithmetic normalisation, as scikit-learn), the Rand,\n"
               "Mirkin (disagreeing pairs / C(n,2)) and Hubert ((agree - disagree) / C(n,2)) indices.\n\noptions:\n");
        cli_print_options(opts, E_COUNT);
        return EXIT_SOLVED;
    }
    if (!opts[E_TRUTH].value || !opts[E_PRED].value) {
        fprintf(stderr, "ckm eval: need --truth FILE and --pred FILE (see 'ckm eval --help')\n");
        return EXIT_USAGE;
    }
    ckm_err err = {CKM_OK, ""};
    int32_t *t = NULL, *pr = NULL;
    size_t nt = 0, np = 0;
    int code = EXIT_SOLVED;
    ckm_error rc;
    ckm_scores sc;
    if ((rc = ckm_labels_read(opts[E_TRUTH].value, &t, &nt, &err)) != CKM_OK ||
        (rc = ckm_labels_read(opts[E_PRED].value, &pr, &np, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
    } else if (nt != np) {
        fprintf(stderr, "ckm eval: %s has %zu labels but %s has %zu\n", opts[E_TRUTH].value, nt,
                opts[E_PRED].value, np);
        code = EXIT_USAGE;
    } else if ((rc = ckm_compare(t, pr, nt, &sc, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
    } else {
        printf("n       %zu\nARI     %.6f\nNMI     %.6f\nAMI     %.6f\nRand    %.6f\nMirkin  %.6f\nHubert  %.6f\n",
               nt, sc.ari, sc.nmi, sc.ami, sc.rand, sc.mirkin, sc.hubert);
    }
    ckm_free(t);
    ckm_free(pr);
    return code;
}
