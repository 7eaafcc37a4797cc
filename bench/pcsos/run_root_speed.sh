#!/usr/bin/env bash
# run_root_speed.sh -- the root node of `exact` on fixed instances, today's build against an older
# commit's, in one run on the same machine (issue 16: the SDP at s = 300-1000 groups). Builds BEFORE
# (default 6ddab17, the code before the partial eigendecompositions and the CG cut system) into
# /tmp/ckm-root-before, then runs each instance with each binary in turn: `ckm cluster ... -a exact
# --node-limit 1 -j THREADS -vv`, OpenBLAS one thread, nothing else should run. Needs ../shared/data
# and a Release build in build/.
# usage: bash bench/pcsos/run_root_speed.sh [BEFORE_COMMIT] [INSTANCES] [THREADS]
#   INSTANCES: comma-separated dataset:k:constraint-file-stem (default accent:6:ml_50_cl_50_0,
#   ECG5000:5:ml_0_cl_150_0). THREADS (default 2, the cores exact has here; 6ddab17 runs its root
#   on one of them whatever the count, later code splits the root's projection and separation
#   over two). Writes bench/results/pcsos_root_speed.csv and .md (summarize_root_speed.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
before=${1:-6ddab17}
instances=${2:-accent:6:ml_50_cl_50_0,ECG5000:5:ml_0_cl_150_0}
threads=${3:-2}
if [ ! -d "$shared/pc-sos-sdp/datasets" ]; then
  echo "run_root_speed.sh: no $shared/pc-sos-sdp/datasets (set SHARED_DATA to the shared data directory)" >&2
  exit 2
fi
work=/tmp/ckm-root-before
out=$root/bench/results
logs=$(mktemp -d)
mkdir -p "$out"
if [ ! -x "$work/build/ckm" ] || [ "$(cat "$work/commit" 2>/dev/null)" != "$before" ]; then
  rm -rf "$work"
  git -C "$root" worktree add --detach -f "$work" "$before" >/dev/null
  cmake -S "$work" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF >/dev/null
  cmake --build "$work/build" -j2 --target ckm_cli >/dev/null 2>&1 || cmake --build "$work/build" -j2 >/dev/null
  echo "$before" >"$work/commit"
fi
now=$(git -C "$root" rev-parse --short HEAD)
echo "instance,version,commit,log" >"$logs/index.csv"
IFS=, read -ra list <<<"$instances"
for inst in "${list[@]}"; do
  IFS=: read -r ds k stem <<<"$inst"
  for v in before after; do
    bin=$root/build/ckm; commit=$now
    [ "$v" = before ] && bin=$work/build/ckm && commit=$before
    log=$logs/$ds-$stem-$v.log
    OPENBLAS_NUM_THREADS=1 "$bin" cluster "$shared/pc-sos-sdp/datasets/$ds.txt" -k "$k" \
      -c "$shared/pc-sos-sdp/constraints/$ds/$stem.txt" -a exact -j "$threads" --node-limit 1 -vv -o "$logs/labels.txt" \
      >"$log" 2>&1 || true
    echo "$ds/$stem,$v,$commit,$log" >>"$logs/index.csv"
    echo "$ds/$stem $v: $(grep '  time' "$log" | xargs)" >&2
  done
done
python3 "$root/bench/pcsos/summarize_root_speed.py" "$logs/index.csv" "$out/pcsos_root_speed.csv" >"$out/pcsos_root_speed.md.tmp"
mv "$out/pcsos_root_speed.md.tmp" "$out/pcsos_root_speed.md"
cat "$out/pcsos_root_speed.md"
rm -rf "$logs"
