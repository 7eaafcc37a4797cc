#!/usr/bin/env bash
# compose_run.sh [CKM] -- issue 51: do the constraints compose at scale? blpkm (one k-means++
# restart, --n-init 1 --init kmeans++, the default 2 s step limit, --time-limit TL) on
# bench/compose.py's data: 10^5 x 8, k = 20 Gaussian blobs (sd 2), 2 x 10^4 cannot-links and
# 2000 must-links from the truth, log-normal demands with capacities +-5 % of the mean load,
# 7000 soft pairs (10 % of them wrong). Variants: pairs alone, capacities alone, both; soft
# pairs alone, the same pairs hard (softhard: issue 55's yardstick for the soft step), soft
# pairs with capacities, soft pairs beside the hard ones (mixed), soft pairs with cluster sizes
# 4000-6000 (softsizes), the mixed pairs with those sizes (mixedsizes); VARIANTS="soft softhard" runs only those. The build of commit OLD (default 31d69a2, the tree
# before issue 51; built here in a worktree) runs beside CKM (default build/ckm) in the same
# run: rounds alternate which goes first, and the last round has one core kept busy by
# another process (a busy machine). Per run: wall time, peak RSS (/usr/bin/time -v), exit,
# status, steps (proven / cut at the step limit), SSE, objective (SSE + soft penalty), the
# checker's verdict. KIND=overlap: the blobs with sd 5 (heavily overlapping; data in d5o,
# results in compose_overlap.csv / .md). BIG=1 adds 10^6 x 16, k = 100, 10^5 cannot-links with capacities
# (CKM only: OLD did not finish a step there in TL_BIG, default 600 s).
# Writes bench/results/compose.csv and compose.md (NAME=x: x.csv, x.md); data and builds in CKM_BENCH_WORK
# (default /tmp/ckm-compose).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/time_v.sh"
new=$(realpath "${1:-$root/build/ckm}")
old_rev=${OLD:-31d69a2}
work=${CKM_BENCH_WORK:-/tmp/ckm-compose}
tl=${TL:-300}
rounds=${ROUNDS:-3}
mkdir -p "$work" "$root/bench/results"
if [[ ! -x $work/old/ckm ]]; then
  git -C "$root" worktree add --detach -f "$work/oldsrc" "$old_rev" >/dev/null 2>&1
  cmake -S "$work/oldsrc" -B "$work/old" -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF -DCKM_BUILD_BENCH=OFF >/dev/null
  cmake --build "$work/old" -j "$(nproc)" --target ckm_cli >/dev/null
  git -C "$root" worktree remove --force "$work/oldsrc"
fi
old=$work/old/ckm
kind=${KIND:-separated}
case $kind in
  separated) d5=$work/d5 sd=2 name=compose ;;
  overlap) d5=$work/d5o sd=5 name=compose_overlap ;;
  *) echo "KIND is separated or overlap" >&2; exit 2 ;;
