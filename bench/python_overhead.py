"""Python overhead of ckm.ConstrainedKMeans against the ckm tool, on the same work.

Data: n x d Gaussian blobs (numpy seed 0), k clusters, unit noise; KIND "sep" (default): centers
uniform in [-10, 10]^d (well separated), "overlap": centers N(0, 1)^d (issue 33's overlapping recipe,
where Lloyd takes many more iterations). kmeans, seed 1, n_init 1 (k-means++ seeding, Lloyd to tol 1e-4). Three timings of the same fit:
  cli_solve_s   the library's total_s as the ckm tool reports it (JSON report; reading the CSV excluded)
  py_fit_s      wall time of ConstrainedKMeans(...).fit(X) in Python (validation, the problem's copy
                of X, the solve, the result's conversion)
  py_lib_s      the library's total_s inside that fit (timings_["total_s"])
overhead = py_fit_s - py_lib_s (what the binding adds, same process), and py_fit_s / cli_solve_s - 1
(against the CLI's solve; includes run-to-run noise). Labels of both must be equal.
usage: /usr/bin/python3 bench/python_overhead.py CKM_TOOL OUT_PREFIX [n d k reps [KIND]]
Writes OUT_PREFIX.csv and OUT_PREFIX.md.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import ckm

cli = sys.argv[1]
prefix = sys.argv[2]
n, d, k, reps = (int(a) for a in (sys.argv[3:7] if len(sys.argv) > 6 else (1000000, 16, 100, 3)))
kind = sys.argv[7] if len(sys.argv) > 7 else "sep"
if kind not in ("sep", "overlap"):
    sys.exit("python_overhead.py: KIND must be sep or overlap")
rng = np.random.default_rng(0)
centers = rng.uniform(-10, 10, size=(k, d)) if kind == "sep" else rng.normal(size=(k, d))
X = centers[rng.integers(0, k, size=n)] + rng.normal(size=(n, d))
rows = []
with tempfile.TemporaryDirectory() as tmp:
    csv = os.path.join(tmp, "X.csv")
    np.savetxt(csv, X, delimiter=",", fmt="%.17g")
    for rep in range(reps):
        report, labels_path = os.path.join(tmp, "r.json"), os.path.join(tmp, "l.txt")
        subprocess.run([cli, "cluster", csv, "-k", str(k), "--seed", "1", "--n-init", "1", "--report", report,
                        "--labels-out", labels_path], check=True, capture_output=True)
        with open(report) as f:
            rj = json.load(f)
        cli_s = rj["seconds"]
        cli_labels = np.loadtxt(labels_path, dtype=np.int64)
        t0 = time.perf_counter()
        km = ckm.ConstrainedKMeans(k, n_init=1, random_state=1).fit(X)
        py_s = time.perf_counter() - t0
        lib_s = km.timings_["total_s"]
        rows.append((rep, cli_s, py_s, lib_s, py_s - lib_s, (py_s - lib_s) / lib_s, py_s / cli_s - 1.0,
                     bool(np.array_equal(km.labels_, cli_labels)), km.n_iter_))
with open(prefix + ".csv", "w") as f:
    f.write("rep,cli_solve_s,py_fit_s,py_lib_s,overhead_s,overhead_frac,py_vs_cli_frac,same_labels,iterations\n")
    for r in rows:
        f.write("%d,%.4f,%.4f,%.4f,%.4f,%.5f,%.5f,%s,%d\n" % r)
best = min(rows, key=lambda r: r[2])
with open(prefix + ".md", "w") as f:
    f.write("| data | n | d | k | reps | CLI solve (s) | Python fit (s) | library inside fit (s) | binding overhead "
            "| Python fit / CLI solve - 1 | same labels | iterations |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    f.write("| %s | %d | %d | %d | %d | %s | %s | %s | %s | %s | %s | %s |\n" % (
        kind, n, d, k, reps, " / ".join("%.2f" % r[1] for r in rows), " / ".join("%.2f" % r[2] for r in rows),
        " / ".join("%.2f" % r[3] for r in rows), " / ".join("%.3f s (%.2f %%)" % (r[4], 100 * r[5]) for r in rows),
        " / ".join("%+.1f %%" % (100 * r[6]) for r in rows), "yes" if all(r[7] for r in rows) else "NO",
        " / ".join("%d" % r[8] for r in rows)))
print(open(prefix + ".md").read())
