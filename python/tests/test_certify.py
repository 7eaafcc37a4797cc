"""ckm.certify and ConstrainedKMeans(certify=True) (docs/certify.md): the bound against brute force, the
split's identity computed here with numpy, the CLI agreeing with the binding, refusals."""

import itertools
import json
import os
import subprocess

import numpy as np
import pytest

import ckm
from ckm import ConstrainedKMeans
from conftest import honours, wsse


def brute(X, k, must_link=(), cannot_link=(), size_min=1, w=None):
    """The least weighted SSE over every labelling meeting the pairs and sizes (tiny n only)."""
    best = np.inf
    for lab in itertools.product(range(k), repeat=len(X)):
        lab = np.array(lab)
        if np.any(np.bincount(lab, minlength=k) < size_min):
            continue
        if any(lab[i] != lab[j] for i, j in must_link) or any(lab[i] == lab[j] for i, j in cannot_link):
            continue
        best = min(best, wsse(X, lab, w))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_bound_never_exceeds_the_brute_force_optimum(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(9, 2)) + np.repeat(np.eye(3, 2) * 3, 3, axis=0)
    w = rng.uniform(0.5, 2.0, 9) if seed % 2 else None
    ml, cl = [(0, 1)], [(2, 6)]
    opt = brute(X, 3, ml, cl, w=w)
    km = ConstrainedKMeans(3, algorithm="blpkm", must_link=ml, cannot_link=cl, random_state=seed).fit(X, sample_weight=w)
    for subsets in (1, 2, 3):
        c = ckm.certify(X, km.labels_, must_link=ml, cannot_link=cl, sample_weight=w, subsets=subsets,
                        random_state=seed)
        assert c.lower_bound <= opt * (1 + 1e-7) + 1e-9
        assert c.subsets == subsets and c.violations == 0
        assert c.sse == pytest.approx(wsse(X, km.labels_, w), rel=1e-12)
        assert sum(q["lower_bound"] for q in c.subset) == pytest.approx(c.lower_bound, rel=1e-12)
        assert c.gap == pytest.approx((c.sse - c.lower_bound) / c.sse, rel=1e-9, abs=1e-12)


def test_split_identity_and_groups_whole():
    rng = np.random.default_rng(5)
    X = np.concatenate([rng.normal(c, 1.0, size=(100, 3)) for c in (0, 4, 8)])
    ml = [(i, i + 1) for i in range(0, 300, 25)]
    labels = np.repeat(np.arange(3), 100)
    c = ckm.certify(X, labels, must_link=ml, subsets=4, cut_rounds=0)
    sub = c.subset_of
    assert all(sub[i] == sub[j] for i, j in ml)
    # each subset's restricted SSE (clusters with the subset's own means), computed here
    mine = [wsse(X[sub == t], labels[sub == t]) for t in range(4)]
    assert [q["labels_sse"] for q in c.subset] == pytest.approx(mine, rel=1e-9)
    assert c.labels_split_sse == pytest.approx(sum(mine), rel=1e-9)
    assert c.labels_split_sse <= c.sse
    assert 0 < c.lower_bound <= c.labels_split_sse * (1 + 1e-9)
    # the split's floor: scikit-learn's k-means on each subset alone finds labellings at most
    # this cheap (ckm's kmeans found at least as cheap ones, or the restricted labels were)
    from sklearn.cluster import KMeans
    assert c.lower_bound <= c.split_floor_sse * (1 + 1e-9) and c.split_floor_sse <= c.labels_split_sse * (1 + 1e-9)
    theirs = sum(min(mine[t], KMeans(3, n_init=10, random_state=0).fit(X[sub == t]).inertia_) for t in range(4))
    assert c.split_floor_sse <= theirs * (1 + 1e-6)
    assert json.loads(c.json)["split_floor_sse"] == pytest.approx(c.split_floor_sse, rel=1e-12)
    assert [q["points"] for q in c.subset] == list(np.bincount(sub))
    assert json.loads(c.json)["subsets"] == 4
    # one process: one rank, every subset bounded by rank 0 (the MPI fields of the mirror)
    assert c.ranks == 1 and json.loads(c.json)["ranks"] == 1 and all(q["rank"] == 0 for q in c.subset)


