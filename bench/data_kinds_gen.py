#!/usr/bin/env python3
"""data_kinds_gen.py WORK -- the data sets of data_kinds_run.sh (its header describes them),
written to WORK/<name>.npy where missing. One stream, default_rng(33), draws every set in
this order whether or not its file exists, so each set's rows never depend on which files a
run already had; sep128 and sep1000 have their own streams. Also used by route_run.sh."""
import os, sys, numpy as np
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA
w, n, d = sys.argv[1], 1_000_000, 16
def save(name, X):
    if not os.path.exists(f"{w}/{name}.npy"):
        np.save(f"{w}/{name}.npy", np.ascontiguousarray(X, dtype=np.float64))
rng = np.random.default_rng(33)
C = rng.uniform(-10, 10, (100, d)); y = rng.integers(0, 100, n)
save("sep", C[y] + rng.normal(0, 1, (n, d)))
C = rng.normal(0, 1, (100, d)); y = rng.integers(0, 100, n)
save("overlap", C[y] + rng.normal(0, 1, (n, d)))
C = rng.normal(0, 1, (1000, d)); y = rng.integers(0, 1000, n)
save("overlap1000", C[y] + rng.normal(0, 1, (n, d)))
C = rng.normal(0, 1, (1000, 128)); y = rng.integers(0, 1000, 100_000)
save("overlap128", C[y] + rng.normal(0, 1, (100_000, 128)))
if not os.path.exists(f"{w}/sep128.npy"):  # its own stream: the other sets keep their rows
    r2 = np.random.default_rng(128)
    C = r2.uniform(-10, 10, (1000, 128)); y = r2.integers(0, 1000, 100_000)
    save("sep128", C[y] + r2.normal(0, 1, (100_000, 128)))
if not os.path.exists(f"{w}/sep1000.npy"):  # its own stream, as sep128
    r3 = np.random.default_rng(1000)
    C = r3.uniform(-10, 10, (1000, d))
    save("sep1000", C[r3.integers(0, 1000, n)] + r3.standard_normal((n, d)))
Z = PCA(n_components=d, random_state=0).fit_transform(load_digits().data)
idx = np.arange(n) % len(Z)
save("digits", Z[idx] + rng.normal(0, 0.1, (n, d)) * Z.std(0))
