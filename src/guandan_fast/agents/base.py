"""The agent protocol: ``agent.act(deal, seat) -> index into deal.legal_actions()``.

An agent is asked only when ``seat`` is :attr:`Deal.to_act <guandan_fast.Deal.to_act>`,
in every phase: tribute, return and play. It must use only what that seat may know: its
own hand (``deal.hands[seat]``), the public record (``deal.history``, ``deal.tribute``,
``deal.finish_order``, ``deal.cards_left()``, the move to beat) and the levels, never the
other three hands. Agents that search (:class:`~guandan_fast.agents.PIMCAgent`) redraw those
hands with ``deal.sample_world(seat, seed)`` first. Plain callables ``f(deal, seat) -> int``
are agents too (:func:`as_agent`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine.cards import as_index, real_number
from ..engine.deal import Deal


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(deal, seat) -> int``: the index of the chosen entry of
    ``deal.legal_actions()`` for ``seat``, the seat to act."""

    def act(self, deal: Deal, seat: int) -> int: ...


AgentFunction = Callable[[Deal, int], int]


class FunctionAgent:
    """A plain function ``f(deal, seat) -> int`` seen as an :class:`Agent`."""

    __slots__ = ("function",)

    def __init__(self, function: AgentFunction) -> None:
        self.function = function

    def act(self, deal: Deal, seat: int) -> int:
        return self.function(deal, seat)

    def __repr__(self) -> str:
        return f"FunctionAgent({getattr(self.function, '__qualname__', self.function)!r})"


def as_agent(agent: Agent | AgentFunction) -> Agent:
    """``agent`` itself when it has ``act``, a :class:`FunctionAgent` for a plain callable."""
    if isinstance(agent, Agent):
        return agent
    if callable(agent):
        return FunctionAgent(agent)
    raise TypeError(
        f"an agent or policy has act(deal, seat) or is a function f(deal, seat) -> index, not {type(agent).__name__}"
    )


def check_turn(deal: Deal, seat: int) -> int:
    """``seat`` as an int, after checking that it is the seat to act (ValueError otherwise:
    a seat that is out, or not on turn, has no decision to make)."""
    if not isinstance(deal, Deal):
        raise TypeError(f"agents act on a guandan_fast.Deal, not {type(deal).__name__}")
    seat = as_index(seat, "a seat is an integer 0-3")
    if deal.to_act is None:
        raise ValueError("the deal is over: no seat has a decision to make")
    if seat != deal.to_act:
        out = " (it is out)" if seat in deal.finish_order else ""
        raise ValueError(f"seat {seat} is not to act{out}: seat {deal.to_act} is")
    return seat


def action_count(deal: Deal) -> int:
    """``len(deal.legal_actions())`` without building the platform triples in play."""
    if deal.phase == "play":
        return len(deal.legal_moves()) + deal.following
    return len(deal.legal_actions())


def checked_choice(agent: Agent, deal: Deal, seat: int) -> int:
    """Ask ``agent`` and check its answer: an index into ``deal.legal_actions()``."""
    choice = agent.act(deal, seat)
    count = action_count(deal)
    try:
        index = as_index(choice, "")
    except TypeError:
        raise TypeError(f"{agent!r} returned {choice!r}: act must return an action index (int)") from None
    if not 0 <= index < count:
        raise ValueError(f"{agent!r} returned action index {index}; seat {seat} has {count} legal actions")
    return index


def switch(value: object, what: str) -> bool:
    """An on/off option: True or False (1 or 0, as a command-line spec writes them); a
    ValueError naming ``what`` otherwise."""
    if isinstance(value, float) or value not in (True, False):  # (1.0 == True)
        raise ValueError(f"{what} must be true or false (1 or 0), not {value!r}")
    return bool(value)


def non_negative(value: object, what: str) -> float:
    """A real number >= 0 (not a bool) as a float; a ValueError naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"{what} must be a number >= 0, not {value!r}")
    return float(value)


#: The most worlds (and PIMC playouts) a decision may ask for: a world's hands take 64 bytes
#: and its results a few more a candidate, so a million stays within memory a decision may
#: take; more is refused when the agent is made, not when it first acts.
MOST_WORLDS = 1 << 20

#: The longest time limit an agent takes, a day in milliseconds: an infinite or larger one
#: would overflow the deadline arithmetic; None is the way to say "no limit".
MOST_BUDGET_MS = 86_400_000


def time_budget(value: object, what: str) -> float | None:
    """A time limit in milliseconds: a positive number up to a day, or None (also ``"none"``,
    as a command-line spec writes it) for no limit; a ValueError naming ``what`` otherwise."""
    if value is None or (isinstance(value, str) and value.strip().lower() == "none"):
        return None
    number = real_number(value)  # numpy's numbers too
    if number is None or not 0 < number <= MOST_BUDGET_MS:
        raise ValueError(
            f"{what} must be a positive number of milliseconds up to {MOST_BUDGET_MS} (a day), "
            f"or None for no limit, not {value!r}"
        )
    return number
