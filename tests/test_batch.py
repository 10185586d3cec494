"""legal_moves_batch: a MoveBatch whose per-hand lists and flat arrays equal single calls."""

from __future__ import annotations

import random

import numpy as np
import pytest

from guandan_fast import Hand, MoveBatch, legal_moves, legal_moves_batch
from guandan_fast.engine.cards import CARD_NAMES


def dealt_hands(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        deck = list(range(54)) * 2
        rng.shuffle(deck)
        hands += [Hand.from_indices(deck[27 * i : 27 * i + 27]) for i in range(4)]
    return hands[:count]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_batch_equals_single_calls_whatever_the_split(threads: int, backend: str) -> None:
    count = 200 if backend == "native" else 6
    hands = dealt_hands(count, seed=threads)
    levels = [2 + i % 13 for i in range(count)]
    planes = np.array([hand.to_numpy() for hand in hands])
    batch = legal_moves_batch(planes, levels, backend=backend, threads=threads)
    assert isinstance(batch, MoveBatch) and len(batch) == count
    offsets = batch.offsets
    assert offsets[0] == 0 and offsets.dtype == np.int64 and len(offsets) == count + 1
    assert len(batch.kinds) == len(batch.keys) == len(batch.cards) == offsets[-1]
    for i in range(count):
        single = legal_moves(hands[i], levels[i], backend=backend)
        assert batch.counts()[i] == len(single)
        rows = slice(offsets[i], offsets[i + 1])
        assert np.array_equal(batch.kinds[rows], single.kinds)
        assert np.array_equal(batch.keys[rows], single.keys)
        assert np.array_equal(batch.cards[rows], single.cards)
        assert list(batch[i]) == list(single)
    assert list(batch[-1]) == list(batch[count - 1])


def test_batch_following_one_level(backend: str) -> None:
    hands = dealt_hands(130 if backend == "native" else 4, seed=9)
    last = ["Pair", "9", ["S9", "D9"]]
    batch = legal_moves_batch(hands, "Q", last, backend=backend, threads=2)
    for hand, moves in zip(hands, batch):
        assert set(moves) == set(legal_moves(hand, "Q", last, backend=backend))


def test_batch_bad_arguments() -> None:
    hands = dealt_hands(2, seed=1)
    with pytest.raises(ValueError, match="threads must be a positive integer"):
        legal_moves_batch(hands, 2, threads=0)
    with pytest.raises(TypeError, match="threads must be a positive integer"):
        legal_moves_batch(hands, 2, threads=True)
    with pytest.raises(IndexError, match="hand 2 of a batch of 2"):
        legal_moves_batch(hands, 2)[2]
    with pytest.raises(ValueError, match="three copies"):
        legal_moves_batch([[CARD_NAMES[0]] * 3], 2)


def test_a_batch_of_any_hand_forms_and_level_forms_equals_one_of_planes() -> None:
    from guandan_fast.engine.hand import planes_array

    hands = dealt_hands(40, seed=4)
    forms = [hand if i % 3 == 0 else str(hand) if i % 3 == 1 else list(hand) for i, hand in enumerate(hands)]
    planes = np.array([hand.to_numpy() for hand in hands])
    assert planes_array(forms).dtype == np.uint64 and np.array_equal(planes_array(forms), planes)
    assert planes_array([]).shape == (0, 2) and planes_array(iter(hands[:2])).shape == (2, 2)
    levels = [2 + i % 13 for i in range(40)]
    mixed = [str(v) if v < 10 else v for v in levels]  # read one by one, as parse_level reads them
    expected = legal_moves_batch(planes, np.array(levels, dtype=np.uint8))
    for given in (forms, hands):
        for level_form in (levels, mixed, tuple(levels)):
            batch = legal_moves_batch(given, level_form)
            assert np.array_equal(batch.cards, expected.cards) and np.array_equal(batch.offsets, expected.offsets)
    for bad, error in (([2] * 39 + [15], ValueError), ([2] * 39 + [True], TypeError), ([2] * 39 + [2**70], ValueError),
                       ([2] * 39 + [2.0], TypeError)):
        with pytest.raises(error):
            legal_moves_batch(hands, bad)
    with pytest.raises(TypeError):
        planes_array([hands[0], 5])


def test_empty_batch(backend: str) -> None:
    batch = legal_moves_batch(np.zeros((0, 2), dtype=np.uint64), 2, backend=backend)
    assert len(batch) == 0 and batch.offsets.tolist() == [0] and len(batch.kinds) == 0


def test_batch_accepts_byte_swapped_and_misaligned_arrays() -> None:
    hands = dealt_hands(3, seed=4)
    planes = np.array([hand.to_numpy() for hand in hands])
    expected = legal_moves_batch(planes, 6).counts().tolist()
    assert legal_moves_batch(planes.astype(">u8"), 6).counts().tolist() == expected
    raw = np.zeros(planes.nbytes + 1, dtype=np.uint8)[1:].view(np.uint64).reshape(3, 2)
    raw[:] = planes
    assert not raw.flags.aligned
    assert legal_moves_batch(raw, 6).counts().tolist() == expected
    with pytest.raises(TypeError, match="dtype uint64"):
        legal_moves_batch(planes.astype(np.float64), 6)


def test_levels_as_a_numpy_array_are_checked_at_once(backend: str) -> None:
    hands = dealt_hands(8, seed=5)
    planes = np.array([hand.to_numpy() for hand in hands])
    expected = legal_moves_batch(planes, [2, 3, 4, 5, 6, 7, 8, 14], backend=backend).counts().tolist()
    for levels in (
        np.array([2, 3, 4, 5, 6, 7, 8, 14], dtype=np.int64),
        np.array([2, 3, 4, 5, 6, 7, 8, 14], dtype=np.uint8),
        np.array([2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 14, 0], dtype=np.int32)[::2],  # not contiguous
    ):
        assert legal_moves_batch(planes, levels, backend=backend).counts().tolist() == expected
    with pytest.raises(ValueError, match="bad level 15"):
        legal_moves_batch(planes, np.array([2, 3, 15, 5, 6, 7, 8, 9]))
    with pytest.raises(ValueError, match="bad level -1"):
        legal_moves_batch(planes, np.array([2, 3, 4, 5, 6, 7, 8, -1]))
    for bad in (15, 0, 255):  # uint8 levels go to the generator as they are: it checks each one
        levels = np.array([2, 3, 4, 5, 6, 7, 8, bad], dtype=np.uint8)
        with pytest.raises(ValueError, match=f"bad level {bad}: a level is 2..14"):
            legal_moves_batch(planes, levels, backend=backend)
    follow = legal_moves(hands[0], 2)[0]
    with pytest.raises(ValueError, match="bad level 15: a level is 2..14"):  # with a move to beat too
        legal_moves_batch(planes, np.array([2, 2, 2, 2, 2, 2, 2, 15], dtype=np.uint8), follow, backend=backend)
    masked = np.ma.array([2, 3, 4, 5, 6, 7, 8, 14], mask=[0, 1, 0, 0, 0, 0, 0, 0], dtype=np.uint8)
    batch = legal_moves_batch(planes, masked, backend=backend)  # read as numpy reads it: the mask ignored
    assert batch.counts().tolist() == expected
    assert [moves.level for moves in batch] == [2, 3, 4, 5, 6, 7, 8, 14]
    with pytest.raises(ValueError, match="7 levels for 8 hands"):
        legal_moves_batch(planes, np.arange(2, 9))
    with pytest.raises(TypeError, match="integer 2-14"):
        legal_moves_batch(planes, np.full(8, 2.0))


@pytest.mark.parametrize("threads", [1, 2])
def test_a_batch_owns_its_arrays(threads: int) -> None:
    """The kernel's output arrays are the batch's own (no copy): they outlive the batch and
    stay apart from every other batch's (a dropped batch's memory is lent to the next only
    once no array of it is left); read-only, as every move array."""
    hands = dealt_hands(300, seed=6)
    first = legal_moves_batch(hands, 9, threads=threads)
    kinds, cards, counts = first.kinds, first.cards, first.counts()
    before, kinds_before = cards.copy(), kinds.copy()
    del first
    second = legal_moves_batch(hands[::-1], 2, threads=threads)  # other moves, where the first's were
    assert np.array_equal(cards, before) and np.array_equal(kinds, kinds_before)
    assert not second.cards.flags.writeable and not cards.flags.writeable
    assert np.array_equal(legal_moves_batch(hands, 9, threads=threads).cards, before)
    assert list(second[0]) == list(legal_moves(hands[-1], 2)) and np.array_equal(
        legal_moves_batch(hands, 9).counts(), counts
    )


def test_dropped_batches_lend_their_memory_to_the_next() -> None:
    """A dropped batch's block is kept for the next batches (no fresh pages to fault in);
    reused, too small (a new one), grown past its room: the moves are always right."""
    from guandan_fast.engine import _movegen

    _movegen._release_kept_blocks()
    hands = dealt_hands(200, seed=8)
    expected = [list(legal_moves(hand, 5)) for hand in hands[:20]]
    addresses = set()
    for _ in range(3):
        batch = legal_moves_batch(hands, 5, threads=1)
        assert [list(batch[i]) for i in range(20)] == expected
        addresses.add(batch.cards.__array_interface__["data"][0])
        del batch
    assert len(addresses) == 1  # one block, reused
    assert _movegen._release_kept_blocks() == 1 and _movegen._release_kept_blocks() == 0
    legal_moves_batch(hands[:100], 5, threads=1)  # its block is kept, then taken by the next...
    # the hand with the most moves known: both wildcards and all eight copies of 3..8, at level 2
    worst, level = Hand("H2 H2 " + " ".join(f"{s}{r} {s}{r}" for r in "345678" for s in "SHCD")), 2
    big = legal_moves_batch([worst] * 64, level, threads=1)  # ...and grown: 64 x 37,026 moves
    assert big.counts().tolist() == [37_026] * 64 and list(big[63]) == list(legal_moves(worst, level))
    del big
    assert _movegen._release_kept_blocks() == 1
