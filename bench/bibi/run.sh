#!/usr/bin/env bash
# run.sh -- the experiments of Bibi, AlQahtani & Ghanem (lp-box ADMM constrained clustering):
# Tables II-VI and Figure 3 shapes (bench/bibi.c), 10 runs per cell, next to the paper's
# published numbers. Reads ../shared/data (sklearn-bundled iris/wine/breast cancer, KEEL
# glass). Writes bench/results/bibi.csv, bibi.md and bibi_fig3.svg. About a minute.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
out=$root/bench/results
mkdir -p "$out"
"$root/build/bench/bibi" "$shared" "${RUNS:-10}" >"$out/bibi.csv.tmp"
mv "$out/bibi.csv.tmp" "$out/bibi.csv"
python3 "$root/bench/bibi/summarize.py" "$out/bibi.csv" "$out/bibi_fig3.svg" >"$out/bibi.md.tmp"
mv "$out/bibi.md.tmp" "$out/bibi.md"
cat "$out/bibi.md"
