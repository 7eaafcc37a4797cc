"""Build hook of the ckm Python package: compile libckm.so from this repository with CMake and
place it inside the package (ckm/libckm.so.0), where ckm/_lib.py loads it with ctypes.

Everything else is declared in pyproject.toml. The C library is built from the parent
directory of this file (the repository root), so the package installs from a clone:
    python3 -m pip install --no-build-isolation python/
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
# the repository root (CKM_SOURCE_ROOT: when python/ was copied elsewhere, e.g. by the test suite)
ROOT = os.environ.get("CKM_SOURCE_ROOT") or os.path.dirname(HERE)


class BuildPyWithLibrary(build_py):
    """build_py, then the shared C library into the build tree's ckm/ directory."""

    def run(self):
        super().run()
        if not os.path.isfile(os.path.join(ROOT, "CMakeLists.txt")):
            raise RuntimeError("ckm: %s is not a ckm source tree (no CMakeLists.txt); install from a clone of "
                               "the repository: python3 -m pip install --no-build-isolation python/" % ROOT)
        if shutil.which("cmake") is None:
            raise RuntimeError("ckm: cmake is needed to build libckm (Debian: bash scripts/bootstrap.sh)")
        tmp = os.path.join(os.path.abspath(self.get_finalized_command("build").build_temp), "libckm")
        jobs = str(max(1, len(os.sched_getaffinity(0))))
        subprocess.check_call(["cmake", "-S", ROOT, "-B", tmp, "-DCMAKE_BUILD_TYPE=Release",
                               "-DCKM_BUILD_TESTS=OFF", "-DCKM_BUILD_BENCH=OFF"])
        subprocess.check_call(["cmake", "--build", tmp, "--target", "ckm_shared", "-j", jobs])
        real = os.path.realpath(os.path.join(tmp, "libckm.so"))
        dest = os.path.join(self.build_lib, "ckm")
        os.makedirs(dest, exist_ok=True)
        for old in os.listdir(dest):
            if old.startswith("libckm.so"):
                os.remove(os.path.join(dest, old))
        shutil.copyfile(real, os.path.join(dest, "libckm.so.0"))


class BinaryDistribution(Distribution):
    """The package carries a compiled library: platform-specific wheels."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithLibrary}, distclass=BinaryDistribution)
