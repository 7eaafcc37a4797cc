#!/usr/bin/python3
"""bench/districting.py X.npy Q.txt N K -- issue 36's synthetic districting instance, shared by
capacity_run.sh and capacity_ipc_run.sh: N points in 2-D (K Gaussian blobs, sd 1.5, centers
uniform in [-10, 10]^2, so neighbouring districts overlap) and log-normal demands
(lognormal(0, 1)), numpy's default_rng(3636); written once (kept when Q.txt exists). Prints
the capacity bounds, the mean load of the demands as written -5 % and +5 %."""
import os
import sys

import numpy as np

X, Q, n, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if not (os.path.exists(Q) and os.path.getsize(Q) > 0):
    rng = np.random.default_rng(3636)
    C = rng.uniform(-10, 10, (k, 2))
    y = rng.integers(0, k, n)
    np.save(X, C[y] + rng.normal(0, 1.5, (n, 2)))
    np.savetxt(Q, rng.lognormal(0.0, 1.0, n), fmt="%.10g")
t = np.loadtxt(Q).sum() / k
print(repr(0.95 * t), repr(1.05 * t))
