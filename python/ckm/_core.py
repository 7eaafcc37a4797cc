"""Problems, solves and the helpers with the CLI's semantics, on top of _lib.

A solve runs in a worker thread while the calling thread waits in short slices: Python
delivers Ctrl-C (KeyboardInterrupt) to the main thread only between bytecodes, so the wait
catches it, raises the library's interrupt flag (ckm_settings.interrupt), waits until the
solve has returned (every phase of the library polls the flag: within a second, also inside
CLP and CBC; bench/stop_latency.c) and re-raises, so nothing runs on in the background. A
second Ctrl-C during that wait re-raises at once and leaves the solve to end by itself at its
next check (its result is dropped).
"""

import ctypes
import os
import logging
import threading

import numpy as np

from . import _lib
from ._lib import lib

logger = logging.getLogger("ckm")


class InfeasibleError(ValueError):
    """No labelling satisfies the constraints; the message is the library's proof."""


class NoSolutionError(RuntimeError):
    """The run ended (heuristic dead end, limit) without a labelling that satisfies every constraint."""


def _raise(rc, err):
    msg = _lib.error_message(err)
    if rc == _lib.ERR_NOMEM:
        raise MemoryError(msg)
    if rc in (_lib.ERR_INVALID, _lib.ERR_PARSE, _lib.ERR_UNSUPPORTED):
        raise ValueError(msg)
    if rc == _lib.ERR_IO:
        raise OSError(msg)
    raise RuntimeError("ckm internal error (please report): " + msg)


def _pairs_array(pairs, name, n):
    """(m, 2) non-negative integer array, or an empty one."""
    if pairs is None:
        return np.empty((0, 2), dtype=np.int64)
    a = np.asarray(pairs)
    if a.size == 0:
        return np.empty((0, 2), dtype=np.int64)
    if a.ndim != 2 or a.shape[1] != 2:
        raise ValueError("%s must be an (m, 2) array of point indices, got shape %s" % (name, a.shape))
    if not np.issubdtype(a.dtype, np.integer):
        if np.issubdtype(a.dtype, np.floating) and np.all(np.isfinite(a)) and np.all(a == np.floor(a)):
            a = a.astype(np.int64)
        else:
            raise ValueError("%s must hold integer point indices" % name)
    if np.any(a < 0):
        bad = np.argwhere(a < 0)[0]
        raise ValueError("%s row %d: index %d is negative" % (name, bad[0], a[bad[0], bad[1]]))
    if np.any(a >= n):
        bad = np.argwhere(a >= n)[0]
        raise ValueError("%s row %d: index %d out of range (n = %d)" % (name, bad[0], a[bad[0], bad[1]], n))
    return a


def _soft_array(pairs, name, n):
    """(m, 3) rows (i, j, confidence) -> (m, 2) int64 indices and m float64 confidences."""
    if pairs is None:
        return np.empty((0, 2), dtype=np.int64), np.empty(0)
    a = np.asarray(pairs, dtype=np.float64) if not isinstance(pairs, np.ndarray) else pairs
    if a.size == 0:
        return np.empty((0, 2), dtype=np.int64), np.empty(0)
    if a.ndim != 2 or a.shape[1] != 3:
        raise ValueError("%s must be an (m, 3) array of rows (i, j, confidence), got shape %s" % (name, a.shape))
    conf = np.asarray(a[:, 2], dtype=np.float64)
    bad = ~((conf > 0) & (conf <= 1))
    if np.any(bad):
        r = int(np.argmax(bad))
        raise ValueError("%s row %d: confidence %r is not in (0, 1]" % (name, r, conf[r]))
    return _pairs_array(np.asarray(a[:, :2]), name, n), np.ascontiguousarray(conf)


def _bounds(value, k, name, default):
    """Per-cluster bounds (k entries, size_t) from None, a scalar or k values."""
    if value is None:
        return np.full(k, default, dtype=np.uintp)
    a = np.asarray(value)
    if a.ndim == 0:
        a = np.full(k, a)
    if a.shape != (k,):
        raise ValueError("%s must be a scalar or %d values (one per cluster), got shape %s" % (name, k, a.shape))
    if not np.all(np.isfinite(a.astype(float))) or np.any(a < 0) or np.any(a != np.floor(a)):
        raise ValueError("%s must hold non-negative integers" % name)
    return a.astype(np.uintp)