esac
read -r lo hi < <(/usr/bin/python3 "$root/bench/compose.py" "$d5" 100000 8 20 20000 2000 7000 51 "$sd")
name=${NAME:-$name} # results under another name (a run of some VARIANTS)
awk '{print $1, $2, $3}' "$d5/soft.txt" >"$d5/softhard.txt" # the soft pairs without their confidences: hard
cat "$d5/hard.txt" "$d5/soft.txt" >"$d5/mixed.txt"             # hard and soft pairs in one file
csv=$root/bench/results/$name.csv md=$root/bench/results/$name.md
echo "variant,build,round,busy,exit,wall_s,peak_mb,steps,cut,sse,objective,check" >"$csv.tmp"
# one run: variant build round busy
one() {
  local v=$1 b=$2 rd=$3 busy=$4 bin extra=()
  bin=$([[ $b == new ]] && echo "$new" || echo "$old")
  case $v in
    pairs) extra=(-c "$d5/hard.txt") ;;
    caps) extra=(--demands "$d5/q.txt" --min-capacity "$lo" --max-capacity "$hi") ;;
    both) extra=(-c "$d5/hard.txt" --demands "$d5/q.txt" --min-capacity "$lo" --max-capacity "$hi") ;;
    soft) extra=(-c "$d5/soft.txt") ;;
    softhard) extra=(-c "$d5/softhard.txt") ;;
    softcaps) extra=(-c "$d5/soft.txt" --demands "$d5/q.txt" --min-capacity "$lo" --max-capacity "$hi") ;;
    mixed) extra=(-c "$d5/mixed.txt") ;;
    softsizes) extra=(-c "$d5/soft.txt" --min-size 4000 --max-size 6000) ;;
    mixedsizes) extra=(-c "$d5/mixed.txt" --min-size 4000 --max-size 6000) ;;
  esac
  local tag=$work/${kind}_${v}_${b}_$rd
  set +e
  /usr/bin/time -v "$bin" cluster "$d5/X.npy" -k 20 -a blpkm --n-init 1 --init kmeans++ -t "$tl" "${extra[@]}" -vv \
    -o "$tag.lab" -r "$tag.json" >"$tag.out" 2>"$tag.log"
  local code=$? chk=-
  if [[ $code == 0 ]]; then # the independent checker on the labels written (soft pairs: paid, not violations)
    "$new" check "$d5/X.npy" --labels "$tag.lab" -k 20 "${extra[@]}" >/dev/null 2>&1 && chk=ok || chk="exit $?"
  fi
  set -e
  local steps cut sse obj
  steps=$(grep -c "assignment total" "$tag.log" || true)
  cut=$(grep -oE "[0-9]+ stopped at the step limit" "$tag.out" | awk '{print $1}' || true)
  sse=$(awk '/^  SSE/ {print $2}' "$tag.out")
  obj=$(/usr/bin/python3 -c "import json; print(json.load(open('$tag.json'))['objective'])" 2>/dev/null || echo -)
  echo "$v,$b,$rd,$busy,$code,$(tv_wall "$tag.log"),$(tv_peak_mb "$tag.log"),$steps,${cut:-0},${sse:--},$obj,$chk" \
    >>"$csv.tmp"
}
for rd in $(seq 1 "$rounds"); do
  busy=0
  hog=
  if [[ $rd == "$rounds" && $rounds -gt 1 ]]; then # the last round on a busy machine
    busy=1
    (while :; do :; done) &
    hog=$!
  fi
  for v in ${VARIANTS:-pairs caps both soft softhard softcaps}; do
    if ((rd % 2)); then one $v new "$rd" $busy; one $v old "$rd" $busy; else one $v old "$rd" $busy; one $v new "$rd" $busy; fi
  done
  [[ -n $hog ]] && kill "$hog"
done
if [[ ${BIG:-0} == 1 ]]; then
  d6=$work/d6
  read -r blo bhi < <(/usr/bin/python3 "$root/bench/compose.py" "$d6" 1000000 16 100 100000 0 0 61)
  tag=$work/big_new
  set +e
  /usr/bin/time -v "$new" cluster "$d6/X.npy" -k 100 -a blpkm --n-init 1 --init kmeans++ -t "${TL_BIG:-600}" \
    -c "$d6/hard.txt" --demands "$d6/q.txt" --min-capacity "$blo" --max-capacity "$bhi" -vv -o "$tag.lab" -r "$tag.json" \
    >"$tag.out" 2>"$tag.log"
  code=$?
  "$new" check "$d6/X.npy" --labels "$tag.lab" -k 100 -c "$d6/hard.txt" --demands "$d6/q.txt" --min-capacity "$blo" \
    --max-capacity "$bhi" >/dev/null 2>&1 && chk=ok || chk="exit $?"
  set -e
  echo "big,new,1,0,$code,$(tv_wall "$tag.log"),$(tv_peak_mb "$tag.log"),$(grep -c "assignment total" "$tag.log" || true),$(grep -oE "[0-9]+ stopped at the step limit" "$tag.out" | awk '{print $1}' || echo 0),$(awk '/^  SSE/ {print $2}' "$tag.out"),-,$chk" >>"$csv.tmp"
fi
mv "$csv.tmp" "$csv"
/usr/bin/python3 - "$csv" "$md" "$old_rev" "$(git -C "$root" describe --always --dirty=+)" "$kind (sd $sd)" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = open(sys.argv[2], "w")
out.write("blpkm, one k-means++ restart, 2 s step limit, %s blobs; OLD = %s, NEW = %s; per run (round, busy machine)\n\n"
          % (sys.argv[5], sys.argv[3], sys.argv[4]))
out.write("| variant | build | round | busy | exit | wall s | peak MB | steps | cut at the step limit | SSE | objective | checker |\n")
out.write("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
for r in rows:
    out.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n" % (
        r["variant"], r["build"], r["round"], "yes" if r["busy"] == "1" else "no", r["exit"], r["wall_s"], r["peak_mb"],
        r["steps"], r["cut"], r["sse"], r["objective"], r["check"]))
PY
cat "$md"
