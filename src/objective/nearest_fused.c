/*
 * nearest_fused.c -- the nearest-center pass for few features (CKM_FUSED_MIN_D <= d <=
 * CKM_FUSED_MAX_D, objective.h) with the products and the argmin in one loop: no k-wide
 * row of products is written or read.
 *   value    v_c(y) = ||c||^2 - 2 y.c, with y.c = sum_f y_f c_f accumulated in feature
 *            order (one fused multiply-add per term where the CPU has AVX2 + FMA; else
 *            a multiply and an add); label = argmin_c v_c (ties to the lowest c), distance
 *            = ||y||^2 + min v, clamped at 0: the expansion and the rule of ckm_nearest.
 *   layout   the centers in panels of 8 (panel q: centers 8q .. 8q + 7, feature by
 *            feature, 8 values per feature); the last panel padded with zero centers whose
 *            norm is +inf, so they never win (strict <).
 *   kernel   four points at a time against one panel: 8 accumulators of 4 lanes, then
 *            each point's 8 values against its running least values and their positions
 *            (lane-wise, strict <, so each lane keeps its first least); the lanes merge by
 *            value, then lowest position. Points past a multiple of four run padded in
 *            the same kernel, so a point's result never depends on its neighbours, its
 *            block or the thread count.
 * Why (issue 55): with d = 16 a dgemm call per block of rows does 16 multiply-adds per
 * value and then writes it, and the argmin reads it back; measured on one core at 10^6 x
 * 16, k = 100, 0.108 s for the fused pass against 0.167 s for dgemm and a scalar argmin;
 * in 20 plain Lloyd steps on two cores 20-22 % less time than nearest.c's dgemm path.
 * The rounding differs from dgemm's in the last bits only; every bound of yinyang.c and
 * screen.c covers any summation order (Higham 2002, 3.1).
 */
#include "core.h"
#include "objective.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define CKM_FUSED_X86 1
#endif

void ckm_fused_panels(const double *C, const double *cnorm, size_t k, size_t d, double *panel, double *pnorm)
{
    size_t np = (k + 7) / 8;
    for (size_t c = 0; c < np * 8; c++) {
        for (size_t f = 0; f < d; f++)
            panel[(c / 8) * d * 8 + f * 8 + c % 8] = c < k ? C[c * d + f] : 0.0;
        pnorm[c] = c < k ? cnorm[c] : INFINITY;
    }
}

/* the least of 8 lanes (values m, positions a), ties to the lowest position */
static void merge_lanes(const double m[8], const double a[8], size_t k, int32_t *label, double *best)
{
    double v = INFINITY, at = INFINITY;
    for (int q = 0; q < 8; q++)
        if (m[q] < v || (m[q] == v && a[q] < at)) {
            v = m[q];
            at = a[q];
        }
    *label = (int32_t)(at < (double)k ? at : 0.0); /* every value +inf or NaN: center 0 */
    *best = v;
}

