"""The reference move generator: slow, plain Python, written straight from RULES.md.

It is the yardstick the native core is held to, so it follows the rules' own words
rather than any clever algorithm:

* every combination type is a *demand*: how many cards of which rank (and, for a
  straight flush, which suit) it needs, together with its key;
* a demand is met by choosing, rank by rank, a sub-multiset of the hand's natural
  cards of that rank and filling the shortfall with wildcards (the hearts of the
  level rank, which may stand for any card but a joker);
* every distinct (type, key, cards) that can be met is a move (RULES.md §4).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import product
from typing import Any

from .cards import (
    BIG_JOKER,
    BIG_JOKER_POWER,
    SMALL_JOKER,
    SMALL_JOKER_POWER,
    card_power,
    parse_level,
    position_rank,
    rank_power,
    wildcard,
)
from .hand import Hand, as_hand
from .moves import PASS, Move, MoveType

#: A demand: per natural rank (2..14) how many cards it needs.
Demand = dict[int, int]

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


def _all_moves(hand: Hand, level: int) -> set[Move]:
    """Every distinct legal move (type, key, cards) the hand can play (RULES.md §3-4)."""
    pool = _Pool(hand, level)
    moves: set[Move] = set()

    def add(kind: MoveType, key: int, cards: Hand) -> None:
        moves.add(Move._trusted(kind, key, cards, level))

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


def strongest_readings(moves: Iterable[Move]) -> list[Move]:
    """For each (type, cards), only the reading with the highest key (RULES.md §4)."""
    best: dict[tuple[MoveType, Hand], Move] = {}
    for move in moves:
        current = best.get((move.kind, move.cards))
        if current is None or move.key > current.key:
            best[(move.kind, move.cards)] = move
    return list(best.values())


def classify(cards: Any, level: int | str) -> list[Move]:
    """Every legal reading of exactly these cards at this level (empty: not a combination)."""
    hand = as_hand(cards)
    level = parse_level(level)
    return sorted((m for m in _all_moves(hand, level) if m.cards == hand), key=sort_key)


def legal_moves(
    hand: Any, level: int | str, last: Move | None = None, *, strongest: bool = False
) -> list[Move]:
    """Every legal move of ``hand`` (leading when ``last`` is None or PASS, else following).

    The complete list by default; ``strongest=True`` keeps one reading per (type, cards).
    A follower's pass is not in the list: passing is always allowed.
    """
    hand = as_hand(hand)
    level = parse_level(level)
    moves: Iterable[Move] = _all_moves(hand, level)
    if strongest:
        moves = strongest_readings(moves)
    if last is not None and last is not PASS:
        moves = [m for m in moves if m.beats(last)]
    return sorted(moves, key=sort_key)


def sort_key(move: Move) -> tuple[int, int, int, int]:
    """A fixed order for move lists: by type, key, then cards."""
    return (move.kind, move.key, move.cards.once, move.cards.twice)
