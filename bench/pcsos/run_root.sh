#!/usr/bin/env bash
# run_root.sh -- root-node bound + IPC-k-means on the PC-SOS-SDP instances (bench/pcsos_root.c),
# next to the paper's average root gaps (Tables 2-4). Needs ../shared/data.
# usage: bash bench/pcsos/run_root.sh [DATASETS] [REPLICATES] [TIME_LIMIT_S]
#   defaults: iris,wine,seeds,glass,connectionist  0  60   (the full set: 0,1,2,3,4)
# Writes bench/results/pcsos_root.csv and pcsos_root.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
out=$root/bench/results
mkdir -p "$out"
rc=0
"$root/build/bench/pcsos_root" "$shared" "${1:-iris,wine,seeds,glass,connectionist}" "${2:-0}" "${3:-60}" \
  >"$out/pcsos_root.csv.tmp" || rc=$?
mv "$out/pcsos_root.csv.tmp" "$out/pcsos_root.csv"
python3 "$root/bench/pcsos/summarize_root.py" "$out/pcsos_root.csv" >"$out/pcsos_root.md.tmp"
mv "$out/pcsos_root.md.tmp" "$out/pcsos_root.md"
cat "$out/pcsos_root.md"
exit $rc
