#!/bin/bash
# bench/certify/avoc_run.sh BUILD [SHARED_DATA] -- ckm's certificate for AVOC's own heuristic
# labellings (bench/certify/data/*.assignment.txt.gz, their repository's Instances/real/assignment/)
# beside ckm's labels of the same problem, one build, the same limit. Measures, never asserts.
# Electric's and Pulsar's AVOC labellings are k-means solutions of the z-scored data (99.98 % /
# 100 % of their points nearest their cluster's mean after z-scoring, 61 % / 91 % on the raw
# data), so those two are certified with --standardize, beside `ckm cluster --standardize
# --n-init 10`; the others (data already on AVOC's scale) without, beside run.sh's labels.
#   LIMIT (default 300), INSTANCES (default "Electric Pulsar"), NAME (default certify_avoc).
# Writes bench/results/NAME.{csv,md}.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
bin=$(cd "$1" && pwd)/ckm
cert_bench "${2:-$here/../../../shared/data}" "Electric Pulsar" certify_avoc \
    "instance,n,k,labels,standardize,limit_s,sse,T,floor_pct,lower_bound,gap_pct,wall_s,peak_mb"
for inst in $instances; do
    cert_instance "$inst"
    cert_problem "$bin" "$inst"
    avoc=$work/$inst.avoc.labels
    gzip -dc "$here/data/$inst.assignment.txt.gz" > "$avoc"
    for which in avoc ckm; do
        labels=$lab
        [ "$which" = avoc ] && labels=$avoc
        rep=$work/$inst.$name.$which.json log=$work/$inst.$name.$which.log
        /usr/bin/time -v "$bin" certify "$data" --labels "$labels" -k "$k" "${std[@]}" -t "$limit" -r "$rep" -v \
            2> "$log" > /dev/null || true
        "$py" - "$rep" "$inst" "$n" "$k" "$which" "${#std[@]}" "$limit" "$(tv_wall "$log")" "$(tv_peak_mb "$log")" \
            >> "$csv" <<'EOF'
import json, sys
rep, name, n, k, which, std, limit, wall, peak = sys.argv[1:]
r = json.load(open(rep))
floor = 100 * (r["sse"] - r["split_floor_sse"]) / r["sse"] if r["split_floor_sse"] is not None else float("nan")
print("%s,%s,%s,%s,%s,%s,%.10g,%d,%.3f,%.10g,%.4f,%s,%s" % (name, n, k, "AVOC's" if which == "avoc" else "ckm's",
      "yes" if std != "0" else "no",
      limit, r["sse"], r["subsets"], floor, r["lower_bound"], 100 * r["gap"], wall, peak))
EOF
        tail -1 "$csv"
    done
done
"$py" "$here/report.py" --md "$csv" instance=instance n=n k=k standardize=standardized limit_s="limit s" \
    labels=labels sse=SSE T=T floor_pct="floor %" gap_pct="**gap** %" wall_s="wall s" peak_mb="peak MB" > "$out/$name.md"
cat "$out/$name.md"
