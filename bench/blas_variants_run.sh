#!/usr/bin/env bash
# blas_variants_run.sh [CKM] -- the BLAS thread pool on a busy machine (issue 32, item 3):
# ipc's SDP calls threaded LAPACK/BLAS (dsytrd, dsyrk, ...) from one thread, so OpenBLAS's
# own pool does the parallel work, and the library may not set its size (process-wide
# state of the host). This runs the same command,
#   ckm cluster data/iris.csv -k 3 -a ipc --balanced -j 0 -q
# (-j 0: both cores; the CLI then asks OpenBLAS for 2 threads, as an uncapped host on this
# machine gets by default) with each OpenBLAS build that Debian packages, chosen by
# LD_LIBRARY_PATH (libopenblas0-pthread, the default; -openmp; -serial: install them to
# compare), and with the caps a host or user has (OPENBLAS_NUM_THREADS=1, OMP_WAIT_POLICY,
# -j 1), on the idle machine and with two busy loops keeping both cores busy. Per run: wall,
# user and system seconds (/usr/bin/time), sched_yield calls (perf's syscall tracepoint,
# when perf can read it) and the bound, to show that the answer does not change.
# Writes bench/results/blas_variants.csv and .md. ROUNDS (default 2) repeats each run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ckm=${1:-$root/build/ckm}
work=${CKM_BENCH_WORK:-/tmp/ckm-blas-bench}
lib=/usr/lib/x86_64-linux-gnu
mkdir -p "$work" "$root/bench/results"
csv=$root/bench/results/blas_variants.csv
echo "variant,setting,load,round,wall_s,user_s,sys_s,sched_yield,bound" >"$csv"
count_yields=0
if perf stat -x, -e syscalls:sys_enter_sched_yield true 2>/dev/null; then count_yields=1; fi
hogs=()
stop_hogs() { for h in "${hogs[@]}"; do kill "$h" 2>/dev/null || true; done; hogs=(); }
trap stop_hogs EXIT
# variant|setting|environment (space-separated VAR=value)|extra ckm arguments
runs=(
  "pthread|default||"
  "pthread|OPENBLAS_NUM_THREADS=1|OPENBLAS_NUM_THREADS=1|"
  "pthread|-j 1||-j 1"
  "openmp|default||"
  "openmp|OMP_WAIT_POLICY=passive|OMP_WAIT_POLICY=passive|"
  "serial|default||"
)
for load in idle busy; do
  if [[ $load == busy ]]; then
    for _ in 1 2; do (while :; do :; done) & hogs+=($!); done
    sleep 1
  fi
  for round in $(seq 1 "${ROUNDS:-2}"); do
    for r in "${runs[@]}"; do
      IFS='|' read -r variant setting envs extra <<<"$r"
      [[ -d $lib/openblas-$variant ]] || { echo "skip $variant: $lib/openblas-$variant absent" >&2; continue; }
      read -r -a env_args <<<"LD_LIBRARY_PATH=$lib/openblas-$variant $envs"
      read -r -a extra_args <<<"$extra"
      cmd=("$ckm" cluster "$root/data/iris.csv" -k 3 -a ipc --balanced -j 0 "${extra_args[@]}" -q -r "$work/r.json")
      yields=
      if ((count_yields)); then
        env "${env_args[@]}" /usr/bin/time -f "%e %U %S" -o "$work/t" \
          perf stat -x, -o "$work/p" -e syscalls:sys_enter_sched_yield "${cmd[@]}" >/dev/null
        yields=$(grep sched_yield "$work/p" | cut -d, -f1)
      else
        env "${env_args[@]}" /usr/bin/time -f "%e %U %S" -o "$work/t" "${cmd[@]}" >/dev/null
      fi
      read -r e u s <"$work/t"
      bound=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('lower_bound',''))" "$work/r.json")
      echo "$variant,$setting,$load,$round,$e,$u,$s,$yields,$bound" >>"$csv"
    done
  done
  stop_hogs
done
/usr/bin/python3 - "$csv" "$root/bench/results/blas_variants.md" <<'EOF'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
keys = list(dict.fromkeys((r["variant"], r["setting"]) for r in rows))
out = ["| OpenBLAS | setting | idle: wall / user / sys (s) | both cores busy: wall / user / sys (s) | sched_yield calls idle / busy | bound |",
       "|---|---|---|---|---|---|"]
def cell(rs):
    if not rs: return "-"
    return " / ".join(f"{st.median(float(r[c]) for r in rs):.2f}" for c in ("wall_s", "user_s", "sys_s"))
def ys(rs):
    v = [int(r["sched_yield"]) for r in rs if r["sched_yield"]]
    return f"{int(st.median(v)):,}" if v else "-"
for v, s in keys:
    idle = [r for r in rows if (r["variant"], r["setting"], r["load"]) == (v, s, "idle")]
    busy = [r for r in rows if (r["variant"], r["setting"], r["load"]) == (v, s, "busy")]
    bounds = sorted({r["bound"] for r in idle + busy})
    out.append(f"| {v} | {s} | {cell(idle)} | {cell(busy)} | {ys(idle)} / {ys(busy)} | {', '.join(bounds)} |")
out.append(f"\nMedians of {max(int(r['round']) for r in rows)} rounds; all rounds in {sys.argv[1].split('/')[-1]}.")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
print("\n".join(out))
EOF