#ifdef CKM_FUSED_X86
__attribute__((target("avx2,fma"))) static void four_fma(const double *y, size_t d, const double *panel,
                                                         const double *pnorm, size_t k, int32_t *label, double *best)
{
    size_t np = (k + 7) / 8;
    const __m256d inf = _mm256_set1_pd(INFINITY), two = _mm256_set1_pd(2.0), eight = _mm256_set1_pd(8.0);
    __m256d m[4][2], a[4][2];
    for (int r = 0; r < 4; r++)
        for (int h = 0; h < 2; h++) {
            m[r][h] = inf;
            a[r][h] = _mm256_setzero_pd();
        }
    __m256d p0 = _mm256_setr_pd(0.0, 1.0, 2.0, 3.0), p1 = _mm256_setr_pd(4.0, 5.0, 6.0, 7.0);
    const double *y0 = y, *y1 = y + d, *y2 = y + 2 * d, *y3 = y + 3 * d;
    for (size_t q = 0; q < np; q++) {
        const double *c = panel + q * d * 8;
        __m256d s00 = _mm256_setzero_pd(), s01 = s00, s10 = s00, s11 = s00, s20 = s00, s21 = s00, s30 = s00,
                s31 = s00;
        for (size_t f = 0; f < d; f++) {
            __m256d c0 = _mm256_loadu_pd(c + f * 8), c1 = _mm256_loadu_pd(c + f * 8 + 4);
            __m256d b = _mm256_broadcast_sd(y0 + f);
            s00 = _mm256_fmadd_pd(b, c0, s00);
            s01 = _mm256_fmadd_pd(b, c1, s01);
            b = _mm256_broadcast_sd(y1 + f);
            s10 = _mm256_fmadd_pd(b, c0, s10);
            s11 = _mm256_fmadd_pd(b, c1, s11);
            b = _mm256_broadcast_sd(y2 + f);
            s20 = _mm256_fmadd_pd(b, c0, s20);
            s21 = _mm256_fmadd_pd(b, c1, s21);
            b = _mm256_broadcast_sd(y3 + f);
            s30 = _mm256_fmadd_pd(b, c0, s30);
            s31 = _mm256_fmadd_pd(b, c1, s31);
        }
        __m256d n0 = _mm256_loadu_pd(pnorm + q * 8), n1 = _mm256_loadu_pd(pnorm + q * 8 + 4);
        __m256d s[4][2] = {{s00, s01}, {s10, s11}, {s20, s21}, {s30, s31}};
        for (int r = 0; r < 4; r++) {
            /* n - 2 s: 2 s is exact, so one rounding as in the scalar expression */
            __m256d e0 = _mm256_fnmadd_pd(two, s[r][0], n0), e1 = _mm256_fnmadd_pd(two, s[r][1], n1);
            __m256d l0 = _mm256_cmp_pd(e0, m[r][0], _CMP_LT_OQ), l1 = _mm256_cmp_pd(e1, m[r][1], _CMP_LT_OQ);
            m[r][0] = _mm256_blendv_pd(m[r][0], e0, l0);
            m[r][1] = _mm256_blendv_pd(m[r][1], e1, l1);
            a[r][0] = _mm256_blendv_pd(a[r][0], p0, l0);
            a[r][1] = _mm256_blendv_pd(a[r][1], p1, l1);
        }
        p0 = _mm256_add_pd(p0, eight);
        p1 = _mm256_add_pd(p1, eight);
    }
    for (int r = 0; r < 4; r++) {
        double mv[8], av[8];
        _mm256_storeu_pd(mv, m[r][0]);
        _mm256_storeu_pd(mv + 4, m[r][1]);
        _mm256_storeu_pd(av, a[r][0]);
        _mm256_storeu_pd(av + 4, a[r][1]);
        merge_lanes(mv, av, k, label + r, best + r);
    }
}
#endif

/* the same for CPUs without AVX2 + FMA: per point and center, a multiply and an add per
   feature, in feature order */
static void four_plain(const double *y, size_t d, const double *panel, const double *pnorm, size_t k,
                       int32_t *label, double *best)
{
    size_t np = (k + 7) / 8;
    for (int r = 0; r < 4; r++) {
        double mv[8], av[8];
        for (int l = 0; l < 8; l++) {
            mv[l] = INFINITY;
            av[l] = 0.0;
        }
        for (size_t q = 0; q < np; q++)
            for (int l = 0; l < 8; l++) {
                double s = 0.0;
                for (size_t f = 0; f < d; f++)
                    s += y[(size_t)r * d + f] * panel[q * d * 8 + f * 8 + (size_t)l];
                double e = pnorm[q * 8 + (size_t)l] - 2.0 * s;
                if (e < mv[l]) {
                    mv[l] = e;
                    av[l] = (double)(q * 8 + (size_t)l);
                }
            }
        merge_lanes(mv, av, k, label + r, best + r);
    }
}

bool ckm_fused_available(void)
{
#ifdef CKM_FUSED_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
    return false;
#endif
}

void ckm_fused_rows(const double *Y, const double *ynorm, size_t r0, size_t r1, size_t d, const double *panel,
                    const double *pnorm, size_t k, bool fma, int32_t *label, double *dist)
{
    double pad[4 * CKM_FUSED_MAX_D], best[4];
    int32_t lab[4];
    for (size_t i = r0; i < r1; i += 4) {
        size_t rows = r1 - i < 4 ? r1 - i : 4;
        const double *y = Y + i * d;
        if (rows < 4) { /* the same kernel on zero-padded rows */
            memset(pad, 0, sizeof pad);
            memcpy(pad, y, rows * d * sizeof(double));
            y = pad;
        }
#ifdef CKM_FUSED_X86
        if (fma)
            four_fma(y, d, panel, pnorm, k, lab, best);
        else
#endif
            four_plain(y, d, panel, pnorm, k, lab, best);
        for (size_t r = 0; r < rows; r++) {
            if (label)
                label[i + r] = lab[r];
            if (dist) {
                double dd = ynorm[i + r] + best[r];
                dist[i + r] = dd > 0.0 ? dd : 0.0;
            }
        }
    }
    (void)fma;
}
