"""The game rules (RULES.md §7-10), one test per rule, from concrete hands."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Mapping
from typing import Any

import pytest

from guandan_fast import PASS, Hand, legal_moves
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.match import Match
from guandan_fast.engine.rules import Rules
from guandan_fast.engine.scoring import score_deal

PASS_TRIPLE = ["PASS", "PASS", "PASS"]


def single(card: str) -> list[Any]:
    return ["Single", card[1], [card]]


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything observable about a deal, to check that a failed step changed nothing."""
    return (
        deal.phase,
        deal.to_act,
        deal.hands,
        deal.history,
        deal.finish_order,
        deal.last_move,
        deal.last_seat,
        deal.tribute,
        deal.legal_actions(),
        [deal.observation(seat) for seat in range(4)],
        deal.played.tolist(),
        deal.plays,
    )


def assert_refused(deal: Deal, actions: list[Any], match: str) -> None:
    """Every one of ``actions`` is refused with a ValueError matching ``match``, and the deal
    is left exactly as it was."""
    before = snapshot(deal)
    for action in actions:
        with pytest.raises(ValueError, match=match):
            deal.step(action)
    assert snapshot(deal) == before


def four(a: str, b: str, c: str, d: str, *, level: Any = 2, **kwargs: Any) -> Deal:
    return Deal.start([a, b, c, d], level, **kwargs)


# ---------------------------------------------------------------------------------------------
# §7 turn order, tricks, 接风, end of a deal
# ---------------------------------------------------------------------------------------------
def test_play_goes_to_the_next_seat() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=1)
    assert (deal.phase, deal.to_act) == ("play", 1)
    deal.step(single("S5"))
    assert deal.to_act == 2
    deal.step(single("S7"))
    assert deal.to_act == 3
    deal.step(PASS_TRIPLE)
    assert deal.to_act == 0
    assert deal.last_move is not None and deal.last_seat == 2


def test_leader_may_not_pass() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    assert PASS_TRIPLE not in deal.legal_actions()
    assert_refused(deal, [PASS_TRIPLE, PASS], "leads and may not pass")


def test_follower_may_pass_and_pass_is_listed_first() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S3"))
    actions = deal.legal_actions()
    assert actions[0] == PASS_TRIPLE
    assert actions[1:] == legal_moves(deal.hands[1], 2, single("S3")).to_platform()


def test_trick_ends_when_all_others_pass_and_the_last_player_leads() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S4"))
    deal.step(single("S6"))
    for _ in range(3):
        deal.step(PASS_TRIPLE)
    assert deal.to_act == 1 and not deal.following
    assert deal.last_move is None and deal.last_seat == -1
    assert PASS_TRIPLE not in deal.legal_actions()


def test_players_who_are_out_are_skipped() -> None:
    deal = four("S3", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S3"))  # seat 0 is out
    assert deal.finish_order == [0]
    deal.step(single("S5"))
    deal.step(single("S7"))
    deal.step(PASS_TRIPLE)
    assert deal.to_act == 1  # seat 0 skipped
    deal.step(PASS_TRIPLE)
    # seats 3 and 1 passed: seat 2 leads (seat 0 is out and does not count)
    assert deal.to_act == 2 and not deal.following


def test_jiefeng_partner_leads_after_an_unbeaten_last_play() -> None:
    deal = four("S3", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S3"))
    for seat in (1, 2, 3):
        assert deal.to_act == seat
        deal.step(PASS_TRIPLE)
    assert deal.to_act == 2 and not deal.following  # the partner of seat 0 leads


def test_jiefeng_does_not_apply_when_the_last_play_is_beaten() -> None:
    deal = four("S3", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S3"))
    deal.step(single("S5"))
    deal.step(PASS_TRIPLE)
    deal.step(PASS_TRIPLE)
    assert deal.to_act == 1 and not deal.following


def test_jiefeng_after_the_partner_of_a_finisher_passed_everyone_must_pass() -> None:
    # seat 2 goes out; the opponents and seat 0 pass; seat 0 leads.
    deal = four("S3 S4", "S5 S6", "S7", "S9 ST", leader=2)
    deal.step(single("S7"))
    assert deal.finish_order == [2]
    deal.step(PASS_TRIPLE)  # 3
    deal.step(PASS_TRIPLE)  # 0
    assert deal.to_act == 1
    deal.step(PASS_TRIPLE)  # 1
    assert deal.to_act == 0 and not deal.following


def test_deal_ends_on_a_double_down() -> None:
    deal = four("S3", "S9 ST", "S4", "S7 S8", leader=0)
    deal.step(single("S3"))
    deal.step(PASS_TRIPLE)
    deal.step(single("S4"))
    assert deal.phase == "done" and deal.to_act is None
    # both losers count as last, listed in turn order after the second finisher
    assert deal.finish_order == [0, 2, 3, 1]
    assert deal.outcome == (0, 3)
    assert deal.legal_actions() == []
    with pytest.raises(ValueError, match="over"):
        deal.step(PASS_TRIPLE)


def test_deal_ends_when_three_are_out() -> None:
    deal = four("S3", "S4", "S5", "S6 S7", leader=0)
    deal.step(single("S3"))
    deal.step(single("S4"))
    assert deal.phase == "play"
    deal.step(single("S5"))
    assert deal.phase == "done"
    assert deal.finish_order == [0, 1, 2, 3]
    assert deal.outcome == (0, 2)


def test_partner_last_is_one_level() -> None:
    deal = four("S3", "S4", "S6 S7", "SA", leader=0)
    deal.step(single("S3"))
    deal.step(single("S4"))
    deal.step(PASS_TRIPLE)
    deal.step(single("SA"))
    assert deal.finish_order == [0, 1, 3, 2]
    assert deal.outcome == (0, 1)


def test_leader_is_random_from_the_seed() -> None:
    hands = ["S3", "S4", "S5", "S6"]
    leaders = {Deal.start(hands, 2, seed=seed).to_act for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert Deal.start(hands, 2, seed=5).to_act == Deal.start(hands, 2, seed=5).to_act


def test_endgame_with_a_seat_already_out() -> None:
    deal = Deal.start(["", "S5 S6", "S7 S8", "S9 ST"], "5", leader=1)
    assert deal.finish_order == [0]
    deal2 = Deal.start(["", "S5 S6", "S7", ""], 9, leader=1, finished=[3, 0])
    assert deal2.finish_order == [3, 0]
    deal2.step(single("S5"))
    deal2.step(single("S7"))
    assert deal2.finish_order == [3, 0, 2, 1] and deal2.outcome == (1, 1)
    with pytest.raises(ValueError, match="finished"):
        Deal.start(["", "S5 S6", "", "S9 ST"], 5, leader=1)
    with pytest.raises(ValueError, match="already over"):
        Deal.start(["", "S5 S6", "", "S9 ST"], 5, leader=1, finished=[0, 2])
    with pytest.raises(ValueError, match="holds no cards"):
        Deal.start(["", "S5 S6", "S7", "S9 ST"], 5, leader=0)


def test_move_list_is_the_complete_legal_moves_list() -> None:
    hands = ["H2 H2 S3 S4 S5 S6 C7 C7 D7", "SA HA CA DA", "S9 S9 D9", "SB SB HR HR"]
    deal = Deal.start(hands, 2, leader=0)
    expected = legal_moves(hands[0], 2)
    assert deal.legal_actions() == expected.to_platform()
    assert deal.legal_moves().to_platform() == expected.to_platform()
    straight = next(a for a in deal.legal_actions() if a[0] == "Straight")
    deal.step(straight)
    assert deal.legal_actions()[1:] == legal_moves(hands[1], 2, straight).to_platform()


def test_step_accepts_triples_moves_and_indices_alike() -> None:
    hands = ["S3 S4 D4", "S5 S6", "S7 S8", "S9 ST"]
    by_triple, by_move, by_index = (Deal.start(hands, 2, leader=0) for _ in range(3))
    by_triple.step(["Pair", "4", ["s4", "D4"]])  # lower-case cards are read too
    by_move.step(next(m for m in by_move.legal_moves() if m.kind.name == "PAIR"))
    by_index.step(by_index.legal_actions().index(["Pair", "4", ["S4", "D4"]]))
    assert snapshot(by_triple) == snapshot(by_move) == snapshot(by_index)
    deal = Deal.start(["ST", "S5", "S7", "S9"], 2, leader=0)
    deal.step(["Single", "10", ["S10"]])  # RULES §1: "10" for T
    assert deal.history == [(0, ["Single", "T", ["ST"]])]


def test_four_jokers_aliases() -> None:
    for triple in (
        ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]],
        ["FourKings", "JOKER", ["SB", "SB", "HR", "HR"]],
        ["Bomb", "R", ["SB", "SB", "HR", "HR"]],
    ):
        deal = Deal.start(["SB SB HR HR S3", "S5", "S7", "S9"], 2, leader=0)
        deal.step(triple)
        assert deal.history[-1] == (0, ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]])


