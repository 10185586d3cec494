"""The reference move generator: slow, plain Python, written straight from RULES.md.

It is the yardstick the native core is held to, so it follows the rules' own words
rather than any clever algorithm:

* every combination type is a *demand*: how many cards of which rank (and, for a
  straight flush, which suit) it needs, together with its key;
* a demand is met by choosing, rank by rank, a sub-multiset of the hand's natural
  cards of that rank and filling the shortfall with wildcards (the hearts of the
  level rank, which may stand for any card but a joker);
* every distinct (type, key, cards) that can be met is a move (RULES.md §4).

It exports the generator interface of the native core (``_movegen``) with the same
arguments and return shapes — :func:`generate`, :func:`classify`, :func:`reads_as`,
:func:`has_legal_follow`, :func:`generate_batch`, :func:`hand_size` — so that
:mod:`guandan_fast.engine.backend` can hand out either module. Moves are rows ``(kind, key,
once, twice)`` of plain ints here; the :class:`~guandan_fast.engine.moves.Move` value sits above.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from .cards import (
    BIG_JOKER,
    BIG_JOKER_POWER,
    SMALL_JOKER,
    SMALL_JOKER_POWER,
    as_index,
    card_power,
    parse_level,
    position_rank,
    rank_power,
    wildcard,
)
from .hand import Hand
from .kinds import LEADING, MoveArrays, MoveType, bomb_tier

#: A demand: per natural rank (2..14) how many cards it needs.
Demand = dict[int, int]
#: A move as plain ints: (kind, key, once, twice).
Row = tuple[int, int, int, int]
#: An integer argument as the native core's takes it (an int or a numpy integer).
_Int = SupportsIndex

ALL_SUITS = (0, 1, 2, 3)
JOKER_PAIRS = ((SMALL_JOKER, SMALL_JOKER_POWER), (BIG_JOKER, BIG_JOKER_POWER))
BOMB_SIZES = range(4, 11)


class _Pool:
    """The cards of a hand seen as natural cards per rank and suit, plus wildcards."""

    def __init__(self, hand: Hand, level: int) -> None:
        self.hand = hand
        self.wild_index = wildcard(level)
        self.wilds = hand.count(self.wild_index)

    def natural(self, rank: int, suit: int) -> int:
        """Copies of a suited card the hand holds, not counting wildcards."""
        index = 4 * (rank - 2) + suit
        return 0 if index == self.wild_index else self.hand.count(index)

    def choices(self, rank: int, need: int, suits: tuple[int, ...]) -> Iterator[tuple[list[int], int]]:
        """Each way to take at most ``need`` natural cards of ``rank`` (of ``suits``):
        the card indices taken, and how many wildcards must make up the rest."""
        counts = [self.natural(rank, s) for s in suits]
        for taken in product(*(range(c + 1) for c in counts)):
            shortfall = need - sum(taken)
            if 0 <= shortfall <= self.wilds:
                yield [4 * (rank - 2) + s for s, n in zip(suits, taken) for _ in range(n)], shortfall

    def fill(self, demand: Demand, suits: tuple[int, ...] = ALL_SUITS) -> Iterator[Hand]:
        """Every card multiset of the hand that meets ``demand``, wildcards filling gaps."""
        ranks = list(demand)

        def extend(i: int, cards: list[int], wilds_used: int) -> Iterator[Hand]:
            if i == len(ranks):
                yield Hand.from_indices(cards + [self.wild_index] * wilds_used)
                return
            for taken, shortfall in self.choices(ranks[i], demand[ranks[i]], suits):
                if wilds_used + shortfall <= self.wilds:
                    yield from extend(i + 1, cards + taken, wilds_used + shortfall)

        return extend(0, [], 0)


def _sequence_demand(position: int, length: int, width: int) -> Demand:
    """``length`` consecutive ranks from ``position`` (1 = A low), ``width`` cards each."""
    return {position_rank(p): width for p in range(position, position + length)}


def _all_moves(hand: Hand, level: int) -> set[Row]:
    """Every distinct legal move (type, key, cards) the hand can play (RULES.md §3-4)."""
    pool = _Pool(hand, level)
    moves: set[Row] = set()

    def add(kind: MoveType, key: int, cards: Hand) -> None:
        moves.add((int(kind), key, cards.once, cards.twice))

    def add_demand(kind: MoveType, key: int, demand: Demand, suits: tuple[int, ...] = ALL_SUITS) -> None:
        for cards in pool.fill(demand, suits):
            add(kind, key, cards)

    # A single is the card itself: a wildcard alone is only a level card.
    for index in hand.distinct():
        add(MoveType.SINGLE, card_power(index, level), Hand.from_indices([index]))
    held_joker_pairs = [(joker, power) for joker, power in JOKER_PAIRS if hand.count(joker) == 2]
    for joker, power in held_joker_pairs:
        add(MoveType.PAIR, power, Hand.from_indices([joker, joker]))
    if len(held_joker_pairs) == 2:
        add(MoveType.FOUR_JOKERS, 0, Hand.from_indices([SMALL_JOKER] * 2 + [BIG_JOKER] * 2))

    for rank in range(2, 15):
        power = rank_power(rank, level)
        add_demand(MoveType.PAIR, power, {rank: 2})
        add_demand(MoveType.TRIPS, power, {rank: 3})
        for size in BOMB_SIZES:
            add_demand(MoveType.BOMB, power, {rank: size})
        # A full house: a triple and a pair of another rank; the pair may be two jokers.
        for other in range(2, 15):
            if other != rank:
                add_demand(MoveType.THREE_WITH_TWO, power, {rank: 3, other: 2})
        for triple in pool.fill({rank: 3}):
            for joker, _ in held_joker_pairs:
                add(MoveType.THREE_WITH_TWO, power, triple.add(Hand.from_indices([joker, joker])))

    for position in range(1, 11):
        five = _sequence_demand(position, 5, 1)
        add_demand(MoveType.STRAIGHT, position, five)
        for suit in ALL_SUITS:
            add_demand(MoveType.STRAIGHT_FLUSH, position, five, (suit,))
    for position in range(1, 13):
        add_demand(MoveType.THREE_PAIR, position, _sequence_demand(position, 3, 2))
    for position in range(1, 14):
        add_demand(MoveType.TWO_TRIPS, position, _sequence_demand(position, 2, 3))
    return moves


def strongest_readings(moves: Iterable[Row]) -> list[Row]:
    """For each (type, cards), only the reading with the highest key (RULES.md §4)."""
    best: dict[tuple[int, int, int], Row] = {}
    for move in moves:
        kind, key, once, twice = move
        current = best.get((kind, once, twice))
        if current is None or key > current[1]:
            best[(kind, once, twice)] = move
    return list(best.values())


def _size(move: Row) -> int:
    return move[2].bit_count() + move[3].bit_count()


def legal_rows(hand: Hand, level: int, last: tuple[int, int, int] = LEADING, *, strongest: bool = False) -> list[Row]:
    """Every legal move of ``hand`` as sorted rows: leading when ``last`` (kind, key, size)
    is the pass, else the moves that beat it. The complete list by default;
    ``strongest=True`` keeps one reading per (type, cards). A follower's pass is not listed."""
    moves: Iterable[Row] = _all_moves(hand, level)
    if strongest:
        moves = strongest_readings(moves)
    if last[0] != MoveType.PASS:
        moves = [m for m in moves if beats(m[0], m[1], _size(m), *last)]
    return sorted(moves)


