#!/usr/bin/env bash
# progress_tty.sh CKM SOURCE_DIR -- the live progress line (cli/progress.c): under a
# pseudo-terminal (script(1)) cluster, ipc and certify redraw one status line on stderr (a
# carriage return, the line, erase-to-end) and erase it at the end; with stderr a pipe or with
# -q nothing of it appears; with -v the log lines stay whole lines.
set -u
ckm=$1
src=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# on a terminal: the transcript of the pseudo-terminal (stdout and stderr of the run)
tty_run() { script -q -e -c "$*" /dev/null </dev/null; }
esc=$'\033[K'

out=$(tty_run "$ckm" cluster "$src/data/wine.csv" -k 3 --standardize --n-init 30 -o "$T/l.txt")
[[ $? == 0 ]] && ok || bad "cluster under a terminal failed"
if [[ $out == *$'\r'"ckm cluster "*"restart "*"/30"*"step "*"$esc"* ]]; then ok; else bad "cluster: no progress line: $(printf %q "${out:0:300}")"; fi
# the line is erased before the summary: the summary's first line starts clean after an erase
if [[ $out == *$'\r'"$esc""ckm "* ]]; then ok; else bad "cluster: the line is not erased at the end"; fi

out=$(tty_run "$ckm" cluster "$src/data/iris.csv" -k 3 -a ipc --cut-rounds 2 -c "$src/data/iris_constraints.txt" -o "$T/i.txt")
if [[ $out == *$'\r'"ckm cluster "*"bound "* ]]; then ok; else bad "ipc: no bound in the progress line"; fi

"$ckm" cluster "$src/data/iris.csv" -k 3 -a blpkm -c "$src/data/iris_constraints.txt" -o "$T/b.txt" -q
out=$(tty_run "$ckm" certify "$src/data/iris.csv" --labels "$T/b.txt" -c "$src/data/iris_constraints.txt" --subsets 3 --cut-rounds 1)
if [[ $out == *$'\r'"ckm certify "*"subsets "*"/3"*"bound "*"gap "* ]]; then ok; else bad "certify: no progress line: $(printf %q "${out:0:300}")"; fi

# between events the line moves on: two subsets of 1000 heavily overlapping points on one thread
# with -t 4 give each subset's SDP about 2 s (overlapping clusters: it does not converge sooner),
# while the elapsed time is redrawn once a second; two lines with the same subsets count but
# another elapsed time are a redraw between events
awk 'BEGIN { srand(5); for (i = 0; i < 2000; i++) { c = i % 5; printf "%.4f,%.4f,%.4f,%.4f,%.4f\n",
      0.3 * c + rand(), 0.3 * (c % 2) + rand(), rand(), rand(), rand() } }' > "$T/pts.csv"
awk 'BEGIN { for (i = 0; i < 2000; i++) print i % 5 }' > "$T/pts.lab"
out=$(tty_run "$ckm" certify "$T/pts.csv" --header no --labels "$T/pts.lab" --subsets 2 -j 1 -t 4)
ticks=$(printf '%s' "$out" | tr '\r' '\n' | grep -o 'ckm certify  [0-9.]* s  subsets [01]/2' | sort -u |
  awk '{ n[$6]++ } END { m = 0; for (s in n) if (n[s] > m) m = n[s]; print m }')
if [[ $ticks -ge 2 ]]; then ok; else bad "no redraw between events (at most $ticks distinct lines per subsets count): $(printf %q "${out:0:300}")"; fi

# not a terminal: stderr is a file, so nothing but what was there before
"$ckm" cluster "$src/data/wine.csv" -k 3 --standardize --n-init 30 -o "$T/l.txt" >"$T/out" 2>"$T/err"
if [[ ! -s $T/err ]] && ! grep -q $'\r' "$T/out"; then ok; else bad "piped: progress output appeared: $(head -c 200 "$T/err" | od -c | head -3)"; fi
# -q on a terminal: nothing at all
out=$(tty_run "$ckm" cluster "$src/data/wine.csv" -k 3 --standardize --n-init 30 -o "$T/l.txt" -q)
if [[ -z $out ]]; then ok; else bad "-q on a terminal printed: $(printf %q "${out:0:200}")"; fi
# -v on a terminal: every log line whole (the status line erased before it)
out=$(tty_run "$ckm" cluster "$src/data/wine.csv" -k 3 --standardize --n-init 5 -o "$T/l.txt" -v)
if printf '%s' "$out" | tr -d '\n' | grep -q "restart 5/5: objective" && [[ $out == *$'\r'"$esc""kmeans restart"* ]]; then ok; else bad "-v: log lines not whole: $(printf %q "${out:0:400}")"; fi
echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