def _capacity_bounds(value, k, name, default):
    """Per-cluster capacity bounds (k float64 entries) from None, a scalar or k values: numbers >= 0,
    capacity_max may be inf (no maximum)."""
    if value is None:
        return np.full(k, default, dtype=np.float64)
    a = np.asarray(value, dtype=np.float64)
    if a.ndim == 0:
        a = np.full(k, a)
    if a.shape != (k,):
        raise ValueError("%s must be a scalar or %d values (one per cluster), got shape %s" % (name, k, a.shape))
    if np.any(np.isnan(a)) or np.any(a < 0) or (name == "capacity_min" and not np.all(np.isfinite(a))):
        raise ValueError("%s must hold numbers >= 0%s" % (name, "" if name == "capacity_min" else " (inf: no maximum)"))
    return np.ascontiguousarray(a)


def _set_per_point(handle, values, n, name, setter):
    """One float64 value per point (n of them) handed to the library's setter, which validates them."""
    v = np.ascontiguousarray(values, dtype=np.float64)
    if v.shape != (n,):
        raise ValueError("%s must have %d entries, got shape %s" % (name, n, v.shape))
    err = _lib.Err()
    rc = setter(handle, _lib.ptr(v), ctypes.byref(err))
    if rc != _lib.OK:
        _raise(rc, err)


class Problem:
    """A ckm_problem owned by Python (freed with the object)."""

    def __init__(self, X, k, must_link=None, cannot_link=None, size_min=None, size_max=None, sample_weight=None,
                 soft_must_link=None, soft_cannot_link=None, demand=None, capacity_min=None, capacity_max=None):
        X = np.ascontiguousarray(X, dtype=np.float64)  # no copy for C-contiguous float64
        n, d = X.shape
        self.n, self.d, self.k = n, d, k
        self.X = X  # the library borrows it (ckm_problem_wrap): kept alive, and not written, meanwhile
        handle = ctypes.c_void_p()
        err = _lib.Err()
        rc = lib.ckm_problem_wrap(_lib.ptr(X), n, d, k, ctypes.byref(handle), ctypes.byref(err))
        if rc != _lib.OK:
            _raise(rc, err)
        self.handle = handle
        try:
            ml = _pairs_array(must_link, "must_link", n)
            cl = _pairs_array(cannot_link, "cannot_link", n)
            sml, sml_c = _soft_array(soft_must_link, "soft_must_link", n)
            scl, scl_c = _soft_array(soft_cannot_link, "soft_cannot_link", n)
            parts = [(ml, _lib.MUST_LINK), (cl, _lib.CANNOT_LINK), (sml, _lib.MUST_LINK), (scl, _lib.CANNOT_LINK)]
            total = sum(len(a) for a, _ in parts)
            if total:
                pairs = np.zeros(total, dtype=_lib.PAIR_DTYPE)
                at = 0
                for a, t in parts:
                    pairs["i"][at:at + len(a)], pairs["j"][at:at + len(a)] = a[:, 0], a[:, 1]
                    pairs["type"][at:at + len(a)] = t
                    at += len(a)
                conf = None
                if len(sml) or len(scl):  # 0 marks the hard pairs
                    conf = np.concatenate([np.zeros(len(ml) + len(cl)), sml_c, scl_c])
                cons = _lib.Constraints(total, ctypes.cast(pairs.ctypes.data, ctypes.POINTER(_lib.Pair)),
                                        None if conf is None else conf.ctypes.data_as(ctypes.POINTER(ctypes.c_double)))
                rc = lib.ckm_problem_add_constraints(handle, ctypes.byref(cons), ctypes.byref(err))
                if rc != _lib.OK:
                    _raise(rc, err)
            self.n_must_link, self.n_cannot_link = len(ml), len(cl)
            self.n_soft = len(sml) + len(scl)
            if size_min is not None or size_max is not None:
                lo = _bounds(size_min, k, "size_min", 1)
                hi = _bounds(size_max, k, "size_max", n)
                rc = lib.ckm_problem_set_sizes(handle, _lib.ptr(lo), _lib.ptr(hi), ctypes.byref(err))
                if rc != _lib.OK:
                    _raise(rc, err)
            self.has_sizes = size_min is not None or size_max is not None
            if sample_weight is not None:
                _set_per_point(handle, sample_weight, n, "sample_weight", lib.ckm_problem_set_weights)
            self.has_caps = capacity_min is not None or capacity_max is not None
            if self.has_caps and demand is None:
                raise ValueError("capacity_min / capacity_max bound each cluster's total demand: pass demand (one "
                                 "value >= 0 per point); to bound head counts use size_min / size_max")
            if demand is not None:
                _set_per_point(handle, demand, n, "demand", lib.ckm_problem_set_demands)
            self.has_demand = demand is not None
            if self.has_caps:
                lo = _capacity_bounds(capacity_min, k, "capacity_min", 0.0)
                hi = _capacity_bounds(capacity_max, k, "capacity_max", np.inf)
                rc = lib.ckm_problem_set_capacities(handle, _lib.ptr(lo), _lib.ptr(hi), ctypes.byref(err))
                if rc != _lib.OK:
                    _raise(rc, err)
        except BaseException:
            self.close()
            raise

    def close(self):
        if getattr(self, "handle", None):
            lib.ckm_problem_free(self.handle)
            self.handle = None

    def __del__(self):
        self.close()


