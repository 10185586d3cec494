"""Agents that play Guandan: one protocol, ``agent.act(deal, seat) -> action index``.

* :class:`RandomAgent`: uniformly random legal actions (the baseline);
* :class:`MinPlaysAgent`: rules built on :func:`~guandan_fast.min_plays`;
* :class:`PIMCAgent`: the MinPlays rules, and in the endgame sampled worlds × native
  rollouts, a budget in playouts or milliseconds;
* :class:`SearchAgent`: every play decision searched in a time budget, sampled worlds
  judged by native MinPlays rollouts and, once small, by the exact solver;
* :func:`make_agent` builds one by name, :func:`as_agent` turns a plain function
  ``f(deal, seat) -> int`` into one.

See :mod:`guandan_fast.agents.base` for what an agent may look at.
"""

from .base import Agent, FunctionAgent, as_agent, check_turn
from .minplays import MinPlaysAgent
from .pimc import PIMCAgent
from .random_agent import RandomAgent
from .registry import AGENTS, make_agent, parse_agent_spec
from .search import SearchAgent

__all__ = [
    "AGENTS",
    "Agent",
    "FunctionAgent",
    "MinPlaysAgent",
    "PIMCAgent",
    "RandomAgent",
    "SearchAgent",
    "as_agent",
    "check_turn",
    "make_agent",
    "parse_agent_spec",
]
