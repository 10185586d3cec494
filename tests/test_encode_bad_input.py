"""Bad input to the encoders: a clear TypeError/ValueError, and nothing changed."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from guandan_fast import Deal
from guandan_fast.encode import LAYOUTS, action_features, state, states


@pytest.fixture
def deal() -> Deal:
    deal, rng = Deal.random(9), random.Random(9)
    for _ in range(7):
        deal.step(rng.randrange(len(deal.legal_actions())))
    return deal


@pytest.mark.parametrize(
    ("seat", "error", "message"),
    [
        (4, ValueError, "out of range"),
        (-1, ValueError, "out of range"),
        (2**70, ValueError, "out of range"),
        (True, TypeError, "bool"),
        ("1", TypeError, "str"),
        (1.0, TypeError, "float"),
        (None, TypeError, "NoneType"),
    ],
)
def test_bad_seat(deal: Deal, seat: object, error: type[Exception], message: str) -> None:
    before = pickle.dumps(deal)
    with pytest.raises(error, match=message):
        state(deal, seat)  # type: ignore[arg-type]
    with pytest.raises(error, match=message):
        states([deal], [seat])  # type: ignore[list-item]
    assert pickle.dumps(deal) == before


def test_numpy_seats_are_seats(deal: Deal) -> None:
    assert np.array_equal(state(deal, np.int64(2)), state(deal, 2))
    assert np.array_equal(states([deal, deal], np.array([1, 3])), np.stack([state(deal, 1), state(deal, 3)]))


@pytest.mark.parametrize("thing", [None, "deal", 3, {"hand": []}])
def test_not_a_deal(thing: object) -> None:
    calls = (
        lambda: state(thing, 0),  # type: ignore[arg-type]
        lambda: states([thing], 0),  # type: ignore[list-item]
        lambda: action_features(thing),  # type: ignore[arg-type]
    )
    for call in calls:
        with pytest.raises(TypeError, match="Deal"):
            call()


@pytest.mark.parametrize(
    ("layout", "error"), [("full", ValueError), ("DanZero", ValueError), (1, TypeError), (None, TypeError)]
)
def test_unknown_layout(deal: Deal, layout: object, error: type[Exception]) -> None:
    calls = (
        lambda: state(deal, 0, layout),  # type: ignore[arg-type]
        lambda: states([deal], 0, layout),  # type: ignore[arg-type]
        lambda: action_features(deal, layout),  # type: ignore[arg-type]
    )
    for call in calls:
        with pytest.raises(error, match="layout"):
            call()


def test_batch_shapes(deal: Deal) -> None:
    with pytest.raises(ValueError, match="2 deals but 3 seats"):
        states([deal, deal], [0, 1, 2])
    with pytest.raises(TypeError, match="Deal"):
        states([deal, "x"], 0)  # type: ignore[list-item]
    for layout, (size, _) in LAYOUTS.items():
        assert states([], 0, layout).shape == (0, size)


def test_encoding_changes_nothing(deal: Deal) -> None:
    before = pickle.dumps(deal)
    actions = deal.legal_actions()
    for layout in LAYOUTS:
        for seat in range(4):
            state(deal, seat, layout)
        states([deal] * 3, [0, 1, 2], layout)
        features = action_features(deal, layout)
        features[:] = 9  # the caller owns its arrays
    assert pickle.dumps(deal) == before
    assert deal.legal_actions() == actions


def test_out_arrays(deal: Deal) -> None:
    out = np.full(513, 7, dtype=np.float32)
    assert state(deal, 1, out=out) is out
    assert np.array_equal(out, state(deal, 1))
    rows = np.full((2, 2467), 7, dtype=np.float32)
    assert states([deal, deal], [0, 2], "full-v1", out=rows) is rows
    assert np.array_equal(rows[1], state(deal, 2, "full-v1"))
    read_only = np.zeros(513, dtype=np.float32)
    read_only.flags.writeable = False
    strided = np.zeros(1026, dtype=np.float32)[::2]
    misaligned = np.frombuffer(bytearray(4 * 513 + 1), np.float32, 513, offset=1)  # a float* may not point there
    swapped = np.zeros(513, dtype=">f4")
    for bad, fault in (
        (np.zeros(513, dtype=np.float64), "has dtype float64"),
        (swapped, "has dtype >f4"),
        (np.zeros(512, dtype=np.float32), r"has shape \(512,\)"),
        (strided, "is not C-contiguous"),
        (misaligned, "is not aligned"),
        (read_only, "is read-only"),
    ):
        with pytest.raises(ValueError, match=f"out must be a writable, aligned, C-contiguous .*; this one {fault}"):
            state(deal, 1, out=bad)
    with pytest.raises(TypeError, match="numpy array"):
        state(deal, 1, out=[0.0] * 513)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"shape \(3, 513\)"):
        states([deal] * 3, 0, out=np.zeros((2, 513), dtype=np.float32))


@pytest.mark.parametrize(
    ("levels", "error", "message"),
    [
        ([], ValueError, "two levels"),
        ((), ValueError, "two levels"),
        ((5,), ValueError, "two levels"),
        ((2, 3, 4), ValueError, "two levels"),
        (None, TypeError, "two levels .*not a NoneType"),
        ((-5, 99), ValueError, "2..14"),
        ((3, 15), ValueError, "2..14"),
        ((2**70, 3), ValueError, "2..14"),
        ((3, "x"), ValueError, "bad level 'x'"),
        ((3, 2.0), TypeError, "float"),
        ((True, 3), TypeError, "bool"),
    ],
)
def test_bad_team_levels_are_refused_when_set(deal: Deal, levels: object, error: type[Exception], message: str) -> None:
    """``Deal.team_levels`` is checked when set (the encoders once read ``team_levels[0]``
    with bounds checks off: a segfault for ``[]``); a refused value changes nothing."""
    before = [state(deal, 0, layout) for layout in LAYOUTS]
    with pytest.raises(error, match=message):
        deal.team_levels = levels  # type: ignore[assignment]
    assert deal.team_levels == (deal.level, deal.level)
    for layout, encoded in zip(LAYOUTS, before):
        assert np.array_equal(state(deal, 0, layout), encoded)


def test_numpy_team_levels_and_a_bad_level(deal: Deal) -> None:
    deal.team_levels = (np.int64(3), np.int8(5))  # type: ignore[assignment]
    assert deal.team_levels == (3, 5) and all(type(level) is int for level in deal.team_levels)
    encoded = state(deal, 0, "full-v1")
    deal.team_levels = ("3", 5)  # type: ignore[assignment]
    assert np.array_equal(encoded, state(deal, 0, "full-v1"))
    with pytest.raises(AttributeError):
        deal.level = 2**70  # type: ignore[misc]  # the level is the deal's own: read-only
    assert np.array_equal(encoded, state(deal, 0, "full-v1"))