class SolveOutcome:
    """Everything read out of a ckm_result (plain Python / numpy values)."""

    def __init__(self, res):
        r = res.contents
        if r.struct_size < ctypes.sizeof(_lib.Result):
            raise RuntimeError("ckm: libckm's ckm_result (%d bytes) is older than this package's mirror (%d bytes)"
                               % (r.struct_size, ctypes.sizeof(_lib.Result)))
        self.status_code = r.status
        self.status = lib.ckm_status_string(r.status).decode()
        self.has_labels = bool(r.has_labels)
        n, d, k = r.n, r.d, r.k
        if self.has_labels:
            self.labels = np.ctypeslib.as_array(r.labels, shape=(n,)).astype(np.int64)
            self.centers = np.ctypeslib.as_array(r.centers, shape=(k * d,)).reshape(k, d).copy()
            self.sizes = np.ctypeslib.as_array(r.sizes, shape=(k,)).astype(np.int64)
        else:
            self.labels = self.centers = self.sizes = None
        self.sse = r.sse
        self.objective = r.objective
        self.penalty = r.penalty
        self.soft_penalty = r.soft_penalty
        self.soft_violated = (int(r.soft_must_link_violated), int(r.soft_cannot_link_violated))
        self.lower_bound = r.lower_bound
        self.gap = r.gap
        self.iterations = r.iterations
        self.restarts = r.restarts
        self.algorithm = r.algorithm.decode()
        self.message = r.message.decode("utf-8", "replace")
        self.stats = {name: int(getattr(r.stats, name)) for name in _lib.STATS_FIELDS}
        self.time = {name: getattr(r.time, name) for name, _ in _lib.Timings._fields_}
        self.trace = _events(r.trace, r.trace_len)
        self.json = _json_of(lib.ckm_result_to_json, res, None)


def _event(e):
    """One ckm_progress as a dict (kind "step", "restart" or "bound"; NaN / -inf where the library has none)."""
    return dict(kind=_lib.PROGRESS_KINDS.get(e.kind, str(e.kind)), seconds=e.seconds, restart=e.restart,
                restarts=e.restarts, iteration=e.iteration, objective=e.objective, incumbent=e.incumbent,
                lower_bound=e.lower_bound, done=int(e.done), total=int(e.total))


def _events(ptr, n):
    return [_event(ptr[i]) for i in range(n)] if ptr else []


def _json_of(fn, res, *extra):
    """The library's JSON report of res (fn: ckm_result_to_json / ckm_certificate_to_json), or None."""
    js = ctypes.c_void_p()
    err = _lib.Err()
    if fn(res, *extra, ctypes.byref(js), ctypes.byref(err)) != _lib.OK:
        return None
    try:
        return ctypes.string_at(js.value).decode()
    finally:
        lib.ckm_free(js)


