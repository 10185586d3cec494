"""The native card-string reader (``_cardtext``) against the Python reader it shortcuts:
where it reads a string it gives the same planes, and it declines (None) everything the
Python reader must read or reject itself, so Hand.parse keeps its hands and errors."""

from __future__ import annotations

import random

import pytest

from guandan_fast.engine.cards import CARD_NAMES
from guandan_fast.engine.hand import Hand, planes_of_names

cardtext = pytest.importorskip("guandan_fast.engine._cardtext")

# canonical names, other notations the Python reader accepts, and faults it names
TOKENS = [*CARD_NAMES, "s2", "S10", "♠2", "sb", "hr", "S", "S2H2", "X2", "HB", "SR", "2S", "S1", "SBB"]
SEPARATORS = [" ", ",", ", ", "  ", "\t", "\n", "\u3000", " ,, "]


def python_planes(text: str) -> tuple[int, int] | str:
    try:
        return planes_of_names(text.replace(",", " ").split())
    except (ValueError, TypeError) as error:
        return f"{type(error).__name__}: {error}"


def test_canonical_strings_are_read_natively_and_agree() -> None:
    rng = random.Random(7)
    deck = [*CARD_NAMES, *CARD_NAMES]
    for _ in range(300):
        names = rng.sample(deck, rng.randint(0, 40))
        text = rng.choice(["", " ", ","]) + rng.choice(SEPARATORS).join(names) + rng.choice(["", " ", ","])
        planes = cardtext.canonical_planes(text)
        assert planes is not None, text
        assert planes == python_planes(text)
        assert (Hand.parse(text).once, Hand.parse(text).twice) == planes


def test_anything_else_is_declined_or_agrees() -> None:
    rng = random.Random(11)
    declined = 0
    for _ in range(2000):
        tokens = rng.choices(TOKENS[:54] * 3 + TOKENS[54:], k=rng.randint(1, 8))
        if rng.random() < 0.3:  # a third copy
            tokens += [tokens[0]] * 2
        text = rng.choice(SEPARATORS).join(tokens)
        planes = cardtext.canonical_planes(text)
        expected = python_planes(text)
        if planes is None:
            declined += 1
        else:
            assert planes == expected, text
        # Hand.parse answers as the Python reader does, hand or error message
        try:
            parsed: tuple[int, int] | str = (Hand.parse(text).once, Hand.parse(text).twice)
        except (ValueError, TypeError) as error:
            parsed = f"{type(error).__name__}: {error}"
        assert parsed == expected, text
    assert declined > 0


@pytest.mark.parametrize("value", [None, b"S2 H2", 12, ["S2"]])
def test_non_strings_are_declined(value: object) -> None:
    assert cardtext.canonical_planes(value) is None


def test_str_subclass_is_declined() -> None:
    class Text(str):
        pass

    assert cardtext.canonical_planes(Text("S2")) is None
    assert Hand.parse(Text("S2 S2")).twice == 1
