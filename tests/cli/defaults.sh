#!/usr/bin/env bash
# defaults.sh CKM SOURCE_DIR -- the defaults are written once, in the registry rows
# (src/solve/registry.c) and ckm_settings_default; everything that repeats them must agree:
#  1. docs/cli.md is what scripts/cli_doc.sh generates from the binary's --help (which prints
#     the registry's default max_iter per algorithm and the traits);
#  2. ckm.h's comment on ckm_settings.max_iter lists the same "name N" pairs as the help.
set -u
ckm=$1
src=$2
fail=0
if ! diff -u "$src/docs/cli.md" <(bash "$src/scripts/cli_doc.sh" "$ckm") >/tmp/ckm_cli_md.$$.diff; then
  echo "FAIL: docs/cli.md differs from scripts/cli_doc.sh's output (regenerate it):" >&2
  head -40 /tmp/ckm_cli_md.$$.diff >&2
  fail=1
fi
rm -f /tmp/ckm_cli_md.$$.diff
# "kmeans 300, blpkm 100, ..." from the help, and from ckm.h's max_iter comment
help=$("$ckm" cluster --help | sed -n '/--max-iter 0 (0 = the algorithm/{n;p}' | sed 's/^ *//; s/)$//')
header=$(sed -n '/int max_iter; /,/default 0 \*\//p' "$src/include/ckm.h" | tr '\n' ' ' |
  sed -E 's/.*default_max_iter: *//; s/\); *default 0.*//; s/ +/ /g')
if [[ -z $help || "$help" != "$header" ]]; then
  echo "FAIL: max_iter defaults: --help says '$help', include/ckm.h says '$header'" >&2
  fail=1
fi
n=$("$ckm" algorithms | grep -c . || true)
pairs=$(echo "$help" | tr ',' '\n' | grep -c . || true)
if [[ $pairs != "$n" ]]; then
  echo "FAIL: the help lists $pairs max_iter defaults for $n algorithms" >&2
  fail=1
fi
[[ $fail == 0 ]] && echo "defaults agree ($pairs algorithms; $n lines of 'ckm algorithms')"
exit $fail
