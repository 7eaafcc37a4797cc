#!/usr/bin/env bash
# hard_pairs_run.sh [CKM [OLD_CKM]] -- blpkm with hard pairs and size bounds at issue 37's first
# size: 20,000 x 8 Gaussian blobs (k = 12, sd 1.5, centers uniform in [-10, 10]^8), 35
# must-links + 365 cannot-links drawn from the truth, sizes 1500-1800. Per Lloyd step the
# assignment step's time (the -vv log), per run the wall time, the SSE and a hash of the
# labels, for this build and, with OLD_CKM, an older binary in the same run (OLD_LABEL names
# it), with n_init 1 and the default 10. Writes bench/results/hard_pairs.csv
# (code,n_init,step,seconds; step "total": the wall time) and bench/results/hard_pairs.md.
# Data: generated here (numpy, seed 37). KIND=overlap: centers uniform in [-2, 2]^8 instead,
# clusters that overlap (results/hard_pairs_overlap.*); N_INIT: the restart counts (default
# "1 10").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:-$root/build/ckm}
old=${2:-}
kind=${KIND:-sep}
work=${CKM_BENCH_WORK:-/tmp/ckm-hard-pairs-$kind}
mkdir -p "$work" "$root/bench/results"
/usr/bin/python3 - "$work" "$kind" <<'PY'
import sys, numpy as np
w, kind = sys.argv[1], sys.argv[2]
rng = np.random.default_rng(37)
k, n, d = 12, 20000, 8
span = 2.0 if kind == "overlap" else 10.0
C = rng.uniform(-span, span, (k, d)); y = rng.integers(0, k, n)
np.savetxt(w + "/X.csv", C[y] + rng.normal(0, 1.5, (n, d)), delimiter=",", fmt="%.6f")
seen, ml, cl = set(), [], []
while len(ml) < 35 or len(cl) < 365:
    i, j = (int(v) for v in rng.integers(0, n, 2))
    if i == j or (min(i, j), max(i, j)) in seen:
        continue
    if y[i] == y[j] and len(ml) < 35:
        ml.append((i, j))
    elif y[i] != y[j] and len(cl) < 365:
        cl.append((i, j))
    else:
        continue
    seen.add((min(i, j), max(i, j)))
with open(w + "/cons.txt", "w") as f:
    f.writelines("ML %d %d\n" % p for p in ml)
    f.writelines("CL %d %d\n" % p for p in cl)
PY
name=hard_pairs$([[ $kind == overlap ]] && echo _overlap || true)
csv=$root/bench/results/$name.csv
echo "code,n_init,step,seconds" >"$csv"
bins=("$ckm"); labels=("$(git -C "$root" describe --always --dirty=+)")
if [[ -n $old ]]; then bins+=("$old"); labels+=("${OLD_LABEL:-old}"); fi
md=$root/bench/results/$name.md
{
  echo "| code | n_init | steps | step seconds (first restart) | wall s | SSE | labels (md5) |"
  echo "|---|---|---|---|---|---|---|"
} >"$md.tmp"
for ni in ${N_INIT:-1 10}; do
  for b in "${!bins[@]}"; do
    lab=${labels[$b]}
    t0=$(date +%s.%N)
    "${bins[$b]}" cluster "$work/X.csv" -k 12 -a blpkm -c "$work/cons.txt" --min-size 1500 --max-size 1800 \
      --n-init $ni -vv -o "$work/labels_$b.txt" >"$work/out_$b.txt" 2>"$work/log_$b.txt"
    wall=$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { print a - b }')
    steps=$(grep -oE "restart 1 iter [0-9]+: assignment total [0-9.e+]+ \([^,]+, [0-9.]+ s" "$work/log_$b.txt" |
      sed -E 's/.*, ([0-9.]+) s$/\1/')
    i=0
    for s in $steps; do i=$((i + 1)); echo "$lab,$ni,$i,$s" >>"$csv"; done
    echo "$lab,$ni,total,$wall" >>"$csv"
    sse=$(grep -E "^  SSE" "$work/out_$b.txt" | awk '{print $2}')
    nsteps=$(grep -c "assignment total" "$work/log_$b.txt")
    printf '| %s | %d | %d | %s | %.2f | %s | %s |\n' "$lab" "$ni" "$nsteps" "$(echo $steps | tr ' ' '/')" "$wall" \
      "$sse" "$(md5sum <"$work/labels_$b.txt" | cut -c1-8)" >>"$md.tmp"
  done
done
mv "$md.tmp" "$md"
cat "$md"
