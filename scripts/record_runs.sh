#!/usr/bin/env bash
# record_runs.sh CKM OUTDIR -- run a fixed corpus of CLI cases (every algorithm on iris and
# wine, without and with pairs and size bounds; exact on the README example; assign and
# check) and keep each case's exit code, stdout, stderr, labels, centers and JSON report
# with the wall-clock fields removed, so that two builds can be compared byte for byte:
#   bash scripts/record_runs.sh old/ckm /tmp/before; bash scripts/record_runs.sh build/ckm /tmp/after
#   diff -r /tmp/before /tmp/after
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
run() { # run NAME ARGS...: one case
  local name=$1
  shift
  local d="$out/$name"
  mkdir -p "$d"
  "$ckm" "$@" >"$d/stdout" 2>"$d/stderr" </dev/null
  echo $? >"$d/exit"
  sed -i -E 's/[0-9.]+(e-?[0-9]+)? s\b/T s/g' "$d/stdout" "$d/stderr"
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
echo "$(ls -d "$out"/*/ | wc -l) cases in $out"
