#!/usr/bin/env bash
# soft_steps_run.sh NEW_PCCC [OLD_PCCC] -- PCCC's noisy protocol (one seed, all 24 level/l
# settings, one start, one thread) with two builds of bench/pccc at once, one core each: how long
# a soft run takes, how many of its assignment steps stop at the 2 s step limit unproven
# (steps_at_limit), and the objective and ARI each build reaches. Needs ../shared/data.
#   SETS (default: all 11 of instances.tsv, ~20 min; the k = 2 ones, appendicitis,
#   breast_cancer,circles,moons,spiral, ~10 min), NEW_LABEL / OLD_LABEL (default: git describe /
#   "old"),
#   NAME (default pccc_soft_steps).
# Writes bench/results/$NAME.csv (both builds' soft rows, a "code" column first) and $NAME.md;
# SUMMARY_ONLY=1 writes the tables again from that CSV.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
new=$1
old=${2:-}
sets=${SETS:-appendicitis,breast_cancer,circles,ecoli,glass,iris,moons,newthyroid,spiral,tae,wine}
shared=${SHARED:-$root/../shared/data}
out=$root/bench/results/${NAME:-pccc_soft_steps}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
new_label=${NEW_LABEL:-$(git -C "$root" describe --always --dirty=+)}
old_label=${OLD_LABEL:-old}
cols="dataset,level,l,seed,method,mult,status,sse,penalty,objective,ari,pairs,soft_violated,seconds,steps_at_limit"
if [[ -z ${SUMMARY_ONLY:-} ]]; then # SUMMARY_ONLY=1: the tables again from $NAME.csv
  "$new" "$shared" "$root/bench/pccc/instances.tsv" noisy 1 1 "$sets" >"$work/new.csv" 2>"$work/new.err" &
  if [[ -n $old ]]; then
    "$old" "$shared" "$root/bench/pccc/instances.tsv" noisy 1 1 "$sets" >"$work/old.csv" 2>"$work/old.err" &
  fi
  wait
  { echo "code,$cols"
    grep ',soft,' "$work/new.csv" | sed "s/^/$new_label,/"
    if [[ -n $old ]]; then grep ',soft,' "$work/old.csv" | sed "s/^/$old_label,/"; fi
  } >"$out.csv.tmp"
  mv "$out.csv.tmp" "$out.csv"
fi
"${PYTHON:-/usr/bin/python3}" - "$out" <<'PY'
import csv, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(out + ".csv")))
codes = list(dict.fromkeys(r["code"] for r in rows))
by = {c: {(r["dataset"], r["level"], r["l"], r["seed"]): r for r in rows if r["code"] == c} for c in codes}
new = by[codes[0]]
old = by[codes[1]] if len(codes) > 1 else {}
f = float
lines = [f"# PCCC's noisy protocol, soft runs: {' against '.join(codes)}"
         " (bench/pccc/soft_steps_run.sh; one seed, 24 settings a set, one start, both builds at once, one core each)", "",
         "| set | runs | seconds in all | runs > 2 s | slowest run (s) | steps at the step limit | runs with every step proven | mean ARI |" +
         (f" objective of {codes[0]} lower / equal / higher |" if old else ""),
         "|---|---|---|---|---|---|---|---|" + ("---|" if old else "")]
for ds in sorted({k[0] for k in new}):
    cells = []
    for rs in (new, old):
        v = [r for k, r in sorted(rs.items()) if k[0] == ds]
        if v:
            cells.append((len(v), sum(f(r["seconds"]) for r in v), sum(f(r["seconds"]) > 2 for r in v),
                          max(f(r["seconds"]) for r in v), sum(int(r["steps_at_limit"]) for r in v),
                          sum(int(r["steps_at_limit"]) == 0 for r in v), sum(f(r["ari"]) for r in v) / len(v)))
    join = lambda i, fmt: " / ".join(fmt.format(c[i]) for c in cells)
    line = (f"| {ds} | {cells[0][0]} | {join(1, '{:.1f}')} | {join(2, '{}')} | {join(3, '{:.2f}')} | {join(4, '{}')} | "
            f"{join(5, '{}')} | {join(6, '{:.3f}')} |")
    if old:
        lo = eq = hi = 0
        for k, r in new.items():
            if k[0] == ds and k in old:
                a, b = f(r["objective"]), f(old[k]["objective"])
                tol = 1e-9 * max(1.0, abs(b))
                lo += a < b - tol
                hi += a > b + tol
                eq += abs(a - b) <= tol
        line += f" {lo} / {eq} / {hi} |"
    lines.append(line)
if old:
    lines += ["", f"Each cell: {codes[0]} / {codes[1]}."]
open(out + ".md.tmp", "w").write("\n".join(lines) + "\n")
os.replace(out + ".md.tmp", out + ".md")
print("\n".join(lines))
PY
