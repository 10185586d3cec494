"""A rule-based agent built on :func:`~guandan_fast.min_plays` (最少手数), the fewest
leading plays that empty a hand.

Its rules, all in terms of ``count(hand)`` = the min-plays count of a hand:

Leading
    play the whole hand when it is one play; else, from one optimal decomposition
    (``prefer="bombs"``: the most bombs among them), the weakest play that is no bomb (lowest key,
    then most cards), every such play leaving the rest optimal (``count(rest) = n - 1``);
    a bomb only when nothing else is left.
Tactics, with ``tactics=True`` (``"minplays:tactics=1"``)
    the plan keeps every rank of four or more natural cards whole, one bomb (``whole=True``:
    the counts and decompositions of ``min_plays`` under that rule, so ``count`` is theirs
    too): a bomb takes the lead back whenever it is needed, worth more than the play that
    breaking it into straights or full houses may save (against the plain count,
    measured: 0.554 [0.546, 0.563] of 10,000 one-deal matches head to head, +0.34 level
    points a deal); for the same reason no plain follow takes a natural card of a bomb of
    the decomposition (a straight flush is not played as a straight), even one that keeps
    the count or when an opponent is about to finish (then the bomb itself, or a pass),
    unless it makes going out sure (below; measured: 0.557 [0.552, 0.562] of 20,000 one-deal
    matches head to head against the tactics that allowed it, +0.31 level points a deal);
    the decomposition keeps the fewest and highest singles and pairs among
    the optimal ones with the most bombs, and no full house carries a pair of aces or
    higher that a lower pair could replace (``prefer="high"``); following an opponent, a play of the
    decomposition that beats (the lowest key) comes before any other move that keeps the
    count;
    leading, when at most one play of the decomposition can be beaten by the cards the seat
    does not see (the other hands together: neither its own nor played), the weakest play
    nobody can beat (a plain one first): the seat keeps the lead and goes out with the
    last play; following (a partner too), a move nobody can beat that leaves such a hand
    (a plain one first, then the lowest). An opponent holding k <= 6 cards can go out on a play of exactly k cards:
    leading otherwise, when an opponent in play holds at most 6 cards: the weakest plain play of the decomposition
    whose number of cards no such opponent holds; when every plain play has such a number,
    the strongest (the hardest to beat). Following, when the next seat (an opponent) holds
    exactly as many cards as the move to beat (at most 6): the strongest plain move that
    keeps the decomposition, over a partner's play too. Following an opponent, a bomb
    only when an opponent is about to finish — the player to beat holds at most 6 cards,
    plus 6 per bomb of the decomposition beyond the first, or an opponent at most 3 — it
    empties the hand or it makes going out sure
    (never just because it leaves a short rest).
    The search agent plays these rules.
Following a partner
    pass, unless a move empties the hand (the tactics: unless, too, the partner holds more
    than 6 cards and a plain play of the decomposition up to a queen — key 12 — beats it:
    then the lowest such play, which sheds a play without spending a lead and leaves the
    next opponent a higher play to beat).
Following an opponent
    a move that empties the hand; else the weakest non-bomb move that does not break
    the decomposition (``count(rest) ≤ n - 1``); else, when an opponent is about to
    finish (the player to beat holds ≤ 6 cards, or any opponent ≤ 3), the non-bomb move
    with the best rest, else a bomb; a bomb also when it leaves ``count(rest) ≤ 2`` (not
    with the tactics);
    otherwise pass. Among bombs: the best rest, then the lowest tier and key.
Tribute and return
    the allowed card whose loss leaves the lowest count (ties: the first listed for a
    tribute, the lowest card for a return); with the tactics, a return takes among those
    the one whose loss leaves the singles and pairs fewest and highest, and no high pair
    carried by a full house, first (the minor
    penalty of ``decomposition_cost(..., prefer="high")``; the rest's bombs are not weighed). (A
    tribute's choice is a suit of the highest rank, which no count tells apart.)

It uses only its own hand, the move to beat and who made it, the cards-left counts, and
(the tactics) the cards it has not seen, which the other hands hold together.
The play decisions are made natively, by the same code as ``Deal.playouts(policy=
"minplays")`` (``"tactics"`` with ``tactics=True``; ``search/_policies.pyx``: the rules
are written there once); tribute and
return choices, and the :meth:`MinPlaysAgent.sensible` moves a search considers, in Python.
"""

from __future__ import annotations

from typing import Any

from ..engine.cards import card_power, parse_card
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.moves import Move, MoveType, bomb_tier
from ..search._policies import POLICIES, Chooser
from ..search.minplays import decomposition_cost, min_plays
from ..search.playout import check_policy_hands
from .base import check_turn, switch

BOMB_KINDS = frozenset({MoveType.BOMB, MoveType.STRAIGHT_FLUSH, MoveType.FOUR_JOKERS})
_CACHE_LIMIT = 1 << 16

Row = tuple[int, int, int, int]  # (kind, key, once, twice), as MoveList.rows() gives


