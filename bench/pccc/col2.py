#!/usr/bin/python3
"""col2.py -- PCCC's collection COL2 (Baumann & Hochbaum 2024) regenerated offline, and blpkm
on it with hard must-links and cannot-links, against PCCC's published minimum inertia.

usage: /usr/bin/python3 bench/pccc/col2.py CKM [SEEDS=10] [LEVELS=5,10,...,50]
       /usr/bin/python3 bench/pccc/col2.py CKM --ipc SECONDS LEVELS

Data (from the description in phil85/PCCC-Data, prepare_data_sets_of_collection_2.py and
utilities.py, commit 8b7b96ff; rewritten here, no code taken): 15 sets of n = 300 points in 2-D,
sklearn's make_blobs with k in {10, 20, 50} centers, cluster_std s in {1, ..., 5}, center_box
(-20, 20), random_state 24, features standardised (StandardScaler). Named n300-k{k}-s{10 s} as
in PCCC's tables.
Constraints (generate_hard_constraints there): for level p (np.arange(0.05, 0.55, 0.05), the
float values as they come, so 0.15000000000000002 makes ceil(300 p) = 46), n_f = ceil(n p),
m = n_f (n_f - 1) / 2 pairs; with numpy's legacy generator seeded 24, batches of m index pairs
(randint(0, n) twice, i first) are drawn, pairs with i = j dropped, each pair sorted, and the
distinct pairs kept in lexicographic order, until at least m are distinct; the first m of that
order are the pairs, must-link when the two points share a class, cannot-link otherwise.
PCCC's numbers: the PCCC column of Inertia-COL2-{level}.pdf (../shared/data/pccc-results/tables,
read with pdftotext from poppler-utils), one decimal.
Per set and level: ckm's minimum SSE over SEEDS runs (`ckm cluster -a blpkm --init kmeans++ --n-init 1
--seed s`; blpkm's default, random points as centers, is the BLPKM paper's rule and weaker here),
the checker's violated count, the mean seconds per run, and the SSE of the true labels (they
meet every pair: an upper bound on the optimum; PCCC's GT column, a check of the data). Writes bench/results/pccc_col2.csv (every
run) and bench/results/pccc_col2.md. Work files in CKM_BENCH_WORK (default /tmp/ckm-pccc-col2).
With --ipc: one `ckm cluster -a ipc -t SECONDS` per set and level instead, its labelling's SSE and
its certified lower bound (safe SDP bound), written to bench/results/pccc_col2_ipc{level}.csv, and
a verdict per set against PCCC's value p: "<=" when ipc's SSE rounds to <= p, "unattainable" when
p + 0.05 (p rounded up) is below ipc's lower bound (no labelling that honours these pairs reaches
it), else "miss" (p lies within ipc's gap).
"""
import math
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np
from sklearn.datasets import make_blobs
from sklearn.preprocessing import StandardScaler

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("SHARED_DATA", os.path.join(ROOT, "..", "shared", "data"))
WORK = os.environ.get("CKM_BENCH_WORK", "/tmp/ckm-pccc-col2")
N = 300


def data_set(k, s):
    X, y = make_blobs(n_samples=N, n_features=2, centers=k, random_state=24, cluster_std=s,
                      center_box=(-20, 20))
    # classes numbered by first appearance (PCCC's categorical codes), irrelevant to the pairs
    return StandardScaler().fit_transform(X), y


def pairs(y, p):
    n = len(y)
    nf = math.ceil(n * p)
    m = int(nf * (nf - 1) / 2)
    if m == 0:
        return [], []
    rs = np.random.RandomState(24)
    kept = np.empty((0, 2), dtype=np.int64)
    while kept.shape[0] < m:
        a = rs.randint(0, n, size=m)
        b = rs.randint(0, n, size=m)
        off = a != b
        lo, hi = np.minimum(a[off], b[off]), np.maximum(a[off], b[off])
        kept = np.unique(np.concatenate((kept, np.stack((lo, hi), axis=1))), axis=0)
    kept = kept[:m]
    same = y[kept[:, 0]] == y[kept[:, 1]]
    return [tuple(r) for r in kept[same].tolist()], [tuple(r) for r in kept[~same].tolist()]


