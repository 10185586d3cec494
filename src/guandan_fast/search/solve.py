"""The exact perfect-information solver: :func:`solve` (the search is native, ``_solve``).

Given all four hands of a play-phase :class:`~guandan_fast.engine.deal.Deal`, :func:`solve`
gives the value of the position for the team of the seat to act with both teams playing
perfectly, the value of each legal action and a principal line. The game is the deal's
own: the native play state's rules (``state_make``/``state_unmake``), passes as moves,
接风 and the finishing order exactly as :meth:`Deal.step` plays them. See
docs/solving.md for what is exact, the objectives, the limits and how an agent uses it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Final, Literal

from ..engine.cards import bounded, check_flag, real_number
from ..engine.deal import Deal
from ..engine.notation import StoredAction, stored_triple
from . import _solve as _native

__all__ = ["OBJECTIVES", "Objective", "Solution", "check_milliseconds", "solve"]

Objective = Literal["points", "first"]

#: The objectives and what a value means for the team of the seat to act:
#:
#: ``"points"``
#:     the level points the deal gives it when it ends, ``deal.result(seat)``: +3, +2 or +1
#:     when its player goes out first and the partner is second, third or last; minus as
#:     much when the other team does;
#: ``"first"``
#:     +1 when one of its players goes out first, else -1 (the game ends at the first
#:     player out). Its sign is always the sign of ``"points"``; it solves faster.
OBJECTIVES: Final = ("points", "first")

#: The largest node limit taken (and about the most nodes a solve can search per second
#: for more than a day).
MAX_NODES: Final = 2**62
#: The largest time limit taken, in milliseconds (a year).
MAX_TIME_MS: Final = 365 * 24 * 3600 * 1000

_local = threading.local()


@dataclass(frozen=True)
class Solution:
    """What :func:`solve` proved about a position.

    Values are for the team of :attr:`seat` (the seat to act). When :attr:`exact`,
    :attr:`value` is the value under perfect play and :attr:`values` each legal action's;
    when a limit stopped the search, :attr:`value` and some :attr:`values` are None and
    the bounds say what was proven: the true value lies in ``[lower, upper]`` (per action,
    in ``[lowers[i], uppers[i]]``).
    """

    objective: str
    #: the seat to act; every value is for its team
    seat: int
    #: the position's value, None unless proven
    value: int | None
    lower: int
    upper: int
    #: the legal actions, ``deal.legal_actions()``, as immutable platform triples (the
    #: cards a tuple; :meth:`Deal.step` takes them as they are)
    actions: tuple[StoredAction, ...]
    #: per action (row-aligned with :attr:`actions`): its value, None unless proven
    values: tuple[int | None, ...]
    lowers: tuple[int, ...]
    uppers: tuple[int, ...]
    #: a principal line, ``(seat, action)`` pairs from the position to the end of the deal
    #: ("points") or the first player out ("first"), starting with :attr:`best`; empty
    #: unless exact (shorter if a limit stopped it on the way)
    line: tuple[tuple[int, StoredAction], ...]
    #: positions searched
    nodes: int
    #: every value proven
    exact: bool
    #: why the search stopped early: "max_nodes" or "time_ms"; None when it finished
    stopped: str | None

    @property
    def best(self) -> int:
        """The row of a best action: the first whose lower bound is the largest (with an
        exact solution, the first action of the best value)."""
        top = max(self.lowers)
        return self.lowers.index(top)

    def __repr__(self) -> str:
        value = f"{self.value:+d}" if self.value is not None else f"in [{self.lower:+d}, {self.upper:+d}]"
        state = "exact" if self.exact else f"stopped by {self.stopped}"
        best = self.best
        action = _show(self.actions[best])
        bound = self.values[best]
        shown = f"{bound:+d}" if bound is not None else f">= {self.lowers[best]:+d}"
        return (
            f"<Solution {self.objective} {value} for seat {self.seat}'s team, {state}, "
            f"{self.nodes:,} nodes; best {action} ({shown}) of {len(self.actions)} actions; "
            f"line of {len(self.line)}>"
        )


def _show(action: StoredAction) -> str:
    kind, rank, cards = action
    return "PASS" if kind == "PASS" else f"{kind} {rank} {' '.join(cards)}"


def solve(
    deal: Deal,
    objective: Objective = "points",
    *,
    max_nodes: int | None = None,
    time_ms: float | None = None,
    table: bool = True,
) -> Solution:
    """The exact value of a play-phase position (all four hands known), both teams playing
    perfectly, for the team of the seat to act; each legal action's value and a principal
    line.

    ``objective``: ``"points"`` (the deal's level points, :meth:`Deal.result`) or
    ``"first"`` (+1 when the team's player goes out first, else -1), see :data:`OBJECTIVES`.
    ``max_nodes``, ``time_ms``: stop after that many positions or milliseconds; then the
    solution says so (:attr:`Solution.stopped`) and holds the bounds proven so far, never
    a guess. ``table``: False searches without the transposition table (slower; the same
    values — for tests); a bool or numpy's bool.

    The search runs without the GIL (threads may solve at once; each thread keeps its own
    table between calls, which no result depends on) and returns promptly on Ctrl-C
    (KeyboardInterrupt). TypeError for a deal that is no Deal or an argument of the wrong
    type, ValueError for a deal in its tribute phase or done, an unknown objective or a
    limit <= 0.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"solve takes a guandan_fast Deal, not {type(deal).__name__}")
    if not isinstance(objective, str):
        raise TypeError(f"objective must be a string, one of {OBJECTIVES}, not {type(objective).__name__}")
    if objective not in _native.OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}: one of {OBJECTIVES}")
    table = check_flag(table, "table")
    nodes = 0 if max_nodes is None else bounded(max_nodes, "max_nodes", 1, MAX_NODES)
    millis = 0.0 if time_ms is None else check_milliseconds(time_ms)
    if deal.phase in ("tribute", "return"):
        raise ValueError(f"the deal is in its {deal.phase} phase: solve takes a position of the play phase")
    if deal.done:
        raise ValueError("the deal is over: there is nothing to solve")
    solver = _solver()
    lower, upper, exact, stopped, _, lowers, uppers, searched, rows = solver.solve(
        deal, _native.OBJECTIVES[objective], nodes, millis, table, True
    )
    if stopped == "signal":  # pragma: no cover - the handler's exception is raised instead
        raise KeyboardInterrupt
    level = deal.level
    low = tuple(lowers.tolist())
    high = tuple(uppers.tolist())
    return Solution(
        objective=objective,
        seat=deal.current_seat,
        value=lower if lower == upper else None,
        lower=lower,
        upper=upper,
        actions=tuple(_frozen(action) for action in deal.legal_actions()),
        values=tuple(a if a == b else None for a, b in zip(low, high)),
        lowers=low,
        uppers=high,
        line=tuple((seat, stored_triple(kind, key, once, twice, level)) for seat, kind, key, once, twice in rows),
        nodes=searched,
        exact=exact,
        stopped=stopped,
    )


def _frozen(action: list[Any]) -> StoredAction:
    """A platform triple as an immutable one (its cards a tuple), as the line holds them."""
    cards = action[2]
    return (action[0], action[1], cards if isinstance(cards, str) else tuple(cards))


def check_milliseconds(value: object) -> float:
    """``time_ms`` as :func:`solve` takes it: a real number > 0, at most :data:`MAX_TIME_MS`."""
    number = real_number(value)  # numpy's numbers too
    if number is None:
        raise TypeError(f"time_ms must be a number of milliseconds, not {type(value).__name__}")
    if not 0 < number <= MAX_TIME_MS:  # NaN fails too
        raise ValueError(f"time_ms must be > 0 and at most {MAX_TIME_MS}, not {value!r}")
    return number


def _solver() -> _native.Solver:
    """This thread's native solver (it owns a table and is not shared); a fresh one when
    it is busy (a solve called from a signal handler during a solve)."""
    solver: _native.Solver | None = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = _native.Solver()
    if solver.busy:
        return _native.Solver()
    return solver
