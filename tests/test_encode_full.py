"""The "full-v1" layout: every field checked on a concrete situation."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from guandan_fast import Deal, Hand, Match, MoveType
from guandan_fast.encode import FIELDS, HISTORY_LENGTH, LAYOUTS, action_features, state, states
from guandan_fast.engine.cards import parse_card

LAYOUT = "full-v1"


def field(x: np.ndarray, name: str) -> np.ndarray:
    offset, length = FIELDS[LAYOUT][name]
    return x[offset : offset + length]


def per_seat(x: np.ndarray, name: str) -> np.ndarray:
    return field(x, name).reshape(4, -1)


def one_hot(index: int, width: int) -> np.ndarray:
    out = np.zeros(width, dtype=np.float32)
    out[index] = 1
    return out


def card_counts(cards: str) -> np.ndarray:
    return Hand.parse(cards).counts().astype(np.float32)


def random_play(seed: int, steps: int) -> Deal:
    deal, rng = Deal.random(seed), random.Random(seed)
    for _ in range(steps):
        deal.step(rng.randrange(len(deal.legal_actions())))
    return deal


def test_sizes_and_fields_tile_the_state() -> None:
    x = state(Deal.random(1), 0, LAYOUT)
    assert x.shape == (LAYOUTS[LAYOUT][0],) and x.dtype == np.float32
    end = 0
    for offset, length in FIELDS[LAYOUT].values():
        assert offset == end
        end += length
    assert end == x.size


def test_hand_unseen_and_played_per_relative_seat() -> None:
    deal = random_play(4, 40)
    for seat in range(4):
        x = state(deal, seat, LAYOUT)
        assert np.array_equal(field(x, "hand"), deal.hands[seat].counts())
        played = np.array([Hand.from_numpy(deal.played[(seat + r) % 4]).counts() for r in range(4)])
        assert np.array_equal(per_seat(x, "played"), played)
        assert np.array_equal(field(x, "unseen"), 2 - deal.hands[seat].counts() - played.sum(axis=0))
        # what the seat cannot see is exactly the other three hands
        others = sum(deal.hands[(seat + r) % 4].counts() for r in (1, 2, 3))
        assert np.array_equal(field(x, "unseen"), others)


def test_cards_left_place_and_to_act() -> None:
    deal = Deal.start(["S3", "S4 S5", "S6 S7", "S8 S9 ST"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])  # seat 0 is out first; seat 1 to act
    x = state(deal, 3, LAYOUT)  # relative: 0 = seat 3, 1 = seat 0, 2 = seat 1, 3 = seat 2
    left = per_seat(x, "cards_left")
    assert [int(np.argmax(row)) for row in left] == [3, 0, 2, 2]
    assert left.sum() == 4
    place = per_seat(x, "place")
    assert np.array_equal(place[1], one_hot(0, 4))  # seat 0 finished first
    for r in (0, 2, 3):
        assert np.array_equal(place[r], one_hot(3, 4))  # still holding cards
    assert np.array_equal(field(x, "to_act"), one_hot(2, 4))  # seat 1


def test_cards_left_bucket_for_big_hands() -> None:
    big = " ".join(f"{suit}{rank}" for rank in "23456" for suit in "SHCD" for _ in (0, 1))
    deal = Deal.start([big, "S7", "S8", "S9"], 2, leader=0)
    assert len(deal.hands[0]) == 40
    assert np.array_equal(per_seat(state(deal, 0, LAYOUT), "cards_left")[0], one_hot(28, 29))


def test_levels_are_own_team_opponents_deal() -> None:
    deal = Deal.start(["S3", "S4", "S5", "S6"], 5, leader=0, team_levels=(5, 9))
    for seat, own, other in ((0, 5, 9), (1, 9, 5)):
        levels = field(state(deal, seat, LAYOUT), "levels").reshape(3, 13)
        assert np.array_equal(levels[0], one_hot(own - 2, 13))
        assert np.array_equal(levels[1], one_hot(other - 2, 13))
        assert np.array_equal(levels[2], one_hot(5 - 2, 13))


def test_move_to_beat_and_who_made_it() -> None:
    deal = Deal.start(["S3 S3 S9", "S4 S4 S8", "S6 S6 S7", "H8 H9 HT"], 2, leader=0)
    x = state(deal, 0, LAYOUT)
    assert not field(x, "beat_cards").any() and not field(x, "beat_seat").any()  # leading
    deal.step(["Pair", "3", ["S3", "S3"]])
    x = state(deal, 2, LAYOUT)
    assert np.array_equal(field(x, "beat_cards"), card_counts("S3 S3"))
    assert np.array_equal(field(x, "beat_kind"), one_hot(int(MoveType.PAIR), 11))
    assert np.array_equal(field(x, "beat_key"), one_hot(3, 18))
    assert np.array_equal(field(x, "beat_seat"), one_hot(2, 4))  # seat 0 is two seats after 2


def test_phase_tribute_return_cards_and_roles() -> None:
    deal = Deal.random(8, level=2, previous_finish=[0, 1, 2, 3])  # seat 3 pays seat 0
    assert deal.phase == "tribute"
    x = state(deal, 1, LAYOUT)
    assert np.array_equal(field(x, "phase"), one_hot(0, 4))
    assert np.array_equal(field(x, "tribute_kind"), one_hot(1, 5))
    assert np.array_equal(field(x, "payers"), one_hot(2, 4))  # seat 3 from seat 1
    assert np.array_equal(field(x, "receivers"), one_hot(3, 4))  # seat 0
    assert np.array_equal(field(x, "to_act"), one_hot(2, 4))
    deal.step(0)
    paid = parse_card(deal.history[-1][1][2][0])
    deal.step(0)
    returned = parse_card(deal.history[-1][1][2][0])
    assert deal.phase == "play"
    x = state(deal, 0, LAYOUT)  # relative: seat 3 is 3, seat 0 is 0
    assert np.array_equal(field(x, "phase"), one_hot(2, 4))
    tribute, back = per_seat(x, "tribute_cards"), per_seat(x, "return_cards")
    assert np.array_equal(tribute[3], one_hot(paid, 54)) and tribute[:3].sum() == 0
    assert np.array_equal(back[0], one_hot(returned, 54)) and back[1:].sum() == 0


def test_done_phase_and_no_tribute() -> None:
    deal = Deal.start(["S3", "S4", "S5", "S6"], 2, leader=0)
    x = state(deal, 0, LAYOUT)
    assert np.array_equal(field(x, "tribute_kind"), one_hot(0, 5))
    for _ in range(3):  # seat 0 plays its last card, then everybody is beaten in turn
        deal.step(deal.legal_actions()[-1])
    assert deal.phase == "done"
    x = state(deal, 0, LAYOUT)
    assert np.array_equal(field(x, "phase"), one_hot(3, 4))
    assert not field(x, "to_act").any()


def test_bombs_and_wildcards_played_per_seat() -> None:
    # level 3: the wildcard is H3
    deal = Deal.start(["S7 H7 C7 D7 S2", "H3 S4", "S5 S6", "H3 S8 S9"], 3, leader=0)
    deal.step(["Bomb", "7", ["S7", "H7", "C7", "D7"]])
    deal.step(["PASS", "PASS", "PASS"])
    deal.step(["PASS", "PASS", "PASS"])
    deal.step(["PASS", "PASS", "PASS"])
    deal.step(["Single", "2", ["S2"]])  # seat 0 leads again and goes out
    deal.step(["Single", "3", ["H3"]])  # seat 1 beats it with the wildcard
    x = state(deal, 1, LAYOUT)  # relative: seat 1 = 0, seat 0 = 3
    assert np.array_equal(field(x, "bombs"), np.array([0, 0, 0, 1], dtype=np.float32))
    wild = per_seat(x, "wildcards_played")
    assert np.array_equal(wild[0], one_hot(1, 3)) and np.array_equal(wild[3], one_hot(0, 3))


def test_history_newest_first_and_bounded() -> None:
    deal = random_play(12, HISTORY_LENGTH + 10)
    plays = deal.plays
    seat = 2
    history = field(state(deal, seat, LAYOUT), "history").reshape(HISTORY_LENGTH, 59)
    for slot in range(HISTORY_LENGTH):
        actor, kind, _, once, twice = plays[-1 - slot]
        row = history[slot]
        assert np.array_equal(row[:4], one_hot((actor - seat) % 4, 4))
        assert row[4] == (kind == 0)
        assert np.array_equal(row[5:], Hand.from_bits(once, twice).counts())
    short = field(state(random_play(12, 3), seat, LAYOUT), "history").reshape(HISTORY_LENGTH, 59)
    assert short[:3].any(axis=1).all() and not short[3:].any()


def test_action_features_full_layout() -> None:
    deal = random_play(6, 5)
    assert deal.following
    features = action_features(deal, LAYOUT)
    actions = deal.legal_actions()
    assert features.shape == (len(actions), 83) and features.dtype == np.int8
    assert np.array_equal(features[0], np.concatenate([np.zeros(54), one_hot(0, 11), np.zeros(18)]))
    for row, move in zip(features[1:], deal.legal_moves()):
        assert np.array_equal(row[:54], move.cards.counts())
        assert np.array_equal(row[54:65], one_hot(int(move.kind), 11))
        assert np.array_equal(row[65:], one_hot(move.key, 18))


def test_action_features_tribute_phase() -> None:
    deal = Deal.random(8, previous_finish=[0, 1, 2, 3])
    for layout, width in (("danzero", 54), (LAYOUT, 83)):
        features = action_features(deal, layout)
        actions = deal.legal_actions()
        assert features.shape == (len(actions), width)
        for row, action in zip(features, actions):
            card = parse_card(action[2][0])
            slot = card if layout == LAYOUT or card >= 52 or card % 4 >= 2 else card ^ 1  # danzero: H S C D
            assert row.sum() == 1 and row[slot] == 1


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_states_over_a_match_equal_single_calls(layout: str) -> None:
    match, rng, deals = Match(2), random.Random(2), []
    while len(deals) < 300 and not match.over:
        deals.append(match.deal.clone())
        match.step(rng.randrange(len(match.legal_actions())))
    seats = np.arange(len(deals)) % 4
    batch = states(deals, seats, layout)
    assert batch.shape == (len(deals), LAYOUTS[layout][0])
    for row, deal, seat in zip(batch, deals, seats):
        assert np.array_equal(row, state(deal, int(seat), layout))


def test_uneven_endgames_encode_consistently() -> None:
    """Deals set up with hands of any size (up to 54 cards) and any level: every one-hot
    field has exactly one bit, hands and unseen cards add up, in both layouts."""
    rng = random.Random(21)
    deck = [card for card in range(54) for _ in (0, 1)]
    for _ in range(15):
        rng.shuffle(deck)
        cuts = sorted(rng.sample(range(1, 108), 3))
        parts = [deck[a:b] for a, b in zip([0, *cuts], [*cuts, 108])]
        deal = Deal.start([Hand.from_indices(part) for part in parts], rng.randrange(2, 15), leader=rng.randrange(4))
        for _ in range(rng.randrange(6)):
            if deal.done:
                break
            deal.step(rng.randrange(len(deal.legal_actions())))
        for seat in range(4):
            x = state(deal, seat, LAYOUT)
            for name in ("cards_left", "place"):
                assert (per_seat(x, name).sum(axis=1) == 1).all(), name
            assert field(x, "levels").sum() == 3 and field(x, "phase").sum() == 1
            seen = field(x, "hand") + field(x, "unseen") + per_seat(x, "played").sum(axis=0)
            assert (seen == 2).all()
            left = [len(deal.hands[(seat + r) % 4]) for r in range(4)]
            assert [int(np.argmax(row)) for row in per_seat(x, "cards_left")] == [min(n, 28) for n in left]
            d = state(deal, seat)
            assert (d[390 : 390 + 84].reshape(3, 28).sum(axis=1) == 1).all()
            assert np.isin(d, (-1, 0, 1, 2)).all()


def test_batches_in_parallel_threads() -> None:
    """states() releases the GIL while it encodes: batches from several threads agree with
    the same batches encoded one after another."""
    deals = [random_play(seed, 20 + seed % 30) for seed in range(40)]
    jobs = [(deals, [seed % 4] * len(deals), layout) for seed in range(4) for layout in LAYOUTS]
    expected = [states(*job) for job in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: states(*job), jobs))
    for got, want in zip(results, expected):
        assert np.array_equal(got, want)


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_clones_and_pickles_encode_their_own_history(layout: str) -> None:
    """The encoders read the plays the Deal keeps packed for them: a clone's must not
    follow the original's later plays (nor the original the clone's), and a pickled deal's
    must come back whole."""
    import pickle

    deal = random_play(4, 30)
    copy = deal.clone()
    before = [state(copy, seat, layout) for seat in range(4)]
    rng = random.Random(4)
    for _ in range(8):
        deal.step(rng.randrange(len(deal.legal_actions())))
    assert all(np.array_equal(state(copy, seat, layout), before[seat]) for seat in range(4))
    twin = random_play(4, 30)
    for _ in range(8):
        copy.step(0)
        twin.step(0)
    for seat in range(4):
        assert np.array_equal(state(copy, seat, layout), state(twin, seat, layout))
        assert np.array_equal(state(pickle.loads(pickle.dumps(deal)), seat, layout), state(deal, seat, layout))
