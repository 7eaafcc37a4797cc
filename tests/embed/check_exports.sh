#!/bin/sh
# check_exports.sh LIBCKM_SO HEADER... -- the shared library exports exactly the functions the
# headers declare with CKM_API (ckm.h, and ckm_mpi.h in an MPI build; hidden visibility keeps
# every internal ckm_* symbol out), and its soname is libckm.so.MAJOR.
set -eu
so=$1
shift
exported=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort)
declared=$(cat "$@" | grep '^CKM_API' | sed 's/(.*//; s/.*[ *]\([a-z_0-9]*\)$/\1/' | sort)
if [ "$exported" != "$declared" ]; then
    echo "exported symbols differ from the CKM_API declarations:"
    printf '%s\n' "$exported" > /tmp/ckm_exported.$$
    printf '%s\n' "$declared" | diff /tmp/ckm_exported.$$ - || true
    rm -f /tmp/ckm_exported.$$
    exit 1
fi
soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
case "$soname" in
    libckm.so.[0-9]*) ;;
    *) echo "unexpected soname '$soname'"; exit 1 ;;
esac
echo "$(printf '%s\n' "$exported" | wc -l) exported functions = the CKM_API declarations; soname $soname"
