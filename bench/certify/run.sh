#!/bin/bash
# bench/certify/run.sh [BUILD_DIR] [SHARED_DATA] -- certified gaps at scale (issue 35, docs/certify.md).
# Measures, never asserts. For each instance: ckm's labels (kmeans, 10 restarts; with pairs blpkm), then
# `ckm certify` with a time limit; the bound, gap, split loss, subsets, wall time and peak memory
# (/usr/bin/time -v). Instances (bench/certify/prepare.py):
#   AVOC's (Croella, Piccialli & Sudoso 2025): Abalone, Facebook, Frogs, Electric, Pulsar, 10000_3_05/10;
#   SOS-SDP's data sets of 1000+ points (../shared/data, when present);
#   overlapping blobs of 10^4 and 10^5 points (k = 10, d = 5, sd 3), unconstrained and with 1 % of n
#   must-/cannot-links drawn from the truth;
#   Electric under 30 / 60 / 120 s besides its 300 s run: the gap against time.
# Writes bench/results/certify.csv, certify.md and the plots certify_gap_n.svg, certify_gap_time.svg.
# QUICK=1: the three smallest instances with 20 s limits (a smoke run).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
cert_setup "${2:-$here/../../../shared/data}"
ckm=${1:-$root/build-rel}/ckm
source "$root/bench/time_v.sh"
limit_small=${LIMIT_SMALL:-300}
limit_big=${LIMIT_BIG:-900}
[ "${QUICK:-0}" = 1 ] && { limit_small=20; limit_big=20; }

csv=$out/certify.csv
echo "instance,n,d,k,pairs,labels,sse,time_limit_s,subsets,groups,lower_bound,gap_pct,split_loss_pct,status,sdp_done,certify_s,peak_mb" > "$csv"

# one certification: NAME DATA K LABELS_ALGO PAIRS_FILE|- LIMIT
run_one() {
    local name=$1 data=$2 k=$3 algo=$4 cons=$5 limit=$6
    local lab=$work/$name.labels cflag=() npairs=0
    [ "$cons" != - ] && { cflag=(-c "$cons"); npairs=$(wc -l < "$cons"); }
    if [ ! -s "$lab" ]; then
        if [ "$algo" = kmeans ]; then
            "$ckm" cluster "$data" -k "$k" --n-init 10 -o "$lab" -q
        else
            "$ckm" cluster "$data" -k "$k" -a "$algo" "${cflag[@]}" --n-init 1 -t "${LABEL_LIMIT:-300}" -o "$lab" -q
        fi
    fi
    local rep=$work/$name.t$limit.json log=$work/$name.t$limit.time
    /usr/bin/time -v "$ckm" certify "$data" --labels "$lab" -k "$k" "${cflag[@]}" -t "$limit" -r "$rep" -q 2> "$log" || true
    "$py" - "$rep" "$name" "$k" "$npairs" "$algo" "$limit" "$(tv_wall "$log")" "$(tv_peak_mb "$log")" >> "$csv" <<'EOF'
import json, sys
rep, name, k, npairs, algo, limit, wall, peak = sys.argv[1:]
r = json.load(open(rep))
loss = 100 * (r["sse"] - r["labels_split_sse"]) / r["sse"]
done = sum(1 for q in r["subset"] if q["status"] not in ("time limit", "interrupted"))
gap = "" if r["gap"] is None else "%.4f" % (100 * r["gap"])
print("%s,%d,%d,%s,%s,%s,%.10g,%s,%d,%d,%.10g,%s,%.4f,%s,%d,%s,%s" % (
    name, r["n"], r["d"], k, npairs, algo, r["sse"], limit, r["subsets"], r["groups"], r["lower_bound"], gap, loss,
    r["status"], done, wall, peak))
EOF
    tail -1 "$csv"
}

count=0
while read -r tag n d k data truth; do
    name=${tag#*:}
    if [ "${QUICK:-0}" = 1 ] && [ "$n" -gt 2000 ]; then continue; fi
    if [ "${QUICK:-0}" = 1 ] && [ $((count++)) -ge 3 ]; then continue; fi
    if [ "$n" -ge 100000 ]; then lim=$limit_big; else lim=$limit_small; fi
    run_one "$name" "$data" "$k" kmeans - "$lim"
    if [ -n "${truth:-}" ]; then  # 1 % of n pairs from the truth, half must-links
        cons=$work/${name}_pairs.txt
        "$ckm" gen-constraints --labels "$truth" --count $((n / 100)) --ml-fraction 0.5 --seed 1 -o "$cons"
        run_one "${name}_pairs" "$data" "$k" blpkm "$cons" "$lim"
    fi
done < "$work/instances.txt"

if [ "${QUICK:-0}" != 1 ]; then  # the gap against time on one instance
    data=$(awk '$1 == "avoc:Electric" {print $5}' "$work/instances.txt")
    for t in 30 60 120; do run_one Electric "$data" 3 kmeans - "$t"; done
fi
"$py" "$here/report.py" "$csv" "$out"
