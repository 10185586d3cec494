"""Match equity: what a deal's outcome is worth toward winning the match.

A deal's outcome for a team is one of six: its player goes out first and it goes up 3, 2
or 1 level, or the other team does. Toward the match these are not worth +3 … -3 (the
``"points"`` objective) nor ±1 (``"first"``): early in a match each level counts about
alike, but a team playing at A wins the match only by finishing first with the partner not
last — there its 1-4 finish is worth little, and against a team at A holding it to a 1-4
finish is worth a good part of finishing first. Backgammon players know this as the match
equity table; here it is computed from the rules of scoring (``score_deal``, RULES.md §8,
§10) by solving the match exactly as an absorbing Markov chain over its states (the two
levels, the team whose level the deal is played at, the failures at A when the rules count
them), assuming the two teams equally strong, each first in half the deals, going up 1/2/3
levels with the frequencies measured in the search agent's full matches against
``minplays`` (:data:`UP_SHARES`).

:func:`deal_equity` reads the match from the deal: its ``team_levels``, ``deal_team`` and
``failures_at_a`` (which :class:`~guandan_fast.engine.match.Match` and the platform client
fill in). What the table does not know: the deals already played (with ``Rules.deal_cap``;
:func:`deal_equity` treats a one-deal match as "first" and ignores a longer cap). A deal
made alone has ``team_levels`` both at its level and no failures unless given to
``Deal.start`` (``Deal.random`` takes neither): the table is then that made-up match
state's. The chain is solved once per process and ``Rules`` (0.02–0.03 s measured, the
platform's rules with their failures at A included).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ..engine.cards import bounded, parse_level
from ..engine.deal import Deal
from ..engine.rules import Rules, check_rules
from ..engine.scoring import ACE, check_team_levels, score_deal, team_of

__all__ = ["UP_SHARES", "deal_equity", "first_decides", "outcome_equity"]

#: Given that a team finishes first, how often it goes up 1, 2 and 3 levels, rounded from
#: the first 282 deals (29 full matches, seed 801) of the search agent against ``minplays``,
#: both teams: 0.29 / 0.20 / 0.51 (all 40 matches, 396 deals: 0.30 / 0.17 / 0.53).
UP_SHARES = (0.30, 0.20, 0.50)

#: The finishing orders of the six outcomes (team 0 is seats 0 and 2), by (team, levels up).
_ORDERS = {
    (0, 3): (0, 2, 1, 3), (0, 2): (0, 1, 2, 3), (0, 1): (0, 1, 3, 2),
    (1, 3): (1, 3, 0, 2), (1, 2): (1, 0, 3, 2), (1, 1): (1, 0, 2, 3),
}
_LEVELS = range(2, ACE + 1)
_CHANCES = {(team, up): 0.5 * UP_SHARES[up - 1] for team in (0, 1) for up in (1, 2, 3)}
_State = tuple[tuple[int, int], tuple[int, int], int]  # (levels, failures at A, team whose level is played)


def _most_failures(rules: Rules, level: int) -> int:
    """The most failures a team at ``level`` can carry in the chain: at A only (they restart
    after a fall), one below the rules' limit (the limit-th is the fall)."""
    return (rules.fail_at_a_limit or 1) - 1 if level == ACE else 0


def _next(rules: Rules, levels: tuple[int, int], failures: tuple[int, int], team: int | None, level: int,
          outcome: tuple[int, int]) -> float | _State:
    """Team 0's match win (1.0 or 0.0) or the state after ``outcome``."""
    score = score_deal(levels, level, _ORDERS[outcome], rules=rules, failures=failures, deal_team=team)
    if score.winner is not None:
        return float(score.winner == 0)
    return (score.levels, score.failures, score.team)


