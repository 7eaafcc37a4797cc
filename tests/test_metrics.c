/*
 * test_metrics.c -- ARI / NMI / AMI against scikit-learn 1.2.1 (Debian python3-sklearn,
 * values printed with repr) and Rand / Mirkin / Hubert against hand counts.
 */
#include "check.h"

static void cmp(const int32_t *a, const int32_t *b, size_t n, double ari, double nmi, double ami)
{
    ckm_scores s;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_compare(a, b, n, &s, &err) == CKM_OK);
    CHECK_NEAR(s.ari, ari, 1e-12);
    CHECK_NEAR(s.nmi, nmi, 1e-12);
    CHECK_NEAR(s.ami, ami, 1e-12);
}

int main(void)
{
    /* scikit-learn reference values */
    int32_t a1[] = {0, 0, 1, 1}, b1[] = {0, 0, 1, 2};
    cmp(a1, b1, 4, 0.5714285714285714, 0.7999999999999999, 0.5714285714285715);
    int32_t a2[] = {0, 0, 1, 1, 2, 2}, b2[] = {0, 0, 1, 2, 2, 2};
    cmp(a2, b2, 6, 0.4444444444444444, 0.7396673768007591, 0.5023607027202736);
    int32_t a3[] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 2}, b3[] = {1, 1, 0, 0, 0, 2, 2, 2, 1, 0};
    cmp(a3, b3, 10, -0.022727272727272728, 0.2673369203999457, -0.002712434598785665);
    int32_t a4[] = {0, 0, 0, 0}, b4[] = {0, 1, 2, 3};
    cmp(a4, b4, 4, 0.0, 0.0, 0.0);
    int32_t a5[] = {5, 5, 7, 7, 7, 9}, b5[] = {1, 2, 1, 2, 1, 2};
    cmp(a5, b5, 6, -0.17647058823529413, 0.1687728893431367, -0.2126798984884678);
    int32_t a6[] = {0, 3, 1, 0, 3, 3, 3, 3, 1, 3, 1, 2, 0, 3, 2, 0, 0, 0, 2, 1,
                    2, 3, 3, 2, 0, 1, 1, 1, 1, 0, 1, 0, 3, 0, 3, 1, 2, 3, 3, 0,
                    2, 3, 0, 1, 3, 1, 3, 3, 2, 3, 0, 1, 1, 1, 3, 0, 3, 2, 0, 3};
    int32_t b6[] = {2, 2, 0, 2, 0, 0, 0, 1, 1, 2, 0, 0, 1, 0, 1, 2, 2, 0, 1, 1,
                    1, 1, 2, 2, 2, 0, 2, 1, 0, 1, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0,
                    2, 0, 2, 1, 1, 1, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2, 0, 2, 0, 1};
    cmp(a6, b6, 60, 0.029253427203759712, 0.06458421947610742, 0.021050333658580268);
    /* identical partitions up to renaming: every score perfect */
    int32_t c1[] = {0, 0, 1, 1, 2}, c2[] = {7, 7, 3, 3, 100};
    ckm_scores s;
    ckm_err err = {CKM_OK, ""};
    CHECK(ckm_compare(c1, c2, 5, &s, &err) == CKM_OK);
    CHECK_NEAR(s.ari, 1.0, 1e-15);
    CHECK_NEAR(s.nmi, 1.0, 1e-15);
    CHECK_NEAR(s.ami, 1.0, 1e-12);
    CHECK(s.rand == 1.0 && s.mirkin == 0.0 && s.hubert == 1.0);
    /* single cluster on both sides: scikit-learn's convention is 1 */
    int32_t z[] = {0, 0, 0};
    CHECK(ckm_compare(z, z, 3, &s, &err) == CKM_OK);
    CHECK(s.ari == 1.0 && s.nmi == 1.0 && s.ami == 1.0);
    /* hand count for a1/b1: pairs (6): {01} together in both; {23} together in a only;
       the other 4 apart in both -> agreements 5, disagreements 1 */
    CHECK(ckm_compare(a1, b1, 4, &s, &err) == CKM_OK);
    CHECK_NEAR(s.rand, 5.0 / 6.0, 1e-15);
    CHECK_NEAR(s.mirkin, 1.0 / 6.0, 1e-15);
    CHECK_NEAR(s.hubert, 4.0 / 6.0, 1e-15);
    /* hand count for a4/b4: all 6 pairs together in a, apart in b -> 0 agreements */
    CHECK(ckm_compare(a4, b4, 4, &s, &err) == CKM_OK);
    CHECK(s.rand == 0.0 && s.mirkin == 1.0 && s.hubert == -1.0);
    /* errors */
    int32_t neg[] = {0, -1};
    CHECK(ckm_compare(neg, a1, 2, &s, &err) == CKM_ERR_INVALID);
    CHECK_MSG(err, "negative");
    CHECK(ckm_compare(a1, b1, 0, &s, &err) == CKM_ERR_INVALID);
    return ck_report();
}
