/*
 * test_sdp_dsdp.c -- cross-check of ckm's SDP bound against DSDP 5.8 (Debian libdsdp-dev, a
 * test-only dependency) on the same relaxation without cuts, n <= 30.
 *
 * DSDP gets the relaxation written out here from the raw points and the formulas of
 * docs/formulations.md, not through ckm's preprocessing or sdp code: must-link groups t
 * (disjoint pairs: point j joins point i), weights w_t, means m_t, data mean mu,
 *   min tau0 - <What, X>  s.t.  X v = v (v = sqrt w),  tr X = k,  X_ab = 0 (cannot-linked
 *                              groups),  X >= 0,  X PSD,
 *   What_ab = sqrt(w_a w_b) <m_a - mu, m_b - mu>,  tau0 = sum_i ||x_i - mu||^2.
 * (The uncompressed n x n model with equal rows for must-linked points has no positive
 * definite feasible point, and DSDP then stops with an indefinite Schur matrix: measured.)
 * DSDP solves the dual (D): max b'y s.t. C - sum_i y_i A_i PSD with C = -What, one y per
 * equality row and one y = n_ab >= 0 per sign constraint X_ab >= 0 (matrix Sym(e_a e_b'),
 * <Sym, X> = X_ab; LP cone row -n_ab <= 0; none on cannot-link entries). tau0 + its dual
 * objective is the relaxation's value; ckm's safe bound (tolerance 1e-8) must match it to
 * 1e-5 relative on random points, n = 12..30, with and without links (measured: <= 4.1e-8).
 * Internal-contract test (includes src headers); linked with -ldsdp.
 */
#include "../check.h"
#include "../oracle.h"
#include "../internal/sdp_fixture.h"

#include <dsdp/dsdp5.h>

static uint64_t st = 91;
static double unif(void) { return ck_unif(&st); }

/* one sparse symmetric matrix in DSDP's packed lower-triangular indexing */
typedef struct smat {
    int nnz, cap;
    int *ind;
    double *val;
} smat;

static void smat_add(smat *m, int i, int j, double v)
{
    if (i < j) {
        int t = i;
        i = j;
        j = t;
    }
    int idx = i * (i + 1) / 2 + j;
    for (int q = 0; q < m->nnz; q++)
        if (m->ind[q] == idx) {
            m->val[q] += v;
            return;
        }
    if (m->nnz == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 4;
        m->ind = realloc(m->ind, (size_t)m->cap * sizeof(int));
        m->val = realloc(m->val, (size_t)m->cap * sizeof(double));
    }
    m->ind[m->nnz] = idx;
    m->val[m->nnz++] = v;
}

/* <Sym(e_a e_b'), Z> = Z_ab: entry 1/2 at (a, b) and (b, a), i.e. 1/2 stored once; 1 if a = b */
static void smat_sym(smat *m, int a, int b, double coef) { smat_add(m, a, b, a == b ? coef : 0.5 * coef); }

/* tau0 + DSDP's dual objective (the relaxation's optimum); NAN unless DSDP converged.
 * Must-link pairs must be disjoint (each merges its second point into its first). */