def test_clone_is_independent() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    before = snapshot(deal)
    copy = deal.clone()
    copy.step(single("S3"))
    copy.step(PASS_TRIPLE)
    assert snapshot(deal) == before
    assert copy.hands[0] == Hand("S4") and len(copy.history) == 2


# ---------------------------------------------------------------------------------------------
# §8 levels and the match
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("finish", "up"), [([0, 2, 1, 3], 3), ([0, 1, 2, 3], 2), ([0, 3, 2, 1], 2), ([0, 1, 3, 2], 1), ([1, 3], 3)]
)
def test_only_the_first_team_goes_up_by_3_2_1(finish: list[int], up: int) -> None:
    result = score_deal((4, 6), 4, finish)
    team = finish[0] % 2
    assert (result.team, result.up) == (team, up)
    expected = [4, 6]
    expected[team] += up
    assert result.levels == tuple(expected) and result.winner is None


def test_levels_stop_at_a() -> None:
    assert score_deal((12, 2), 12, [0, 2, 1, 3]).levels == (14, 2)
    assert score_deal((13, 2), 13, [0, 1, 2, 3]).levels == (14, 2)
    assert score_deal((2, 14), 2, [0, 1, 2, 3]).levels == (4, 14)


def test_winning_at_a_needs_first_place_and_partner_not_last() -> None:
    assert score_deal((14, 9), 14, [0, 2, 1, 3]).winner == 0
    assert score_deal((14, 9), 14, [0, 1, 2, 3]).winner == 0
    not_yet = score_deal((14, 9), 14, [0, 1, 3, 2])
    assert not_yet.winner is None and not_yet.levels == (14, 9)
    lost = score_deal((14, 9), 14, [1, 0, 3, 2])
    assert lost.winner is None and lost.levels == (14, 11)


def test_a_team_at_a_wins_only_in_a_deal_played_at_a() -> None:
    # team 0 is at A, but the deal is played at team 1's level 9: it must still play its A.
    result = score_deal((14, 9), 9, [0, 2, 1, 3])
    assert result.winner is None and result.levels == (14, 9)


def test_failing_at_a_is_off_by_default() -> None:
    result = score_deal((14, 9), 14, [0, 1, 3, 2], failures=(99, 0))
    assert result.levels == (14, 9)


def test_failing_at_a_option_sends_a_team_back() -> None:
    rules = Rules(fail_at_a_limit=3, fail_at_a_level="J")
    first = score_deal((14, 9), 14, [1, 0, 3, 2], rules=rules)  # team 0 did not finish first
    assert first.failures == (1, 0) and first.levels == (14, 11)
    second = score_deal((14, 9), 14, [0, 1, 3, 2], rules=rules, failures=first.failures)  # partner last
    assert second.failures == (2, 0) and second.levels == (14, 9)
    third = score_deal((14, 9), 14, [1, 2, 0, 3], rules=rules, failures=second.failures)
    assert third.failures == (0, 0) and third.levels == (11, 10)
    # a deal at another level is no attempt at A
    assert score_deal((14, 9), 9, [1, 0, 3, 2], rules=rules, failures=(2, 0)).failures == (2, 0)
    assert Rules(fail_at_a_limit=1).fail_at_a_level == 2


