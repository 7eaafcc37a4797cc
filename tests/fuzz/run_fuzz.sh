#!/usr/bin/env bash
# run_fuzz.sh SRC_DIR WORK_DIR [SECONDS] -- build the libFuzzer targets with clang (ASan +
# UBSan + coverage) and run each for SECONDS (default 15; the test suite runs 8 s per target).
#   seeds   every file of tests/cli/data and data/ (once per reader selector byte), the
#           argument vectors of tests/cli/cases.tsv, and the kept findings in
#           tests/fuzz/corpus/{readers,cli} (replayed first, every run)
#   long    run_fuzz.sh . build-fuzz 3600   (docs/robustness.md): a crash leaves its input
#           in WORK_DIR/artifacts; minimise it (-minimize_crash=1), fix the bug, and add the
#           input to tests/fuzz/corpus/ so every later run replays it.
# Exits non-zero when clang cannot build a fuzzer (the suite must not skip it silently) or
# when a target finds a crash, leak, timeout or sanitizer report.
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
secs=${3:-15}
mkdir -p "$work"
work=$(cd "$work" && pwd)
cc=${CKM_FUZZ_CC:-clang}
flags=(-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -I"$src/include")
for d in core data constraints objective transport assign lloyd algo solve backend sdp; do flags+=(-I"$src/src/$d"); done
deps=$(pkg-config --cflags --libs openblas lapacke)
# library objects: the readers and the option parser reach only these four layers (the
# link fails if that changes), so the solvers, COIN-OR's C++ and the SDP are not built here
# (a quarter of the sources: most of this test's time was this build). Rebuilt when their
# source or any header is newer than the object: a header change, such as a function made
# inline, must reach every object.
layers=(core data constraints objective)
mkdir -p "$work/obj"
objs=()
todo=()
newest_h=$(ls -t "$src"/src/*/*.h "$src"/src/*/*.hpp "$src"/include/*.h | head -n 1)
for d in "${layers[@]}"; do for f in "$src/src/$d"/*.c; do
  base=$(basename "$f")
  o="$work/obj/$(basename "$(dirname "$f")")_${base%.*}.o"
  objs+=("$o")
  if [[ ! -f $o || $f -nt $o || $newest_h -nt $o ]]; then todo+=("$f" "$o"); fi
done; done
if [[ ${#todo[@]} -gt 0 ]]; then
  printf '%s\n' "${todo[@]}" | xargs -P "$(nproc)" -n 2 \
    sh -c "$cc ${flags[*]} $(pkg-config --cflags openblas lapacke) -c \"\$0\" -o \"\$1\""
fi
"$cc" "${flags[@]}" -fsanitize=fuzzer "$src/tests/fuzz/fuzz_readers.c" "${objs[@]}" $deps -lm -lpthread \
  -o "$work/fuzz_readers"
"$cc" "${flags[@]}" -fsanitize=fuzzer "$src/tests/fuzz/fuzz_cli_args.c" "$src/cli/opts.c" "$src/cli/data_opts.c" "${objs[@]}" $deps \
  -lm -lpthread -o "$work/fuzz_cli_args"
# seed corpora
rm -rf "$work/seeds"
mkdir -p "$work/seeds/readers" "$work/seeds/cli" "$work/corpus/readers" "$work/corpus/cli" "$work/artifacts"
i=0
for f in "$src"/tests/cli/data/* "$src"/data/*.csv "$src"/data/*.txt; do
  [[ -f $f && $(stat -c %s "$f") -le 65536 ]] || continue
  for sel in 0 1 2 3 4 5 6 7 8; do
    { printf "\\x$(printf %02x "$sel")"; cat "$f"; } >"$work/seeds/readers/s$i-$sel"
  done
  i=$((i + 1))
done
n=0
while IFS=$'\t' read -r want needle args; do
  [[ -z "$want" || "$want" == \#* ]] && continue
  read -r -a words <<<"$args"
  [[ ${#words[@]} -ge 2 && ${words[0]} == cluster ]] || continue
  printf '%s\0' "${words[@]:1}" | head -c -1 >"$work/seeds/cli/c$n"
  n=$((n + 1))
done <"$src/tests/cli/cases.tsv"
status=0
for t in readers cli; do
  bin=$work/fuzz_readers
  [[ $t == cli ]] && bin=$work/fuzz_cli_args
  kept=()
  [[ -d $src/tests/fuzz/corpus/$t ]] && kept=("$src/tests/fuzz/corpus/$t")
  log=$work/fuzz_$t.log
  if ! ASAN_OPTIONS=detect_leaks=1 "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$work/artifacts/$t-" \
       "$work/corpus/$t" "$work/seeds/$t" "${kept[@]}" >"$log" 2>&1; then
    echo "fuzz $t: FAILED (input in $work/artifacts/); log $log" >&2
    tail -40 "$log" >&2
    status=1
  fi
  runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
  echo "fuzz $t: $runs executions in ${secs} s, $cov, corpus $(ls "$work/corpus/$t" | wc -l) inputs"
done
[[ $status == 0 ]] && echo "fuzz: 2 passed, 0 failed" || echo "fuzz: 0 passed, 1 failed"
exit $status
