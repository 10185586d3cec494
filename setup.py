"""Declares the Cython extension modules; all other metadata is in pyproject.toml."""

import sys

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

# -g0: no debug sections in the shipped binaries (a fifth of the size)
COMPILE_ARGS = ["/O2"] if sys.platform == "win32" else ["-O3", "-g0"]
DEFINES = [("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]


def extension(name: str) -> Extension:
    return Extension(
        f"guandan_fast.{name}",
        [f"src/guandan_fast/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include(), "src"],
        extra_compile_args=COMPILE_ARGS,
        define_macros=DEFINES,
    )


setup(
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
    )
)
