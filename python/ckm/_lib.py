"""ctypes bindings of libckm (the shared library built with the package).

Only the public C API of include/ckm.h is used. The structures mirrored here follow the
library's ABI policy (docs/abi.md): ckm_settings carries its size, which the library
checks, and results carry theirs; at import the mirror is checked against the library
(ckm_settings_default must write struct_size == ctypes.sizeof(Settings)), so a package and
a library that disagree fail loudly instead of corrupting memory.

ctypes.CDLL releases the GIL during every foreign call, so a solve runs without it.
"""

import ctypes
import ctypes.util
import os

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))

c_size_t = ctypes.c_size_t
c_double = ctypes.c_double
c_int = ctypes.c_int
c_int32 = ctypes.c_int32
c_uint32 = ctypes.c_uint32
c_uint64 = ctypes.c_uint64
c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p

MESSAGE_LEN = 512

LOG_FN = ctypes.CFUNCTYPE(None, c_void_p, c_char_p)
STOP_FN = ctypes.CFUNCTYPE(c_int, c_void_p)


class Progress(ctypes.Structure):
    _fields_ = [("kind", c_int), ("seconds", c_double), ("restart", c_int), ("restarts", c_int),
                ("iteration", c_int), ("objective", c_double), ("incumbent", c_double), ("lower_bound", c_double),
                ("done", c_size_t), ("total", c_size_t)]


PROGRESS_FN = ctypes.CFUNCTYPE(None, c_void_p, ctypes.POINTER(Progress))
PROGRESS_KINDS = {1: "step", 2: "restart", 3: "bound"}


class Err(ctypes.Structure):
    _fields_ = [("code", c_int), ("message", ctypes.c_char * MESSAGE_LEN)]


class Settings(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("reserved", c_uint32),
        ("algorithm", ctypes.c_char * 32),
        ("seed", c_uint64),
        ("n_init", c_int),
        ("max_iter", c_int),
        ("distance", c_int),
        ("init", c_int),
        ("tol", c_double),
        ("time_limit_s", c_double),
        ("threads", c_int),
        ("cut_rounds", c_int),
        ("gap", c_double),
        ("node_limit", c_int),
        ("verbosity", c_int),
        ("log", LOG_FN),
        ("log_user", c_void_p),
        ("should_stop", STOP_FN),
        ("stop_user", c_void_p),
        ("interrupt", ctypes.POINTER(c_int)),
        # 0.3.0
        ("lloyd", c_int),
        ("init_centers", ctypes.POINTER(c_double)),
        ("precision", c_int),
        # 0.4.0
        ("soft_penalty", c_double),
        ("step_limit_s", c_double),  # soft_step_limit_s in 0.4.0: the same member
        ("memory_limit_mb", c_double),
        ("async_nodes", c_int),
        # after 0.4.0: progress
        ("progress", PROGRESS_FN),
        ("progress_user", c_void_p),
        ("trace", c_int),
    ]


class Timings(ctypes.Structure):
    _fields_ = [("preprocess_s", c_double), ("solve_s", c_double), ("check_s", c_double), ("total_s", c_double)]


STATS_FIELDS = ("lp_solves", "mip_solves", "mip_nodes", "transport_solves", "admm_iterations", "sdp_iterations",
                "cut_rounds", "cuts_added", "nodes", "restarts", "iterations", "repairs", "fallback",
                "numeric_fallbacks")


class Stats(ctypes.Structure):
    _fields_ = [(name, c_uint64) for name in STATS_FIELDS]


class Prediction(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("status", c_int),
        ("has_labels", c_int),
        ("labels", ctypes.POINTER(c_int32)),
        ("objective", c_double),
        ("lower_bound", c_double),
        ("prices", ctypes.POINTER(c_double)),
        ("route", ctypes.c_char * 16),
        ("message", ctypes.c_char * MESSAGE_LEN),
        ("seconds", c_double),
    ]


class Result(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("status", c_int),
        ("has_labels", c_int),
        ("n", c_size_t),
        ("d", c_size_t),
        ("k", c_size_t),
        ("labels", ctypes.POINTER(c_int32)),
        ("centers", ctypes.POINTER(c_double)),
        ("sizes", ctypes.POINTER(c_size_t)),
        ("sse", c_double),
        ("lower_bound", c_double),
        ("gap", c_double),
        ("violations", c_size_t),
        ("iterations", c_int),
        ("restarts", c_int),
        ("super_points", c_size_t),
        ("nodes", c_size_t),
        ("root_gap", c_double),
        ("algorithm", ctypes.c_char * 32),
        ("seed", c_uint64),
        ("time", Timings),
        ("message", ctypes.c_char * MESSAGE_LEN),
        ("stats", Stats),
        ("weighted", c_int),
        # 0.4.0
        ("soft_penalty", c_double),
        ("penalty", c_double),
        ("objective", c_double),
        ("soft_must_link_violated", c_size_t),
        ("soft_cannot_link_violated", c_size_t),
        # after 0.4.0
        ("trace", ctypes.POINTER(Progress)),
        ("trace_len", c_size_t),
    ]


