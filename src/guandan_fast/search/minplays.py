"""The fewest leading plays that empty a hand (最少手数): :func:`min_plays`.

The count is exact: a native branch and bound (``_solver``) over the hand's partitions
into legal leading moves — every type, wildcards included, a bomb or straight flush one
play like any other. Every rule but the straight flush's is blind to suits, so the search
runs on the hand's 16 card counts (13 ranks without the wildcards, the two jokers, the
wildcards), with a memo on them; the decomposition found is then given real cards.
"""

from __future__ import annotations

import threading
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from ..engine.cards import check_flag, parse_level
from ..engine.hand import CardsLike, Hand, as_hand
from ..engine.moves import Move, MoveType
from ._minplays import WHOLE
from ._minplays import MinPlays as _NativeSolver

__all__ = ["MAX_CARDS", "PREFER", "decomposition_cost", "min_plays"]

Prefer = Literal["none", "bombs", "singles", "high"]

#: Tie-breaks among the decompositions with the fewest plays, and their native codes:
#:
#: ``"none"``
#:     any one of them (the fastest: the search stops at the first proven optimum);
#: ``"bombs"``
#:     the most plays that are bombs of one rank or four jokers, then the fewest singles
#:     (among the decompositions of the fewest plays: a bomb may still be broken when that
#:     saves a play; ``whole=True`` forbids it). The search sees card counts, not suits, so a straight flush
#:     counts as a straight here (it is reported as a straight flush when its cards happen
#:     to share a suit);
#: ``"singles"``
#:     the fewest singles, then the fewest pairs;
#: ``"high"``
#:     the most bomb plays, as ``"bombs"``, then the singles and pairs left as few and as
#:     high as possible: each single costs 2 + 2 (14 - key), each pair 14 - key (an ace,
#:     the level rank and the jokers: 2 and 0), each full house 4 (pair key - 13) when the
#:     pair it carries has a key of 14 or more (A 4 .. big jokers 16), and the decomposition costs
#:     the least. A low card left alone must be led or thrown under another's lead, and a
#:     pair of aces or higher is a control wasted under a triple that a lower pair could
#:     fill; this is the decomposition the tactics play (``MinPlaysAgent(tactics=True)``).
PREFER: Final = {"none": 0, "bombs": 1, "singles": 2, "high": 3}

#: The largest hand :func:`min_plays` takes (a hand holds at most 28 cards in a deal: 27
#: dealt, one more after a tribute); the search grows exponentially beyond.
MAX_CARDS: Final = 33

_local = threading.local()


def _solver() -> _NativeSolver:
    """This thread's native solver (it owns a memo table and is not shared)."""
    solver: _NativeSolver | None = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = _NativeSolver()
    return solver


def _solve(
    hand: CardsLike | Move, level: int | str, prefer: Prefer, whole: bool = False
) -> tuple[int, npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint64], int]:
    """The native solve of :func:`min_plays` (arguments checked) and the level read."""
    if isinstance(prefer, str) and prefer in PREFER:
        code = PREFER[prefer]
    else:
        raise ValueError(f"unknown prefer {prefer!r}: use one of {', '.join(map(repr, PREFER))}")
    hand = as_hand(hand)
    level = parse_level(level)
    if len(hand) > MAX_CARDS:
        raise ValueError(f"min_plays takes hands of at most {MAX_CARDS} cards, not {len(hand)}")
    whole = check_flag(whole, "whole")
    return (*_solver().solve(hand.once, hand.twice, level, code | (WHOLE if whole else 0)), level)


def min_plays(
    hand: CardsLike | Move, level: int | str, *, prefer: Prefer = "none", whole: bool = False
) -> tuple[int, list[Move]]:
    """The fewest leading moves that play out ``hand`` at ``level``, and one such list.

    ``hand`` is a :class:`~guandan_fast.Hand`, a card string or an iterable of card
    strings; ``level`` a rank character or an integer 2-14. Returns ``(count, plays)``:
    ``plays`` are ``count`` moves, each a legal leading move of the cards left before it,
    that together use exactly the hand (an empty hand: ``(0, [])``). ``prefer`` chooses
    among the optimal decompositions (see :data:`PREFER`); the count never depends on it.
    ``whole=True``: only decompositions that play every rank of four or more natural cards
    (the wildcards apart) as one bomb holding all of them — what the tactics of
    :class:`~guandan_fast.agents.MinPlaysAgent` play; the count is the fewest such plays
    (never fewer than without it).
    """
    count, kinds, keys, cards, level = _solve(hand, level, prefer, whole)
    plays = [
        Move._trusted(MoveType(kind), key, Hand._trusted(once, twice), level)
        for kind, key, (once, twice) in zip(kinds.tolist(), keys.tolist(), cards.tolist())
    ]
    return count, plays


def decomposition_cost(
    hand: CardsLike | Move, level: int | str, *, prefer: Prefer = "none", whole: bool = False
) -> tuple[int, int, int]:
    """``(plays, major, minor)``: what :func:`min_plays` with ``prefer`` makes least, in that
    order, for the hand (see :data:`PREFER`): the fewest plays, then the tie-break's two
    penalties — for ``"high"`` the plays that are no bomb, then how many and how low the
    singles and pairs left are, and the high pairs full houses carry (what a seat weighs
    when it gives a card away); ``(count, 0,
    0)`` for ``"none"``. Arguments as :func:`min_plays` (``whole`` too)."""
    count, *_ = _solve(hand, level, prefer, whole)
    major, minor = _solver().penalties
    return count, major, minor