def test_a_match_starts_at_level_2_and_follows_the_first_team() -> None:
    import random

    match = Match(seed=3)
    assert match.levels == (2, 2) and match.deal.level == 2 and match.deal.tribute["kind"] == "none"
    assert all(len(hand) == 27 for hand in match.deal.hands)
    rng = random.Random(3)
    while match.deals_played < 2:
        match.step(rng.choice(match.legal_actions()))
    first, second = match.records
    team = first.finish_order[0] % 2
    assert second.level == first.levels_after[team]
    assert match.deal.level == second.levels_after[second.finish_order[0] % 2]
    assert match.deal.team_levels == match.levels
    assert match.deal.tribute["kind"] in ("single", "double", "anti")


def test_match_is_deterministic_per_seed() -> None:
    import random

    logs = []
    for _ in range(2):
        match, rng = Match(seed=11), random.Random(1)
        while match.deals_played < 2:
            match.step(rng.choice(match.legal_actions()))
        logs.append([(r.level, r.finish_order, r.levels_after) for r in match.records])
    assert logs[0] == logs[1]


# ---------------------------------------------------------------------------------------------
# §9 tribute, return, anti-tribute
# ---------------------------------------------------------------------------------------------
def tribute_deal(hands: list[str], previous: list[int], *, level: Any = 2, rules: Rules | None = None) -> Deal:
    return Deal.start(hands, level, previous_finish=previous, rules=rules)


def test_single_tribute_highest_card_never_a_wildcard() -> None:
    # level 2: H2 is the wildcard; S2 (a level card) is the highest card that may be paid.
    deal = tribute_deal(["S3 ST SJ HK", "S4", "S5", "H2 H2 S2 SA D5"], [0, 1, 2, 3])
    assert (deal.phase, deal.to_act) == ("tribute", 3)
    assert deal.legal_actions() == [["tribute", "tribute", ["S2"]]]
    assert_refused(deal, [["tribute", "tribute", ["SA"]], ["tribute", "tribute", ["H2"]]], "highest card")
    deal.step(["tribute", "tribute", ["S2"]])
    assert deal.hands[0] == Hand("S2 S3 ST SJ HK") and deal.hands[3] == Hand("H2 H2 SA D5")
    assert (deal.phase, deal.to_act) == ("return", 0)


def test_any_card_of_the_top_power_may_be_paid() -> None:
    deal = tribute_deal(["S3", "S4", "S5", "H2 H2 SA CA CA D5"], [0, 1, 2, 3])
    assert deal.legal_actions() == [["tribute", "tribute", ["SA"]], ["tribute", "tribute", ["CA"]]]
    jokers = tribute_deal(["S3", "S4", "S5", "SB S2 HR"], [0, 1, 2, 3])
    assert jokers.legal_actions() == [["tribute", "tribute", ["HR"]]]