def readings(hand: Hand, level: int) -> list[Row]:
    """Every legal reading of exactly these cards, as sorted rows (empty: no combination)."""
    return sorted(m for m in _all_moves(hand, level) if m[2] == hand.once and m[3] == hand.twice)


# -- the generator interface (the arguments and results of the native core) --------------


def _arrays(rows: list[Row]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(rows)
    return (
        np.fromiter((r[0] for r in rows), dtype=np.uint8, count=n),
        np.fromiter((r[1] for r in rows), dtype=np.uint8, count=n),
        np.array([(r[2], r[3]) for r in rows], dtype=np.uint64).reshape(n, 2),
    )


def _moves(rows: list[Row]) -> MoveArrays:
    return MoveArrays(*_arrays(rows))


def _hand(once: _Int, twice: _Int, level: _Int) -> tuple[Hand, int]:
    return Hand.from_bits(once, twice), parse_level(level)


def _last(last_kind: object, last_key: object, last_size: object) -> tuple[int, int, int]:
    kind = as_index(last_kind, "last_kind must be an integer")
    if not MoveType.PASS <= kind <= MoveType.FOUR_JOKERS:
        raise ValueError(f"bad last_kind {kind}: a move kind is 0..10")
    return kind, as_index(last_key, "last_key must be an integer"), as_index(last_size, "last_size must be an integer")


def generate(
    once: _Int, twice: _Int, level: _Int, last_kind: _Int, last_key: _Int, last_size: _Int, strongest: object
) -> MoveArrays:
    """The legal moves as :class:`~guandan_fast.engine.kinds.MoveArrays` (see ``_movegen.generate``)."""
    hand, level = _hand(once, twice, level)
    return _moves(legal_rows(hand, level, _last(last_kind, last_key, last_size), strongest=bool(strongest)))


def classify(once: _Int, twice: _Int, level: _Int) -> MoveArrays:
    """Every reading of exactly the cards ``(once, twice)`` as :class:`~guandan_fast.engine.kinds.MoveArrays`."""
    return _moves(readings(*_hand(once, twice, level)))


def reads_as(once: _Int, twice: _Int, level: _Int, kind: _Int, key: _Int) -> bool:
    """Whether the cards ``(once, twice)`` read as (kind, key) at ``level``."""
    hand, level = _hand(once, twice, level)
    return any(m[0] == kind and m[1] == key for m in readings(hand, level))


def has_legal_follow(once: _Int, twice: _Int, level: _Int, last_kind: _Int, last_key: _Int, last_size: _Int) -> bool:
    """Whether some move beats the last one (leading: whether the hand holds a card)."""
    hand, level = _hand(once, twice, level)
    return bool(legal_rows(hand, level, _last(last_kind, last_key, last_size)))


def generate_batch(
    hands: npt.NDArray[np.uint64],
    levels: _Int | npt.NDArray[np.uint8],
    last_kind: _Int,
    last_key: _Int,
    last_size: _Int,
    strongest: object,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`generate` over ``uint64[n, 2]`` hands and one level or ``uint8[n]`` levels;
    hand i's moves are rows ``offsets[i]:offsets[i + 1]``."""
    planes = np.asarray(hands)
    if planes.dtype != np.uint64 or planes.ndim != 2 or planes.shape[1] != 2:
        raise ValueError(f"hands must be a uint64 array of shape (n, 2), not {planes.dtype} {planes.shape}")
    n = len(planes)
    per_hand = [levels] * n if not isinstance(levels, np.ndarray) else levels.tolist()
    last = _last(last_kind, last_key, last_size)
    rows: list[Row] = []
    offsets = [0]
    for (once, twice), level in zip(planes.tolist(), per_hand):
        hand, level = _hand(once, twice, level)
        rows += legal_rows(hand, level, last, strongest=bool(strongest))
        offsets.append(len(rows))
    return (*_arrays(rows), np.array(offsets, dtype=np.int64))


def hand_size(once: _Int, twice: _Int) -> int:
    """Number of cards in a hand given as two planes (validated)."""
    return len(Hand.from_bits(once, twice))


def beats(kind: int, key: int, size: int, last_kind: int, last_key: int, last_size: int) -> bool:
    """Whether move (kind, key, size) beats the move on the table (RULES.md §5): the
    reference's own copy of the rule, apart from the native ``move_beats`` on purpose (this
    module is the test oracle of the native core)."""
    if kind == MoveType.PASS:
        return False
    if last_kind == MoveType.PASS:
        return True
    tier, last_tier = bomb_tier(kind, size), bomb_tier(last_kind, last_size)
    if tier < 0:
        return last_tier < 0 and kind == last_kind and size == last_size and key > last_key
    return tier > last_tier or (tier == last_tier and key > last_key)
