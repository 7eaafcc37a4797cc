#!/usr/bin/env bash
# kmeans_hard_run.sh -- k-means where the data are hard (issue 55): heavily overlapping
# blobs (centers N(0, 1)^d, unit noise) beside separated ones (centers uniform in
# [-10, 10]^d), at (10^6, 16, 100) and (10^5, 128, 1000); ckm (plain, bounds, single) from
# this tree, the previous commit's bounded fit, and scikit-learn's lloyd (and elkan in the
# first round), all from the same initial centers (k distinct data rows: random starts).
# Two protocols: whole fits (tol 1e-4, max_iter 300) and capped steps (20 steps, tol 0;
# ckm with its default lloyd = auto). Rounds alternate; the last runs beside a CPU-bound
# process on one core (a busy machine). Also the machine's BLAS rates (gemm_peak).
# Writes bench/results/kmeans_hard.csv, kmeans_hard_blas.csv and kmeans_hard.md.
# usage: bench/kmeans_hard_run.sh [BUILD] [OLD_REV]
#   BUILD: a Release build of this tree with benchmarks (default build); OLD_REV: the
#   commit to compare with (default HEAD~1), built here with this tree's kmeans_fit.c.
#   ROUNDS=3 (idle rounds = ROUNDS - 1, then the busy one); ~25 min on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
old_rev=${2:-HEAD~1}
rounds=${ROUNDS:-3}
out=$root/bench/results
mkdir -p "$out"
tmp=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$tmp"' EXIT
if ! /usr/bin/python3 -c "import sklearn" 2>/dev/null; then
  echo "kmeans_hard_run.sh: installing python3-sklearn (Debian) for the comparison" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn >/dev/null
fi
# the previous commit's library with this tree's harness
old_sha=$(git -C "$root" rev-parse --short "$old_rev")
git -C "$root" archive "$old_rev" --prefix=old/ | tar -x -C "$tmp"
cp "$root/bench/kmeans_fit.c" "$root/bench/bench_util.h" "$tmp/old/bench/"
cmake -S "$tmp/old" -B "$tmp/old/build" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF >/dev/null
make -C "$tmp/old/build" -j"$(nproc)" kmeans_fit >/dev/null
new_fit=$build/bench/kmeans_fit
old_fit=$tmp/old/build/bench/kmeans_fit
"$build/bench/gemm_peak" >"$tmp/blas.csv"
csv=$tmp/kmeans_hard.csv
echo "round,load,protocol,data,impl,n,d,k,iterations,seconds,sse,same_labels_as_plain" >"$csv"
shapes=("1000000 16 100 normal" "1000000 16 100 uniform" "100000 128 1000 normal" "100000 128 1000 uniform")
row() { # round load protocol data < CSV rows of kmeans_fit / sklearn_fit.py
  sed "s/^/$1,$2,$3,$4,/" >>"$csv"
}
for round in $(seq 1 "$rounds"); do
  load=idle
  if [ "$round" -eq "$rounds" ] && [ "$rounds" -gt 1 ]; then
    load=busy
    sh -c 'while :; do :; done' & hog=$!
  fi
  for shape in "${shapes[@]}"; do
    set -- $shape
    kind=$4
    extra=$([ "$kind" = normal ] && echo normal || true)
    p=$tmp/$1_$2_$3_$kind
    # whole fits: this tree (plain, bounds, single; writes the data, starts and plain labels)
    "$new_fit" "$1" "$2" "$3" "$p" 1 $extra 2>/dev/null | sed "s/^ckm-[^,]*-/ckm-new-/" | row "$round" "$load" fit "$kind"
    "$old_fit" "$1" "$2" "$3" "$p.old" 1 bounds $extra 2>/dev/null | sed "s/^ckm-[^,]*-/ckm-$old_sha-/" | row "$round" "$load" fit "$kind"
    algos=lloyd
    [ "$round" -eq 1 ] && algos=lloyd,elkan
    /usr/bin/python3 "$root/bench/sklearn_fit.py" "$1" "$2" "$3" "$p" 300 1e-4 "$algos" | row "$round" "$load" fit "$kind"
    # capped steps (overlapping data only): 20 steps from the same random rows, lloyd = auto
    if [ "$kind" = normal ]; then
      "$new_fit" "$1" "$2" "$3" "$p" 1 auto normal capped 2>/dev/null | sed "s/^ckm-[^,]*-/ckm-new-/" | row "$round" "$load" capped "$kind"
      "$old_fit" "$1" "$2" "$3" "$p.old" 1 auto normal capped 2>/dev/null | sed "s/^ckm-[^,]*-/ckm-$old_sha-/" | row "$round" "$load" capped "$kind"
      /usr/bin/python3 "$root/bench/sklearn_fit.py" "$1" "$2" "$3" "$p" 20 0 lloyd | row "$round" "$load" capped "$kind"
    fi
    rm -f "$p".* "$p.old".*
  done
  if [ -n "$hog" ]; then kill "$hog"; wait "$hog" 2>/dev/null || true; hog=; fi
