"""ConstrainedKMeans: scikit-learn conventions, constraints, errors, weights, threads, the CLI's labels."""

import itertools
import os
import subprocess
import threading

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import check_estimator

import ckm
from ckm import ConstrainedKMeans, InfeasibleError
from conftest import HERE_DATA, ROOT, honours, wsse


def test_check_estimator():
    check_estimator(ConstrainedKMeans())


def test_params_roundtrip():
    km = ConstrainedKMeans(4, algorithm="blpkm", size_min=[1, 2, 3, 4])
    params = km.get_params()
    assert params["n_clusters"] == 4 and params["algorithm"] == "blpkm" and params["size_min"] == [1, 2, 3, 4]
    km.set_params(n_clusters=3, time_limit=5.0)
    assert km.n_clusters == 3 and km.time_limit == 5.0


def test_iris_unconstrained_and_attributes(iris):
    X, _ = iris
    km = ConstrainedKMeans(3, random_state=1).fit(X)
    assert km.algorithm_ == "kmeans" and km.status_ == "feasible"
    assert km.labels_.shape == (150,) and km.cluster_centers_.shape == (3, 4) and km.n_features_in_ == 4
    assert km.inertia_ == pytest.approx(wsse(X, km.labels_), rel=1e-12)
    assert km.inertia_ == pytest.approx(78.851441, abs=1e-6)
    assert km.lower_bound_ is None and km.gap_ is None
    assert km.stats_["restarts"] == 10 and km.stats_["iterations"] >= km.n_iter_
    np.testing.assert_array_equal(km.predict(X), km.labels_)
    assert km.transform(X).shape == (150, 3)
    assert km.score(X) == pytest.approx(-km.inertia_, rel=1e-9)
    np.testing.assert_array_equal(ConstrainedKMeans(3, random_state=1).fit_predict(X), km.labels_)


def _cli():
    path = os.environ.get("CKM_CLI")
    if not path or not os.access(path, os.X_OK):
        pytest.fail("set CKM_CLI to the ckm tool (the README's test command does) to compare with the CLI")
    return path


@pytest.mark.parametrize("args", [
    dict(algorithm="kmeans"),
    dict(algorithm="blpkm", constraints=os.path.join(HERE_DATA, "iris_dils_cs10.txt")),
    dict(algorithm="sizeflow", balanced=True),
    dict(algorithm="exact", constraints=os.path.join(HERE_DATA, "iris_dils_cs10.txt"), balanced=True, gap=0.01),
])
def test_labels_equal_the_cli(iris, tmp_path, args):
    X, _ = iris
    out = tmp_path / "labels.txt"
    cmd = [_cli(), "cluster", os.path.join(ROOT, "data", "iris.csv"), "-k", "3", "-a", args["algorithm"],
           "--seed", "7", "--labels-out", str(out)]
    ml = cl = None
    if "constraints" in args:
        cmd += ["-c", args["constraints"]]
        ml, cl = ckm.read_constraints(args["constraints"], n=150)
    if args.get("balanced"):
        cmd += ["--balanced"]
    if "gap" in args:  # exact: the labels, not the proof to 1e-4 (18 s), are compared here
        cmd += ["--gap", str(args["gap"])]
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    cli_labels = np.loadtxt(out, dtype=np.int64)
    km = ConstrainedKMeans(3, algorithm=args["algorithm"], must_link=ml, cannot_link=cl,
                           size_min=50 if args.get("balanced") else None, size_max=50 if args.get("balanced") else None,
                           random_state=7, **({"gap": args["gap"]} if "gap" in args else {})).fit(X)
    np.testing.assert_array_equal(km.labels_, cli_labels)
    assert honours(km.labels_, ml, cl, 50 if args.get("balanced") else None, 50 if args.get("balanced") else None)


def test_init_centers_equal_the_cli(iris, tmp_path):
    """An array init runs one restart from exactly those centers, as ckm cluster --init-centers does; both Lloyd
    variants give the same labels."""
    X, _ = iris
    centers = X[[0, 60, 120]] + 0.25
    path = tmp_path / "init.csv"
    np.savetxt(path, centers, delimiter=",")
    out = tmp_path / "labels.txt"
    subprocess.run([_cli(), "cluster", os.path.join(ROOT, "data", "iris.csv"), "-k", "3", "--init-centers", str(path),
                    "--labels-out", str(out)], check=True, capture_output=True)
    km = ConstrainedKMeans(3, init=centers, n_init=10).fit(X)
    np.testing.assert_array_equal(km.labels_, np.loadtxt(out, dtype=np.int64))
    assert km.stats_["restarts"] == 1
    problem = ckm._core.Problem(X, 3)
    try:
        a = ckm._core.solve(problem, init_centers=np.ascontiguousarray(centers), lloyd="plain")
        b = ckm._core.solve(problem, init_centers=np.ascontiguousarray(centers), lloyd="bounds")
    finally:
        problem.close()
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.labels, km.labels_)
    bounded = ConstrainedKMeans(3, init=centers, lloyd="bounds").fit(X)
    np.testing.assert_array_equal(bounded.labels_, km.labels_)
    single = ConstrainedKMeans(3, init=centers, precision="single").fit(X)
    assert abs(single.inertia_ - km.inertia_) <= 1e-6 * km.inertia_


