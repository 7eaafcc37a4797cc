"""Soft pairs with confidences: brute force on tiny instances, the reported objective recomputed here,
hard-equivalence at a large penalty, errors, refusals, the CLI's labels."""

import itertools
import os
import subprocess

import numpy as np
import pytest

import ckm
from ckm import ConstrainedKMeans
from conftest import ROOT, wsse


def _penalty(labels, sml, scl, P):
    same = lambda a: labels[a[:, 0].astype(int)] == labels[a[:, 1].astype(int)]
    f = 0.0
    if len(sml):
        f += P * float(sml[~same(sml), 2].sum())
    if len(scl):
        f += P * float(scl[same(scl), 2].sum())
    return f


def _tiny(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(0, 10, size=(7, 2))
    rows = []
    for _ in range(6):
        i, j = rng.choice(7, 2, replace=False)
        rows.append((i, j, rng.uniform(0.1, 1.0), rng.random() < 0.5))
    sml = np.array([(i, j, c) for i, j, c, m in rows if m]).reshape(-1, 3)
    scl = np.array([(i, j, c) for i, j, c, m in rows if not m]).reshape(-1, 3)
    return X, sml, scl


@pytest.mark.parametrize("seed", range(6))
def test_tiny_brute_force(seed):
    X, sml, scl = _tiny(seed)
    k, P = 3, 12.0
    best = np.inf
    for lab in itertools.product(range(k), repeat=len(X)):
        lab = np.array(lab)
        if len(np.unique(lab)) < k:
            continue
        best = min(best, wsse(X, lab) + _penalty(lab, sml, scl, P))
    km = ConstrainedKMeans(k, soft_must_link=sml, soft_cannot_link=scl, soft_penalty=P, n_init=20,
                           random_state=seed).fit(X)
    assert km.algorithm_ == "blpkm"
    pen = _penalty(km.labels_, sml, scl, P)
    assert km.inertia_ == pytest.approx(wsse(X, km.labels_), rel=1e-9)
    assert km.penalty_ == pytest.approx(pen, rel=1e-9, abs=1e-12)
    assert km.objective_ == pytest.approx(km.inertia_ + pen, rel=1e-9)
    assert km.objective_ == pytest.approx(best, rel=1e-9)
    assert km.soft_penalty_ == P


def test_confidence_one_large_penalty_is_hard(iris):
    X, _ = iris
    ml, cl = ckm.read_constraints(os.path.join(os.path.dirname(__file__), "data", "iris_dils_cs10.txt"), n=150)
    hard = ConstrainedKMeans(3, must_link=ml, cannot_link=cl, random_state=3).fit(X)
    one = lambda a: np.column_stack([a, np.ones(len(a))])
    soft = ConstrainedKMeans(3, soft_must_link=one(ml), soft_cannot_link=one(cl), soft_penalty=1e6,
                             random_state=3).fit(X)
    assert soft.soft_violated_ == (0, 0) and soft.penalty_ == 0.0
    assert soft.inertia_ == pytest.approx(hard.inertia_, rel=1e-9)


def test_noisy_contradictions_are_not_infeasible():
    X = np.array([[0, 0], [1, 0], [0, 1], [5, 5], [6, 5], [5, 6.0]])
    ml = [[0, 1], [1, 2]]
    cl = [[0, 2]]
    with pytest.raises(ckm.InfeasibleError):
        ConstrainedKMeans(2, must_link=ml, cannot_link=cl).fit(X)
    km = ConstrainedKMeans(2, soft_must_link=[[0, 1, 0.9], [1, 2, 0.9]], soft_cannot_link=[[0, 2, 0.6]]).fit(X)
    assert km.status_ == "feasible" and km.soft_violated_ == (0, 1)


@pytest.mark.parametrize("bad", [[[0, 1, 0.0]], [[0, 1, 1.5]], [[0, 1, np.nan]], [[0, 1, -0.2]], [[0, 1]],
                                 [[0, 9, 0.5]], [[0, 0.5, 0.5]]])
def test_bad_soft_pairs(bad):
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError):
        ConstrainedKMeans(2, soft_cannot_link=bad).fit(X)


def test_algorithms_without_soft_pairs_refuse():
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError, match="does not honour soft"):
        ConstrainedKMeans(2, algorithm="kmeans", soft_must_link=[[0, 5, 0.5]]).fit(X)
    with pytest.raises(ValueError, match="soft_penalty"):
        ConstrainedKMeans(2, soft_must_link=[[0, 5, 0.5]], soft_penalty=-1.0).fit(X)


def test_check_counts_soft_pairs(iris):
    X, y = iris
    rep = ckm.check(X, y, must_link=[[0, 1]], soft_must_link=[[0, 60, 0.7], [100, 120, 1.0]],
                    soft_cannot_link=[[0, 2, 0.9], [60, 61, 0.4], [0, 100, 0.6]])
    # by hand from iris' classes (0-49, 50-99, 100-149): ML 0-60, CL 0-2 and CL 60-61 are violated
    assert rep.ok and rep.soft_must_link_violated == 1 and rep.soft_cannot_link_violated == 2
    assert rep.soft_violated_confidence == pytest.approx(2.0)


def test_read_constraints_soft_and_cli(iris, tmp_path):
    X, _ = iris
    f = tmp_path / "soft.txt"
    f.write_text("ML 0 1\nML 0 60 0.7\nCL 0 50 0.9\n60 61 -1 0.4\n")  # the order Problem adds them in
    with pytest.raises(ValueError, match="soft=True"):
        ckm.read_constraints(str(f), n=150)
    ml, cl, sml, scl = ckm.read_constraints(str(f), n=150, soft=True)
    assert ml.tolist() == [[0, 1]] and len(cl) == 0
    assert sml.tolist() == [[0, 60, 0.7]] and scl.tolist() == [[0, 50, 0.9], [60, 61, 0.4]]
    out = tmp_path / "labels.txt"
    cli = os.environ.get("CKM_CLI")
    if not cli or not os.access(cli, os.X_OK):
        pytest.fail("set CKM_CLI to the ckm tool (the README's test command does) to compare with the CLI")
    subprocess.run([cli, "cluster", os.path.join(ROOT, "data", "iris.csv"), "-k", "3", "-a", "blpkm", "-c", str(f),
                    "--seed", "5", "--labels-out", str(out)], check=True, capture_output=True,
                   env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    km = ConstrainedKMeans(3, must_link=ml, soft_must_link=sml, soft_cannot_link=scl, random_state=5).fit(X)
    np.testing.assert_array_equal(km.labels_, np.loadtxt(out, dtype=np.int64))
