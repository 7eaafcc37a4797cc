"""Helpers with the CLI's semantics: check, generate_constraints, read_constraints."""

import ctypes
import os

import numpy as np

from . import _lib
from ._core import Problem, _raise, certify_problem, report_html
from ._lib import lib


def _pairs_from(make, soft=False, path=None):
    """Call make(out, err) (a ckm_constraints constructor); its pairs as (must_link, cannot_link), (m, 2)
    int64 arrays, and with soft=True also (soft_must_link, soft_cannot_link), (m, 3) float64 arrays of rows
    (i, j, confidence). Soft pairs with soft=False are an error, never read as hard ones. The ckm_constraints
    is freed here."""
    out = ctypes.POINTER(_lib.Constraints)()
    err = _lib.Err()
    rc = make(ctypes.byref(out), ctypes.byref(err))
    if rc != _lib.OK:
        _raise(rc, err)
    try:
        c = out.contents
        ml, cl, sml, scl = [], [], [], []
        for q in range(c.count):
            p = c.pairs[q]
            conf = c.confidence[q] if c.confidence else 0.0
            if conf == 0.0:
                (ml if p.type == _lib.MUST_LINK else cl).append((p.i, p.j))
            elif not soft:
                raise ValueError("%s: line %d holds a soft pair (confidence %g): call read_constraints(..., soft=True), "
                                 "which also returns the soft pairs" % (path, p.line, conf))
            else:
                (sml if p.type == _lib.MUST_LINK else scl).append((p.i, p.j, conf))
        hard = (np.array(ml, dtype=np.int64).reshape(-1, 2), np.array(cl, dtype=np.int64).reshape(-1, 2))
        if not soft:
            return hard
        return hard + (np.array(sml, dtype=np.float64).reshape(-1, 3), np.array(scl, dtype=np.float64).reshape(-1, 3))
    finally:
        lib.ckm_constraints_free(out)


def read_constraints(path, n=None, soft=False):
    """Read a constraints file ("ML i j" / "CL i j" or "i j 1|-1", 0-based, '#' comments; a fourth field
    "ML i j 0.8" makes a soft pair with that confidence) as the CLI does. With n, indices >= n are an error
    naming the line. Returns (must_link, cannot_link); with soft=True (must_link, cannot_link, soft_must_link,
    soft_cannot_link), the soft ones (m, 3) arrays of rows (i, j, confidence) for ConstrainedKMeans. A file
    with soft pairs read with soft=False is a ValueError."""
    return _pairs_from(lambda out, err: lib.ckm_constraints_read(os.fsencode(path), int(n or 0), out, err), soft,
                       path)


def generate_constraints(y, count, ml_fraction=-1.0, random_state=0):
    """Random pairs from ground-truth labels y, as `ckm gen-constraints`: distinct pairs i < j, must-link when
    the labels agree, cannot-link otherwise; with 0 <= ml_fraction <= 1 exactly round(count * ml_fraction) are
    must-links. Deterministic in random_state (an int). Returns (must_link, cannot_link)."""
    codes = np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int32)
    return _pairs_from(lambda out, err: lib.ckm_constraints_generate(_lib.ptr(codes), len(codes), int(count),
                                                                     float(ml_fraction), int(random_state), out, err))