class MinPlaysAgent:
    """The rules of :mod:`guandan_fast.agents.minplays` (``tactics``: with their
    tactics); deterministic (``seed`` is accepted so that every agent is built the same
    way, and not used)."""

    def __init__(self, seed: int | str | None = None, tactics: bool | int = False) -> None:
        self.seed = seed
        self.tactics = switch(tactics, "MinPlaysAgent tactics")
        self._counts: dict[tuple[int, int, int], int] = {}
        self._chooser: Chooser | None = None  # the native rules, made on first use

    def __repr__(self) -> str:
        return "MinPlaysAgent(tactics=True)" if self.tactics else "MinPlaysAgent()"

    def __getstate__(self) -> dict[str, Any]:
        return {"seed": self.seed, "tactics": self.tactics, "_counts": {}, "_chooser": None}

    def _play(self, deal: Deal) -> int:
        """The rules' play in the play phase, natively."""
        chooser = self._chooser
        policy = "tactics" if self.tactics else "minplays"
        if chooser is None:
            chooser = self._chooser = Chooser(policy)
        check_policy_hands(deal.cards_left(), POLICIES[policy])
        return chooser.choose(deal)

    def count(self, hand: Hand, level: int) -> int:
        """``min_plays(hand, level, whole=self.tactics)[0]``, remembered."""
        key = (hand.once, hand.twice, level)
        found = self._counts.get(key)
        if found is None:
            if len(self._counts) >= _CACHE_LIMIT:
                self._counts.clear()
            found = self._counts[key] = min_plays(hand, level, whole=self.tactics)[0]
        return found

    def act(self, deal: Deal, seat: int) -> int:
        seat = check_turn(deal, seat)
        if deal.phase != "play":
            return self._card_choice(deal, seat)
        return self._play(deal)

    def choices(self, deal: Deal, seat: int) -> tuple[int, list[int]]:
        """``(act(deal, seat), sensible(deal, seat))`` (what a search built on these rules
        asks at each decision); outside the play phase the list is empty."""
        seat = check_turn(deal, seat)
        if deal.phase != "play":
            return self._card_choice(deal, seat), []
        return self._play(deal), self.sensible(deal, seat)

    def sensible(self, deal: Deal, seat: int) -> list[int]:
        """The play actions these rules would consider (what a search may choose among):
        leading, the plays of the decomposition; following, the pass, the non-bomb moves
        that keep the decomposition or empty the hand, and the two best bombs."""
        if not deal.following:
            return self._sensible_lead(*self._decomposition(deal, seat))
        return self._sensible_follow(deal, seat, *self._rests(deal, seat))

    # -- play ---------------------------------------------------------------------------------
    def _decomposition(self, deal: Deal, seat: int) -> tuple[list[Row], list[Move]]:
        """The leader's moves, as rows, and the plays of its hand's fewest-plays
        decomposition (the most bombs; with the tactics, every bomb whole and the singles and
        pairs high)."""
        _, plays = min_plays(deal.hands[seat], deal.level, prefer="high" if self.tactics else "bombs", whole=self.tactics)
        return list(deal.legal_moves().rows()), plays

    @staticmethod
    def _sensible_lead(rows: list[Row], plays: list[Move]) -> list[int]:
        return sorted({rows.index((int(p.kind), p.key, p.cards.once, p.cards.twice)) for p in plays})

    def _rests(self, deal: Deal, seat: int) -> tuple[list[Row], list[int]]:
        """The moves to follow with (action ``i + 1`` is ``rows[i]``; action 0 is the pass)
        and the count of the hand left after each."""
        hand, level = deal.hands[seat], deal.level
        rows = list(deal.legal_moves().rows())
        return rows, [self.count(hand.remove(Hand.from_bits(once, twice)), level) for _, _, once, twice in rows]

    def _sensible_follow(self, deal: Deal, seat: int, rows: list[Row], rest: list[int]) -> list[int]:
        n = self.count(deal.hands[seat], deal.level)
        keeping = [
            i + 1 for i, row in enumerate(rows) if row[0] not in BOMB_KINDS and (rest[i] <= n - 1 or rest[i] == 0)
        ]
        bombs = sorted(
            (i for i, row in enumerate(rows) if row[0] in BOMB_KINDS), key=lambda i: (rest[i], row_tier(rows[i]))
        )
        return [0, *keeping, *sorted(i + 1 for i in bombs[:2])]

    # -- tribute and return -------------------------------------------------------------------
    def _card_choice(self, deal: Deal, seat: int) -> int:
        hand, level = deal.hands[seat], deal.level
        cards = [parse_card(cards[0]) for _, _, cards in deal.legal_actions()]
        returning = deal.phase == "return"  # (a return gives the lowest of equal cards)

        def cost(i: int) -> tuple[int, int, int]:
            rest = hand.remove(Hand.from_indices([cards[i]]))
            order = card_power(cards[i], level) if returning else 0
            if self.tactics and returning:  # a return: the singles and pairs left fewest and highest next
                plays, _, low = decomposition_cost(rest, level, prefer="high", whole=True)  # (the bombs not weighed: as measured)
                return plays, low, order
            return self.count(rest, level), 0, order

        return min(range(len(cards)), key=cost)


def row_tier(row: Row) -> int:
    """A move row's bomb tier (-1: no bomb)."""
    kind, _, once, twice = row
    return bomb_tier(kind, once.bit_count() + twice.bit_count())
