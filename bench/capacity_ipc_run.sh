#!/usr/bin/env bash
# capacity_ipc_run.sh [CKM] -- a certified gap for capacitated clustering (issue 36): the
# districting data of capacity_run.sh (bench/districting.py: 2-D blobs, sd 1.5, log-normal
# demands, loads within +-5 % of the mean, seed 3636) at sizes ipc's dense SDP handles, clustered by ipc (its safe
# lower bound with the SDP's capacity rows, and its labels) and by blpkm (10 k-means++
# restarts, the default 2 s step limit), both with --time-limit TIMEOUT (default 600).
# Per size: wall time, peak RSS, SSE of each, ipc's certified lower bound, and the gap of
# the better labelling to it. SIZES: "n:k ..." (default "500:5 1000:10").
# Writes bench/results/capacity_ipc.csv and .md; data in CKM_BENCH_WORK (default
# /tmp/ckm-capacity-ipc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/time_v.sh"
ckm=${1:-$root/build/ckm}
work=${CKM_BENCH_WORK:-/tmp/ckm-capacity-ipc}
sizes=${SIZES:-"500:5 1000:10"}
tl=${TIMEOUT:-600}
mkdir -p "$work" "$root/bench/results"
csv=$root/bench/results/capacity_ipc.csv md=$root/bench/results/capacity_ipc.md
echo "n,k,ipc_exit,ipc_wall_s,ipc_peak_mb,ipc_sse,ipc_bound,blpkm_exit,blpkm_wall_s,blpkm_sse,best_gap_pct" >"$csv.tmp"
{
  echo "ipc and blpkm with capacities, --time-limit $tl ($(git -C "$root" describe --always --dirty=+))"
  echo
  echo "| n | k | ipc wall s | ipc peak MB | ipc SSE | ipc certified bound | blpkm (10 restarts) wall s | blpkm SSE | gap of the better SSE to the bound |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$md.tmp"
for nk in $sizes; do
  IFS=: read -r n k <<<"$nk"
  X=$work/X_${n}_${k}.npy q=$work/q_${n}_${k}.txt
  read -r lo hi < <(/usr/bin/python3 "$root/bench/districting.py" "$X" "$q" "$n" "$k")
  set +e
  /usr/bin/time -v "$ckm" cluster "$X" -k "$k" -a ipc --demands "$q" --min-capacity "$lo" --max-capacity "$hi" -t "$tl" \
    -r "$work/ipc_${n}_${k}.json" >"$work/ipc_${n}_${k}.out" 2>"$work/ipc_${n}_${k}.log"
  ie=$?
  /usr/bin/time -v "$ckm" cluster "$X" -k "$k" -a blpkm --init kmeans++ --n-init 10 --demands "$q" --min-capacity "$lo" \
    --max-capacity "$hi" -t "$tl" -r "$work/blp_${n}_${k}.json" >"$work/blp_${n}_${k}.out" 2>"$work/blp_${n}_${k}.log"
  be=$?
  set -e
  iw=$(tv_wall "$work/ipc_${n}_${k}.log") bw=$(tv_wall "$work/blp_${n}_${k}.log")
  rss=$(tv_peak_mb "$work/ipc_${n}_${k}.log")
  read -r isse ib bsse gap < <(/usr/bin/python3 -c "
import json
i = json.load(open('$work/ipc_${n}_${k}.json')); b = json.load(open('$work/blp_${n}_${k}.json'))
lb = i.get('lower_bound'); best = min(i['sse'], b['sse'])
print('%.6f %s %.6f %s' % (i['sse'], '%.6f' % lb if lb is not None else '-', b['sse'],
      '%.3f' % (100 * (best - lb) / best) if lb is not None else '-'))")
  echo "$n,$k,$ie,$iw,$rss,$isse,$ib,$be,$bw,$bsse,$gap" >>"$csv.tmp"
  echo "| $n | $k | $iw | $rss | $isse | $ib | $bw | $bsse | $gap % |" >>"$md.tmp"
done
mv "$csv.tmp" "$csv"
mv "$md.tmp" "$md"
cat "$md"
