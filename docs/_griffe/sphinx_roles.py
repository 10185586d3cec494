"""A Griffe extension for the documentation site: Sphinx cross-reference roles as code.

The package's docstrings name other objects the Sphinx way (``:class:`Deal```,
``:meth:`~guandan_fast.Deal.step```). Markdown has no such roles, so mkdocstrings would
print them literally; this extension turns each one into an inline code span of the name
(the last component when the target starts with ``~``, as Sphinx shows it). Loaded by
``mkdocs.yml`` (``extensions:`` of the python handler); the source files stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:py:)?(?:class|meth|func|attr|data|mod|obj|exc|const):`(~?)([^`]+)`")


def _as_code(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"`{target.rsplit('.', 1)[-1] if match.group(1) else target}`"


def plain_roles(text: str) -> str:
    """``text`` with every Sphinx cross-reference role written as a Markdown code span."""
    return ROLE.sub(_as_code, text)


class SphinxRoles(Extension):
    """Rewrites the roles in every docstring Griffe loads."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = plain_roles(obj.docstring.value)
