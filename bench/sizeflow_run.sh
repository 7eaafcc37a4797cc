#!/usr/bin/env bash
# sizeflow_run.sh -- size-constrained k-means benchmarks (see bench/sizeflow.c).
# Writes bench/results/sizeflow_{check,scale,clp,le}.csv and bench/results/sizeflow.md.
# usage: bench/sizeflow_run.sh [quick|le]   (quick: skips n = 10^6 and the CLP timing;
#        le: reruns only part (c) and re-renders the summary from the existing CSVs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b=$root/build/bench/sizeflow_bench
out=$root/bench/results
mkdir -p "$out"
quick=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "$quick" = le ]; then
  for f in check scale clp; do cp "$out/sizeflow_$f.csv" "$tmp/$f.csv"; done
else
echo "n,k,objective_transport,objective_clp,rel_diff,s_transport,s_clp" >"$tmp/check.csv"
for spec in "1000 3" "2000 5" "5000 10" "10000 20" "20000 10" "20000 50"; do
  set -- $spec
  for seed in 1 2 3; do "$b" check "$1" "$2" "$seed" >>"$tmp/check.csv"; done
done

echo "n,d,k,bounds,s_assign_step,s_run,iterations,sse,peak_rss_mb" >"$tmp/scale.csv"
sizes="100000"
[ "$quick" = quick ] || sizes="100000 1000000"
for n in $sizes; do
  for k in 10 50 100; do
    for bounds in balanced ragged; do
      "$b" scale "$n" 16 "$k" "$bounds" >>"$tmp/scale.csv"
    done
  done
done

echo "n,d,k,s_transport,s_clp,speedup,rel_diff" >"$tmp/clp.csv"
if [ "$quick" != quick ]; then
  "$b" clp 100000 16 50 >>"$tmp/clp.csv"
fi
fi

echo "k,sigma,algorithm,sse,nmi,seconds" >"$tmp/le.csv"
for sigma in 0.1 0.5 0.7; do
  for k in 5 10 20 50; do
    "$b" le 500 512 "$k" "$sigma" 1 >>"$tmp/le.csv"
  done
done

for f in check scale clp le; do
  cp "$tmp/$f.csv" "$out/sizeflow_$f.csv.tmp" && mv "$out/sizeflow_$f.csv.tmp" "$out/sizeflow_$f.csv"
done
python3 - "$out" >"$out/sizeflow.md.tmp" <<'PY'
import csv, sys
out = sys.argv[1]
def rows(name):
    return list(csv.DictReader(open(f"{out}/sizeflow_{name}.csv")))
print("# Size-constrained k-means benchmarks (bench/sizeflow_run.sh)\n")
print("## (a) transportation solver vs CLP: optimal objective\n")
print("| n | k | max relative difference (3 seeds) | transport s | CLP s |")
print("|---|---|---|---|---|")
by = {}
for r in rows("check"):
    by.setdefault((r["n"], r["k"]), []).append(r)
for (n, k), rs in by.items():
    print(f"| {n} | {k} | {max(float(r['rel_diff']) for r in rs):.1e} | "
          f"{sum(float(r['s_transport']) for r in rs)/len(rs):.4f} | {sum(float(r['s_clp']) for r in rs)/len(rs):.3f} |")
print("\n## (b) scale: Gaussian blobs, d = 16 (one assignment step from random centers; whole run, n_init 1)\n")
print("| n | k | bounds | one assignment step s | sizeflow run s | iterations | peak RSS MB |")
print("|---|---|---|---|---|---|---|")
for r in rows("scale"):
    print(f"| {r['n']} | {r['k']} | {r['bounds']} | {r['s_assign_step']} | {r['s_run']} | {r['iterations']} | {r['peak_rss_mb']} |")
c = rows("clp")
if c:
    print("\n## CLP on the same assignment step (balanced, n = 10^5, k = 50)\n")
    print("| n | k | transport s | CLP s | speedup | relative objective difference |")
    print("|---|---|---|---|---|---|")
    for r in c:
        print(f"| {r['n']} | {r['k']} | {r['s_transport']} | {r['s_clp']} | {r['speedup']}x | {r['rel_diff']} |")
print("\n## (c) Le et al. synthetic (N = 500, d = 512, equal clusters, noise covariance sigma I, balanced bounds): kmeans vs sizeflow\n")
print("| sigma | k | kmeans SSE | kmeans NMI | sizeflow SSE | sizeflow NMI |")
print("|---|---|---|---|---|---|")
le = {}
for r in rows("le"):
    le.setdefault((r["sigma"], r["k"]), {})[r["algorithm"]] = r
for (s, k), d in le.items():
    print(f"| {s} | {k} | {float(d['kmeans']['sse']):.2f} | {float(d['kmeans']['nmi']):.3f} | "
          f"{float(d['sizeflow']['sse']):.2f} | {float(d['sizeflow']['nmi']):.3f} |")
PY
mv "$out/sizeflow.md.tmp" "$out/sizeflow.md"
cat "$out/sizeflow.md"
