/*
 * bibi.c -- the experiments of Bibi, AlQahtani & Ghanem (lp-box ADMM constrained
 * clustering) through the public API. Features scaled to [-1, 1] per feature (min-max;
 * the paper "normalises the data", and its k-means objectives -- wine 195.9, iris 29.9 --
 * are those of [-1, 1] scaling); k = number of classes. Every run is checked against the
 * experiment's full constraint set by ckm_check (the violations columns).
 * Experiments (column `experiment`):
 *   table2  k-means vs admm without constraints (the paper's "Km"): iris, wine, glass
 *   table3  k-means vs admm with the true cluster sizes ("Km-Car") on the synthetic sets
 *   table45 cop, admm ("Km-Pair"), blpkm, bckm with m must-links + m cannot-links,
 *           m in {20, 40, 60, 80, 100}: iris, wine
 *   table6  admm and blpkm with no constraints / sizes / pairs / both ("Km", "Km-Car",
 *           "Km-Pair", "Km-Mix") on iris, wine, glass (25 + 25 pairs), breast cancer
 *           (100 + 100), Balanced(3,3) and Imbalanced(0.1) (50 + 50)
 *   fig3    k-means vs admm with sizes + m ML + m CL, m in {0, 10, 20, 40, 60, 80, 100}:
 *           Imbalanced(0.1), wine
 * Synthetic sets (the paper's Figure 1 is lost; ckm's reconstruction of the text: 700
 * points, 2 clusters, different densities, k-means fails by density):
 *   Balanced(x, y)  350 points N((0,0), 0.25^2 I) + 350 points N((x,y), I)
 *   Imbalanced(y)   600 points N((0,0), I) + 100 points N((3,0), y^2 I)
 * (not rescaled). glass: the KEEL file has 6 classes present (the paper's table says 7);
 * k = 6.
 * Pairs are drawn by ckm_constraints_generate from the true labels (exactly m ML and m CL),
 * once per experiment cell (seed 1000 + m; the paper gives every method the same pairs),
 * except fig3, where every run draws its own pairs (a curve over m averaged over draws); runs r = 0..RUNS-1 use seed r and n_init 1
 * (the paper repeats each clustering 10 times with different initialisations).
 * Prints CSV rows:
 *   experiment,dataset,variant,algorithm,m,run,status,sse,ari,mirkin,hubert,ml_viol,cl_viol,size_viol,seconds
 * usage: bibi SHARED_DATA_DIR RUNS [EXPERIMENTS]   (comma list; default all)
 */
#include "bench_util.h"
#include "ckm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct data {
    const char *name;
    ckm_dataset *ds;
} data;

static void scale_pm1(ckm_dataset *ds)
{
    for (size_t f = 0; f < ds->d; f++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < ds->n; i++) {
            lo = fmin(lo, ds->X[i * ds->d + f]);
            hi = fmax(hi, ds->X[i * ds->d + f]);
        }
        for (size_t i = 0; i < ds->n; i++)
            ds->X[i * ds->d + f] = hi > lo ? 2.0 * (ds->X[i * ds->d + f] - lo) / (hi - lo) - 1.0 : 0.0;
    }
}

static ckm_dataset *read_labelled(const char *root, const char *file, int header)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", root, file);
    ckm_read_options ro;
    ckm_read_options_default(&ro);
    ro.label_column = CKM_LABEL_COLUMN_LAST;
    ro.header = header ? CKM_HEADER_YES : CKM_HEADER_AUTO;
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_dataset_read(path, &ro, &ds, &err) != CKM_OK) {
        fprintf(stderr, "bibi: %s\n", err.message);
        exit(1);
    }
    scale_pm1(ds);
    return ds;
}

static double gauss(uint64_t *st)
{
    return sqrt(-2.0 * log(bench_unif(st))) * cos(6.283185307179586 * bench_unif(st));
}

