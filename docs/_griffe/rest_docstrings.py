"""A Griffe extension for the documentation site: the reST habits of the docstrings as Markdown.

The package's docstrings are written the Sphinx way, which Markdown would print literally
or run together; this extension rewrites two habits before mkdocstrings renders them:

* cross-reference roles (``:class:`Deal```, ``:meth:`~guandan_fast.Deal.step```) become an
  inline code span of the name (its last component after a ``~``, as Sphinx shows it);
* definition lists (a line holding only a literal, then its definition indented by four
  spaces) become Markdown definition lists (the ``def_list`` extension of ``mkdocs.yml``);
* citations of the rules, ``RULES.md §4``, become links to that section of the rules page
  (docs/rules.md, whose headings carry the ids ``rules`` and ``rules-1`` to ``rules-10``).

Loaded by ``mkdocs.yml`` (``extensions:`` of the python handler); the sources stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|data|mod|obj|exc|const):`(~?)([^`]+)`")
#: A term line (only a ``literal`` or a "string") followed by a line indented by four spaces.
#: A citation of the rules, with the first section number it names if any.
RULES = re.compile(r"RULES\.md( §(\d+)(?:[-–]\d+)?)?")
TERM = re.compile(r'^((?:``[^`\n]+``|"[^"\n]+"))\n {4}(?=\S)', flags=re.MULTILINE)


def _as_code(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def _as_link(match: re.Match[str]) -> str:
    sections, first = match.groups()
    return f"[the rules{sections}][rules-{first}]" if first else "[the rules][rules]"


def as_markdown(text: str) -> str:
    """``text`` with its roles as code spans, its definition lists in Markdown form and its
    citations of the rules as links."""
    return RULES.sub(_as_link, TERM.sub(r"\n\1\n:   ", ROLE.sub(_as_code, text)))


class RestDocstrings(Extension):
    """Rewrites every docstring Griffe loads (see :func:`as_markdown`)."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = as_markdown(obj.docstring.value)