static double dsdp_bound(const double *X, int n, int d, int k, const oracle_pair *pairs, int np)
{
    /* groups: point j of a must-link (i, j) joins i's group */
    int *g = malloc((size_t)n * sizeof(int)), s = 0;
    for (int i = 0; i < n; i++)
        g[i] = -1;
    for (int q = 0; q < np; q++)
        if (pairs[q].ml)
            g[pairs[q].j] = -2 - pairs[q].i;
    for (int i = 0; i < n; i++)
        if (g[i] == -1)
            g[i] = s++;
    for (int i = 0; i < n; i++)
        if (g[i] <= -2)
            g[i] = g[-2 - g[i]];
    double *mu = calloc((size_t)d, sizeof(double)), *mean = calloc((size_t)(s * d), sizeof(double));
    double *w = calloc((size_t)s, sizeof(double)), tau0 = 0.0;
    for (int i = 0; i < n; i++) {
        w[g[i]] += 1.0;
        for (int f = 0; f < d; f++) {
            mu[f] += X[i * d + f] / n;
            mean[g[i] * d + f] += X[i * d + f];
        }
    }
    for (int t = 0; t < s; t++)
        for (int f = 0; f < d; f++)
            mean[t * d + f] /= w[t];
    for (int i = 0; i < n; i++)
        for (int f = 0; f < d; f++)
            tau0 += (X[i * d + f] - mu[f]) * (X[i * d + f] - mu[f]);
    unsigned char *is_cl = calloc((size_t)(s * s), 1);
    int ncl = 0;
    for (int q = 0; q < np; q++)
        if (!pairs[q].ml) {
            int a = g[pairs[q].i], b = g[pairs[q].j];
            ncl += !is_cl[a * s + b];
            is_cl[a * s + b] = is_cl[b * s + a] = 1;
        }
    int nsign = 0;
    for (int a = 0; a < s; a++)
        for (int b = a + 1; b < s; b++)
            nsign += !is_cl[a * s + b];
    int m = s + 1 + ncl + nsign;
    smat *A = calloc((size_t)m + 1, sizeof(smat)); /* A[0] = C = -What, A[1..m] */
    double *bvec = calloc((size_t)m + 1, sizeof(double));
    for (int a = 0; a < s; a++)
        for (int b = 0; b <= a; b++) {
            double ip = 0.0;
            for (int f = 0; f < d; f++)
                ip += (mean[a * d + f] - mu[f]) * (mean[b * d + f] - mu[f]);
            smat_add(&A[0], a, b, -sqrt(w[a] * w[b]) * ip);
        }
    int v = 1;
    for (int t = 0; t < s; t++, v++) { /* (X sqrt(w))_t = sqrt(w_t) */
        for (int u = 0; u < s; u++)
            smat_sym(&A[v], t, u, sqrt(w[u]));
        bvec[v] = sqrt(w[t]);
    }
    for (int t = 0; t < s; t++) /* tr X = k */
        smat_add(&A[v], t, t, 1.0);
    bvec[v++] = k;
    for (int a = 0; a < s; a++)
        for (int b = a + 1; b < s; b++)
            if (is_cl[a * s + b])
                smat_sym(&A[v++], a, b, 1.0); /* X_ab = 0 */
    int *lp_rows = malloc((size_t)(nsign ? nsign : 1) * sizeof(int)), nlp = 0;
    int first_sign = v;
    for (int a = 0; a < s; a++)
        for (int b = a + 1; b < s; b++)
            if (!is_cl[a * s + b]) {
                smat_sym(&A[v], a, b, 1.0); /* y = n_ab, S -= n_ab Sym(e_a e_b') */
                lp_rows[nlp++] = v++;
            }
    CHECK(v == m + 1 && nlp == nsign);
    DSDP dsdp;
    SDPCone sdpcone;
    LPCone lpcone;
    int info = DSDPCreate(m, &dsdp);
    info = info || DSDPCreateSDPCone(dsdp, 1, &sdpcone) || SDPConeSetBlockSize(sdpcone, 0, s);
    for (int q = 0; q <= m && !info; q++)
        info = SDPConeSetASparseVecMat(sdpcone, 0, q, s, 1.0, 0, A[q].ind, A[q].val, A[q].nnz);
    for (int q = 1; q <= m && !info; q++)
        info = DSDPSetDualObjective(dsdp, q, bvec[q]);
    /* LP cone: row r: (A' y)_r <= c_r with column 0 = c (all 0) and column v = -1 in row r for
     * the r-th sign variable; column-compressed over the m + 1 columns */
    int *ik = calloc((size_t)m + 2, sizeof(int)), *row = malloc((size_t)nsign * sizeof(int));
    double *val = malloc((size_t)nsign * sizeof(double));
    for (int r = 0; r < nsign; r++) {
        row[r] = r;
        val[r] = -1.0;
    }
    for (int c = 0; c <= m; c++)
        ik[c + 1] = ik[c] + (c >= first_sign ? 1 : 0);
    info = info || DSDPCreateLPCone(dsdp, &lpcone) || LPConeSetData(lpcone, nsign, ik, row, val);
    info = info || DSDPSetGapTolerance(dsdp, 1e-9) || DSDPSetMaxIts(dsdp, 500) || DSDPSetup(dsdp) || DSDPSolve(dsdp);
    double dobj = NAN;
    DSDPTerminationReason why = CONTINUE_ITERATING;
    DSDPSolutionType type = DSDP_PDUNKNOWN;
    if (!info)
        info = DSDPGetDObjective(dsdp, &dobj) || DSDPStopReason(dsdp, &why) ||
               DSDPGetSolutionType(dsdp, &type);
    DSDPDestroy(dsdp);
    double out = NAN;
    if (!info && why == DSDP_CONVERGED && type == DSDP_PDFEASIBLE)
        out = tau0 + dobj;
    else
        printf("  DSDP: info %d, stop reason %d, solution type %d\n", info, (int)why, (int)type);
    for (int q = 0; q <= m; q++) {
        free(A[q].ind);
        free(A[q].val);
    }
    free(A);
    free(bvec);
    free(lp_rows);
    free(ik);
    free(row);
    free(val);
    free(is_cl);
    free(g);
    free(mu);
    free(mean);
    free(w);
    return out;
}

