"""The observation mapping and the platform adapters built on it (act message, play log)."""

from __future__ import annotations

import json

import pytest

from guandan_fast import PASS
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.observation import ACT_FIELDS, FIELDS, OWN_FIELDS, Observation
from guandan_fast.engine.rules import Rules
from guandan_fast.platform import act_message, play_log


def opened_deal() -> Deal:
    deal = Deal.start(["S3 S4 SA", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])
    return deal


def test_observation_is_a_mapping_of_every_field_in_order() -> None:
    observation = opened_deal().observation(1)
    assert isinstance(observation, Observation)
    assert list(observation) == list(FIELDS) == [*OWN_FIELDS, *ACT_FIELDS] and len(observation) == 26
    assert "actionList" in observation and "nope" not in observation
    with pytest.raises(KeyError):
        observation["nope"]
    plain = dict(observation)
    assert plain["actionList"] == [["PASS", "PASS", "PASS"], ["Single", "5", ["S5"]], ["Single", "6", ["S6"]]]
    assert plain["indexRange"] == 2 and plain["curPos"] == 0 and plain["greaterPos"] == 0
    assert json.loads(json.dumps(plain)) == plain


def test_an_observation_keeps_the_state_of_its_call() -> None:
    deal = opened_deal()
    early = deal.observation(1)
    deal.step(PASS)
    deal.step(["Single", "8", ["S8"]])
    late = deal.observation(1)
    # The early observation is read only now, after two more actions.
    assert early["history"] == [[0, ["Single", "3", ["S3"]]]]
    assert early["actionList"] == early["legal_actions"] and len(early["actionList"]) == 3
    assert early["publicInfo"][1] == {"rest": 2, "playArea": None}
    assert early["to_act"] == 1 and early["curAction"] == ["Single", "3", ["S3"]]
    assert late["history"][-1] == [2, ["Single", "8", ["S8"]]] and late["actionList"] == []
    assert late["publicInfo"][1]["playArea"] == ["PASS", "PASS", "PASS"]


def test_observation_values_are_computed_once_and_are_its_own() -> None:
    deal = opened_deal()
    observation = deal.observation(1)
    assert observation["actionList"] is observation["actionList"]
    observation["actionList"].clear()
    assert deal.observation(1)["actionList"] != [] and len(deal.legal_actions()) == 3


def test_act_message_is_the_platform_part_as_a_plain_dict() -> None:
    deal = opened_deal()
    message = act_message(deal, 1)
    assert type(message) is dict and list(message) == list(ACT_FIELDS)
    assert message == {name: deal.observation(1)[name] for name in ACT_FIELDS}
    assert message["type"] == "act" and message["stage"] == "play" and message["myPos"] == 1
    assert message["greaterAction"] == ["Single", "3", ["S3"]]
    assert json.loads(json.dumps(message)) == message
    message["handCards"].append("HR")
    assert act_message(deal, 1)["handCards"] == ["S5", "S6"]


@pytest.mark.parametrize("seed", range(3))
def test_play_log_of_a_capped_match_names_the_winner_or_the_draw(seed: int) -> None:
    lines = list(play_log(seed, deals=None, rules=Rules(deal_cap=2)))
    assert sum(line.startswith("Deal ") for line in lines) == 2
    levels = [line for line in lines if line.startswith("  levels:")][-1]  # "  levels: team 0 at X, team 1 at Y"
    zero, one = levels.split(" at ")[1][0], levels.split(" at ")[2][0]
    ranks = "23456789TJQKA"
    if zero == one:
        assert lines[-1] == "A draw: equal levels after 2 deals (the deal cap)"
    else:
        winner = int(ranks.index(one) > ranks.index(zero))
        assert lines[-1] == f"Team {winner} wins the match after 2 deals"
