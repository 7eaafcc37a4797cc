#!/bin/bash
# bench/certify/pair_run.sh BUILD OLD_BUILD [SHARED_DATA] -- this commit and the previous one side
# by side in the same run: each instance's labels certified with -t LIMIT by BUILD and by
# OLD_BUILD at the same time, one thread each (-j 1), so both meet the same machine load (two
# busy cores). The figures are therefore not those of a -j 2 run (hour_run.sh): compare the two
# rows of an instance, not a row with another table. Labels and standardization as hour_run.sh
# (Electric and Pulsar z-scored, AVOC's problem). Measures, never asserts.
#   LIMIT (default 300), INSTANCES (default "Electric Pulsar Frogs Facebook"), NAME (default
#   certify_pair), OLD_COMMIT (the old build's commit, for the table; default "previous"),
#   APPEND (set: keep NAME's rows from an earlier run, add these).
# Writes bench/results/NAME.{csv,md}; the logs (-vv: every cut round) in certify_work/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
new=$(cd "$1" && pwd)/ckm old=$(cd "$2" && pwd)/ckm
for b in "$new" "$old"; do
    [ -x "$b" ] || { echo "pair_run.sh: $b missing (build the ckm_cli target)" >&2; exit 2; }
done
cert_bench "${3:-$here/../../../shared/data}" "Electric Pulsar Frogs Facebook" certify_pair \
    "instance,n,k,standardize,limit_s,build,commit,sse,T,floor_pct,lower_bound,gap_pct,wall_s,peak_mb"
commit=$(git -C "$root" rev-parse --short HEAD)
for inst in $instances; do
    cert_instance "$inst"
    cert_problem "$new" "$inst"
    for b in new old; do
        bin=$new
        [ $b = old ] && bin=$old
        /usr/bin/time -v "$bin" certify "$data" --labels "$lab" -k "$k" "${std[@]}" -t "$limit" -j 1 \
            -r "$work/$inst.$name.$b.json" -vv 2> "$work/$inst.$name.$b.log" > /dev/null &
    done
    wait || true
    for b in new old; do
        c=$commit
        [ $b = old ] && c=${OLD_COMMIT:-previous}
        log=$work/$inst.$name.$b.log
        "$py" - "$work/$inst.$name.$b.json" "$inst" "$n" "$k" "${#std[@]}" "$limit" "$b" "$c" \
            "$(tv_wall "$log")" "$(tv_peak_mb "$log")" "$csv" <<'PY'
import json, sys
rep, name, n, k, std, limit, build, commit, wall, peak, csv = sys.argv[1:]
r = json.load(open(rep))
floor = 100 * (r["sse"] - r["split_floor_sse"]) / r["sse"] if r["split_floor_sse"] is not None else float("nan")
with open(csv, "a") as f:
    f.write("%s,%s,%s,%s,%s,%s,%s,%.10g,%d,%.3f,%.10g,%.4f,%s,%s\n" % (name, n, k, "yes" if std != "0" else "no",
            limit, build, commit, r["sse"], r["subsets"], floor, r["lower_bound"], 100 * r["gap"], wall, peak))
PY
        tail -1 "$csv"
    done
done
"$py" "$here/report.py" --md "$csv" instance=instance standardize=standardized limit_s="limit s" build=build \
    commit=commit sse="SSE (ckm's labels)" T=T floor_pct="floor %" gap_pct="**gap** %" wall_s="wall s" \
    peak_mb="peak MB" > "$out/$name.md"
cat "$out/$name.md"
