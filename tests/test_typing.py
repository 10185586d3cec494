"""The static checks, run by the one test command (``python -m pytest``, as .ci/run does):
``ruff check``, ``mypy --strict`` on ``src/``, ``stubtest`` of every compiled module's
``.pyi`` stub against the module, and ``mypy --strict`` on a user's file of the documented
idioms (tests/typed_usage.py) against the installed package.

ruff and mypy come with the ``test`` extra. The checks of the source tree (ruff, mypy on
``src/``) are skipped without it (the wheels' tests run from a copy of tests/); stubtest
and the user's file check the installed package, so they run against the wheels too.
Each check fails with the tool's own report.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import guandan_fast as gf

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent
HAS_SOURCE_TREE = (ROOT / "setup.py").is_file() and (ROOT / "src" / "guandan_fast").is_dir()
needs_source_tree = pytest.mark.skipif(not HAS_SOURCE_TREE, reason="needs the source tree (not an installed copy)")
INSTALLED = Path(gf.__file__).resolve().parent
#: What stubtest may not compare, one commented line each (genuine limits of stubtest with
#: Cython modules, never a stub that is wrong).
ALLOWLIST = TESTS / "stubtest_allowlist.txt"
#: The tools' settings (ruff's rules, mypy's Python version); beside the tests in a wheel's test run too.
CONFIG = ROOT / "pyproject.toml"
#: The folders ruff checks.
LINTED = ("src", "tests", "benchmarks", "scripts")
#: The optional dependencies src/ imports (the envs, ray and platform extras): mypy reads their
#: types, so the check of src/ means what .ci/run means only with all of them installed.
EXTRAS_IMPORTED = ("gymnasium", "pettingzoo", "ray", "websockets")


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    """``python *arguments`` from the repository's root (or the copy of tests/ a wheel's test run uses)."""
    return subprocess.run(
        [sys.executable, *arguments],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "NO_COLOR": "1"},
    )


def _report(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}"


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for the module's runs (the standard library and numpy stubs are read once)."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]')")
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(cache: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    config = ["--config-file", str(CONFIG)] if CONFIG.is_file() else []
    return _run("-m", "mypy", "--strict", "--cache-dir", str(cache), *config, *targets)


def extension_modules() -> list[str]:
    """Every compiled module of the installed package (one per ``.pyx``, shipped beside it)."""
    return sorted(
        ".".join(("guandan_fast", *path.relative_to(INSTALLED).with_suffix("").parts))
        for path in INSTALLED.rglob("*.pyx")
    )


@needs_source_tree
def test_ruff_finds_nothing() -> None:
    pytest.importorskip("ruff", reason="ruff is not installed (pip install '.[test]')")
    result = _run("-m", "ruff", "check", "--no-cache", "--output-format", "concise", *LINTED)
    assert result.returncode == 0, _report(result)


@needs_source_tree
def test_mypy_strict_passes_on_the_package_source(mypy_cache: Path) -> None:
    missing = [name for name in EXTRAS_IMPORTED if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"mypy reads the optional dependencies' types; not installed: {', '.join(missing)}")
    result = _mypy(mypy_cache, str(Path("src") / "guandan_fast"))
    assert result.returncode == 0, _report(result)


def test_every_extension_module_has_a_stub_that_matches_it() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]')")
    modules = extension_modules()
    assert "guandan_fast.engine.hand" in modules and "guandan_fast.engine.state" in modules
    missing = [m for m in modules if not (INSTALLED.parent / (m.replace(".", "/") + ".pyi")).is_file()]
    assert not missing, f"compiled modules without a .pyi stub: {missing}"
    result = _run("-m", "mypy.stubtest", "--allowlist", str(ALLOWLIST), *modules)
    assert result.returncode == 0, _report(result)


def test_the_allowlist_names_no_module_and_explains_each_entry() -> None:
    lines = ALLOWLIST.read_text(encoding="utf-8").splitlines()
    entries = [(i, line) for i, line in enumerate(lines) if line.strip() and not line.startswith("#")]
    assert entries
    for i, entry in entries:
        above = i - 1  # the block of entries this one belongs to opens with its reason
        while above >= 0 and lines[above].strip() and not lines[above].startswith("#"):
            above -= 1
        assert above >= 0 and lines[above].startswith("#"), f"allowlist entry {entry!r} has no comment saying why"
        # what stubtest may skip are Cython's own additions and slot wrappers, never a whole
        # module, class or function of the package
        assert re.search(r"__\w+__\Z", entry), f"allowlist entry {entry!r} is not a dunder Cython adds"


def test_a_users_file_of_the_documented_idioms_type_checks_and_runs(mypy_cache: Path) -> None:
    usage = TESTS / "typed_usage.py"
    result = _mypy(mypy_cache, str(usage))
    assert result.returncode == 0, _report(result)
    ran = _run(str(usage))  # the idioms work as written, too
    assert ran.returncode == 0, _report(ran)


@needs_source_tree
def test_a_fresh_install_has_the_checkers() -> None:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")
    extras = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = {re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower() for requirement in extras["test"]}
    assert {"ruff", "mypy", "typing_extensions"} <= names
