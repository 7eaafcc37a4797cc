#!/usr/bin/python3
"""bench/compose.py DIR N D K NCL NML NSOFT SEED [SD] -- issue 51's composition data: N points in D
dims (K Gaussian blobs, centers uniform in [-10, 10]^D, sd SD, default 2 as bench/pccc's scale
runs; 5 makes them overlap heavily), their
truth, log-normal demands (lognormal(0, 1)), NCL cannot-links across true clusters and NML
must-links within (hard, all true: feasible together), and NSOFT soft pairs (95 % cannot-links
across, 5 % must-links within, each flipped with probability 0.1, confidence U(0.5, 1], as
bench/pccc's scale runs). numpy's default_rng(SEED). Writes DIR/X.npy, truth.txt, q.txt,
hard.txt, soft.txt (each kept when present) and prints the capacity bounds, the mean load -5 %
and +5 %."""
import os
import sys

import numpy as np

out, n, d, k, ncl, nml, nsoft, seed = sys.argv[1], *map(int, sys.argv[2:9])
sd = float(sys.argv[9]) if len(sys.argv) > 9 else 2.0
os.makedirs(out, exist_ok=True)
q_path = os.path.join(out, "q.txt")
if not (os.path.exists(q_path) and os.path.getsize(q_path) > 0):
    rng = np.random.default_rng(seed)
    C = rng.uniform(-10, 10, (k, d))
    y = rng.integers(0, k, n)
    np.save(os.path.join(out, "X.npy"), C[y] + rng.normal(0, sd, (n, d)))
    np.savetxt(os.path.join(out, "truth.txt"), y, fmt="%d")

    def pairs(m, same):
        """m distinct pairs i < j with y_i == y_j (same) or y_i != y_j."""
        got = set()
        while len(got) < m:
            i = rng.integers(0, n, 2 * m)
            j = rng.integers(0, n, 2 * m)
            for a, b in zip(i, j):
                if a != b and (y[a] == y[b]) == same:
                    got.add((min(a, b), max(a, b)))
                    if len(got) == m:
                        break
        return sorted(got)

    ml, cl = pairs(nml, True), pairs(ncl, False)
    with open(os.path.join(out, "hard.txt"), "w") as f:
        f.writelines("ML %d %d\n" % p for p in ml)
        f.writelines("CL %d %d\n" % p for p in cl)
    sml, scl = pairs(nsoft // 20, True), pairs(nsoft - nsoft // 20, False)
    with open(os.path.join(out, "soft.txt"), "w") as f:
        for kind, ps in (("ML", sml), ("CL", scl)):
            for a, b in ps:
                flip = rng.random() < 0.1
                t = ("CL" if kind == "ML" else "ML") if flip else kind
                f.write("%s %d %d %.4f\n" % (t, a, b, rng.uniform(0.5, 1.0)))
    np.savetxt(q_path, rng.lognormal(0.0, 1.0, n), fmt="%.10g")
t = np.loadtxt(q_path).sum() / k
print(repr(0.95 * t), repr(1.05 * t))
