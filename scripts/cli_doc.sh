#!/usr/bin/env bash
# cli_doc.sh CKM -- print docs/cli.md: the tool's own --help of every command, so that the
# reference is generated, never edited by hand (bash scripts/cli_doc.sh build/ckm > docs/cli.md;
# tests/cli/defaults.sh fails when the committed file differs).
set -eu
ckm=$1
cat <<'HEAD'
# ckm command-line reference

Generated from the tool's own `--help` by `scripts/cli_doc.sh` (`ckm COMMAND --help`
prints the same, with the library's live defaults). Exit codes: 0 solved, 1 internal
error, 2 usage/input error, 3 proven infeasible, 4 no feasible labelling found, 5
`ckm check` found violations (`ckm certify`: the labels violate constraints), 6 out of memory.
HEAD
section() { # section TITLE ARGS...
  local title=$1
  shift
  printf '\n## %s\n\n```\n' "$title"
  "$ckm" "$@"
  printf '```\n'
}
section ckm --help
for c in cluster assign check certify report eval gen-constraints; do section "ckm $c" "$c" --help; done