def pccc_table(level):
    pdf = os.path.join(SHARED, "pccc-results", "tables", "Inertia-COL2-%d.pdf" % level)
    if shutil.which("pdftotext") is None:
        sys.exit("col2.py: needs pdftotext (Debian's poppler-utils: bash scripts/bootstrap.sh bench)")
    txt = subprocess.run(["pdftotext", "-layout", pdf, "-"], check=True, capture_output=True, text=True).stdout
    out = {}
    for line in txt.splitlines():
        f = line.split()
        if f and re.match(r"n300-k\d+-s\d+$", f[0]):
            out[f[0]] = None if f[1] in ("-", "–") else float(f[1].replace(",", ""))
    return out


def files(X, ml, cl, tag):
    xf = os.path.join(WORK, tag + ".npy")
    cf = os.path.join(WORK, tag + ".txt")
    if not os.path.exists(xf):
        np.save(xf, X)
        with open(cf, "w") as f:
            f.writelines("ML %d %d\n" % q for q in ml)
            f.writelines("CL %d %d\n" % q for q in cl)
    return xf, cf


def run(ckm, X, ml, cl, k, seed, tag):
    xf, cf = files(X, ml, cl, tag)
    t0 = time.perf_counter()
    r = subprocess.run([ckm, "cluster", xf, "-k", str(k), "-a", "blpkm", "-c", cf, "--init", "kmeans++", "--n-init", "1", "--seed",
                        str(seed)], capture_output=True, text=True)
    sec = time.perf_counter() - t0
    sse = re.search(r"^\s+SSE\s+([0-9.eE+-]+)", r.stdout, re.M)
    viol = re.search(r"^\s+violated\s+(\d+)", r.stdout, re.M)
    return r.returncode, float(sse.group(1)) if sse else None, int(viol.group(1)) if viol else None, sec


def run_ipc(ckm, X, ml, cl, k, seconds, tag):
    xf, cf = files(X, ml, cl, tag)
    t0 = time.perf_counter()
    r = subprocess.run([ckm, "cluster", xf, "-k", str(k), "-a", "ipc", "-t", str(seconds), "-c", cf],
                       capture_output=True, text=True)
    sec = time.perf_counter() - t0
    sse = re.search(r"^\s+SSE\s+([0-9.eE+-]+)", r.stdout, re.M)
    lb = re.search(r"^\s+lower bound\s+([0-9.eE+-]+)", r.stdout, re.M)
    viol = re.search(r"^\s+violated\s+(\d+)", r.stdout, re.M)
    return (r.returncode, float(sse.group(1)) if sse else None, float(lb.group(1)) if lb else None,
            int(viol.group(1)) if viol else None, sec)


def verdict(sse, lb, p):
    if p is None or sse is None:
        return "-"
    if round(sse, 1) <= p:
        return "<="
    return "unattainable" if lb is not None and p + 0.05 < lb else "miss"


def main_ipc(ckm, seconds, levels):
    res = os.path.join(ROOT, "bench", "results")
    ps = {int(round(p * 100)): p for p in np.arange(0.05, 0.55, 0.05)}
    for level in levels:
        pub = pccc_table(level)
        rows, count = [], {}
        for k in (10, 20, 50):
            for s in (1, 2, 3, 4, 5):
                name = "n300-k%d-s%d" % (k, 10 * s)
                X, y = data_set(k, s)
                ml, cl = pairs(y, ps[level])
                code, sse, lb, viol, sec = run_ipc(ckm, X, ml, cl, k, seconds, "%s-%d" % (name, level))
                v = verdict(sse, lb, pub.get(name)) if code == 0 and viol == 0 else "failed (exit %d)" % code
                count[v] = count.get(v, 0) + 1
                rows.append("%s-%d,%s,%s,%s,%.3f,%s,%s" % (name, level, "" if sse is None else "%.6f" % sse,
                                                         "" if lb is None else "%.6f" % lb,
                                                         "" if viol is None else viol, sec,
                                                         "" if pub.get(name) is None else pub[name], v))
                print("%d%% %s: ipc %s, bound %s, PCCC %s: %s (%.1f s)" % (level, name, sse, lb, pub.get(name), v, sec),
                      flush=True)
        out = os.path.join(res, "pccc_col2_ipc%d.csv" % level)
        with open(out + ".tmp", "w") as f:
            f.write("set,ipc_sse,ipc_lower_bound,violated,seconds,pccc,verdict\n" + "\n".join(rows) + "\n")
        os.replace(out + ".tmp", out)
        print("%d%%: %s" % (level, ", ".join("%s %d" % kv for kv in sorted(count.items()))), flush=True)


