#!/usr/bin/env bash
# cli_mpi.sh CKM MPIEXEC -- `ckm cluster` and `ckm certify` run by mpirun (docs/mpi.md,
# docs/certify.md):
#   - 1, 2, 3 and 4 ranks give the same labels and centers files (sizeflow --balanced,
#     kmeans), the sizes are balanced, the labels equal the single-process run's from the
#     same seed and from the same initial centers;
#   - bad input (missing file, truncated .npy, text input, an option the MPI mode cannot
#     take, k out of range) exits non-zero on every rank with ONE message; infeasible
#     bounds exit 3;
#   - certify on 1, 2 and 3 ranks: the JSON report's bound equals the single-process one
#     (the same digits), "ranks" says how many; -k 1 gives gap 0; bad input exits 2 on
#     every rank with one message.
set -u
ckm=$1 mpiexec=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0 passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
run() { "$mpiexec" -n "$1" --oversubscribe "${@:2}"; }

/usr/bin/python3 - "$dir" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(4)
C = rng.normal(size=(6, 3)) * 4
X = np.vstack([c + rng.normal(size=(250, 3)) for c in C])
rng.shuffle(X)
np.save(d + "/x.npy", X)
np.savetxt(d + "/c0.csv", X[:6], delimiter=",")
np.savetxt(d + "/x.csv", X, delimiter=",")
raw = open(d + "/x.npy", "rb").read()
open(d + "/trunc.npy", "wb").write(raw[: len(raw) - 100])
EOF

for algo in sizeflow kmeans; do
  extra=""
  [ "$algo" = sizeflow ] && extra="--balanced"
  for np in 1 2 3 4; do
    if run $np "$ckm" cluster "$dir/x.npy" -k 6 -a $algo $extra -j 1 --seed 3 --n-init 2 \
         -o "$dir/l_${algo}_$np.npy" --centers-out "$dir/c_${algo}_$np.csv" -q; then ok; else bad "$algo np=$np exit $?"; fi
  done
  for np in 2 3 4; do
    cmp -s "$dir/l_${algo}_1.npy" "$dir/l_${algo}_$np.npy" && ok || bad "$algo labels np=1 vs np=$np"
    cmp -s "$dir/c_${algo}_1.csv" "$dir/c_${algo}_$np.csv" && ok || bad "$algo centers np=1 vs np=$np"
  done
  # the single-process tool from the same seed: the same labels
  "$ckm" cluster "$dir/x.npy" -k 6 -a $algo $extra -j 1 --seed 3 --n-init 2 -o "$dir/l_${algo}_single.npy" -q \
    && ok || bad "$algo single-process seeded run"
  cmp -s "$dir/l_${algo}_1.npy" "$dir/l_${algo}_single.npy" && ok || bad "$algo: mpirun differs from the single-process run (same seed)"
  # the single-process solver from the same initial centers: the same labels
  "$ckm" cluster "$dir/x.npy" -k 6 -a $algo $extra -j 1 --init-centers "$dir/c0.csv" -o "$dir/one.txt" -q \
    && ok || bad "$algo single-process run"
  run 3 "$ckm" cluster "$dir/x.npy" -k 6 -a $algo $extra -j 1 --init-centers "$dir/c0.csv" -o "$dir/three.txt" -q \
    && ok || bad "$algo 3 ranks from centers"
  cmp -s "$dir/one.txt" "$dir/three.txt" && ok || bad "$algo: 3 ranks differ from the single-process run"
done
/usr/bin/python3 - "$dir" <<'EOF' && ok || bad "balanced sizes"
import sys, numpy as np
l = np.load(sys.argv[1] + "/l_sizeflow_4.npy")
c = np.bincount(l, minlength=6)
assert l.shape == (1500,) and c.min() == 250 and c.max() == 250, c
EOF

# bad input: non-zero exit, one message for all ranks
expect() { # expect CODE NP COMMAND ARGS... : exit code and exactly one 'ckm COMMAND:' line
  local code=$1 np=$2 cmd=$3
  shift 3
  run "$np" "$ckm" "$cmd" "$@" -q >"$dir/out" 2>"$dir/err"
  local got=$? lines
  lines=$(grep -c "^ckm $cmd:" "$dir/err")
  if [ "$got" = "$code" ] && [ "$lines" = 1 ]; then ok; else
    bad "expected exit $code and one message for '$*' on $np ranks: exit $got, $lines messages"
    cat "$dir/err" >&2
  fi
}
expect 2 3 cluster "$dir/missing.npy" -k 3
expect 2 3 cluster "$dir/trunc.npy" -k 3
expect 2 2 cluster "$dir/x.csv" -k 3
expect 2 4 cluster "$dir/x.npy" -k 3 --constraints "$dir/c0.csv"
expect 2 2 cluster "$dir/x.npy" -k 0
expect 2 2 cluster "$dir/x.npy" -k 2000
expect 2 2 cluster "$dir/x.npy" -k 3 -a blpkm
expect 3 3 cluster "$dir/x.npy" -k 3 -a sizeflow --min-size 600
expect 2 2 cluster "$dir/x.npy" -k 3 --sizes "$dir/missing_sizes.txt" -a sizeflow
expect 2 3 cluster "$dir/x.npy" -k 3 --n-init 0
expect 2 2 cluster "$dir/x.npy" -k 3 --tol nan
expect 2 2 cluster "$dir/x.npy" -k 3 -o "$dir/x.npy"
[ ! -e "$dir/never.txt" ] && ok || bad "an output was written"

# certify: the subsets over the ranks, the same bound as one process
/usr/bin/python3 - "$dir" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
l = np.load(d + "/l_sizeflow_1.npy")
with open(d + "/cons.txt", "w") as f:
    for i in range(0, 1200, 7):
        f.write(("ML" if l[i] == l[i + 3] else "CL") + " %d %d\n" % (i, i + 3))
EOF
cert="--labels $dir/l_sizeflow_1.npy -c $dir/cons.txt --subsets 15 --cut-rounds 0 -j 1 -q"
"$ckm" certify "$dir/x.npy" $cert -r "$dir/cert_single.json" && ok || bad "certify single process"
for np in 1 2 3; do
  run $np "$ckm" certify "$dir/x.npy" $cert -r "$dir/cert_$np.json" && ok || bad "certify np=$np exit $?"
  a=$(grep '"lower_bound"' "$dir/cert_single.json" | head -1) b=$(grep '"lower_bound"' "$dir/cert_$np.json" | head -1)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "certify np=$np: bound '$b', one process '$a'"
  grep -q "\"ranks\": $np," "$dir/cert_$np.json" && ok || bad "certify np=$np: report without \"ranks\": $np"
done
yes 0 | head -1500 >"$dir/zero.txt"
run 2 "$ckm" certify "$dir/x.npy" --labels "$dir/zero.txt" -k 1 | grep -q "gap          0 %" && ok || bad "certify -k 1 on 2 ranks"
expect 2 3 certify "$dir/x.npy" --labels "$dir/missing_labels.txt"
expect 2 2 certify "$dir/x.npy" --labels "$dir/zero.txt" --subsets 5000
expect 2 2 certify "$dir/x.npy" --labels "$dir/zero.txt" -t 2x

echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
