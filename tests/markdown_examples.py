"""The Python examples of the project's Markdown pages (README.md, docs/*.md), run as tests.

Used by tests/test_readme.py and tests/test_docs.py: every ```python block of a page runs
in order, in one namespace, as the reader would run them one after the other.
"""

from __future__ import annotations

import re
from pathlib import Path

PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", flags=re.DOTALL | re.MULTILINE)


def python_blocks(page: Path) -> list[str]:
    """The source of every ```python block of ``page``, in order."""
    return PYTHON_BLOCK.findall(page.read_text(encoding="utf-8"))


def run_python_blocks(page: Path) -> dict[str, object]:
    """Run the page's Python blocks in order in one namespace and return that namespace.

    Each block is compiled under the page's path and its first line number there, so a
    failing example's traceback points at the line of the page."""
    text = page.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"example:{page.name}"}
    for match in PYTHON_BLOCK.finditer(text):
        first_line = text.count("\n", 0, match.start(1))
        code = compile("\n" * first_line + match.group(1), str(page), "exec")
        exec(code, namespace)  # noqa: S102 - the project's own pages
    return namespace
