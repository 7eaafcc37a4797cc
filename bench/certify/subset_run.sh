#!/usr/bin/env bash
# subset_run.sh BUILD [OLD_BUILD] -- one subset's SDP bound within the share of time a long
# certify gives it: the subsets of a split of scale_run.sh's data cut out (`--subsets-out`),
# each certified alone (`--subsets 1`, -j 1) with -t SHARE, two at a time on 2 cores as a
# certify run's two workers are; BUILD's runs, then OLD_BUILD's on the same subsets.
#   N=1000000 PAIRS=10000 T=2108 SHARE=6.6 COUNT=4 (the defaults: the split and the share of
#   the 2-hour 10^6 run, bench/README.md "Shorter cut rounds for certify's subsets")
# Needs scale_run.sh's data for N (run it first). Appends one row per subset and build to
# bench/results/certify_subsets.csv (printed): the subset's bound, its labels' SSE there, and
# the gap between them; certify_subsets.md: each run's mean gap; run on an idle machine.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
source "$here/setup.sh"
cert_builds "$@"
N=${N:-1000000} PAIRS=${PAIRS:-10000} T=${T:-2108} SHARE=${SHARE:-6.6} COUNT=${COUNT:-4}
D=${D:-10} SD=${SD:-5}
base="$work/scale_${N}_d${D}_sd${SD}"
cut="$work/subsets_${N}_T${T}"
py=/usr/bin/python3
csv=$root/bench/results/certify_subsets.csv
[ -s "$base.npy" ] || { echo "subset_run.sh: $base.npy missing: run scale_run.sh with NS=$N first" >&2; exit 2; }
[ -s "$csv" ] || echo "run,commit,n,subsets,subset,points,groups,pairs,share_s,lower_bound,labels_sse,gap_pct,cut_rounds" > "$csv"
mkdir -p "$cut"

if [ ! -s "$cut/s$((COUNT - 1)).csv" ]; then # the split (as certify makes it for T, seed 0) and the cut
  "$build/ckm" certify "$base.npy" --labels "$base.labels$PAIRS.npy" -k 10 -c "$base.pairs$PAIRS" --subsets "$T" \
    -t 1 -j 2 --subsets-out "$cut/subset_of.npy" -q
  "$py" - "$base" "$PAIRS" "$cut" "$COUNT" <<'EOF'
import sys, numpy as np
base, m, cut, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
X = np.load(base + ".npy"); L = np.load(base + ".labels%s.npy" % m); so = np.load(cut + "/subset_of.npy")
pairs = [l.split() for l in open(base + ".pairs" + m)]
for t in range(count):
    idx = np.flatnonzero(so == t)
    pos = {int(i): a for a, i in enumerate(idx)}
    np.savetxt("%s/s%d.csv" % (cut, t), X[idx], delimiter=",", fmt="%.17g")
    np.savetxt("%s/s%d.lab" % (cut, t), L[idx], fmt="%d")
    with open("%s/s%d.pairs" % (cut, t), "w") as f:
        for ty, i, j in pairs:
            if int(i) in pos and int(j) in pos:
                f.write("%s %d %d\n" % (ty, pos[int(i)], pos[int(j)]))
EOF
fi

one() { # label commit ckm t: subset t alone, its row appended
  local label=$1 commit=$2 ckm=$3 t=$4 rep="$cut/s$4.$1.json"
  "$ckm" certify "$cut/s$t.csv" --labels "$cut/s$t.lab" -c "$cut/s$t.pairs" -k 10 --subsets 1 -t "$SHARE" -j 1 \
    -r "$rep" -q
  "$py" - "$label" "$commit" "$N" "$T" "$t" "$SHARE" "$rep" "$cut/s$t.pairs" >> "$csv" <<'EOF'
import json, sys
label, commit, n, T, t, share, rep, prs = sys.argv[1:]
r = json.load(open(rep)); q = r["subset"][0]
print("%s,%s,%s,%s,%s,%d,%d,%d,%s,%.17g,%.17g,%.4f,%d" % (label, commit, n, T, t, q["points"], q["groups"],
      sum(1 for _ in open(prs)), share, r["lower_bound"], r["sse"], 100 * r["gap"], q["cut_rounds"]))
EOF
}

runs() { # label commit ckm: the subsets two at a time
  local t=0
  while [ "$t" -lt "$COUNT" ]; do
    one "$1" "$2" "$3" "$t" &
    [ $((t + 1)) -lt "$COUNT" ] && one "$1" "$2" "$3" $((t + 1)) &
    wait
    t=$((t + 2))
  done
}

runs new "$(git -C "$root" describe --always --dirty=+)" "$build/ckm"
[ -n "$old" ] && runs previous "${OLD_COMMIT:-previous}" "$old/ckm"
rows=$COUNT
[ -n "$old" ] && rows=$((2 * COUNT))
tail -n "$rows" "$csv"
"$py" "$here/subset_md.py" "$csv" "${csv%.csv}.md"
