"""Agents by name: :func:`make_agent` and the ``NAME:key=value,...`` specs of the command line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Agent
from .minplays import MinPlaysAgent
from .pimc import PIMCAgent
from .random_agent import RandomAgent
from .search import SearchAgent

#: Every agent :func:`make_agent` knows, by name.
AGENTS: dict[str, Callable[..., Agent]] = {
    "minplays": MinPlaysAgent,
    "pimc": PIMCAgent,
    "random": RandomAgent,
    "search": SearchAgent,
}


def make_agent(name: str, **options: Any) -> Agent:
    """A new agent by name (``"random"``, ``"minplays"``, ``"pimc"``, ``"search"``), its options passed on
    (e.g. ``make_agent("pimc", playouts=64, seed=1)``)."""
    return AGENTS[_known_name(name)](**options)


def _known_name(name: object) -> str:
    """``name`` as a key of :data:`AGENTS` (case and spaces ignored); errors name the agents."""
    if not isinstance(name, str):
        raise TypeError(f"an agent name is a string, not {type(name).__name__}")
    key = name.strip().lower()
    if key not in AGENTS:
        raise ValueError(f"unknown agent {name!r}: the agents are {', '.join(sorted(AGENTS))}")
    return key


def parse_agent_spec(text: str) -> tuple[str, dict[str, Any]]:
    """``"pimc:playouts=64,rollout=minplays"`` → ``("pimc", {"playouts": 64, "rollout": "minplays"})``;
    values that read as integers or numbers become ``int`` or ``float``."""
    if not isinstance(text, str):
        raise TypeError(f"an agent spec is a string such as 'pimc:worlds=24', not {type(text).__name__}")
    name, _, rest = text.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ValueError(f"bad agent option {item!r} in {text!r}: expected key=value")
        options[key.strip()] = _option_value(value.strip())
    return _known_name(name), options


def _option_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
