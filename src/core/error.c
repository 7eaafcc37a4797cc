/*
 * error.c -- error codes, their message table, and the one place that formats a failure.
 */
#include "core.h"

#include <stdio.h>

ckm_error ckm_fail(ckm_err *err, ckm_error code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

const char *ckm_error_string(ckm_error code)
{
    switch (code) {
    case CKM_OK: return "ok";
    case CKM_ERR_NOMEM: return "out of memory";
    case CKM_ERR_IO: return "input/output error";
    case CKM_ERR_PARSE: return "malformed input";
    case CKM_ERR_INVALID: return "invalid argument";
    case CKM_ERR_UNSUPPORTED: return "unsupported";
    case CKM_ERR_INTERNAL: return "internal error";
    }
    return "unknown error";
}

const char *ckm_status_string(ckm_status s)
{
    switch (s) {
    case CKM_STATUS_OPTIMAL: return "optimal";
    case CKM_STATUS_FEASIBLE: return "feasible";
    case CKM_STATUS_INFEASIBLE: return "infeasible";
    case CKM_STATUS_TIME_LIMIT: return "time limit";
    case CKM_STATUS_ITERATION_LIMIT: return "iteration limit";
    case CKM_STATUS_INTERRUPTED: return "interrupted";
    case CKM_STATUS_NO_SOLUTION: return "no solution found";
    case CKM_STATUS_MEMORY_LIMIT: return "memory limit";
    }
    return "unknown status";
}

const char *ckm_version(void)
{
#define CKM_STR2(x) #x
#define CKM_STR(x) CKM_STR2(x)
    return CKM_STR(CKM_VERSION_MAJOR) "." CKM_STR(CKM_VERSION_MINOR) "." CKM_STR(
        CKM_VERSION_PATCH);
}
