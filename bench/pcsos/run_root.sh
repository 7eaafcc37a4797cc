#!/usr/bin/env bash
# run_root.sh -- root-node bound + IPC-k-means on the PC-SOS-SDP instances (bench/pcsos/pcsos_root.c),
# next to the paper's average root gaps (Tables 2-4). Needs ../shared/data.
# usage: bash bench/pcsos/run_root.sh [DATASETS] [REPLICATES] [TIME_LIMIT_S]
#   defaults: iris,wine,seeds,glass,connectionist  0  60   (the full set: 0,1,2,3,4)
# Writes bench/results/pcsos_root.csv and pcsos_root.md; exit 3 if a safe bound ever exceeds a
# feasible SSE (ckm's own, checked by pcsos_root, or the paper's optimal value f, by summarize_root.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
out=$root/bench/results
mkdir -p "$out"
rc=0
"$root/build/bench/pcsos_root" "$shared" "${1:-iris,wine,seeds,glass,connectionist}" "${2:-0}" "${3:-60}" \
  >"$out/pcsos_root.csv.tmp" || rc=$?
mv "$out/pcsos_root.csv.tmp" "$out/pcsos_root.csv"
# exits 3 if a safe bound is above a published optimal value (the table then names the instance)
python3 "$root/bench/pcsos/summarize_root.py" "$out/pcsos_root.csv" >"$out/pcsos_root.md.tmp" || rc=$?
mv "$out/pcsos_root.md.tmp" "$out/pcsos_root.md"
cat "$out/pcsos_root.md"
exit $rc