INIT_CODES = {"auto": 0, "random": 1, "k-means++": 2}
LLOYD_CODES = {"auto": 0, "plain": 1, "bounds": 2}
PRECISION_CODES = {"double": 0, "single": 1}


def solve(problem, algorithm="kmeans", seed=0, n_init=10, max_iter=0, tol=1e-4, time_limit=0.0, gap=1e-4,
          threads=0, verbose=0, init="auto", init_centers=None, lloyd="auto", precision="double", soft_penalty=0.0,
          step_limit=2.0, node_limit=0, memory_limit_mb=0.0, async_nodes=False, trace=False, progress=None):
    """Run ckm_solve on problem; returns a SolveOutcome. Ctrl-C raises KeyboardInterrupt.

    init: "auto" (the algorithm's own), "random" or "k-means++"; init_centers: a C-contiguous float64
    (k, d) array to start from instead (one restart); lloyd: "auto", "plain" or "bounds" (kmeans);
    precision: "double" or "single" (kmeans' distance passes in float32); soft_penalty: P, the cost of violating a
    soft pair of confidence 1 (0 = the library's default, 2 TSS / n); step_limit: seconds a soft or capacity assignment
    step may spend proving its optimum (0 = no limit); node_limit: exact's nodes before it stops (0 = none);
    memory_limit_mb: exact's budget in MB (10^6 bytes) for its open tree and the relaxations of a batch of nodes
    (0 = none but the machine's available memory; docs/memory.md); async_nodes: exact's asynchronous node pool
    (faster when node times differ; the nodes then depend on timing); trace: keep the run's progress events
    (SolveOutcome.trace, and the JSON report's "trace"); progress: a callable receiving each event as a dict
    (kind, seconds, restart, restarts, iteration, objective, incumbent, lower_bound, done, total) as it happens,
    on a library thread; an exception it raises stops the run and is raised here."""
    s = _lib.Settings()
    lib.ckm_settings_default(ctypes.byref(s))
    s.init = INIT_CODES[init]
    s.lloyd = LLOYD_CODES[lloyd]
    s.precision = PRECISION_CODES[precision]
    if init_centers is not None:
        s.init_centers = init_centers.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
    s.algorithm = algorithm.encode()
    s.seed = seed
    s.n_init = n_init
    s.max_iter = max_iter
    s.tol = tol
    s.time_limit_s = time_limit
    s.gap = gap
    s.threads = threads
    s.soft_penalty = soft_penalty
    s.step_limit_s = step_limit
    s.node_limit = node_limit
    s.memory_limit_mb = memory_limit_mb
    s.async_nodes = 1 if async_nodes else 0
    s.trace = 1 if trace else 0

    def call(res, err):
        return lib.ckm_solve(problem.handle, ctypes.byref(s), ctypes.byref(res), ctypes.byref(err))

    return _run(s, verbose, _lib.Result, call, SolveOutcome, lib.ckm_result_free, (problem, init_centers), progress)


