#!/bin/bash
# bench/certify/hour_run.sh BUILD [SHARED_DATA] -- issue 52's protocol: ckm's best labelling of each
# set certified with a long limit (default one hour) on 2 threads; rows accumulate (APPEND) so
# that one instance's runs at several limits give its gap against the time limit
# (NAME_gap_limit.svg). Measures, never asserts. Electric and Pulsar are certified standardized
# (AVOC's problem: their labellings are k-means solutions of the z-scored data, see
# avoc_run.sh), labels `ckm cluster --standardize --n-init 10`; the others as run.sh's labels.
# NAME_trace.csv keeps each run's bound events, by instance, limit and commit (the report's trace: the bound so far as subsets
# end, the unfinished ones at their groups' scatter; a run's shares depend on its limit, so this
# curve is not the gap a shorter run would reach).
#   LIMIT (default 3600), INSTANCES (default "Facebook Electric"), NAME (default certify_hour),
#   APPEND (set: keep NAME's rows and trace from an earlier run, add these).
# Writes bench/results/NAME.{csv,md}, NAME_trace.csv and NAME_gap_limit.svg.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
bin=$(cd "$1" && pwd)/ckm
LIMIT=${LIMIT:-3600}
cert_bench "${2:-$here/../../../shared/data}" "Facebook Electric" certify_hour \
    "instance,n,k,standardize,limit_s,sse,T,floor_pct,lower_bound,gap_pct,wall_s,peak_mb,commit"
trace=$out/${name}_trace.csv
[ -n "${APPEND:-}" ] && [ -s "$trace" ] || echo "instance,limit_s,commit,seconds,lower_bound,gap_pct" > "$trace"
commit=$(git -C "$root" rev-parse --short HEAD)
for inst in $instances; do
    cert_instance "$inst"
    cert_problem "$bin" "$inst"
    rep=$work/$inst.$name.json log=$work/$inst.$name.log
    /usr/bin/time -v "$bin" certify "$data" --labels "$lab" -k "$k" "${std[@]}" -t "$limit" -j 2 -r "$rep" --html "${rep%.json}.html" -v \
        2> "$log" > /dev/null || true
    "$py" - "$rep" "$inst" "$n" "$k" "${#std[@]}" "$limit" "$(tv_wall "$log")" "$(tv_peak_mb "$log")" "$commit" \
        "$csv" "$trace" <<'PY'
import json, sys
rep, name, n, k, std, limit, wall, peak, commit, csv, trace = sys.argv[1:]
r = json.load(open(rep))
floor = 100 * (r["sse"] - r["split_floor_sse"]) / r["sse"] if r["split_floor_sse"] is not None else float("nan")
with open(csv, "a") as f:
    f.write("%s,%s,%s,%s,%s,%.10g,%d,%.3f,%.10g,%.4f,%s,%s,%s\n" % (name, n, k, "yes" if std != "0" else "no",
            limit, r["sse"], r["subsets"], floor, r["lower_bound"], 100 * r["gap"], wall, peak, commit))
with open(trace, "a") as f:
    for e in r.get("trace", []):
        if e.get("kind") == "bound" and e.get("lower_bound") is not None:
            f.write("%s,%s,%s,%.3f,%.10g,%.4f\n" % (name, limit, commit, e["seconds"], e["lower_bound"],
                    100 * (r["sse"] - e["lower_bound"]) / r["sse"]))
PY
    tail -1 "$csv"
done
"$py" "$here/report.py" --md "$csv" instance=instance n=n k=k standardize=standardized limit_s="limit s" \
    sse="SSE (ckm's labels)" T=T floor_pct="floor %" gap_pct="**gap** %" wall_s="wall s" peak_mb="peak MB" \
    commit=commit > "$out/$name.md"
"$py" "$here/report.py" --gap-limit "$csv" "$out/${name}_gap_limit.svg"
cat "$out/$name.md"
