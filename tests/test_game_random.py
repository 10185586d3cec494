"""Invariants of the game over many random deals and matches (uniformly random legal play).

The counts (1,000 deals, 100 matches) can be lowered for a quick local run with the
environment variables ``GUANDAN_GAME_DEALS`` and ``GUANDAN_GAME_MATCHES``.
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np

from guandan_fast import Hand, legal_moves
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.match import Match
from guandan_fast.engine.rules import Rules

FULL_DECK = Hand.from_indices([i for i in range(54) for _ in range(2)])
N_DEALS = int(os.environ.get("GUANDAN_GAME_DEALS", "1000"))
N_MATCHES = int(os.environ.get("GUANDAN_GAME_MATCHES", "100"))
#: Deals in which every turn's move list is compared with a fresh ``legal_moves`` call.
N_CHECKED_DEALS = min(N_DEALS, 100)
PASS_KEY = ("PASS", "PASS", "PASS")


def _same_moves(deal: Deal) -> bool:
    seat = deal.to_act
    assert seat is not None
    fresh = legal_moves(deal.hands[seat], deal.level, deal.last_move)
    game = deal.legal_moves()
    return (
        np.array_equal(game.kinds, fresh.kinds)
        and np.array_equal(game.keys, fresh.keys)
        and np.array_equal(game.cards, fresh.cards)
    )


def play_random_deal(deal: Deal, rng: random.Random, *, check_moves: bool) -> Hand:
    """Play ``deal`` to its end, checking the invariants at every step; the cards played."""
    total = sum(len(hand) for hand in deal.hands)
    played = Hand()
    steps = 0
    while deal.phase != "done":
        seat = deal.to_act
        assert seat is not None and deal.hands[seat], "the seat to act holds cards"
        actions = deal.legal_actions()
        assert actions, "a seat to act always has an action"
        if deal.phase == "play":
            following = deal.following
            assert (actions[0] == ["PASS", "PASS", "PASS"]) == following
            assert len(actions) == len(deal.legal_moves()) + following
            if check_moves:
                assert _same_moves(deal)
        action = actions[rng.randrange(len(actions))]
        before = len(deal.history)
        deal.step(action)
        assert deal.history[before:] == [(seat, action)], "every step is recorded as it was given"
        if action[0] not in ("PASS", "tribute", "back"):
            played = played.add(action[2])  # ValueError if a card were played a third time
        assert sum(len(hand) for hand in deal.hands) + len(played) == total, "cards are conserved"
        steps += 1
        assert steps < 2000, "a deal ends"
    finish = deal.finish_order
    assert sorted(finish) == [0, 1, 2, 3]
    first = finish[0]
    double_down = finish[1] == first ^ 2
    out = finish[:2] if double_down else finish[:3]
    assert all(not deal.hands[seat] for seat in out), "players who are out hold no cards"
    assert all(deal.hands[seat] for seat in finish[len(out) :]), "the deal ends as soon as it is decided"
    assert deal.outcome is not None and deal.outcome[0] == first % 2
    return played


def test_random_deals_keep_the_invariants() -> None:
    rng = random.Random(20240601)
    tributes: dict[str, int] = {}
    for number in range(N_DEALS):
        level = rng.randrange(2, 15)
        previous = None
        if number % 2:
            previous = rng.sample(range(4), 4)
        deal = Deal.random(seed=number, level=level, previous_finish=previous)
        tributes[deal.tribute["kind"]] = tributes.get(deal.tribute["kind"], 0) + 1
        played = play_random_deal(deal, rng, check_moves=number < N_CHECKED_DEALS)
        left = Hand()
        for hand in deal.hands:
            left = left.add(hand)
        assert left.add(played) == FULL_DECK, "108 cards: every card played once or still held"
        # the tribute moved exactly the cards it says
        info = deal.tribute
        assert len(info["payments"]) == len(info["returns"]) == {"single": 1, "double": 2}.get(info["kind"], 0)
    if N_DEALS >= 100:
        assert tributes.get("single", 0) > 0 and tributes.get("double", 0) > 0 and tributes.get("none", 0) > 0


def test_random_matches_end_with_levels_in_range() -> None:
    rng = random.Random(7)
    for number in range(N_MATCHES):
        rules = Rules(fail_at_a_limit=3) if number % 4 == 3 else None
        match = Match(seed=number, rules=rules)
        steps = 0
        deals_seen = 0
        while not match.over:
            actions = match.legal_actions()
            match.step(actions[rng.randrange(len(actions))])
            steps += 1
            assert all(2 <= level <= 14 for level in match.levels)
            if match.deals_played != deals_seen:
                deals_seen = match.deals_played
                record = match.records[-1]
                team = record.finish_order[0] % 2
                if not match.over:
                    assert match.deal.level == record.levels_after[team], "next deal at the first team's level"
                    assert match.deal.team_levels == match.levels
            assert match.deals_played < 400, "a match ends"
        assert match.winner in (0, 1)
        last = match.records[-1]
        assert last.level == 14 and last.finish_order[0] % 2 == match.winner
        assert last.finish_order[3] != last.finish_order[0] ^ 2 or last.finish_order[1] == last.finish_order[0] ^ 2
        assert steps > 0


def test_deal_actions_equal_the_reference_oracle() -> None:
    """The deal plays on the native state and generator whatever the default backend; at
    every step of a few random deals (tribute included) its actions are exactly the
    reference generator's moves, as a set (the two list moves in different orders), and
    the pass when following."""
    from guandan_fast.engine import api

    def as_set(actions: list[Any]) -> set[Any]:
        return {(kind, rank, tuple(cards) if isinstance(cards, list) else cards) for kind, rank, cards in actions}

    previous = api.resolve_backend()
    api.set_default_backend("reference")  # changes nothing for a deal
    try:
        checked = 0
        for number in range(3):
            deal = Deal.random(seed=number, level=2 + 5 * number, previous_finish=[0, 1, 3, 2] if number else None)
            rng = random.Random(number)
            while not deal.done:
                actions = deal.legal_actions()
                if deal.phase == "play":
                    seat = deal.to_act
                    reference = api.legal_moves(deal.hands[seat], deal.level, deal.last_move, backend="reference")
                    expected = as_set(reference.to_platform()) | ({PASS_KEY} if deal.following else set())
                    assert as_set(actions) == expected and len(actions) == len(expected)
                    checked += 1
                deal.step(actions[rng.randrange(len(actions))])
    finally:
        api.set_default_backend(previous)
    assert checked > 150
