#!/usr/bin/env bash
# bootstrap.sh -- install the Debian packages ckm needs, only those missing.
# Runs as root (or through sudo). Safe to run again: does nothing when all are present.
# `bootstrap.sh test` adds the test-only oracle DSDP (libdsdp-dev), never linked into ckm,
# and clang with its runtime (libFuzzer, sanitizers) for the fuzz targets of the test suite,
# pytest for the Python package's tests, and Open MPI for the MPI mode's tests (the test
# build turns -DCKM_MPI=ON), and headless Chromium with a font for the HTML reports' tests
# (tests/html: each report loaded in a real browser).
# `bootstrap.sh bench` adds what benchmarks read or draw with: pdftotext (poppler-utils, for
# PCCC's published tables) and matplotlib (the SVG plots).
set -euo pipefail
# python3-*: the Python package (python/) builds with Debian's pip and setuptools, offline
packages=(build-essential cmake pkg-config libopenblas-dev liblapacke-dev
          coinor-libclp-dev coinor-libcbc-dev
          python3 python3-pip python3-setuptools python3-numpy python3-sklearn)
if [ "${1:-}" = "test" ]; then
  packages+=(libdsdp-dev clang libclang-rt-dev python3-pytest libopenmpi-dev openmpi-bin chromium fonts-dejavu-core)
elif [ "${1:-}" = "bench" ]; then
  packages+=(poppler-utils python3-matplotlib)
fi
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "bootstrap: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "bootstrap: need root to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
