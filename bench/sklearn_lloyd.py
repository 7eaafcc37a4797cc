"""Per-iteration time of scikit-learn's Lloyd k-means on the data written by kmeans_speed.

Same protocol as the C side: explicit initial centers, n_init=1, tol=0;
per-iteration = (T(max_iter=1+m) - T(max_iter=1)) / m. Prints one CSV row.
usage: python3 sklearn_lloyd.py N D K M PREFIX
"""
import sys
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans

n, d, k, m = (int(a) for a in sys.argv[1:5])
prefix = sys.argv[5]
X = np.fromfile(prefix + ".X.f64", dtype=np.float64).reshape(n, d)
init = np.fromfile(prefix + ".init.f64", dtype=np.float64).reshape(k, d)


def fit(max_iter):
    km = KMeans(n_clusters=k, init=init, n_init=1, max_iter=max_iter, tol=0.0, algorithm="lloyd")
    t0 = time.perf_counter()
    km.fit(X)
    return time.perf_counter() - t0, km.n_iter_


t1, i1 = fit(1)
tm, im = fit(1 + m)
print(f"scikit-learn-{sklearn.__version__},{n},{d},{k},{im - i1},{(tm - t1) / (im - i1):.6f},{tm:.3f}")
