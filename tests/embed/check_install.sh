#!/bin/sh
# check_install.sh SOURCE_DIR BUILD_DIR [CFLAGS] -- `cmake --install` into a scratch prefix, then the
# README's library example builds against the installed files through pkg-config, once with
# the shared library (pkg-config --libs ckm) and once statically (--static), and both run.
set -eu
src=$1 build=$2 extra=${3:-}
tmp=$build/install-check
rm -rf "$tmp"
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pc=$(find "$tmp/prefix" -name ckm.pc | head -1)
[ -n "$pc" ] || { echo "ckm.pc not installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
lib=$(pkg-config --variable=libdir ckm)
ls "$lib"/libckm.so.0 "$lib"/libckm.a >/dev/null
cc -std=c11 $extra -o "$tmp/shared" "$src/examples/cluster.c" $(pkg-config --cflags --libs ckm)
cc -std=c11 $extra -o "$tmp/static" "$src/examples/cluster.c" $(pkg-config --cflags --libs ckm-static)
# the shared build really uses the installed libckm.so.0; the static one has no libckm dependency
LD_LIBRARY_PATH=$lib ldd "$tmp/shared" | grep -q "$lib/libckm.so.0"
if ldd "$tmp/static" | grep -q libckm; then echo "static build depends on libckm.so"; exit 1; fi
out1=$(LD_LIBRARY_PATH=$lib "$tmp/shared" "$src/data/iris.csv")
out2=$("$tmp/static" "$src/data/iris.csv")
echo "$out1" | grep -q "feasible: SSE 78.851441, sizes 38 50 62"
[ "$out1" = "$out2" ]
echo "installed: shared and static builds of examples/cluster.c via pkg-config agree: $(echo "$out1" | head -1)"
