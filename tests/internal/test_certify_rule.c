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
 * Internal-contract test (includes src headers).
 */
#include "../check.h"
#include "certify_split.h"

int main(void)
{
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
    printf("certify rule: the at-once halving on the runs that set it\n");
    return ck_report();
}
