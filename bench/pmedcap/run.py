#!/usr/bin/python3
"""bench/pmedcap/run.py CKM [N_INIT] -- issue 36's literature benchmark: the 20 capacitated
p-median instances of Osman & Christofides (OR-Library pmedcap1, bench/pmedcap/data,
PROVENANCE.md there) clustered by ckm with their capacities.

Per instance: n points in the plane with integer demands, p clusters, every cluster's load at
most the capacity Q. ckm solves MSSC under that capacity (`-a blpkm --max-capacity Q
--demands`, N_INIT k-means++ restarts, default 20, step limit 0 so every assignment step is
proven optimal for its centers). The papers' objective is the capacitated p-median one
(the sum of Euclidean distances to p medians chosen among the points), not MSSC, so both are
reported: the SSE of ckm's partition, and the p-median cost of that same partition (each
cluster's best median: the member with the least sum of distances to the other members;
ckm's loads already keep the capacity) against the listed optimum. The p-median cost of an
MSSC partition is an upper bound on the p-median optimum, so the gap says how close the two
problems' answers are; it does not rank ckm against p-median codes.
Checks every labelling with `ckm check` (capacity included). Writes
bench/results/pmedcap.csv and bench/results/pmedcap.md.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(path):
    with open(path) as f:
        tok = f.read().split()
    inst, opt, n, p, cap = int(tok[0]), float(tok[1]), int(tok[2]), int(tok[3]), float(tok[4])
    rows = np.array(tok[5:5 + 4 * n], dtype=float).reshape(n, 4)
    return inst, opt, p, cap, rows[:, 1:3], rows[:, 3]


def pmedian_cost(X, lab, p):
    """Sum over clusters of the least sum of Euclidean distances to one member."""
    total = 0.0
    for j in range(p):
        M = X[lab == j]
        if len(M) == 0:
            continue
        D = np.sqrt(((M[:, None, :] - M[None, :, :]) ** 2).sum(axis=2))
        total += D.sum(axis=0).min()
    return total


def main():
    ckm = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "ckm")
    n_init = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty=+"], capture_output=True,
                         text=True).stdout.strip()
    out_rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(glob.glob(os.path.join(ROOT, "bench", "pmedcap", "data", "pmedcap1_*.txt"))):
            inst, opt, p, cap, X, q = load(path)
            xf, qf = os.path.join(tmp, "X.csv"), os.path.join(tmp, "q.txt")
            lf, rf = os.path.join(tmp, "lab.txt"), os.path.join(tmp, "rep.json")
            np.savetxt(xf, X, delimiter=",", fmt="%.17g")
            np.savetxt(qf, q, fmt="%.17g")
            for f in (lf, rf):
                if os.path.exists(f):
                    os.remove(f)
            run = subprocess.run([ckm, "cluster", xf, "-k", str(p), "-a", "blpkm", "--init", "kmeans++", "--n-init",
                                  str(n_init), "--seed", "0", "--demands", qf, "--max-capacity", repr(cap),
                                  "--soft-step-limit", "0", "-t", "600", "-o", lf, "-r", rf],
                                 capture_output=True, text=True)
            row = {"instance": inst, "n": len(X), "p": p, "capacity": cap, "total_demand": q.sum(),
                   "exit": run.returncode, "pmedian_opt": opt}
            if run.returncode == 0:
                rep = json.load(open(rf))
                lab = np.loadtxt(lf, dtype=int)
                chk = subprocess.run([ckm, "check", xf, "--labels", lf, "-k", str(p), "--demands", qf,
                                      "--max-capacity", repr(cap)], capture_output=True, text=True)
                pm = pmedian_cost(X, lab, p)
                row.update(sse=rep["sse"], seconds=rep["seconds"], status=rep["status"], check_exit=chk.returncode,
                           max_load=max(rep["loads"]), pmedian_of_partition=pm,
                           gap_pct=100.0 * (pm - opt) / opt)
            out_rows.append(row)
            print(row, flush=True)
    keys = ["instance", "n", "p", "capacity", "total_demand", "exit", "status", "check_exit", "seconds", "sse",
            "max_load", "pmedian_of_partition", "pmedian_opt", "gap_pct"]
    res = os.path.join(ROOT, "bench", "results")
    os.makedirs(res, exist_ok=True)
    with open(os.path.join(res, "pmedcap.csv.tmp"), "w") as f:
        f.write(",".join(keys) + "\n")
        for r in out_rows:
            f.write(",".join(str(r.get(k, "")) for k in keys) + "\n")
    gaps = [r["gap_pct"] for r in out_rows if "gap_pct" in r]
    with open(os.path.join(res, "pmedcap.md.tmp"), "w") as f:
        f.write("Osman & Christofides capacitated p-median instances: ckm blpkm under the capacity, "
                f"{n_init} k-means++ restarts, exact steps ({rev})\n\n")
        f.write("| instance | n | p | capacity | total demand | status | checker | seconds | SSE | max load | "
                "p-median cost of ckm's partition | listed p-median optimum | gap % |\n")
        f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
        for r in out_rows:
            if r["exit"] != 0:
                f.write(f"| {r['instance']} | {r['n']} | {r['p']} | {r['capacity']:g} | {r['total_demand']:g} | "
                        f"exit {r['exit']} | | | | | | {r['pmedian_opt']:g} | |\n")
                continue
            f.write(f"| {r['instance']} | {r['n']} | {r['p']} | {r['capacity']:g} | {r['total_demand']:g} | "
                    f"{r['status']} | {'ok' if r['check_exit'] == 0 else 'FAIL'} | {r['seconds']:.2f} | "
                    f"{r['sse']:.2f} | {r['max_load']:g} | {r['pmedian_of_partition']:.1f} | "
                    f"{r['pmedian_opt']:g} | {r['gap_pct']:.2f} |\n")
        if gaps:
            f.write(f"\nGap of the p-median cost of ckm's MSSC partition to the listed optimum: mean "
                    f"{np.mean(gaps):.2f} %, median {np.median(gaps):.2f} %, max {np.max(gaps):.2f} % over "
                    f"{len(gaps)} instances.\n")
    for name in ("pmedcap.csv", "pmedcap.md"):
        os.replace(os.path.join(res, name + ".tmp"), os.path.join(res, name))


if __name__ == "__main__":
    main()