def _run(s, verbose, result_type, call, read, free, keep, progress=None):
    """call(res, err) on a worker thread with s.interrupt set, so that Ctrl-C stops the library (the first one
    raises the flag and waits for the answer; a second one leaves at once); returns read(res) or raises the
    library's error. keep: objects the call borrows, alive until it has returned. progress: a callable given
    each progress event (a dict); the first exception it raises stops the run and is re-raised."""
    flag = ctypes.c_int(0)
    s.interrupt = ctypes.pointer(flag)
    log_cb = None
    box = {}
    progress_cb = None
    if progress is not None:
        if not callable(progress):
            raise TypeError("progress must be a callable taking one dict, got %r" % (progress,))

        def _progress(_user, ev):
            if "progress_exc" in box:
                return
            try:
                progress(_event(ev.contents))
            except BaseException as exc:  # stop the run, raise it afterwards
                box["progress_exc"] = exc
                flag.value = 1

        progress_cb = _lib.PROGRESS_FN(_progress)
        s.progress = progress_cb
    if verbose:
        s.verbosity = int(verbose)

        def _log(_user, line):
            logger.info("%s", line.decode("utf-8", "replace"))

        log_cb = _lib.LOG_FN(_log)
        s.log = log_cb
    done = threading.Event()

    def work():
        res = ctypes.POINTER(result_type)()
        err = _lib.Err()
        try:
            rc = call(res, err)
            if rc == _lib.OK:
                try:
                    box["out"] = read(res)
                finally:
                    free(res)
            else:
                box["rc"], box["err"] = rc, err
        except BaseException as exc:  # pragma: no cover - ctypes failures only
            box["exc"] = exc
        box["callbacks"] = (log_cb, progress_cb, s, flag, keep)  # alive until the call has returned
        done.set()

    th = threading.Thread(target=work, name="ckm-solve", daemon=True)
    try:
        # start() inside the try: a Ctrl-C while start() waits for the new thread to run must
        # still raise the flag, or the solve would run on after the KeyboardInterrupt
        th.start()
        # an Event, not Thread.join: a join interrupted by Ctrl-C returns at once afterwards in
        # CPython 3.11 (measured) although the thread still runs
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        flag.value = 1
        if th.ident is not None:  # started: wait for the solve to answer the flag
            while not done.wait(0.05):  # a second Ctrl-C leaves this wait at once
                pass
        raise
    if "progress_exc" in box:
        raise box["progress_exc"]
    if "exc" in box:
        raise box["exc"]
    if "rc" in box:
        _raise(box["rc"], box["err"])
    return box["out"]


class Certificate(dict):
    """Result of certify(): status, sse, violations, lower_bound, gap (NaN when the labels violate a constraint),
    labels_split_sse, split_floor_sse (no bound through this split exceeds it; NaN when not measured), subsets (T), subset_of (the subset of each point), subset (one dict per subset: points,
    groups, lower_bound, labels_sse, status, sdp, cut_rounds, seconds, rank), groups, workers, ranks (1: Python
    runs one process), memory_mb, time (split, bound, total), stats, trace (the bound over time as subsets
    finish: a list of dicts), message and json (the library's JSON report; also under the key "report").
    Attribute access works too; c.report(path) writes the HTML report (docs/report.md)."""

    __getattr__ = dict.__getitem__

    def report(self, path=None, title=None):
        """The self-contained HTML report of this certificate (the labels on their data, the bound closing over
        time, every subset's bound); written atomically to path when given; returns the page as a str."""
        make = self.__dict__.get("_inputs")
        if make is None:
            raise ValueError("this certificate does not know its data (made outside ckm.certify)")
        problem, labels, truth = make()
        try:
            return report_html(problem, labels, json=self["report"], truth=truth, path=path,
                               title=title or "ckm certify", command="ckm.certify(...)")
        finally:
            problem.close()


def _read_certificate(res):
    c = res.contents
    if c.struct_size < ctypes.sizeof(_lib.Certificate):
        raise RuntimeError("ckm: libckm's ckm_certificate is older than this package's mirror")
    subsets = []
    for t in range(c.subsets):
        q = c.subset[t]
        subsets.append(dict(points=q.points, groups=q.groups, lower_bound=q.lower_bound, labels_sse=q.labels_sse,
                            status=lib.ckm_status_string(q.status).decode(), sdp=bool(q.sdp),
                            cut_rounds=q.cut_rounds, seconds=q.seconds, rank=q.rank))
    js = ctypes.c_void_p()
    err = _lib.Err()
    report = None
    if lib.ckm_certificate_to_json(res, ctypes.byref(js), ctypes.byref(err)) == _lib.OK:
        report = ctypes.string_at(js.value).decode()
        lib.ckm_free(js)
    return Certificate(
        status=lib.ckm_status_string(c.status).decode(), sse=c.sse, violations=int(c.violations),
        lower_bound=c.lower_bound, gap=c.gap, labels_split_sse=c.labels_split_sse,
        split_floor_sse=c.split_floor_sse, subsets=int(c.subsets),
        subset_of=(np.ctypeslib.as_array(c.subset_of, shape=(c.n,)).astype(np.int64) if c.subset_of else None),
        subset=subsets, groups=int(c.groups), workers=c.workers, ranks=c.ranks, memory_mb=c.memory_mb,
        time=dict(split=c.split_s, bound=c.bound_s, total=c.total_s),
        stats={name: int(getattr(c.stats, name)) for name in ("sdp_iterations", "cut_rounds", "cuts_added")},
        message=c.message.decode("utf-8", "replace"), report=report, json=report,
        trace=_events(c.trace, c.trace_len))