def write(res, seeds, rows, table):
    with open(os.path.join(res, "pccc_col2.csv.tmp"), "w") as f:
        f.write("dataset,level,ml,cl,seed,exit,sse,violated,seconds\n")
        f.write("\n".join(rows) + "\n")
    os.replace(os.path.join(res, "pccc_col2.csv.tmp"), os.path.join(res, "pccc_col2.csv"))
    lines = ["COL2 regenerated (bench/pccc/col2.py): blpkm, hard pairs, minimum SSE over %d seeds "
             "(`--init kmeans++ --n-init 1 --seed 0..%d`) against PCCC's published minimum inertia (one decimal)" % (seeds, seeds - 1),
             "", "| level | data set | ML | CL | ckm min | PCCC | ckm <= PCCC (1 decimal) | truth's SSE | s a run | failed runs |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    wins = total = 0
    for level, name, nml, ncl, best, p, gt, sec, bad in table:
        ok = "" if p is None or best is None else ("yes" if round(best, 1) <= p else "**no**")
        if p is not None and best is not None:
            total += 1
            wins += round(best, 1) <= p
        lines.append("| %d%% | %s | %d | %d | %s | %s | %s | %.1f | %.2f | %d |" % (
            level, name, nml, ncl, "-" if best is None else "%.4f" % best, "-" if p is None else "%.1f" % p, ok,
            gt, sec, bad))
    lines += ["", "ckm <= PCCC on %d of %d sets where both have a value." % (wins, total)]
    with open(os.path.join(res, "pccc_col2.md.tmp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(os.path.join(res, "pccc_col2.md.tmp"), os.path.join(res, "pccc_col2.md"))


def main():
    ckm = sys.argv[1]
    if len(sys.argv) > 2 and sys.argv[2] == "--ipc":
        os.makedirs(WORK, exist_ok=True)
        main_ipc(ckm, float(sys.argv[3]), [int(v) for v in sys.argv[4].split(",")])
        return
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    levels = [int(v) for v in sys.argv[3].split(",")] if len(sys.argv) > 3 else list(range(5, 55, 5))
    os.makedirs(WORK, exist_ok=True)
    res = os.path.join(ROOT, "bench", "results")
    ps = {int(round(p * 100)): p for p in np.arange(0.05, 0.55, 0.05)}
    rows, table = [], []
    for level in levels:
        pub = pccc_table(level)
        for k in (10, 20, 50):
            for s in (1, 2, 3, 4, 5):
                name = "n300-k%d-s%d" % (k, 10 * s)
                X, y = data_set(k, s)
                ml, cl = pairs(y, ps[level])
                best, secs, bad = None, [], 0
                for seed in range(seeds):
                    code, sse, viol, sec = run(ckm, X, ml, cl, k, seed, "%s-%d" % (name, level))
                    rows.append("%s,%d,%d,%d,%d,%d,%s,%s,%.3f" % (name, level, len(ml), len(cl), seed, code,
                                                                   "" if sse is None else "%.6f" % sse,
                                                                   "" if viol is None else viol, sec))
                    secs.append(sec)
                    bad += code != 0 or viol != 0
                    if code == 0 and viol == 0 and (best is None or sse < best):
                        best = sse
                p = pub.get(name)
                gt = sum(float(((X[y == c] - X[y == c].mean(0)) ** 2).sum()) for c in range(k))
                table.append((level, name, len(ml), len(cl), best, p, gt, sum(secs) / len(secs), bad))
                print("%d%% %s: %d ML + %d CL, ckm %s, PCCC %s, %.2f s a run%s" % (
                    level, name, len(ml), len(cl), "-" if best is None else "%.1f" % best, p,
                    sum(secs) / len(secs), ", %d runs failed or violated" % bad if bad else ""), flush=True)
        write(res, seeds, rows, table)  # after every level: a long run cut short keeps what it has
    print(open(os.path.join(res, "pccc_col2.md")).read().splitlines()[-1])



if __name__ == "__main__":
    main()
