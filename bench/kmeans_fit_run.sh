#!/usr/bin/env bash
# kmeans_fit_run.sh -- full k-means fits from the same initial centers: ckm plain Lloyd,
# ckm bounded Lloyd (Yinyang + single-precision screen), scikit-learn lloyd and elkan, on
# the same data, side by side (bench/kmeans_fit.c, bench/sklearn_fit.py). Writes
# bench/results/kmeans_fit.csv and kmeans_fit.md. Shapes: "N D K SIGMA" (Gaussian blobs,
# centers uniform in [-10, 10]^D, noise sigma).
# usage: bench/kmeans_fit_run.sh [rounds]   (default 2 alternating rounds; ~2 min)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-2}
out=$root/bench/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! /usr/bin/python3 -c "import sklearn" 2>/dev/null; then
  echo "kmeans_fit_run.sh: installing python3-sklearn (Debian) for the comparison" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-sklearn >/dev/null
fi
csv=$tmp/kmeans_fit.csv
echo "round,impl,n,d,k,sigma,iterations,seconds,sse,same_labels_as_plain" >"$csv"
shapes=("1000000 16 100 1" "100000 128 1000 1" "100000 128 1000 4" "2000000 2 10 1")
for round in $(seq 1 "$rounds"); do
  for shape in "${shapes[@]}"; do
    set -- $shape
    "$root/build/bench/kmeans_fit" "$1" "$2" "$3" "$tmp/data" "$4" 2>/dev/null | sed "s/^\([^,]*\),\([^,]*,[^,]*,[^,]*\),/$round,\1,\2,$4,/" >>"$csv"
    /usr/bin/python3 "$root/bench/sklearn_fit.py" "$1" "$2" "$3" "$tmp/data" | sed "s/^\([^,]*\),\([^,]*,[^,]*,[^,]*\),/$round,\1,\2,$4,/" >>"$csv"
  done
done
cp "$csv" "$out/kmeans_fit.csv.tmp" && mv "$out/kmeans_fit.csv.tmp" "$out/kmeans_fit.csv"
/usr/bin/python3 - "$out/kmeans_fit.csv" "$rounds" >"$out/kmeans_fit.md.tmp" <<'EOF'
import csv, sys, datetime, os
rows = list(csv.DictReader(open(sys.argv[1])))
print(f"# k-means full fits from the same initial centers ({datetime.date.today()}, {os.cpu_count()} cores, {sys.argv[2]} rounds)")
print()
print("Gaussian blobs (centers uniform in [-10, 10]^d, noise sigma), k distinct data rows as initial centers, tol 1e-4,")
print("max_iter 300, one restart. Seconds: the fastest round. 'same labels': agreement with ckm's plain Lloyd.")
print()
print("| n | d | k | sigma | implementation | iterations | seconds | SSE | same labels | plain / this | fastest scikit-learn / this |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
shapes = []
for r in rows:
    key = (r["n"], r["d"], r["k"], r["sigma"])
    if key not in shapes:
        shapes.append(key)
for key in shapes:
    sel = [r for r in rows if (r["n"], r["d"], r["k"], r["sigma"]) == key]
    best = {}
    for r in sel:
        if r["impl"] not in best or float(r["seconds"]) < float(best[r["impl"]]["seconds"]):
            best[r["impl"]] = r
    plain = next(float(v["seconds"]) for i, v in best.items() if i.endswith("-plain"))
    sk = min(float(v["seconds"]) for i, v in best.items() if i.startswith("scikit"))
    for impl, r in best.items():
        t = float(r["seconds"])
        print(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {impl} | {r['iterations']} | {t:.3f} | {float(r['sse']):.10g} | "
              f"{r['same_labels_as_plain']} | {plain / t:.2f} | {sk / t:.2f} |")
EOF
mv "$out/kmeans_fit.md.tmp" "$out/kmeans_fit.md"
cat "$out/kmeans_fit.md"
