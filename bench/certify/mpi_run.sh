#!/usr/bin/env bash
# mpi_run.sh BUILD [OLD_BUILD] -- `ckm certify` over MPI (docs/certify.md "Over MPI", issue 53):
# 10^5 overlapping blobs (k = 10, d = 5, sd 3: bench/certify/prepare.py's generator) with 1000
# must-/cannot-links from the truth (half each), labels from blpkm (one k-means++ restart),
# certified with T = 1000 subsets (about 100 groups each) and root SDPs only (--cut-rounds 0),
# no time limit, so every subset finishes and the bound must be the same for every run:
#   one process (-j 2) of BUILD and of OLD_BUILD (the previous commit, when given);
#   mpirun -np 1, 2 and 4 of BUILD (4 ranks oversubscribe the 2 cores; mpirun binds 1 and 2
#   ranks to a core each, so each rank runs one worker).
# Then, when BIG=1, 10^6 points with 10^4 pairs on one process with -t ${BIG_LIMIT:-1200}.
# Writes bench/results/certify_mpi.csv (each row printed) and certify_mpi.md; run on an idle machine.
set -eu
build=$(cd "$1" && pwd)
old=${2:+$(cd "$2" && pwd)}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/ckm-certify-mpi}
mkdir -p "$work"
py=/usr/bin/python3
csv=$root/bench/results/certify_mpi.csv
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

"$py" - "$work" "$here" <<'EOF'
import os, sys, numpy as np
work, here = sys.argv[1:]
sys.path.insert(0, here)
from prepare import blobs
for n in (100000, 1000000):
    if not os.path.exists(os.path.join(work, "blobs_%d.npy" % n)):
        X, y = blobs(n, 10, 5, 3.0, seed=n)
        np.save(os.path.join(work, "blobs_%d.npy" % n), X)
        np.savetxt(os.path.join(work, "blobs_%d_truth.txt" % n), y, fmt="%d")
EOF

ckm=$build/ckm
labels() { # n pairs: the pairs file and blpkm's labels
  local n=$1 m=$2
  [ -s "$work/p$n.txt" ] || "$ckm" gen-constraints --labels "$work/blobs_${n}_truth.txt" --count "$m" \
    --ml-fraction 0.5 --seed 1 -o "$work/p$n.txt"
  [ -s "$work/l$n.npy" ] || "$ckm" cluster "$work/blobs_$n.npy" -k 10 -a blpkm -c "$work/p$n.txt" --n-init 1 \
    --init kmeans++ --seed 1 -o "$work/l$n.npy" -q
}

echo "run,commit,n,pairs,ranks,workers,subsets,limit_s,lower_bound,gap_pct,subsets_finished,split_s,bound_s,wall_s,peak_mb" > "$csv"
row() { # label commit n pairs ranks limit report timefile (workers: the report's, over all ranks)
  "$py" - "$@" >> "$csv" <<'EOF'
import json, re, sys
label, commit, n, pairs, ranks, limit, rep, tv = sys.argv[1:]
r = json.load(open(rep))
t = open(tv).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t).group(1).split(":")
wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
done = sum(1 for q in r["subset"] if q["status"] not in ("time limit", "interrupted"))
gap = "" if r["gap"] is None else "%.4f" % (100 * r["gap"])
print("%s,%s,%s,%s,%s,%d,%d,%s,%.17g,%s,%d,%.2f,%.2f,%.2f,%.0f" % (label, commit, n, pairs, ranks, r["workers"],
      r["subsets"], limit, r["lower_bound"], gap, done, r["timings"]["split"], r["timings"]["bound"], wall, peak))
EOF
  tail -1 "$csv"
}

n=100000
labels $n 1000
args=("$work/blobs_$n.npy" --labels "$work/l$n.npy" -k 10 -c "$work/p$n.txt" --subsets 1000 --cut-rounds 0 -q)
new=$(git -C "$root" describe --always --dirty=+)
/usr/bin/time -v "$ckm" certify "${args[@]}" -j 2 -r "$work/single.json" 2> "$work/single.tv"
row single "$new" $n 1000 1 none "$work/single.json" "$work/single.tv"
if [ -n "$old" ]; then
  /usr/bin/time -v "$old/ckm" certify "${args[@]}" -j 2 -r "$work/old.json" 2> "$work/old.tv"
  row single-previous "${OLD_COMMIT:-previous}" $n 1000 1 none \
    "$work/old.json" "$work/old.tv"
fi
for np in 1 2 4; do
  /usr/bin/time -v mpirun --oversubscribe -np $np "$ckm" certify "${args[@]}" -r "$work/mpi$np.json" 2> "$work/mpi$np.tv"
  row mpirun "$new" $n 1000 $np none "$work/mpi$np.json" "$work/mpi$np.tv"
done

if [ "${BIG:-0}" = 1 ]; then
  n=1000000
  labels $n 10000
  lim=${BIG_LIMIT:-1200}
  /usr/bin/time -v "$ckm" certify "$work/blobs_$n.npy" --labels "$work/l$n.npy" -k 10 -c "$work/p$n.txt" -t "$lim" -j 2 \
    -r "$work/big.json" -q 2> "$work/big.tv"
  row single "$new" $n 10000 1 "$lim" "$work/big.json" "$work/big.tv"
fi

"$py" - "$csv" "${csv%.csv}.md" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as f:
    f.write("| run | commit | n | pairs | ranks | workers | T | limit s | lower bound | gap % | finished | split s | wall s | peak MB |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        f.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
            r["run"], r["commit"], r["n"], r["pairs"], r["ranks"], r["workers"], r["subsets"], r["limit_s"],
            r["lower_bound"], r["gap_pct"], r["subsets_finished"], r["split_s"], r["wall_s"], r["peak_mb"]))
EOF2
