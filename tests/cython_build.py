"""Build users' Cython extensions against the installed package during a test: the sources
are written as ``NAME.pyx`` into a folder and built in place with the package's include
directory (``guandan_fast.get_include()``, where its ``.pxd`` files are) and numpy's, as
docs/c-api.md tells a user to."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

SETUP = textwrap.dedent(
    """
    import sys

    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension, setup

    import guandan_fast

    include = [guandan_fast.get_include(), numpy.get_include()]
    names = sys.argv.pop(1).split(",")
    setup(ext_modules=cythonize([Extension(name, [name + ".pyx"], include_dirs=include) for name in names],
                                include_path=[guandan_fast.get_include()], quiet=True))
    """
)


def documented_extension(page: Path) -> str:
    """The one ```cython block of a documentation page (a complete example extension),
    exactly as printed."""
    blocks = re.findall(r"```cython\n(.*?)```", page.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, f"{page.name} holds one complete example extension"
    return str(blocks[0])


def build_extensions(folder: Path, sources: dict[str, str]) -> Path:
    """Build each source as the module of its name in ``folder``; skip the test without
    Cython or a C compiler, fail it with the compiler's output when the build fails."""
    if importlib.util.find_spec("Cython") is None:
        pytest.skip("Cython is not installed")
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    for name, source in sources.items():
        (folder / f"{name}.pyx").write_text(source, encoding="utf-8")
    (folder / "setup.py").write_text(SETUP, encoding="utf-8")
    done = subprocess.run([sys.executable, "setup.py", ",".join(sources), "build_ext", "--inplace", "-q"],
                          cwd=folder, check=False, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        pytest.fail(f"could not build {', '.join(sources)} against the package's .pxd files:\n{done.stdout}{done.stderr}")
    return folder


def load(folder: Path, name: str) -> Any:
    """Import the module ``name`` built in ``folder``."""
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))
