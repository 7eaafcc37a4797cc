#!/usr/bin/env bash
# run.sh -- k-means speed benchmark: ckm vs scikit-learn's Lloyd on the same data and the
# same initial centers. Writes bench/results/kmeans_speed.csv and kmeans_speed.md.
# usage: bench/run.sh [N D K M]   (default 1000000 16 100 20)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-1000000}; d=${2:-16}; k=${3:-100}; m=${4:-20}
out=$root/bench/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! /usr/bin/python3 -c "import sklearn" 2>/dev/null; then
  echo "run.sh: installing python3-sklearn (Debian) for the comparison" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn >/dev/null
fi
csv=$tmp/kmeans_speed.csv
echo "round,impl,n,d,k,iterations,seconds_per_iteration,seconds_total" >"$csv"
# three alternating rounds: the machine is shared, so both sides see the same noise
for round in 1 2 3; do
  "$root/build/bench/kmeans_speed" "$n" "$d" "$k" "$m" "$tmp/blobs" | sed "s/^/$round,/" >>"$csv"
  /usr/bin/python3 "$root/bench/sklearn_lloyd.py" "$n" "$d" "$k" "$m" "$tmp/blobs" | sed "s/^/$round,/" >>"$csv"
done
cp "$csv" "$out/kmeans_speed.csv.tmp" && mv "$out/kmeans_speed.csv.tmp" "$out/kmeans_speed.csv"
{
  echo "# k-means per-iteration time ($(date -u +%Y-%m-%d), $(nproc) cores)"
  echo
  echo "n = $n, d = $d, k = $k; Gaussian blobs; tol = 0, one restart (scikit-learn starts from ckm's centers after one iteration);"
  echo "ckm: median interval between its $m iterations (seeding excluded); scikit-learn:
(T(1 + $m iterations) - T(1 iteration)) / $m. 3 alternating rounds; median reported."
  echo
  echo "| implementation | s / iteration, rounds 1-3 | median |"
  echo "|---|---|---|"
  for impl in $(tail -n +2 "$csv" | cut -d, -f2 | sort -u); do
    vals=$(awk -F, -v i="$impl" '$2 == i {print $7}' "$csv")
    med=$(echo "$vals" | sort -g | sed -n 2p)
    echo "| $impl | $(echo $vals | tr ' ' '/') | $med |"
  done
} >"$out/kmeans_speed.md.tmp" && mv "$out/kmeans_speed.md.tmp" "$out/kmeans_speed.md"
cat "$out/kmeans_speed.md"
