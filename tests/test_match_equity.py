"""Match equity (search/match_equity.py) and the search agent's "match" objective."""

from __future__ import annotations

import numpy as np
import pytest
from test_search_agent import quick

import guandan_fast as gf
from guandan_fast.engine.rules import Rules
from guandan_fast.engine.scoring import score_deal
from guandan_fast.search.match_equity import _ORDERS, UP_SHARES, deal_equity, first_decides, outcome_equity


def iterated_equity(rules: Rules, sweeps: int = 3_000) -> dict[tuple[tuple[int, int], int], float]:
    """The oracle: team 0's chance of winning from each (levels, team whose level is played),
    by plain value iteration over the states a match reaches from 2/2 (no failure count)."""
    chances = {outcome: 0.5 * UP_SHARES[outcome[1] - 1] for outcome in _ORDERS}
    moves: dict[tuple[tuple[int, int], int], list[tuple[float, object]]] = {}
    todo = [((2, 2), 0)]
    while todo:
        state = todo.pop()
        levels, team = state
        moves[state] = []
        for outcome, share in chances.items():
            score = score_deal(levels, levels[team], _ORDERS[outcome], rules=rules, deal_team=team)
            after = float(score.winner == 0) if score.winner is not None else (score.levels, score.team)
            moves[state].append((share, after))
            if not isinstance(after, float) and after not in moves and after not in todo:
                todo.append(after)
    value = dict.fromkeys(moves, 0.5)
    for _ in range(sweeps):
        for state, after in moves.items():
            value[state] = sum(p * (a if isinstance(a, float) else value[a]) for p, a in after)  # type: ignore[index]
    return value


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(a_needs_double_up=True), Rules(at_a_only_own_deal=True), Rules(reaching_a_wins=True)],
    ids=["national", "double-up", "own-deal-at-a", "reaching-a-wins"],
)
def test_equity_equals_value_iteration(rules: Rules) -> None:
    oracle = iterated_equity(rules)
    for levels, team in oracle:
        for winner, up in _ORDERS:
            score = score_deal(levels, levels[team], _ORDERS[winner, up], rules=rules, deal_team=team)
            after = float(score.winner == 0) if score.winner is not None else oracle[score.levels, score.team]
            mine = outcome_equity(rules, levels, levels[team], 0, deal_team=team)[3 + (up if winner == 0 else -up)]
            assert mine == pytest.approx(after, abs=1e-9), (levels, team, winner, up)
    assert oracle[(2, 2), 0] == pytest.approx(0.5)


@pytest.mark.parametrize("rules", [Rules(fail_at_a_limit=3), Rules.openguandan()], ids=["fail-at-a", "openguandan"])
def test_failures_at_a_are_states_of_the_chain(rules: Rules) -> None:
    for failures in ((0, 0), (2, 0), (1, 2)):
        equity = outcome_equity(rules, (14, 14), 14, 0, deal_team=0, failures=failures)
        assert np.all(np.diff(np.r_[equity[:3], equity[4:]]) >= -1e-12) and 0.0 <= equity.min() <= equity.max() <= 1.0
    # a team one failure from its fall is worse off after a 1-4 finish than one with none
    fresh = outcome_equity(Rules(fail_at_a_limit=3), (14, 10), 14, 0, deal_team=0)
    last_chance = outcome_equity(Rules(fail_at_a_limit=3), (14, 10), 14, 0, deal_team=0, failures=(2, 0))
    assert last_chance[4] < fresh[4] and last_chance[6] == fresh[6] == 1.0


def test_equity_is_what_a_match_makes_of_each_result() -> None:
    rules = Rules()
    start = outcome_equity(rules, (2, 2), 2, 0)
    assert np.all(np.diff(np.r_[start[:3], start[4:]]) > 0)  # every level up is worth more
    assert start[4:] == pytest.approx(1 - start[:3][::-1])  # both teams alike at 2/2
    assert outcome_equity(rules, (2, 2), 2, 1) == pytest.approx(start)
    at_a = outcome_equity(rules, (14, 10), 14, 0)  # playing at A: +3 and +2 win the match, +1 does not
    assert at_a[5] == at_a[6] == 1.0 and at_a[4] < 0.8
    assert outcome_equity(Rules(a_needs_double_up=True), (14, 10), 14, 0)[5] < 1.0
    against = outcome_equity(rules, (10, 14), 14, 0)  # the other team at A: its +3 and +2 end the match
    assert against[0] == against[1] == 0.0 and against[2] > 0.2


def at_levels(seed: int, level: int, team_levels: tuple[int, int], plays: int = 0) -> gf.Deal:
    deal = gf.Deal.random(seed, level=level)
    deal.team_levels = team_levels
    for _ in range(plays):
        deal.step(deal.legal_actions()[0])
    return deal