/* two Gaussian clusters: n1 points N(0, s1^2 I), n2 points N((cx,cy), s2^2 I); not scaled */
static ckm_dataset *synthetic(size_t n1, double s1, size_t n2, double cx, double cy, double s2, uint64_t seed)
{
    size_t n = n1 + n2;
    double *X = malloc(2 * n * sizeof *X);
    int32_t *lab = malloc(n * sizeof *lab);
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        int c = i >= n1;
        lab[i] = c;
        X[2 * i] = (c ? cx : 0.0) + (c ? s2 : s1) * gauss(&st);
        X[2 * i + 1] = (c ? cy : 0.0) + (c ? s2 : s1) * gauss(&st);
    }
    ckm_dataset *ds = NULL;
    ckm_err err = {CKM_OK, ""};
    if (ckm_dataset_from_array(X, n, 2, lab, &ds, &err) != CKM_OK) {
        fprintf(stderr, "bibi: %s\n", err.message);
        exit(1);
    }
    free(X);
    free(lab);
    return ds;
}

/* One cell: algorithm alg on ds with (sizes?) and m ML + m CL pairs, RUNS runs. The
 * algorithm gets only what it honours; the check uses everything. Pairs: one draw for the
 * cell (seed 1000 + m), or a new draw per run when per_run (seed 1000 + m + 7919 run). */
