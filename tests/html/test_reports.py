#!/usr/bin/env python3
"""test_reports.py CKM SOURCE_DIR OUT_DIR -- every kind of HTML report, loaded in headless Chromium.

Each case runs the real ckm binary (cluster --html, certify --html, ckm report), loads the page
at 1280 x 800 in Chromium (browser.py), fails on any console error or uncaught exception, and
checks from the DOM against independent truth: the JSON report written beside it (each figure's
data-value equals the file's number), the labels file (each drawn point's colour class is its
label; legend and size bars equal the counts), numpy (the labels' SSE), scikit-learn (ARI) and
the pairs file (violated or paid pairs drawn as such). A screenshot of each page is written to
OUT_DIR. Exit 0 when all pass; 77 (skipped) when Chromium is absent outside CI.
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, find_chromium  # noqa: E402

CKM, SRC, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
DATA = os.path.join(SRC, "data")
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args):
    r = subprocess.run([CKM, *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("ckm %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def read_labels(path):
    return np.array([int(x) for x in open(path).read().split()], dtype=np.int64)


def sse_of(X, lab, k, w=None):
    w = np.ones(len(X)) if w is None else w
    total = 0.0
    for j in range(k):
        m = lab == j
        if m.any():
            c = (w[m, None] * X[m]).sum(0) / w[m].sum()
            total += float((w[m] * ((X[m] - c) ** 2).sum(1)).sum())
    return total


def pairs_of(path):
    out = []
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        kind = f[0]
        if kind in ("ML", "CL"):
            i, j = int(f[1]), int(f[2])
            must = kind == "ML"
            soft = len(f) > 3
        else:
            i, j, t = int(f[0]), int(f[1]), int(f[2])
            must, soft = t == 1, len(f) > 3
        out.append((i, j, must, soft))
    return out


def dom_facts(page):
    return page.eval("""(function(){
      var q=function(s){return Array.prototype.slice.call(document.querySelectorAll(s));};
      var num=function(k){var e=document.querySelector('td[data-key="'+k+'"]');
        return e&&e.hasAttribute('data-value')?e.getAttribute('data-value'):null;};
      var note=document.getElementById('scatter-note'), conv=document.getElementById('convergence'),
          svg=document.getElementById('scatter'), box=svg?svg.getBoundingClientRect():null;
      return {ready: document.body.getAttribute('data-ready'),
        points: q('#scatter circle.pt').map(function(c){return [+c.getAttribute('data-i'),
          +(c.getAttribute('data-c')||c.getAttribute('class').split(' ')[1].slice(1)), +c.getAttribute('cx'),
          +c.getAttribute('cy')];}),
        drawn: note?+note.getAttribute('data-drawn'):-1,
        legend: q('#legend li').map(function(l){return +l.getAttribute('data-size');}),
        bars: q('#size-bars rect.bar').map(function(r){return +r.getAttribute('data-value');}),
        loads: q('#load-bars rect.bar').map(function(r){return +r.getAttribute('data-value');}),
        bad_pairs: q('#scatter line.pair.bad').length, pairs: q('#scatter line.pair').length,
        centers: q('#scatter g.center').length,
        sse: num('sse'), lower_bound: num('lower_bound'), gap: num('gap'), check_sse: num('check_sse'),
        ari: num('ari'), nmi: num('nmi'),
        events: conv&&conv.hasAttribute('data-events')?+conv.getAttribute('data-events'):null,
        restart_lines: q('#steps polyline.restart').length, kept_lines: q('#steps polyline.kept').length,
        bound_lines: q('#bounds polyline.lower-bound').length, inc_lines: q('#bounds polyline.incumbent').length,
        subset_bounds: q('#subset-bars rect.subset-bound').map(function(r){return r.getAttribute('data-value');}),
        table_rows: q('#cluster-table tbody tr').length,
        json_sse: window.ckmReport?window.ckmReport.sse:null,
        scroll_width: document.documentElement.scrollWidth, svg_width: box?box.width:0,
        viewbox: svg?svg.getAttribute('viewBox'):null, command: (document.getElementById('command')||{}).textContent};
    })()""")


def verify(name, page, html, X, labels, k, rep=None, pairs=None, truth=None, w=None, max_points=20000):
    errs = page.errors()
    check(not errs, "%s: console errors %s" % (name, errs))
    f = dom_facts(page)
    check(f["ready"] == "1", "%s: the page's script did not finish" % name)
    n = len(labels)
    counts = np.bincount(labels, minlength=k).tolist()
    pts = f["points"]
    check(len(pts) == f["drawn"], "%s: %d points drawn, the note says %d" % (name, len(pts), f["drawn"]))
    if n <= max_points:
        check(len(pts) == n, "%s: %d of %d points drawn" % (name, len(pts), n))
    else:
        check(max_points * 0.9 <= len(pts) <= max_points + k + 2 * 2000,
              "%s: %d points drawn for max %d" % (name, len(pts), max_points))
    idx = [p[0] for p in pts]
    check(len(set(idx)) == len(idx), "%s: a point drawn twice" % name)
    wrong = [p for p in pts if (p[1] != labels[p[0]] if k <= 16 else p[1] != labels[p[0]])]
    wrong = [p for p in pts if (labels[p[0]] % 16 if k > 16 and p[1] < 16 and p[1] != labels[p[0]] else labels[p[0]]) != p[1]]
    check(not wrong, "%s: %d points coloured as another cluster" % (name, len(wrong)))
    vb = [float(v) for v in f["viewbox"].split()]
    outside = [p for p in pts if not (0 <= p[2] <= vb[2] and 0 <= p[3] <= vb[3])]
    check(not outside, "%s: %d points outside the plot" % (name, len(outside)))
    check(f["legend"] == counts, "%s: legend %s, labels count %s" % (name, f["legend"][:10], counts[:10]))
    check(f["bars"] == counts, "%s: size bars %s, labels count %s" % (name, f["bars"][:10], counts[:10]))
    check(f["table_rows"] == k, "%s: %d cluster rows for k = %d" % (name, f["table_rows"], k))
    check(f["centers"] == sum(1 for c in counts if c > 0), "%s: %d centers drawn" % (name, f["centers"]))
    mine = sse_of(X, labels, k, w)
    check(f["check_sse"] is not None and abs(float(f["check_sse"]) - mine) <= 1e-9 * max(mine, 1e-300),
          "%s: recomputed SSE %s, numpy %r" % (name, f["check_sse"], mine))
    check(f["scroll_width"] <= 1280, "%s: the page is %d px wide at 1280" % (name, f["scroll_width"]))
    check(f["svg_width"] >= 600, "%s: the map is only %d px wide" % (name, f["svg_width"]))
    if rep is not None:
        for key in ("sse", "lower_bound", "gap"):
            v = rep.get(key)
            if isinstance(v, float) or isinstance(v, int):
                check(f[key] is not None and float(f[key]) == float(v),
                      "%s: %s shows %s, the JSON report %r" % (name, key, f[key], v))
        check(f["json_sse"] == rep.get("sse"), "%s: embedded JSON sse %r vs %r" % (name, f["json_sse"], rep.get("sse")))
        trace = rep.get("trace") or []
        if trace:
            check(f["events"] == len(trace), "%s: %s events shown, %d in the report" % (name, f["events"], len(trace)))
            step_restarts = {e["restart"] for e in trace if e["kind"] == "step" and e["objective"] is not None}
            check(f["restart_lines"] == len(step_restarts),
                  "%s: %d restart lines, %d restarts with steps" % (name, f["restart_lines"], len(step_restarts)))
            if step_restarts and any(e["kind"] == "restart" for e in trace):
                check(f["kept_lines"] == 1, "%s: %d kept-restart lines" % (name, f["kept_lines"]))
            bounds = [e for e in trace if e["kind"] == "bound" and e["lower_bound"] is not None]
            check(f["bound_lines"] == (1 if bounds else 0), "%s: bound line %d for %d bound events"
                  % (name, f["bound_lines"], len(bounds)))
        subs = rep.get("subset")
        if subs:
            want = [s["lower_bound"] for s in subs if s["lower_bound"] is not None]
            got = [float(v) for v in f["subset_bounds"]]
            check(got == want, "%s: subset bounds %s vs the report's %s" % (name, got[:5], want[:5]))
    if pairs is not None:
        bad = sum(1 for i, j, must, soft in pairs if (labels[i] != labels[j]) == must)
        check(f["bad_pairs"] == min(bad, 2000), "%s: %d pairs drawn as violated/paid, %d are" % (name, f["bad_pairs"], bad))
        check(f["pairs"] <= max(len(pairs), 0) and (f["pairs"] > 0) == (len(pairs) > 0),
              "%s: %d pairs drawn of %d" % (name, f["pairs"], len(pairs)))
    if truth is not None:
        from sklearn.metrics import adjusted_rand_score
        ari = adjusted_rand_score(truth, labels)
        check(f["ari"] is not None and abs(float(f["ari"]) - ari) <= 1e-12,
              "%s: ARI %s, scikit-learn %r" % (name, f["ari"], ari))
    check(f["command"] is not None and "ckm " in f["command"], "%s: no command line shown" % name)
    return f


def main():
    binary = find_chromium()
    if not binary:
        print("chromium not found (install Debian's chromium package)", file=sys.stderr)
        return 1 if os.environ.get("CI") else 77
    os.makedirs(OUT, exist_ok=True)
    T = os.path.join(OUT, "work")
    os.makedirs(T, exist_ok=True)
    iris = np.loadtxt(os.path.join(DATA, "iris.csv"), delimiter=",", skiprows=1)
    truth = read_labels(os.path.join(DATA, "iris_labels.txt"))
    cons = os.path.join(DATA, "iris_constraints.txt")
    b = Browser(binary)
    cases = []
    try:
        # 1. blpkm with pairs and size bounds
        p = lambda s: os.path.join(T, s)  # noqa: E731
        run("cluster", os.path.join(DATA, "iris.csv"), "-k", "3", "-a", "blpkm", "-c", cons, "--min-size", "45",
            "--max-size", "55", "-r", p("blpkm.json"), "--html", p("blpkm.html"), "-o", p("blpkm.lab"), "-q")
        cases.append(("blpkm_pairs_sizes", p("blpkm.html"), iris, p("blpkm.lab"), 3, p("blpkm.json"),
                      pairs_of(cons), None, None))
        # 2. kmeans restarts on standardized wine (the steps chart)
        wine = np.loadtxt(os.path.join(DATA, "wine.csv"), delimiter=",", skiprows=1)
        wstd = (wine - wine.mean(0)) / wine.std(0)
        run("cluster", os.path.join(DATA, "wine.csv"), "-k", "3", "--standardize", "--n-init", "4", "-r",
            p("wine.json"), "--html", p("wine.html"), "-o", p("wine.lab"), "-q")
        cases.append(("kmeans_wine", p("wine.html"), wstd, p("wine.lab"), 3, p("wine.json"), None, None, None))
        # 3. ipc: SDP bound and incumbent over time
        run("cluster", os.path.join(DATA, "iris.csv"), "-k", "3", "-a", "ipc", "-c", cons, "--cut-rounds", "3",
            "-r", p("ipc.json"), "--html", p("ipc.html"), "-o", p("ipc.lab"), "-q")
        cases.append(("ipc_bound", p("ipc.html"), iris, p("ipc.lab"), 3, p("ipc.json"), pairs_of(cons), None, None))
        # 3b. exact, stopped after a few nodes: the bound and the incumbent of the search
        run("cluster", os.path.join(DATA, "iris.csv"), "-k", "3", "-a", "exact", "-c", cons, "--min-size", "45",
            "--max-size", "55", "--node-limit", "3", "-r", p("exact.json"), "--html", p("exact.html"), "-o",
            p("exact.lab"), "-q")
        cases.append(("exact_nodes", p("exact.html"), iris, p("exact.lab"), 3, p("exact.json"), pairs_of(cons), None,
                      None))
        # 4. certify the blpkm labels: subsets and the bound over time
        run("certify", os.path.join(DATA, "iris.csv"), "--labels", p("blpkm.lab"), "-c", cons, "--min-size", "45",
            "--max-size", "55", "--subsets", "3", "--cut-rounds", "2", "-r", p("cert.json"), "--html", p("cert.html"),
            "-q")
        cases.append(("certify", p("cert.html"), iris, p("blpkm.lab"), 3, p("cert.json"), pairs_of(cons), None, None))
        # 4b. a JSON report saved alone (-r, no --html) keeps the trace, and ckm report -r draws it later
        run("cluster", os.path.join(DATA, "wine.csv"), "-k", "3", "--standardize", "--n-init", "3", "-r",
            p("wine_only.json"), "-o", p("wine_only.lab"), "-q")
        run("certify", os.path.join(DATA, "iris.csv"), "--labels", p("blpkm.lab"), "-c", cons, "--min-size", "45",
            "--max-size", "55", "--subsets", "3", "--cut-rounds", "2", "-r", p("cert_only.json"), "-q")
        for rep, kind in ((p("wine_only.json"), "step"), (p("cert_only.json"), "bound")):
            trace = json.load(open(rep)).get("trace") or []
            check(any(e["kind"] == kind for e in trace), "%s: no %s events in a report written by -r alone" % (rep, kind))
        run("report", os.path.join(DATA, "wine.csv"), "--labels", p("wine_only.lab"), "-k", "3", "--standardize",
            "-r", p("wine_only.json"), "-o", p("wine_later.html"))
        cases.append(("report_of_json_run", p("wine_later.html"), wstd, p("wine_only.lab"), 3, p("wine_only.json"), None,
                      None, None))
        run("report", os.path.join(DATA, "iris.csv"), "--labels", p("blpkm.lab"), "-c", cons, "--min-size", "45",
            "--max-size", "55", "-r", p("cert_only.json"), "-o", p("cert_later.html"))
        cases.append(("report_of_certify", p("cert_later.html"), iris, p("blpkm.lab"), 3, p("cert_only.json"),
                      pairs_of(cons), None, None))
        # 5. ckm report: any labels, truth, demands and capacities (violated), soft pairs (paid)
        rng = np.random.default_rng(7)
        np.savetxt(p("demands.txt"), rng.integers(1, 5, 150), fmt="%d")
        with open(p("soft.txt"), "w") as f:
            for _ in range(40):
                i, j = rng.choice(150, 2, replace=False)
                f.write("%s %d %d %.2f\n" % ("ML" if rng.random() < 0.5 else "CL", i, j, rng.uniform(0.2, 1)))
        np.savetxt(p("given.lab"), truth, fmt="%d")
        run("report", os.path.join(DATA, "iris.csv"), "--labels", p("given.lab"), "-c", p("soft.txt"), "--demands",
            p("demands.txt"), "--max-capacity", "120", "--truth", os.path.join(DATA, "iris_labels.txt"), "-o",
            p("given.html"))
        cases.append(("report_labels_only", p("given.html"), iris, p("given.lab"), 3, None, pairs_of(p("soft.txt")),
                      truth, None))
        # 6. a subsample: 30000 overlapping points, k = 20
        Y = np.vstack([rng.normal(rng.normal(0, 3, 5), 1.0, (1500, 5)) for _ in range(20)])
        np.savetxt(p("big.csv"), Y, delimiter=",", fmt="%.6f")
        Y = np.loadtxt(p("big.csv"), delimiter=",")
        run("cluster", p("big.csv"), "-k", "20", "--n-init", "2", "-r", p("big.json"), "--html", p("big.html"), "-o",
            p("big.lab"), "-q")
        cases.append(("subsample_k20", p("big.html"), Y, p("big.lab"), 20, p("big.json"), None, None, None))
        for name, html, X, lab, k, rep, pairs, tr, w in cases:
            page = b.open(html)
            labels = read_labels(lab)
            verify(name, page, html, X, labels, k, json.load(open(rep)) if rep else None, pairs, tr, w)
            page.screenshot(os.path.join(OUT, name + ".png"))
            size = os.path.getsize(html)
            print("%-20s %7.1f kB  ok" % (name, size / 1e3))
    finally:
        b.close()
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