class CertifySubset(ctypes.Structure):
    _fields_ = [("points", c_size_t), ("groups", c_size_t), ("lower_bound", c_double), ("labels_sse", c_double),
                ("status", c_int), ("sdp", c_int), ("cut_rounds", c_int), ("seconds", c_double), ("rank", c_int)]


class Certificate(ctypes.Structure):
    _fields_ = [
        ("struct_size", c_uint32),
        ("status", c_int),
        ("n", c_size_t),
        ("d", c_size_t),
        ("k", c_size_t),
        ("groups", c_size_t),
        ("weighted", c_int),
        ("sse", c_double),
        ("violations", c_size_t),
        ("lower_bound", c_double),
        ("gap", c_double),
        ("labels_split_sse", c_double),
        ("subsets", c_size_t),
        ("subset_of", ctypes.POINTER(c_size_t)),
        ("subset", ctypes.POINTER(CertifySubset)),
        ("split_s", c_double),
        ("bound_s", c_double),
        ("total_s", c_double),
        ("memory_mb", c_double),
        ("workers", c_int),
        ("stats", Stats),
        ("message", ctypes.c_char * MESSAGE_LEN),
        ("ranks", c_int),  # after ckm_certify_subset gained rank: struct_size tells both apart
        ("trace", ctypes.POINTER(Progress)),
        ("trace_len", c_size_t),
        ("split_floor_sse", c_double),  # after trace: the split's floor (NaN when not measured)
    ]


class ReportOptions(ctypes.Structure):
    _fields_ = [("struct_size", c_uint32), ("title", c_char_p), ("command", c_char_p), ("json", c_char_p),
                ("truth", ctypes.POINTER(c_int32)), ("max_points", c_size_t), ("max_pairs", c_size_t),
                ("seed", c_uint64)]


class Pair(ctypes.Structure):
    _fields_ = [("i", c_size_t), ("j", c_size_t), ("type", c_int), ("line", c_size_t)]


class Constraints(ctypes.Structure):
    _fields_ = [("count", c_size_t), ("pairs", ctypes.POINTER(Pair)), ("confidence", ctypes.POINTER(c_double))]


class Violation(ctypes.Structure):
    _fields_ = [("kind", c_int), ("index", c_size_t), ("value", ctypes.c_longlong)]


class CheckReport(ctypes.Structure):
    _fields_ = [
        ("must_link_violated", c_size_t),
        ("cannot_link_violated", c_size_t),
        ("size_violated", c_size_t),
        ("label_invalid", c_size_t),
        ("count", c_size_t),
        ("violations", ctypes.POINTER(Violation)),
        ("sse", c_double),
        ("sizes", ctypes.POINTER(c_size_t)),
        ("soft_must_link_violated", c_size_t),
        ("soft_cannot_link_violated", c_size_t),
        ("soft_violated_confidence", c_double),
        ("capacity_violated", c_size_t),
        ("loads", ctypes.POINTER(c_double)),
    ]


class AlgorithmInfo(ctypes.Structure):
    _fields_ = [("name", c_char_p), ("summary", c_char_p), ("honours", ctypes.c_uint), ("proves_optimality", c_int),
                ("default_max_iter", c_int), ("traits", ctypes.c_uint)]


# numpy view of ckm_pair, so pair arrays reach the library without a Python loop
PAIR_DTYPE = np.dtype({"names": ["i", "j", "type", "line"],
                       "formats": [np.uintp, np.uintp, np.intc, np.uintp],
                       "offsets": [Pair.i.offset, Pair.j.offset, Pair.type.offset, Pair.line.offset],
                       "itemsize": ctypes.sizeof(Pair)})

# ckm_error codes, ckm_status values, ckm_link, ckm_assign_method
OK, ERR_NOMEM, ERR_IO, ERR_PARSE, ERR_INVALID, ERR_UNSUPPORTED, ERR_INTERNAL = range(7)
(STATUS_OPTIMAL, STATUS_FEASIBLE, STATUS_INFEASIBLE, STATUS_TIME_LIMIT, STATUS_ITERATION_LIMIT,
 STATUS_INTERRUPTED, STATUS_NO_SOLUTION, STATUS_MEMORY_LIMIT) = range(8)
MUST_LINK, CANNOT_LINK = 1, -1
ASSIGN_AUTO = 0
VIOLATION_PAIR, VIOLATION_SIZE, VIOLATION_LABEL, VIOLATION_CAPACITY = range(4)