static void cell(const char *exp, const char *dname, const ckm_dataset *ds, const char *variant, const char *alg,
                 int use_sizes, size_t m, int runs, int per_run)
{
    ckm_err err = {CKM_OK, ""};
    size_t k = ds->n_classes, truth_size[16] = {0};
    for (size_t i = 0; i < ds->n; i++)
        truth_size[ds->labels[i]]++;
    const ckm_algorithm_info *info = ckm_algorithm_find(alg);
    int links = m > 0 && (info->honours & CKM_HONOURS_MUST_LINK) && (info->honours & CKM_HONOURS_CANNOT_LINK);
    int sizes = use_sizes && (info->honours & CKM_HONOURS_SIZE_BOUNDS);
    for (int run = 0; run < runs; run++) {
        ckm_constraints *cons = NULL;
        ckm_problem *p = NULL, *full = NULL;
        uint64_t cseed = 1000 + m + (per_run ? 7919 * (uint64_t)run : 0);
        if ((m > 0 && ckm_constraints_generate(ds->labels, ds->n, 2 * m, 0.5, cseed, &cons, &err) != CKM_OK) ||
            ckm_problem_create(ds->X, ds->n, ds->d, k, &p, &err) != CKM_OK ||
            ckm_problem_create(ds->X, ds->n, ds->d, k, &full, &err) != CKM_OK ||
            (cons && links && ckm_problem_add_constraints(p, cons, &err) != CKM_OK) ||
            (cons && ckm_problem_add_constraints(full, cons, &err) != CKM_OK) ||
            (sizes && ckm_problem_set_sizes(p, truth_size, truth_size, &err) != CKM_OK) ||
            (use_sizes && ckm_problem_set_sizes(full, truth_size, truth_size, &err) != CKM_OK)) {
            fprintf(stderr, "bibi: %s: %s\n", dname, err.message);
            exit(1);
        }
        ckm_settings s;
        ckm_settings_default(&s);
        snprintf(s.algorithm, sizeof s.algorithm, "%s", alg);
        s.seed = (uint64_t)run;
        s.n_init = 1;
        ckm_result *r = NULL;
        double t0 = bench_now();
        if (ckm_solve(p, &s, &r, &err) != CKM_OK) {
            fprintf(stderr, "bibi: %s %s %s: %s\n", dname, variant, alg, err.message);
            exit(1);
        }
        double secs = bench_now() - t0;
        ckm_scores sc = {0, 0, 0, 0, 0, 0};
        size_t mlv = 0, clv = 0, szv = 0;
        if (r->has_labels) {
            ckm_compare(ds->labels, r->labels, ds->n, &sc, &err);
            ckm_check_report *rep = NULL;
            if (ckm_check(full, r->labels, &rep, &err) == CKM_OK) {
                mlv = rep->must_link_violated;
                clv = rep->cannot_link_violated;
                szv = rep->size_violated;
            }
            ckm_check_report_free(rep);
        }
        printf("%s,%s,%s,%s,%zu,%d,%s,%.10g,%.6f,%.6f,%.6f,%zu,%zu,%zu,%.4f\n", exp, dname, variant, alg, m, run,
               ckm_status_string(r->status), r->has_labels ? r->sse : -1.0, r->has_labels ? sc.ari : NAN,
               r->has_labels ? sc.mirkin : NAN, r->has_labels ? sc.hubert : NAN, mlv, clv, szv, secs);
        fflush(stdout);
        ckm_result_free(r);
        ckm_problem_free(p);
        ckm_problem_free(full);
        ckm_constraints_free(cons);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: bibi SHARED_DATA_DIR RUNS [EXPERIMENTS]\n");
        return 2;
    }
    const char *root = argv[1];
    int runs = atoi(argv[2]);
    const char *only = argc == 4 ? argv[3] : "table2,table3,table45,table6,fig3";
    data iris = {"iris", read_labelled(root, "sklearn-bundled/iris.csv", 1)};
    data wine = {"wine", read_labelled(root, "sklearn-bundled/wine_data.csv", 1)};
    data glass = {"glass", read_labelled(root, "dils-cc-datasets/keel/glass.dat", 0)};
    data breast = {"breast_cancer", read_labelled(root, "sklearn-bundled/breast_cancer.csv", 1)};
    data bal[3] = {{"balanced_2_2", synthetic(350, 0.25, 350, 2, 2, 1.0, 21)},
                   {"balanced_3_3", synthetic(350, 0.25, 350, 3, 3, 1.0, 22)},
                   {"balanced_4_4", synthetic(350, 0.25, 350, 4, 4, 1.0, 23)}};
    data imb[2] = {{"imbalanced_0.1", synthetic(600, 1.0, 100, 3, 0, 0.1, 31)},
                   {"imbalanced_0.3", synthetic(600, 1.0, 100, 3, 0, 0.3, 32)}};
    printf("experiment,dataset,variant,algorithm,m,run,status,sse,ari,mirkin,hubert,ml_viol,cl_viol,size_viol,"
           "seconds\n");
    if (bench_in_list(only, "table2")) {
        data *t2[3] = {&iris, &wine, &glass};
        for (int q = 0; q < 3; q++) {
            cell("table2", t2[q]->name, t2[q]->ds, "none", "kmeans", 0, 0, runs, 0);
            cell("table2", t2[q]->name, t2[q]->ds, "none", "admm", 0, 0, runs, 0);
        }
    }
    if (bench_in_list(only, "table3")) {
        data *t3[5] = {&bal[0], &bal[1], &bal[2], &imb[0], &imb[1]};
        for (int q = 0; q < 5; q++) {
            cell("table3", t3[q]->name, t3[q]->ds, "car", "kmeans", 1, 0, runs, 0);
            cell("table3", t3[q]->name, t3[q]->ds, "car", "admm", 1, 0, runs, 0);
        }
    }
    if (bench_in_list(only, "table45")) {
        data *t4[2] = {&wine, &iris};
        const char *algs[4] = {"cop", "admm", "blpkm", "bckm"};
        for (int q = 0; q < 2; q++)
            for (size_t m = 20; m <= 100; m += 20)
                for (int a = 0; a < 4; a++)
                    cell("table45", t4[q]->name, t4[q]->ds, "pair", algs[a], 0, m, runs, 0);
    }
    if (bench_in_list(only, "table6")) {
        data *t6[6] = {&iris, &wine, &glass, &breast, &bal[1], &imb[0]};
        size_t ms[6] = {25, 25, 25, 100, 50, 50};
        const char *variants[4] = {"none", "car", "pair", "mix"};
        for (int q = 0; q < 6; q++)
            for (int v = 0; v < 4; v++)
                for (int a = 0; a < 2; a++)
                    cell("table6", t6[q]->name, t6[q]->ds, variants[v], a ? "blpkm" : "admm", v == 1 || v == 3,
                         v >= 2 ? ms[q] : 0, runs, 0);
    }
    if (bench_in_list(only, "fig3")) {
        data *f3[2] = {&imb[0], &wine};
        size_t ms[7] = {0, 10, 20, 40, 60, 80, 100};
        for (int q = 0; q < 2; q++)
            for (int i = 0; i < 7; i++) {
                cell("fig3", f3[q]->name, f3[q]->ds, "mix", "kmeans", 1, ms[i], runs, 1);
                cell("fig3", f3[q]->name, f3[q]->ds, "mix", "admm", 1, ms[i], runs, 1);
            }
    }
    ckm_dataset *all[9] = {iris.ds, wine.ds, glass.ds, breast.ds, bal[0].ds, bal[1].ds, bal[2].ds, imb[0].ds, imb[1].ds};
    for (int q = 0; q < 9; q++)
        ckm_dataset_free(all[q]);
    return 0;
}
