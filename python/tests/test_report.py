"""The HTML report from Python (ConstrainedKMeans.report, _repr_html_, ckm.certify(...).report, ckm.report),
progress callbacks and traces, and ckm.pca against scikit-learn's PCA."""

import json
import os
import re

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.metrics import adjusted_rand_score

import ckm
from conftest import wsse


def circles(page):
    return len(re.findall(r'<circle class="pt c\d+"', page))


def value(page, key):
    m = re.search(r'data-key="%s" data-value="([^"]*)"' % key, page)
    return None if m is None else m.group(1)


def embedded(page):
    m = re.search(r'<script type="application/json" id="ckm-json">(.*?)</script>', page, re.S)
    return json.loads(m.group(1).replace("<\\/", "</"))


def test_estimator_report_and_trace(iris, tmp_path):
    X, y = iris
    ml = np.array([[0, 1], [50, 51], [100, 101]])
    cl = np.array([[0, 50], [50, 100]])
    events = []
    km = ckm.ConstrainedKMeans(3, must_link=ml, cannot_link=cl, size_min=45, size_max=55, n_init=4, random_state=1,
                               progress=events.append).fit(X, y)
    # the trace: what the callback saw, one restart event per restart, the best one the fit's objective
    assert len(km.trace_) == len(events) > 4
    restarts = [e for e in km.trace_ if e["kind"] == "restart"]
    assert len(restarts) == 4 and restarts[-1]["done"] == 4
    assert min(e["objective"] for e in restarts) == pytest.approx(km.objective_, rel=1e-9)
    path = tmp_path / "r.html"
    page = km.report(str(path))
    assert path.read_text() == page
    assert page.startswith("<!DOCTYPE html>") and circles(page) == 150
    js = embedded(page)
    assert js["sse"] == pytest.approx(km.inertia_, rel=1e-12) and len(js["trace"]) == len(km.trace_)
    assert float(value(page, "check_sse")) == pytest.approx(wsse(X, km.labels_), rel=1e-9)
    assert float(value(page, "ari")) == pytest.approx(adjusted_rand_score(y, km.labels_), abs=1e-12)
    assert len(re.findall(r'<rect class="bar c\d', page)) == 3
    assert "http://" not in page and "https://" not in page
    # a pickle does not carry the training data; report() then takes X again
    import pickle
    km2 = pickle.loads(pickle.dumps(km))
    assert km2._fit_inputs_["X"] is None
    with pytest.raises(ValueError, match="pass X"):
        km2.report()
    assert circles(km2.report(X=X)) == 150
    summary = km._repr_html_()
    assert "SSE" in summary and "%.6g" % km.inertia_ in summary
    assert "<pre>" in ckm.ConstrainedKMeans(3)._repr_html_()  # unfitted: the estimator itself


def test_progress_exception_stops_the_fit(iris):
    X, _ = iris

    class Stop(Exception):
        pass

    def boom(ev):
        raise Stop("enough at %s" % ev["kind"])

    with pytest.raises(Stop):
        ckm.ConstrainedKMeans(3, n_init=50, random_state=0, progress=boom).fit(X)


def test_certify_report(iris, tmp_path):
    X, y = iris
    labels = ckm.ConstrainedKMeans(3, random_state=0).fit_predict(X)
    seen = []
    c = ckm.certify(X, labels, subsets=3, cut_rounds=1, progress=seen.append, y=y)
    assert json.loads(c.json)["subsets"] == 3 and c["report"] == c.json
    assert len(c.trace) == 4 and c.trace[-1]["done"] == 3 and len(seen) == 4
    assert c.trace[-1]["lower_bound"] == pytest.approx(c.lower_bound, rel=1e-9)
    page = c.report(str(tmp_path / "c.html"))
    bounds = re.findall(r'<rect class="subset-bound" data-t="\d+" data-value="([^"]+)"', page)
    assert [float(b) for b in bounds] == [q["lower_bound"] for q in c.subset]
    assert float(value(page, "lower_bound")) == c.lower_bound
    assert os.path.exists(tmp_path / "c.html")


def test_report_of_any_labels(iris, tmp_path):
    X, y = iris
    page = ckm.report(X, y, must_link=np.array([[0, 60]]), y=y, max_points=60)
    assert 57 <= circles(page) <= 63
    assert value(page, "violations") is None or True
    assert 'class="pair ml bad"' in page  # 0 and 60 are in different classes: violated, drawn red
    assert float(value(page, "ari")) == 1.0
    with pytest.raises(ValueError, match="150 entries"):
        ckm.report(X, y, json='{"n": 150, "k": 3}', y=y[:10])
    with pytest.raises(ValueError, match="another run"):
        ckm.report(X, y, json='{"n": 150, "k": 3, "sse": 1.0}')
    with pytest.raises(ValueError, match="JSON 1:"):
        ckm.report(X, y, json='{"n": 150,')
    with pytest.raises(OSError):
        ckm.report(X, y, path=str(tmp_path / "no" / "such" / "dir.html"))


def test_pca_matches_scikit_learn(iris):
    X, _ = iris
    Y, V, var = ckm.pca(X, 2)
    sk = PCA(2).fit(X)
    n = len(X)
    assert var * n / (n - 1) == pytest.approx(sk.explained_variance_, rel=1e-10)  # ours divides by n
    for c in range(2):
        s = np.sign(V[c] @ sk.components_[c])
        assert V[c] == pytest.approx(s * sk.components_[c], abs=1e-10)
        assert Y[:, c] == pytest.approx(s * sk.transform(X)[:, c], abs=1e-9)
        assert np.abs(V[c]).argmax() == np.argmax(np.abs(V[c])) and V[c][np.abs(V[c]).argmax()] > 0
