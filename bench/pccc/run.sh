#!/usr/bin/env bash
# run.sh -- PCCC benchmark (Baumann & Hochbaum 2024): COL1 hard sets and PCCC's noisy protocol
# on the 11 datasets of instances.tsv. Needs ../shared/data and a Release build in build/.
# usage: bash bench/pccc/run.sh [COL1_SEEDS=50] [NOISY_SEEDS=3] [MULTS=1]
# The P study (pccc_penalty.csv, read when present) is a separate run:
#   build/bench/pccc SHARED bench/pccc/instances.tsv noisy 1 0.25,0.5,2,4 DATASETS (soft rows kept).
# Writes bench/results/pccc_col1.csv, pccc_noisy.csv and pccc.md (summary next to PCCC's tables),
# pccc_noisy.svg (needs matplotlib: Debian's /usr/bin/python3 with python3-matplotlib).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
col1_seeds=${1:-50}
noisy_seeds=${2:-3}
mults=${3:-1}
out=$root/bench/results
mkdir -p "$out"
hdr="dataset,level,l,seed,method,mult,status,sse,penalty,objective,ari,pairs,soft_violated,seconds,steps_at_limit"
# the two parts run side by side, one core each
{ echo "$hdr"; "$root/build/bench/pccc" "$shared" "$root/bench/pccc/instances.tsv" col1 "$col1_seeds"; } \
  >"$out/pccc_col1.csv.tmp" &
col1=$!
{ echo "$hdr"; "$root/build/bench/pccc" "$shared" "$root/bench/pccc/instances.tsv" noisy "$noisy_seeds" "$mults" \
  2>"${TMPDIR:-/tmp}/pccc_noisy.log"; } >"$out/pccc_noisy.csv.tmp"
wait "$col1"
mv "$out/pccc_col1.csv.tmp" "$out/pccc_col1.csv"
mv "$out/pccc_noisy.csv.tmp" "$out/pccc_noisy.csv"
"${PYTHON:-/usr/bin/python3}" "$root/bench/pccc/summarize.py" "$shared" "$root/bench/pccc/instances.tsv" "$out/pccc_col1.csv" \
  "$out/pccc_noisy.csv" "$out/pccc_penalty.csv" >"$out/pccc.md.tmp"
mv "$out/pccc.md.tmp" "$out/pccc.md"
cat "$out/pccc.md"