def test_deal_equity_scales_and_knows_where_first_decides() -> None:
    table = deal_equity(at_levels(1, 14, (14, 10)), 0)
    assert table is not None and table[6] == 1.0 and table[0] == -1.0 and table[3] == 0.0
    assert not first_decides(table)
    assert deal_equity(at_levels(1, 14, (14, 10)), 1) == pytest.approx(-table[::-1])  # the other team's view
    kings = deal_equity(at_levels(1, 13, (13, 13)), 2)
    assert kings is not None and first_decides(kings)  # K/K: the first out takes its team to A, whatever the rest
    assert deal_equity(gf.Deal.random(1, level=14, rules=Rules(deal_cap=1)), 0) is None  # one deal: "first"
    # both at A, each winning only on its own deal: the deal's team (the previous first) is known
    own = gf.Deal.random(2, level=14, previous_finish=[1, 0, 2, 3], rules=Rules(at_a_only_own_deal=True))
    own.team_levels = (14, 14)
    table = deal_equity(own, 1)
    assert own.previous_finish == (1, 0, 2, 3) and table is not None and not first_decides(table)
    assert table[5] == table[6] == 1.0 and table[4] < 1.0  # team 1's 1-3 and 1-2 win, its 1-4 does not


def test_deal_equity_reads_the_match_the_deal_carries() -> None:
    """A deal restarted from a position (the platform client's mirror does) carries its
    level's team and the failures at A, and the table follows them."""
    rules = Rules.openguandan()  # three failures at A send a team back to 2; A only on its own deal
    hands = gf.Deal.random(3).hands
    both_at_a = {"rules": rules, "team_levels": (14, 14), "leader": 0}
    ours = deal_equity(gf.Deal.start(hands, 14, deal_team=0, **both_at_a), 0)
    theirs = deal_equity(gf.Deal.start(hands, 14, deal_team=1, **both_at_a), 0)
    unknown = deal_equity(gf.Deal.start(hands, 14, **both_at_a), 0)
    assert ours is not None and theirs is not None and unknown is not None
    assert ours[5] == ours[6] == 1.0 and ours[4] < 1.0  # on our deal a 1-2 or 1-3 wins, a 1-4 does not
    assert theirs[0] == theirs[1] == -1.0 and theirs[2] > -1.0  # on theirs, their 1-4 does not win either
    assert theirs[4] == theirs[5] == theirs[6] == 1.0  # our going out first only brings our own deal at A
    assert not np.allclose(unknown, ours) and not np.allclose(unknown, theirs)
    a_vs_10 = {"rules": rules, "team_levels": (14, 10), "leader": 0, "deal_team": 0}
    fresh = outcome_equity(rules, (14, 10), 14, 0, deal_team=0)
    last_chance = outcome_equity(rules, (14, 10), 14, 0, deal_team=0, failures=(2, 0))
    for failures, expected in (((0, 0), fresh), ((2, 0), last_chance), ((7, 0), last_chance), ((0, 2), fresh)):
        table = deal_equity(gf.Deal.start(hands, 14, failures_at_a=failures, **a_vs_10), 0)  # type: ignore[arg-type]
        results = np.r_[expected[:3], expected[4:]]
        scaled = 2 * (expected - results.min()) / (results.max() - results.min()) - 1
        scaled[3] = 0.0
        assert table == pytest.approx(scaled), failures  # counts beyond the chain's (or at 10) clipped
    assert not np.allclose(fresh, last_chance)


def test_match_objective_values_each_world_by_its_equity() -> None:
    deal = at_levels(3, 14, (14, 9), plays=8)
    seat = deal.current_seat
    candidates = list(range(min(4, len(deal.legal_actions()))))
    equity = deal_equity(deal, seat)
    assert equity is not None
    points, _ = quick(0, objective="points").world_values(deal, seat, candidates, seed=5)
    match, _ = quick(0, objective="match").world_values(deal, seat, candidates, seed=5)
    assert match == pytest.approx(equity[points.astype(np.int64) + 3])
    assert len(np.unique(match)) > 2  # not the two values of "first"
    kings = at_levels(3, 13, (13, 13), plays=8)  # where "first" decides, "match" is "first"
    seat = kings.current_seat
    candidates = list(range(min(4, len(kings.legal_actions()))))
    first, _ = quick(0, objective="first").world_values(kings, seat, candidates, seed=5)
    match, _ = quick(0, objective="match").world_values(kings, seat, candidates, seed=5)
    assert match == pytest.approx(first)


def test_match_objective_is_checked() -> None:
    with pytest.raises(ValueError, match="points, first, match"):
        quick(0, objective="equity")


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: outcome_equity(Rules(), (2, 2), 2, 2), "team"),
        (lambda: outcome_equity(Rules(), (2, 15), 2, 0), "level"),
        (lambda: outcome_equity(Rules(fail_at_a_limit=3), (14, 9), 14, 0, failures=(3, 0)), "failures"),
        (lambda: outcome_equity(Rules(fail_at_a_limit=3), (13, 9), 13, 0, failures=(1, 0)), "failures"),
        (lambda: outcome_equity(Rules(), (14, 9), 14, 0, deal_team=2), "deal_team"),
        (lambda: outcome_equity("national", (2, 2), 2, 0), "Rules"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_are_named(call: object, words: str) -> None:
    with pytest.raises((ValueError, TypeError), match=words):
        call()  # type: ignore[operator]


def test_levels_may_be_rank_characters() -> None:
    assert outcome_equity(Rules(), ("A", "T"), "A", 0) == pytest.approx(outcome_equity(Rules(), (14, 10), 14, 0))
