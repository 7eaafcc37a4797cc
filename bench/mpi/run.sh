#!/usr/bin/env bash
# run.sh -- the MPI mode's scaling on this machine (docs/mpi.md): kmeans and sizeflow
# (balanced), 1, 2 and 4 ranks, one thread each (4 ranks on a 2-core machine are
# oversubscribed: 2 ranks per core), strong scaling (the same 10^6 x 16 points, k = 100)
# and weak scaling (rows per rank fixed), plus the single-process tool on the same points.
# Builds build-mpi (Release, -DCKM_MPI=ON) itself; needs Open MPI and python3-numpy.
# Writes bench/results/mpi_scaling.csv and mpi.md (summary; figures of the 10^9 model).
# usage: bash bench/mpi/run.sh [ROWS_STRONG=1000000] [ROWS_PER_RANK_KMEANS=500000] [ROWS_PER_RANK_SIZEFLOW=250000]
# KIND=overlap (environment): centers N(0, 1) instead of N(0, 3^2) (issue 33's overlapping
# recipe: many more Lloyd steps); strong scaling from seeds only, into mpi_scaling_overlap.csv
# and mpi_overlap.md. ALGOS="sizeflow" and RANKS="0 1 2" (environment) run only those
# algorithms and rank counts (0: the single-process tool).
# OLD=path (environment): an older build's ckm (built with -DCKM_MPI=ON) runs every case right
# after this build's, into mpi_scaling<tag>_<OLD_LABEL>.csv, and the summary shows both.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
strong=${1:-1000000}
weak_km=${2:-500000}
weak_sf=${3:-250000}
out=$root/bench/results
kind=${KIND:-sep}
case $kind in sep) spread=3; tag= ;; overlap) spread=1; tag=_overlap ;; *) echo "KIND must be sep or overlap" >&2; exit 2 ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ckm-mpi-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
cmake -S "$root" -B "$root/build-mpi" -DCMAKE_BUILD_TYPE=Release -DCKM_MPI=ON -DCKM_BUILD_TESTS=OFF \
  -DCKM_BUILD_BENCH=OFF >/dev/null
cmake --build "$root/build-mpi" -j "$(nproc)" >/dev/null
ckm=$root/build-mpi/ckm
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1
# blobs: 100 centers N(0, spread^2) in 16 dimensions (spread 3, or 1 for KIND=overlap), unit
# noise, rows in random order
"${PYTHON:-/usr/bin/python3}" - "$tmp" "$strong" "$weak_km" "$weak_sf" "$spread" <<'PY'
import sys, numpy as np
d, sizes = sys.argv[1], sorted({int(sys.argv[2]), *(int(sys.argv[3]) * r for r in (1, 2, 4)),
                                 *(int(sys.argv[4]) * r for r in (1, 2, 4))})
rng = np.random.default_rng(19)
C = rng.normal(size=(100, 16)) * float(sys.argv[5])
for n in sizes:
    lab = rng.integers(0, 100, size=n)
    np.save(f"{d}/x{n}.npy", C[lab] + rng.normal(size=(n, 16)))
    np.savetxt(f"{d}/c{n}.csv", np.load(f"{d}/x{n}.npy", mmap_mode="r")[:100], delimiter=",")
PY
old=${OLD:-}
old_label=${OLD_LABEL:-old}
new_ckm=$ckm
csv_new=$out/mpi_scaling$tag.csv.tmp
csv_old=$out/mpi_scaling${tag}_$old_label.csv.tmp
header="algorithm,scaling,ranks,n,k,start,seconds,iterations,lloyd_steps,allreduces,bytes_rank0,comm_seconds_rank0,ssp_phases,augmentations,sample_starts,sse"
echo "$header" >"$csv_new"
[ -n "$old" ] && echo "$header" >"$csv_old"
one() { # ALGO SCALING RANKS N START: this build's run, then OLD's
  ckm=$new_ckm csv=$csv_new one_bin "$@"
  if [ -n "$old" ]; then ckm=$old csv=$csv_old one_bin "$@"; fi
}
one_bin() { # one_bin ALGO SCALING RANKS N START(seeded|centers), with $ckm into $csv
  local algo=$1 scaling=$2 ranks=$3 n=$4 start=$5 extra="" rep=$tmp/r.json
  [ "$algo" = sizeflow ] && extra="--balanced"
  [ "$start" = centers ] && extra="$extra --init-centers $tmp/c$n.csv"
  if [ "$ranks" = 0 ]; then # the single-process tool (no MPI): seconds from its report
    /usr/bin/time -f "%e" -o "$tmp/t" "$ckm" cluster "$tmp/x$n.npy" -k 100 -a "$algo" $extra -j 1 --seed 1 --n-init 1 \
      -q -r "$rep"
    "${PYTHON:-/usr/bin/python3}" - "$rep" "$algo" "$scaling" "$n" "$start" >>"$csv" <<'PY'
import sys, json
r = json.load(open(sys.argv[1]))
print(f"{sys.argv[2]},{sys.argv[3]},0,{sys.argv[4]},100,{sys.argv[5]},{r['timings']['total']:.3f},{r['iterations']},,,,,,,,{r['sse']:.10g}")
PY
  else
    mpirun -np "$ranks" "$ckm" cluster "$tmp/x$n.npy" -k 100 -a "$algo" $extra -j 1 --seed 1 --n-init 1 -q -r "$rep"
    "${PYTHON:-/usr/bin/python3}" - "$rep" "$scaling" "$start" >>"$csv" <<'PY'
import sys, json
r = json.load(open(sys.argv[1]))
print(f"{r['algorithm']},{sys.argv[2]},{r['mpi_ranks']},{r['n']},{r['k']},{sys.argv[3]},{r['seconds']:.3f},{r['iterations']},"
      f"{r['lloyd_steps']},{r['allreduces']},{r['bytes_rank0']},{r['comm_seconds_rank0']:.3f},{r['ssp_phases']},"
      f"{r['augmentations']},{r['sample_starts']},{r['sse']:.10g}")
PY
  fi
}
starts="seeded centers"
[ "$kind" = overlap ] && starts=seeded
for algo in ${ALGOS:-kmeans sizeflow}; do
  for start in $starts; do
    for ranks in ${RANKS:-0 1 2 4}; do one $algo strong $ranks "$strong" $start; done
  done
done
if [ "$kind" = sep ] && [ -z "${ALGOS:-}${RANKS:-}" ]; then
  for ranks in 1 2 4; do
    one kmeans weak $ranks $((weak_km * ranks)) seeded
    one sizeflow weak $ranks $((weak_sf * ranks)) seeded
  done
fi
mv "$csv_new" "$out/mpi_scaling$tag.csv"
olds=()
if [ -n "$old" ]; then
  mv "$csv_old" "$out/mpi_scaling${tag}_$old_label.csv"
  olds=("$out/mpi_scaling${tag}_$old_label.csv" "$old_label")
fi
CKM_LABEL=$(git -C "$root" describe --always --dirty=+) \
  "${PYTHON:-/usr/bin/python3}" "$root/bench/mpi/summarize.py" "$out/mpi_scaling$tag.csv" "${olds[@]}" >"$out/mpi$tag.md.tmp"
mv "$out/mpi$tag.md.tmp" "$out/mpi$tag.md"
cat "$out/mpi$tag.md"
