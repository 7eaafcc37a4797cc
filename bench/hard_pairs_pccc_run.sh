#!/usr/bin/env bash
# hard_pairs_pccc_run.sh [CKM [OLD_CKM]] -- issue 37's PCCC-scale hard instance: 60,000 x 20
# Gaussian blobs (k = 100, sd 1.5, centers uniform in [-10, 10]^20), 10^6 cannot-links and
# 10^4 must-links drawn from the truth (distinct pairs), sizes +-10 % of n / k (540-660);
# blpkm with one restart. Per binary (this build, and OLD_CKM in the same run when given,
# named by OLD_LABEL): exit code, wall time, peak RSS (/usr/bin/time -v), the memory model's
# estimate (the -vv log, plus 8 n d for the problem's copy it leaves out), SSE, violated constraints (the checker), and per Lloyd step its
# seconds and how it was solved (the -vv log). Writes bench/results/hard_pairs_pccc.csv
# (code,step,seconds,how; step "total": the wall time) and bench/results/hard_pairs_pccc.md
# (with N set: hard_pairs_pccc_N.*).
# Data: generated here (numpy, seed 3737) into CKM_BENCH_WORK (default /tmp/ckm-pccc-scale),
# named by n, d and the pair counts (and k when it is not 100).
# N, D, K, NCL, NML override the sizes (MIN/MAX sizes follow as +-10 % of N / K; BALANCED=1:
# --balanced instead). TIMEOUT (seconds, default 3600) ends a run that takes longer (exit 124).
# ALGO: another algorithm than blpkm (results named with it); EXTRA: more options for both runs
# (unquoted, for example "--max-iter 4").
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/time_v.sh"
ckm=${1:-$root/build/ckm}
old=${2:-}
n=${N:-60000} d=${D:-20} k=${K:-100} ncl=${NCL:-1000000} nml=${NML:-10000}
work=${CKM_BENCH_WORK:-/tmp/ckm-pccc-scale}
kt=$([[ $k == 100 ]] || echo "_k$k") # data and results named by k too when it is not 100
mkdir -p "$work" "$root/bench/results"
if [[ ! -s $work/cons_${n}_${d}_${ncl}_${nml}${kt}.txt ]]; then
  /usr/bin/python3 - "$work" "$n" "$d" "$k" "$ncl" "$nml" "$kt" <<'PY'
import sys, numpy as np
w = sys.argv[1]; n, d, k, ncl, nml = (int(v) for v in sys.argv[2:7]); kt = sys.argv[7]
rng = np.random.default_rng(3737)
C = rng.uniform(-10, 10, (k, d)); y = rng.integers(0, k, n)
np.save("%s/X_%d_%d%s.npy" % (w, n, d, kt), C[y] + rng.normal(0, 1.5, (n, d)))
def draw(m, same):
    out = set()
    while len(out) < m:
        i = rng.integers(0, n, 2 * m); j = rng.integers(0, n, 2 * m)
        ok = (i != j) & ((y[i] == y[j]) == same)
        for p in zip(np.minimum(i[ok], j[ok]).tolist(), np.maximum(i[ok], j[ok]).tolist()):
            out.add(p)
            if len(out) >= m:
                break
    return sorted(out)
ml, cl = draw(nml, True), draw(ncl, False)
with open("%s/cons_%d_%d_%d_%d%s.txt" % (w, n, d, ncl, nml, kt), "w") as f:
    f.writelines("ML %d %d\n" % p for p in ml)
    f.writelines("CL %d %d\n" % p for p in cl)
PY
fi
X=$work/X_${n}_${d}${kt}.npy cons=$work/cons_${n}_${d}_${ncl}_${nml}${kt}.txt
lo=$((n / k - n / k / 10)) hi=$((n / k + n / k / 10))
sizes=(--min-size $lo --max-size $hi)
if [[ ${BALANCED:-0} == 1 ]]; then sizes=(--balanced); lo=$((n / k)) hi=$(((n + k - 1) / k)); fi
algo=${ALGO:-blpkm}
name=hard_pairs_pccc${N:+_${n}}${kt}${ALGO:+_$algo}
csv=$root/bench/results/$name.csv md=$root/bench/results/$name.md
echo "code,step,seconds,how" >"$csv"
bins=("$ckm"); labels=("$(git -C "$root" describe --always --dirty=+)")
if [[ -n $old ]]; then bins+=("$old"); labels+=("${OLD_LABEL:-old}"); fi
{
  echo "n = $n, d = $d, k = $k, $ncl cannot-links, $nml must-links, sizes $lo-$hi, $algo --n-init 1 ${EXTRA:-}"
  echo
  echo "| code | exit | wall s | peak RSS MB | model estimate MB | SSE | violated | steps (seconds, how) |"
  echo "|---|---|---|---|---|---|---|---|"
} >"$md.tmp"
for b in "${!bins[@]}"; do
  lab=${labels[$b]}
  set +e
  /usr/bin/time -v timeout "${TIMEOUT:-3600}" "${bins[$b]}" cluster "$X" -k "$k" -a "$algo" -c "$cons" "${sizes[@]}" --n-init 1 ${EXTRA:-} -vv \
    -o "$work/labels_$b.txt" >"$work/out_$b.txt" 2>"$work/log_$b.txt"
  code=$?
  set -e
  wall=$(tv_wall "$work/log_$b.txt")
  rss=$(tv_peak_mb "$work/log_$b.txt")
  est=$(grep -oE "memory model: about [0-9]+ MB" "$work/log_$b.txt" | awk -v nd=$((n * d)) '{printf "%.0f", $4 + 8 * nd / 1048576}' || true)
  sse=$(grep -E "^  SSE" "$work/out_$b.txt" | awk '{print $2}' || true)
  viol=$(grep -E "^  violated" "$work/out_$b.txt" | awk '{print $2}' || true)
  steps=""
  while IFS= read -r line; do
    sec=$(sed -E 's/.*\((LP integral|CBC|local search), ([0-9.]+) s.*/\2/' <<<"$line")
    how=$(sed -E 's/.*\((LP integral|CBC|local search), .*/\1/' <<<"$line")
    i=$(sed -E 's/.*iter ([0-9]+):.*/\1/' <<<"$line")
    echo "$lab,$i,$sec,$how" >>"$csv"
    steps+="$sec ($how) / "
  done < <(grep -E "restart 1 iter [0-9]+: assignment total" "$work/log_$b.txt" || true)
  echo "$lab,total,$wall," >>"$csv"
  [[ $code -eq 124 ]] && steps="ended by the timeout (${TIMEOUT:-3600} s) after: ${steps:-no step}"
  [[ $code -ne 0 && $code -ne 124 ]] && steps="$(grep -m1 -E "error|would need" "$work/log_$b.txt" | cut -c1-160 || true)"
  printf '| %s | %d | %s | %s | %s | %s | %s | %s |\n' "$lab" "$code" "$wall" "$rss" "${est:--}" "${sse:--}" "${viol:--}" \
    "${steps% / }" >>"$md.tmp"
done
mv "$md.tmp" "$md"
cat "$md"
