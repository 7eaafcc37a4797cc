#!/usr/bin/python3
"""bench/certify/split_floor.py CKM DATA LABELS K T [T ...] -- the gap no bound through ckm's split can beat.

ckm certify bounds OPT(whole) from below by sum_t bound(S_t) with bound(S_t) <= OPT(S_t) for the
subsets S_t of its split (docs/certify.md). So for the split ckm makes at T subsets,

    gap  >=  floor(T)  =  (SSE - sum_t U_t) / SSE,   U_t = the least SSE found for S_t alone,

whatever the subsets' relaxations: U_t >= OPT(S_t) >= bound(S_t). U_t here is the least of the
labels restricted to S_t (their own centroids) and scikit-learn's k-means on S_t (n_init
restarts, plus one start from the restricted labels' centroids). Unconstrained problems only
(k-means on a subset ignores pairs and sizes). Measures, never asserts.

Prints one CSV line per T: T, points per subset, SSE, sum of restricted SSEs, sum of U_t, floor %.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
from sklearn.cluster import KMeans


def load(path):
    if path.endswith(".npy"):
        return np.load(path)
    return np.loadtxt(path, delimiter=",", ndmin=2)


def sse_of(X, lab, k):
    s = 0.0
    for j in range(k):
        P = X[lab == j]
        if len(P):
            s += float(((P - P.mean(axis=0)) ** 2).sum())
    return s


def least_sse(X, lab, k, restarts):
    """min(restricted labels' SSE, k-means from their centroids, k-means with `restarts` starts)"""
    best = sse_of(X, lab, k)
    present = [j for j in range(k) if np.any(lab == j)]
    if len(present) == k and len(X) > k:
        C = np.array([X[lab == j].mean(axis=0) for j in range(k)])
        best = min(best, KMeans(k, init=C, n_init=1, tol=0, max_iter=300).fit(X).inertia_)
    if len(X) > k:
        best = min(best, KMeans(k, n_init=restarts, random_state=0, tol=0).fit(X).inertia_)
    return best


def main():
    ckm, data, labels, k = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    Ts = [int(t) for t in sys.argv[5:]]
    restarts = int(os.environ.get("RESTARTS", "20"))
    X = load(data)
    lab = np.load(labels) if labels.endswith(".npy") else np.loadtxt(labels, dtype=int)
    total = sse_of(X, lab, k)
    print("T,points_per_subset,sse,restricted_sum,least_sum,floor_pct")
    for T in Ts:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "subsets.txt")
            # the split is made before any bound: a tiny limit returns it (same seed, same subsets)
            subprocess.run([ckm, "certify", data, "--labels", labels, "-k", str(k), "--subsets", str(T),
                            "-t", "0.001", "--subsets-out", out, "-q"], check=False)
            sub = np.loadtxt(out, dtype=int)
        rsum = usum = 0.0
        for t in range(T):
            m = sub == t
            rsum += sse_of(X[m], lab[m], k)
            usum += least_sse(X[m], lab[m], k, restarts)
        print("%d,%.0f,%.10g,%.10g,%.10g,%.4f" % (T, len(X) / T, total, rsum, usum, 100 * (total - usum) / total),
              flush=True)


if __name__ == "__main__":
    main()
