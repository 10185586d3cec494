"""The native core (``guandan_fast.engine._movegen``) against the reference generator.

* differential: seeded random hands across all 13 levels (mostly 27 cards, half with
  wildcards forced in), leading and following, complete and strongest, compared with
  :mod:`guandan_fast.engine.reference` as sets of (kind, key, once, twice); ``classify`` on
  random multisets; hypothesis-generated hands;
* ``has_legal_follow`` agrees with the move lists;
* ``generate_batch`` / ``legal_moves_batch`` equal single calls, and threads calling
  concurrently get the same results;
* bad input to every native entry point raises ValueError / TypeError;
* ``scripts/check_annotation.py``: the nogil kernels compile to pure C.
"""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from guandan_fast import Hand, Move, MoveType
from guandan_fast.engine import _movegen, _notation, api, notation, reference
from guandan_fast.engine.cards import wildcard
from guandan_fast.engine.hand import as_hand
from guandan_fast.engine.reference import beats

ROOT = Path(__file__).resolve().parent.parent
DECK = [index for index in range(54) for _ in range(2)]
LEVELS = range(2, 15)

Row = tuple[int, int, int, int]  # (kind, key, once, twice)


def native() -> Any:
    return _movegen


def rows_of(moves: Any) -> list[Row]:
    """The rows of a generator result (``len`` and the arrays ``kinds``, ``keys``, ``cards``)."""
    kinds, keys, cards = moves.kinds, moves.keys, moves.cards
    assert len(moves) == len(kinds)
    assert kinds.dtype == np.uint8 and keys.dtype == np.uint8 and cards.dtype == np.uint64
    assert kinds.shape == keys.shape == (len(kinds),) and cards.shape == (len(kinds), 2)
    return list(zip(kinds.tolist(), keys.tolist(), cards[:, 0].tolist(), cards[:, 1].tolist()))


def native_set(
    hand: Hand, level: int, last: Row | tuple[int, int, int] = (0, 0, 0), strongest: bool = False
) -> set[Row]:
    """The native move list as a set (checking that it holds no move twice)."""
    rows = rows_of(native().generate(hand.once, hand.twice, level, *last[:3], strongest))
    found = set(rows)
    assert len(found) == len(rows), "the native list holds a move twice"
    return found


def row(move: Move) -> Row:
    return (int(move.kind), move.key, move.cards.once, move.cards.twice)


def size_of(once: int, twice: int) -> int:
    return once.bit_count() + twice.bit_count()


def following(rows: Iterable[Row], last: tuple[int, int, int]) -> set[Row]:
    """The rows that beat ``last`` = (kind, key, size), by the model's rule (RULES.md §5)."""
    by_kind = rows if isinstance(rows, ByKind) else ByKind(rows)
    # a move of another kind beats only as a bomb (moves.beats says so; skipping the rest is
    # only for speed)
    candidates = by_kind.get(last[0], []) + [r for kind in BOMB_KINDS if kind != last[0] for r in by_kind.get(kind, [])]
    return {r[1:] for r in candidates if beats(r[1], r[2], r[0], *last)}


BOMB_KINDS = (int(MoveType.BOMB), int(MoveType.STRAIGHT_FLUSH), int(MoveType.FOUR_JOKERS))


class ByKind(dict[int, list[tuple[int, int, int, int, int]]]):
    """Rows grouped by kind, each as (size, kind, key, once, twice)."""

    def __init__(self, rows: Iterable[Row]) -> None:
        super().__init__()
        for r in rows:
            self.setdefault(r[0], []).append((size_of(r[2], r[3]),) + r)


def strongest_rows(rows: Iterable[Row]) -> set[Row]:
    """For each (kind, cards) only the highest key (RULES.md §4), on plain tuples."""
    best: dict[tuple[int, int, int], int] = {}
    for kind, key, once, twice in rows:
        if best.get((kind, once, twice), -1) < key:
            best[(kind, once, twice)] = key
    return {(kind, key, once, twice) for (kind, once, twice), key in best.items()}


def random_hand(rng: random.Random, level: int, size: int, wilds: int) -> Hand:
    """``size`` random cards of the double deck, ``wilds`` (0..2) of them forced to be wildcards."""
    wild = wildcard(level)
    deck = [c for c in DECK if c != wild] if wilds else DECK
    cards = rng.sample(deck, max(0, size - wilds)) + [wild] * wilds
    return Hand.from_indices(cards)


def as_last(move_row: Row) -> tuple[int, int, int]:
    kind, key, once, twice = move_row
    return (kind, key, size_of(once, twice))


# -- a pool of moves to follow: every move a full double deck can make, per level ---------

_FULL = Hand.from_indices(DECK)
_FULL_ROWS: dict[int, list[Row]] = {}


def full_deck_rows(level: int) -> list[Row]:
    """Every move of the 108-card hand at ``level`` (all types, bombs of 4..10, four jokers)."""
    if level not in _FULL_ROWS:
        _FULL_ROWS[level] = rows_of(native().generate(_FULL.once, _FULL.twice, level, 0, 0, 0, False))
    return _FULL_ROWS[level]