def test_return_rank_2_to_10_then_the_payer_leads() -> None:
    deal = tribute_deal(["S3 ST SJ HK", "S4", "S5", "SA D5"], [0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.legal_actions() == [["back", "back", ["S3"]], ["back", "back", ["ST"]]]
    assert_refused(deal, [["back", "back", ["SJ"]]], "rank 2-10")
    assert_refused(deal, [["tribute", "tribute", ["S3"]]], "in the return phase")
    deal.step(["back", "back", ["ST"]])
    assert deal.hands[0] == Hand("S3 SJ HK SA") and deal.hands[3] == Hand("ST D5")
    assert (deal.phase, deal.to_act) == ("play", 3)  # after a single tribute the payer leads
    info = deal.tribute
    assert info["kind"] == "single"
    assert info["payments"] == [(3, 0, 48)] and info["returns"] == [(0, 3, 32)]
    assert deal.history == [(3, ["tribute", "tribute", ["SA"]]), (0, ["back", "back", ["ST"]])]


def test_return_may_be_a_level_card_or_wildcard_of_rank_2_to_10() -> None:
    deal = tribute_deal(["H5 S5 SJ SQ", "S4", "S6", "SA D7"], [0, 1, 2, 3], level=5)
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.legal_actions() == [["back", "back", ["S5"]], ["back", "back", ["H5"]]]


def test_return_falls_back_to_the_lowest_power() -> None:
    deal = tribute_deal(["SJ CJ SQ HK", "S4", "S6", "SA D7"], [0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.legal_actions() == [["back", "back", ["SJ"]], ["back", "back", ["CJ"]]]
    # at level J the jacks rank above A, so the queen is the lowest card
    deal = tribute_deal(["SJ CJ SQ HK", "S4", "S6", "SA D7"], [0, 1, 2, 3], level="J")
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.legal_actions() == [["back", "back", ["SQ"]]]


def test_the_received_card_may_be_returned() -> None:
    deal = tribute_deal(["SJ", "S4", "S6", "S9 D7"], [0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["S9"]])
    assert deal.legal_actions() == [["back", "back", ["S9"]]]


def test_partner_pays_in_a_1_4_finish() -> None:
    deal = tribute_deal(["S3 S4", "S5", "SA D6", "S7"], [0, 1, 3, 2])
    assert (deal.phase, deal.to_act) == ("tribute", 2)
    deal.step(["tribute", "tribute", ["SA"]])
    deal.step(["back", "back", ["S3"]])
    assert (deal.phase, deal.to_act) == ("play", 2)
    assert deal.hands[0] == Hand("S4 SA") and deal.hands[2] == Hand("S3 D6")


def test_option_no_tribute_between_partners() -> None:
    rules = Rules(no_tribute_between_partners=True)
    deal = tribute_deal(["S3 S4", "S5", "SA D6", "S7"], [0, 1, 3, 2], rules=rules)
    assert (deal.phase, deal.to_act) == ("play", 0)
    assert deal.tribute["kind"] == "waived"
    # a 1-3 finish still pays
    deal = tribute_deal(["S3 S4", "S5", "SA D6", "S7"], [0, 1, 2, 3], rules=rules)
    assert (deal.phase, deal.to_act) == ("tribute", 3)


def test_double_tribute_higher_card_to_first_and_its_payer_leads() -> None:
    # team 0 finished 1-2 (seat 0 first); seat 1 sits after seat 0 and pays first.
    deal = tribute_deal(["S3 S4", "SB S9", "S5 S6", "HR S8"], [0, 2, 3, 1])
    assert (deal.phase, deal.to_act) == ("tribute", 1)
    deal.step(["tribute", "tribute", ["SB"]])
    assert (deal.phase, deal.to_act) == ("tribute", 3)
    deal.step(["tribute", "tribute", ["HR"]])
    assert (deal.phase, deal.to_act) == ("return", 0)
    assert deal.hands[0] == Hand("S3 S4 HR") and deal.hands[2] == Hand("S5 S6 SB")
    deal.step(["back", "back", ["S4"]])  # seat 0 returns to seat 3, who paid it
    assert (deal.phase, deal.to_act) == ("return", 2)
    deal.step(["back", "back", ["S6"]])  # seat 2 returns to seat 1
    assert deal.hands[3] == Hand("S4 S8") and deal.hands[1] == Hand("S6 S9")
    assert (deal.phase, deal.to_act) == ("play", 3)
    assert deal.tribute["payments"] == [(3, 0, 53), (1, 2, 52)]


def test_double_tribute_tie_the_loser_after_the_first_pays_the_first() -> None:
    deal = tribute_deal(["S3", "SA S9", "S5", "HA S8"], [0, 2, 1, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    deal.step(["tribute", "tribute", ["HA"]])
    assert deal.hands[0] == Hand("S3 SA") and deal.hands[2] == Hand("S5 HA")
    deal.step(["back", "back", ["S3"]])
    deal.step(["back", "back", ["S5"]])
    assert (deal.phase, deal.to_act) == ("play", 1)
    # with seat 1 first (team 1 finished 1-2) the loser after it is seat 2
    deal = tribute_deal(["CK S3", "S4", "DK S9", "S5"], [1, 3, 0, 2])
    assert deal.to_act == 2
    deal.step(["tribute", "tribute", ["DK"]])
    deal.step(["tribute", "tribute", ["CK"]])
    assert deal.hands[1] == Hand("S4 DK") and deal.hands[3] == Hand("S5 CK")


def test_anti_tribute_single_down_payer_holds_both_big_jokers() -> None:
    deal = tribute_deal(["S3", "S4", "S5", "HR HR S6"], [0, 1, 2, 3])
    assert (deal.phase, deal.to_act) == ("play", 0)  # no tribute, the first player leads
    assert deal.tribute["kind"] == "anti"
    assert deal.history == []
    # the payer's partner's big joker does not count in a single down
    deal = tribute_deal(["S3", "HR S4", "S5", "HR S6"], [0, 1, 2, 3])
    assert deal.phase == "tribute" and deal.legal_actions() == [["tribute", "tribute", ["HR"]]]


def test_anti_tribute_double_down_between_the_two_payers() -> None:
    deal = tribute_deal(["S3", "HR S4", "S5", "HR S6"], [2, 0, 1, 3])
    assert (deal.phase, deal.to_act) == ("play", 2)
    deal = tribute_deal(["S3", "S4", "S5", "HR HR S6"], [0, 2, 1, 3])
    assert (deal.phase, deal.to_act) == ("play", 0)
    assert deal.tribute["kind"] == "anti"


def test_tribute_input_errors() -> None:
    with pytest.raises(ValueError, match="leave leader"):
        Deal.start(["S3", "S4", "S5", "S6"], 2, previous_finish=[0, 1, 2, 3], leader=0)
    with pytest.raises(ValueError, match="other than wildcards"):
        Deal.start(["S3", "S4", "S5", "H2"], 2, previous_finish=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="twice"):
        Deal.start(["S3", "S4", "S5", "S6"], 2, previous_finish=[0, 1, 1, 3])
    with pytest.raises(ValueError, match="0-3"):
        Deal.start(["S3", "S4", "S5", "S6"], 2, previous_finish=[0, 1, 2, 4])
    with pytest.raises(TypeError):
        Deal.start(["S3", "S4", "S5", "S6"], 2, previous_finish="0123")  # type: ignore[arg-type]
    deal = tribute_deal(["S3", "S4", "S5", "SA S6"], [0, 1, 2, 3])
    before = snapshot(deal)
    for bad, error in (
        (single("S6"), ValueError),
        (PASS_TRIPLE, ValueError),
        (["tribute", "tribute", ["SA", "S6"]], ValueError),
        (["tribute", "tribute", ["ZZ"]], ValueError),
        (["tribute", "tribute", "SA"], ValueError),
        (["tribute", "tribute", [5]], TypeError),
        ("tribute", TypeError),
        (PASS, ValueError),
        (3, ValueError),
    ):
        with pytest.raises(error):
            deal.step(bad)  # type: ignore[arg-type]
    assert snapshot(deal) == before


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------
def test_more_than_two_copies_across_the_table() -> None:
    with pytest.raises(ValueError, match="S3 appears more than twice"):
        Deal.start(["S3 S3", "S4", "S3", "S6"], 2, leader=0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hands": ["S3", "S4", "S5"]}, ValueError, "four hands"),
        ({"hands": "S3 S4 S5 S6"}, TypeError, "four hands"),
        ({"hands": ["S3", "S4", "S5", 7]}, TypeError, "seat 3"),
        ({"hands": ["S3", "S4", "XX", "S6"]}, ValueError, "seat 2"),
        ({"level": 15}, ValueError, "level"),
        ({"level": None}, TypeError, "level"),
        ({"leader": 4}, ValueError, "leader"),
        ({"leader": "0"}, TypeError, "leader"),
        ({"leader": True}, TypeError, "leader"),
        ({"rules": {"no_tribute_between_partners": True}}, TypeError, "Rules"),
        ({"team_levels": (2,)}, ValueError, "team_levels"),
    ],
)
def test_bad_deal_input(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    args: dict[str, Any] = {"hands": ["S3", "S4", "S5", "S6"], "level": 2, "leader": 0}
    args.update(kwargs)
    hands, level = args.pop("hands"), args.pop("level")
    with pytest.raises(error, match=message):
        Deal.start(hands, level, **args)


def test_bad_actions_change_nothing() -> None:
    deal = four("S3 S4 H2", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(single("S4"))
    before = snapshot(deal)
    for bad, error in (
        (single("S3"), ValueError),  # not in the hand
        (["Single", "5", ["S6"]], ValueError),  # wrong rank for the cards
        (["Pair", "5", ["S5", "S6"]], ValueError),
        (["Nonsense", "5", ["S5"]], ValueError),
        (["Single", "5"], ValueError),
        (["Single", 5, ["S5"]], TypeError),
        (["Single", "5", "S5"], TypeError),
        (["Single", "5", ["Q5"]], ValueError),
        (["tribute", "tribute", ["S5"]], ValueError),
        (["back", "back", ["S5"]], ValueError),
        (["PASS", "PASS", ["S5"]], ValueError),
        ("S5", TypeError),
        (5.0, TypeError),
        (None, TypeError),
        (True, TypeError),
        (99, ValueError),
        (-1, ValueError),
    ):
        with pytest.raises(error):
            deal.step(bad)  # type: ignore[arg-type]
        assert snapshot(deal) == before, bad
    wrong_level = legal_moves("S5", 3)[0]
    with pytest.raises(ValueError, match="level"):
        deal.step(wrong_level)
    with pytest.raises(ValueError, match="illegal move"):
        deal.step(legal_moves("S9", 2)[0])  # seat 1 does not hold S9
    assert snapshot(deal) == before


def test_bad_rules() -> None:
    with pytest.raises(ValueError):
        Rules(fail_at_a_limit=0)
    with pytest.raises(TypeError):
        Rules(fail_at_a_limit="3")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Rules(fail_at_a_level="Z")
    with pytest.raises(TypeError):
        Rules(no_tribute_between_partners=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Match(rules="strict")  # type: ignore[arg-type]


def test_match_refuses_actions_after_the_end() -> None:
    import random

    match, rng = Match(seed=5), random.Random(5)
    while not match.over:
        match.step(rng.choice(match.legal_actions()))
    assert match.winner in (0, 1) and match.levels[match.winner] == 14
    assert match.legal_actions() == [] and match.to_act is None
    with pytest.raises(ValueError, match="over"):
        match.step(PASS_TRIPLE)


def test_bad_observation_seat() -> None:
    deal = four("S3", "S4", "S5", "S6", leader=0)
    with pytest.raises(ValueError):
        deal.observation(4)
    with pytest.raises(TypeError):
        deal.observation("0")  # type: ignore[arg-type]


def test_the_match_around_a_deal_is_checked_and_kept() -> None:
    hands = ["S3 S4", "S5 S6", "S7 S8", "S9 ST"]
    deal = Deal.start(hands, 14, leader=0, team_levels=(14, 14), deal_team=1, failures_at_a=(2, 1))
    assert (deal.deal_team, deal.failures_at_a) == (1, (2, 1))
    for other in (deal.clone(), pickle.loads(pickle.dumps(deal))):
        assert (other.deal_team, other.failures_at_a) == (1, (2, 1))
    assert Deal.start(hands, 2, leader=0).deal_team is None and Deal.start(hands, 2, leader=0).failures_at_a == (0, 0)
    after = Deal.start(["S3 S4"] * 2 + ["S5 S6"] * 2, 5, previous_finish=[1, 0, 2, 3])
    assert after.deal_team == 1 == Deal.start(["S3 S4"] * 2 + ["S5 S6"] * 2, 5, previous_finish=[3, 1], deal_team=1).deal_team
    for bad, error, words in (
        ({"deal_team": 2}, ValueError, "deal_team"),
        ({"deal_team": "0"}, TypeError, "deal_team"),
        ({"failures_at_a": (1,)}, ValueError, "failures_at_a"),
        ({"failures_at_a": "00"}, TypeError, "failures_at_a"),
        ({"failures_at_a": 0}, TypeError, "failures_at_a"),
        ({"failures_at_a": (0, -1)}, ValueError, "failures at A"),
        ({"failures_at_a": (0.5, 0)}, TypeError, "failures at A"),
    ):
        with pytest.raises(error, match=words):
            Deal.start(hands, 2, leader=0, **bad)
    with pytest.raises(ValueError, match="previous finish's first team"):
        Deal.start(["S3 S4"] * 2 + ["S5 S6"] * 2, 5, previous_finish=[1, 0, 2, 3], deal_team=0)


# ---------------------------------------------------------------------------------------------
# Observations
# ---------------------------------------------------------------------------------------------
def test_observation_and_platform_fields() -> None:
    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 3, leader=0, team_levels=("3", 7))
    obs = deal.observation(0)
    assert obs["hand"] == obs["handCards"] == ["S3", "S4"]
    assert obs["cards_left"] == [2, 2, 2, 2]
    assert obs["last_move"] is None and obs["last_seat"] == -1
    assert obs["greaterPos"] == -1 and obs["greaterAction"] is None
    assert obs["curPos"] == -1 and obs["curAction"] is None
    assert (obs["selfRank"], obs["oppoRank"], obs["curRank"]) == ("3", "7", "3")
    assert obs["actionList"] == [["Single", "3", ["S3"]], ["Single", "4", ["S4"]]] and obs["indexRange"] == 1
    assert obs["stage"] == "play" and obs["type"] == "act" and obs["myPos"] == 0
    deal.step(single("S4"))
    obs = deal.observation(1)
    assert (obs["selfRank"], obs["oppoRank"]) == ("7", "3")
    assert obs["greaterPos"] == 0 and obs["greaterAction"] == single("S4")
    assert obs["curPos"] == 0 and obs["curAction"] == single("S4")
    assert obs["actionList"][0] == PASS_TRIPLE
    assert obs["publicInfo"][0] == {"rest": 1, "playArea": single("S4")}
    assert obs["history"] == [[0, single("S4")]]
    deal.step(PASS_TRIPLE)
    obs = deal.observation(3)
    assert obs["actionList"] == [] and obs["indexRange"] == -1  # seat 3 is not to act
    assert obs["curPos"] == 1 and obs["curAction"] == PASS_TRIPLE
    assert obs["greaterPos"] == 0
    assert obs["publicInfo"][1]["playArea"] == PASS_TRIPLE
    assert "S5" not in str(obs["hand"])  # only its own hand


def test_observation_in_tribute_stages() -> None:
    deal = tribute_deal(["S3 ST", "S4", "S5", "SA D5"], [0, 1, 2, 3])
    assert deal.observation(3)["stage"] == "tribute"
    deal.step(["tribute", "tribute", ["SA"]])
    obs = deal.observation(0)
    assert obs["stage"] == "back" and obs["actionList"] == [["back", "back", ["S3"]], ["back", "back", ["ST"]]]


# ---------------------------------------------------------------------------------------------
# CLI
# ---------------------------------------------------------------------------------------------
def test_numpy_index_and_returned_actions_are_copies() -> None:
    import numpy as np

    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    actions = deal.legal_actions()
    actions[0][2].append("HR")
    actions.clear()
    assert deal.legal_actions() == [single("S3"), single("S4")]
    deal.step(np.int64(1))
    assert deal.history == [(0, single("S4"))]
    deal.step(np.uint8(0))  # the pass, listed first when following
    assert deal.history[-1] == (1, PASS_TRIPLE)


# ---------------------------------------------------------------------------------------------
# Nothing handed out is the deal's own; copies and pickles are independent
# ---------------------------------------------------------------------------------------------
def scramble(value: Any) -> None:
    """Mutate every list and dict reachable from ``value``, innermost first."""
    if isinstance(value, list):
        for item in value:
            scramble(item)
        value.append("HR")
        value.reverse()
        value[0] = "Bomb"
    elif isinstance(value, dict):
        for item in value.values():
            scramble(item)
        for key in list(value):
            value[key] = "Bomb"
        value["extra"] = [1]
    elif isinstance(value, tuple):
        for item in value:
            scramble(item)
    elif isinstance(value, Mapping):  # an Observation: read-only, but its values are its own
        for item in value.values():
            scramble(item)


def mid_play_deal() -> Deal:
    """A deal after a tribute, a return and a few plays (a trick in progress)."""
    deal = tribute_deal(["S3 S4 S5 ST", "S6 S7 S8", "S9 SJ SQ", "SA SK C4 C4"], [0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    deal.step(["back", "back", ["S3"]])
    assert deal.phase == "play" and deal.to_act == 3
    deal.step(single("C4"))
    deal.step(single("S5"))
    deal.step(PASS_TRIPLE)
    assert deal.to_act == 2 and deal.following
    return deal


def test_reviewer_repro_observation_and_history_do_not_alias() -> None:
    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    deal.step(["Single", "3", ["S3"]])
    deal.observation(1)["publicInfo"][0]["playArea"][2].append("HR")
    assert deal.history == [(0, single("S3"))]
    deal.history[0][1][0] = "Bomb"
    assert deal.observation(1)["curAction"] == single("S3")
    assert deal.observation(1)["publicInfo"][0]["playArea"] == single("S3")


@pytest.mark.parametrize("stage", ["tribute", "return", "play", "done"])
def test_mutating_anything_returned_changes_nothing(stage: str) -> None:
    deal = mid_play_deal() if stage != "tribute" else tribute_deal(["S3 ST", "S4", "S5", "SA D5"], [0, 1, 2, 3])
    if stage == "return":
        deal = tribute_deal(["S3 ST", "S4", "S5", "SA D5"], [0, 1, 2, 3])
        deal.step(["tribute", "tribute", ["SA"]])
    if stage == "done":
        deal = four("S3", "S9 ST", "S4", "S7 S8", leader=0)
        for action in (single("S3"), PASS_TRIPLE, single("S4")):
            deal.step(action)
    assert deal.phase == stage
    before = copy.deepcopy(snapshot(deal))  # a snapshot sharing nothing with what is scrambled
    early = deal.clone()
    returned: list[Any] = [
        deal.history,
        deal.finish_order,
        deal.tribute,
        deal.cards_left(),
        deal.legal_actions(),
        [deal.observation(seat) for seat in range(4)],
    ]
    scramble(returned)
    assert snapshot(deal) == before
    assert snapshot(early) == before
    assert snapshot(deal.clone()) == before


def test_the_played_cards_are_read_only_for_good() -> None:
    deal = mid_play_deal()
    before = snapshot(deal)
    played = deal.played
    with pytest.raises(ValueError, match="read-only"):
        played[0, 0] = 1
    with pytest.raises(ValueError, match="cannot set WRITEABLE"):
        played.setflags(write=True)
    assert snapshot(deal) == before and snapshot(deal.clone()) == before


def test_the_move_list_is_read_only_and_its_own() -> None:
    from guandan_fast.engine.kinds import MoveArrays

    deal = mid_play_deal()
    before = snapshot(deal)
    moves = deal.legal_moves()
    assert moves is not deal.legal_moves() and list(moves) == list(deal.legal_moves())
    for array in (moves.kinds, moves.keys, moves.cards):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 3
    # rebinding the returned list's arrays: its own business (the list gets memory of its own)
    moves.__init__(MoveArrays(moves.kinds[::-1], moves.keys[::-1], moves.cards[::-1]), deal.level)
    assert snapshot(deal) == before
    assert deal.legal_moves().cards.tolist() == moves.cards.tolist()[::-1] != moves.cards.tolist()
    following = deal.clone()
    following.step(2)  # index 2 = legal_moves()[1]: the deal's own list, not the rebound arrays
    assert following.history[-1] == (2, deal.legal_actions()[2])


def test_copy_and_deepcopy_of_a_deal_are_clones() -> None:
    for make in (copy.copy, copy.deepcopy):
        deal = mid_play_deal()
        before = snapshot(deal)
        other = make(deal)
        assert snapshot(other) == before
        while other.phase != "done":
            other.step(0 if other.following else len(other.legal_actions()) - 1)
        assert snapshot(deal) == before


def test_a_deal_pickles_by_value() -> None:
    import pickle

    for deal in (
        mid_play_deal(),
        tribute_deal(["S3 ST", "S4", "S5", "SA D5"], [0, 1, 2, 3]),
        Deal.random(seed=3, previous_finish=[1, 3]),
        Deal.random(seed=4),
    ):
        deal.legal_actions()  # fill the caches: they are rebuilt after unpickling
        before = snapshot(deal)
        other = pickle.loads(pickle.dumps(deal))
        assert snapshot(other) == before
        assert other.last_move == deal.last_move
        assert [other.playout(seed) for seed in range(5)] == [deal.playout(seed) for seed in range(5)]
        assert other.playouts(20, seed=7).tolist() == deal.playouts(20, seed=7).tolist()
        other.step(0)
        assert snapshot(deal) == before
        deal.step(0)
        assert snapshot(deal) == snapshot(other)


def test_deals_are_equal_when_they_are_one_game_so_far() -> None:
    import pickle

    deal = mid_play_deal()
    assert deal == deal.clone() == copy.deepcopy(deal) == pickle.loads(pickle.dumps(deal))
    assert Deal.random(seed=3) == Deal.random(seed=3) != Deal.random(seed=4)
    other = deal.clone()
    other.step(len(other.legal_actions()) - 1)
    assert other != deal  # one action more
    deal.step(0)
    assert other != deal  # another action
    again = other.clone()
    other_levels = other.clone()
    other_levels.team_levels = (5, 7)
    assert other == again and other_levels != again  # the match around it counts
    assert deal != "deal" and deal.__eq__(object()) is NotImplemented
    with pytest.raises(TypeError, match="unhashable"):
        hash(deal)  # it changes with every action


class NamedDeal(Deal):
    """A user's subclass with an attribute of its own (module level, to pickle)."""

    def describe(self) -> str:
        return f"{self.name}: {self.phase}"


class SlottedDeal(Deal):
    __slots__ = ("label",)


class NamedMatch(Match):
    """A user's subclass of Match with an attribute of its own."""

    def __init__(self, seed: int, name: str) -> None:
        super().__init__(seed)
        self.name = name


class SlottedMatch(Match):
    __slots__ = ("venue",)


class LoggingDeal(Deal):
    """A subclass whose overrides read an attribute of its own (set after ``start``) and
    whose ``start`` takes a keyword of its own: unpickling must not go through them."""

    __slots__ = ("__secret", "log")

    @classmethod
    def start(cls, hands: Any, level: Any, *, table: str = "", **options: Any) -> LoggingDeal:  # type: ignore[override]
        deal = super().start(hands, level, **options)
        deal.log = [table]
        deal.__secret = table.upper()
        return deal

    def step(self, action: Any) -> None:
        self.log.append(action)
        super().step(action)

    def secret(self) -> str:
        return self.__secret


class LoggingMatch(Match):
    def __init__(self, seed: int) -> None:
        self.log: list[Any] = []
        super().__init__(seed)

    def step(self, action: Any) -> None:
        self.log.append(action)
        super().step(action)


def test_a_subclass_stays_itself_through_copies_and_pickles() -> None:
    import pickle

    deal = NamedDeal.random(seed=3)
    deal.name = "table 7"
    for _ in range(30):
        deal.step(0)
    slotted = SlottedDeal.random(seed=4)
    slotted.label = "east"
    for copied in (deal.clone(), copy.copy(deal), copy.deepcopy(deal), pickle.loads(pickle.dumps(deal)),
                   deal.sample_world(deal.current_seat, seed=1)):
        assert type(copied) is NamedDeal and copied.name == "table 7" and copied.describe() == "table 7: play"
        assert copied.history == deal.history and copied.current_seat == deal.current_seat
    plain = Deal.random(seed=3)
    for _ in range(30):
        plain.step(0)
    assert pickle.loads(pickle.dumps(deal)) == deal == plain  # one game, whatever the class
    again = pickle.loads(pickle.dumps(slotted))
    assert type(again) is SlottedDeal and again.label == "east" and again == slotted
    match = NamedMatch(5, "final")
    for _ in range(200):
        match.step(0)
    for copied in (match.clone(), copy.deepcopy(match), pickle.loads(pickle.dumps(match))):
        assert type(copied) is NamedMatch and copied.name == "final"
        assert copied.deal.history == match.deal.history and copied.levels == match.levels
    assert type(Match(seed=1).clone()) is Match
    slotted_match = SlottedMatch(seed=2)
    slotted_match.venue = "hall"
    for copied in (slotted_match.clone(), copy.deepcopy(slotted_match), pickle.loads(pickle.dumps(slotted_match))):
        assert type(copied) is SlottedMatch and copied.venue == "hall"


def test_a_subclass_pickle_carries_only_its_own_attributes() -> None:
    import pickle

    from guandan_fast.engine.deal import _restore
    from guandan_fast.engine.match import _MATCH_FIELDS, _replay_match

    assert set(Match(seed=1).__dict__) == _MATCH_FIELDS  # the fields a subclass's pickle may not carry
    match = NamedMatch(5, "final")
    _, args, state = match.__reduce__()
    assert state == ({"name": "final"}, None)
    forged = pickle.loads(pickle.dumps(match))
    with pytest.raises(TypeError, match="never from raw state"):
        forged.__setstate__(({"_levels": [14, 14]}, None))  # a match's own state is refused
    with pytest.raises(TypeError, match="never from raw state"):
        Match(seed=1).__setstate__(({"name": "x"}, None))
    with pytest.raises(TypeError, match="class must be Match or a subclass"):
        _replay_match(*args[:4], dict)
    deal = NamedDeal.random(seed=3)
    deal.name = "x"
    _, args, state = deal.__reduce__()
    with pytest.raises(TypeError, match="class must be Deal or a subclass"):
        _restore(*args[:5], Match)
    for forged_state in (
        (None, {"_state": None}),  # a base slot
        ({"rules": 5}, None),  # hidden behind the base's slot, carried by every copy
        ({"step": len}, None),  # a method replaced on the instance
        ({"legal_actions": len}, None),
    ):
        with pytest.raises(TypeError, match="never from raw state"):
            NamedDeal.random(seed=1).__setstate__(forged_state)
    with pytest.raises(TypeError, match="never from raw state"):
        NamedMatch(1, "x").__setstate__(({"step": len}, None))
    with pytest.raises(TypeError, match="has no slot"):
        SlottedDeal.random(seed=1).__setstate__((None, {"other": None}))
    with pytest.raises(TypeError, match="no attributes beyond its slots"):
        SlottedDeal.random(seed=1).__setstate__(({"x": 1}, None))
    with pytest.raises(TypeError, match="never from raw state"):
        Deal.random(seed=1).__setstate__({"_state": None})
    with pytest.raises(TypeError, match="never from raw state"):
        Deal.random(seed=1).__setstate__(({"x": 1}, None))


def test_hostile_subclass_states_and_classes_are_refused_with_type_errors() -> None:
    from fuzzing import GARBAGE

    from guandan_fast.engine.deal import _restore
    from guandan_fast.engine.match import _replay_match

    deal_args = NamedDeal.random(seed=3).__reduce__()[1][:5]
    match_args = NamedMatch(5, "x").__reduce__()[1][:4]
    hostile = [*GARBAGE, (None, None), ({}, {}), ({1: 2}, None), (None, {"__dict__": {}}), ({"name": "x"},),
               ({"name": "x"}, {"name": "y"}, None), (GARBAGE[0], GARBAGE[1])]
    refused = 0
    for value in hostile:
        for call, args in (
            (NamedDeal.random(seed=1).__setstate__, (value,)),
            (SlottedDeal.random(seed=1).__setstate__, (value,)),
            (NamedMatch(1, "x").__setstate__, (value,)),
            (_restore, (*deal_args, value)),
            (_replay_match, (*match_args, value)),
        ):
            try:
                call(*args)
            except (TypeError, ValueError):
                refused += 1
    assert refused > 4 * len(hostile)  # (a few states are harmless: None, empty mappings)


def test_a_subclass_unpickles_without_its_overrides_and_copies_deeply_on_deepcopy() -> None:
    import pickle

    deal = LoggingDeal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0, table="east")
    deal.step(0)
    again = pickle.loads(pickle.dumps(deal))  # replayed by Deal's own start and step
    assert type(again) is LoggingDeal and again.log == ["east", 0] and again.secret() == "EAST" and again == deal
    assert deal.clone().secret() == "EAST" and deal.clone().log is deal.log  # a clone is shallow
    deep = copy.deepcopy(deal)
    deep.log.append("more")
    assert deal.log == ["east", 0] and deep.log == ["east", 0, "more"]
    match = LoggingMatch(3)
    for _ in range(40):
        match.step(0)
    restored = pickle.loads(pickle.dumps(match))
    assert type(restored) is LoggingMatch and restored.log == [0] * 40
    assert restored.deal.history == match.deal.history
    deep_match = copy.deepcopy(match)
    deep_match.log.append(1)
    assert len(match.log) == 40 and copy.copy(match).log is match.log


def test_pickled_pass_is_still_the_pass() -> None:
    import pickle

    deal = four("S3 S4", "S5 S6", "S7 S8", "S9 ST", leader=0)
    other = pickle.loads(pickle.dumps(deal))
    assert other._state.move_to_beat() is PASS and other.last_move is None and not other.following
    other.step(single("S3"))
    assert other.following and other.legal_actions()[0] == PASS_TRIPLE


def play_on(match: Match, extra: int = 5) -> list[Any]:
    """Random actions (a fixed policy seed) to the end of the current deal and ``extra``
    actions into the next one; the actions taken."""
    import random

    rng, log, target = random.Random(0), [], match.deals_played + 1
    while not match.over and (match.deals_played < target or extra > 0):
        if match.deals_played >= target:
            extra -= 1
        action = rng.choice(match.legal_actions())
        log.append((match.to_act, action))
        match.step(action)
    return log


def match_state(match: Match) -> tuple[Any, ...]:
    return (
        match.levels,
        match.winner,
        match.deals_played,
        [(r.level, r.finish_order, r.levels_after, r.tribute) for r in match.records],
        snapshot(match.deal),
    )


def test_a_match_copies_and_pickles_by_value() -> None:
    import pickle

    match = Match(seed=5)
    play_on(match)  # into the second deal: records, a tribute, a new random stream state
    assert match.deals_played == 1 and len(match.deal.history) == 5
    for make in (copy.copy, copy.deepcopy, lambda m: pickle.loads(pickle.dumps(m)), Match.clone):
        before = match_state(match)
        other = make(match)
        assert match_state(other) == before
        log = play_on(other)  # through the end of a deal: the next one is dealt from the copy's stream
        assert match_state(match) == before and other.deals_played == 2
        twin = make(match)
        assert play_on(twin) == log and match_state(twin) == match_state(other)


# ---------------------------------------------------------------------------------------------
# 接风 when the partner is out: never reached, the deal has ended
# ---------------------------------------------------------------------------------------------
def test_going_out_with_the_partner_out_ends_the_deal() -> None:
    """The 接风 'partner is out too' case of RULES.md §7 cannot arise: a player going out
    while the partner is already out ends the deal (1-2, or three out), endgames too."""
    # the partner went out first: 1-2
    deal = Deal.start(["S3", "S4", "S5", ""], 2, leader=1, finished=[3])
    deal.step(single("S4"))
    assert deal.phase == "done" and deal.finish_order == [3, 1, 2, 0]
    # an opponent and the partner out (finished=), the last of the team goes out: three out
    deal = Deal.start(["", "S4 S6", "S5", ""], 2, leader=1, finished=[0, 3])
    deal.step(single("S4"))
    deal.step(PASS_TRIPLE)
    deal.step(single("S6"))
    assert deal.phase == "done" and deal.finish_order == [0, 3, 1, 2]


def test_numpy_integers_are_seats_and_counts() -> None:
    import numpy as np

    deal = Deal.start(["S3", "S4", "S5", "S6"], 2, leader=np.int64(1))
    assert deal.to_act == 1
    assert deal.playouts(np.int32(2), seed=np.uint64(5)).shape == (2, 4)
    with pytest.raises(TypeError, match="seat number"):
        Deal.start(["S3", "S4", "S5", "S6"], 2, leader=np.float64(1))
