#!/usr/bin/env bash
# run_exact.sh -- the branch-and-cut (`exact`) on the PC-SOS-SDP instances (bench/pcsos/pcsos_exact.c), next
# to the paper's per-instance f, nodes and seconds (Appendix B). Needs ../shared/data and a Release
# build (cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build; BUILD=DIR for another).
# usage: bash bench/pcsos/run_exact.sh [DATASETS] [SETTINGS] [REPLICATES] [TIME_LIMIT_S] [NODE_LIMIT] [THREADS]
#   defaults: iris,wine,connectionist,seeds,glass,iris-sizes  all  0,1,2,3,4  3600  0  2
# OpenBLAS runs one thread per node worker. Writes bench/results/pcsos_exact.csv and .md (the CSV
# grows row by row, so a long run can be watched or resumed by instance); exit 3 on a wrong result.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$root/../shared/data}
out=$root/bench/results
csv=${CSV:-$out/pcsos_exact.csv}
build=${BUILD:-$root/build}
mkdir -p "$out"
rc=0
OPENBLAS_NUM_THREADS=1 "$build/bench/pcsos_exact" "$shared" "${1:-iris,wine,connectionist,seeds,glass,iris-sizes}" \
  "${2:-all}" "${3:-0,1,2,3,4}" "${4:-3600}" "${5:-0}" "${6:-2}" >"$csv.tmp" || rc=$?
mv "$csv.tmp" "$csv"
python3 "$root/bench/pcsos/summarize_exact.py" "$csv" >"${csv%.csv}.md.tmp" || rc=$?
mv "${csv%.csv}.md.tmp" "${csv%.csv}.md"
cat "${csv%.csv}.md"
exit $rc
