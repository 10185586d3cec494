"""Bad input gets a ValueError or TypeError that names the problem, and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

from guandan_fast import Hand, Move, MoveType, legal_moves, parse_level


@pytest.mark.parametrize(
    "cards, error, words",
    [
        ("S2 X9", ValueError, "unknown card 'X9'"),
        ("S2 S11", ValueError, "unknown card 'S11'"),
        ("HJ HJ HJ", ValueError, "three copies of card HJ"),
        (["S2", 5], TypeError, "a card must be a string"),
        (42, TypeError, "not int"),
    ],
)
def test_bad_cards(cards: object, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        Hand(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "level, error",
    [(1, ValueError), (15, ValueError), ("Z", ValueError), ("", ValueError), (True, TypeError), (2.0, TypeError), (None, TypeError)],
)
def test_bad_levels(level: object, error: type, backend: str) -> None:
    with pytest.raises(error, match="level"):
        parse_level(level)
    with pytest.raises(error, match="level"):
        legal_moves("S3 S4", level, backend=backend)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "once, twice, words",
    [(1 << 54, 0, "bits 0..53"), (-1, 0, "bits 0..53"), (1, 2, "'twice'"), (2**64, 0, "bits 0..53")],
)
def test_bad_planes(once: int, twice: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Hand.from_bits(once, twice)


def test_bad_counts_and_arrays() -> None:
    with pytest.raises(ValueError, match="shape"):
        Hand.from_counts(np.zeros(53, dtype=np.uint8))
    counts = np.zeros(54, dtype=np.int64)
    counts[7] = 3
    with pytest.raises(ValueError, match="card D3 has count 3"):
        Hand.from_counts(counts)
    with pytest.raises(TypeError, match="integers"):
        Hand.from_counts(np.zeros(54, dtype=np.float64))
    with pytest.raises(ValueError, match="uint64"):
        Hand.from_numpy(np.zeros(2, dtype=np.int64))


def test_removing_cards_not_held_changes_nothing() -> None:
    hand = Hand.parse("S5 D5 HR")
    with pytest.raises(ValueError, match="does not hold S5"):
        hand.remove("S5 S5")
    with pytest.raises(ValueError, match="three copies of HR"):
        hand.add("HR HR")
    assert hand == Hand.parse("S5 D5 HR")


@pytest.mark.parametrize(
    "action, error, words",
    [
        ("Pair", TypeError, "list"),
        (["Pair", "3"], ValueError, "3 fields"),
        (["Pair", "3", "S3 D3"], TypeError, "list of card strings"),
        (["Pair", 3, ["S3", "D3"]], TypeError, "strings"),
        (["Quad", "3", ["S3", "D3"]], ValueError, "unknown action type 'Quad'"),
        (["tribute", "tribute", ["S3"]], ValueError, "tribute and back are not moves"),
        (["Pair", "X", ["S3", "D3"]], ValueError, "bad rank 'X'"),
        (["Pair", "4", ["S3", "D3"]], ValueError, "do not read as Pair"),
        (["Pair", "3", ["S3", "D4"]], ValueError, "do not read as Pair"),
        (["Straight", "3", ["S3", "S4", "S5", "S6"]], ValueError, "do not read as Straight"),
        (["Bomb", "JOKER", ["SB", "SB", "HR", "S2"]], ValueError, "do not read"),
        (["Pair", "3", ["S3", "S3", "S3"]], ValueError, "three copies"),
        (["PASS", "PASS", ["S3"]], ValueError, "malformed pass"),
    ],
)
def test_malformed_or_lying_platform_actions(action: object, error: type, words: str, backend: str) -> None:
    with pytest.raises(error, match=words):
        Move.from_platform(action, 3)
    with pytest.raises(error, match=words):
        legal_moves("S4 S4", 3, action, backend=backend)


def test_wrong_types_and_backends() -> None:
    with pytest.raises(TypeError, match="Hand.parse takes a string"):
        Hand.parse(["S2"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        legal_moves("S2", 2, backend="gpu")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="can only beat a Move"):
        Move.from_platform(["Single", "3", ["S3"]], 2).beats(["Single", "2", ["S2"]])  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="immutable"):
        Move.from_platform(["Single", "3", ["S3"]], 2).key = 9  # type: ignore[misc]


def test_last_move_of_another_level_is_refused(backend: str) -> None:
    last = Move.from_platform(["Single", "3", ["S3"]], 2)
    with pytest.raises(ValueError, match="level"):
        legal_moves("S4", 5, last, backend=backend)


def test_move_constructor_checks_the_reading() -> None:
    assert Move(MoveType.SINGLE, 3, "S3", 2) == Move.from_platform(["Single", "3", ["S3"]], 2)
    with pytest.raises(ValueError, match="do not read as Single with key 4"):
        Move(MoveType.SINGLE, 4, "S3", 2)
    with pytest.raises(ValueError, match="not a valid MoveType"):
        Move("Single", 3, "S3", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="a pass has no cards"):
        Move(MoveType.PASS, 0, "S3", 2)


@pytest.mark.parametrize("level", [np.bool_(True), np.float64(5.0), np.int64(15)])
def test_numpy_values_that_are_no_level(level: object) -> None:
    with pytest.raises((TypeError, ValueError), match="level"):
        parse_level(level)
