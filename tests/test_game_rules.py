"""Rule options (RULES.md §10) and the OpenGuanDan preset, from concrete deals and matches."""

from __future__ import annotations

import functools
import pickle
import random
from dataclasses import fields
from typing import Any

import pytest

from guandan_fast import Hand
from guandan_fast.engine import match as match_module
from guandan_fast.engine.cards import CARD_NAMES, parse_card
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.match import Match
from guandan_fast.engine.rules import Rules
from guandan_fast.engine.scoring import score_deal
from guandan_fast.engine.tribute import (
    NO_TRIBUTE,
    TributeRecord,
    hand_over,
    natural_order,
    return_choices,
    tribute_choices,
    tribute_due,
    who_pays,
)

OPEN = Rules.openguandan()


def cards(text: str) -> list[int]:
    return [parse_card(name) for name in text.split()]


# ---------------------------------------------------------------------------------------------
# Matches whose finishing orders are forced: tiny hands, and a search for the actions that
# give the wanted order.
# ---------------------------------------------------------------------------------------------
TINY_HANDS = ["S3 S7 SJ", "H4 H8 HQ", "C5 C9 CK", "D6 DT DA"]


def actions_to(deal: Deal, order: list[int]) -> list[Any] | None:
    """Actions that end ``deal`` with a finishing order starting with ``order`` (depth first)."""
    if deal.done:
        return [] if deal.finish_order[: len(order)] == order else None
    if deal.finish_order != order[: len(deal.finish_order)]:
        return None
    for action in deal.legal_actions():
        child = deal.clone()
        child.step(action)
        rest = actions_to(child, order)
        if rest is not None:
            return [action, *rest]
    return None