@pytest.mark.parametrize("algorithm", ["auto", "blpkm", "cop", "bckm", "admm", "ipc", "exact"])
def test_every_constraint_honoured(iris, algorithm):
    X, y = iris
    ml, cl = ckm.generate_constraints(y, 60, ml_fraction=0.5, random_state=3)
    sizes = {} if algorithm == "cop" else dict(size_min=40, size_max=60)
    km = ConstrainedKMeans(3, algorithm=algorithm, must_link=ml, cannot_link=cl, random_state=0, n_init=3,
                           **sizes).fit(X)
    assert honours(km.labels_, ml, cl, sizes.get("size_min"), sizes.get("size_max"))
    assert km.inertia_ == pytest.approx(wsse(X, km.labels_), rel=1e-9)
    rep = ckm.check(X, km.labels_, ml, cl, sizes.get("size_min"), sizes.get("size_max"))
    assert rep.ok and rep.sse == pytest.approx(km.inertia_, rel=1e-12)
    if algorithm in ("ipc", "exact"):
        assert km.lower_bound_ is not None and km.lower_bound_ <= km.inertia_ * (1 + 1e-9)
        assert km.gap_ is not None
    if algorithm == "auto":
        assert km.algorithm_ == "blpkm"


def test_auto_choices(iris):
    X, _ = iris
    assert ConstrainedKMeans(3, size_min=50, size_max=50, random_state=0).fit(X).algorithm_ == "sizeflow"
    assert ConstrainedKMeans(3, must_link=[[0, 1]], random_state=0).fit(X).algorithm_ == "blpkm"


def test_per_cluster_bounds_and_predict(iris):
    X, _ = iris
    km = ConstrainedKMeans(3, size_min=[20, 50, 60], size_max=[30, 55, 70], random_state=0).fit(X)
    sizes = np.bincount(km.labels_, minlength=3)
    assert np.all(sizes >= [20, 50, 60]) and np.all(sizes <= [30, 55, 70])
    lab = km.predict(X, size_min=50, size_max=50)
    assert np.bincount(lab).tolist() == [50, 50, 50]
    with pytest.raises(InfeasibleError):
        km.predict(X, size_min=60)


def test_infeasible_raises_with_reason(iris):
    X, _ = iris
    with pytest.raises(InfeasibleError) as exc:
        ConstrainedKMeans(3, size_min=60).fit(X)
    assert "180" in str(exc.value) or "minimum" in str(exc.value)
    assert isinstance(exc.value, ValueError)
    # a cannot-link clique of 4 points with k = 3
    clique = list(itertools.combinations([0, 1, 2, 3], 2))
    with pytest.raises(InfeasibleError) as exc:
        ConstrainedKMeans(3, algorithm="blpkm", cannot_link=clique).fit(X)
    assert "clique" in str(exc.value)
    # must-link chain through a cannot-link
    with pytest.raises(InfeasibleError) as exc:
        ConstrainedKMeans(3, must_link=[[0, 1], [1, 2]], cannot_link=[[0, 2]]).fit(X)
    assert "cannot-link" in str(exc.value)


@pytest.mark.parametrize("kwargs, X_fix, match", [
    (dict(), "nan", "NaN"),
    (dict(), "inf", "infinity"),
    (dict(must_link=[[0, 150]]), None, "out of range"),
    (dict(must_link=[[0, -1]]), None, "negative"),
    (dict(must_link=[[3, 3]]), None, "itself"),
    (dict(must_link=[[0, 1]], cannot_link=[[1, 0]]), None, "both must-link and cannot-link"),
    (dict(must_link=[0, 1, 2]), None, r"\(m, 2\)"),
    (dict(size_min=[1, 2]), None, "one per cluster"),
    (dict(size_min=10, size_max=5), None, "minimum"),
    (dict(algorithm="nope"), None, "algorithm"),
    (dict(n_clusters=0), None, "n_clusters"),
    (dict(n_clusters=151), None, "n_samples=150 should be >= n_clusters=151"),
    (dict(init="kmeans"), None, "init="),
    (dict(lloyd="elkan"), None, "lloyd="),
    (dict(precision="half"), None, "precision="),
    (dict(init=np.zeros((2, 4))), None, r"shape \(2, 4\), expected"),
    (dict(init=np.full((3, 4), np.nan)), None, "NaN"),
])
def test_invalid_input_raises_value_error(iris, kwargs, X_fix, match):
    X, _ = iris
    X = X.copy()
    if X_fix == "nan":
        X[3, 1] = np.nan
    elif X_fix == "inf":
        X[3, 1] = np.inf
    params = dict(n_clusters=3)
    params.update(kwargs)
    with pytest.raises(ValueError, match=match):
        ConstrainedKMeans(**params).fit(X)


