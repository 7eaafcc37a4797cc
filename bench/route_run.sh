#!/usr/bin/env bash
# route_run.sh [SRC] -- sizeflow's transportation step by route (issue 55): the n x k matrix
# and its solver (transport.c) against pricing on candidate arcs (transport_points.c), on
# overlapping and separated blobs from n = 10^4 to 10^6 and k = 10 to 1000, so the default
# rule (the matrix only while n k <= 2^28 and k^3 <= 5 n, CKM_TRANSPORT_MATRIX_CUBE in
# src/transport/transport_types.h) reads against both routes' times.
# Builds SRC (default: this checkout) twice, Release, in $WORK/build-{cand,matrix}:
#   cand    -DCKM_TRANSPORT_MATRIX_CUBE=0: the candidate route always;
#   matrix  -DCKM_TRANSPORT_MATRIX_CUBE=10^18: the matrix while n k <= 2^28 (n k alone, the
#           rule before 2026-12-07; also the previous commit's behaviour, whose code is
#           otherwise the same).
# Each cell: ckm cluster PREFIX.npy -k K -a sizeflow --balanced --n-init 1 --seed 1
# --max-iter 20 -q with each build, the order alternating from round to round (ROUNDS,
# default 2); the labels of the two routes compared (the optimum is the same; a tie could
# differ). Data: data_kinds_gen.py's overlap and sep (10^6 x 16, 100 blobs, centers N(0, 1)
# or uniform in [-10, 10]) and overlap1000, sep1000 (1000 blobs), and their first n rows.
# CELLS="data:n:k ..." overrides the grid; SUMMARY_ONLY=1 rewrites the .md from the .csv. Writes bench/results/${NAME:-route}.csv and .md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "${1:-$root}" && pwd)
work=${CKM_BENCH_WORK:-/tmp/ckm-data-kinds}
mkdir -p "$work" "$root/bench/results"
/usr/bin/python3 "$root/bench/data_kinds_gen.py" "$work"
cells=${CELLS:-"overlap:10000:30 overlap:10000:50 overlap:10000:100
  overlap1000:100000:10 overlap1000:100000:30 overlap1000:100000:100 overlap1000:100000:150
  overlap1000:100000:300 overlap1000:100000:1000 sep1000:100000:300 sep1000:100000:1000
  overlap:1000000:50 overlap:1000000:100 overlap:1000000:200 overlap:1000000:250
  sep:1000000:100 sep:1000000:200 sep:1000000:250"}
out=$root/bench/results/${NAME:-route}
csv=$out.csv
if [[ -z ${SUMMARY_ONLY:-} ]]; then # SUMMARY_ONLY=1: only the markdown again, from the csv
for v in cand matrix; do
  cube=0
  [[ $v == matrix ]] && cube=1000000000000000000
  cmake -S "$src" -B "$work/build-$v" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF \
    "-DCMAKE_C_FLAGS=-DCKM_TRANSPORT_MATRIX_CUBE=$cube" >/dev/null
  cmake --build "$work/build-$v" -j2 --target ckm_cli >/dev/null
done
echo "round,route,data,n,k,wall_s,user_s,max_rss_mb,iterations,sse,status,labels_same" >"$csv"
declare -A line
for round in $(seq "${ROUNDS:-2}"); do
  order=(cand matrix)
  ((round % 2 == 0)) && order=(matrix cand)
  for cell in $cells; do
    IFS=: read -r data n k <<<"$cell"
    file=$work/$data.npy
    if ((n < 1000000)); then
      file=$work/${data}_$n.npy
      [[ -f $file ]] || /usr/bin/python3 -c "
import sys, numpy as np
np.save(sys.argv[2], np.ascontiguousarray(np.load(sys.argv[1], mmap_mode='r')[:int(sys.argv[3])]))" \
        "$work/$data.npy" "$file" "$n"
    fi
    for v in "${order[@]}"; do
      /usr/bin/time -f "%e %U %M" -o "$work/t" "$work/build-$v/ckm" cluster "$file" -k "$k" -a sizeflow \
        --balanced --n-init 1 --seed 1 --max-iter 20 -q -r "$work/r_$v.json" -o "$work/l_$v.txt" || true
      read -r e u m <"$work/t"
      read -r it sse st < <(/usr/bin/python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
print(r['iterations'], r['sse'], r['status'])" "$work/r_$v.json")
      line[$v]="$round,$v,$data,$n,$k,$e,$u,$((m / 1024)),$it,$sse,$st"
    done
    same=no
    cmp -s "$work/l_cand.txt" "$work/l_matrix.txt" && same=yes
    echo "${line[cand]},$same" >>"$csv"
    echo "${line[matrix]},$same" >>"$csv"
  done
done
fi
/usr/bin/python3 - "$csv" "$out.md" "$src/src/transport/transport_types.h" <<'PY'
import csv, datetime, os, re, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# the default rule's constant, read from the source it describes
cube = int(re.search(r"#define CKM_TRANSPORT_MATRIX_CUBE \(\(size_t\)(\d+)\)", open(sys.argv[3]).read()).group(1))
cells = {}
for r in rows:
    cells.setdefault((r["data"], int(r["n"]), int(r["k"])), {}).setdefault(r["route"], []).append(r)
with open(sys.argv[2], "w") as f:
    f.write(f"# sizeflow's step by route ({datetime.date.today()}, {os.cpu_count()} cores; bench/route_run.sh)\n\n")
    f.write("balanced, --max-iter 20, one row per cell: the median wall time over the rounds (each round's in brackets), "
            f"peak RSS, and the route the default rule takes (matrix while n k <= 2^28 and k^3 <= {cube} n)\n\n")
    f.write("| data | n | k | candidates s | matrix s | matrix / candidates | MB cand / matrix | default | "
            "iterations | same labels |\n|---|---|---|---|---|---|---|---|---|---|\n")
    for (data, n, k), by in cells.items():
        c, m = by["cand"], by["matrix"]
        tc = statistics.median(float(r["wall_s"]) for r in c)
        tm = statistics.median(float(r["wall_s"]) for r in m)
        default = "matrix" if n * k <= 1 << 28 and k ** 3 <= cube * n else "candidates"
        f.write(f"| {data} | {n} | {k} | {tc:.2f} ({', '.join(r['wall_s'] for r in c)}) | "
                f"{tm:.2f} ({', '.join(r['wall_s'] for r in m)}) | {tm / tc:.2f} | "
                f"{max(int(r['max_rss_mb']) for r in c)} / {max(int(r['max_rss_mb']) for r in m)} | {default} | "
                f"{c[0]['iterations']} | {'yes' if all(r['labels_same'] == 'yes' for r in c) else 'no'} |\n")
PY
echo "wrote $csv and $out.md"
