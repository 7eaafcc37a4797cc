/*
 * cmd_eval.c -- `ckm eval [DATA] --pred FILE [--truth FILE]`: agreement scores between two
 * labellings (one integer label per line each, or .npy); given DATA (read by the data options,
 * as every command reads it), the truth may be its label column and the predicted labels'
 * SSE on DATA is printed too (weighted / standardized as the options say, as `check` and
 * `certify` compute it).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E_TRUTH, E_PRED, E_HELP, E_DATA, E_COUNT = E_DATA + CLI_DATA_COUNT };

static const cli_opt eval_options[E_COUNT] = {
    [E_TRUTH] = {"truth", 0, "FILE", "reference labels, one integer per line (with DATA: default its --label-column)",
                 NULL},
    [E_PRED] = {"pred", 0, "FILE", "predicted labels, one integer per line", NULL},
    [E_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

static void usage(const cli_opt *opts)
{
    printf("usage: ckm eval [DATA] --pred FILE [--truth FILE] [data options]\n\n"
           "Print ARI, NMI and AMI (arithmetic normalisation, as scikit-learn), the Rand,\n"
           "Mirkin (disagreeing pairs / C(n,2)) and Hubert ((agree - disagree) / C(n,2)) indices\n"
           "of --pred against the truth (--truth, or DATA's --label-column). Given DATA, also\n"
           "the SSE of --pred on it.\n\noptions:\n");
    cli_print_options(opts, E_DATA);
    cli_print_data_options(opts + E_DATA);
}

/* the scores of pred against truth (n each) on stdout; EXIT_SOLVED or the printed error's code */
static int print_scores(const int32_t *truth, const int32_t *pred, size_t n)
{
    ckm_err err = {CKM_OK, ""};
    ckm_scores sc;
    ckm_error rc = ckm_compare(truth, pred, n, &sc, &err);
    if (rc != CKM_OK)
        return cli_error("eval", rc, &err);
    printf("ARI     %.6f\nNMI     %.6f\nAMI     %.6f\nRand    %.6f\nMirkin  %.6f\nHubert  %.6f\n", sc.ari, sc.nmi,
           sc.ami, sc.rand, sc.mirkin, sc.hubert);
    return EXIT_SOLVED;
}

/* two label files */
static int eval_files(const cli_opt *opts)
{
    ckm_err err = {CKM_OK, ""};
    int32_t *t = NULL, *pr = NULL;
    size_t nt = 0, np = 0;
    int code = EXIT_SOLVED;
    ckm_error rc;
    if ((rc = ckm_labels_read(opts[E_TRUTH].value, &t, &nt, &err)) != CKM_OK ||
        (rc = ckm_labels_read(opts[E_PRED].value, &pr, &np, &err)) != CKM_OK) {
        code = cli_error("eval", rc, &err);
    } else if (nt != np) {
        fprintf(stderr, "ckm eval: %s has %zu labels but %s has %zu\n", opts[E_TRUTH].value, nt, opts[E_PRED].value,
                np);
        code = EXIT_USAGE;
    } else {
        printf("n       %zu\n", nt);
        code = print_scores(t, pr, nt);
    }
    ckm_free(t);
    ckm_free(pr);
    return code;
}

/* DATA, its truth (--truth or the label column) and --pred: the scores and the SSE */
static int eval_data(const cli_opt *opts, const char *data)
{
    ckm_dataset *ds = NULL;
    ckm_problem *p = NULL;
    ckm_check_report *rep = NULL;
    int32_t *pred = NULL, *truth = NULL;
    size_t k = 0, nt = 0;
    ckm_err err = {CKM_OK, ""};
    ckm_error rc;
    cli_labelled_args la = {.data = data, .labels = opts[E_PRED].value, .data_group = opts + E_DATA, .empty_ok = true};
    int code = cli_labelled_problem("eval", &la, &ds, &p, &pred, &k);
    if (code != EXIT_SOLVED)
        goto done;
    if ((rc = ckm_check(p, pred, &rep, &err)) != CKM_OK) {
        code = cli_error("eval", rc, &err);
        goto done;
    }
    const int32_t *t = ds->labels;
    if (opts[E_TRUTH].value) {
        if ((rc = ckm_labels_read(opts[E_TRUTH].value, &truth, &nt, &err)) != CKM_OK) {
            code = cli_error("eval", rc, &err);
            goto done;
        }
        if (nt != ds->n) {
            fprintf(stderr, "ckm eval: %s has %zu labels but %s has %zu points\n", opts[E_TRUTH].value, nt, data,
                    ds->n);
            code = EXIT_USAGE;
            goto done;
        }
        t = truth;
    }
    printf("n       %zu\n%s %.10g\n", ds->n, ckm_problem_weights(p) ? "wSSE   " : "SSE    ", rep->sse);
    if (t)
        code = print_scores(t, pred, ds->n);
done:
    ckm_check_report_free(rep);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    ckm_free(pred);
    ckm_free(truth);
    return code;
}

int cmd_eval(int argc, char **argv)
{
    const char *cmd = "eval";
    cli_opt opts[E_COUNT];
    memcpy(opts, eval_options, sizeof opts);
    cli_data_group_init(opts + E_DATA);
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, E_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[E_HELP].value) {
        usage(opts);
        return EXIT_SOLVED;
    }
    if (!opts[E_PRED].value || (npos == 0 && !opts[E_TRUTH].value)) {
        fprintf(stderr, "ckm eval: need --pred FILE and the truth: --truth FILE, or DATA with --label-column "
                        "(see 'ckm eval --help')\n");
        return EXIT_USAGE;
    }
    if (npos == 0 && cli_given(opts + E_DATA, 0, CLI_DATA_COUNT - 1)) {
        fprintf(stderr, "ckm eval: the data options need DATA (ckm eval DATA --pred FILE ...)\n");
        return EXIT_USAGE;
    }
    return npos == 0 ? eval_files(opts) : eval_data(opts, pos[0]);
}
