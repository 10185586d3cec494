#!/usr/bin/env bash
# End-to-end check of the distributions, as a user would get them:
#
#   1. `python -m build`: the sdist, then the wheel built FROM that sdist (so a missing
#      source file in the sdist fails here);
#   2. the sdist carries the Cython sources, tests, benchmarks, README and LICENSE, and the
#      wheel carries py.typed, every .pyi and a compiled module for every .pyx;
#   3. a fresh venv outside the source tree installs the wheel;
#   4. from a directory outside the source tree, it imports guandan_fast, checks that the
#      native core is the compiled module from that venv, calls it, and runs the CLI.
#
# Usage: scripts/check_wheel.sh [--ref REV] [--tests] [--outdir DIR] [--keep]
#   --ref REV     build a clean export of git revision REV (e.g. HEAD) instead of the
#                 working tree, whose uncommitted and untracked files the build would take
#   --tests       also run the sdist's test suite against the installed wheel
#   --outdir DIR  copy the checked sdist and wheel to DIR (created if needed)
#   --keep        keep the work directory (printed at the end) instead of deleting it
# Environment: PYTHON (default python3) is the interpreter of the venvs; TMPDIR as usual.
set -euo pipefail

run_tests=0
keep=0
ref=
outdir=
while [ $# -gt 0 ]; do
    case "$1" in
        --ref) ref=${2:?--ref needs a git revision}; shift ;;
        --tests) run_tests=1 ;;
        --outdir) outdir=${2:?--outdir needs a directory}; shift ;;
        --keep) keep=1 ;;
        -h | --help) sed -n '2,19p' "$0"; exit 0 ;;
        *) echo "check_wheel: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$outdir" in "" | /*) ;; *) outdir=$PWD/$outdir ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/gf-check-wheel.XXXXXX")
if [ "$keep" = 1 ]; then
    trap 'echo "check_wheel: work directory kept: $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi

say() { printf '\n== %s\n' "$*"; }

# A venv's executables live in bin/ (POSIX) or Scripts/ (Windows).
venv_python() {
    if [ -x "$1/bin/python" ]; then echo "$1/bin/python"; else echo "$1/Scripts/python.exe"; fi
}

tree=$root
if [ -n "$ref" ]; then
    say "clean export of $ref ($(git -C "$root" rev-parse --short "$ref"))"
    mkdir "$work/tree"
    git -C "$root" archive --format=tar "$ref" | tar -x -C "$work/tree"
    tree=$work/tree
fi

say "build tools in their own venv ($("$python" --version))"
"$python" -m venv "$work/tools"
tools=$(venv_python "$work/tools")
"$tools" -m pip install --quiet --upgrade pip
"$tools" -m pip install --quiet build

say "python -m build: sdist, then the wheel from the sdist"
"$tools" -m build --outdir "$work/dist" "$tree"
sdists=("$work"/dist/*.tar.gz)
wheels=("$work"/dist/*.whl)
if [ "${#sdists[@]}" != 1 ] || [ ! -f "${sdists[0]}" ] || [ "${#wheels[@]}" != 1 ] || [ ! -f "${wheels[0]}" ]; then
    echo "check_wheel: expected one sdist and one wheel in $work/dist" >&2
    exit 1
fi
sdist=${sdists[0]}
wheel=${wheels[0]}

say "contents of $(basename "$sdist") and $(basename "$wheel")"
"$tools" - "$tree" "$sdist" "$wheel" <<'PY'
import sys
import tarfile
import zipfile
from pathlib import Path

root, sdist, wheel = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
package = root / "src" / "guandan_fast"
with tarfile.open(sdist) as tar:
    # members are "guandan_fast-<version>/<path>"
    in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
with zipfile.ZipFile(wheel) as zf:
    in_wheel = set(zf.namelist())

pyx = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.pyx"))
needed = {"README.md", "LICENSE", "pyproject.toml", "setup.py", "MANIFEST.in"}
needed |= {
    f"src/guandan_fast/{p.relative_to(package).as_posix()}"
    for pattern in ("*.pyx", "*.pxd", "*.pyi", "*.h", "*.py")
    for p in package.rglob(pattern)
    if "__pycache__" not in p.parts
}
needed |= {"src/guandan_fast/py.typed"}
for folder in ("tests", "benchmarks"):
    needed |= {
        p.relative_to(root).as_posix()
        for p in (root / folder).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in {".pyc", ".pyo"}
    }
missing = sorted(needed - in_sdist)
stray = sorted(n for n in in_sdist if n.endswith((".so", ".pyd", ".pyc", ".c")) or "__pycache__" in n)
problems = [f"sdist lacks {m}" for m in missing] + [f"sdist carries a build product {s}" for s in stray]

wanted = {"guandan_fast/py.typed"} | {f"guandan_fast/{p.relative_to(package).as_posix()}" for p in package.rglob("*.pyi")}
problems += [f"wheel lacks {m}" for m in sorted(wanted - in_wheel)]
for name in pyx:
    stem = name[: -len(".pyx")]
    if not any(n.startswith(f"guandan_fast/{stem}.") and n.endswith((".so", ".pyd")) for n in in_wheel):
        problems.append(f"wheel has no compiled module for {name}")
problems += [f"wheel carries {n}" for n in sorted(in_wheel) if n.endswith(".c") or n.startswith("tests/")]
if problems:
    sys.exit("\n".join(problems))
print(f"sdist: {len(in_sdist)} files, the Cython sources {pyx}, tests and benchmarks included")
print(f"wheel: {len(in_wheel)} files, py.typed and a compiled module for each of {pyx}")
PY

for file in "$sdist" "$wheel"; do
    printf '%10d bytes  %s\n' "$(wc -c < "$file")" "$(basename "$file")"
done

say "fresh venv outside the source tree, the wheel installed"
"$python" -m venv "$work/venv"
venv=$(venv_python "$work/venv")
"$venv" -m pip install --quiet --upgrade pip
"$venv" -m pip install --quiet "$wheel"

say "import and call the native core from $work/run (outside the source tree)"
mkdir "$work/run"
cd "$work/run"
"$venv" - "$root" "$tree" <<'PY'
import importlib.machinery
import sys
from pathlib import Path

import guandan_fast as gf
from guandan_fast import _movegen

trees = {Path(arg).resolve() for arg in sys.argv[1:]}
package_dir = Path(gf.__file__).resolve().parent
native = Path(_movegen.__file__).resolve()
assert not trees & set(package_dir.parents), f"imported the source tree: {package_dir}"
assert Path(sys.prefix).resolve() in package_dir.parents, f"not imported from the venv: {package_dir}"
assert native.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), f"not a compiled module: {native}"
assert gf.resolve_backend() == "native"
assert (package_dir / "py.typed").is_file(), "py.typed not installed"

hand = "S3 S4 S5 S6 S7 H2 H2 SA DA"
native_moves = gf.legal_moves(hand, 2, backend="native").to_platform()
reference_moves = gf.legal_moves(hand, 2, backend="reference").to_platform()
canonical = sorted((kind, rank, sorted(cards)) for kind, rank, cards in native_moves)
assert canonical == sorted((kind, rank, sorted(cards)) for kind, rank, cards in reference_moves), "backends differ"
assert len(native_moves) > 0
print(f"legal_moves({hand!r}, 2, backend='native'): {len(native_moves)} moves, the same as the reference")
print(f"native core: {native} ({native.stat().st_size} bytes)")
PY

cli="$(dirname "$venv")/guandan-fast"
[ -x "$cli" ] || cli="$cli.exe"
"$cli" --help > /dev/null
echo "console script: $cli --help ok"

if [ "$run_tests" = 1 ]; then
    say "the sdist's test suite against the installed wheel"
    "$venv" -m pip install --quiet "${wheel}[test]"
    mkdir "$work/sdist" && tar -xzf "$sdist" -C "$work/sdist"
    # tests/, pyproject.toml and README.md only: no src/ beside them, so the wheel is imported.
    mkdir "$work/suite"
    cp -R "$work"/sdist/*/tests "$work"/sdist/*/pyproject.toml "$work"/sdist/*/README.md "$work/suite/"
    (cd "$work/suite" && "$venv" -m pytest -q -p no:cacheprovider)
fi

if [ -n "$outdir" ]; then
    mkdir -p "$outdir"
    cp "$sdist" "$wheel" "$outdir/"
    echo "check_wheel: copied $(basename "$sdist") and $(basename "$wheel") to $outdir"
fi
echo "check_wheel: OK"
