#!/usr/bin/env bash
# data_kinds_run.sh [CKM [OLD_CKM]] -- sizeflow and kmeans on the kinds of data users have
# (issue 33), this build beside an older one in the same run, so a regression shows:
#   sep      10^6 x 16, 100 blobs, centers uniform in [-10, 10]^16, unit noise (the blobs of
#            bench/sizeflow.c's scale table: well separated)
#   overlap  10^6 x 16, 100 blobs, centers N(0, 1)^16, unit noise (issue 33's recipe)
#   digits   scikit-learn's bundled digits (1797 x 64), PCA to 16 dimensions, tiled to 10^6
#            rows with N(0, 0.1 std) noise per feature (an embedding-like set)
#   overlap1000  10^6 x 16, 1000 blobs, centers N(0, 1)^16 (k = 1000 runs; sizeflow with a
#            time limit of SF1000_LIMIT seconds, default 120, issue 33's target)
#   sep1000  10^6 x 16, 1000 blobs, centers uniform in [-10, 10]^16, unit noise, its own
#            stream default_rng(1000) (bench/README's `sep1000`; k = 1000 runs as overlap1000's)
#   overlap128   10^5 x 128, 1000 blobs, centers N(0, 1)^128 (kmeans, k = 1000)
#   sep128       10^5 x 128, 1000 blobs, centers uniform in [-10, 10]^128 (kmeans, k = 1000)
# Workloads: sizeflow balanced (--n-init 1), kmeans (--n-init 1), both from greedy k-means++;
# and scikit-learn's KMeans (n_init 1, k-means++, lloyd and elkan; tol 1e-4) on the same data.
# CKM: the ckm binary (default build/ckm, a Release build); OLD_CKM: an older build's binary
# (it must read .npy: 53464e8 or later; OLD_LABEL names it in the table). Writes bench/results/data_kinds.csv and .md;
# ONLY="overlap128 ..." runs only those data sets and writes data_kinds_<names>.csv and .md instead;
# ROUNDS=N repeats every run N times (default 1); NAME sets the results' base name (a second
# round in its own files instead of over the first's).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:-$root/build/ckm}
old=${2:-}
work=${CKM_BENCH_WORK:-/tmp/ckm-data-kinds}
mkdir -p "$work" "$root/bench/results"
/usr/bin/python3 "$root/bench/data_kinds_gen.py" "$work"
only=${ONLY:-}
want() { [[ -z $only || " $only " == *" $1 "* ]]; }
out=$root/bench/results/${NAME:-data_kinds${only:+_${only// /_}}}
csv=$out.csv
echo "code,data,algorithm,k,wall_s,user_s,sys_s,max_rss_mb,iterations,sse,status" >"$csv"
bins=("$ckm")
labels=("${NEW_LABEL:-$(git -C "$root" describe --always --dirty=+)}") # NEW_LABEL, OLD_LABEL: swap the order in a second round
if [[ -n $old ]]; then bins+=("$old"); labels+=("${OLD_LABEL:-old}"); fi
run() { # data algorithm k extra...
  local data=$1 alg=$2 k=$3
  shift 3
  for b in "${!bins[@]}"; do
    /usr/bin/time -f "%e %U %S %M" -o "$work/t" "${bins[$b]}" cluster "$work/$data.npy" -k "$k" -a "$alg" \
      --n-init 1 --seed 1 -q -r "$work/r.json" "$@" || true
    read -r e u s m <"$work/t"
    read -r it sse st < <(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
print(r.get('iterations', r.get('stats', {}).get('iterations', '')), r['sse'], r['status'])" "$work/r.json")
    echo "${labels[$b]},$data,$alg,$k,$e,$u,$s,$((m / 1024)),$it,$sse,$st" >>"$csv"
  done
}
sklearn() { # data k
  /usr/bin/python3 - "$work/$1.npy" "$2" "$1" >>"$csv" <<'PY'
import resource, sys, time, numpy as np, sklearn
from sklearn.cluster import KMeans
X, k = np.load(sys.argv[1]), int(sys.argv[2])
for alg in ("lloyd", "elkan"):
    km = KMeans(n_clusters=k, n_init=1, tol=1e-4, algorithm=alg, random_state=1)
    t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
    km.fit(X)
    t, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_SELF)
    print(f"scikit-learn-{sklearn.__version__},{sys.argv[3]},kmeans-{alg},{k},{t:.2f},{r1.ru_utime - r0.ru_utime:.2f},"
          f"{r1.ru_stime - r0.ru_stime:.2f},{r1.ru_maxrss // 1024},{km.n_iter_},{km.inertia_:.10g},converged")
PY
}
for round in $(seq "${ROUNDS:-1}"); do
for data in sep overlap digits; do
  want "$data" || continue
  run "$data" sizeflow 100 --balanced
  run "$data" kmeans 100
  sklearn "$data" 100
done
for data in overlap1000 sep1000; do
  want "$data" || continue
  run "$data" sizeflow 1000 --balanced -t "${SF1000_LIMIT:-120}"
  run "$data" kmeans 1000
done
for data in overlap128 sep128; do
  want "$data" || continue
  run "$data" kmeans 1000
  sklearn "$data" 1000
done
done
/usr/bin/python3 - "$csv" >"$out.md" <<'EOF'
import csv, sys, datetime, os
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"# sizeflow and kmeans by kind of data ({datetime.date.today()}, {os.cpu_count()} cores; bench/data_kinds_run.sh)")
print()
print("| data | algorithm | k | code | wall s | user s | sys s | sys / user | max RSS MB | iterations | SSE | status |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    su = 100 * float(r["sys_s"]) / max(float(r["user_s"]), 1e-9)
    print(f"| {r['data']} | {r['algorithm']} | {r['k']} | {r['code']} | {r['wall_s']} | {r['user_s']} | {r['sys_s']} | "
          f"{su:.0f} % | {r['max_rss_mb']} | {r['iterations']} | {float(r['sse']):.7g} | {r['status']} |")
EOF
cat "$out.md"
