"""The "danzero" layout against the plain-Python transcription of DanZero's client.

Positions come from whole matches of random legal actions (so later deals open with
tribute and return), every seat at every play-phase step and at the end of each deal.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from danzero_reference import (
    DZ_LATEST,
    DZ_PARTNER,
    STATE_SIZE,
    DanZeroClient,
    action_vectors,
    card_vector,
    reference_state,
    wildcard_flags,
)

from guandan_fast import Deal, Hand, Match
from guandan_fast.encode import action_features, state, states

DATA = Path(__file__).parent / "data"


def match_positions(seed: int, deals: int) -> Iterator[Deal]:
    """Every play-phase position (and each finished deal) of a random match."""
    match, rng = Match(seed), random.Random(seed)
    for _ in range(deals):
        while True:
            deal = match.deal
            if deal.phase == "play":
                yield deal.clone()
            match.step(rng.randrange(len(deal.legal_actions())))
            if deal.phase == "done":
                yield deal
                break
        if match.over:
            return


@pytest.fixture(scope="module")
def positions() -> list[Deal]:
    return [deal for seed in (3, 11) for deal in match_positions(seed, 3)]


def test_bit_exact_with_the_transcription(positions: list[Deal]) -> None:
    seen: Counter[str] = Counter()
    for deal in positions:
        for seat in range(4):
            native = state(deal, seat)
            expected = reference_state(deal, seat)
            assert native.dtype == np.float32 and native.shape == (STATE_SIZE,)
            assert np.array_equal(native, expected), (deal, seat, np.flatnonzero(native != expected))
            out = sum(1 for hand in deal.hands if not hand)
            seen["positions"] += 1
            seen["tribute deals"] += deal.tribute["kind"] in ("single", "double")
            seen[f"{out} out"] += 1
            if deal.history and native[DZ_LATEST] == -1:
                seen["latest is a [-1] marker"] += 1
            if out and deal.history[-1][1][0] == "PASS" and not native[DZ_LATEST : DZ_LATEST + 54].any():
                seen["pass or [] marker after someone is out"] += 1
            if (seat + 2) % 4 in deal.finish_order[:out]:
                seen["partner out"] += 1
    assert seen["positions"] >= 1000, seen
    # The situations the quirks are about must all occur.
    for case in ("tribute deals", "1 out", "2 out", "latest is a [-1] marker", "partner out"):
        assert seen[case] > 0, (case, seen)


def test_jiefeng_markers() -> None:
    """接风: seat 0 goes out, the three others pass, the partner leads. DanZero then
    records [-1] for seat 0 and [] for seat 1 after seat 3's pass."""
    deal = Deal.start(["S3", "S4 S5", "S6 S7", "S8 S9"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])
    for seat in (1, 2):
        deal.step(["PASS", "PASS", "PASS"])
        assert state(deal, 2)[DZ_LATEST : DZ_LATEST + 54].sum() == 0  # a pass
    deal.step(["PASS", "PASS", "PASS"])  # seat 3: the [-1] for seat 0, then [] for seat 1
    assert deal.to_act == 2
    assert not state(deal, 2)[DZ_LATEST : DZ_LATEST + 54].any()
    deal.step(["Single", "6", ["S6"]])
    deal.step(["Single", "8", ["S8"]])  # seat 3 plays: followed by [-1] for seat 0
    assert (state(deal, 1)[DZ_LATEST : DZ_LATEST + 54] == -1).all()
    # seat 2's partner is out: all -1
    assert (state(deal, 2)[DZ_PARTNER : DZ_PARTNER + 54] == -1).all()


def test_start_of_deal_markers() -> None:
    deal = Deal.random(5, leader=1)
    x = state(deal, 1)
    assert (x[DZ_LATEST : DZ_LATEST + 54] == -1).all()  # nothing recorded yet: [-1]
    assert (x[DZ_PARTNER : DZ_PARTNER + 54] == -1).all()  # partner has no entry yet


def test_card_order_hearts_first() -> None:
    """Their 54-vector puts each rank's four suits in the order H S C D."""
    deal = Deal.start(["H2 S2 C3 D4 SB HR HR", "S5", "S6", "S7"], 9, leader=0)
    hand = state(deal, 0)[:54]
    expected = np.zeros(54)
    expected[[0, 1, 4 + 2, 8 + 3, 52]] = 1
    expected[53] = 2
    assert np.array_equal(hand, expected)


