#!/usr/bin/env bash
# dev.sh -- the two commands of the README, and a few helpers.
#   scripts/dev.sh demo    install deps, build (Release), cluster the bundled demo data
#   scripts/dev.sh test    install deps, build with ASan+UBSan and the MPI mode, run the whole test suite
#   scripts/dev.sh bench   build (Release) and run the benchmarks (see bench/README.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc 2>/dev/null || echo 2)
cmd=${1:-}
case "$cmd" in
  demo)
    bash scripts/bootstrap.sh
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCKM_BUILD_TESTS=OFF >/dev/null
    cmake --build build -j "$jobs" >/dev/null
    echo "== unconstrained k-means on iris (data/iris.csv), k = 3"
    ./build/ckm cluster data/iris.csv -k 3 --seed 1
    echo
    echo "== wine (data/wine.csv), standardised, scored against its class column"
    ./build/ckm cluster data/wine.csv -k 3 --label-column last --standardize --seed 1
    echo
    echo "== BLPKM_CC on iris with 50 must/cannot-links and cluster sizes between 45 and 55"
    ./build/ckm cluster data/iris.csv -k 3 --algorithm blpkm --constraints data/iris_constraints.txt \
      --min-size 45 --max-size 55 --seed 1
    echo
    echo "== exact branch-and-cut on the same problem: the global optimum, with a proof (safe SDP bound)"
    ./build/ckm cluster data/iris.csv -k 3 --algorithm exact --constraints data/iris_constraints.txt \
      --min-size 45 --max-size 55
    echo
    echo "== constraint preprocessing: a contradictory constraint set is proven infeasible"
    set +e
    ./build/ckm cluster data/iris.csv -k 3 --constraints tests/cli/data/cons_contra.txt
    echo "(exit code $?: 3 = proven infeasible)"
    ;;
  test)
    bash scripts/bootstrap.sh test
    cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DCKM_SANITIZE=ON -DCKM_BUILD_BENCH=OFF \
      -DCKM_REQUIRE_DSDP=ON -DCKM_MPI=ON >/dev/null
    cmake --build build-test -j "$jobs" >/dev/null
    # OpenBLAS keeps its thread pool for the process lifetime; LSan must not call that a leak
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
    cd build-test && ctest --output-on-failure -j "$jobs"
    ;;
  bench)
    bash scripts/bootstrap.sh bench
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build -j "$jobs" >/dev/null
    bash bench/run.sh "${@:2}"
    ;;
  *)
    echo "usage: scripts/dev.sh demo|test|bench" >&2
    exit 2
    ;;
esac
