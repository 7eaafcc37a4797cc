#!/usr/bin/env bash
# busy_run.sh [CKM [OLD_CKM]] -- ckm on an idle machine and with a CPU-bound process on one
# core (issue 32, item 3): wall, user and system seconds of the same commands, both ways, in
# one run; with OLD_CKM (an older build's binary) both binaries side by side in that run.
# CKM: the ckm binary (default build/ckm, a Release build). Default thread settings
# (--threads 0: every core the process may use; OpenBLAS as the environment says). Writes
# bench/results/busy.csv (code,workload,load,wall_s,user_s,sys_s) and bench/results/busy.md.
# Data: generated here (numpy, fixed seeds) into a scratch folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:-$root/build/ckm}
old=${2:-}
work=${CKM_BENCH_WORK:-/tmp/ckm-busy-bench}
mkdir -p "$work" "$root/bench/results"
/usr/bin/python3 - "$work" <<'EOF'
import sys, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(7)
k, n, d = 100, 200_000, 16                  # overlapping blobs (issue 33's recipe)
C = rng.normal(0, 1, (k, d)); y = rng.integers(0, k, n)
np.save(w + "/blobs.npy", C[y] + rng.normal(0, 1, (n, d)))
n, k = 3000, 8                              # the MILP-heavy model of bench/stop_latency.c's kind
y = np.arange(n) % k
X = rng.uniform(-0.5, 0.5, (n, 8, 3)).sum(2) * 1.2
X[np.arange(n), y % 8] += y
np.savetxt(w + "/milp.csv", X, delimiter=",", fmt="%.6f")
np.savetxt(w + "/milp_truth.txt", y, fmt="%d")
EOF
"$ckm" gen-constraints --labels "$work/milp_truth.txt" --count 1000 --ml-fraction 0.5 --seed 1 --out "$work/milp_c.txt" >/dev/null
declare -A cmds=(
  [kmeans]="cluster $work/blobs.npy -k 100 --n-init 2 --seed 1 -q"
  [sizeflow]="cluster $work/blobs.npy -k 100 -a sizeflow --balanced --n-init 1 --seed 1 -q"
  [blpkm]="cluster $work/milp.csv -k 8 -a blpkm -c $work/milp_c.txt --min-size 338 --max-size 412 --n-init 3 --seed 1 -q"
  [exact]="cluster $root/data/iris.csv -k 3 -a exact -c $root/data/iris_constraints.txt --min-size 45 --max-size 55 -q"
)
csv=$root/bench/results/busy.csv
echo "code,workload,load,wall_s,user_s,sys_s" >"$csv"
bins=("$ckm")
labels=("$(git -C "$root" describe --always --dirty=+)")
if [[ -n $old ]]; then bins+=("$old"); labels+=("old"); fi
hog=
stop_hog() { [[ -n $hog ]] && kill "$hog" 2>/dev/null || true; hog=; }
trap stop_hog EXIT
for load in idle hog; do
  [[ $load == hog ]] && { (while :; do :; done) & hog=$!; }
  for wl in kmeans sizeflow blpkm exact; do
    read -r -a args <<<"${cmds[$wl]}"
    for b in "${!bins[@]}"; do
      /usr/bin/time -f "%e %U %S" -o "$work/t" "${bins[$b]}" "${args[@]}" -o "$work/labels.txt" >/dev/null
      read -r e u s <"$work/t"
      echo "${labels[$b]},$wl,$load,$e,$u,$s" >>"$csv"
    done
  done
  stop_hog
done
python3 - "$csv" >"$root/bench/results/busy.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| workload | code | idle: wall / user / sys (s) | one core busy: wall / user / sys (s) | wall ratio | sys / user busy |")
print("|---|---|---|---|---|---|")
f = lambda r: "%s / %s / %s" % (r["wall_s"], r["user_s"], r["sys_s"])
for wl in dict.fromkeys(r["workload"] for r in rows):
    for code in dict.fromkeys(r["code"] for r in rows):
        a = next(r for r in rows if r["workload"] == wl and r["code"] == code and r["load"] == "idle")
        b = next(r for r in rows if r["workload"] == wl and r["code"] == code and r["load"] == "hog")
        print("| %s | %s | %s | %s | %.2f | %.0f %% |" % (wl, code, f(a), f(b), float(b["wall_s"]) / float(a["wall_s"]),
                                                        100 * float(b["sys_s"]) / max(float(b["user_s"]), 1e-9)))
EOF
cat "$root/bench/results/busy.md"
