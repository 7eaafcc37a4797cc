#!/bin/sh
# run_pytest.sh SOURCE_DIR BUILD_DIR CKM_CLI -- the Python package as a user installs it:
# python/ is copied into the build tree (so the source tree stays clean), installed with
# Debian's pip offline (`pip install --no-build-isolation --target`, which builds libckm
# itself), then its pytest suite runs against that install (CKM_CLI: the tool the tests
# compare labels with).
set -eu
src=$1 build=$2 cli=$3
py=${CKM_PYTHON:-/usr/bin/python3}
work=$build/python-package
rm -rf "$work"
mkdir -p "$work"
cp -R "$src/python" "$work/src"
rm -rf "$work/src/build" "$work/src"/*.egg-info
CKM_SOURCE_ROOT=$src "$py" -m pip install --no-build-isolation --no-input --disable-pip-version-check --root-user-action=ignore \
    --quiet --target "$work/target" "$work/src"
cd "$work/src/tests"
PYTHONPATH=$work/target CKM_CLI=$cli CKM_SOURCE_ROOT=$src OPENBLAS_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE=1 \
    "$py" -m pytest -q -p no:cacheprovider -rs .
