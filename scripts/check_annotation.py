#!/usr/bin/env python3
"""Fail when a native kernel of the package's ``.pyx`` modules touches Python objects.

Runs ``cython -a`` on each ``.pyx`` of ``src/guandan_fast`` (into a temporary directory)
and reads the annotated HTML: for every source line Cython reports a score (how much
Python C-API the line compiles to; the "yellow" of the HTML) and the C code made from
it. The kernels are

* every ``cdef`` function declared ``nogil`` (header to the end of its body), and
* the body of every ``with nogil:`` block,

and each of their lines must score 0 and compile to C code that calls no Python C-API
(``Py*`` functions, or ``__Pyx_`` helpers other than a few that are plain C). The files a
module includes (``include "movegen/tables.pxi"``) are checked with it: Cython annotates
each in a page of its own.

Usage: ``python scripts/check_annotation.py [path/to/_movegen.pyx] [-v]``; exit status 0
when clean, 1 with a report of the offending lines otherwise, 2 when Cython is missing.
"""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "guandan_fast"

#: Modules that only build Python objects for Python callers (the values Hand, Move and
#: MoveList and their entry points): they have no kernel to check.
OBJECT_MODULES = frozenset({"hand.pyx", "moves.pyx", "movelist.pyx"})

#: ``__Pyx_`` helpers that are plain C (no Python object involved).
PLAIN_C_HELPERS = frozenset({"__Pyx_pretend_to_initialize"})
#: C-API names that look like ``Py...`` but touch no Python object.
PLAIN_C_PY = frozenset({"Py_ssize_t", "Py_UNUSED"})

INCLUDE_RE = re.compile(r'^include\s+"([^"]+)"', re.MULTILINE)
LINE_RE = re.compile(r'<pre class="cython line score-(\d+)"[^>]*>[^<]*<span class="">(\d+)</span>:')
CODE_RE = re.compile(r"<pre class='cython code score-(\d+)[^']*'>(.*?)</pre>", re.DOTALL)
PYX_HELPER_RE = re.compile(r"\b(__Pyx_\w+)")
PY_API_RE = re.compile(r"\b(Py[A-Z]\w*|_Py\w+)\s*\(")


def kernel_lines(source: str) -> dict[int, str]:
    """Line numbers (1-based) of the nogil kernels, each with the region's name."""
    lines = source.splitlines()
    regions: dict[int, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        # a function header, not a module-level ``cdef dict NAME = dict(...)``
        if indent == 0 and stripped.startswith("cdef ") and "(" in stripped and "=" not in stripped.split("(")[0]:
            # a (possibly multi-line) function header: up to the line ending with ':'
            j = i
            header = stripped
            while not lines[j].rstrip().endswith(":") and j + 1 < len(lines):
                j += 1
                header += " " + lines[j].strip()
            if header.endswith(":") and re.search(r"\bnogil\b", header):
                name = re.search(r"(\w+)\s*\(", header)
                label = f"cdef {name.group(1) if name else '?'}"
                k = j + 1
                while k < len(lines) and (not lines[k].strip() or lines[k].startswith((" ", "\t", "#"))):
                    k += 1
                for n in range(i, k):
                    regions[n + 1] = label
                i = k
                continue
        if stripped == "with nogil:":
            k = i + 1
            while k < len(lines) and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > indent):
                k += 1
            for n in range(i + 1, k):  # the body: the 'with nogil:' line itself releases the GIL
                regions[n + 1] = f"with nogil (line {i + 1})"
            i = k
            continue
        i += 1
    return regions


