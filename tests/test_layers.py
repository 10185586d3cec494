"""The package's layers depend downward only, and its modules never import one another in a
cycle: every import and cimport of every module (``.py``, ``.pyx``, ``.pxd``), at any depth
of the module (lazy ones included; not those for type checkers only), is followed."""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "guandan_fast"

#: The layers, lowest first; a module may import its own layer and those below.
LAYERS = {
    "engine": 0,  # values, move generation, the play state, Deal, Match, scoring
    "search": 1,  # min_plays, playouts and their policies, worlds
    "encode": 2,  # state and action encoders, the fixed action space
    "agents": 3,
    "arena": 4,
    "envs": 4,
    "platform": 4,
    "": 5,  # the package's top: __init__, __main__, cli
}

#: Imports made at call time against the layers: Deal's conveniences (playouts, sampled
#: worlds) run the search layer on the deal they belong to; the engine imports neither at
#: module level, so loading the engine never loads search.
CALL_TIME_UPCALLS = {
    ("engine.deal", "search.playout"),
    ("engine.deal", "search.infoset"),
}

_CIMPORT = re.compile(r"^\s*(?:from\s+(\.*[\w.]*)\s+cimport\s|cimport\s+([\w.]+))", re.MULTILINE)


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE).with_suffix("")
    parts = [part for part in relative.parts if part != "__init__"]
    return ".".join(parts)


def _resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name (without ``guandan_fast.``) of a relative or absolute import."""
    if level == 0:
        return (module or "").removeprefix("guandan_fast").lstrip(".")
    base = importer.split(".") if importer else []
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*base, *([module] if module else [])])


def _known(name: str, modules: set[str]) -> str | None:
    """The package module ``name`` names (or the longest module it lies in)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module-level imports, all imports) of every module, as package module names (the
    ``.pxi`` files a ``.pyx`` includes count as part of it)."""
    files = [p for p in PACKAGE.rglob("*") if p.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in p.parts]
    modules = {_module_name(p) for p in files}
    top: dict[str, set[str]] = {m: set() for m in modules}
    every: dict[str, set[str]] = {m: set() for m in modules}
    for path in files:
        name = _module_name(path)
        is_package = path.stem == "__init__"
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".pyx":
            for included in re.findall(r'^include\s+"([^"]+)"', text, re.MULTILINE):
                text += "\n" + (path.parent / included).read_text(encoding="utf-8")
        found: list[tuple[str, bool]] = []  # (target, at module level)
        if path.suffix == ".py":
            tree = ast.parse(text)
            for block in ast.walk(tree):
                if isinstance(block, ast.If) and getattr(block.test, "id", None) == "TYPE_CHECKING":
                    block.body = []  # imports for type checkers only
            module_level = {id(node) for node in tree.body}
            for node in ast.walk(tree):
                targets: list[str] = []
                if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("guandan_fast")):
                    base = _resolve(name, is_package, node.level, node.module)
                    targets = [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
                elif isinstance(node, ast.Import):
                    targets = [a.name.removeprefix("guandan_fast.") for a in node.names if a.name.startswith("guandan_fast.")]
                for target in targets:
                    found.append((target, id(node) in module_level))
        else:  # Cython: imports and cimports, all at module level in this package
            for match in re.finditer(r"^(?:from\s+(\.*[\w.]+)\s+(?:c?import)\s|c?import\s+(guandan_fast[\w.]*))", text, re.MULTILINE):
                spec = match.group(1) or match.group(2)
                if spec.startswith(("guandan_fast", ".")):
                    level = len(spec) - len(spec.lstrip("."))
                    found.append((_resolve(name, is_package, level, spec.lstrip(".") or None), True))
        for target, at_top in found:
            known = _known(target, modules)
            if known is None or known == name:
                continue
            every[name].add(known)
            if at_top:
                top[name].add(known)
    return top, every


#: The modules at the package's top (the layer above all folders), and the command line's
#: package (one module per subcommand).
TOP = {"", "__main__", "cli"}


def _layer(module: str) -> int:
    return LAYERS[""] if module.split(".")[0] in TOP else LAYERS[module.split(".")[0]]


def test_every_module_belongs_to_a_layer() -> None:
    top, _ = _graph()
    for module in top:
        assert module.split(".")[0] in TOP or module.split(".")[0] in LAYERS, f"{module} lies in no layer: add its folder to LAYERS"


def test_layers_depend_downward_only() -> None:
    top, every = _graph()
    for module, imported in every.items():
        for target in imported:
            if _layer(target) <= _layer(module):
                continue
            assert (module, target) in CALL_TIME_UPCALLS, f"{module} (layer {_layer(module)}) imports {target} (layer {_layer(target)})"
            assert target not in top[module], f"{module} imports {target} at module level"


def test_no_import_cycle() -> None:
    _, every = _graph()
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, trail: list[str]) -> None:
        if state.get(module) == 2:
            return
        assert state.get(module) != 1, f"import cycle: {' -> '.join([*trail, module])}"
        state[module] = 1
        for imported in sorted(every[module]):
            visit(imported, [*trail, module])
        state[module] = 2

    for module in sorted(every):
        visit(module, [])


def test_the_graph_sees_imports_cimports_and_lazy_imports() -> None:
    """The checks above are only as good as the graph: it must hold known edges of each kind."""
    top, every = _graph()
    assert "engine.hand" in top["engine.moves"]  # a relative import
    assert "engine._movegen" in top["search._playout"]  # a .pyx cimport
    assert "engine.moves" in top["engine.state"]  # an import of a .pxi that engine/state.pyx includes
    assert "engine.deal" in every["agents.base"] or "engine.deal" in top["agents.base"]
    assert "search.playout" in every["engine.deal"] and "search.playout" not in top["engine.deal"]  # lazy
    assert "reference" not in " ".join(top["engine.moves"]) and "engine.moves" not in top["engine.reference"]
