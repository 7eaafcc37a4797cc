#!/usr/bin/env bash
# scale_run.sh BUILD [OLD_BUILD] -- `ckm certify` at 10^5 and 10^6 points (issue 53's targets):
# n x D overlapping blobs, k = 10 (bench/certify/prepare.py's generator: centers uniform in
# [-10, 10]^D, points N(center, SD^2 I); D = 10, SD = 5 by default, where a point's nearest true
# center is its own for about 94 % of the points, as for the D = 5, SD = 3 blobs of the other
# certify runs), PAIRS must-/cannot-links drawn from the truth (half each, `ckm gen-constraints`),
# labels from blpkm with those pairs (one k-means++ restart, seed 1), certified on one process
# with -j 2 and -t LIMIT (the subset count chosen by ckm). For each N in $NS ("100000" by
# default) one run of BUILD, then one of OLD_BUILD when given (same data, labels and pairs);
# SKIP_NEW=1 runs OLD_BUILD only (its row labelled "previous" with OLD_COMMIT).
#   NS="100000 1000000" PAIRS_100000=1000 PAIRS_1000000=10000 LIMIT_100000=300 LIMIT_1000000=7200
# are the issue's settings (the defaults). Appends one row per run to
# bench/results/certify_scale.csv (printed) and rewrites certify_scale.md; run on an idle machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
cert_builds "$@"
D=${D:-10} SD=${SD:-5}
mkdir -p "$work"
py=/usr/bin/python3
csv=$root/bench/results/certify_scale.csv
[ -s "$csv" ] || echo "run,commit,n,d,sd,pairs,workers,subsets,limit_s,lower_bound,sse,gap_pct,floor_pct,subsets_finished,split_s,bound_s,wall_s,peak_mb" > "$csv"

data() { # n: blobs_<n>_d<D>.npy, its truth, the pairs and blpkm's labels
  local n=$1 m=$2 base="$work/scale_${1}_d${D}_sd${SD}"
  [ -s "$base.npy" ] || "$py" - "$here" "$base" "$n" "$D" "$SD" <<'EOF'
import sys, numpy as np
here, base, n, d, sd = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
sys.path.insert(0, here)
from prepare import blobs
X, y = blobs(n, 10, d, sd, seed=n)
np.save(base + ".npy", X)
np.savetxt(base + "_truth.txt", y, fmt="%d")
EOF
  [ -s "$base.pairs$m" ] || "$build/ckm" gen-constraints --labels "${base}_truth.txt" --count "$m" \
    --ml-fraction 0.5 --seed 1 -o "$base.pairs$m"
  [ -s "$base.labels$m.npy" ] || "$build/ckm" cluster "$base.npy" -k 10 -a blpkm -c "$base.pairs$m" --n-init 1 \
    --init kmeans++ --seed 1 -o "$base.labels$m.npy" -q
}

row() { # label commit n pairs limit report timefile
  "$py" - "$D" "$SD" "$@" >> "$csv" <<'EOF'
import json, re, sys
d, sd, label, commit, n, pairs, limit, rep, tv = sys.argv[1:]
r = json.load(open(rep))
t = open(tv).read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t).group(1).split(":")
wall = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
peak = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
done = sum(1 for q in r["subset"] if q["status"] not in ("time limit", "interrupted"))
gap = "" if r["gap"] is None else "%.4f" % (100 * r["gap"])
fl = r.get("split_floor_sse")
floor = "" if fl is None else "%.4f" % (100 * (r["sse"] - fl) / r["sse"])
print("%s,%s,%s,%s,%s,%s,%d,%d,%s,%.17g,%.17g,%s,%s,%d,%.2f,%.2f,%.2f,%.0f" % (label, commit, n, d, sd, pairs,
      r["workers"], r["subsets"], limit, r["lower_bound"], r["sse"], gap, floor, done, r["timings"]["split"],
      r["timings"]["bound"], wall, peak))
EOF
  tail -1 "$csv"
}

one() { # label commit ckm n pairs limit
  local label=$1 commit=$2 ckm=$3 n=$4 m=$5 lim=$6 base="$work/scale_${4}_d${D}_sd${SD}"
  local tag="$base.$label.$commit.t$6"
  /usr/bin/time -v "$ckm" certify "$base.npy" --labels "$base.labels$m.npy" -k 10 -c "$base.pairs$m" -t "$lim" -j 2 \
    -r "$tag.json" -v 2> "$tag.log"
  row "$label" "$commit" "$n" "$m" "$lim" "$tag.json" "$tag.log"
}

new=$(git -C "$root" describe --always --dirty=+)
for n in ${NS:-100000}; do
  pv=PAIRS_$n lv=LIMIT_$n
  def_m=$((n / 100)) def_l=300
  [ "$n" -ge 1000000 ] && def_l=7200
  m=${!pv:-$def_m} lim=${!lv:-$def_l}
  data "$n" "$m"
  [ -n "${SKIP_NEW:-}" ] || one new "$new" "$build/ckm" "$n" "$m" "$lim"
  [ -n "$old" ] && one previous "${OLD_COMMIT:-previous}" "$old/ckm" "$n" "$m" "$lim"
done

"$py" - "$csv" "${csv%.csv}.md" <<'EOF2'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w") as f:
    f.write("| run | commit | n | d | pairs | T | limit s | lower bound | SSE | gap % | finished | split s | wall s | peak MB |\n")
    f.write("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for r in rows:
        f.write("| %s | %s | %s | %s | %s | %s | %s | %.10g | %.10g | %s | %s | %s | %s | %s |\n" % (
            r["run"], r["commit"], r["n"], r["d"], r["pairs"], r["subsets"], r["limit_s"],
            float(r["lower_bound"]), float(r["sse"]), r["gap_pct"], r["subsets_finished"], r["split_s"],
            r["wall_s"], r["peak_mb"]))
EOF2
