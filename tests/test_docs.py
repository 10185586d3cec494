"""The documentation site builds without a warning, its examples run, and its links stay inside.

Checks docs/ and mkdocs.yml at the repository root (skipped where they are not beside the
tests, e.g. when cibuildwheel runs a copy of tests/ against an installed wheel).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_examples import python_blocks, run_python_blocks

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
MARKDOWN = [ROOT / "README.md", *PAGES]
needs_docs = pytest.mark.skipif(not (ROOT / "mkdocs.yml").exists(), reason="docs/ and mkdocs.yml are not beside the tests")

#: Inline links and images ``[text](target)`` / ``![alt](target)``, outside code.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
#: Reference definitions ``[label]: target``.
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", flags=re.MULTILINE)
#: Fenced code blocks and inline code, which hold no links.
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", flags=re.DOTALL | re.MULTILINE)


@needs_docs
def test_site_builds_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install '.[docs]')")
    pytest.importorskip("material", reason="mkdocs-material is not installed (pip install '.[docs]')")
    pytest.importorskip("mkdocstrings_handlers.python", reason="mkdocstrings[python] is not installed (pip install '.[docs]')")
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for page in PAGES:
        url = page.relative_to(DOCS).with_suffix("")
        built = site / (url.parent if url.name == "index" else url) / "index.html"
        assert built.exists(), f"{page.name} was not built"
    reference = (site / "api" / "index.html").read_text(encoding="utf-8")
    assert "legal_moves" in reference and "Deal" in reference and ":class:" not in reference


@needs_docs
@pytest.mark.parametrize("page", [page for page in PAGES if python_blocks(page)], ids=lambda page: page.name)
def test_page_examples_run(page: Path) -> None:
    run_python_blocks(page)


def links(page: Path) -> list[str]:
    text = CODE.sub("", page.read_text(encoding="utf-8"))
    return LINK.findall(text) + REFERENCE.findall(text)


@needs_docs
@pytest.mark.parametrize("page", MARKDOWN, ids=lambda page: page.name)
def test_links_stay_inside_the_repository(page: Path) -> None:
    """Relative links name files of the repository; anything else is a public http(s) URL."""
    for target in links(page):
        if target.startswith("#"):
            continue
        if re.match(r"[a-z][a-z0-9+.-]*:", target, flags=re.IGNORECASE):
            assert target.startswith(("https://", "http://")), f"{page.name}: {target} is not a public URL"
            continue
        path = (page.parent / target.split("#", 1)[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page.name}: {target} points outside the repository"
        assert path.exists(), f"{page.name}: {target} names no file of the repository"


def test_link_pattern_finds_what_pages_write() -> None:
    sample = "See [rules](docs/rules.md#5), ![logo](img.png \"x\"), `[code](no.md)`.\n[ref]: https://example.org\n"
    found = LINK.findall(CODE.sub("", sample)) + REFERENCE.findall(CODE.sub("", sample))
    assert found == ["docs/rules.md#5", "img.png", "https://example.org"]


@needs_docs
def test_docstrings_are_rewritten_as_markdown() -> None:
    """The site's Griffe extension: Sphinx roles become code, reST definition lists Markdown ones."""
    pytest.importorskip("griffe", reason="griffe is not installed (pip install '.[docs]')")
    spec = importlib.util.spec_from_file_location("rest_docstrings", DOCS / "_griffe" / "rest_docstrings.py")
    assert spec is not None and spec.loader is not None
    extension = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(extension)
    text = (
        "See :meth:`~guandan_fast.Deal.step`, :class:`Rules` (RULES.md §7-9) and RULES.md.\n\n"
        "``limit``\n    how many\n    failures\n``level``\n    where to"
    )
    assert extension.as_markdown(text) == (
        "See `step`, `Rules` ([the rules §7-9][rules-7]) and [the rules][rules].\n\n"
        "\n``limit``\n:   how many\n    failures\n\n``level``\n:   where to"
    )
