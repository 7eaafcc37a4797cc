#!/usr/bin/env bash
# record_runs.sh CKM OUTDIR -- run a fixed corpus of CLI cases (every algorithm on iris and
# wine, without and with pairs and size bounds; exact on the README example; assign and
# check; capacities and soft pairs on iris; the large-model routes of the assignment step
# on 20,000 generated points) and keep each case's exit code, stdout, stderr, labels, centers and JSON report
# with the wall-clock fields removed, so that two builds can be compared byte for byte:
#   bash scripts/record_runs.sh old/ckm /tmp/before; bash scripts/record_runs.sh build/ckm /tmp/after
#   diff -r /tmp/before /tmp/after
# CASES=ERE runs only the cases whose name matches (e.g. CASES='caps' for the capacity cases).
# Used for restructurings that must not change behaviour (docs/architecture.md).
set -u
ckm=$(realpath "$1")
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(realpath "$out")
cd "$here"
# wine's truth is its last column; 40 pairs drawn from it (the generator is seeded)
tail -n +2 data/wine.csv | awk -F, '{print $NF}' >"$out/wine_truth.txt"
"$ckm" gen-constraints --labels "$out/wine_truth.txt" --count 40 --ml-fraction 0.5 --seed 3 --out "$out/wine_pairs.txt"
norm() { # the JSON report without wall-clock times; times in messages as "T s"
  /usr/bin/python3 - "$1" <<'PY'
import json, re, sys
p = sys.argv[1]
try:
    r = json.load(open(p))
except Exception:
    sys.exit(0)
for key in ("seconds", "timings"):
    r.pop(key, None)
if isinstance(r.get("message"), str):
    r["message"] = re.sub(r"[0-9.]+(e-?[0-9]+)? s\b", "T s", r["message"])
json.dump(r, open(p, "w"), indent=1, sort_keys=True)
PY
}
run() { # run NAME ARGS...: one case (only those whose name matches $CASES, an ERE, when set)
  local name=$1
  shift
  [[ -n ${CASES:-} && ! $name =~ $CASES ]] && return 0
  local d="$out/$name"
  mkdir -p "$d"
  "$ckm" "$@" >"$d/stdout" 2>"$d/stderr" </dev/null
  echo $? >"$d/exit"
  sed -i -E -e 's/[0-9.]+(e-?[0-9]+)? s\b/T s/g' -e "s#$out/#OUT/#g" "$d/stdout" "$d/stderr"
  [[ -f "$d/report.json" ]] && norm "$d/report.json"
}
iris=(data/iris.csv -k 3)
wine=(data/wine.csv -k 3 --label-column last --standardize)
for a in kmeans blpkm cop sizeflow bckm admm ipc; do
  for set in iris wine; do
    if [[ $set == iris ]]; then base=("${iris[@]}"); pairs=(-c data/iris_constraints.txt); sizes=(--min-size 45 --max-size 55)
    else base=("${wine[@]}"); pairs=(-c "$out/wine_pairs.txt"); sizes=(--min-size 50 --max-size 70); fi
    for v in plain pairs sizes both; do
      extra=()
      [[ $v == pairs || $v == both ]] && extra+=("${pairs[@]}")
      [[ $v == sizes || $v == both ]] && extra+=("${sizes[@]}")
      d="$out/$a-$set-$v"
      run "$a-$set-$v" cluster "${base[@]}" -a "$a" "${extra[@]}" -o "$d/labels.txt" --centers-out "$d/centers.csv" \
        -r "$d/report.json"
    done
  done
done
d="$out/exact-readme"
run exact-readme cluster data/iris.csv -k 3 -a exact --balanced -c tests/data/pcsos_iris_ml_50_cl_50_0.txt \
  -o "$d/labels.txt" -r "$d/report.json"
d="$out/exact-ml100"
run exact-ml100 cluster data/iris.csv -k 3 -a exact -c tests/data/pcsos_iris_ml_100_cl_0_0.txt -o "$d/labels.txt" \
  -r "$d/report.json"
run assign-iris assign data/iris.csv --centers tests/cli/data/iris_centers.csv --min-size 40 --max-size 60 \
  -o "$out/assign-iris/labels.txt"
run check-iris check data/iris.csv --labels data/iris_labels.txt --constraints data/iris_constraints.txt

# Capacities, soft pairs and the assignment step's large-model routes. Every step proven
# (--soft-step-limit 0: the step limit's former name, which every build since 0.4.0 takes), so
# no case depends on the machine's speed.
# iris: demands 1..10 (awk), capacities within +-10 % of the mean load; soft pairs: the
# iris constraints with confidences 0.3..0.9 (and 3 hard ones left hard).
awk 'NR > 1 {print 1 + ((NR - 2) * 7) % 10}' data/iris.csv >"$out/iris_q.txt"
awk '{print $1, $2, $3, (NR > 3 ? sprintf("%.1f", 0.3 + 0.1 * (NR % 7)) : "")}' data/iris_constraints.txt \
  >"$out/iris_soft.txt"