def _labelled(X, labels, n_clusters):
    """X as C-contiguous float64 (n, d), labels as int32 (n,), k (n_clusters, or max(labels) + 1)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError("X must be 2-dimensional, got shape %s" % (X.shape,))
    lab = np.asarray(labels)
    if lab.shape != (X.shape[0],):
        raise ValueError("labels must have %d entries, got shape %s" % (X.shape[0], lab.shape))
    if lab.size and not np.issubdtype(lab.dtype, np.integer):
        raise ValueError("labels must be integers, got dtype %s" % lab.dtype)
    k = int(n_clusters) if n_clusters is not None else int(lab.max()) + 1
    return X, np.ascontiguousarray(lab, dtype=np.int32), k


class CheckReport(dict):
    """Result of check(): ok, sse, sizes, loads (each cluster's total demand; 1 per point without demand),
    must_link_violated, cannot_link_violated, size_violated, capacity_violated, label_invalid and violations
    (a list of ("must-link" | "cannot-link", i, j) / ("size", cluster, size) / ("capacity", cluster, load) /
    ("label", point, label)). Attribute access works too (report.ok)."""

    __getattr__ = dict.__getitem__


def check(X, labels, must_link=None, cannot_link=None, size_min=None, size_max=None, sample_weight=None,
          n_clusters=None, soft_must_link=None, soft_cannot_link=None, demand=None, capacity_min=None,
          capacity_max=None):
    """Verify labels against every constraint with the library's independent checker and recompute the
    (weighted) SSE from the labels alone, as `ckm check`. n_clusters defaults to max(labels) + 1. Soft pairs
    ((m, 3) rows (i, j, confidence)) are counted, not violations: soft_must_link_violated,
    soft_cannot_link_violated, soft_violated_confidence. capacity_min / capacity_max bound each cluster's
    total demand (needs demand), within 1e-9 of the total demand."""
    X, lab32, k = _labelled(X, labels, n_clusters)
    problem = Problem(X, k, must_link, cannot_link, size_min if size_min is not None else 0, size_max,
                      sample_weight, soft_must_link, soft_cannot_link, demand, capacity_min, capacity_max)
    rep = ctypes.POINTER(_lib.CheckReport)()
    err = _lib.Err()
    try:
        rc = lib.ckm_check(problem.handle, _lib.ptr(lab32), ctypes.byref(rep), ctypes.byref(err))
        if rc != _lib.OK:
            _raise(rc, err)
        r = rep.contents
        violations = []
        for q in range(r.count):
            v = r.violations[q]
            if v.kind == _lib.VIOLATION_PAIR:
                pr = _lib.Pair()
                lib.ckm_problem_pair(problem.handle, v.index, ctypes.byref(pr), None)
                violations.append(("must-link" if pr.type == _lib.MUST_LINK else "cannot-link", pr.i, pr.j))
            elif v.kind == _lib.VIOLATION_SIZE:
                violations.append(("size", v.index, v.value))
            elif v.kind == _lib.VIOLATION_CAPACITY:
                violations.append(("capacity", v.index, float(r.loads[v.index])))
            else:
                violations.append(("label", v.index, v.value))
        out = CheckReport(ok=r.count == 0, sse=r.sse, sizes=np.ctypeslib.as_array(r.sizes, shape=(k,)).astype(np.int64),
                          must_link_violated=r.must_link_violated, cannot_link_violated=r.cannot_link_violated,
                          size_violated=r.size_violated, capacity_violated=r.capacity_violated,
                          loads=None if not r.loads else np.ctypeslib.as_array(r.loads, shape=(k,)).copy(),
                          label_invalid=r.label_invalid, violations=violations,
                          soft_must_link_violated=r.soft_must_link_violated,
                          soft_cannot_link_violated=r.soft_cannot_link_violated,
                          soft_violated_confidence=r.soft_violated_confidence)
        lib.ckm_check_report_free(rep)
        return out
    finally:
        problem.close()


def certify(X, labels, n_clusters=None, must_link=None, cannot_link=None, size_min=None, size_max=None,
            sample_weight=None, demand=None, capacity_min=None, capacity_max=None, subsets=0, time_limit=None,
            cut_rounds=50, gap=1e-4, random_state=0, n_jobs=None, verbose=0, progress=None, y=None):
    """A safe lower bound on the optimal (weighted) SSE of X into n_clusters clusters under the constraints,
    and the certified gap (SSE - bound) / SSE of labels, which may come from any tool (as `ckm certify`;
    docs/certify.md). The points are split into subsets that each resemble the whole (must-link groups kept
    whole) and the subsets' SDP bounds add up to a bound of the whole. subsets: T (0 = chosen from time_limit,
    or subsets of about 400 groups; 1 = the whole problem's root bound). Without size bounds every cluster is
    non-empty, as in ConstrainedKMeans. Returns a Certificate (a dict): lower_bound, gap, sse, status ("optimal"
    when the gap is within `gap`, "feasible", "time limit", "infeasible"), subset_of, subset, ... Labels that
    violate a constraint get the bound and gap NaN. progress: a callable given each progress event (a dict: the
    bound so far as subsets finish); y: ground-truth labels the HTML report (cert.report(path)) scores against."""
    X, lab, k = _labelled(X, labels, n_clusters)
    if lab.size and lab.min() < 0:
        raise ValueError("labels must be non-negative integers")
    if random_state is not None and not isinstance(random_state, (int, np.integer)):
        raise ValueError("random_state must be an int (the split's seed) or None")
    def make():
        return Problem(X, k, must_link, cannot_link, size_min, size_max, sample_weight, None, None, demand,
                       capacity_min, capacity_max)

    problem = make()
    try:
        cert = certify_problem(problem, lab, subsets=int(subsets), time_limit=float(time_limit or 0.0),
                               cut_rounds=int(cut_rounds), gap=float(gap), seed=int(random_state or 0),
                               threads=0 if n_jobs in (None, -1) else int(n_jobs), verbose=verbose, progress=progress)
    finally:
        problem.close()
    cert.__dict__["_inputs"] = lambda: (make(), lab, y)  # what cert.report(path) draws
    return cert


def report(X, labels, path=None, n_clusters=None, must_link=None, cannot_link=None, soft_must_link=None,
           soft_cannot_link=None, size_min=None, size_max=None, sample_weight=None, demand=None, capacity_min=None,
           capacity_max=None, y=None, json=None, title=None, max_points=0, random_state=0):
    """The self-contained HTML report of any labelling (as `ckm report`; docs/report.md): the points on their first
    two principal components coloured by cluster with the pairs (violated or paid ones highlighted), sizes and loads
    against their bounds, a per-cluster table, with y (ground truth) ARI and NMI, and with json (the JSON report of
    the run that made the labels) its figures, convergence and subsets. Written atomically to path when given;
    returns the page (str)."""
    X, lab, k = _labelled(X, labels, n_clusters)
    if lab.size and lab.min() < 0:
        raise ValueError("labels must be non-negative integers")
    problem = Problem(X, k, must_link, cannot_link, size_min, size_max, sample_weight, soft_must_link,
                      soft_cannot_link, demand, capacity_min, capacity_max)
    try:
        return report_html(problem, lab, json=json, truth=y, path=path, title=title or "ckm report",
                           command="ckm.report(...)", max_points=max_points, seed=int(random_state or 0))
    finally:
        problem.close()
