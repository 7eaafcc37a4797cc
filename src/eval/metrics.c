/*
 * metrics.c -- agreement between two partitions of n points, from the contingency
 * table n_ij (row sums a_i, column sums b_j, N = n, N2 = C(N, 2)):
 *   pairs together in both  T  = sum_ij C(n_ij, 2);  S_a = sum_i C(a_i, 2);  S_b likewise
 *   ARI    = (T - S_a S_b / N2) / ((S_a + S_b)/2 - S_a S_b / N2)   (Hubert & Arabie 1985);
 *            1 when both partitions agree on every pair (scikit-learn's convention)
 *   agreements A = N2 + 2T - S_a - S_b, disagreements D = S_a + S_b - 2T
 *   Rand = A / N2, Mirkin = D / N2 (0 = identical), Hubert = (A - D) / N2 = 1 - 2 Mirkin
 *   MI   = sum_ij (n_ij/N) log(N n_ij / (a_i b_j)),  H(U) = -sum_i (a_i/N) log(a_i/N)
 *   NMI  = MI / ((H(U) + H(V)) / 2)
 *   AMI  = (MI - E[MI]) / ((H(U) + H(V)) / 2 - E[MI]), E[MI] exact under the
 *          hypergeometric model (Vinh, Epps & Bailey 2010), summed in log-gamma form.
 * Both NMI and AMI are 1 when each labelling has a single cluster (scikit-learn's rule).
 * Natural logarithms throughout. Cost O(n log n + R C min(a, b)) for E[MI].
 */
#include "core.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
    int32_t a, b;
} cell;

static int cmp_cell(const void *x, const void *y)
{
    const cell *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return 0;
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* Map labels to 0..m-1 (sorted order of distinct values). Returns m, 0 on failure. */
static size_t compact(const int32_t *l, size_t n, int32_t *out)
{
    int32_t *u = ckm_alloc_array(n, sizeof(int32_t));
    if (!u)
        return 0;
    memcpy(u, l, n * sizeof(int32_t));
    qsort(u, n, sizeof *u, cmp_i32);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || u[i] != u[m - 1])
            u[m++] = u[i];
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = m - 1;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (u[mid] < l[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        out[i] = (int32_t)lo;
    }
    free(u);
    return m;
}

static double choose2(double x) { return x * (x - 1.0) / 2.0; }

static double entropy(const double *c, size_t m, double N)
{
    double h = 0.0;
    for (size_t i = 0; i < m; i++)
        if (c[i] > 0.0)
            h -= (c[i] / N) * log(c[i] / N);
    return h;
}

static double expected_mi(const double *a, size_t R, const double *b, size_t C, double N)
{
    double emi = 0.0, lgN1 = lgamma(N + 1.0), logN = log(N);
    for (size_t i = 0; i < R; i++)
        for (size_t j = 0; j < C; j++) {
            double start = fmax(1.0, a[i] + b[j] - N), end = fmin(a[i], b[j]);
            double fixed = lgamma(a[i] + 1.0) + lgamma(b[j] + 1.0) + lgamma(N - a[i] + 1.0) +
                           lgamma(N - b[j] + 1.0) - lgN1;
            for (double nij = start; nij <= end; nij += 1.0) {
                double lp = fixed - lgamma(nij + 1.0) - lgamma(a[i] - nij + 1.0) -
                            lgamma(b[j] - nij + 1.0) - lgamma(N - a[i] - b[j] + nij + 1.0);
                emi += (nij / N) * (logN + log(nij) - log(a[i]) - log(b[j])) * exp(lp);
            }
        }
    return emi;
}

ckm_error ckm_compare(const int32_t *truth, const int32_t *pred, size_t n, ckm_scores *out, ckm_err *err)
{
    if (n == 0)
        return ckm_fail(err, CKM_ERR_INVALID, "cannot compare labellings of 0 points");
    for (size_t i = 0; i < n; i++)
        if (truth[i] < 0 || pred[i] < 0)
            return ckm_fail(err, CKM_ERR_INVALID, "label of point %zu is negative", i);
    int32_t *u = ckm_alloc_array(n, sizeof(int32_t)), *v = ckm_alloc_array(n, sizeof(int32_t));
    cell *cells = ckm_alloc_array(n, sizeof(cell));
    double *a = NULL, *b = NULL;
    size_t R = 0, C = 0;
    ckm_error rc = CKM_OK;
    if (!u || !v || !cells || !(R = compact(truth, n, u)) || !(C = compact(pred, n, v)) ||
        !(a = ckm_calloc_array(R, sizeof(double))) || !(b = ckm_calloc_array(C, sizeof(double)))) {
        rc = ckm_fail(err, CKM_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        cells[i].a = u[i];
        cells[i].b = v[i];
        a[u[i]] += 1.0;
        b[v[i]] += 1.0;
    }
    qsort(cells, n, sizeof *cells, cmp_cell);
    double N = (double)n, N2 = choose2(N), T = 0.0, mi = 0.0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && cells[j].a == cells[i].a && cells[j].b == cells[i].b)
            j++;
        double nij = (double)(j - i);
        T += choose2(nij);
        mi += (nij / N) * (log(nij) + log(N) - log(a[cells[i].a]) - log(b[cells[i].b]));
        i = j;
    }
    double Sa = 0.0, Sb = 0.0;
    for (size_t i = 0; i < R; i++)
        Sa += choose2(a[i]);
    for (size_t j = 0; j < C; j++)
        Sb += choose2(b[j]);
    if (T == Sa && T == Sb) {
        out->ari = 1.0;
    } else {
        double expected = Sa * Sb / N2;
        out->ari = (T - expected) / ((Sa + Sb) / 2.0 - expected);
    }
    if (N2 > 0.0) {
        double A = N2 + 2.0 * T - Sa - Sb, D = Sa + Sb - 2.0 * T;
        out->rand = A / N2;
        out->mirkin = D / N2;
        out->hubert = (A - D) / N2;
    } else {
        out->rand = 1.0;
        out->mirkin = 0.0;
        out->hubert = 1.0;
    }
    if (R == 1 && C == 1) {
        out->nmi = out->ami = 1.0;
    } else {
        if (mi < 0.0)
            mi = 0.0; /* rounding below an exact zero */
        double hu = entropy(a, R, N), hv = entropy(b, C, N), mean_h = (hu + hv) / 2.0;
        out->nmi = mi == 0.0 ? 0.0 : mi / fmax(mean_h, DBL_EPSILON);
        double emi = expected_mi(a, R, b, C, N), den = mean_h - emi;
        den = den < 0.0 ? fmin(den, -DBL_EPSILON) : fmax(den, DBL_EPSILON);
        out->ami = (mi - emi) / den;
    }
done:
    free(u);
    free(v);
    free(cells);
    free(a);
    free(b);
    return rc;
}
