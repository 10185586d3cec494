"""Packaging: the installed package, the sdist and wheel, the wheel matrix and the workflows.

The first tests check the installed package (native core compiled, ``py.typed``) and run
everywhere, including against the wheels cibuildwheel builds. The others need the source
tree or a tool (``build``, ``cibuildwheel``, ``actionlint``) and are skipped without it.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.machinery
import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

import pytest

import guandan_fast as gf

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_SOURCE = ROOT / "src" / "guandan_fast"
HAS_SOURCE_TREE = (ROOT / "setup.py").is_file() and PACKAGE_SOURCE.is_dir()
needs_source_tree = pytest.mark.skipif(not HAS_SOURCE_TREE, reason="needs the source tree (not an installed copy)")

INSTALLED = Path(gf.__file__).resolve().parent
EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def installed(distribution: str) -> bool:
    """Whether ``distribution`` is installed (an import could find a ``build/`` folder instead)."""
    try:
        importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


def native_modules() -> list[str]:
    """The compiled modules the package must have: one per ``.pyx`` (installed beside them),
    as dotted names under the package."""
    return sorted(".".join(p.relative_to(INSTALLED).with_suffix("").parts) for p in INSTALLED.rglob("*.pyx"))


# --- the installed package --------------------------------------------------------------


def test_every_cython_module_is_compiled() -> None:
    names = native_modules()
    assert "engine._movegen" in names
    for name in names:
        try:
            module = importlib.import_module(f"guandan_fast.{name}")
        except ImportError as error:
            pytest.fail(f"{name}.pyx has no importable compiled module (rebuild the package): {error}")
        assert module.__file__ is not None and module.__file__.endswith(EXTENSION_SUFFIXES), module.__file__
        assert Path(module.__file__).resolve().parent == INSTALLED.joinpath(*name.split(".")[:-1])


def test_native_core_is_the_default_and_answers() -> None:
    assert gf.resolve_backend() == gf.resolve_backend("native") == "native"
    hand = gf.Hand.parse("S3 S4 S5 S6 S7 H2 H2 SA DA")
    moves = gf.legal_moves(hand, 2, backend="native").to_platform()
    expected = gf.legal_moves(hand, 2, backend="reference").to_platform()
    assert len(moves) > 0
    assert sorted((k, r, sorted(c)) for k, r, c in moves) == sorted((k, r, sorted(c)) for k, r, c in expected)


def test_typing_marker_and_stubs_are_installed() -> None:
    assert (INSTALLED / "py.typed").is_file()
    if HAS_SOURCE_TREE:
        stubs = {p.relative_to(PACKAGE_SOURCE) for p in PACKAGE_SOURCE.rglob("*.pyi")}
        assert stubs <= {p.relative_to(INSTALLED) for p in INSTALLED.rglob("*.pyi")}


@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="free-threaded CPython only")
def test_free_threaded_build_keeps_the_gil_off() -> None:
    # Importing an extension not declared free-threading compatible turns the GIL back on.
    for name in native_modules():
        importlib.import_module(f"guandan_fast.{name}")
    assert not sys._is_gil_enabled()  # type: ignore[attr-defined]


# --- sdist and wheel --------------------------------------------------------------------

# Left out of the copy that is built: VCS data, build products and caches, the generated C
# next to each .pyx.
NOT_COPIED = [".git", "build", "dist", "wheelhouse", "*.egg-info", "__pycache__", ".hypothesis",
              ".pytest_cache", ".benchmarks", ".venv*", "*.so", "*.pyd", "*.pyc"]  # fmt: skip


def _ignore(directory: str, names: list[str]) -> Iterable[str]:
    ignored = {n for n in names if any(fnmatch.fnmatch(n, pattern) for pattern in NOT_COPIED)}
    ignored |= {n for n in names if n.endswith(".c") and f"{n[:-2]}.pyx" in names}
    return ignored


@pytest.fixture(scope="module")
def distributions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``python -m build`` of a copy of the tree: the sdist, and the wheel built from it."""
    if not installed("build"):
        pytest.skip("needs build (the test extra installs it)")
    tmp = tmp_path_factory.mktemp("dists")
    tree = tmp / "tree"
    shutil.copytree(ROOT, tree, ignore=_ignore)
    out = tmp / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(tree)],
        check=False,
        cwd=tmp,
        env={**os.environ, "GUANDAN_FAST_OPT_LEVEL": "0"},  # the wheel is inspected, never run: compile fast
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-5000:]
    sdists, wheels = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(out.iterdir())
    return sdists[0], wheels[0]


@needs_source_tree
@pytest.mark.parametrize("level", ["4", "fast", "-1"])
def test_a_bad_optimisation_level_is_refused_by_name(level: str) -> None:
    result = subprocess.run(
        [sys.executable, "setup.py", "--version"],
        check=False,
        cwd=ROOT,
        env={**os.environ, "GUANDAN_FAST_OPT_LEVEL": level},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert f"GUANDAN_FAST_OPT_LEVEL must be 0, 1, 2 or 3, not {level!r}" in result.stderr


def _source_files(folder: str) -> set[str]:
    return {
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / folder).rglob("*")
        if p.is_file() and not _ignore(str(p.parent), [p.name]) and "__pycache__" not in p.parts
    }


