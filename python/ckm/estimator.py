"""ConstrainedKMeans: the scikit-learn estimator over libckm."""

import ctypes
import html
import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _lib
from ._core import (InfeasibleError, NoSolutionError, Problem, _bounds, _raise, algorithms, certify_problem,
                    report_html, solve)


def _predict(X, centers, size_min, size_max, demand=None, capacity_min=None, capacity_max=None):
    """The exact assignment of X to the centers under the size bounds and capacities given (ckm_predict: the
    transportation solver for size bounds alone, else blpkm's assignment step); without any, the nearest
    center. A cluster may get no point unless size_min says otherwise."""
    n = X.shape[0]
    k = centers.shape[0]
    problem = Problem(X, k, None, None, 0 if size_min is None else size_min, size_max, None, None, None, demand,
                      capacity_min, capacity_max)
    try:
        out = ctypes.POINTER(_lib.Prediction)()
        err = _lib.Err()
        rc = _lib.lib.ckm_predict(problem.handle, _lib.ptr(np.ascontiguousarray(centers, dtype=np.float64)), None,
                                  ctypes.byref(out), ctypes.byref(err))
        if rc != _lib.OK:
            _raise(rc, err)
        try:
            r = out.contents
            why = r.message.decode("utf-8", "replace")
            if r.status == _lib.STATUS_INFEASIBLE:
                raise InfeasibleError(why)
            if not r.has_labels:
                raise NoSolutionError(why)
            return np.ctypeslib.as_array(r.labels, shape=(n,)).astype(np.int64)
        finally:
            _lib.lib.ckm_prediction_free(out)
    finally:
        problem.close()