def _find_library():
    """The libckm.so.* shipped inside the package (CKM_LIBRARY overrides, for development)."""
    override = os.environ.get("CKM_LIBRARY")
    if override:
        return override
    for name in sorted(os.listdir(_HERE)):
        if name.startswith("libckm.so"):
            return os.path.join(_HERE, name)
    found = ctypes.util.find_library("ckm")
    if found:
        return found
    raise ImportError("ckm: libckm.so was not found next to the package (%s); reinstall with "
                      "'python3 -m pip install --no-build-isolation python/'" % _HERE)


def _load():
    lib = ctypes.CDLL(_find_library())
    P = ctypes.POINTER
    sig = {
        "ckm_version": (c_char_p, []),
        "ckm_error_string": (c_char_p, [c_int]),
        "ckm_status_string": (c_char_p, [c_int]),
        "ckm_algorithm_count": (c_size_t, []),
        "ckm_algorithm_at": (P(AlgorithmInfo), [c_size_t]),
        "ckm_problem_create": (c_int, [c_void_p, c_size_t, c_size_t, c_size_t, P(c_void_p), P(Err)]),
        "ckm_problem_wrap": (c_int, [c_void_p, c_size_t, c_size_t, c_size_t, P(c_void_p), P(Err)]),
        "ckm_problem_free": (None, [c_void_p]),
        "ckm_problem_add_constraints": (c_int, [c_void_p, P(Constraints), P(Err)]),
        "ckm_problem_set_sizes": (c_int, [c_void_p, c_void_p, c_void_p, P(Err)]),
        "ckm_problem_set_weights": (c_int, [c_void_p, c_void_p, P(Err)]),
        "ckm_problem_set_demands": (c_int, [c_void_p, c_void_p, P(Err)]),
        "ckm_problem_set_capacities": (c_int, [c_void_p, c_void_p, c_void_p, P(Err)]),
        "ckm_problem_pair": (c_int, [c_void_p, c_size_t, P(Pair), P(Err)]),
        "ckm_settings_default": (None, [P(Settings)]),
        "ckm_solve": (c_int, [c_void_p, P(Settings), P(P(Result)), P(Err)]),
        "ckm_result_free": (None, [P(Result)]),
        "ckm_check": (c_int, [c_void_p, c_void_p, P(P(CheckReport)), P(Err)]),
        "ckm_check_report_free": (None, [P(CheckReport)]),
        "ckm_certify": (c_int, [c_void_p, c_void_p, c_size_t, P(Settings), P(P(Certificate)), P(Err)]),
        "ckm_certificate_free": (None, [P(Certificate)]),
        "ckm_certificate_to_json": (c_int, [P(Certificate), P(ctypes.c_void_p), P(Err)]),
        "ckm_assign_to_centers": (c_int, [c_void_p, c_size_t, c_size_t, c_void_p, c_size_t, c_void_p, c_void_p,
                                          c_int, c_void_p, P(c_double), c_void_p, P(c_int), P(Err)]),
        "ckm_predict": (c_int, [c_void_p, c_void_p, P(Settings), P(P(Prediction)), P(Err)]),
        "ckm_prediction_free": (None, [P(Prediction)]),
        "ckm_constraints_read": (c_int, [c_char_p, c_size_t, P(P(Constraints)), P(Err)]),
        "ckm_constraints_generate": (c_int, [c_void_p, c_size_t, c_size_t, c_double, c_uint64, P(P(Constraints)),
                                             P(Err)]),
        "ckm_constraints_free": (None, [P(Constraints)]),
        "ckm_free": (None, [c_void_p]),
        "ckm_result_to_json": (c_int, [P(Result), c_char_p, P(ctypes.c_void_p), P(Err)]),
        "ckm_report_options_default": (None, [P(ReportOptions)]),
        "ckm_report_html": (c_int, [c_void_p, c_void_p, P(ReportOptions), P(ctypes.c_void_p), P(Err)]),
        "ckm_pca": (c_int, [c_void_p, c_void_p, c_size_t, c_size_t, c_size_t, c_void_p, c_void_p, c_void_p, P(Err)]),
        "ckm_write_file_atomic": (c_int, [c_char_p, c_char_p, c_size_t, P(Err)]),
    }
    for name, (res, args) in sig.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args
    probe = Settings()
    lib.ckm_settings_default(ctypes.byref(probe))
    if probe.struct_size != ctypes.sizeof(Settings):
        raise ImportError("ckm: this package's ckm_settings mirror (%d bytes) does not match libckm %s (%d bytes)"
                          % (ctypes.sizeof(Settings), lib.ckm_version().decode(), probe.struct_size))
    return lib


lib = _load()


def error_message(err):
    return err.message.decode("utf-8", "replace")


def ptr(a):
    """Address of a numpy array's data (read-only arrays too), or None for None."""
    return None if a is None else c_void_p(a.ctypes.data)
