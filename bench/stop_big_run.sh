#!/usr/bin/env bash
# stop_big_run.sh CKM [OLD_CKM] -- Ctrl-C latency of the CLI at 10^6 points, in every phase
# of a run's first seconds: sizeflow on the overlapping 10^6 x 16 set of data_kinds_run.sh
# (generated there when absent), k = 100, every size 10^4, `--n-init 1 --seed 1`; SIGINT at
# T = 0.5 .. 6 s after the start (reading, k-means++ seeding, the first transportation step's
# cost matrix, its sampled start and solve, the later steps). Per T and binary: the seconds
# from the signal to the exit, the exit code (0: labels written, 4: stopped without a
# labelling) and where the labels came from. The binaries take turns at each T, so both see
# the same machine. Writes bench/results/stop_big.csv and .md.
# ROUNDS (default 2) repeats the sweep. K=1000 runs k = 1000 (every size 1000) on
# data_kinds_run.sh's overlap1000.npy instead (run that script with ONLY=overlap1000 first),
# TIMES overrides the signal times, NAME the results' base name (stop_big).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:?usage: stop_big_run.sh CKM [OLD_CKM]}
old=${2:-}
for b in "$ckm" $old; do [[ -x $b ]] || { echo "$b: not an executable" >&2; exit 2; }; done
work=${CKM_BENCH_WORK:-/tmp/ckm-data-kinds}
k=${K:-100}
size=$((1000000 / k))
name=${NAME:-stop_big}
times=${TIMES:-0.5 1.0 1.5 2.0 2.2 2.4 2.6 2.8 3.0 3.2 3.5 4.0 5.0 6.0}
data=$work/overlap.npy
if [[ $k != 100 ]]; then
  data=$work/overlap$k.npy
  [[ -f $data ]] || { echo "$data missing: run ONLY=overlap$k bash bench/data_kinds_run.sh first" >&2; exit 2; }
fi
if [[ ! -f $data ]]; then
  echo "generating $data (data_kinds_run.sh's recipe)" >&2
  mkdir -p "$work"
  /usr/bin/python3 - "$data" <<'EOF'
import sys, numpy as np
n, d = 1_000_000, 16
rng = np.random.default_rng(33)
C = rng.uniform(-10, 10, (100, d)); y = rng.integers(0, 100, n)
rng.normal(0, 1, (n, d))  # the separated set's noise: the same stream as data_kinds_run.sh
C = rng.normal(0, 1, (100, d)); y = rng.integers(0, 100, n)
np.save(sys.argv[1], np.ascontiguousarray(C[y] + rng.normal(0, 1, (n, d))))
EOF
fi
mkdir -p "$root/bench/results"
csv=$root/bench/results/$name.csv
echo "code,round,signal_s,latency_s,exit,labels_from" >"$csv"
bins=("$ckm")
labels=("$(git -C "$root" describe --always --dirty=+)")
if [[ -n $old ]]; then bins+=("$old"); labels+=("${OLD_LABEL:-old}"); fi
for round in $(seq 1 "${ROUNDS:-2}"); do
  for T in $times; do
    for b in "${!bins[@]}"; do
      "${bins[$b]}" cluster "$data" -k "$k" -a sizeflow --min-size "$size" --max-size "$size" --n-init 1 --seed 1 \
        -v -o "$work/stop_big.json" >"$work/stop_big.out" 2>&1 &
      pid=$!
      sleep "$T"
      t0=$(date +%s.%N)
      kill -INT "$pid" 2>/dev/null || true
      rc=0
      wait "$pid" || rc=$?
      t1=$(date +%s.%N)
      from=$(grep -o 'labels from [^(;]*' "$work/stop_big.out" | head -1 | sed 's/labels from //; s/ *$//' || true)
      [[ -z $from && $rc -eq 0 ]] && from="a finished step"
      [[ $rc -ne 0 ]] && from="none"
      echo "${labels[$b]},$round,$T,$(echo "$t1 - $t0" | bc -l | awk '{printf "%.3f", $1}'),$rc,$from" >>"$csv"
    done
  done
done
/usr/bin/python3 - "$csv" "$root/bench/results/$name.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
codes = list(dict.fromkeys(r["code"] for r in rows))
Ts = list(dict.fromkeys(r["signal_s"] for r in rows))
out = ["| SIGINT at (s) | " + " | ".join(f"{c}: latency s (exit, labels from)" for c in codes) + " |",
       "|---|" + "---|" * len(codes)]
for T in Ts:
    cells = []
    for c in codes:
        rs = [r for r in rows if r["code"] == c and r["signal_s"] == T]
        cells.append("; ".join(f"{r['latency_s']} ({r['exit']}, {r['labels_from']})" for r in rs))
    out.append(f"| {T} | " + " | ".join(cells) + " |")
for c in codes:
    lat = [float(r["latency_s"]) for r in rows if r["code"] == c]
    got = sum(r["exit"] == "0" for r in rows if r["code"] == c)
    out.append(f"\n{c}: worst {max(lat):.3f} s, median {sorted(lat)[len(lat) // 2]:.3f} s, labels in {got} of {len(lat)} stops")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
