"""Cards, levels and the power order (RULES.md §1-2).

Card index layout, shared by every part of the package and by the native core:

* ``index = 4 * rank_index + suit_index`` for the 52 suited cards, where
  ``rank_index = rank - 2`` (ranks 2..14 = 2..A) and ``suit_index`` is 0..3 for
  ``S H C D``;
* ``52`` is the small joker ``SB`` and ``53`` the big joker ``HR``.

So bits ``4r .. 4r+3`` of a hand's planes are the four suits of rank index ``r``
(see :mod:`guandan_fast.engine.hand`).
"""

from __future__ import annotations

import math
import numbers
import operator
import random
from typing import Final, SupportsIndex, TypeGuard, cast

import numpy as np

RANKS: Final = "23456789TJQKA"
SUITS: Final = "SHCD"
NUM_CARDS: Final = 54
SMALL_JOKER: Final = 52
BIG_JOKER: Final = 53
HEARTS: Final = 1

#: Power of the level rank, which leaves its natural place and sits above A.
LEVEL_POWER: Final = 15
SMALL_JOKER_POWER: Final = 16
BIG_JOKER_POWER: Final = 17

_SUIT_ALIASES = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
_JOKER_NAMES = {"SB": SMALL_JOKER, "HR": BIG_JOKER}
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """``text`` with a-z in upper case and nothing else changed: ``str.upper`` would read
    other letters as card letters (the long s ``ſ`` as ``S``, the ligature ``ﬅ`` as ``ST``)."""
    return text.translate(_ASCII_UPPER)


def _name(index: int) -> str:
    if index == SMALL_JOKER:
        return "SB"
    if index == BIG_JOKER:
        return "HR"
    return SUITS[index & 3] + RANKS[index >> 2]


#: Canonical platform name of every card index.
CARD_NAMES: Final = tuple(_name(i) for i in range(NUM_CARDS))
_INDEX_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}
#: The plane bit of each canonical card name (``1 << index``).
CARD_BITS: Final = {name: 1 << i for i, name in enumerate(CARD_NAMES)}


