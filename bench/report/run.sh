#!/usr/bin/env bash
# bench/report/run.sh BUILD [OLD_BUILD] -- the HTML report (docs/report.md, issue 54): what a page costs
# and the screenshots of docs/.
#   1. 10^6 overlapping blobs (k = 10, d = 8, sd 3: bench/certify/prepare.py's generator), sizeflow
#      --balanced, one k-means++ restart, seed 1: the run without --html on OLD_BUILD (the previous
#      commit) and BUILD, and with --html on BUILD (trace on, page written), three rounds alternating;
#      the page's size and the seconds to write it (-v); kmeans on the same data with and without
#      --html (its trace measures each step's objective).
#   2. Screenshots (headless Chromium at 1280 x 800, the whole page) into docs/img/: iris with pairs and
#      sizes (blpkm), the 10^6 sizeflow page, and certify on AVOC's Abalone (ckm's kmeans labels, -t 120).
# Writes bench/results/report.csv and report.md; run on an idle machine.
set -euo pipefail
build=$(cd "$1" && pwd)
old=${2:+$(cd "$2" && pwd)}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=${WORK:-/tmp/ckm-report-bench}
py=/usr/bin/python3
ckm=$build/ckm
csv=$root/bench/results/report.csv
img=$root/docs/img
mkdir -p "$work" "$img"
source "$root/bench/time_v.sh"

"$py" - "$work" "$root/bench/certify" <<'EOF'
import os, sys, numpy as np
work, cert = sys.argv[1:]
sys.path.insert(0, cert)
from prepare import blobs, read_nd
import gzip
if not os.path.exists(os.path.join(work, "blobs_1e6.npy")):
    X, y = blobs(1000000, 10, 8, 3.0, seed=54)
    np.save(os.path.join(work, "blobs_1e6.npy"), X)
    np.savetxt(os.path.join(work, "blobs_1e6_truth.txt"), y, fmt="%d")
if not os.path.exists(os.path.join(work, "abalone.csv")):
    X = read_nd(gzip.open(os.path.join(cert, "data", "Abalone.txt.gz"), "rt").read())
    np.savetxt(os.path.join(work, "abalone.csv"), X, delimiter=",", fmt="%.17g")
EOF

echo "run,commit,round,wall_s,peak_mb,html_mb,html_s,sse" > "$csv"
row() { # run commit round timefile [html stderr]
  local run=$1 commit=$2 round=$3 tv=$4 err=${5:-}
  local wall peak mb="" s="" sse
  wall=$(tv_wall "$tv")
  peak=$(tv_peak_mb "$tv")
  if [ -n "$err" ]; then
    mb=$(sed -n 's/.*wrote .* (\([0-9.]*\) MB in \([0-9.]*\) s).*/\1/p' "$err")
    s=$(sed -n 's/.*wrote .* (\([0-9.]*\) MB in \([0-9.]*\) s).*/\2/p' "$err")
  fi
  sse=$(sed -n 's/^  SSE *\([0-9.e+-]*\).*/\1/p' "$work/out.txt" | head -1)
  echo "$run,$commit,$round,$wall,$peak,$mb,$s,$sse" | tee -a "$csv"
}
commit=$(git -C "$root" rev-parse --short HEAD)
X=$work/blobs_1e6.npy
sf=(cluster "$X" -k 10 -a sizeflow --balanced --n-init 1 --init kmeans++ --seed 1 -o "$work/l.npy")
km=(cluster "$X" -k 10 --n-init 1 --seed 1 -o "$work/lk.npy")
for round in 1 2 3; do
  if [ -n "$old" ]; then
    /usr/bin/time -v -o "$work/t.txt" "$old/ckm" "${sf[@]}" > "$work/out.txt"
    row sizeflow_1e6 "$(git -C "$old" rev-parse --short HEAD 2>/dev/null || echo previous)" "$round" "$work/t.txt"
  fi
  /usr/bin/time -v -o "$work/t.txt" "$ckm" "${sf[@]}" > "$work/out.txt"
  row sizeflow_1e6 "$commit" "$round" "$work/t.txt"
  /usr/bin/time -v -o "$work/t.txt" "$ckm" "${sf[@]}" --html "$work/sizeflow.html" -r "$work/sizeflow.json" -v \
    > "$work/out.txt" 2> "$work/err.txt"
  row sizeflow_1e6_html "$commit" "$round" "$work/t.txt" "$work/err.txt"
  /usr/bin/time -v -o "$work/t.txt" "$ckm" "${km[@]}" > "$work/out.txt"
  row kmeans_1e6 "$commit" "$round" "$work/t.txt"
  /usr/bin/time -v -o "$work/t.txt" "$ckm" "${km[@]}" --html "$work/kmeans.html" -v > "$work/out.txt" 2> "$work/err.txt"
  row kmeans_1e6_html "$commit" "$round" "$work/t.txt" "$work/err.txt"
done
# the page alone, from the run's labels and JSON report (ckm report)
/usr/bin/time -v -o "$work/t.txt" "$ckm" report "$X" --labels "$work/l.npy" --balanced -k 10 -r "$work/sizeflow.json" \
  -o "$work/sizeflow2.html" -v > "$work/out.txt" 2> "$work/err.txt"
row report_1e6 "$commit" 1 "$work/t.txt" "$work/err.txt"

# the screenshots
"$ckm" cluster "$root/data/iris.csv" -k 3 -a blpkm -c "$root/data/iris_constraints.txt" --min-size 45 \
  --max-size 55 --seed 1 --html "$work/iris.html" -q
"$ckm" cluster "$work/abalone.csv" -k 3 --seed 1 -o "$work/abalone.lab" -q
"$ckm" certify "$work/abalone.csv" --labels "$work/abalone.lab" -t 120 --html "$work/abalone.html" \
  -r "$work/abalone.json" -q
"$py" - "$root" "$work" "$img" <<'EOF'
import os, sys
root, work, img = sys.argv[1:]
sys.path.insert(0, os.path.join(root, "tests", "html"))
from browser import Browser, find_chromium
b = Browser(find_chromium())
try:
    for page, name in (("iris.html", "report_iris_blpkm.png"), ("sizeflow.html", "report_sizeflow_1e6.png"),
                       ("abalone.html", "report_certify_abalone.png")):
        p = b.open(os.path.join(work, page))
        errors = p.errors()
        if errors:
            raise SystemExit("%s: %s" % (page, errors))
        p.screenshot(os.path.join(img, name))
        print("screenshot", name, os.path.getsize(os.path.join(img, name)) // 1000, "kB")
finally:
    b.close()
EOF

"$py" - "$csv" > "$root/bench/results/report.md" <<'EOF'
import csv, sys, statistics
rows = list(csv.DictReader(open(sys.argv[1])))
print("| run | commit | rounds | wall s (each round) | peak MB | page MB | page s | SSE |")
print("|---|---|---|---|---|---|---|---|")
seen = []
for r in rows:
    key = (r["run"], r["commit"])
    if key in seen:
        continue
    seen.append(key)
    rs = [x for x in rows if (x["run"], x["commit"]) == key]
    print("| %s | %s | %d | %s | %s | %s | %s | %s |" % (key[0], key[1], len(rs), " / ".join(x["wall_s"] for x in rs),
          max(x["peak_mb"] for x in rs), rs[0]["html_mb"] or "-", " / ".join(x["html_s"] for x in rs if x["html_s"]) or "-",
          rs[0]["sse"] or "-"))
EOF
cat "$root/bench/results/report.md"
