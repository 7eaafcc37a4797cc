/*
 * npy_load.c -- time to read points with ckm_dataset_read: a numpy .npy file against the
 * same data as CSV. Writes N x D uniform doubles (splitmix64 seed 1) as DIR/points.npy
 * (ckm_write_centers with a .npy path) and DIR/points.csv, then reads each REPS times
 * (page cache warm after the first) and prints one CSV row per read:
 *   format,n,d,rep,seconds
 * usage: npy_load DIR [N D REPS]   (defaults 1000000 16 5; the CSV is read twice at most)
 */
#include "bench_util.h"
#include "ckm.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: npy_load DIR [N D REPS]\n");
        return 2;
    }
    size_t n = argc > 2 ? (size_t)atol(argv[2]) : 1000000, d = argc > 3 ? (size_t)atol(argv[3]) : 16;
    int reps = argc > 4 ? atoi(argv[4]) : 5;
    double *X = malloc(n * d * sizeof(double));
    if (!X)
        return 1;
    uint64_t st = 1;
    for (size_t q = 0; q < n * d; q++)
        X[q] = bench_unif(&st);
    char npy[1024], csv[1024];
    snprintf(npy, sizeof npy, "%s/points.npy", argv[1]);
    snprintf(csv, sizeof csv, "%s/points.csv", argv[1]);
    ckm_err err = {CKM_OK, ""};
    if (ckm_write_centers(npy, X, n, d, &err) != CKM_OK || ckm_write_centers(csv, X, n, d, &err) != CKM_OK) {
        fprintf(stderr, "npy_load: %s\n", err.message);
        return 1;
    }
    printf("format,n,d,rep,seconds\n");
    const char *paths[2] = {npy, csv}, *names[2] = {"npy", "csv"};
    for (int f = 0; f < 2; f++)
        for (int r = 0; r < (f ? (reps < 2 ? reps : 2) : reps); r++) {
            ckm_dataset *ds = NULL;
            double t0 = bench_now();
            if (ckm_dataset_read(paths[f], NULL, &ds, &err) != CKM_OK) {
                fprintf(stderr, "npy_load: %s\n", err.message);
                return 1;
            }
            double t = bench_now() - t0;
            int same = ds->n == n && ds->d == d && memcmp(ds->X, X, n * d * sizeof(double)) == 0;
            printf("%s,%zu,%zu,%d,%.4f%s\n", names[f], n, d, r, t, same ? "" : ",MISMATCH");
            ckm_dataset_free(ds);
        }
    free(X);
    return 0;
}
