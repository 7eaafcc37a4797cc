#!/usr/bin/env bash
# run_corpus.sh CKM CORPUS_DIR -- run every case of cases.tsv through the real ckm binary.
# A case passes when the exit code matches, the needle appears (stdout for exit 0, stderr
# otherwise), a failing run prints exactly one line on stderr, and no sanitizer reports.
set -u
ckm=$1
dir=$2
R=$(cd "$dir/../../data" && pwd)
D=$dir/data
pass=0
fail=0
while IFS=$'\t' read -r want needle args; do
  [[ -z "$want" || "$want" == \#* ]] && continue
  T=$(mktemp -d)
  eval "set -- $args"
  "$ckm" "$@" >"$T/.out" 2>"$T/.err" </dev/null
  got=$?
  why=""
  if [[ $got != "$want" ]]; then why="exit $got, expected $want"; fi
  if [[ $want == 0 || $want == 5 ]]; then where="$T/.out"; else where="$T/.err"; fi
  if [[ -z $why && $needle != "-" ]] && ! grep -qF -- "$needle" "$where"; then why="missing '$needle'"; fi
  if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$T/.err"; then why="sanitizer report"; fi
  if [[ -z $why && $want != 0 ]] && [[ $(wc -l <"$T/.err") != 1 ]]; then
    if [[ $want != 5 || $(wc -l <"$T/.err") != 0 ]]; then why="stderr has $(wc -l <"$T/.err") lines, expected 1"; fi
  fi
  if [[ -z $why ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: ckm $args: $why" >&2
    sed 's/^/  stderr: /' "$T/.err" | head -20 >&2
  fi
  rm -rf "$T"
done <"$dir/cases.tsv"
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
