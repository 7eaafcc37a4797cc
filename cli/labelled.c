/*
 * labelled.c -- the problem of a labelling from elsewhere, as `ckm check`, `ckm certify` and
 * `ckm eval` read it: DATA (by the data options: format, label column, standardized,
 * weights), the labels (one per point), k (given, or the largest label + 1), and the
 * constraint options (pairs, sizes, capacities) on top.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>

int cli_labelled_problem(const char *cmd, const cli_labelled_args *a, ckm_dataset **ds, ckm_problem **p,
                         int32_t **labels, size_t *k)
{
    ckm_err err = {CKM_OK, ""};
    ckm_error rc;
    size_t nl = 0;
    *ds = NULL;
    *p = NULL;
    *labels = NULL;
    int code = cli_read_data(cmd, a->data_group, a->data, ds);
    if (code != EXIT_SOLVED)
        return code;
    if ((rc = ckm_labels_read(a->labels, labels, &nl, &err)) != CKM_OK)
        return cli_error(cmd, rc, &err);
    if (nl != (*ds)->n) {
        fprintf(stderr, "ckm %s: %s has %zu labels but %s has %zu points\n", cmd, a->labels, nl, a->data, (*ds)->n);
        return EXIT_USAGE;
    }
    *k = 0;
    for (size_t i = 0; i < nl; i++)
        if ((size_t)(*labels)[i] + 1 > *k)
            *k = (size_t)(*labels)[i] + 1;
    if (a->k && !cli_size(cmd, "k", a->k, k))
        return EXIT_USAGE;
    if ((rc = ckm_problem_create((*ds)->X, (*ds)->n, (*ds)->d, *k, p, &err)) != CKM_OK)
        return cli_error(cmd, rc, &err);
    /* check: a labelling may leave clusters empty unless the user bounds sizes */
    if (a->empty_ok && (rc = ckm_problem_set_size_range(*p, 0, (*ds)->n, &err)) != CKM_OK)
        return cli_error(cmd, rc, &err);
    if ((code = cli_data_weights(cmd, a->data_group, *p)) != EXIT_SOLVED)
        return code;
    return a->cons_group ? cli_cons_apply(cmd, a->cons_group, *p) : EXIT_SOLVED;
}
