#!/usr/bin/env bash
# run_unconstrained.sh -- `exact` without pairs on SOS-SDP's unconstrained MSSC instances
# (../shared/data/sos-sdp/datasets/*.zip: header `n d`, then rows; PROVENANCE.md section 6).
# usage: bash bench/pcsos/run_unconstrained.sh [NAME:K,...] [TIME_LIMIT_S] [THREADS]
#   default glass:6 (the SOS-SDP README's anchor, optimum 72.9647), 3600 s, 2 workers.
# Appends one row per instance to bench/results/sos_unconstrained.csv (created with a header):
# dataset,n,d,k,status,sse,lower_bound,gap_pct,nodes,root_gap_pct,seconds,published_best.
# Needs a Release build in build/ and unzip.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
csv=$root/bench/results/sos_unconstrained.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -f "$csv" ] || echo "dataset,n,d,k,status,sse,lower_bound,gap_pct,nodes,root_gap_pct,seconds,published_best" >"$csv"
IFS=, read -ra list <<<"${1:-glass:6}"
for item in "${list[@]}"; do
  IFS=: read -r name k <<<"$item"
  unzip -o -q "$shared/sos-sdp/datasets/$name.zip" -d "$tmp"
  read -r n d < <(head -1 "$tmp/$name.txt" | tr -d '\r') # some headers end in CRLF
  tail -n +2 "$tmp/$name.txt" >"$tmp/$name.data"
  published=""
  [ "$name:$k" = "glass:6" ] && published=72.9647 # SOS-SDP README (BEST 72.9647)
  OPENBLAS_NUM_THREADS=1 "$root/build/ckm" cluster "$tmp/$name.data" --header no -k "$k" -a exact \
    --time-limit "${2:-3600}" -j "${3:-2}" -o "$tmp/labels.txt" >"$tmp/log" 2>&1 || true
  field() { grep -m1 "^  $1" "$tmp/log" | sed -E "s/^  $1 +//"; }
  status=$(field status | sed -E 's/ - .*//')
  sse=$(field SSE)
  lb=$(field "lower bound" | awk '{print $1}')
  gap=$(field "lower bound" | sed -E 's/.*gap ([0-9.eE+-]+)%.*/\1/')
  nodes=$(field nodes | awk '{print $1}')
  rgap=$(field nodes | sed -E 's/.*root gap ([0-9.eE+-]+)%.*/\1/')
  secs=$(field time | awk '{print $1}')
  echo "$name,$n,$d,$k,$status,$sse,$lb,$gap,$nodes,$rgap,$secs,$published" | tee -a "$csv"
done
