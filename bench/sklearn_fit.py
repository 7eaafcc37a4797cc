"""Full k-means fits of scikit-learn on the data and initial centers written by kmeans_fit.

Same protocol as the C side: the given initial centers, n_init=1, tol=1e-4, max_iter=300
(or MAX_ITER and TOL as given: 20 and 0 for capped steps); algorithm lloyd and elkan (or
those given, comma-separated). Prints one CSV row per algorithm:
  impl,n,d,k,iterations,seconds,sse,same_labels_as_plain (agreement with ckm's plain Lloyd)
usage: python3 sklearn_fit.py N D K PREFIX [MAX_ITER TOL [ALGORITHMS]]
"""
import sys
import time

import numpy as np
import sklearn
from sklearn.cluster import KMeans

n, d, k = (int(a) for a in sys.argv[1:4])
prefix = sys.argv[4]
max_iter = int(sys.argv[5]) if len(sys.argv) > 5 else 300
tol = float(sys.argv[6]) if len(sys.argv) > 6 else 1e-4
algorithms = sys.argv[7].split(",") if len(sys.argv) > 7 else ["lloyd", "elkan"]
X = np.fromfile(prefix + ".X.f64", dtype=np.float64).reshape(n, d)
init = np.fromfile(prefix + ".init.f64", dtype=np.float64).reshape(k, d)
ref = np.fromfile(prefix + ".labels.i32", dtype=np.int32)

for algorithm in algorithms:
    km = KMeans(n_clusters=k, init=init, n_init=1, max_iter=max_iter, tol=tol, algorithm=algorithm)
    t0 = time.perf_counter()
    km.fit(X)
    secs = time.perf_counter() - t0
    agree = float(np.mean(km.labels_ == ref))
    print(f"scikit-learn-{sklearn.__version__}-{algorithm},{n},{d},{k},{km.n_iter_},{secs:.3f},"
          f"{km.inertia_:.10g},{'yes' if agree == 1.0 else f'{agree:.6f}'}")