def certify_problem(problem, labels, subsets=0, time_limit=0.0, cut_rounds=50, gap=1e-4, seed=0, threads=0,
                    verbose=0, progress=None):
    """ckm_certify on a Problem: a Certificate. Ctrl-C returns nothing and raises KeyboardInterrupt (the
    library stops within a second)."""
    lab = np.ascontiguousarray(labels, dtype=np.int32)
    s = _lib.Settings()
    lib.ckm_settings_default(ctypes.byref(s))
    s.time_limit_s = time_limit
    s.cut_rounds = cut_rounds
    s.gap = gap
    s.seed = seed
    s.threads = threads
    s.trace = 1  # the bound over time: one event per subset

    def call(res, err):
        return lib.ckm_certify(problem.handle, _lib.ptr(lab), subsets, ctypes.byref(s), ctypes.byref(res),
                               ctypes.byref(err))

    return _run(s, verbose, _lib.Certificate, call, _read_certificate, lib.ckm_certificate_free, (problem, lab),
                progress)


def report_html(problem, labels, json=None, truth=None, path=None, title=None, command=None, max_points=0,
                max_pairs=0, seed=0):
    """ckm_report_html: the self-contained HTML page about labels on problem (with the run's JSON report when
    given: its figures, trace and subsets); written atomically to path when given. Returns the page (str)."""
    lab = np.ascontiguousarray(labels, dtype=np.int32)
    if lab.shape != (problem.n,):
        raise ValueError("labels must have %d entries (one per point), got shape %s" % (problem.n, lab.shape))
    tr = None
    if truth is not None:
        tr = np.ascontiguousarray(np.unique(np.asarray(truth), return_inverse=True)[1], dtype=np.int32)
        if tr.shape != (problem.n,):
            raise ValueError("truth must have %d entries (one per point), got shape %s" % (problem.n, tr.shape))
    o = _lib.ReportOptions()
    lib.ckm_report_options_default(ctypes.byref(o))
    o.title = title.encode() if title else None
    o.command = command.encode() if command else None
    o.json = json.encode() if json else None
    o.truth = None if tr is None else tr.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
    o.max_points, o.max_pairs, o.seed = int(max_points), int(max_pairs), int(seed)
    out = ctypes.c_void_p()
    err = _lib.Err()
    rc = lib.ckm_report_html(problem.handle, _lib.ptr(lab), ctypes.byref(o), ctypes.byref(out), ctypes.byref(err))
    if rc != _lib.OK:
        _raise(rc, err)
    try:
        page = ctypes.string_at(out.value)
    finally:
        lib.ckm_free(out)
    if path is not None:
        rc = lib.ckm_write_file_atomic(os.fsencode(path), page, len(page), ctypes.byref(err))
        if rc != _lib.OK:
            _raise(rc, err)
    return page.decode("utf-8")


def pca(X, n_components=2, sample_weight=None):
    """The leading principal components of X (ckm_pca, the report's projection): (coordinates (n, m),
    components (m, d), variances (m,)), each component signed so its largest-magnitude entry is positive."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, d = X.shape
    w = None if sample_weight is None else np.ascontiguousarray(sample_weight, dtype=np.float64)
    Y = np.empty((n, n_components))
    V = np.empty((n_components, d))
    var = np.empty(n_components)
    err = _lib.Err()
    rc = lib.ckm_pca(_lib.ptr(X), _lib.ptr(w), n, d, int(n_components), _lib.ptr(Y), _lib.ptr(V), _lib.ptr(var),
                     ctypes.byref(err))
    if rc != _lib.OK:
        _raise(rc, err)
    return Y, V, var


def algorithms():
    """Names of the algorithms in this build of libckm."""
    return [lib.ckm_algorithm_at(i).contents.name.decode() for i in range(lib.ckm_algorithm_count())]


def version():
    """Version of the loaded libckm."""
    return lib.ckm_version().decode()