def test_bad_weights(iris):
    X, _ = iris
    for w in (np.zeros(150), -np.ones(150), np.full(150, np.nan)):
        with pytest.raises(ValueError):
            ConstrainedKMeans(3).fit(X, sample_weight=w)


@pytest.mark.parametrize("algorithm", ["exact", "blpkm", "kmeans", "sizeflow"])
def test_integer_weights_equal_repeated_rows(algorithm):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(9, 2)) + np.repeat(np.array([[0, 0], [4, 0], [0, 4]]), 3, axis=0)
    w = rng.integers(1, 4, size=9)
    Xr = np.repeat(X, w, axis=0)
    # brute force over all labellings of the weighted problem (every cluster non-empty)
    best = min(wsse(X, np.array(lab), w) for lab in itertools.product(range(3), repeat=9) if len(set(lab)) == 3)
    kw = dict(size_min=1) if algorithm == "sizeflow" else {}
    a = ConstrainedKMeans(3, algorithm=algorithm, random_state=0, n_init=10, **kw).fit(X, sample_weight=w)
    assert a.inertia_ == pytest.approx(wsse(X, a.labels_, w), rel=1e-9)
    assert a.inertia_ >= best * (1 - 1e-9)
    if algorithm == "exact":
        assert a.status_ == "optimal" and a.inertia_ == pytest.approx(best, rel=1e-9)
        # the repeated rows, copies joined by must-links: the same optimum
        first = np.concatenate([[0], np.cumsum(w)[:-1]])
        ml = [[first[i], first[i] + c] for i in range(9) for c in range(1, w[i])]
        b = ConstrainedKMeans(3, algorithm="exact", must_link=ml, random_state=0).fit(Xr)
        assert b.inertia_ == pytest.approx(best, rel=1e-9)
    # weighted centers
    for j in range(3):
        m = a.labels_ == j
        np.testing.assert_allclose(a.cluster_centers_[j], (w[m, None] * X[m]).sum(0) / w[m].sum(), rtol=1e-9)