_FULL_BY_KIND: dict[int, dict[int, list[Row]]] = {}


def full_deck_by_kind(level: int) -> dict[int, list[Row]]:
    if level not in _FULL_BY_KIND:
        groups: dict[int, list[Row]] = {}
        for r in full_deck_rows(level):
            groups.setdefault(r[0], []).append(r)
        _FULL_BY_KIND[level] = groups
    return _FULL_BY_KIND[level]


def lasts_to_follow(rng: random.Random, level: int, pools: list[list[Row]]) -> list[tuple[int, int, int]]:
    """Moves to follow: drawn from other hands' lists (of a few random kinds they have) and
    from the full deck's list (always a bomb, a straight flush and the four jokers)."""
    lasts: set[tuple[int, int, int]] = set()
    for pool in pools:
        by_kind: dict[int, list[Row]] = {}
        for r in pool:
            by_kind.setdefault(r[0], []).append(r)
        for kind in rng.sample(sorted(by_kind), min(3, len(by_kind))):
            lasts.add(as_last(rng.choice(by_kind[kind])))
    full = full_deck_by_kind(level)
    for kind in (MoveType.BOMB, MoveType.STRAIGHT_FLUSH):
        lasts.add(as_last(rng.choice(full[kind])))
    lasts.add((int(MoveType.FOUR_JOKERS), 0, 4))
    kind = rng.choice(sorted(full))
    lasts.add(as_last(rng.choice(full[kind])))
    return sorted(lasts)


# -- differential: random hands ---------------------------------------------------------

HANDS = 2000
CHUNKS = 20