read -r clo chi < <(awk '{s += $1} END {printf "%.4f %.4f\n", 0.9 * s / 3, 1.1 * s / 3}' "$out/iris_q.txt")
icap=(--demands "$out/iris_q.txt" --min-capacity "$clo" --max-capacity "$chi" --soft-step-limit 0)
for a in blpkm bckm admm ipc; do
  for v in caps caps-pairs caps-sizes; do
    extra=("${icap[@]}")
    [[ $v == caps-pairs ]] && extra+=(-c data/iris_constraints.txt)
    [[ $v == caps-sizes ]] && extra+=(--min-size 45 --max-size 55)
    d="$out/$a-iris-$v"
    run "$a-iris-$v" cluster data/iris.csv -k 3 -a "$a" "${extra[@]}" -o "$d/labels.txt" --centers-out "$d/centers.csv" \
      -r "$d/report.json"
  done
done
for v in soft soft-sizes soft-caps soft-k5; do
  extra=(-c "$out/iris_soft.txt" --soft-step-limit 0)
  kk=3
  [[ $v == soft-sizes ]] && extra+=(--min-size 45 --max-size 55)
  [[ $v == soft-caps ]] && extra+=("${icap[@]}")
  [[ $v == soft-k5 ]] && kk=5
  d="$out/blpkm-iris-$v"
  run "blpkm-iris-$v" cluster data/iris.csv -k $kk -a blpkm "${extra[@]}" -o "$d/labels.txt" -r "$d/report.json"
done
run assign-iris-caps-pairs assign data/iris.csv --centers tests/cli/data/iris_centers.csv -c data/iris_constraints.txt \
  "${icap[@]:0:6}" -o "$out/assign-iris-caps-pairs/labels.txt"

# 20,000 points in 2-D, k = 8 (Gaussian blobs, numpy's default_rng(5151)): models past
# 2.5e5 nonzeros, so the restricted model (pairs, sizes) and the price route (capacities);
# steps start from k-means centers (--init-centers), where every capacity step is proven
# within seconds (from random centers the first ones take minutes).
/usr/bin/python3 - "$out" <<'PY'
import sys
import numpy as np
out = sys.argv[1]
rng = np.random.default_rng(5151)
n, k = 20000, 8
C = rng.uniform(-10, 10, (k, 2))
y = rng.integers(0, k, n)
np.save(out + "/big.npy", C[y] + rng.normal(0, 1.5, (n, 2)))
np.savetxt(out + "/big_truth.txt", y, fmt="%d")
q = np.floor(rng.lognormal(0, 1, n) * 10) / 10 + 0.1
np.savetxt(out + "/big_q.txt", q, fmt="%.1f")
t = q.sum() / k
print("%.4f %.4f" % (0.95 * t, 1.05 * t), file=open(out + "/big_caps.txt", "w"))
PY
"$ckm" gen-constraints --labels "$out/big_truth.txt" --count 600 --ml-fraction 0.2 --seed 5 --out "$out/big_pairs.txt"
"$ckm" gen-constraints --labels "$out/big_truth.txt" --count 150 --ml-fraction 0.2 --seed 6 --out "$out/big_pairs150.txt"
"$ckm" cluster "$out/big.npy" -k 8 --seed 1 --centers-out "$out/big_km.csv" -q
read -r blo bhi <"$out/big_caps.txt"
big=("$out/big.npy" -k 8 --init-centers "$out/big_km.csv")
bcap=(--demands "$out/big_q.txt" --min-capacity "$blo" --max-capacity "$bhi" --soft-step-limit 0)
d="$out/blpkm-big-pairs-balanced"
run blpkm-big-pairs-balanced cluster "${big[@]}" -a blpkm -c "$out/big_pairs.txt" --balanced -o "$d/labels.txt" \
  -r "$d/report.json"
d="$out/blpkm-big-pairs"
run blpkm-big-pairs cluster "${big[@]}" -a blpkm -c "$out/big_pairs.txt" -o "$d/labels.txt" -r "$d/report.json"
d="$out/bckm-big-pairs-sizes"
run bckm-big-pairs-sizes cluster "${big[@]}" -a bckm -c "$out/big_pairs.txt" --min-size 2300 --max-size 2700 \
  -o "$d/labels.txt" -r "$d/report.json"
d="$out/sizeflow-big-ml"
grep ML "$out/big_pairs.txt" >"$out/big_ml.txt"
run sizeflow-big-ml cluster "${big[@]}" -a sizeflow -c "$out/big_ml.txt" --balanced -o "$d/labels.txt" -r "$d/report.json"
d="$out/blpkm-big-caps"
run blpkm-big-caps cluster "${big[@]}" -a blpkm "${bcap[@]}" -o "$d/labels.txt" -r "$d/report.json"
d="$out/blpkm-big-caps-pairs"
run blpkm-big-caps-pairs cluster "${big[@]}" -a blpkm -c "$out/big_pairs150.txt" "${bcap[@]}" -o "$d/labels.txt" \
  -r "$d/report.json"
run assign-big-pairs assign "$out/big.npy" --centers "$out/big_km.csv" -c "$out/big_pairs.txt" --balanced \
  -o "$out/assign-big-pairs/labels.txt"
echo "$(ls -d "$out"/*/ | wc -l) cases in $out"
