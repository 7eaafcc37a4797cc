"""prepare.py OUT_DIR [SHARED_DATA] -- the instances of bench/certify/run.sh as CSV files in OUT_DIR.

AVOC's instances (bench/certify/data, provenance in data/PROVENANCE.md): 'n d' header, then rows.
SOS-SDP's (../shared/data/sos-sdp/datasets/*.zip, when SHARED_DATA is given and present): the same format.
Synthetic (seeded, numpy only): Gaussian blobs with their truth, for 10^4 .. 10^6 points, and the truth file
that `ckm gen-constraints` draws must-/cannot-links from.
Prints one line per instance: name n d k csv [truth].
"""

import gzip
import io
import os
import sys
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

# AVOC's real instances with their k (Instances/README.md: chosen by the elbow method), synthetic N_K_sigma
AVOC = [("Abalone", 3), ("Facebook", 3), ("Frogs", 4), ("Electric", 3), ("Pulsar", 2), ("10000_3_05", 3),
        ("10000_3_10", 3)]
# SOS-SDP data sets of 1000+ points, k = their number of classes where the source names one
SOS = [("rice_std", 2), ("wifi_localization", 4), ("ethanol", 4), ("car_prep", 4), ("aspirin", 3),
       ("phishing", 3), ("ItalyPowerDemand", 2), ("Wafer", 2)]


def read_nd(text):
    lines = text.strip().splitlines()
    n, d = (int(v) for v in lines[0].split()[:2])
    X = np.loadtxt(io.StringIO("\n".join(lines[1:])), ndmin=2)
    if X.shape != (n, d):
        raise SystemExit("bad shape %s, header says %d x %d" % (X.shape, n, d))
    return X


def blobs(n, k, d, sd, seed):
    """k centers uniform in [-10, 10]^d, points N(center, sd^2 I), equal shares (AVOC's generator, any n)."""
    rng = np.random.default_rng(seed)
    C = rng.uniform(-10, 10, size=(k, d))
    y = np.arange(n) % k
    rng.shuffle(y)
    return C[y] + rng.normal(0, sd, size=(n, d)), y


def main():
    out = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else ""
    os.makedirs(out, exist_ok=True)
    for name, k in AVOC:
        with gzip.open(os.path.join(HERE, "data", name + ".txt.gz"), "rt") as f:
            X = read_nd(f.read())
        path = os.path.join(out, name + ".csv")
        np.savetxt(path, X, delimiter=",", fmt="%.17g")
        print("avoc:%s %d %d %d %s" % (name, X.shape[0], X.shape[1], k, path))
    sos = os.path.join(shared, "sos-sdp", "datasets") if shared else ""
    for name, k in SOS if sos and os.path.isdir(sos) else []:
        with zipfile.ZipFile(os.path.join(sos, name + ".zip")) as z:
            X = read_nd(z.read(z.namelist()[0]).decode())
        path = os.path.join(out, name + ".csv")
        np.savetxt(path, X, delimiter=",", fmt="%.17g")
        print("sos:%s %d %d %d %s" % (name, X.shape[0], X.shape[1], k, path))
    for n in (10000, 100000):
        X, y = blobs(n, 10, 5, 3.0, seed=n)  # overlapping: sd 3 against centers ~8 apart
        path = os.path.join(out, "blobs_%d.csv" % n)
        np.savetxt(path, X, delimiter=",", fmt="%.10g")
        np.savetxt(os.path.join(out, "blobs_%d_truth.txt" % n), y, fmt="%d")
        print("synthetic:blobs_%d %d %d %d %s %s" % (n, n, 5, 10, path, os.path.join(out, "blobs_%d_truth.txt" % n)))


if __name__ == "__main__":
    main()
