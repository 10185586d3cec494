"""Declares the Cython extension modules; all other metadata is in pyproject.toml."""

import os
import sys

# GUANDAN_FAST_OPT_LEVEL (default 3; MSVC: 0 /Od, 1 /O1, 2-3 /O2) sets the C optimisation: 0
# compiles about five times faster (_movegen.c: 11.9 s at -O3, 2.1 s at -O0) into unoptimised
# code, for builds that are inspected, not run (the packaging test's wheel). Checked before
# any import, so that a bad value is named whatever is installed.
OPT_LEVEL = os.environ.get("GUANDAN_FAST_OPT_LEVEL") or "3"  # (set but empty: the default)
if OPT_LEVEL not in ("0", "1", "2", "3"):
    raise SystemExit(f"GUANDAN_FAST_OPT_LEVEL must be 0, 1, 2 or 3, not {OPT_LEVEL!r}")

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# Every core for the C compiler (build_ext -j, threads) and, on Linux, for Cython (processes,
# forked: elsewhere they would be spawned): a fresh install builds the fifteen modules two at
# a time on two cores, not one after the other (2 min 5 s -> 1 min 13 s on a 2-core machine).
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
CYTHON_PROCESSES = CORES if sys.platform.startswith("linux") else 0

# -g0: no debug sections in the shipped binaries (a fifth of the size)
if sys.platform == "win32":
    COMPILE_ARGS = {"0": ["/Od"], "1": ["/O1"]}.get(OPT_LEVEL, ["/O2"])
else:
    COMPILE_ARGS = [f"-O{OPT_LEVEL}", "-g0"]
DEFINES = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]


class BuildOnEveryCore(build_ext):
    """``build_ext`` that compiles the modules on every core unless ``-j`` says otherwise."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = CORES


def extension(name: str) -> Extension:
    return Extension(
        f"guandan_fast.{name}",
        [f"src/guandan_fast/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include(), "src"],
        extra_compile_args=COMPILE_ARGS,
        define_macros=DEFINES,
    )


setup(
    cmdclass={"build_ext": BuildOnEveryCore},
    ext_modules=cythonize(
        [
            extension(name)
            for name in (
                "engine._cardtext",
                "engine.hand",
                "engine._movegen",
                "engine._notation",
                "engine.moves",
                "engine.movelist",
                "engine.state",
                "search._policies",
                "search._playout",
                "search._minplays",
                "search._infoset",
                "search._solve",
                "search._worldsolve",
                "encode._encode",
                "encode._actions",
            )
        ],
        compiler_directives={"language_level": "3", "embedsignature": True},
        nthreads=CYTHON_PROCESSES,
    )
)
