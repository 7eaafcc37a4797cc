#!/usr/bin/env bash
# run.sh -- DILS_CC benchmark (Baumann 2020): blpkm single start and 10 restarts, cop,
# 30 seeds per instance. Needs ../shared/data (the development workspace's data).
# Writes bench/results/dils.csv and bench/results/dils.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
runs=${1:-30}
out=$root/bench/results
mkdir -p "$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
echo "instance,cs,algorithm,n_init,seed,status,sse,ari,nmi,ami,violations,seconds" >"$tmp"
for spec in "blpkm 1" "blpkm 10" "cop 1"; do
  set -- $spec
  "$root/build/bench/dils" "$shared" "$root/bench/dils/instances.tsv" "$1" "$2" "$runs" >>"$tmp"
done
cp "$tmp" "$out/dils.csv.tmp" && mv "$out/dils.csv.tmp" "$out/dils.csv"
python3 "$root/bench/dils/summarize.py" "$root/bench/dils/instances.tsv" "$out/dils.csv" >"$out/dils.md.tmp"
mv "$out/dils.md.tmp" "$out/dils.md"
cat "$out/dils.md"