def annotate(source_path: Path, workdir: Path) -> str:
    """The HTML of ``cython -a`` for the source (include paths: the package root, numpy)."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        print("check_annotation: Cython is not installed", file=sys.stderr)
        raise SystemExit(2) from None
    root = source_path.resolve().parent
    while (root / "__init__.py").is_file():  # up to the folder that holds the top package
        root = root.parent
    include = [str(root)]
    try:
        import numpy

        include.append(numpy.get_include())
    except ImportError:  # pragma: no cover
        pass
    output = workdir / (source_path.stem + ".c")
    command = [sys.executable, "-m", "cython", "-a", "-3", "-o", str(output)]
    for path in include:
        command += ["-I", path]
    command.append(str(source_path))
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        raise SystemExit(f"check_annotation: cython -a failed on {source_path}")
    return (workdir / (source_path.stem + ".html")).read_text(encoding="utf-8")


def parts(source_path: Path, workdir: Path) -> list[tuple[Path, Path]]:
    """``(source, its annotated page)`` of a module and of each file it includes (the pages
    :func:`annotate` wrote into ``workdir``)."""
    found = [(source_path, workdir / (source_path.stem + ".html"))]
    for included in INCLUDE_RE.findall(source_path.read_text(encoding="utf-8")):
        found.append((source_path.parent / included, workdir / Path(included).with_suffix(".html")))
    return found


def line_reports(page: str) -> dict[int, tuple[int, str]]:
    """Source line -> (score, the C code it compiles to), from the annotated HTML."""
    reports: dict[int, tuple[int, str]] = {}
    lines = list(LINE_RE.finditer(page))
    for index, match in enumerate(lines):
        end = lines[index + 1].start() if index + 1 < len(lines) else len(page)
        code = CODE_RE.search(page, match.end(), end)
        text = html.unescape(re.sub(r"<[^>]+>", "", code.group(2))) if code else ""
        reports[int(match.group(2))] = (int(match.group(1)), text)
    return reports


def python_calls(code: str) -> list[str]:
    """Python C-API names called by a line's C code (empty for plain C)."""
    names = [n for n in PYX_HELPER_RE.findall(code) if n not in PLAIN_C_HELPERS]
    names += [n for n in PY_API_RE.findall(code) if n not in PLAIN_C_PY]
    return sorted(set(names))


def check(source_path: Path, verbose: bool = False) -> int:
    files = parts(source_path, Path("."))
    regions = {path: kernel_lines(path.read_text(encoding="utf-8")) for path, _ in files}
    if not any(regions.values()) and source_path.name in OBJECT_MODULES:
        print(f"check_annotation: {source_path.name} builds Python objects only (no kernel)", file=sys.stderr)
        return 0
    if not any(regions.values()):
        print(f"check_annotation: no nogil kernel found in {source_path}", file=sys.stderr)
        return 1
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        annotate(source_path, Path(tmp))
        for path, page in parts(source_path, Path(tmp)):
            if not regions[path]:
                continue
            reports = line_reports(page.read_text(encoding="utf-8"))
            if not reports:
                print(f"check_annotation: could not read the annotated HTML of {path.name}", file=sys.stderr)
                return 1
            source_lines = path.read_text(encoding="utf-8").splitlines()
            for number in sorted(regions[path]):
                score, code = reports.get(number, (0, ""))
                calls = python_calls(code)
                if score > 0 or calls:
                    problems.append(
                        f"{path.name}:{number} [{regions[path][number]}] score {score}"
                        f"{' calls ' + ', '.join(calls) if calls else ''}: {source_lines[number - 1].strip()}"
                    )
    names = sorted({f"{path.name}: {name}" for path in regions for name in regions[path].values()})
    lines = sum(len(found) for found in regions.values())
    if verbose:
        print(f"checked {lines} lines in {len(names)} kernels:")
        for name in names:
            print(f"  {name}")
    if problems:
        print(f"check_annotation: {len(problems)} kernel line(s) interact with Python:")
        for problem in problems:
            print("  " + problem)
        return 1
    print(f"check_annotation: OK, {len(names)} nogil kernels ({lines} lines) are pure C")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path, help="default: every .pyx module of the package, subpackages included")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    sources = args.sources or sorted(PACKAGE.rglob("*.pyx"))
    return max(check(source, args.verbose) for source in sources)


if __name__ == "__main__":
    sys.exit(main())