@needs_source_tree
def test_sdist_is_self_sufficient(distributions: tuple[Path, Path]) -> None:
    sdist, _ = distributions
    with tarfile.open(sdist) as tar:
        top = f"guandan_fast-{gf.__version__}/"
        names = {n[len(top) :] for n in tar.getnames() if n.startswith(top)}
    needed = {"README.md", "LICENSE", "pyproject.toml", "setup.py", "MANIFEST.in", "src/guandan_fast/py.typed"}
    for pattern in ("*.py", "*.pyx", "*.pxd", "*.pxi", "*.pyi", "*.h"):
        needed |= {f"src/{p.relative_to(PACKAGE_SOURCE.parent).as_posix()}" for p in PACKAGE_SOURCE.rglob(pattern)}
    needed |= _source_files("tests") | _source_files("benchmarks")
    assert any(n.endswith(".pyx") for n in needed)
    assert "tests/test_packaging.py" in needed
    assert sorted(needed - names) == []
    products = [n for n in names if n.endswith((".so", ".pyd", ".pyc", ".c")) or "__pycache__" in n]
    assert products == []


@needs_source_tree
def test_wheel_has_the_compiled_core_and_typing(distributions: tuple[Path, Path]) -> None:
    _, wheel = distributions
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    assert "guandan_fast/py.typed" in names
    stubs = {f"guandan_fast/{p.relative_to(PACKAGE_SOURCE).as_posix()}" for p in PACKAGE_SOURCE.rglob("*.pyi")}
    assert stubs <= names
    for pyx in PACKAGE_SOURCE.rglob("*.pyx"):
        stem = f"guandan_fast/{pyx.relative_to(PACKAGE_SOURCE).with_suffix('').as_posix()}."
        compiled = [n for n in names if n.startswith(stem) and n.endswith((".so", ".pyd"))]
        assert len(compiled) == 1, (pyx.name, sorted(names))
    assert [n for n in names if n.endswith(".c") or n.startswith(("tests/", "benchmarks/"))] == []
    assert f"guandan_fast-{gf.__version__}.dist-info/licenses/LICENSE" in names


# --- the wheel matrix (cibuildwheel) ----------------------------------------------------

PYTHONS = ["cp310", "cp311", "cp312", "cp313", "cp314", "cp314t"]
EXPECTED_IDENTIFIERS = {
    "linux": {f"{py}-manylinux_{arch}" for py in PYTHONS for arch in ("x86_64", "aarch64")},
    "macos": {f"{py}-macosx_{arch}" for py in PYTHONS for arch in ("x86_64", "arm64")},
    "windows": {f"{py}-win_amd64" for py in PYTHONS},
}


@pytest.mark.skipif(not (ROOT / "pyproject.toml").is_file(), reason="needs pyproject.toml")
@pytest.mark.parametrize("platform", sorted(EXPECTED_IDENTIFIERS))
def test_cibuildwheel_builds_exactly_the_intended_wheels(platform: str) -> None:
    if not installed("cibuildwheel"):
        pytest.skip("needs cibuildwheel (the test extra installs it on Python 3.11+)")
    # The workflow narrows CIBW_ARCHS per runner; the configuration itself is checked here.
    env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
    result = subprocess.run(
        [sys.executable, "-m", "cibuildwheel", "--print-build-identifiers", "--platform", platform],
        cwd=ROOT,
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    identifiers = result.stdout.split()
    assert len(identifiers) == len(set(identifiers))
    assert set(identifiers) == EXPECTED_IDENTIFIERS[platform]


# --- workflows and the CI entry point ----------------------------------------------------


@pytest.mark.skipif(not (ROOT / ".github" / "workflows").is_dir(), reason="needs .github/workflows")
@pytest.mark.skipif(shutil.which("actionlint") is None, reason="actionlint is not installed")
def test_workflows_pass_actionlint() -> None:
    result = subprocess.run(
        ["actionlint", "-no-color"], check=False, cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@pytest.mark.skipif(not (ROOT / ".ci" / "run").is_file(), reason="needs .ci/run")
def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert script[0] == "#!/usr/bin/env bash"
    assert "set -euo pipefail" in script
    commands = [line for line in script if "pytest" in line and not line.lstrip().startswith("#")]
    assert len(commands) == 1 and re.fullmatch(r'python -m pip install "\.\[[a-z,]+\]" && python -m pytest -n auto', commands[0])
    assert commands[0] in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    # every optional extra is installed, so CI runs the tests of each (the benchmarks' too:
    # tests/test_benchmarks.py runs every benchmark once, untimed)
    installed = set(re.search(r"\[([a-z,]+)\]", commands[0]).group(1).split(","))  # type: ignore[union-attr]
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    assert installed == declared
