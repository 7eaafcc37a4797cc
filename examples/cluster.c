/* cluster.c -- the README's library example: read a CSV, cluster it, check a labelling. */
#include <ckm.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "data/iris.csv";
    ckm_err err = {0};
    ckm_dataset *ds = NULL;
    ckm_problem *p = NULL;
    ckm_result *r = NULL;
    ckm_check_report *chk = NULL;
    int code = 1;
    if (ckm_dataset_read(path, NULL, &ds, &err) != CKM_OK ||
        ckm_problem_create(ds->X, ds->n, ds->d, 3, &p, &err) != CKM_OK)
        goto fail;
    ckm_settings s;
    ckm_settings_default(&s); /* kmeans, 10 restarts, seed 0 */
    s.seed = 1;
    if (ckm_solve(p, &s, &r, &err) != CKM_OK)
        goto fail;
    printf("%s: SSE %.6f, sizes %zu %zu %zu\n", ckm_status_string(r->status), r->sse,
           r->sizes[0], r->sizes[1], r->sizes[2]);
    /* constraints are checked by the same independent checker the solver uses */
    if (ckm_problem_add_pair(p, 0, 1, CKM_MUST_LINK, &err) != CKM_OK ||
        ckm_check(p, r->labels, &chk, &err) != CKM_OK)
        goto fail;
    printf("must-link (0, 1) violated: %s\n", chk->must_link_violated ? "yes" : "no");
    code = 0;
    goto done;
fail:
    fprintf(stderr, "error: %s\n", err.message);
done:
    ckm_check_report_free(chk);
    ckm_result_free(r);
    ckm_problem_free(p);
    ckm_dataset_free(ds);
    return code;
}
