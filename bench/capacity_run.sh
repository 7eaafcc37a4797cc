#!/usr/bin/env bash
# capacity_run.sh [CKM] -- issue 36's synthetic districting (bench/districting.py): n points in 2-D (k Gaussian
# blobs, sd 1.5, centers uniform in [-10, 10]^2, so neighbouring districts overlap),
# log-normal demands (numpy lognormal(0, 1), seed 3636) and capacities +-5 % of the mean
# load, blpkm with one k-means++ restart (`--n-init 1 --init kmeans++`). Per size: exit code,
# wall time, peak RSS (/usr/bin/time -v), SSE, the loads' range against the bounds, the
# checker's verdict (`ckm check` with the same capacities), the steps and how each was solved
# (the -vv log), and for scale the SSE of plain k-means (no capacities) on the same data.
# SIZES: "n:k:step ..." where step is --soft-step-limit, the seconds a step may spend proving
# its optimum (0: every step exact; default "2000:10:0 5000:20:0 2000:10:2 5000:20:2
# 20000:50:2 100000:50:2"); TIMEOUT: the run's --time-limit in seconds (default 600; the run
# then returns its best labelling).
# Writes bench/results/capacity.csv and bench/results/capacity.md; data in CKM_BENCH_WORK
# (default /tmp/ckm-capacity).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/time_v.sh"
ckm=${1:-$root/build/ckm}
work=${CKM_BENCH_WORK:-/tmp/ckm-capacity}
sizes=${SIZES:-"2000:10:0 5000:20:0 2000:10:2 5000:20:2 20000:50:2 100000:50:2"}
tl=${TIMEOUT:-600}
mkdir -p "$work" "$root/bench/results"
csv=$root/bench/results/capacity.csv md=$root/bench/results/capacity.md
echo "n,k,step_limit,exit,wall_s,peak_mb,sse,kmeans_sse,load_min,load_max,cap_lo,cap_hi,check_exit,steps,cut_steps,step_seconds" >"$csv.tmp"
{
  echo "blpkm with capacities, one k-means++ restart, --time-limit $tl ($(git -C "$root" describe --always --dirty=+))"
  echo
  echo "| n | k | step limit s | exit | wall s | peak RSS MB | SSE | k-means SSE (no capacities) | loads (min-max) | bounds | checker | steps (cut at the limit) | step seconds |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
} >"$md.tmp"
for nks in $sizes; do
  IFS=: read -r n k step <<<"$nks"
  step=${step:-2}
  X=$work/X_${n}_${k}.npy q=$work/q_${n}_${k}.txt
  read -r lo hi < <(/usr/bin/python3 "$root/bench/districting.py" "$X" "$q" "$n" "$k")
  set +e
  /usr/bin/time -v "$ckm" cluster "$X" -k "$k" -a blpkm --init kmeans++ --n-init 1 --demands "$q" \
    --min-capacity "$lo" --max-capacity "$hi" --soft-step-limit "$step" -t "$tl" -vv -o "$work/lab_${n}_${k}.txt" \
    -r "$work/rep_${n}_${k}.json" >"$work/out_${n}_${k}.txt" 2>"$work/log_${n}_${k}.txt"
  code=$?
  "$ckm" check "$X" --labels "$work/lab_${n}_${k}.txt" -k "$k" --demands "$q" --min-capacity "$lo" \
    --max-capacity "$hi" >"$work/check_${n}_${k}.txt" 2>&1
  chk=$?
  km=$("$ckm" cluster "$X" -k "$k" --n-init 1 --seed 0 | awk '/^  SSE/ {print $2}')
  set -e
  wall=$(tv_wall "$work/log_${n}_${k}.txt")
  rss=$(tv_peak_mb "$work/log_${n}_${k}.txt")
  sse=$(awk '/^  SSE/ {print $2}' "$work/out_${n}_${k}.txt")
  read -r lmin lmax < <(/usr/bin/python3 -c "
import json; d = json.load(open('$work/rep_${n}_${k}.json')); l = d.get('loads') or [float('nan')]
print('%.6g %.6g' % (min(l), max(l)))" 2>/dev/null || echo "- -")
  steps=$(grep -c "assignment total" "$work/log_${n}_${k}.txt" || true) # 0 lines: grep fails, hence || true
  cut=$(grep -oE "[0-9]+ stopped at the step limit" "$work/out_${n}_${k}.txt" | awk '{print $1}' || true)
  cut=${cut:-0}
  secs=$(grep "assignment total" "$work/log_${n}_${k}.txt" | sed -E 's/.*\((LP integral|CBC), ([0-9.]+) s.*/\2/' | paste -sd/ - || true)
  echo "$n,$k,$step,$code,$wall,$rss,$sse,$km,$lmin,$lmax,$lo,$hi,$chk,$steps,$cut,$secs" >>"$csv.tmp"
  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s-%s | %.6g-%.6g | %s | %s (%s) | %s |\n" "$n" "$k" "$step" "$code" "$wall" \
    "$rss" "${sse:--}" "${km:--}" "$lmin" "$lmax" "$lo" "$hi" "$([[ $chk == 0 ]] && echo ok || echo "exit $chk")" "$steps" \
    "$cut" "${secs:--}" >>"$md.tmp"
done
mv "$csv.tmp" "$csv"
mv "$md.tmp" "$md"
cat "$md"
