/*
 * test_certify_rule.c -- re-planning's at-once halving rule (certify_split.h,
 * ckm_certify_halve_at_once) on the figures of the runs that set it (bench/README.md, -t 300,
 * 2 threads; SSE 100, so the figures are percentages):
 *   - Facebook at T = 18: floor 6.49, probes' SDP part 0.144, one probe stopped at its share's
 *     end: halve (the SDP part is small beside the floor);
 *   - the same with every probe finished: halve (the rule before the SDP part counted);
 *   - Electric at T = 30: floor 3.0, SDP part 2.2, probes stopped: keep (the SDPs, not the
 *     split, hold the gap; forced larger subsets certified less);
 *   - Pulsar at T = 70: floor 1.05 (below 2 %), whatever the probes: keep;
 *   - the edges: the floor exactly 2 % keeps; an SDP part of exactly a quarter of the floor keeps.
 * And the subsets' time shares (certify_subset.h, ckm_certify_share_end), on schedules
 * simulated here (each worker takes the next subset when its last one ends):
 *   - Facebook at -t 3600, T = 6, 2 workers, every subset using its share: 1200 s each (the
 *     rule before gave the second 1440 s and the last 720 s); the same even share for other
 *     worker counts and multiples of them;
 *   - hand-computed values: a busy worker's time counted from its subset's end, a deadline
 *     past D clipped, fewer subsets than workers, no time left;
 *   - random schedules with subsets ending early: no share ends past D, none starts empty
 *     while time is left.
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "certify_split.h"
#include "certify_subset.h"

#include <math.h>

/* Simulate `count` subsets on W workers from 0 to D; subset i uses fraction use[i] of its
 * share (1: all of it). Writes each subset's share length to len[]; returns false when a
 * share ends past D or is empty with time left. */
static bool schedule(int W, size_t count, double D, const double *use, double *len)
{
    double until[CKM_MAX_THREADS], free_at[CKM_MAX_THREADS];
    for (int w = 0; w < W; w++) {
        until[w] = -INFINITY;
        free_at[w] = 0.0;
    }
    bool ok = true;
    for (size_t pos = 0; pos < count; pos++) {
        int w = 0; /* the worker free first (ties: the lowest index, as the atomic counter could) */
        for (int v = 1; v < W; v++)
            if (free_at[v] < free_at[w])
                w = v;
        double t0 = free_at[w];
        for (int v = 0; v < W; v++) /* workers whose subset ended by t0 are idle */
            if (free_at[v] <= t0)
                until[v] = -INFINITY;
        double end = ckm_certify_share_end(t0, D, until, W, w, count - pos);
        ok = ok && end <= D && (end > t0 || t0 >= D);
        len[pos] = end - t0;
        until[w] = end;
        free_at[w] = t0 + use[pos] * (end - t0);
    }
    return ok;
}

static void shares(void)
{
    double use[64], len[64];
    for (int i = 0; i < 64; i++)
        use[i] = 1.0;
    CHECK(schedule(2, 6, 3600.0, use, len));
    for (int i = 0; i < 6; i++)
        CHECK_NEAR(len[i], 1200.0, 1e-9);
    int Ws[] = {1, 2, 3, 4, 8};
    for (int a = 0; a < 5; a++)
        for (size_t m = 1; m <= 4; m++) {
            size_t count = m * (size_t)Ws[a];
            CHECK(schedule(Ws[a], count, 100.0, use, len));
            for (size_t i = 0; i < count; i++)
                CHECK_NEAR(len[i], 100.0 / (double)m, 1e-9);
        }
    double busy[3] = {1000.0, -INFINITY, 0.0}; /* worker 2 (self) */
    CHECK_NEAR(ckm_certify_share_end(0.0, 3000.0, busy, 3, 2, 4), 2000.0, 1e-9); /* (3000 + 2000 + 3000) / 4 */
    busy[1] = 5000.0; /* past D: that worker gives nothing */
    CHECK_NEAR(ckm_certify_share_end(0.0, 3000.0, busy, 3, 2, 4), 1250.0, 1e-9); /* (3000 + 2000) / 4 */
    CHECK_NEAR(ckm_certify_share_end(500.0, 3000.0, busy, 3, 2, 1), 3000.0, 1e-9); /* one left: to D */
    CHECK_NEAR(ckm_certify_share_end(3100.0, 3000.0, busy, 3, 2, 2), 3000.0, 0.0); /* nothing left: D */
    double idle[2] = {-INFINITY, -INFINITY};
    CHECK_NEAR(ckm_certify_share_end(0.0, 300.0, idle, 2, 0, 30), 20.0, 1e-12); /* the even share */
    /* an early end gives its time to those after it: subset 0 ends at 100 of 1200 */
    use[0] = 100.0 / 1200.0;
    CHECK(schedule(2, 6, 3600.0, use, len));
    CHECK_NEAR(len[2], (3500.0 + 2400.0) / 4.0, 1e-9);
    uint64_t x = 88172645463325252ull;
    for (int rep = 0; rep < 2000; rep++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int W = 1 + (int)(x % 8);
        size_t count = 1 + (size_t)((x >> 8) % 60);
        for (size_t i = 0; i < count; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            double u = (double)(x >> 11) * 0x1.0p-53;
            use[i] = u < 0.5 ? 1.0 : u;
        }
        CHECK(schedule(W, count, 1000.0, use, len));
    }
}

int main(void)
{
    shares();
    CHECK(ckm_certify_halve_at_once(100.0, 6.49, 0.144, false));
    CHECK(ckm_certify_halve_at_once(100.0, 6.49, 0.144, true));
    CHECK(ckm_certify_halve_at_once(100.0, 6.49, 5.0, true));
    CHECK(!ckm_certify_halve_at_once(100.0, 3.0, 2.2, false));
    CHECK(!ckm_certify_halve_at_once(100.0, 1.05, 0.01, true));
    CHECK(!ckm_certify_halve_at_once(100.0, 1.05, 0.01, false));
    CHECK(!ckm_certify_halve_at_once(100.0, 2.0, 0.0, true));
    CHECK(!ckm_certify_halve_at_once(100.0, 4.0, 1.0, false));
    CHECK(ckm_certify_halve_at_once(100.0, 4.0, 0.999, false));
    CHECK(ckm_certify_halve_at_once(1e6, 2.1e4, 0.0, false));
    printf("certify rule: the at-once halving on the runs that set it; the subsets' time shares\n");
    return ck_report();
}
