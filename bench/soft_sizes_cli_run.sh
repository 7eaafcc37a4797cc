#!/usr/bin/env bash
# soft_sizes_cli_run.sh NEW_CKM [OLD_CKM] -- soft pairs with size bounds through the CLI, two
# builds at once (one core each): iris (data/iris.csv, k = 3), every pair among 40 random points
# as a soft pair (the species' relation, 20 % flipped, confidence U[0.5, 1], numpy seed 5) plus
# one hard must-link and one hard cannot-link, blpkm with the CLI's defaults (10 restarts, step
# limit 2 s), under each size setting: none, --min-size 40 --max-size 60, --balanced. And a
# larger step (blobs): 1000 x 8 Gaussian blobs (10 centers N(0, 9 I), unit noise 1.5), k = 10,
# 2000 random soft pairs (the blobs' relation, 10 % flipped, confidence U[0.5, 1], seed 7),
# --balanced: the sized step at its 1000-group limit; and the same blobs with only the first
# 200 of those pairs (sparse: most groups unpaired, so the split route prices the size rows
# first). SETTINGS="..." runs only the named settings (none range balanced blobs sparse).
# Writes bench/results/soft_sizes_cli.{csv,md}: seconds, peak KB, objective, SSE, sizes, and how
# many assignment steps were proven / stopped at the step limit (from the status line).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
new=$1
old=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$root/bench/results/${NAME:-soft_sizes_cli}
new_label=${NEW_LABEL:-$(git -C "$root" describe --always --dirty=+)}
old_label=${OLD_LABEL:-old}
"${PYTHON:-/usr/bin/python3}" - "$root/data/iris_labels.txt" "$work/pairs.txt" <<'PY'
import sys
import numpy as np
lab = np.loadtxt(sys.argv[1], dtype=int)
rng = np.random.default_rng(5)
pts = rng.choice(len(lab), 40, replace=False)
with open(sys.argv[2], "w") as f:
    for a in range(40):
        for b in range(a + 1, 40):
            i, j = sorted((int(pts[a]), int(pts[b])))
            same = lab[i] == lab[j]
            if rng.random() < 0.2:
                same = not same
            f.write(f"{'ML' if same else 'CL'} {i} {j} {0.5 + 0.5 * rng.random():.3f}\n")
    f.write("ML 0 1\nCL 0 100\n")
rng = np.random.default_rng(7)
n, d, k = 1000, 8, 10
C = rng.normal(0, 3, (k, d))
y = rng.integers(0, k, n)
X = C[y] + rng.normal(0, 1.5, (n, d))
np.savetxt(sys.argv[2] + ".blobs.csv", X, delimiter=",", fmt="%.6f")
with open(sys.argv[2] + ".blobs", "w") as f:
    seen = set()
    while len(seen) < 2000:
        i, j = sorted(int(v) for v in rng.choice(n, 2, replace=False))
        if (i, j) in seen:
            continue
        seen.add((i, j))
        same = y[i] == y[j]
        if rng.random() < 0.1:
            same = not same
        f.write(f"{'ML' if same else 'CL'} {i} {j} {0.5 + 0.5 * rng.random():.3f}\n")
PY
one() { # label binary setting-name args...
  local label=$1 bin=$2 name=$3 data=$root/data/iris.csv pairs=$work/pairs.txt k=3
  shift 3
  if [[ $name == blobs ]]; then data=$work/pairs.txt.blobs.csv pairs=$work/pairs.txt.blobs k=10; fi
  if [[ $name == sparse ]]; then data=$work/pairs.txt.blobs.csv pairs=$work/pairs.txt.sparse k=10; fi
  /usr/bin/time -f "%e %M" -o "$work/$label.$name.time" "$bin" cluster "$data" -k $k -a blpkm \
    -c "$pairs" "$@" -o "$work/$label.$name.labels" >"$work/$label.$name.out" 2>&1
}
head -n 200 "$work/pairs.txt.blobs" >"$work/pairs.txt.sparse"
echo "code,sizes,seconds,peak_kb,objective,sse,cluster_sizes,steps_proven,steps_at_limit" >"$out.csv.tmp"
for setting in ${SETTINGS:-none range balanced blobs sparse}; do
  case $setting in
    none) args=() ;;
    range) args=(--min-size 40 --max-size 60) ;;
    balanced | blobs | sparse) args=(--balanced) ;;
  esac
  one "$new_label" "$new" $setting "${args[@]}" &
  if [[ -n $old ]]; then one "$old_label" "$old" $setting "${args[@]}" & fi
  wait
  for label in "$new_label" ${old:+"$old_label"}; do
    f=$work/$label.$setting.out
    read -r secs kb <"$work/$label.$setting.time"
    obj=$(awk '$1 == "objective" {print $2}' "$f")
    sse=$(awk '$1 == "SSE" {print $2}' "$f")
    sizes=$(awk '$1 == "sizes" {$1 = ""; print substr($0, 2)}' "$f")
    status=$(awk '$1 == "status" {print}' "$f")
    steps=$(echo "$status" | grep -oE '[0-9]+ assignment steps' | head -1 | grep -oE '^[0-9]+' || echo 0)
    limit=$(echo "$status" | grep -oE '[0-9]+ stopped at the step limit' | grep -oE '^[0-9]+' || echo 0)
    proven=$(echo "$status" | grep -q 'each proven optimal' && echo "$steps" || echo 0)
    echo "$label,$setting,$secs,$kb,$obj,$sse,$sizes,$proven,$limit" >>"$out.csv.tmp"
  done
done
mv "$out.csv.tmp" "$out.csv"
{
  echo "# Soft pairs with size bounds through the CLI (bench/soft_sizes_cli_run.sh)"
  echo
  echo "iris, k = 3, 780 soft pairs among 40 points (20 % flipped) + 1 hard must-link + 1 hard cannot-link; blobs: 1000 x 8, k = 10, 2000 soft pairs (10 % flipped), balanced; sparse: the same blobs with the first 200 of those pairs, balanced; blpkm, CLI defaults (10 restarts, step limit 2 s); both builds at once, one core each."
  echo
  echo "| build | sizes | seconds | peak MB | objective | SSE | cluster sizes | steps proven | steps at the step limit |"
  echo "|---|---|---|---|---|---|---|---|---|"
  tail -n +2 "$out.csv" | awk -F, '{printf "| %s | %s | %.1f | %.1f | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4 / 1024, $5, $6, $7, $8, $9}'
} >"$out.md"
cat "$out.md"