def test_forced_labellings_give_the_exact_answer():
    # k = 1: the only labelling; its SSE by hand (numpy) is the bound, gap 0
    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 3))
    w = rng.uniform(0.5, 2.0, 40)
    c = ckm.certify(X, np.zeros(40, dtype=int), sample_weight=w)
    mu = (w[:, None] * X).sum(0) / w.sum()
    assert c.sse == pytest.approx((w * ((X - mu) ** 2).sum(1)).sum(), rel=1e-12)
    assert c.gap == 0 and c.status == "optimal" and c.lower_bound == pytest.approx(c.sse, rel=1e-12)
    # one must-link group per cluster: the partition is forced
    labels = np.arange(40) % 2
    ml = [(i, i + 2) for i in range(38)]
    c = ckm.certify(X, labels, must_link=ml)
    assert c.gap == 0 and c.status == "optimal"


def test_estimator_certify_sets_bound_and_gap_for_any_algorithm():
    rng = np.random.default_rng(2)
    X = np.concatenate([rng.normal(c, 0.8, size=(80, 2)) for c in ((0, 0), (4, 0), (2, 3))])
    km = ConstrainedKMeans(3, algorithm="kmeans", certify=True, random_state=0).fit(X)
    assert km.lower_bound_ is not None and 0 <= km.gap_ < 0.05
    assert km.lower_bound_ <= km.inertia_ * (1 + 1e-9)
    assert km.certificate_["lower_bound"] == pytest.approx(km.lower_bound_)
    plain = ConstrainedKMeans(3, algorithm="kmeans", random_state=0).fit(X)
    assert plain.lower_bound_ is None and plain.certificate_ is None
    with pytest.raises(ValueError, match="soft pairs"):
        ConstrainedKMeans(3, certify=True, soft_must_link=[(0, 1, 0.5)]).fit(X)


def test_refusals_and_infeasible():
    X = np.arange(20, dtype=float).reshape(10, 2)
    lab = np.array([0] * 5 + [1] * 5)
    with pytest.raises(ValueError, match="labels must have"):
        ckm.certify(X, lab[:9])
    with pytest.raises(ValueError, match="subsets"):
        ckm.certify(X, lab, subsets=11)
    c = ckm.certify(X, lab, cannot_link=[(0, 1), (1, 2), (0, 2)])
    assert c.status == "infeasible" and c.lower_bound == np.inf and np.isnan(c.gap)
    c = ckm.certify(X, lab, must_link=[(0, 9)])  # labels violate it: a bound, no gap
    assert c.violations == 1 and np.isnan(c.gap) and c.lower_bound > 0


def test_cli_agrees_with_the_binding(tmp_path):
    cli = os.environ.get("CKM_CLI")
    if not cli:
        pytest.skip("CKM_CLI not set (run through tests/python/run_pytest.sh)")
    rng = np.random.default_rng(9)
    X = np.concatenate([rng.normal(c, 1.0, size=(60, 2)) for c in ((0, 0), (5, 0))])
    labels = (X[:, 0] > 2.5).astype(int)
    np.savetxt(tmp_path / "x.csv", X, delimiter=",")
    np.savetxt(tmp_path / "l.txt", labels, fmt="%d")
    r = subprocess.run([cli, "certify", str(tmp_path / "x.csv"), "--labels", str(tmp_path / "l.txt"), "--subsets",
                        "2", "-r", str(tmp_path / "c.json"), "--subsets-out", str(tmp_path / "s.txt"), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rep = json.loads((tmp_path / "c.json").read_text())
    c = ckm.certify(X, labels, subsets=2)
    assert rep["lower_bound"] == pytest.approx(c.lower_bound, rel=1e-12)
    assert np.array_equal(np.loadtxt(tmp_path / "s.txt", dtype=int), c.subset_of)
    assert honours(labels)
