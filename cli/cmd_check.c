/*
 * cmd_check.c -- `ckm check DATA --labels FILE`: the library's independent checker on a
 * labelling from anywhere. Prints the SSE and every violated constraint; exit 0 only
 * when there is none (5 otherwise).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_LABELS, C_K, C_HELP, C_CONS, C_DATA = C_CONS + CLI_CONS_COUNT, C_COUNT = C_DATA + CLI_DATA_COUNT };

/* the options of `ckm check` (values filled by cli_parse in a copy) */
static const cli_opt check_options[C_COUNT] = {
    [C_LABELS] = {"labels", 0, "FILE", "labelling to check: one 0-based cluster id per line", NULL},
    [C_K] = {"k", 'k', "K", "number of clusters (default: largest label + 1)", NULL},
    [C_HELP] = {"help", 'h', NULL, "show this help", NULL},
};

/* The check's report on stdout: SSE, sizes, one line per violation, the counts and the
 * soft pairs. cons: the constraint file (its line numbers name the pairs), or NULL. */
static void print_report(const ckm_problem *p, const ckm_check_report *rep, const int32_t *labels, size_t k,
                         const char *cons, bool weighted)
{
    printf("%s %.10g\n", weighted ? "weighted SSE" : "SSE", rep->sse);
    printf("sizes");
    for (size_t j = 0; j < k; j++)
        printf(" %zu", rep->sizes[j]);
    printf("\n");
    if (rep->loads && (ckm_problem_demands(p) || ckm_problem_has_capacities(p))) {
        printf("loads");
        for (size_t j = 0; j < k; j++)
            printf(" %.10g", rep->loads[j]);
        printf("\n");
    }
    for (size_t q = 0; q < rep->count; q++) {
        const ckm_violation *vi = &rep->violations[q];
        if (vi->kind == CKM_VIOLATION_PAIR) {
            ckm_pair pr;
            if (ckm_problem_pair(p, vi->index, &pr, NULL) != CKM_OK)
                continue; /* cannot happen: the checker reports stored pairs */
            printf("violated %s %zu %zu (labels %d, %d)", pr.type == CKM_MUST_LINK ? "ML" : "CL",
                   pr.i, pr.j, (int)labels[pr.i], (int)labels[pr.j]);
            if (pr.line)
                printf(" [%s:%zu]", cons, pr.line);
            printf("\n");
        } else if (vi->kind == CKM_VIOLATION_SIZE) {
            size_t lo, hi;
            if (ckm_problem_size_bounds(p, vi->index, &lo, &hi, NULL) != CKM_OK)
                continue; /* cannot happen: the checker reports clusters < k */
            printf("violated size of cluster %zu: %lld points, allowed %zu..%zu\n", vi->index,
                   vi->value, lo, hi);
        } else if (vi->kind == CKM_VIOLATION_CAPACITY) {
            double lo, hi;
            if (ckm_problem_capacity_bounds(p, vi->index, &lo, &hi, NULL) != CKM_OK)
                continue;
            printf("violated capacity of cluster %zu: load %.10g, allowed %.10g..%.10g\n", vi->index,
                   rep->loads[vi->index], lo, hi);
        } else {
            printf("invalid label %lld of point %zu (k = %zu)\n", vi->value, vi->index, k);
        }
    }
    printf("%zu violation%s (%zu must-link, %zu cannot-link, %zu size, %zu capacity, %zu label)\n", rep->count,
           rep->count == 1 ? "" : "s", rep->must_link_violated, rep->cannot_link_violated,
           rep->size_violated, rep->capacity_violated, rep->label_invalid);
    if (ckm_problem_soft_pair_count(p) > 0)
        /* soft pairs may be violated: reported, not violations (P is a solve setting, so the
         * confidence sum is given, not a penalty) */
        printf("soft pairs: %zu must-link and %zu cannot-link of %zu violated, confidence %.10g\n",
               rep->soft_must_link_violated, rep->soft_cannot_link_violated, ckm_problem_soft_pair_count(p),
               rep->soft_violated_confidence);
}

int cmd_check(int argc, char **argv)
{
    const char *cmd = "check";
    cli_opt opts[C_COUNT];
    memcpy(opts, check_options, sizeof opts);
    cli_cons_group_init(opts + C_CONS);
    cli_data_group_init(opts + C_DATA);
    const char *pos[1];
    size_t npos;
    if (!cli_parse(cmd, argc, argv, 2, opts, C_COUNT, pos, 1, &npos))
        return EXIT_USAGE;
    if (opts[C_HELP].value) {
        printf("usage: ckm check DATA --labels FILE [constraint options] [data options]\n\n"
               "Verify a labelling against every constraint and recompute its SSE. Labels must\n"
               "lie in [0, k); clusters may be empty unless --min-size/--sizes say otherwise.\n\noptions:\n");
        cli_print_options(opts, C_CONS);
        cli_print_cons_options(opts + C_CONS);
        cli_print_data_options(opts + C_DATA);
        printf("exit codes: 0 no violation, 2 usage/input error, 5 violations found\n");
        return EXIT_SOLVED;
    }
    if (npos != 1 || !opts[C_LABELS].value) {
        fprintf(stderr, "ckm check: need DATA and --labels FILE (see 'ckm check --help')\n");
        return EXIT_USAGE;
    }
    ckm_err err = {CKM_OK, ""};
    int code;
    ckm_dataset *ds = NULL;
    ckm_problem *p = NULL;
    ckm_check_report *rep = NULL;
    int32_t *labels = NULL;
    size_t k = 0;
    ckm_error rc;
    cli_labelled_args la = {.data = pos[0], .labels = opts[C_LABELS].value, .k = opts[C_K].value,
                            .data_group = opts + C_DATA, .cons_group = opts + C_CONS, .empty_ok = true};
    if ((code = cli_labelled_problem(cmd, &la, &ds, &p, &labels, &k)) != EXIT_SOLVED)
        goto done;
    if ((rc = ckm_check(p, labels, &rep, &err)) != CKM_OK) {
        code = cli_error(cmd, rc, &err);
        goto done;
    }
    print_report(p, rep, labels, k, opts[C_CONS + CLI_CONS_PAIRS].value, opts[C_DATA + CLI_DATA_WEIGHTS].value != NULL);
    code = rep->count == 0 ? EXIT_SOLVED : EXIT_VIOLATIONS;
done:
    ckm_check_report_free(rep);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    ckm_free(labels);
    return code;
}
