"""Shared fixtures: the repository's data and an independent constraint checker."""

import os

import numpy as np
import pytest

# the repository root: CKM_SOURCE_ROOT when the tests run from a copy (tests/python/run_pytest.sh)
ROOT = os.environ.get("CKM_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "data")
HERE_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@pytest.fixture(scope="session")
def iris():
    X = np.loadtxt(os.path.join(DATA, "iris.csv"), delimiter=",", skiprows=1)
    y = np.loadtxt(os.path.join(DATA, "iris_labels.txt"), dtype=np.int64)
    return X, y


def honours(labels, must_link=None, cannot_link=None, size_min=None, size_max=None, k=None):
    """The test's own check (numpy only): every pair and size bound holds."""
    labels = np.asarray(labels)
    k = k or int(labels.max()) + 1
    ok = True
    if must_link is not None and len(must_link):
        ml = np.asarray(must_link)
        ok &= bool(np.all(labels[ml[:, 0]] == labels[ml[:, 1]]))
    if cannot_link is not None and len(cannot_link):
        cl = np.asarray(cannot_link)
        ok &= bool(np.all(labels[cl[:, 0]] != labels[cl[:, 1]]))
    sizes = np.bincount(labels, minlength=k)
    lo = np.broadcast_to(1 if size_min is None else size_min, (k,))
    hi = np.broadcast_to(len(labels) if size_max is None else size_max, (k,))
    ok &= bool(np.all(sizes >= lo) and np.all(sizes <= hi))
    return ok


def wsse(X, labels, w=None):
    """Weighted SSE computed here, independently of the library."""
    w = np.ones(len(X)) if w is None else np.asarray(w, dtype=float)
    f = 0.0
    for j in np.unique(labels):
        m = labels == j
        c = (w[m, None] * X[m]).sum(0) / w[m].sum()
        f += float((w[m] * ((X[m] - c) ** 2).sum(1)).sum())
    return f
