#!/bin/bash
# bench/certify/floor_run.sh NEW_BUILD OLD_BUILD [SHARED_DATA] -- the split's floor and the subset
# count it chooses (docs/certify.md "The split's floor"), the previous commit beside in the same
# run. Measures, never asserts. For each instance (bench/certify/prepare.py; labels: kmeans, 10
# restarts, as run.sh makes them): `ckm certify -t LIMIT` with T chosen by each build; the new
# build's log gives the floor at the count the time rule chose and, when it coarsened, at the
# coarser count. Old, then new, for each instance. Writes bench/results/NAME.{csv,md}.
#   LIMIT (default 300), INSTANCES (default "Facebook Electric Pulsar Frogs blobs_10000"),
#   NAME (default certify_floor).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
new=$1/ckm
old=$2/ckm
cert_bench "${3:-$here/../../../shared/data}" "Facebook Electric Pulsar Frogs blobs_10000" certify_floor \
    "instance,n,k,build,limit_s,T,floor_first_pct,floor_pct,lower_bound,gap_pct,wall_s,peak_mb"
for inst in $instances; do
    cert_instance "$inst"
    cert_labels "$new" "$inst"
    for which in old new; do
        bin=$old; [ "$which" = new ] && bin=$new
        rep=$work/$inst.$name.$which.json log=$work/$inst.$name.$which.log
        /usr/bin/time -v "$bin" certify "$data" --labels "$lab" -k "$k" -t "$limit" -r "$rep" -v 2> "$log" > /dev/null || true
        "$py" - "$rep" "$log" "$inst" "$n" "$k" "$which" "$limit" "$(tv_wall "$log")" "$(tv_peak_mb "$log")" >> "$csv" <<'EOF'
import json, re, sys
rep, log, name, n, k, which, limit, wall, peak = sys.argv[1:]
r = json.load(open(rep))
floors = re.findall(r"the split's floor: no bound through it exceeds \S+, (\S+) % below", open(log).read())
first = floors[0] if floors else ""
last = floors[-1] if floors else ""
print("%s,%s,%s,%s,%s,%d,%s,%s,%.10g,%.4f,%s,%s" % (name, n, k, which, limit, r["subsets"], first, last,
      r["lower_bound"], 100 * r["gap"], wall, peak))
EOF
        tail -1 "$csv"
    done
done
"$py" - "$csv" > "$out/$name.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| instance | n | k | limit s | old T | old gap | new: floor at old T | new T | floor at new T | new gap | new wall s | new peak MB |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for name in dict.fromkeys(r["instance"] for r in rows):
    o = next(r for r in rows if r["instance"] == name and r["build"] == "old")
    w = next(r for r in rows if r["instance"] == name and r["build"] == "new")
    print("| %s | %s | %s | %s | %s | %s %% | %s %% | %s | %s %% | **%s %%** | %s | %s |" % (
        name, w["n"], w["k"], w["limit_s"], o["T"], o["gap_pct"], w["floor_first_pct"], w["T"], w["floor_pct"],
        w["gap_pct"], w["wall_s"], w["peak_mb"]))
EOF
cat "$out/$name.md"
