"""scripts/match_states.py: deals at the states full matches reach, scored by match equity."""

from __future__ import annotations

import itertools
import runpy
from pathlib import Path

import numpy as np

from guandan_fast.search.match_equity import outcome_equity

SCRIPT = runpy.run_path(str(Path(__file__).resolve().parents[1] / "scripts" / "match_states.py"))


def test_states_follow_the_matches() -> None:
    states = SCRIPT["match_states"]("minplays", 2, seed=3)
    assert states[0] == ((2, 2), 2, None, (0, 0))
    firsts = [k for k, (_, _, previous, _) in enumerate(states) if previous is None]
    assert len(firsts) == 2 and firsts[0] == 0  # one first deal a match
    assert all(level in levels for levels, level, _, _ in states)  # the level of the team that went up
    for (levels, _, _, _), (after, _, previous, _) in itertools.pairwise(states):
        if previous is not None:  # the same match: only the team that finished first went up
            team = previous[0] % 2
            assert after[1 - team] == levels[1 - team] and after[team] >= levels[team]
    assert any(max(levels) == 14 for levels, _, _, _ in states)  # the matches reach A
    assert all(failures == (0, 0) for *_, failures in states)  # the default rules count none


def test_states_on_the_platform_rules_carry_the_failures_at_a() -> None:
    rules = SCRIPT["RULES"]["openguandan"]
    states = SCRIPT["match_states"]("minplays", 3, seed=5, rules=rules)
    failed = [state for state in states if state[3] != (0, 0)]
    assert failed and all(state[0][t] == 14 for state in failed for t in (0, 1) if state[3][t])
    levels, level, previous, failures = failed[0]
    equities, points = SCRIPT["play_state"](("minplays", "minplays", "random", failed[0], 11, "openguandan"))
    assert equities[:2] == equities[2:] and points[:2] == points[2:]
    team = previous[0] % 2  # the deal's team; the deal is scored with the failures it carries
    scored = outcome_equity(rules, levels, level, 0, deal_team=team, failures=failures)
    assert equities[0] == scored[3 + points[0]]
    assert not np.allclose(scored, outcome_equity(rules, levels, level, 0, deal_team=team))


def test_the_same_agent_scores_the_same_on_the_same_cards() -> None:
    state = ((9, 14), 14, [1, 0, 2, 3], (0, 0))  # the other team at A, after its 1-4 finish
    equities, points = SCRIPT["play_state"](("minplays", "minplays", "random", state, 11, "default"))
    assert equities[:2] == equities[2:] and points[:2] == points[2:]  # deterministic agents, same deals
    assert all(0.0 <= e <= 1.0 for e in equities)
    assert {abs(p) for p in points} <= {1, 2, 3}


def test_a_first_deal_is_the_same_deal_for_both_agents() -> None:
    state = ((2, 2), 2, None, (0, 0))  # no previous finish: the leader comes from the deal's seed
    equities, points = SCRIPT["play_state"](("minplays", "minplays", "random", state, 12, "default"))
    assert equities[:2] == equities[2:] and points[:2] == points[2:]
