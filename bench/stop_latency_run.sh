#!/usr/bin/env bash
# stop_latency_run.sh [OLD_COMMIT] -- bench/stop_latency.c for this tree and OLD_COMMIT
# (default 53464e8, before CBC ran through CbcModel) side by side in one run, on the idle
# machine and with a CPU hog on every other core (busy loops started here, killed at the end).
# Release builds; OPENBLAS_NUM_THREADS=1 as the ckm tool sets it. Writes
#   bench/results/stop_latency.csv   code,load,algo,instance,T,latency_s,status,polls
#   bench/results/stop_parallel.csv  code,load,sequential_s,parallel_s,ratio,same_sse
#   bench/results/stop_latency.md    worst latency per algorithm, parallel ratios
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
old=${1:-53464e8}
work=${CKM_BENCH_WORK:-/tmp/ckm-stop-bench}
mkdir -p "$work" "$root/bench/results"
deps=$(pkg-config --libs openblas lapacke cbc clp)
cmake -S "$root" -B "$work/new" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF -DCKM_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/new" -j "$(nproc)" --target ckm >/dev/null
rm -rf "$work/oldsrc"
git -C "$root" worktree add --detach -f "$work/oldsrc" "$old" >/dev/null 2>&1
cmake -S "$work/oldsrc" -B "$work/old" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF -DCKM_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/old" -j "$(nproc)" --target ckm >/dev/null
git -C "$root" worktree remove --force "$work/oldsrc"
for v in new old; do
  inc=$root/include
  cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$inc" -I"$root/bench" "$root/bench/stop_latency.c" \
    "$work/$v/libckm.a" $deps -lstdc++ -lpthread -lm -o "$work/stop_latency_$v"
done
export OPENBLAS_NUM_THREADS=1
lat=$root/bench/results/stop_latency.csv par=$root/bench/results/stop_parallel.csv
echo "code,load,algo,instance,T,latency_s,status,polls" >"$lat"
echo "code,load,sequential_s,parallel_s,ratio,same_sse" >"$par"
hogs=()
start_hog() { for _ in $(seq 2 "$(nproc)"); do (while :; do :; done) & hogs+=($!); done; }
stop_hog() { for h in "${hogs[@]}"; do kill "$h" 2>/dev/null || true; done; hogs=(); }
trap stop_hog EXIT
for load in idle hog; do
  [[ $load == hog ]] && start_hog
  for v in new old; do
    label=$([[ $v == new ]] && git -C "$root" describe --always --dirty=+ || echo "$old")
    "$work/stop_latency_$v" latency "$work/lat.csv"
    tail -n +2 "$work/lat.csv" | sed "s/^/$label,$load,/" >>"$lat"
    [[ $load == idle ]] && { "$work/stop_latency_$v" parallel "$work/par.csv";
                             tail -n +2 "$work/par.csv" | sed "s/^/$label,$load,/" >>"$par"; }
  done
  [[ $load == hog ]] && stop_hog
done
python3 - "$lat" "$par" >"$root/bench/results/stop_latency.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| algo | code | idle: worst / median latency (s) | CPU hog: worst / median (s) |")
print("|---|---|---|---|")
def stats(sel):
    v = sorted(float(r["latency_s"]) for r in sel)
    return "%.3f / %.3f" % (v[-1], v[len(v) // 2]) if v else "-"
codes = list(dict.fromkeys(r["code"] for r in rows))
for algo in dict.fromkeys(r["algo"] for r in rows):
    for c in codes:
        sel = [r for r in rows if r["algo"] == algo and r["code"] == c]
        print("| %s | %s | %s | %s |" % (algo, c, stats([r for r in sel if r["load"] == "idle"]),
                                       stats([r for r in sel if r["load"] == "hog"])))
print()
print("| code | two blpkm solves one after the other (s) | in two threads (s) | ratio | same SSEs |")
print("|---|---|---|---|---|")
for r in csv.DictReader(open(sys.argv[2])):
    print("| %s | %s | %s | %s | %s |" % (r["code"], r["sequential_s"], r["parallel_s"], r["ratio"],
                                          "yes" if r["same_sse"] == "1" else "no"))
EOF
cat "$root/bench/results/stop_latency.md"