def _differential_chunk(chunk: int) -> tuple[int, int]:
    """Hands chunk*100 .. chunk*100+99 (the same hands every run); returns (hands, lists) checked."""
    rng = random.Random(1_000_003 * chunk + 17)
    per_chunk = HANDS // CHUNKS
    checked = 0
    # four hands at one level at a time, like a deal, so they can follow one another
    previous: list[list[Row]] = []
    for i in range(per_chunk):
        number = chunk * per_chunk + i
        level = LEVELS[(number // 4) % 13]
        if i % 4 == 0:
            previous = []
        size = 27 if rng.random() < 0.8 else rng.choice([0, 1, 2, 4, 5, 6, 8, 10, 13, 16, 20, 34])
        wilds = 0 if number % 2 == 0 else rng.randint(1, 2)
        hand = random_hand(rng, level, size, min(wilds, size))
        complete = {row(m) for m in api.legal_moves(hand, level, backend="reference")}
        strongest = strongest_rows(complete)
        assert native_set(hand, level) == complete, (str(hand), level)
        assert native_set(hand, level, strongest=True) == strongest, (str(hand), level)
        checked += 2
        complete_by_kind, strongest_by_kind = ByKind(complete), ByKind(strongest)
        for last in lasts_to_follow(rng, level, previous[-2:]):
            expected = following(complete_by_kind, last)
            assert native_set(hand, level, last) == expected, (str(hand), level, last)
            assert native_set(hand, level, last, True) == following(strongest_by_kind, last), (str(hand), level, last)
            has = native().has_legal_follow(hand.once, hand.twice, level, *last)
            assert has is bool(expected), (str(hand), level, last)
            checked += 3
        if i % 25 == 0:
            # now and then the reference's own strongest and following lists, not our filters
            for strong in (False, True):
                expected = set(map(row, api.legal_moves(hand, level, strongest=strong, backend="reference")))
                assert native_set(hand, level, strongest=strong) == expected
            full_row = rng.choice(full_deck_by_kind(level)[rng.randint(1, 10)])
            last_move = Move._trusted(
                MoveType(full_row[0]), full_row[1], Hand.from_bits(full_row[2], full_row[3]), level
            )
            for strong in (False, True):
                expected = set(map(row, api.legal_moves(hand, level, last_move, strongest=strong, backend="reference")))
                assert native_set(hand, level, as_last(full_row), strong) == expected
            checked += 4
        previous.append(sorted(complete))
    return per_chunk, checked


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_hands_match_the_reference(chunk: int) -> None:
    hands, lists = _differential_chunk(chunk)
    assert hands == HANDS // CHUNKS and lists > hands * 2


def _small_hand_on_a_run(rng: random.Random, level: int) -> Hand:
    """0..12 cards of two to six consecutive ranks (A low or high; the top ranks in a third
    of them), 0..2 of them wildcards: the hands where the generator's early returns (too
    few cards, no triple) and its windows without wildcards decide."""
    length = rng.randint(2, 6)
    low = 15 - length if rng.random() < 1 / 3 else rng.randint(1, 10)
    ranks = [12 if p in (1, 14) else p - 2 for p in range(low, min(low + length, 15))]
    pool = [4 * r + suit for r in ranks for suit in range(4) for _ in range(2)]
    wilds = rng.choice((0, 0, 1, 2))
    wild = wildcard(level)
    natural = [card for card in pool if card != wild]
    cards = rng.sample(natural, min(len(natural), max(0, rng.randint(0, 12) - wilds)))
    return Hand.from_indices(cards + [wild] * wilds)


@pytest.mark.parametrize("level", [2, 7, 13, 14])
def test_small_hands_match_the_reference_leading_and_following_every_sequence_key(level: int) -> None:
    """Tubes, plates, straights and straight flushes of every key as the move to beat, and
    the leading lists, of small hands on runs of ranks (the early returns' edges)."""
    rng = random.Random(level)
    full = full_deck_by_kind(level)
    sequences = [
        as_last(next(r for r in full[kind] if r[1] == key))
        for kind, keys in (
            (MoveType.THREE_PAIR, range(1, 13)),
            (MoveType.TWO_TRIPS, range(1, 14)),
            (MoveType.STRAIGHT, range(1, 11)),
            (MoveType.STRAIGHT_FLUSH, range(1, 11)),
        )
        for key in keys
    ]
    for _ in range(80):
        hand = _small_hand_on_a_run(rng, level)
        complete = set(map(row, api.legal_moves(hand, level, backend="reference")))
        assert native_set(hand, level) == complete, (str(hand), level)
        assert native_set(hand, level, strongest=True) == strongest_rows(complete), (str(hand), level)
        for last in sequences:
            expected = following(complete, last)
            assert native_set(hand, level, last) == expected, (str(hand), level, last)
            assert native().has_legal_follow(hand.once, hand.twice, level, *last) is bool(expected)


def test_a_small_hand_with_more_moves_than_the_stack_holds_grows_off_it() -> None:
    """A hand of at most 15 cards leads on the stack (room for 1,024 moves); this one has
    1,678, so its list moves to the heap midway and must still be whole."""
    hand = Hand("H2 H2 D5 S6 C6 D6 S7 C7 D7 S8 C8 D8 S9 C9 ST")
    complete = set(map(row, api.legal_moves(hand, 2, backend="reference")))
    assert len(hand) == 15 and len(complete) == 1_678
    assert native_set(hand, 2) == complete
    assert set(map(row, api.legal_moves(hand, 2))) == complete


def test_the_differential_covers_every_level_kind_and_wildcard_count() -> None:
    """The hands above really do span all levels, wildcard counts and move kinds."""
    rng = random.Random(5)
    levels = {LEVELS[(n // 4) % 13] for n in range(HANDS)}
    assert levels == set(LEVELS)
    kinds: set[int] = set()
    for level in LEVELS:
        kinds |= {r[0] for r in full_deck_rows(level)}
        hand = random_hand(rng, level, 27, 2)
        assert hand.count(wildcard(level)) == 2
    assert kinds == set(range(1, 11))


def platform_row(triple: list[Any], level: int) -> Row:
    """A platform triple as a row, read directly (the golden lists are trusted)."""
    from guandan_fast.engine.notation import parse

    return parse(triple, level)


def test_golden_cases_through_the_native_module() -> None:
    from conftest import load_golden

    from guandan_fast.engine.cards import parse_level

    for case in load_golden():
        level = parse_level(case["level"])
        hand = Hand(case["hand"])
        last = as_last(platform_row(case["last"], level)) if case["last"] else (0, 0, 0)
        expected = {platform_row(t, level) for t in case["moves"]}
        assert native_set(hand, level, last) == expected, case
        expected_strong = {platform_row(t, level) for t in case["strongest"]}
        assert native_set(hand, level, last, True) == expected_strong, case


# -- classify ----------------------------------------------------------------------------


def _classify_set(once: int, twice: int, level: int) -> set[Row]:
    rows = rows_of(native().classify(once, twice, level))
    assert len(set(rows)) == len(rows)
    assert all(r[2] == once and r[3] == twice for r in rows)
    return set(rows)


@pytest.mark.parametrize(
    ("cards", "level"),
    [
        ("S3 S4 S5 S6 S7 H7 H8 D9 DT DT SB HR", 7),  # a short list: copied off the stack buffer
        (" ".join(f"{s}{r}" for r in "3456789" for s in "SHCD") + " H2 H2 S2", 2),  # thousands: taken over
    ],
)
def test_moves_result_holds_its_arrays_in_memory_that_outlives_it(cards: str, level: int) -> None:
    """generate's result counts without arrays, makes each array once, its arrays keep the
    memory alive after the result is gone, and it pickles and copies by value."""
    import copy
    import gc
    import pickle

    hand = as_hand(cards)
    expected = rows_of(native().generate(hand.once, hand.twice, level, 0, 0, 0, False))
    moves = native().generate(hand.once, hand.twice, level, 0, 0, 0, False)
    assert len(moves) == len(expected) > 0
    assert moves.kinds is moves.kinds and moves.cards is moves.cards
    for again in (pickle.loads(pickle.dumps(moves)), copy.deepcopy(moves)):
        assert rows_of(again) == expected
    kinds, keys, cards_array = moves.kinds, moves.keys, moves.cards
    del moves
    gc.collect()
    got = list(zip(kinds.tolist(), keys.tolist(), cards_array[:, 0].tolist(), cards_array[:, 1].tolist()))
    assert got == expected
    if len(expected) < 100:
        assert sorted(expected) == sorted(rows_of(reference.generate(hand.once, hand.twice, level, 0, 0, 0, False)))
    with pytest.raises(ValueError, match="bad pickled moves"):
        native()._unpickle_moves(2, b"")
    # a count whose byte size wraps around to the data's length is refused, not trusted
    wrapping = (1 << 64) // 18 + 1  # 18 bytes a move: count * 18 wraps to 16 in 64 bits
    with pytest.raises((ValueError, OverflowError), match="bad pickled moves|too large|convert"):
        native()._unpickle_moves(wrapping, b"\0" * 16)
    with pytest.raises(ValueError, match="bad pickled moves"):
        native()._unpickle_moves((1 << 63) // 18 + 1, b"\0" * 18)


@pytest.mark.parametrize("level", LEVELS)
def test_classify_matches_the_reference(level: int) -> None:
    rng = random.Random(level)
    full = full_deck_rows(level)
    cases: list[Hand] = []
    # cards of real moves (every kind), which classify as something
    for _ in range(120):
        _, _, once, twice = rng.choice(full)
        cases.append(Hand.from_bits(once, twice))
    # random multisets, often with wildcards, of 0..12 cards
    for _ in range(120):
        size = rng.choice([0, 1, 2, 3, 4, 4, 5, 5, 5, 6, 6, 7, 8, 9, 10, 11, 12])
        cases.append(random_hand(rng, level, size, min(size, rng.choice([0, 0, 1, 2]))))
    # the same rank many times, and joker multisets
    cases += [Hand.from_indices([52, 52, 53, 53]), Hand.from_indices([52, 53]), Hand.from_indices([52, 52])]
    for size in range(4, 11):
        cards = [4 * (level - 2) + s for s in (0, 2, 3) for _ in range(2)] + [wildcard(level)] * 2
        cases.append(Hand.from_indices(cards[:size]))
    for hand in cases:
        expected = set(map(row, api.classify(hand, level, backend="reference")))
        assert _classify_set(hand.once, hand.twice, level) == expected, (str(hand), level)


def test_classify_of_big_multisets_is_empty() -> None:
    full = Hand.from_indices(DECK)
    assert _classify_set(full.once, full.twice, 2) == set()
    assert _classify_set(0, 0, 2) == set()


# -- hypothesis --------------------------------------------------------------------------

HYPOTHESIS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@st.composite
def hands_and_levels(draw: st.DrawFn) -> tuple[Hand, int]:
    """A random multiset (0..34 cards, biased to few ranks and wildcards) and a level."""
    level = draw(st.integers(2, 14))
    ranks = draw(st.lists(st.integers(0, 12), min_size=1, max_size=13, unique=True))
    pool = [4 * r + s for r in ranks for s in range(4) for _ in range(2)] + [52, 52, 53, 53]
    size = min(draw(st.integers(0, 34)), len(pool))
    chosen = draw(st.lists(st.sampled_from(range(len(pool))), unique=True, min_size=size, max_size=size))
    cards = [pool[i] for i in chosen]
    wild = wildcard(level)
    cards = [c for c in cards if c != wild] + [wild] * draw(st.integers(0, 2))
    return Hand.from_indices(cards), level


@HYPOTHESIS
@given(hands_and_levels(), st.randoms(use_true_random=False))
def test_hypothesis_hands_match_the_reference(hand_level: tuple[Hand, int], rng: random.Random) -> None:
    hand, level = hand_level
    complete = set(map(row, api.legal_moves(hand, level, backend="reference")))
    strongest = strongest_rows(complete)
    assert native_set(hand, level) == complete
    assert native_set(hand, level, strongest=True) == strongest
    full = full_deck_rows(level)
    for last in [as_last(rng.choice(full)) for _ in range(3)] + [
        as_last(r) for r in rng.sample(sorted(complete), min(2, len(complete)))
    ]:
        assert native_set(hand, level, last) == following(complete, last)
        assert native_set(hand, level, last, True) == following(strongest, last)
        assert native().has_legal_follow(hand.once, hand.twice, level, *last) is bool(following(complete, last))


@HYPOTHESIS
@given(hands_and_levels())
def test_hypothesis_classify(hand_level: tuple[Hand, int]) -> None:
    hand, level = hand_level
    for sub in _sub_hands(hand):
        assert _classify_set(sub.once, sub.twice, level) == set(map(row, api.classify(sub, level, backend="reference")))


def _sub_hands(hand: Hand) -> list[Hand]:
    cards = list(hand.indices())
    return [
        Hand.from_indices(cards[i : i + n])
        for n in (1, 2, 3, 4, 5, 6, 8)
        for i in range(0, max(1, len(cards) - n + 1), 7)
    ]


# -- has_legal_follow --------------------------------------------------------------------


def test_has_legal_follow_when_leading_is_whether_the_hand_holds_a_card() -> None:
    assert native().has_legal_follow(0, 0, 2, 0, 0, 0) is False
    assert native().has_legal_follow(1, 0, 2, 0, 0, 0) is True


def test_public_has_legal_follow_over_both_backends(backend: str) -> None:
    rng = random.Random(11)
    for _ in range(12):
        level = rng.randint(2, 14)
        hand = random_hand(rng, level, rng.choice([1, 5, 10, 27]), rng.randint(0, 1))
        other = random_hand(rng, level, 27, 0)
        for last in list(api.legal_moves(other, level, backend="reference"))[::61] + [None]:
            expected = bool(api.legal_moves(hand, level, last, backend="reference"))
            assert api.has_legal_follow(hand, level, last, backend=backend) is expected


# -- batch ------------------------------------------------------------------------------


def _batch_hands(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, list[Hand]]:
    rng = random.Random(seed)
    hands, levels = [], []
    for i in range(n):
        level = rng.randint(2, 14)
        size = rng.choice([0, 1, 5, 27, 27, 27, 40])
        hands.append(random_hand(rng, level, size, min(size, rng.randint(0, 2))))
        levels.append(level)
    planes = np.array([(h.once, h.twice) for h in hands], dtype=np.uint64).reshape(n, 2)
    return planes, np.array(levels, dtype=np.uint8), hands


@pytest.mark.parametrize("strongest", [False, True])
@pytest.mark.parametrize("last", [(0, 0, 0), (2, 9, 2), (5, 3, 5), (9, 7, 4), (8, 4, 5), (1, 15, 1)])
def test_batch_equals_single_calls(last: tuple[int, int, int], strongest: bool) -> None:
    planes, levels, _ = _batch_hands(150, 3)
    kinds, keys, cards, offsets = native().generate_batch(planes, levels, *last, strongest)
    assert offsets.dtype == np.int64 and offsets.shape == (151,) and offsets[0] == 0 and offsets[-1] == len(kinds)
    assert cards.shape == (len(kinds), 2)
    for i in range(len(planes)):
        a, b = int(offsets[i]), int(offsets[i + 1])
        single = native().generate(int(planes[i, 0]), int(planes[i, 1]), int(levels[i]), *last, strongest)
        np.testing.assert_array_equal(kinds[a:b], single.kinds)
        np.testing.assert_array_equal(keys[a:b], single.keys)
        np.testing.assert_array_equal(cards[a:b], single.cards)
    # one level for every hand
    one = native().generate_batch(planes, 7, *last, strongest)
    for i in range(0, len(planes), 10):
        single = native().generate(int(planes[i, 0]), int(planes[i, 1]), 7, *last, strongest)
        a, b = int(one[3][i]), int(one[3][i + 1])
        np.testing.assert_array_equal(one[2][a:b], single.cards)


def test_batch_of_no_hands() -> None:
    kinds, keys, cards, offsets = native().generate_batch(np.zeros((0, 2), dtype=np.uint64), 2, 0, 0, 0, False)
    assert len(kinds) == len(keys) == len(cards) == 0 and offsets.tolist() == [0]


def test_public_batch_equals_single_calls(backend: str) -> None:
    planes, levels, hands = _batch_hands(40 if backend == "native" else 8, 4)
    for strongest in (False, True):
        lists = api.legal_moves_batch(hands, levels.tolist(), strongest=strongest, backend=backend)
        from_array = api.legal_moves_batch(planes, levels, strongest=strongest, backend=backend)
        assert len(lists) == len(from_array) == len(hands)
        for hand, level, moves, again in zip(hands, levels.tolist(), lists, from_array):
            single = api.legal_moves(hand, level, strongest=strongest, backend=backend)
            assert set(moves) == set(again) == set(single) and moves.level == level
    # following, every hand at one level
    same = [random_hand(random.Random(i), 9, 27, i % 3) for i in range(10)]
    last = Move.from_platform(["Pair", "9", ["S9", "C9"]], 9)
    for moves, hand in zip(api.legal_moves_batch(same, "9", last, backend=backend), same):
        assert set(moves) == set(api.legal_moves(hand, 9, last, backend=backend))


def test_public_batch_rejects_bad_input() -> None:
    planes, levels, hands = _batch_hands(5, 5)
    with pytest.raises(TypeError):
        api.legal_moves_batch(planes.astype(np.int64), 2)
    with pytest.raises(ValueError):
        api.legal_moves_batch(planes.reshape(-1), 2)
    with pytest.raises(ValueError):
        api.legal_moves_batch(np.array([[1 << 54, 0]], dtype=np.uint64), 2)
    with pytest.raises(ValueError):
        api.legal_moves_batch(np.array([[0, 1]], dtype=np.uint64), 2)  # 'twice' without 'once'
    with pytest.raises(TypeError):
        api.legal_moves_batch(hands[0], 2)
    with pytest.raises(TypeError):
        api.legal_moves_batch(42, 2)
    with pytest.raises(ValueError):
        api.legal_moves_batch(hands, [2, 3])  # one level per hand, or one level
    with pytest.raises(ValueError):
        api.legal_moves_batch(hands, 15)
    with pytest.raises(ValueError):
        api.legal_moves_batch(hands, [2, 3, 4, 5, 6], Move.from_platform(["Single", "3", ["S3"]], 2))
    # a strided array is accepted (copied to a contiguous one)
    wide = np.zeros((5, 4), dtype=np.uint64)
    wide[:, ::2] = planes
    assert [len(m) for m in api.legal_moves_batch(wide[:, ::2], levels)] == [
        len(m) for m in api.legal_moves_batch(planes, levels)
    ]


# -- threads ----------------------------------------------------------------------------


def test_threads_get_the_same_results() -> None:
    planes, levels, _ = _batch_hands(60, 6)
    lasts = [(0, 0, 0), (2, 9, 2), (4, 6, 5), (9, 5, 4)]
    expected = {
        (i, last, strong): rows_of(
            native().generate(int(planes[i, 0]), int(planes[i, 1]), int(levels[i]), *last, strong)
        )
        for i in range(len(planes))
        for last in lasts
        for strong in (False, True)
    }
    expected_batch = {last: native().generate_batch(planes, levels, *last, False) for last in lasts}
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def work(seed: int) -> None:
        try:
            start.wait()
            rng = random.Random(seed)
            for _ in range(150):
                i, last, strong = rng.choice(list(expected))
                got = rows_of(native().generate(int(planes[i, 0]), int(planes[i, 1]), int(levels[i]), *last, strong))
                assert got == expected[(i, last, strong)]
                if rng.random() < 0.05:
                    last = rng.choice(lasts)
                    batch = native().generate_batch(planes, levels, *last, False)
                    for a, b in zip(batch, expected_batch[last]):
                        np.testing.assert_array_equal(a, b)
        except BaseException as error:  # noqa: BLE001  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[0]


# -- bad input to every native entry point ------------------------------------------------

GOOD = (0b11, 0b01, 5, 0, 0, 0)


@pytest.mark.parametrize(
    "args, error",
    [
        ((1 << 54, 0, 5, 0, 0, 0), ValueError),  # a bit that is no card
        ((1 << 63, 0, 5, 0, 0, 0), ValueError),
        ((1 << 64, 0, 5, 0, 0, 0), ValueError),
        ((1 << 200, 0, 5, 0, 0, 0), ValueError),
        ((-1, 0, 5, 0, 0, 0), ValueError),
        ((0, 1, 5, 0, 0, 0), ValueError),  # third copy: 'twice' without 'once'
        ((0b01, 0b11, 5, 0, 0, 0), ValueError),
        ((1.0, 0, 5, 0, 0, 0), TypeError),
        (("3", 0, 5, 0, 0, 0), TypeError),
        ((None, 0, 5, 0, 0, 0), TypeError),
        ((True, 0, 5, 0, 0, 0), TypeError),
        ((1, 0, 1, 0, 0, 0), ValueError),  # bad level
        ((1, 0, 15, 0, 0, 0), ValueError),
        ((1, 0, -3, 0, 0, 0), ValueError),
        ((1, 0, 1 << 40, 0, 0, 0), ValueError),
        ((1, 0, "5", 0, 0, 0), TypeError),
        ((1, 0, 5.0, 0, 0, 0), TypeError),
        ((1, 0, 5, 11, 5, 1), ValueError),  # bad last kind
        ((1, 0, 5, -1, 5, 1), ValueError),
        ((1, 0, 5, 255, 5, 1), ValueError),
        ((1, 0, 5, 1, 5, 2), ValueError),  # a single of two cards
        ((1, 0, 5, 1, 18, 1), ValueError),  # key out of range
        ((1, 0, 5, 1, 1, 1), ValueError),
        ((1, 0, 5, 5, 11, 5), ValueError),  # a straight from J
        ((1, 0, 5, 5, 0, 5), ValueError),
        ((1, 0, 5, 9, 5, 3), ValueError),  # a bomb of three
        ((1, 0, 5, 9, 5, 11), ValueError),
        ((1, 0, 5, 9, 16, 4), ValueError),
        ((1, 0, 5, 10, 0, 5), ValueError),
        ((1, 0, 5, 10, 1, 4), ValueError),
        ((1, 0, 5, 0, 3, 0), ValueError),  # a pass has no key and no cards
        ((1, 0, 5, 0, 0, 1), ValueError),
        ((1, 0, 5, 2, 5, 1 << 70), ValueError),
        ((1, 0, 5, 2.0, 5, 2), TypeError),
        ((1, 0, 5, 2, "5", 2), TypeError),
    ],
)
def test_bad_input_to_generate_and_has_legal_follow(args: tuple[Any, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        native().generate(*args, False)
    with pytest.raises(error):
        native().generate(*args, True)
    with pytest.raises(error):
        native().has_legal_follow(*args)
    hand_is_good = all(type(a) is int for a in args[:2]) and args[:2] == (1, 0)
    if hand_is_good:  # the same level / last move through the batch entry
        with pytest.raises(error):
            native().generate_batch(np.array([[1, 0]], dtype=np.uint64), *args[2:], False)
    elif all(type(a) is int for a in args[:2]):  # the same hand through the batch entry
        try:
            array = np.array([args[:2]], dtype=np.uint64)
        except (TypeError, ValueError, OverflowError):
            return
        if array.tolist() == [list(args[:2])]:
            with pytest.raises(ValueError):
                native().generate_batch(array, 5, 0, 0, 0, False)


@pytest.mark.parametrize(
    "args, error",
    [
        ((1 << 54, 0, 5), ValueError),
        ((-5, 0, 5), ValueError),
        ((0, 1, 5), ValueError),
        ((1, 0, 16), ValueError),
        ((1, 0, 0), ValueError),
        ((1, 0, None), TypeError),
        ((b"1", 0, 5), TypeError),
        ((1, [], 5), TypeError),
    ],
)
def test_bad_input_to_classify_and_hand_size(args: tuple[Any, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        native().classify(*args)
    if args[2] == 5:
        with pytest.raises(error):
            native().hand_size(*args[:2])


def test_numpy_integers_are_accepted_as_arguments() -> None:
    hand = Hand("S3 S4 S5 S6 H2 H2 SB SB")
    expected = native_set(hand, 2)
    got = rows_of(
        native().generate(np.uint64(hand.once), np.int64(hand.twice), np.uint8(2), np.int32(0), 0, 0, np.bool_(False))
    )
    assert set(got) == expected
    assert native().hand_size(np.uint64(hand.once), np.uint64(hand.twice)) == len(hand)


@pytest.mark.parametrize(
    "hands, levels, error",
    [
        ([[1, 0]], 2, TypeError),  # not an array
        (np.array([[1, 0]], dtype=np.int64), 2, TypeError),
        (np.array([[1, 0]], dtype=np.uint32), 2, TypeError),
        (np.array([[1, 0]], dtype=np.float64), 2, TypeError),
        (np.array([1, 0], dtype=np.uint64), 2, ValueError),  # shape
        (np.array([[1, 0, 0]], dtype=np.uint64), 2, ValueError),
        (np.zeros((2, 2, 2), dtype=np.uint64), 2, ValueError),
        (np.zeros((4, 2), dtype=np.uint64)[::2], 2, ValueError),  # not contiguous
        (np.zeros((2, 4), dtype=np.uint64)[:, 1:3], 2, ValueError),
        (np.array([[1, 0]], dtype=">u8"), 2, (TypeError, ValueError)),  # byte-swapped
        (np.array([[1 << 54, 0]], dtype=np.uint64), 2, ValueError),  # bits
        (np.array([[1, 0], [0, 1]], dtype=np.uint64), 2, ValueError),  # third copy in hand 1
        (np.array([[1, 0]], dtype=np.uint64), 1, ValueError),  # level
        (np.array([[1, 0]], dtype=np.uint64), 15, ValueError),
        (np.array([[1, 0]], dtype=np.uint64), "2", TypeError),
        (np.array([[1, 0]], dtype=np.uint64), np.array([2], dtype=np.int64), TypeError),
        (np.array([[1, 0]], dtype=np.uint64), np.array([2, 3], dtype=np.uint8), ValueError),
        (np.array([[1, 0]], dtype=np.uint64), np.array([[2]], dtype=np.uint8), ValueError),
        (np.array([[1, 0]], dtype=np.uint64), np.array([1], dtype=np.uint8), ValueError),
        (np.array([[1, 0]], dtype=np.uint64), np.array([200], dtype=np.uint8), ValueError),
        (np.array([[1, 0], [1, 0]], dtype=np.uint64), np.array([2, 3, 4, 5], dtype=np.uint8)[::2], ValueError),
    ],
)
def test_bad_input_to_generate_batch(hands: Any, levels: Any, error: Any) -> None:
    with pytest.raises(error):
        native().generate_batch(hands, levels, 0, 0, 0, False)


def test_bad_last_move_to_generate_batch() -> None:
    hands = np.array([[1, 0]], dtype=np.uint64)
    for last in [(11, 0, 0), (1, 0, 1), (2, 5, 3), (0, 1, 0)]:
        with pytest.raises(ValueError):
            native().generate_batch(hands, 2, *last, False)
    with pytest.raises(TypeError):
        native().generate_batch(hands, 2, 1, None, 1, False)


def test_errors_leave_the_module_usable() -> None:
    hand = Hand("S3 S3 H5")
    before = native_set(hand, 5)
    for _ in range(100):
        with pytest.raises(ValueError):
            native().generate(1 << 60, 0, 5, 0, 0, 0, False)
    assert native_set(hand, 5) == before


# -- the annotation check -----------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("Cython") is None, reason="Cython is not installed")
def test_kernels_have_no_python_interaction() -> None:
    script = ROOT / "scripts" / "check_annotation.py"
    result = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK" in result.stdout


@pytest.mark.skipif(importlib.util.find_spec("Cython") is None, reason="Cython is not installed")
def test_the_annotation_check_catches_python_in_a_kernel(tmp_path: Path) -> None:
    """A kernel that takes the GIL back (``with gil:``) to touch an object is reported."""
    package = tmp_path / "guandan_fast" / "engine"
    package.mkdir(parents=True)
    (tmp_path / "guandan_fast" / "__init__.py").write_text("", encoding="utf-8")
    source_dir = ROOT / "src" / "guandan_fast" / "engine"
    (package / "movegen").mkdir()
    for name in ("_movegen.pyx", "_movegen.pxd", "_bitops.pxd", "__init__.py"):
        (package / name).write_text((source_dir / name).read_text(encoding="utf-8"), encoding="utf-8")
    for part in (source_dir / "movegen").glob("*.pxi"):  # the parts _movegen.pyx includes
        (package / "movegen" / part.name).write_text(part.read_text(encoding="utf-8"), encoding="utf-8")
    kernels = package / "movegen" / "same_rank.pxi"
    source = kernels.read_text(encoding="utf-8")
    marker = "    cdef uint64_t m = c.once\n"
    assert marker in source
    kernels.write_text(source.replace(marker, marker + "    with gil:\n        print(m)\n", 1), encoding="utf-8")
    script = ROOT / "scripts" / "check_annotation.py"
    result = subprocess.run(
        [sys.executable, str(script), str(package / "_movegen.pyx")],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "_singles" in result.stdout and "print(m)" in result.stdout


def test_the_annotation_check_tells_module_tables_from_kernels() -> None:
    """A module-level ``cdef dict T = dict(...)`` before a nogil kernel is no kernel header:
    the table is built with the GIL at import, only the kernel's own lines are checked."""
    spec = importlib.util.spec_from_file_location("check_annotation", ROOT / "scripts" / "check_annotation.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    source = "cdef dict T = dict(X)\n\n\ncdef inline bint k(int a) noexcept nogil:\n    return a == 1\n"
    assert module.kernel_lines(source) == {4: "cdef k", 5: "cdef k"}


def test_the_annotation_check_reads_the_files_a_module_includes(tmp_path: Path) -> None:
    """Cython annotates each file a module includes in a page of its own: the check reads
    them all, so a kernel in a .pxi is checked like one in the .pyx (the test above puts
    Python into _movegen's kernel of singles, in movegen/same_rank.pxi)."""
    spec = importlib.util.spec_from_file_location("check_annotation", ROOT / "scripts" / "check_annotation.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    main = tmp_path / "main.pyx"
    main.write_text('include "parts/a.pxi"\n# include "not.pxi"\ninclude "b.pxi"\n', encoding="utf-8")
    out = tmp_path / "html"
    assert module.parts(main, out) == [
        (main, out / "main.html"),
        (tmp_path / "parts" / "a.pxi", out / "parts" / "a.html"),
        (tmp_path / "b.pxi", out / "b.html"),
    ]


# -- platform triples read in native code --------------------------------------------------


def test_read_checked_agrees_with_the_reference_on_every_move_of_random_hands() -> None:
    """Every legal move of a few hands, as a platform triple: the native reader and the Python
    reader checked by the reference read back the same (kind, key, once, twice, size); a
    triple whose cards do not read as it says is None natively, a ValueError in Python."""
    rng = random.Random(5)
    for _ in range(6):
        level = rng.randint(2, 14)
        hand = random_hand(rng, level, 27, rng.randint(0, 2))
        for move in api.legal_moves(hand, level)[::7]:
            triple = move.to_platform()
            expected = (int(move.kind), move.key, move.cards.once, move.cards.twice, len(move.cards))
            assert _notation.read_checked(triple, level) == expected == notation.read(triple, level, reference)
            wrong_type = ["Trips" if triple[0] == "Single" else "Single", "A", triple[2]]  # never a reading
            assert _notation.read_checked(wrong_type, level) is None
            with pytest.raises(ValueError, match="do not read as"):
                notation.read(wrong_type, level, reference)


@pytest.mark.parametrize(
    "triple",
    [
        ["PASS", "PASS", "PASS"],
        ["Pair", "10", ["ST", "HT"]],  # '10' for T: read in Python
        ["Pair", "t", ["st", "ht"]],  # lower case: read in Python
        ["FourKings", "JOKER", ["SB", "SB", "HR", "HR"]],  # the old name of the four jokers
        ("Pair", "T", ["ST", "HT"]),  # a tuple, not a list
        ["Pair", "T", ["ST", "HT", "ST", "ST"]],  # a third copy
        ["tribute", "tribute", ["ST"]],
        ["Pair", "T"],
        "Pair T ST HT",
    ],
)
def test_read_checked_leaves_other_notations_and_faults_to_python(triple: Any) -> None:
    assert _notation.read_checked(triple, 10) is None
    try:
        expected: Any = Move.from_platform(triple, 10)
    except (TypeError, ValueError) as error:
        expected = (type(error), str(error))
    api.set_default_backend("reference")
    try:
        try:
            got: Any = Move.from_platform(triple, 10)
        except (TypeError, ValueError) as error:
            got = (type(error), str(error))
    finally:
        api.set_default_backend("native")
    assert got == expected