static double ckm_bound(const double *X, int n, int d, int k, const oracle_pair *pairs, int np)
{
    ckm_problem *p = NULL;
    ckm_reduced *r = sdp_reduce(X, n, d, k, pairs, np, NULL, NULL, &p);
    double lb = NAN;
    ckm_sdp_params par;
    ckm_sdp_info info;
    ckm_sdp *sdp = r ? sdp_root(r, 1e-8, 100000, &par, &info) : NULL;
    if (sdp) {
        CHECK(info.converged);
        lb = info.lower_bound;
    }
    ckm_sdp_free(sdp);
    ckm_reduced_free(r);
    ckm_problem_free(p);
    return lb;
}

int main(void)
{
    int compared = 0;
    double worst = 0.0;
    for (int inst = 0; inst < 8; inst++) {
        int n = inst < 4 ? 12 + 2 * inst : 30, d = 2, k = 2 + inst % 3;
        double X[60];
        for (int i = 0; i < n * d; i++)
            X[i] = 10.0 * unif();
        /* one must-link (two would make the equal-row constraints of the DSDP model linearly
         * dependent across the pairs) and cannot-links, one of them lifted through it */
        oracle_pair pairs[6];
        int np = 0;
        if (inst % 2 == 1) {
            pairs[np++] = (oracle_pair){0, 1, 1};
            pairs[np++] = (oracle_pair){4, 5, 0};
            pairs[np++] = (oracle_pair){0, 6, 0};
            pairs[np++] = (oracle_pair){7, 8, 0};
        }
        double ref = dsdp_bound(X, n, d, k, pairs, np), lb = ckm_bound(X, n, d, k, pairs, np);
        CHECK(isfinite(ref) && isfinite(lb));
        if (!isfinite(ref) || !isfinite(lb))
            continue;
        double rel = fabs(lb - ref) / fabs(ref);
        CHECK(rel <= 1e-5);
        worst = fmax(worst, rel);
        compared++;
        printf("instance %d: n %d, k %d, %d links: DSDP %.10g, ckm safe bound %.10g (relative difference %.2e)\n",
               inst, n, k, np, ref, lb, rel);
    }
    CHECK(compared == 8);
    printf("DSDP cross-check: %d instances, largest relative difference %.2e\n", compared, worst);
    return ck_report();
}