done
cp "$csv" "$out/kmeans_hard.csv.tmp" && mv "$out/kmeans_hard.csv.tmp" "$out/kmeans_hard.csv"
cp "$tmp/blas.csv" "$out/kmeans_hard_blas.csv.tmp" && mv "$out/kmeans_hard_blas.csv.tmp" "$out/kmeans_hard_blas.csv"
/usr/bin/python3 - "$out/kmeans_hard.csv" "$out/kmeans_hard_blas.csv" "$old_sha" >"$out/kmeans_hard.md.tmp" <<'PY'
import csv, sys, datetime, os
rows = list(csv.DictReader(open(sys.argv[1])))
blas = {r["kernel"]: float(r["gflops"]) for r in csv.DictReader(open(sys.argv[2]))}
old = sys.argv[3]
print(f"# k-means on hard data ({datetime.date.today()}, {os.cpu_count()} cores; previous commit {old})")
print()
print(f"BLAS on this machine (gemm_peak): dgemm {blas['dgemm']:.1f} GFLOP/s, sgemm {blas['sgemm']:.1f} GFLOP/s "
      f"(4000^3, OpenBLAS threads); the k-means pass's thin dgemm (163 x 100 x 16 blocks) on one thread "
      f"{blas['dgemm-thin-1-thread']:.1f} GFLOP/s.")
print()
print("Seconds per round (idle rounds, then busy); 'x sklearn': scikit-learn's best (lloyd or elkan, same round")
print("kind) divided by this, on the fastest idle round of each; 'pass GFLOP/s': 2 n k d per step over")
print("seconds per step (the whole step: distances, argmin, update).")
print()
print("| protocol | data | n | d | k | implementation | steps | seconds (rounds) | busy | SSE | same labels | x sklearn | pass GFLOP/s |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
case = lambda r: (r["protocol"], r["data"], r["n"], r["d"], r["k"])
for key in dict.fromkeys(case(r) for r in rows):  # in first-seen order
    sel = [r for r in rows if case(r) == key]
    impls = list(dict.fromkeys(r["impl"] for r in sel))
    idle = lambda i: [float(r["seconds"]) for r in sel if r["impl"] == i and r["load"] == "idle"]
    sk = min(min(idle(i)) for i in impls if i.startswith("scikit") and idle(i))
    for i in impls:
        ri = [r for r in sel if r["impl"] == i]
        secs = idle(i)
        busy = [float(r["seconds"]) for r in ri if r["load"] == "busy"]
        best = min(secs) if secs else float("nan")
        steps = int(ri[0]["iterations"])
        n, d, k = (int(x) for x in key[2:5])
        gf = 2.0 * n * k * d * steps / best / 1e9 if secs else float("nan")
        print(f"| {key[0]} | {key[1]} | {n} | {d} | {k} | {i} | {steps} | {' / '.join(f'{s:.2f}' for s in secs)} | "
              f"{' / '.join(f'{s:.2f}' for s in busy) or '-'} | {float(ri[0]['sse']):.10g} | {ri[0]['same_labels_as_plain']} | "
              f"{sk / best:.2f} | {gf:.1f} |")
PY
mv "$out/kmeans_hard.md.tmp" "$out/kmeans_hard.md"
cat "$out/kmeans_hard.md"
