"""Scoring a finished deal (RULES.md §8, §10): who goes up how far, and when a match is won.

Pure functions of finishing orders and levels, shared by :class:`~guandan_fast.engine.deal.Deal`
(its outcome and result) and :class:`~guandan_fast.engine.match.Match` (the levels between deals).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .cards import bounded, check_seat, parse_level
from .rules import Rules, check_rules

__all__ = [
    "ACE",
    "DealScore",
    "check_failures_at_a",
    "check_finish_order",
    "check_team_levels",
    "double_down",
    "finish_outcome",
    "partner_of",
    "score_deal",
    "team_of",
]

ACE = 14


def partner_of(seat: int) -> int:
    """The seat opposite ``seat`` (its partner)."""
    return seat ^ 2


def team_of(seat: int) -> int:
    """The team of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat & 1


def finish_outcome(finish: Sequence[int]) -> tuple[int, int]:
    """``(winning team, levels up)`` of a finishing order: the first's team goes up 3, 2
    or 1 as its partner was second, third or last (RULES.md §8)."""
    first = finish[0]
    return team_of(first), 4 - finish.index(partner_of(first))


def double_down(first: int) -> list[int]:
    """The finishing order of a 1-2 finish: both losers count as last and are listed in
    turn order after the second finisher (the one order for deals, previous finishes and
    the native playouts)."""
    second = first ^ 2
    return [first, second, (second + 1) % 4, (second + 3) % 4]



def check_finish_order(previous: object) -> list[int]:
    if isinstance(previous, (str, bytes)) or not isinstance(previous, Sequence):
        raise TypeError(f"previous_finish must be a list of seats, first to last, not {type(previous).__name__}")
    order = [check_seat(s, "a seat of previous_finish") for s in previous]
    if len(set(order)) != len(order):
        raise ValueError(f"previous_finish lists a seat twice: {order}")
    if len(order) == 2 and order[1] == partner_of(order[0]):
        order = double_down(order[0])
    elif len(order) == 3:
        order += [next(s for s in range(4) if s not in order)]
    if len(order) != 4:
        raise ValueError(f"previous_finish must list the four seats first to last, not {order}")
    return order


def check_team_levels(levels: object, what: str = "team_levels") -> tuple[int, int]:
    """The two teams' levels (team 0, team 1), each as :func:`parse_level` reads it (an int,
    a numpy integer or a rank string) from a sequence or a numpy array of two; a string is no
    pair of levels (TypeError). The one
    check of :meth:`Deal.start`'s ``team_levels`` and :func:`score_deal`'s ``levels``."""
    pair = _pair(levels, f"{what} must be two levels (team 0, team 1)")
    return (parse_level(pair[0]), parse_level(pair[1]))


def _pair(value: object, words: str) -> Sequence[object]:
    """Two items of a sequence or a one-dimensional numpy array: a string, a mapping or a
    non-sequence is a TypeError, any other length a ValueError (both in ``words``)."""
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ValueError(f"{words}, not an array of shape {value.shape}")
        value = value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{words}, not a {type(value).__name__}")
    if len(value) != 2:
        raise ValueError(f"{words}, not {len(value)}")
    return value


def check_failures_at_a(failures: object, what: str = "failures_at_a") -> tuple[int, int]:
    """Each team's failures at A (team 0, team 1): two integers >= 0 (numpy's too; never a
    bool, a float or a string). The one check of :meth:`Deal.start`'s ``failures_at_a``
    and :func:`score_deal`'s ``failures``."""
    pair = _pair(failures, f"{what} must be two counts (team 0, team 1)")
    return (bounded(pair[0], "a team's failures at A", 0, 2**31 - 1), bounded(pair[1], "a team's failures at A", 0, 2**31 - 1))


@dataclass(frozen=True)
class DealScore:
    """What a finished deal does to the match (see :func:`score_deal`)."""

    team: int  #: the team that finished first
    up: int  #: 3, 2 or 1: its partner was second, third or last
    levels: tuple[int, int]  #: both teams' levels after the deal
    failures: tuple[int, int]  #: failed deals at A counted so far (for Rules.fail_at_a_limit)
    winner: int | None  #: the team that won the match with this deal, else None


def score_deal(
    levels: Sequence[int | str],
    level: int | str,
    finish_order: Sequence[int],
    *,
    rules: Rules | None = None,
    failures: Sequence[int] = (0, 0),
    deal_team: int | None = None,
) -> DealScore:
    """Score one deal (RULES.md §8, §10): ``levels`` are the teams' levels before the deal,
    ``level`` the deal's level and ``finish_order`` its finishing order (the first two
    seats are enough for a double down). ``deal_team`` is the team whose level the deal
    is played at (the team that finished first in the previous deal; None for a match's
    first deal); only :attr:`Rules.at_a_only_own_deal` reads it.

    Only the team that finished first goes up (+3/+2/+1 as its partner was second, third
    or last), never past A. A team *plays at A* when its level is A and the deal is played
    at A (with ``at_a_only_own_deal``: and it is ``deal_team``); it wins the match by
    finishing first with its partner not last (with ``a_needs_double_up``: second). With
    ``rules.fail_at_a_limit`` = N, a deal a team plays at A and does not finish first, or
    finishes first with its partner last, counts as a failure (RULES.md §10: with
    ``a_needs_double_up`` a 1-3 finish at A is neither a win nor a failure), and the N-th
    sends it back to ``rules.fail_at_a_level``
    (failures count from the moment the team reached A and restart after the fall; with
    ``fail_at_a_then_up`` a team that finished first then goes up that deal's levels).
    With ``reaching_a_wins`` a team whose level reaches A wins.

    ``levels`` must be two levels as :func:`parse_level` reads them and ``failures`` two
    counts >= 0 (numpy integers too), checked as :meth:`Deal.start` checks its
    ``team_levels`` and ``failures_at_a``: TypeError or ValueError names a bad one.
    """
    rules = check_rules(rules)
    before = list(check_team_levels(levels, "levels"))
    counts = list(check_failures_at_a(failures, "failures"))
    level = parse_level(level)
    finish = check_finish_order(finish_order)
    if deal_team is not None:
        deal_team = bounded(deal_team, "deal_team (a team 0 or 1)", 0, 1)
    first = finish[0]
    team, up = team_of(first), 4 - finish.index(partner_of(first))
    at_a = [
        level == ACE and before[t] == ACE and (t == deal_team or not rules.at_a_only_own_deal) for t in (0, 1)
    ]
    wins_at_a = up == 3 if rules.a_needs_double_up else up > 1
    after = list(before)
    winner = None
    if at_a[team] and wins_at_a:
        winner = team
    else:
        after[team] = min(ACE, before[team] + up)
        limit = rules.fail_at_a_limit
        if limit is not None:
            for t in (0, 1):
                if at_a[t] and (t != team or up == 1):  # at A: not first, or first with the partner last
                    counts[t] += 1
                    if counts[t] >= limit:
                        gain = up if t == team and rules.fail_at_a_then_up else 0
                        after[t] = min(ACE, int(rules.fail_at_a_level) + gain)
                        counts[t] = 0
        if rules.reaching_a_wins and after[team] == ACE:
            winner = team
    return DealScore(team, up, (after[0], after[1]), (counts[0], counts[1]), winner)

