// test_header.cpp -- include/ckm.h compiles as C++ (-std=c++17 -Wall -Wextra -pedantic
// -Werror) and its types and functions are usable from C++ through the shared library:
// named enums (ckm_violation_kind), extern "C" linkage, a small solve and a check.
#include "ckm.h"

#include <cstdio>
#include <cstring>
#include <vector>

int main()
{
    const std::vector<double> X = {0, 0, 1, 0, 0, 1, 5, 5, 6, 5, 5, 6};
    ckm_problem *p = nullptr;
    ckm_err err{};
    int failed = 0;
    if (ckm_problem_create(X.data(), 6, 2, 2, &p, &err) != CKM_OK)
        return 1;
    if (ckm_problem_add_pair(p, 0, 3, CKM_CANNOT_LINK, &err) != CKM_OK)
        failed++;
    ckm_settings s;
    ckm_settings_default(&s);
    std::snprintf(s.algorithm, sizeof s.algorithm, "exact");
    ckm_result *r = nullptr;
    if (ckm_solve(p, &s, &r, &err) != CKM_OK || !r || r->status != CKM_STATUS_OPTIMAL)
        failed++;
    std::vector<int32_t> bad = {0, 0, 0, 0, 0, 0};
    ckm_check_report *rep = nullptr;
    if (ckm_check(p, bad.data(), &rep, &err) != CKM_OK || !rep || rep->count == 0)
        failed++;
    else {
        ckm_violation_kind kind = rep->violations[0].kind;
        if (kind != CKM_VIOLATION_PAIR)
            failed++;
        ckm_pair pr{};
        if (ckm_problem_pair(p, rep->violations[0].index, &pr, &err) != CKM_OK || pr.i != 0 || pr.j != 3)
            failed++;
    }
    std::printf("C++: %s, SSE %.6f, %d failed\n", r ? ckm_status_string(r->status) : "-", r ? r->sse : 0.0, failed);
    ckm_check_report_free(rep);
    ckm_result_free(r);
    ckm_problem_free(p);
    return failed ? 1 : 0;
}