def parse_card(text: object) -> int:
    """Index of a card written in platform notation (``S2``, ``HT``, ``SB``, ``HR``).

    Also accepts ``10`` for ``T``, lower case and the suit symbols ``♠♥♣♦``.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be a string such as 'S2', not {type(text).__name__}")
    name = ascii_upper(text.strip())
    if name in _JOKER_NAMES:
        return _JOKER_NAMES[name]
    if name[:1] in _SUIT_ALIASES:
        name = _SUIT_ALIASES[name[0]] + name[1:]
    if name[1:] == "10":
        name = name[0] + "T"
    index = _INDEX_BY_NAME.get(name)
    if index is None:
        raise ValueError(f"unknown card {text!r}: expected a suit S H C D and a rank 2-9 T J Q K A, or SB / HR")
    return index


def rank_of(index: int) -> int:
    """Natural rank 2..14 of a suited card; the jokers have none (ValueError)."""
    if index >= SMALL_JOKER:
        raise ValueError("jokers have no natural rank")
    return (index >> 2) + 2


def parse_level(level: object) -> int:
    """The level as an integer 2..14, from ``"2"``..``"A"`` (or ``"10"``) or an int."""
    if type(level) is int and 2 <= level <= 14:  # the common case, checked first (hot path)
        return level
    if isinstance(level, bool):
        raise TypeError("a level must be a rank character or an integer 2-14, not a bool")
    if isinstance(level, str):
        text = ascii_upper(level.strip())
        if text == "10":
            text = "T"
        if len(text) == 1 and text in RANKS:
            return RANKS.index(text) + 2
        raise ValueError(f"bad level {level!r}: a level is one of 2 3 4 5 6 7 8 9 T J Q K A")
    value = as_index(level, "a level must be a rank character or an integer 2-14")
    if 2 <= value <= 14:
        return value
    raise ValueError(f"bad level {value}: a level is 2..14 (2..A)")


def as_index(value: object, what: str) -> int:
    """The one integer-argument check of the Python modules: what :func:`is_integer` takes
    (an int, a numpy integer; never a bool, a float or a time span) as an int; TypeError
    names ``what``."""
    if type(value) is int:
        return value
    if is_integer(value):
        return operator.index(value)
    raise TypeError(f"{what}, not a bool" if isinstance(value, bool) else f"{what}, not {type(value).__name__}")


def is_integer(value: object) -> TypeGuard[SupportsIndex]:
    """Whether :func:`as_index` takes ``value``: an int, a numpy integer or a 0-d integer
    array (anything ``operator.index`` reads), never a bool, nor a ``numpy.timedelta64``
    (numpy files it under its integers, but a time span is no index). A value with no
    ``__index__`` at all (a Move, a triple) is told apart without raising an exception."""
    if type(value) is int:
        return True
    if isinstance(value, np.integer):  # the common other case, told at once
        return not isinstance(value, np.timedelta64)
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return False
    try:
        operator.index(cast(SupportsIndex, value))
    except TypeError:
        return False
    return True


def bounded(value: object, what: str, low: int, high: int | None = None) -> int:
    """An integer (a numpy integer too) in ``low..high`` (``high`` None: no upper bound);
    TypeError/ValueError name ``what``. Built on :func:`as_index`, the one check."""
    span = f"{low}..{high}" if high is not None else f">= {low}"
    number = as_index(value, f"{what} must be an integer {span}")
    if number < low or (high is not None and number > high):
        raise ValueError(f"{what} must be an integer {span}, not {number}")
    return number


def real_number(value: object) -> float | None:
    """``value`` as a float when it is a real number (numpy's too; not a bool), else None;
    one too large for a float is infinite (then refused by any range check, as it should)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf if operator.gt(value, 0) else -math.inf


def check_flag(value: object, what: str) -> bool:
    """An on/off argument: True or False, numpy's bool too (a mask's element); a TypeError
    naming ``what`` for anything else (1, "no", None)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{what} must be True or False, not {type(value).__name__}")
    return bool(value)


def seeded_random(seed: object, what: str = "seed") -> random.Random:
    """A ``random.Random`` from a user's seed: None (fresh entropy), an integer (a numpy
    integer too), a str, bytes or bytearray. A float is refused: ``Random(nan)`` hashes the
    object, not its value, so the same NaN seed would give another stream every run."""
    if seed is None or isinstance(seed, (str, bytes, bytearray)):
        return random.Random(seed)
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError(f"{what} must be an integer, a str, bytes or None, not {type(seed).__name__}")
    return random.Random(operator.index(cast(SupportsIndex, seed)))


def check_seat(seat: object, what: str = "seat") -> int:
    """A seat number 0-3 (see :func:`bounded`)."""
    return bounded(seat, f"{what} (a seat number 0-3)", 0, 3)


def level_char(level: int) -> str:
    return RANKS[level - 2]


def wildcard(level: int) -> int:
    """Index of the wildcard (the heart of the level rank, 逢人配)."""
    return 4 * (level - 2) + HEARTS


def rank_power(rank: int, level: int) -> int:
    """Power of a natural rank (2..14) in the order 2 < ... < A < level < SB < HR."""
    return LEVEL_POWER if rank == level else rank


def card_power(index: int, level: int) -> int:
    """Power of one card by itself (as a single)."""
    if index == SMALL_JOKER:
        return SMALL_JOKER_POWER
    if index == BIG_JOKER:
        return BIG_JOKER_POWER
    return rank_power(rank_of(index), level)


def power_char(power: int, level: int) -> str:
    """Platform rank character of a power: the rank, the level's rank, ``B`` or ``R``."""
    if power == SMALL_JOKER_POWER:
        return "B"
    if power == BIG_JOKER_POWER:
        return "R"
    if power == LEVEL_POWER:
        return level_char(level)
    return RANKS[power - 2]


def position_char(position: int) -> str:
    """Platform rank character of a sequence's lowest position (1 = A low)."""
    return "A" if position == 1 else RANKS[position - 2]


def position_rank(position: int) -> int:
    """Natural rank standing at a sequence position 1..14 (1 and 14 are both A)."""
    return 14 if position == 1 else position
