#!/usr/bin/env bash
# kill_safety.sh CKM -- outputs stay atomic under SIGKILL at any moment (issue 14).
# A run writing labels, centers and a JSON report over existing files is killed with
# SIGKILL after a random delay spread over twice its duration (measured first), 40 times;
# afterwards every output must be byte-identical to either the old file or the complete
# new one. Both outcomes must occur (the kills really land before and after the writes).
# Leftover temporary files (the price of SIGKILL between mkstemp and rename) are counted
# and removed; they never replace an output.
set -u
ckm=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# 100000 points in 5 blobs: the labels file is about 200 KB, so writes take a moment
awk 'BEGIN { srand(7); for (i = 0; i < 100000; i++) printf "%.6f,%.6f\n", (i % 5) * 3 + rand(), (i % 5) - rand() }' >"$T/data.csv"
args=(cluster "$T/data.csv" -k 5 --n-init 1 -q)
"$ckm" "${args[@]}" --seed 1 --labels-out "$T/old.labels" --centers-out "$T/old.centers" --report "$T/old.json" || exit 1
t0=$(date +%s.%N)
"$ckm" "${args[@]}" --seed 2 --labels-out "$T/new.labels" --centers-out "$T/new.centers" --report "$T/new.json" || exit 1
t1=$(date +%s.%N)
cmp -s "$T/old.centers" "$T/new.centers" && { echo "kill_safety: seeds 1 and 2 gave the same centers; pick other runs"; exit 1; }
dur=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
shape() { sed -E 's/[-+0-9.eE]+//g' "$1"; } # the report without its numbers (timings differ run to run)
old=0 new=0 bad=0 leftovers=0
# delays uniform over 2x the measured run (a loaded machine, e.g. ctest -j under the
# sanitizers, runs slower than the measurement); after 40 rounds, up to 10 more rounds at
# 4x make sure some kills land after the writes too
i=0
while [[ $i -lt 40 || ($new -eq 0 && $i -lt 50) ]]; do
  i=$((i + 1))
  scale=2.0
  [[ $i -gt 40 ]] && scale=4.0
  for f in labels centers json; do cp "$T/old.$f" "$T/out.$f"; done
  "$ckm" "${args[@]}" --seed 2 --labels-out "$T/out.labels" --centers-out "$T/out.centers" --report "$T/out.json" &
  pid=$!
  sleep "$(awk -v d="$dur" -v r="$RANDOM" -v f="$scale" 'BEGIN { printf "%.3f", d * f * r / 32767 }')"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  for f in labels centers json; do
    if cmp -s "$T/out.$f" "$T/old.$f"; then old=$((old + 1))
    elif [[ $f == json ]] && [[ "$(shape "$T/out.json")" == "$(shape "$T/new.json")" ]] &&
         ! grep -q '"seed": 1' "$T/out.json"; then
      new=$((new + 1)) # complete: the new report's every field, numbers aside (timings differ)
    elif cmp -s "$T/out.$f" "$T/new.$f"; then new=$((new + 1))
    else bad=$((bad + 1)); echo "kill_safety: round $i: out.$f is neither the old nor the complete new file" >&2
    fi
  done
  for x in "$T"/out.*.tmp.*; do [[ -e $x ]] && { leftovers=$((leftovers + 1)); rm -f "$x"; }; done
done
echo "kill_safety: $((3 * i)) outputs after SIGKILL in $i rounds: $old old, $new complete new, $bad torn; $leftovers temporary files left behind"
if [[ $bad == 0 && $old -gt 0 && $new -gt 0 ]]; then echo "1 passed, 0 failed"; exit 0; fi
echo "0 passed, 1 failed"
exit 1