@lru_cache(maxsize=8)
def _team0_equity(rules: Rules) -> dict[_State, float]:
    """Team 0's chance of winning the match from every state: the absorbing Markov chain of
    the match solved exactly, ``(I - P) v = r`` (every state reaches a match's end). A team
    counts failures at A only while at A (they restart after a fall), so only those states."""
    states = [
        ((a, b), (fa, fb), team)
        for a in _LEVELS for b in _LEVELS for team in (0, 1)
        for fa in range(_most_failures(rules, a) + 1) for fb in range(_most_failures(rules, b) + 1)
    ]
    index = {state: i for i, state in enumerate(states)}
    chain, wins = np.eye(len(states)), np.zeros(len(states))
    for i, (levels, failures, team) in enumerate(states):
        for outcome, share in _CHANCES.items():
            after = _next(rules, levels, failures, team, levels[team], outcome)
            if isinstance(after, float):
                wins[i] += share * after
            else:
                chain[i, index[after]] -= share
    return dict(zip(states, np.linalg.solve(chain, wins).tolist()))


def outcome_equity(
    rules: Rules,
    team_levels: Sequence[int | str],
    level: int | str,
    team: int,
    *,
    deal_team: int | None = None,
    failures: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """``team``'s chance of winning the match after each deal result, indexed by the result
    for ``team`` plus 3 (``-3 … +3``; index 3, no result, is 0): a deal at ``level`` with the
    teams at ``team_levels``, played at the level of ``deal_team`` (the team that finished
    first in the previous deal; None: the team at ``level`` when only one is — with both, as
    in a match's first deal, the rules' "own deal" at A counts for neither)."""
    rules = check_rules(rules)
    levels = check_team_levels(team_levels)
    deal_level, team = parse_level(level), bounded(team, "outcome_equity team (0 or 1)", 0, 1)
    for t in (0, 1):  # the chain's states
        bounded(failures[t], "outcome_equity failures (at A, below the rules' limit)", 0, _most_failures(rules, levels[t]))
    if deal_team is None:
        played = [t for t in (0, 1) if levels[t] == deal_level]
        deal_team = played[0] if len(played) == 1 else None
    value = _team0_equity(rules)
    equity = np.zeros(7)
    for (winner, up) in _ORDERS:
        after = _next(rules, levels, (int(failures[0]), int(failures[1])), deal_team, deal_level, (winner, up))
        team0 = after if isinstance(after, float) else value[after]
        equity[3 + (up if winner == team else -up)] = team0 if team == 0 else 1.0 - team0
    return equity


def deal_equity(deal: Deal, seat: int) -> np.ndarray | None:
    """The deal's results for ``seat``'s team scaled to -1 … +1 (worst … best outcome of
    :func:`outcome_equity`, index result + 3), or None when every result is worth the same
    or the match is one deal (``Rules.deal_cap`` 1: who goes out first is all). The match
    is the deal's own: its ``team_levels``, ``deal_team`` and ``failures_at_a``."""
    if deal.rules.deal_cap == 1:
        return None
    rules, levels = deal.rules, deal.team_levels
    # clipped to the chain's states (levels may have been set after the deal began, e.g. by
    # a server that differs from the rules)
    counts = [min(n, _most_failures(rules, levels[t])) for t, n in enumerate(deal.failures_at_a)]
    failures = (counts[0], counts[1])
    equity = outcome_equity(rules, levels, deal.level, team_of(seat), deal_team=deal.deal_team, failures=failures)
    results = np.r_[equity[:3], equity[4:]]
    low, high = results.min(), results.max()
    if high - low < 1e-9:
        return None
    scaled: np.ndarray = 2 * (equity - low) / (high - low) - 1
    scaled[3] = 0.0
    return scaled


def first_decides(equity: np.ndarray) -> bool:
    """Whether :func:`deal_equity`'s table is the ``"first"`` objective's: every result of the
    team finishing first worth +1, every other -1 (then that objective, cheaper to solve,
    gives the same choices)."""
    return bool(np.allclose(equity[4:], 1.0) and np.allclose(equity[:3], -1.0))