class ConstrainedKMeans(ClusterMixin, TransformerMixin, BaseEstimator):
    """k-means (minimum sum-of-squares clustering) with must-link, cannot-link and cluster-size constraints,
    every constraint honoured strictly and checked independently (libckm).

    Parameters
    ----------
    n_clusters : int, default=8
    algorithm : str, default="auto"
        "auto" (sizeflow for size bounds alone, blpkm when there are pairs, kmeans otherwise) or any name of
        ``ckm.algorithms()``: kmeans, blpkm, cop, bckm, admm, ipc, exact, sizeflow.
    must_link, cannot_link : (m, 2) int arrays of point indices, default=None
    soft_must_link, soft_cannot_link : (m, 3) arrays of rows (i, j, confidence), default=None
        Soft pairs (PCCC, Baumann & Hochbaum 2024): violating one costs ``soft_penalty * confidence`` in the
        objective instead of being forbidden; confidence in (0, 1]. Taken by blpkm ("auto" picks it).
    step_limit : float, default=2.0
        With soft pairs or capacities, whose assignment steps are NP-hard: seconds a step may spend proving its
        optimum before the best labelling found is used (never worse than the previous step's; counted in
        ``message_`` with the largest certified gap of such steps). 0 = every step proven, and the labels
        reproducible on any machine.
    soft_step_limit : float or None, default=None
        The former name of ``step_limit`` (it always bounded capacity steps too); when given it is used, with a
        FutureWarning.
    soft_penalty : float or None, default=None
        P in SSE units; None = the library's default, the mean squared distance between two points (2 TSS / n).
    size_min, size_max : int or n_clusters ints, default=None
        Bounds on the number of points of each cluster (sample weights do not change the count).
        Without any, every cluster must still be non-empty.
    capacity_min, capacity_max : float or n_clusters floats, default=None
        Bounds on each cluster's total demand (its load: the sum of ``demand`` given to ``fit`` over its
        points), e.g. population per district or workload per technician; ``capacity_max`` may be inf.
        Independent of sample weights (which weight the SSE) and of the size bounds (which count points).
        Taken by blpkm ("auto" picks it); each assignment step is then a generalized assignment problem
        solved to proven optimality by CBC. Loads are compared within 1e-9 of the total demand.
    init : {"auto", "k-means++", "random"} or array of shape (n_clusters, n_features), default="auto"
        Initial centers: "auto" is the algorithm's own choice (random points for blpkm as published,
        k-means++ for blpkm with soft pairs and for the others); an array is used as given (then one restart runs, as in scikit-learn).
    n_init : int, default=10
        Restarts (the best SSE is kept).
    lloyd : {"auto", "plain", "bounds"}, default="auto"
        kmeans' nearest-center step: every distance, or Yinyang bounds (the same labels).
    precision : {"double", "single"}, default="double"
        kmeans' full passes in float32 when "single" (labels may differ at float ties).
    max_iter : int or None, default=None
        Iterations per restart; None = the algorithm's default.
    tol : float, default=1e-4
        kmeans and sizeflow stop when the centers move by sum_j ||c_j - c_j'||^2 <= tol times
        the mean feature variance (scikit-learn's rule); admm: relative std of its last 10
        objective values.
    time_limit : float or None, default=None
        Seconds; the best labelling found so far is returned at the limit (``status_ == "time limit"``).
    gap : float, default=1e-4
        Relative optimality tolerance of ipc and exact.
    node_limit : int or None, default=None
        exact: branch-and-cut nodes to process; at the limit the best labelling so far is returned with its
        certified ``gap_`` (``status_ == "iteration limit"``). None = no limit.
    memory_limit_mb : float or None, default=None
        exact: budget in MB (10^6 bytes) for the open search tree and the relaxations of a batch of nodes.
        The search runs fewer nodes at once to stay within it, and stops with the best labelling and its
        certified ``gap_`` when not one more node fits (``status_ == "memory limit"``); a budget the root
        node alone exceeds raises MemoryError before any work. None = the machine's available memory.
    async_nodes : bool, default=False
        exact with n_jobs > 1: an asynchronous node pool (a worker takes the best open node as soon as it is
        free) instead of synchronous batches; faster when node times differ, but the nodes processed, and
        the labelling among equal optima, then depend on timing (random_state no longer fixes them).
    certify : bool, default=False
        After fitting, certify the labels whatever the algorithm (``ckm.certify``, docs/certify.md): a safe
        lower bound on the constrained optimum from SDP bounds of subsets that each resemble the whole, so
        ``lower_bound_`` and ``gap_`` are set for every algorithm (the higher of the algorithm's own bound and
        the certificate's), and ``certificate_`` holds the certificate (a dict). Not with soft pairs.
    certify_time_limit : float or None, default=None
        Seconds for the certificate (the bound reached by then is kept); None = no limit (subsets of about
        400 groups each).
    random_state : int, RandomState or None, default=None
        An int is the library's seed, so results equal ``ckm cluster --seed`` for the same int.
    n_jobs : int or None, default=None
        Worker threads; None or -1 = the cores this process may use.
    verbose : int, default=0
        Progress lines through the ``logging`` logger "ckm" (level INFO).
    progress : callable or None, default=None
        Called with each progress event of the run as a dict (kind "step", "restart" or "bound"; seconds,
        restart, restarts, iteration, objective, incumbent, lower_bound, done, total) while ``fit`` runs, on a
        library thread: drive a progress bar with it. An exception it raises stops the fit and is re-raised.

    Attributes
    ----------
    labels_, cluster_centers_, inertia_ (weighted SSE), n_iter_, n_features_in_, status_, lower_bound_ and gap_
    (ipc and exact; None otherwise), stats_ (dict of the solver's work counters), timings_ (the library's
    preprocess_s, solve_s, check_s, total_s), sizes_, algorithm_ (the one "auto" chose), message_;
    with soft pairs also penalty_ (P times the confidence of the violated soft pairs), objective_ (inertia_ +
    penalty_, what was minimised), soft_penalty_ (P used) and soft_violated_ ((must-link, cannot-link) counts);
    loads_ (each cluster's total demand when ``fit`` got demand, else None); certificate_ (with certify=True,
    else None); trace_ (the run's progress events, a list of dicts: what the report's convergence plot draws).

    ``report(path)`` writes a self-contained HTML report of the fit (docs/report.md); in a notebook the fitted
    estimator shows its summary inline (``_repr_html_``).
    """

    def __init__(self, n_clusters=8, *, algorithm="auto", must_link=None, cannot_link=None, soft_must_link=None,
                 soft_cannot_link=None, soft_penalty=None, step_limit=2.0, soft_step_limit=None, size_min=None, size_max=None, capacity_min=None, capacity_max=None, init="auto", n_init=10, lloyd="auto", precision="double", max_iter=None, tol=1e-4, time_limit=None, gap=1e-4, node_limit=None,
                 memory_limit_mb=None, async_nodes=False, certify=False, certify_time_limit=None, random_state=None,
                 n_jobs=None, verbose=0, progress=None):
        self.n_clusters = n_clusters
        self.algorithm = algorithm
        self.must_link = must_link
        self.cannot_link = cannot_link
        self.soft_must_link = soft_must_link
        self.soft_cannot_link = soft_cannot_link
        self.soft_penalty = soft_penalty
        self.step_limit = step_limit
        self.soft_step_limit = soft_step_limit
        self.size_min = size_min
        self.size_max = size_max
        self.capacity_min = capacity_min
        self.capacity_max = capacity_max
        self.init = init
        self.n_init = n_init
        self.lloyd = lloyd
        self.precision = precision
        self.max_iter = max_iter
        self.tol = tol
        self.time_limit = time_limit
        self.gap = gap
        self.node_limit = node_limit
        self.memory_limit_mb = memory_limit_mb
        self.async_nodes = async_nodes
        self.certify = certify
        self.certify_time_limit = certify_time_limit
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose
        self.progress = progress

    # -- parameter checks (before any work) --
    def _check_params(self, n):
        k = self.n_clusters
        if not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError("n_clusters=%r must be an integer >= 1" % (k,))
        if n < k:
            raise ValueError("n_samples=%d should be >= n_clusters=%d." % (n, k))
        names = algorithms()
        if self.algorithm != "auto" and self.algorithm not in names:
            raise ValueError("algorithm=%r is not one of 'auto', %s" % (self.algorithm, ", ".join(map(repr, names))))
        for name in ("n_init",):
            v = getattr(self, name)
            if not isinstance(v, numbers.Integral) or v < 1:
                raise ValueError("%s=%r must be an integer >= 1" % (name, v))
        if isinstance(self.init, str) and self.init not in ("auto", "k-means++", "random"):
            raise ValueError("init=%r must be 'auto', 'k-means++', 'random' or an array of initial centers" % (self.init,))
        if self.lloyd not in ("auto", "plain", "bounds"):
            raise ValueError("lloyd=%r must be 'auto', 'plain' or 'bounds'" % (self.lloyd,))
        if self.precision not in ("double", "single"):
            raise ValueError("precision=%r must be 'double' or 'single'" % (self.precision,))
        if self.max_iter is not None and (not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1):
            raise ValueError("max_iter=%r must be None or an integer >= 1" % (self.max_iter,))
        if not isinstance(self.tol, numbers.Real) or not self.tol >= 0:
            raise ValueError("tol=%r must be a number >= 0" % (self.tol,))
        if self.time_limit is not None and (not isinstance(self.time_limit, numbers.Real) or not self.time_limit > 0):
            raise ValueError("time_limit=%r must be None or a number of seconds > 0" % (self.time_limit,))
        if self.soft_penalty is not None and (not isinstance(self.soft_penalty, numbers.Real) or
                                              not (np.isfinite(self.soft_penalty) and self.soft_penalty > 0)):
            raise ValueError("soft_penalty=%r must be None or a finite number > 0" % (self.soft_penalty,))
        if self.soft_step_limit is not None:
            warnings.warn("soft_step_limit is the former name of step_limit", FutureWarning)
        name, limit = ("soft_step_limit", self.soft_step_limit) if self.soft_step_limit is not None else \
            ("step_limit", self.step_limit)
        if not isinstance(limit, numbers.Real) or not (np.isfinite(limit) and limit >= 0):
            raise ValueError("%s=%r must be a finite number of seconds >= 0 (0 = every step proven)" % (name, limit))
        if not isinstance(self.gap, numbers.Real) or not 0 <= self.gap < 1:
            raise ValueError("gap=%r must be in [0, 1)" % (self.gap,))
        if self.node_limit is not None and (not isinstance(self.node_limit, numbers.Integral) or
                                            not 1 <= self.node_limit <= 2**31 - 1):
            raise ValueError("node_limit=%r must be None or an integer in [1, 2^31 - 1]" % (self.node_limit,))
        if self.memory_limit_mb is not None and (not isinstance(self.memory_limit_mb, numbers.Real) or
                                                 not (np.isfinite(self.memory_limit_mb) and self.memory_limit_mb > 0)):
            raise ValueError("memory_limit_mb=%r must be None or a finite number of MB > 0" % (self.memory_limit_mb,))
        if not isinstance(self.async_nodes, (bool, np.bool_)):
            raise ValueError("async_nodes=%r must be True or False" % (self.async_nodes,))
        if not isinstance(self.certify, (bool, np.bool_)):
            raise ValueError("certify=%r must be True or False" % (self.certify,))
        if self.certify and (self.soft_must_link is not None or self.soft_cannot_link is not None):
            raise ValueError("certify=True bounds the SSE under hard constraints; soft pairs are not certified")
        if self.certify_time_limit is not None and (not isinstance(self.certify_time_limit, numbers.Real) or
                                                    not (np.isfinite(self.certify_time_limit) and
                                                         self.certify_time_limit > 0)):
            raise ValueError("certify_time_limit=%r must be None or a number of seconds > 0" % (self.certify_time_limit,))
        if self.n_jobs is not None and (not isinstance(self.n_jobs, numbers.Integral) or
                                        not (self.n_jobs == -1 or 1 <= self.n_jobs <= 256)):
            raise ValueError("n_jobs=%r must be None, -1 or an integer in [1, 256]" % (self.n_jobs,))

    def _algorithm_for(self, problem):
        if self.algorithm != "auto":
            return self.algorithm
        if problem.n_must_link or problem.n_cannot_link or problem.n_soft or problem.has_caps:
            return "blpkm"
        if problem.has_sizes:
            return "sizeflow"
        return "kmeans"

    def _seed(self):
        if isinstance(self.random_state, numbers.Integral) and self.random_state >= 0:
            return int(self.random_state)
        return int(check_random_state(self.random_state).randint(0, 2**31 - 1))

    def fit(self, X, y=None, sample_weight=None, demand=None):
        """Cluster X (n_samples, n_features) under the constraints. y does not change the fit: report() scores the labels against it. demand: one value >= 0 per
        point, what capacity_min / capacity_max bound (loads_ reports each cluster's total)."""
        X = self._validate_data(X, dtype=np.float64, order="C", accept_sparse=False, reset=True)
        n = X.shape[0]
        self._check_params(n)
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if np.any(sample_weight <= 0):
                i = int(np.argmax(sample_weight <= 0))
                raise ValueError("sample_weight[%d] = %g: weights must be > 0 (a zero-weight row would still count "
                                 "in size bounds and pairs; drop the row instead)" % (i, sample_weight[i]))
        centers = None
        if not isinstance(self.init, str):
            centers = np.ascontiguousarray(np.asarray(self.init, dtype=np.float64))
            if centers.shape != (self.n_clusters, X.shape[1]):
                raise ValueError("init: the array of initial centers has shape %r, expected (n_clusters, n_features) = "
                                 "(%d, %d)" % (centers.shape, self.n_clusters, X.shape[1]))
            if not np.all(np.isfinite(centers)):
                raise ValueError("init: the initial centers contain NaN or infinity")
        if demand is not None:
            demand = np.asarray(demand, dtype=np.float64)
            if demand.shape != (n,):
                raise ValueError("demand must have %d entries (one per sample), got shape %s" % (n, demand.shape))
            if not np.all(np.isfinite(demand)) or np.any(demand < 0):
                i = int(np.argmax(~(np.isfinite(demand) & (demand >= 0))))
                raise ValueError("demand[%d] = %g: demands must be finite and >= 0" % (i, demand[i]))
        problem = Problem(X, self.n_clusters, self.must_link, self.cannot_link, self.size_min, self.size_max,
                          sample_weight, self.soft_must_link, self.soft_cannot_link, demand, self.capacity_min,
                          self.capacity_max)
        try:
            algo = self._algorithm_for(problem)
            out = solve(problem, algo, seed=self._seed(), n_init=self.n_init, max_iter=self.max_iter or 0,
                        tol=float(self.tol), time_limit=float(self.time_limit or 0.0), gap=float(self.gap),
                        threads=0 if self.n_jobs in (None, -1) else int(self.n_jobs), verbose=self.verbose,
                        init=self.init if isinstance(self.init, str) else "auto", init_centers=centers,
                        lloyd=self.lloyd, precision=self.precision, soft_penalty=float(self.soft_penalty or 0.0),
                        step_limit=float(self.step_limit if self.soft_step_limit is None else self.soft_step_limit),
                        node_limit=int(self.node_limit or 0), memory_limit_mb=float(self.memory_limit_mb or 0.0),
                        async_nodes=bool(self.async_nodes), trace=True, progress=self.progress)
            cert = None
            if self.certify and out.has_labels:
                cert = certify_problem(problem, out.labels, time_limit=float(self.certify_time_limit or 0.0),
                                       gap=float(self.gap), seed=self._seed(),
                                       threads=0 if self.n_jobs in (None, -1) else int(self.n_jobs),
                                       verbose=self.verbose)
        finally:
            problem.close()
        self.status_ = out.status
        self.message_ = out.message
        self.stats_ = out.stats
        self.algorithm_ = out.algorithm
        if out.status_code == _lib.STATUS_INFEASIBLE:
            raise InfeasibleError(out.message or "the constraints admit no labelling")
        if not out.has_labels:
            raise NoSolutionError("%s: %s (%s)" % (algo, out.status, out.message))
        if out.status_code in (_lib.STATUS_TIME_LIMIT, _lib.STATUS_ITERATION_LIMIT, _lib.STATUS_INTERRUPTED,
                               _lib.STATUS_MEMORY_LIMIT):
            warnings.warn("ckm %s stopped early (%s): the labelling satisfies every constraint but may not be the "
                          "best; %s" % (algo, out.status, out.message), ConvergenceWarning)
        self.labels_ = out.labels
        self.cluster_centers_ = out.centers
        self.inertia_ = float(out.sse)
        self.objective_ = float(out.objective)
        self.penalty_ = float(out.penalty)
        self.soft_penalty_ = float(out.soft_penalty)
        self.soft_violated_ = out.soft_violated
        self.n_iter_ = int(out.iterations)
        lb = max(out.lower_bound, cert["lower_bound"]) if cert is not None else out.lower_bound
        self.lower_bound_ = float(lb) if np.isfinite(lb) else None
        if cert is not None and np.isfinite(lb):
            self.gap_ = 0.0 if out.sse <= 0.0 else max(0.0, float((out.sse - lb) / out.sse))
        else:
            self.gap_ = float(out.gap) if np.isfinite(out.gap) else None
        self.certificate_ = cert
        self.sizes_ = out.sizes
        self.timings_ = out.time
        self.loads_ = None if demand is None else np.bincount(out.labels, weights=demand, minlength=self.n_clusters)
        self.trace_ = out.trace
        if cert is not None:
            cert.__dict__["_inputs"] = lambda: (self._problem(), self.labels_, self._fit_inputs_["y"])
        # what report() draws: the data as fitted (a reference, no copy) and the run's JSON report
        self._fit_inputs_ = dict(X=X, sample_weight=sample_weight, demand=demand, json=out.json,
                                 y=None if y is None else np.asarray(y))
        return self

    def __getstate__(self):
        # a pickled model does not carry its training data: report() then needs X again
        state = super().__getstate__()
        if "_fit_inputs_" in state:
            state["_fit_inputs_"] = dict(state["_fit_inputs_"], X=None, sample_weight=None, demand=None, y=None)
        return state

    def _problem(self, X=None):
        f = self._fit_inputs_
        if X is None:
            X = f["X"]
            if X is None:
                raise ValueError("report(): this estimator was unpickled without its training data; pass X (and "
                                 "sample_weight / demand as given to fit)")
        else:
            X = self._validate_data(X, dtype=np.float64, order="C", reset=False)
            if X.shape[0] != len(self.labels_):
                raise ValueError("report(): X has %d rows, the fit had %d" % (X.shape[0], len(self.labels_)))
        return Problem(X, self.n_clusters, self.must_link, self.cannot_link, self.size_min, self.size_max,
                       f["sample_weight"], self.soft_must_link, self.soft_cannot_link, f["demand"], self.capacity_min,
                       self.capacity_max)

    def report(self, path=None, X=None, y=None, title=None, max_points=0):
        """The self-contained HTML report of the fit (docs/report.md): the problem and the answer, the points on
        their first two principal components coloured by cluster with centers and pairs, sizes and loads against
        their bounds, the objective per step and restart (the bound over time for ipc and exact), a per-cluster
        table, and with y (or the y given to fit) ARI and NMI. Written atomically to path when given; returns
        the page (str). No network access is needed to view it. X: the training data, needed only when the
        estimator was unpickled (a pickle does not carry it)."""
        check_is_fitted(self, "labels_")
        f = self._fit_inputs_
        truth = y if y is not None else f["y"]
        problem = self._problem(X)
        try:
            return report_html(problem, self.labels_, json=f["json"], truth=truth, path=path,
                               title=title or "ConstrainedKMeans (%s)" % self.algorithm_,
                               command=repr(self), max_points=max_points)
        finally:
            problem.close()

    def _repr_html_(self):
        """In a notebook: the fitted estimator's summary (status, SSE, bound, gap, sizes, time); unfitted, the
        estimator itself."""
        if not hasattr(self, "labels_"):
            return "<pre>%s</pre>" % html.escape(repr(self))
        rows = [("algorithm", self.algorithm_), ("status", self.status_), ("SSE (inertia_)", "%.6g" % self.inertia_),
                ("lower bound", "-" if self.lower_bound_ is None else "%.6g" % self.lower_bound_),
                ("certified gap", "-" if self.gap_ is None else "%.4g %%" % (100 * self.gap_)),
                ("clusters", "%d (sizes %s)" % (self.n_clusters, ", ".join(str(int(s)) for s in self.sizes_[:20]) +
                                                (", ..." if len(self.sizes_) > 20 else ""))),
                ("iterations", str(self.n_iter_)), ("seconds", "%.3g" % self.timings_["total_s"])]
        if self.message_:
            rows.append(("message", self.message_))
        body = "".join("<tr><th style=\"text-align:left;padding-right:1em\">%s</th><td>%s</td></tr>"
                       % (html.escape(a), html.escape(b)) for a, b in rows)
        return ("<div class=\"ckm-summary\"><strong>%s</strong><table>%s</table>"
                "<small>report(path) writes the full HTML report</small></div>"
                % (html.escape(type(self).__name__), body))

    def fit_predict(self, X, y=None, sample_weight=None, demand=None):
        """fit, then labels_."""
        return self.fit(X, sample_weight=sample_weight, demand=demand).labels_

    def predict(self, X, size_min=None, size_max=None, demand=None, capacity_min=None, capacity_max=None):
        """Nearest learned center, or with size_min / size_max the exact size-bounded assignment to the learned
        centers (minimum sum of squared distances); with capacity_min / capacity_max (and X's demand) the exact
        assignment under the capacities too (ckm_predict: one entry for every constraint)."""
        check_is_fitted(self, "cluster_centers_")
        X = self._validate_data(X, dtype=np.float64, order="C", reset=False)
        return _predict(X, self.cluster_centers_, size_min, size_max, demand, capacity_min, capacity_max)

    def transform(self, X):
        """Euclidean distances of each point to each center, (n_samples, n_clusters)."""
        check_is_fitted(self, "cluster_centers_")
        X = self._validate_data(X, dtype=np.float64, order="C", reset=False)
        c = self.cluster_centers_
        d2 = (X * X).sum(1)[:, None] - 2.0 * X @ c.T + (c * c).sum(1)[None, :]
        return np.sqrt(np.maximum(d2, 0.0))

    def score(self, X, y=None, sample_weight=None):
        """Opposite of the (weighted) sum of squared distances of X to the nearest learned center."""
        check_is_fitted(self, "cluster_centers_")
        X = self._validate_data(X, dtype=np.float64, order="C", reset=False)
        w = _check_sample_weight(sample_weight, X, dtype=np.float64)
        d = self.transform(X).min(axis=1)
        return -float(np.dot(w, d * d))

    def _more_tags(self):
        return {
            "_xfail_checks": {
                "check_sample_weights_invariance": (
                    "sample_weight must be > 0: a zero-weight row would still count in size bounds and pairs"
                ),
            },
        }
