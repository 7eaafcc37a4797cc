#!/usr/bin/env bash
# blas_variants_run.sh [CKM [IPC_HOST]] -- the BLAS thread pool on a busy machine (issue 32,
# item 3): ipc's SDP calls LAPACK/BLAS (dsytrd, dsyrk, ...), with two of ckm's threads each
# taking half of the projection's eigenvectors, and the library may not size OpenBLAS's pool
# (process-wide state of the host). Two programs run ipc on data/iris.csv, k = 3, balanced:
#   host  bench/ipc_host (build/bench/ipc_host): the public API with settings.threads = 0 and
#         OpenBLAS left alone, as an embedding host that never heard of OpenBLAS
#   cli   ckm cluster data/iris.csv -k 3 -a ipc --balanced -j 0 (the CLI caps OpenBLAS at one
#         thread for ipc and exact since e81c62d+1; before, -j 0 left it at the core count)
# with each OpenBLAS build that Debian packages, chosen by LD_LIBRARY_PATH (libopenblas0-
# pthread, the default; -openmp; -serial: install them to compare) and the settings a user
# has (OPENBLAS_NUM_THREADS=1, OMP_WAIT_POLICY=passive), on the idle machine and with two busy
# loops keeping both cores busy. Per run: wall, user and system seconds (/usr/bin/time),
# sched_yield calls (perf's syscall tracepoint, when perf can read it) and the bound, to show
# that the answer does not change. Writes bench/results/blas_variants.csv and .md. ROUNDS
# (default 2) repeats each run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:-$root/build/ckm}
host=${2:-$(dirname "$ckm")/bench/ipc_host}
work=${CKM_BENCH_WORK:-/tmp/ckm-blas-bench}
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$work" "$root/bench/results"
csv=$root/bench/results/blas_variants.csv
echo "program,variant,setting,load,round,wall_s,user_s,sys_s,sched_yield,bound" >"$csv"
count_yields=0
if perf stat -x, -e syscalls:sys_enter_sched_yield true 2>/dev/null; then count_yields=1; fi
hogs=()
stop_hogs() { for h in "${hogs[@]}"; do kill "$h" 2>/dev/null || true; done; hogs=(); }
trap stop_hogs EXIT
# program|variant|setting|environment (space-separated VAR=value)
runs=(
  "host|pthread|default|"
  "host|pthread|OPENBLAS_NUM_THREADS=1|OPENBLAS_NUM_THREADS=1"
  "host|openmp|default|"
  "host|openmp|OMP_WAIT_POLICY=passive|OMP_WAIT_POLICY=passive"
  "host|serial|default|"
  "cli|pthread|default|"
)
for load in idle busy; do
  if [[ $load == busy ]]; then
    for _ in 1 2; do (while :; do :; done) & hogs+=($!); done
    sleep 1
  fi
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for r in "${runs[@]}"; do
      IFS='|' read -r prog variant setting envs <<<"$r"
      [[ -d $lib/openblas-$variant ]] || { echo "skip $variant: $lib/openblas-$variant absent" >&2; continue; }
      read -r -a env_args <<<"LD_LIBRARY_PATH=$lib/openblas-$variant $envs"
      if [[ $prog == host ]]; then
        cmd=("$host" "$root/data/iris.csv" 3 0)
      else
        cmd=("$ckm" cluster "$root/data/iris.csv" -k 3 -a ipc --balanced -j 0 -q -r "$work/r.json")
      fi
      yields=
      if ((count_yields)); then
        env "${env_args[@]}" /usr/bin/time -f "%e %U %S" -o "$work/t" \
          perf stat -x, -o "$work/p" -e syscalls:sys_enter_sched_yield "${cmd[@]}" >"$work/out"
        yields=$(grep sched_yield "$work/p" | cut -d, -f1)
      else
        env "${env_args[@]}" /usr/bin/time -f "%e %U %S" -o "$work/t" "${cmd[@]}" >"$work/out"
      fi
      read -r e u s <"$work/t"
      if [[ $prog == host ]]; then
        bound=$(cut -d, -f2 "$work/out")
      else
        bound=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('lower_bound',''))" "$work/r.json")
      fi
      echo "$prog,$variant,$setting,$load,$round,$e,$u,$s,$yields,$bound" >>"$csv"
    done
  done
  stop_hogs
done
/usr/bin/python3 - "$csv" "$root/bench/results/blas_variants.md" <<'EOF'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
keys = list(dict.fromkeys((r["program"], r["variant"], r["setting"]) for r in rows))
out = ["| program | OpenBLAS | setting | idle: wall / user / sys (s) | both cores busy: wall / user / sys (s) | sched_yield calls idle / busy | bound |",
       "|---|---|---|---|---|---|---|"]
def cell(rs):
    if not rs: return "-"
    return " / ".join(f"{st.median(float(r[c]) for r in rs):.2f}" for c in ("wall_s", "user_s", "sys_s"))
def ys(rs):
    v = [int(r["sched_yield"]) for r in rs if r["sched_yield"]]
    return f"{int(st.median(v)):,}" if v else "-"
for p, v, s in keys:
    idle = [r for r in rows if (r["program"], r["variant"], r["setting"], r["load"]) == (p, v, s, "idle")]
    busy = [r for r in rows if (r["program"], r["variant"], r["setting"], r["load"]) == (p, v, s, "busy")]
    bounds = sorted({r["bound"] for r in idle + busy})
    out.append(f"| {p} | {v} | {s} | {cell(idle)} | {cell(busy)} | {ys(idle)} / {ys(busy)} | {', '.join(bounds)} |")
out.append(f"\nMedians of {max(int(r['round']) for r in rows)} rounds; all rounds in {sys.argv[1].split('/')[-1]}.")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