def test_two_threads_give_the_sequential_results(iris):
    X, y = iris
    ml, cl = ckm.generate_constraints(y, 40, random_state=1)
    jobs = [dict(algorithm="blpkm", must_link=ml, cannot_link=cl, size_min=45, size_max=55),
            dict(algorithm="exact", must_link=ml, cannot_link=cl, gap=0.01)]  # labels compared, not a proof
    seq = [ConstrainedKMeans(3, random_state=2, n_jobs=1, **j).fit(X).labels_ for j in jobs]
    got = [None, None]

    def run(q):
        got[q] = ConstrainedKMeans(3, random_state=2, n_jobs=1, **jobs[q]).fit(X).labels_

    threads = [threading.Thread(target=run, args=(q,)) for q in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for q in range(2):
        np.testing.assert_array_equal(got[q], seq[q])


def test_dtypes_lists_and_no_copy(iris):
    X, _ = iris
    a = ConstrainedKMeans(3, random_state=4).fit(X).labels_
    np.testing.assert_array_equal(ConstrainedKMeans(3, random_state=4).fit(X.tolist()).labels_, a)
    b = ConstrainedKMeans(3, random_state=4).fit(X.astype(np.float32)).labels_
    assert b.shape == a.shape
    Xr = X.copy()
    Xr.setflags(write=False)
    np.testing.assert_array_equal(ConstrainedKMeans(3, random_state=4).fit(Xr).labels_, a)


def test_verbose_goes_to_logging(iris, caplog):
    X, _ = iris
    with caplog.at_level("INFO", logger="ckm"):
        ConstrainedKMeans(3, algorithm="blpkm", must_link=[[0, 1]], verbose=1, random_state=0).fit(X)
    assert any("blpkm" in r.getMessage() for r in caplog.records)


def test_helpers(iris, tmp_path):
    X, y = iris
    ml, cl = ckm.generate_constraints(y, 50, ml_fraction=0.4, random_state=1)
    assert len(ml) == 20 and len(cl) == 30
    assert np.all(y[ml[:, 0]] == y[ml[:, 1]]) and np.all(y[cl[:, 0]] != y[cl[:, 1]])
    p = tmp_path / "c.txt"
    p.write_text("".join("ML %d %d\n" % tuple(r) for r in ml) + "".join("CL %d %d\n" % tuple(r) for r in cl))
    ml2, cl2 = ckm.read_constraints(str(p), n=150)
    np.testing.assert_array_equal(ml2, ml)
    np.testing.assert_array_equal(cl2, cl)
    bad = tmp_path / "bad.txt"
    bad.write_text("ML 0 1\nCL 0 x\n")
    with pytest.raises(ValueError, match="bad.txt:2"):
        ckm.read_constraints(str(bad))
    rep = ckm.check(X, y, ml, cl)
    assert rep.ok and rep.sse == pytest.approx(wsse(X, y), rel=1e-12)
    wrong = y.copy()
    wrong[ml[0, 0]] = (wrong[ml[0, 1]] + 1) % 3
    rep = ckm.check(X, wrong, ml, cl, size_min=50, size_max=50)
    assert not rep.ok and rep.must_link_violated >= 1 and rep.size_violated == 2
    assert ("must-link", int(ml[0, 0]), int(ml[0, 1])) in [tuple(v) for v in rep.violations] or \
        ("must-link", int(ml[0, 1]), int(ml[0, 0])) in [tuple(v) for v in rep.violations]


def test_exact_node_and_memory_limits():
    """node_limit and memory_limit_mb reach exact: one node at gap 0 leaves a certified gap; a budget below the
    root's need is refused before any work; a budget far above it changes nothing."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 2)) + np.repeat(np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]]), [14, 13, 13], axis=0)
    cl = [[0, 14], [14, 27], [1, 2]]
    opt = ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, random_state=0).fit(X)
    assert opt.status_ == "optimal"
    with pytest.warns(ConvergenceWarning, match="stopped early [(]iteration limit[)]"):
        one = ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, gap=0.0, node_limit=1, random_state=0).fit(X)
    assert one.status_ == "iteration limit" and one.stats_["nodes"] == 1 and "node limit" in one.message_
    assert one.inertia_ == pytest.approx(wsse(X, one.labels_), rel=1e-12) and honours(one.labels_, cannot_link=cl)
    assert one.lower_bound_ <= opt.inertia_ * (1 + 1e-9) and one.inertia_ >= opt.inertia_ * (1 - 1e-4)
    assert one.gap_ > 0 and one.gap_ == pytest.approx((one.inertia_ - one.lower_bound_) / one.inertia_, rel=1e-6)
    with pytest.raises(MemoryError, match="memory budget of 0.001 MB is below the root's need"):
        ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, memory_limit_mb=1e-3).fit(X)
    big = ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, memory_limit_mb=1e4, random_state=0).fit(X)
    assert big.status_ == opt.status_ and big.stats_["nodes"] == opt.stats_["nodes"]
    np.testing.assert_array_equal(big.labels_, opt.labels_)
    for bad in (dict(node_limit=0), dict(node_limit=1.5), dict(memory_limit_mb=0), dict(memory_limit_mb=float("nan")),
                dict(memory_limit_mb=float("inf")), dict(memory_limit_mb="1")):
        with pytest.raises(ValueError, match=next(iter(bad))):
            ConstrainedKMeans(3, algorithm="exact", **bad).fit(X)


def test_exact_async_nodes():
    """async_nodes reaches exact: the same proven optimum as the synchronous batches, the message names the pool."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(30, 2)) + np.repeat(np.array([[0.0, 0.0], [2.5, 0.0], [0.0, 2.5]]), 10, axis=0)
    cl = [[0, 10], [10, 20], [3, 4]]
    sync = ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, n_jobs=2, random_state=0).fit(X)
    pool = ConstrainedKMeans(3, algorithm="exact", cannot_link=cl, n_jobs=2, async_nodes=True, random_state=0).fit(X)
    assert sync.status_ == pool.status_ == "optimal" and "asynchronous node pool" in pool.message_
    assert pool.inertia_ == pytest.approx(sync.inertia_, rel=1e-4) and honours(pool.labels_, cannot_link=cl)
    assert pool.lower_bound_ <= sync.inertia_ * (1 + 1e-9)
    with pytest.raises(ValueError, match="async_nodes"):
        ConstrainedKMeans(3, algorithm="exact", async_nodes=1).fit(X)