def play_match(rules: Rules, orders: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> Match:
    """A match with tiny hands in which the deals end in ``orders`` (first seats first)."""
    monkeypatch.setattr(match_module, "deal_cards", lambda rng: [Hand(text) for text in TINY_HANDS])
    match = Match(seed=1, rules=rules)
    for order in orders:
        assert not match.over
        played = match.deals_played
        actions = actions_to(match.deal.clone(), order)
        assert actions is not None, f"no play gives the order {order}"
        for action in actions:
            match.step(action)
        assert match.deals_played == played + 1 and match.records[-1].finish_order[: len(order)] == order
    return match


TO_A = [[0, 2]] * 4  # team 0 goes up 3 four times: 2 → 5 → 8 → J → A


def test_forced_matches_follow_the_national_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_match(Rules(), TO_A, monkeypatch)
    assert match.levels == (14, 2) and not match.over and match.deal.level == 14
    match = play_match(Rules(), [*TO_A, [0, 1, 2, 3]], monkeypatch)
    assert match.over and match.winner == 0


def test_deal_cap_higher_level_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_match(Rules(deal_cap=2), [[0, 1, 2, 3], [1, 3]], monkeypatch)
    assert match.levels == (4, 5) and match.over and match.winner == 1
    with pytest.raises(ValueError, match="the match is over: team 1 won"):
        match.step(0)


def test_deal_cap_equal_levels_is_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_match(Rules(deal_cap=2), [[0, 1, 2, 3], [1, 0, 3, 2]], monkeypatch)
    assert match.levels == (4, 4) and match.over and match.winner is None
    assert match.to_act is None and match.legal_actions() == []
    with pytest.raises(ValueError, match="the match is over: a draw"):
        match.step(0)
    assert "a draw" in repr(match)
    assert not play_match(Rules(), [[0, 1, 2, 3], [1, 0, 3, 2]], monkeypatch).over


def test_reaching_a_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_match(Rules(reaching_a_wins=True), TO_A, monkeypatch)
    assert match.levels == (14, 2) and match.over and match.winner == 0


def test_a_needs_double_up(monkeypatch: pytest.MonkeyPatch) -> None:
    at_a_1_3 = [*TO_A, [0, 1, 2, 3]]
    match = play_match(Rules(a_needs_double_up=True), at_a_1_3, monkeypatch)
    assert not match.over and match.levels == (14, 2)
    match = play_match(Rules(a_needs_double_up=True), [*at_a_1_3, [2, 0]], monkeypatch)
    assert match.over and match.winner == 0


def test_at_a_only_own_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Both teams reach A; the last deal was team 1's, so the next one is played at team 1's A.
    both_at_a = [*TO_A, *[[1, 3]] * 4]
    national = play_match(Rules(), [*both_at_a, [0, 2]], monkeypatch)
    assert national.over and national.winner == 0
    own = play_match(Rules(at_a_only_own_deal=True), [*both_at_a, [0, 2]], monkeypatch)
    assert not own.over and own.levels == (14, 14)
    own = play_match(Rules(at_a_only_own_deal=True), [*both_at_a, [0, 2], [0, 2]], monkeypatch)
    assert own.over and own.winner == 0


def test_three_failures_at_a_the_openguandan_way(monkeypatch: pytest.MonkeyPatch) -> None:
    partner_last = [0, 1, 3, 2]
    rules = Rules(fail_at_a_limit=3)
    match = play_match(rules, [*TO_A, partner_last, partner_last, partner_last], monkeypatch)
    assert match.levels == (2, 2) and not match.over
    match = play_match(OPEN, [*TO_A, partner_last, partner_last, partner_last], monkeypatch)
    assert match.levels == (3, 2) and not match.over  # back to 2, then the deal's +1
    assert match.records[-2].levels_after == (14, 2)

    # the deals carry the match: whose level they are played at and the failures so far
    match = play_match(OPEN, [*TO_A, partner_last, partner_last], monkeypatch)
    assert match.deal.failures_at_a == (2, 0) and match.deal.deal_team == 0 and match.deal.level == 14
    assert pickle.loads(pickle.dumps(match.deal)).failures_at_a == (2, 0) == match.deal.clone().failures_at_a
    assert Match(seed=1, rules=OPEN).deal.deal_team is None  # the first deal: nobody's level


def test_first_leader(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(4):
        plain, fixed = Match(seed=seed), Match(seed=seed, rules=Rules(first_leader=0))
        assert fixed.deal.to_act == 0 and fixed.deal.hands == plain.deal.hands
    assert Match(seed=5, rules=OPEN).deal.to_act == 0


# ---------------------------------------------------------------------------------------------
# score_deal, the pure function behind a match
# ---------------------------------------------------------------------------------------------
def test_score_deal_options() -> None:
    assert score_deal((14, 9), 14, [0, 1, 2, 3], rules=Rules(a_needs_double_up=True)).winner is None
    assert score_deal((14, 9), 14, [0, 2], rules=Rules(a_needs_double_up=True)).winner == 0
    # RULES.md §10: a failure at A is not finishing first, or first with the partner last;
    # with a double up required, 1-3 at A neither wins nor fails (the team stays at A)
    strict = Rules(fail_at_a_limit=1, a_needs_double_up=True)
    one_three = score_deal((14, 9), 14, [0, 1, 2, 3], rules=strict)
    assert one_three.levels == (14, 9) and one_three.failures == (0, 0) and one_three.winner is None
    assert score_deal((14, 9), 14, [0, 1, 3, 2], rules=strict).levels == (2, 9)  # 1-4: a failure
    both_at_a = score_deal((14, 14), 14, [0, 1, 2, 3], rules=Rules(fail_at_a_limit=2, a_needs_double_up=True))
    assert both_at_a.failures == (0, 1) and both_at_a.levels == (14, 14)  # team 1 not first: a failure
    assert score_deal((12, 9), 12, [0, 2], rules=Rules(reaching_a_wins=True)).winner == 0
    assert score_deal((10, 9), 10, [0, 2], rules=Rules(reaching_a_wins=True)).winner is None
    own = Rules(at_a_only_own_deal=True)
    assert score_deal((14, 14), 14, [1, 3], rules=own, deal_team=0).winner is None
    assert score_deal((14, 14), 14, [1, 3], rules=own, deal_team=1).winner == 1
    assert score_deal((14, 14), 14, [1, 3]).winner == 1


def test_failures_count_for_the_deal_team_only_with_at_a_only_own_deal() -> None:
    both = Rules(fail_at_a_limit=3)
    assert score_deal((14, 14), 14, [1, 0, 2, 3], rules=both, deal_team=0).failures == (1, 1)
    result = score_deal((14, 14), 14, [1, 0, 2, 3], rules=OPEN, deal_team=0)
    assert result.failures == (1, 0) and result.levels == (14, 14)
    third = score_deal((14, 14), 14, [1, 0, 2, 3], rules=OPEN, deal_team=0, failures=(2, 2))
    assert third.failures == (0, 2) and third.levels == (2, 14)  # not first: no +1
    with pytest.raises(ValueError, match="deal_team"):
        score_deal((14, 14), 14, [1, 3], deal_team=2)


# ---------------------------------------------------------------------------------------------
# Rules values
# ---------------------------------------------------------------------------------------------
def test_openguandan_preset_values() -> None:
    differs = {f.name: getattr(OPEN, f.name) for f in fields(Rules) if getattr(OPEN, f.name) != f.default}
    assert differs == {
        "fail_at_a_limit": 3,
        "fail_at_a_then_up": True,
        "at_a_only_own_deal": True,
        "first_leader": 0,
        "return_level_rank": False,
        "return_received_card": False,
        "double_tribute_by_rank": True,
    }
    assert OPEN.fail_at_a_level == 2 and OPEN == Rules.openguandan()


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"deal_cap": 0}, ValueError, "deal_cap, when set, must be an integer >= 1, not 0"),
        ({"deal_cap": 2.0}, TypeError, "deal_cap"),
        ({"first_leader": 4}, ValueError, "first_leader"),
        ({"first_leader": "0"}, TypeError, "first_leader"),
        ({"a_needs_double_up": 1}, TypeError, "a_needs_double_up must be True or False, not int"),
        ({"reaching_a_wins": None}, TypeError, "reaching_a_wins must be True or False"),
        ({"return_level_rank": "no"}, TypeError, "return_level_rank must be True or False"),
    ],
)
def test_bad_rule_values(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        Rules(**kwargs)


# ---------------------------------------------------------------------------------------------
# Tribute and return options, in deals
# ---------------------------------------------------------------------------------------------
def test_return_without_level_rank_or_the_received_card() -> None:
    # Level 5: seat 3 pays SA to seat 0, who holds S5 (level rank), H5 (wildcard), S3, ST.
    hands = ["S5 H5 S3 ST", "S6", "S7", "SA S4"]
    national = Deal.start(hands, 5, previous_finish=[0, 1, 2, 3])
    national.step(["tribute", "tribute", ["SA"]])
    assert national.legal_actions() == [["back", "back", [c]] for c in ("S3", "S5", "H5", "ST")]
    server = Deal.start(hands, 5, previous_finish=[0, 1, 2, 3], rules=OPEN)
    server.step(["tribute", "tribute", ["SA"]])
    assert server.legal_actions() == [["back", "back", [c]] for c in ("S3", "ST")]
    with pytest.raises(ValueError, match="may not return S5"):
        server.step(["back", "back", ["S5"]])


def test_the_received_card_is_not_returned_but_a_copy_held_before_may_be() -> None:
    # Level 2: seat 3 pays ST (its highest), seat 0 holds another ST and SA.
    hands = ["ST SA", "S6", "S7", "ST S4"]
    server = Deal.start(hands, 2, previous_finish=[0, 1, 2, 3], rules=OPEN)
    server.step(["tribute", "tribute", ["ST"]])
    assert server.hands[0] == Hand("ST ST SA")
    assert server.legal_actions() == [["back", "back", ["ST"]]]
    hands = ["SA SK", "S6", "S7", "ST S4"]
    server = Deal.start(hands, 2, previous_finish=[0, 1, 2, 3], rules=OPEN)
    server.step(["tribute", "tribute", ["ST"]])
    # Nothing but the received ST qualifies: the national choice over the whole hand (ST).
    assert server.legal_actions() == [["back", "back", ["ST"]]]


def test_double_tribute_by_natural_rank_and_its_leader() -> None:
    # Level 5, team 0 went 1-2; seat 1 pays SK, seat 3 pays S5 (a level card).
    hands = ["S3 S4", "SK S9", "S6 S8", "S5 DT"]
    national = Deal.start(hands, 5, previous_finish=[0, 2])
    server = Deal.start(hands, 5, previous_finish=[0, 2], rules=OPEN)
    for deal in (national, server):
        deal.step(["tribute", "tribute", ["SK"]])
        deal.step(["tribute", "tribute", ["S5"]])
    assert national.tribute["payments"] == [(3, 0, parse_card("S5")), (1, 2, parse_card("SK"))]
    assert server.tribute["payments"] == [(1, 0, parse_card("SK")), (3, 2, parse_card("S5"))]
    assert national.tribute_record.leader == 3  # paid the first player
    assert server.tribute_record.leader == 3  # paid the stronger card by power (the level card)
    for deal in (national, server):
        deal.step(0)
        deal.step(0)
        assert (deal.phase, deal.to_act) == ("play", 3)


def test_double_tribute_two_level_cards_the_payer_of_the_second_leads() -> None:
    hands = ["S3 S4", "S5 S9", "S6 S8", "D5 DT"]
    server = Deal.start(hands, 5, previous_finish=[0, 2], rules=OPEN)
    server.step(["tribute", "tribute", ["S5"]])
    server.step(["tribute", "tribute", ["D5"]])
    assert server.tribute["payments"] == [(1, 0, parse_card("S5")), (3, 2, parse_card("D5"))]
    server.step(0)
    server.step(0)
    assert (server.phase, server.to_act) == ("play", 3)


# ---------------------------------------------------------------------------------------------
# The tribute rules as pure functions
# ---------------------------------------------------------------------------------------------
def test_tribute_due() -> None:
    hands = [Hand(text) for text in ("S3", "HR S4", "S5", "HR S6")]
    assert tribute_due([0, 1, 2, 3], hands) == TributeRecord("single", (3,), (0,))
    assert tribute_due([0, 2, 1, 3], hands) == TributeRecord("anti", (1, 3), (0, 2), leader=0)
    assert tribute_due([0, 3, 1, 2], hands, Rules(no_tribute_between_partners=True)) == TributeRecord(
        "waived", (2,), (0,), leader=0
    )
    assert tribute_due([3, 1, 0, 2], [Hand("S3")] * 4) == TributeRecord("double", (0, 2), (3, 1))


def test_who_pays() -> None:
    """The payers and receivers before anti-tribute or waiving: the platform mirror places
    the big jokers with them, so they must agree with tribute_due."""
    assert who_pays([0, 1, 2, 3]) == ((3,), (0,))
    assert who_pays([0, 3, 1, 2]) == ((2,), (0,))  # waived or not, the partner is the one who pays
    assert who_pays([3, 1, 0, 2]) == ((0, 2), (3, 1))
    assert who_pays([2, 0, 3, 1]) == ((3, 1), (2, 0))
    assert who_pays([1, 3, 0, 2]) == ((2, 0), (1, 3))  # the seat after the first chooses first


def test_deal_result_is_the_signed_levels_of_each_team() -> None:
    deal = Deal.random(seed=3)
    assert deal.result(0) is None
    while not deal.done:
        deal.step(0)
    team, up = deal.outcome  # type: ignore[misc]
    assert [deal.result(seat) for seat in range(4)] == [up if seat % 2 == team else -up for seat in range(4)]
    assert sum(deal.result(seat) for seat in range(4)) == 0  # type: ignore[misc]
    with pytest.raises(ValueError, match="seat"):
        deal.result(4)


def test_hand_over_and_returns() -> None:
    record = TributeRecord("double", (1, 3), (0, 2))
    sk, s5, d5 = cards("SK S5 D5")
    assert hand_over(record, [(1, sk), (3, s5)], 5).payments == ((3, 0, s5), (1, 2, sk))
    assert hand_over(record, [(1, sk), (3, s5)], 5, OPEN).payments == ((1, 0, sk), (3, 2, s5))
    assert hand_over(record, [(1, s5), (3, d5)], 5, OPEN).leader == 3
    assert hand_over(record, [(1, s5), (3, d5)], 5).leader == 1
    single = hand_over(TributeRecord("single", (3,), (0,)), [(3, sk)], 5)
    assert single.payments == ((3, 0, sk),) and single.leader == 3
    returned = single.with_return(0, s5)
    assert returned.returns == ((0, 3, s5),) and single.returns == ()
    assert returned.as_dict() == {
        "kind": "single",
        "payers": [3],
        "receivers": [0],
        "payments": [(3, 0, sk)],
        "returns": [(0, 3, s5)],
    }
    assert NO_TRIBUTE.as_dict() == {"kind": "none", "payments": [], "returns": []}


def test_choices_and_natural_order() -> None:
    assert tribute_choices(Hand("H2 S2 SA D5"), 2) == cards("S2")
    assert tribute_choices(Hand("H2 H2"), 2) == []
    assert return_choices(Hand("SJ SQ SB"), 2) == cards("SJ")
    # Nothing but the level card qualifies for the server: the national choice (S5, rank 5).
    assert return_choices(Hand("S5 SQ"), 5, OPEN) == cards("S5")
    assert return_choices(Hand("S5 SQ"), 5) == cards("S5")
    assert [natural_order(c) for c in cards("S2 SA SB HR")] == [0, 12, 13, 14]


# ---------------------------------------------------------------------------------------------
# Rules.openguandan() against the real server's recordings (PROTOCOL.md; in tests/data/platform)
# ---------------------------------------------------------------------------------------------
@functools.cache
def _recordings() -> list[Any]:
    import gzip
    import json
    from pathlib import Path

    folder = Path(__file__).resolve().parent / "data" / "platform"
    paths = sorted(folder.glob("session-*.jsonl.gz"))
    assert paths, f"the OpenGuanDan recordings are missing from {folder}"
    return [[json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8")] for path in paths]


def _received(session: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    return [(r["seat"], r["msg"]) for r in session if r["dir"] == "recv" and isinstance(r["msg"], dict)]


def test_openguandan_levels_follow_the_recorded_server() -> None:
    from guandan_fast.engine.cards import parse_level

    for session in _recordings():
        levels, failures, team, expected, games = (2, 2), (0, 0), None, 2, []
        for seat, message in _received(session):
            stage = message.get("stage")
            if seat != 0 or stage not in ("beginning", "episodeOver", "gameResult"):
                continue
            if stage == "beginning":
                assert parse_level(message["levelCard"]) == expected
            elif stage == "episodeOver":
                result = score_deal(
                    levels, message["curRank"], message["order"], rules=OPEN, failures=failures, deal_team=team
                )
                if result.winner is None:
                    levels, failures, team, expected = result.levels, result.failures, result.team, result.levels[result.team]
                else:  # the server starts the next game at 2
                    games.append((result.winner, result.levels))
                    levels, failures, team, expected = (2, 2), (0, 0), None, 2
            else:
                ranks = tuple(parse_level(rank) for rank in message["victoryRank"])
                assert games[-1] == (message["victory"], ranks)


def test_openguandan_tribute_return_and_leader_follow_the_recorded_server() -> None:
    from guandan_fast.engine.cards import CARD_NAMES, parse_level

    checked = 0
    for session in _recordings():
        level: dict[int, int] = {}
        order: dict[int, list[int]] = {}
        received: dict[int, dict[int, int]] = {}  # per listening seat: receiver -> card, as notified
        leader: dict[int, int | None] = {}
        for seat, message in _received(session):
            stage, kind = message.get("stage"), message.get("type")
            if stage == "episodeOver":
                order[seat] = message["order"]
            elif stage == "beginning":
                level[seat], leader[seat] = parse_level(message["levelCard"]), None
            elif kind == "notify" and stage == "tribute":
                paid = {payer: parse_card(card) for payer, _, card in message["result"]}
                received[seat] = {receiver: parse_card(card) for _, receiver, card in message["result"]}
                first, second = order[seat][:2]
                due = TributeRecord("single", tuple(paid), (first,))
                if len(paid) == 2:
                    due = TributeRecord("double", ((first + 1) % 4, (first + 3) % 4), (first, second))
                done = hand_over(due, [(payer, paid[payer]) for payer in due.payers], level[seat], OPEN)
                ties = len(paid) == 2 and len({natural_order(card) for card in paid.values()}) == 1
                if not ties:  # equal ranks: the server goes by arrival order (a bug, not a rule)
                    assert {(p, r, CARD_NAMES[c]) for p, r, c in done.payments} == set(map(tuple, message["result"]))
                    leader[seat] = done.leader
            elif kind == "act" and stage == "back":
                card = received[seat][seat]
                hand = Hand(message["handCards"]).add(Hand.from_indices([card]))  # listed before the receipt
                ours = {CARD_NAMES[c] for c in return_choices(hand, level[seat], OPEN, card)}
                assert ours == {action[2][0] for action in message["actionList"]}
                checked += 1
            elif kind == "notify" and stage == "play" and leader.get(seat) is not None:
                assert message["curPos"] == leader[seat]
                leader[seat] = None
    assert checked > 0


def test_tribute_order_decides_who_pays_the_first_player_on_equal_cards() -> None:
    """RULES.md §9: on a tie the loser after the first player pays him (the default order);
    ``tribute_order`` gives the order the payers chose in (the OpenGuanDan server pairs
    equal tributes by arrival), and only a tie depends on it."""
    hands = ["S3 S4", "SA H5", "S6 S7", "SA D5"]

    def paid(order: Any, cards: Any = hands) -> list[tuple[int, int, str]]:
        deal = Deal.start(cards, 2, previous_finish=[0, 2, 1, 3], tribute_order=order)
        assert deal.to_act == (1 if order is None else order[0])
        while deal.phase == "tribute":
            deal.step(0)
        return [(p, r, CARD_NAMES[c]) for p, r, c in deal.tribute["payments"]]

    assert paid(None) == paid([1, 3]) == [(1, 0, "SA"), (3, 2, "SA")]
    assert paid([3, 1]) == [(3, 0, "SA"), (1, 2, "SA")]
    unequal = ["S3 S4", "SK H5", "S6 S7", "SA D5"]
    assert paid([3, 1], unequal) == paid([1, 3], unequal) == [(3, 0, "SA"), (1, 2, "SK")]
    for bad in ([1, 1], [0, 2], [1], "13"):
        with pytest.raises(ValueError, match="tribute_order must list the payers"):
            Deal.start(hands, 2, previous_finish=[0, 2, 1, 3], tribute_order=bad)
    with pytest.raises(ValueError, match="needs previous_finish"):
        Deal.start(hands, 2, leader=0, tribute_order=[1, 3])


def test_a_payer_holds_nothing_above_its_tribute() -> None:
    """cards_above_tribute is tribute_choices read backwards: on random hands at every level,
    the hand holds none of the cards above any card it may pay, and each card above the
    tribute but the wildcard is one the hand would have paid instead."""
    from guandan_fast.engine.cards import card_power, wildcard
    from guandan_fast.engine.tribute import cards_above_tribute

    rng = random.Random(12)
    for _ in range(300):
        level = rng.randint(2, 14)
        hand = Hand.from_indices(rng.sample(range(54), 12))
        for card in tribute_choices(hand, level):
            above = cards_above_tribute(card, level)
            assert hand.once & above == 0
            assert not above >> wildcard(level) & 1
            assert all(card_power(c, level) > card_power(card, level) for c in range(54) if above >> c & 1)