def test_wildcard_flags_quirks() -> None:
    level = 5  # the wildcard is H5, their slot 12
    # J-Q-K-A of spades and the wildcard make T-A, a window their loop never tests.
    royal = card_vector([13 + 9, 13 + 10, 13 + 11, 13 + 12, 3])  # SJ SQ SK SA + H5
    assert wildcard_flags(royal, level)[1] == 0
    low = card_vector([13 + 0, 13 + 1, 13 + 2, 13 + 4, 3])  # spades 2 3 4 _ 6 + wildcard
    assert wildcard_flags(low, level)[1] == 1
    # Six sevens count as 4 suits held, so flags 2 and 3 stay 0.
    sevens = card_vector([5, 5, 18, 18, 31, 44, 3])
    assert list(wildcard_flags(sevens, level)[2:8]) == [0, 0, 1, 1, 1, 1]
    assert not wildcard_flags(card_vector([13]), level).any()  # no wildcard: all zero
    for vector in (royal, low, sevens):
        deal = Deal.start([_hand_of(vector), "S8", "S9", "ST"], level, leader=0)
        assert np.array_equal(state(deal, 0)[54:66], wildcard_flags(vector, level))


def _hand_of(vector: np.ndarray) -> Hand:
    """Our Hand from their 54-vector of counts (suits H S C D within a rank)."""
    ours = np.zeros(54, dtype=np.int64)
    for slot, count in enumerate(vector):
        card = slot ^ 1 if slot < 52 and slot % 4 < 2 else slot
        ours[card] = count
    return Hand.from_counts(ours)


def test_action_vectors(positions: list[Deal]) -> None:
    jokers = Deal.start(["H2 S2 C3 D4 SA HA DA SB HR HR", "S5", "S6", "S7"], 9, leader=0)
    for deal in [jokers, *positions[:: max(1, len(positions) // 40)]]:
        if deal.phase == "play":
            features = action_features(deal)
            assert features.dtype == np.int8
            assert np.array_equal(features, action_vectors(deal.legal_actions()))


def test_batch_equals_single(positions: list[Deal]) -> None:
    sample = positions[::7]
    seats = [i % 4 for i in range(len(sample))]
    batch = states(sample, seats)
    assert batch.shape == (len(sample), STATE_SIZE)
    for row, deal, seat in zip(batch, sample, seats):
        assert np.array_equal(row, state(deal, seat))


def test_real_platform_session() -> None:
    """A game recorded from the OpenGuanDan server (13 deals): DanZero's client fed the
    real messages of each seat, and our Deal fed the same plays, agree at every play
    request. The recording keeps, per seat, its beginning, play notifications and play
    requests (the fields the client reads)."""
    with gzip.open(DATA / "danzero_session.jsonl.gz", "rt", encoding="utf-8") as lines:
        events = [json.loads(line) for line in lines]
    streams: dict[int, list[list[dict[str, Any]]]] = {seat: [] for seat in range(4)}
    for event in events:
        if event["event"] == "beginning":
            streams[event["seat"]].append([])
        streams[event["seat"]][-1].append(event)
    compared = 0
    for number in range(len(streams[0])):
        first_requests = [next(e for e in streams[s][number] if e["event"] == "act") for s in range(4)]
        hands = [request["handCards"] for request in first_requests]  # after tribute and return
        ranks = first_requests[0]
        leader = next(e["curPos"] for e in streams[0][number] if e["event"] == "played")
        for seat in range(4):
            levels = (ranks["selfRank"], ranks["oppoRank"])  # seat 0's team first
            deal = Deal.start(hands, ranks["curRank"], leader=leader, team_levels=levels)
            client = DanZeroClient(seat)
            for event in streams[seat][number]:
                if event["event"] == "played":
                    client.notify_play(event["curPos"], event["curAction"][2])
                    assert deal.to_act == event["curPos"]
                    deal.step(event["curAction"])
                elif event["event"] == "act":
                    client.play_request(event["handCards"])
                    assert deal.to_act == seat
                    expected = client.prepare(
                        event["handCards"], event["selfRank"], event["oppoRank"], event["curRank"]
                    )
                    assert np.array_equal(state(deal, seat), expected), (number, seat, len(deal.plays))
                    compared += 1
    assert compared > 1500


def test_return_phase_receiver_count_is_clipped() -> None:
    """DanZero encodes play positions only; in the return phase the receiver holds 28
    cards, which its 28-wide one-hot (0..27) shows as 27."""
    deal = Deal.random(8, previous_finish=[0, 1, 2, 3])  # seat 3 pays seat 0
    deal.step(0)
    assert deal.phase == "return" and len(deal.hands[0]) == 28
    left = state(deal, 1)[390 : 390 + 3 * 28].reshape(3, 28)  # next, partner (seat 3), previous (seat 0)
    assert left[2].argmax() == 27 and left[2].sum() == 1
    assert left[1].argmax() == 26
