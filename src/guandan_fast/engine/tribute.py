"""Tribute (进贡), return (还贡) and anti-tribute (抗贡), RULES.md §9: a frozen record of what
happened before play and the rules as pure functions over card indices.

A deal after the first goes: :func:`tribute_due` (who pays whom, or anti-tribute) → each
payer picks one of :func:`tribute_choices` → :func:`hand_over` (who receives which card,
who will lead) → each receiver picks one of :func:`return_choices` →
:meth:`TributeRecord.with_return`. :class:`~guandan_fast.engine.deal.Deal` moves the cards and
asks the seats; everything here is a value or a function of values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .cards import BIG_JOKER, LEVEL_POWER, SMALL_JOKER, card_power, rank_of, wildcard
from .hand import Hand
from .rules import DEFAULT_RULES, Rules

__all__ = [
    "NO_TRIBUTE",
    "TributeRecord",
    "cards_above_tribute",
    "hand_over",
    "natural_order",
    "return_choices",
    "tribute_choices",
    "tribute_due",
    "who_pays",
]


@dataclass(frozen=True)
class TributeRecord:
    """What happens before play in one deal.

    ``kind``: ``"none"`` (first deal), ``"single"``, ``"double"``, ``"anti"`` (抗贡) or
    ``"waived"`` (no tribute between partners). ``payments`` are ``(payer, receiver,
    card)`` and ``returns`` ``(receiver, payer, card)``, cards as indices. ``leader`` is
    the seat that leads the play once the record is complete (None while tributes are
    still to be chosen)."""

    kind: str
    payers: tuple[int, ...] = ()
    receivers: tuple[int, ...] = ()
    payments: tuple[tuple[int, int, int], ...] = ()
    returns: tuple[tuple[int, int, int], ...] = ()
    leader: int | None = None

    def payment_to(self, receiver: int) -> tuple[int, int, int]:
        """The payment ``receiver`` got: ``(payer, receiver, card)``."""
        return next(payment for payment in self.payments if payment[1] == receiver)

    def with_return(self, receiver: int, card: int) -> TributeRecord:
        """The record after ``receiver`` gave ``card`` back to the seat that paid it."""
        payer = self.payment_to(receiver)[0]
        return replace(self, returns=(*self.returns, (receiver, payer, card)))

    def as_dict(self) -> dict[str, Any]:
        """The public form of :attr:`Deal.tribute` (new lists; the first deal has no
        ``payers``/``receivers`` keys)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind != "none":
            out["payers"] = list(self.payers)
            out["receivers"] = list(self.receivers)
        out["payments"] = list(self.payments)
        out["returns"] = list(self.returns)
        return out


#: The record of a deal without tribute (a match's first deal, or a deal set up without
#: a previous finish).
NO_TRIBUTE = TributeRecord("none")


def _partner(seat: int) -> int:
    return seat ^ 2


def who_pays(finish: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The payers (in the order they choose) and the receivers the finish ``finish`` calls
    for, before anti-tribute or waiving: both losers of a double down (the one after the
    first chooses first) pay the first two, else the last pays the first."""
    first, second = finish[0], finish[1]
    if second == _partner(first):
        return ((first + 1) % 4, (first + 3) % 4), (first, second)
    return (finish[3],), (first,)


def tribute_due(finish: Sequence[int], hands: Sequence[Hand], rules: Rules = DEFAULT_RULES) -> TributeRecord:
    """Who pays whom after the finish ``finish`` (the four seats, first to last), given
    the new hands: a single tribute (last pays first), a double one (both losers of a
    1-2 finish pay), anti-tribute when the paying side holds both ``HR``, or waived
    between partners with :attr:`Rules.no_tribute_between_partners`. An anti-tribute or
    a waived tribute is complete at once: the first player leads."""
    payers, receivers = who_pays(finish)
    first = finish[0]
    kind = "double" if len(payers) == 2 else "single"
    if kind == "single" and payers[0] == _partner(first) and rules.no_tribute_between_partners:
        return TributeRecord("waived", payers, receivers, leader=first)
    if anti_tribute(hands, payers):
        return TributeRecord("anti", payers, receivers, leader=first)
    return TributeRecord(kind, payers, receivers)


def anti_tribute(hands: Sequence[Hand], payers: Sequence[int]) -> bool:
    """Whether the paying side holds both big jokers (抗贡): then nobody pays."""
    return sum(hands[payer].count(BIG_JOKER) for payer in payers) == 2


def tribute_choices(hand: Hand, level: int) -> list[int]:
    """Cards the payer may give: the highest power among the non-wildcards (RULES.md §9)."""
    wild = wildcard(level)
    cards = [c for c in hand.distinct() if c != wild]
    if not cards:
        return []
    top = max(card_power(c, level) for c in cards)
    return [c for c in cards if card_power(c, level) == top]


@lru_cache(maxsize=1024)
def cards_above_tribute(card: int, level: int) -> int:
    """The cards (a bit each, for both copies) a payer who paid ``card`` at ``level`` cannot
    have held: the tribute is its highest card by power but the wildcard (RULES.md §9,
    :func:`tribute_choices`), so every card of higher power but the wildcard."""
    top, wild = card_power(card, level), wildcard(level)
    return sum(1 << c for c in range(54) if c != wild and card_power(c, level) > top)


def return_choices(hand: Hand, level: int, rules: Rules = DEFAULT_RULES, received: int | None = None) -> list[int]:
    """Cards a receiver holding ``hand`` may give back: natural rank 2-10, else any card
    of the lowest power (RULES.md §9). ``received`` is the card it was just paid: with
    :attr:`Rules.return_received_card` off one copy of it is left out, with
    :attr:`Rules.return_level_rank` off the level rank is; when that leaves nothing, the
    national choice over the whole hand applies."""
    pool = hand
    if received is not None and not rules.return_received_card and hand.count(received):
        pool = hand.remove(Hand.from_indices([received]))
    low = [
        c
        for c in pool.distinct()
        if c < SMALL_JOKER and rank_of(c) <= 10 and (rules.return_level_rank or rank_of(c) != level)
    ]
    if low:
        return low
    if pool is not hand or not rules.return_level_rank:
        return return_choices(hand, level)
    bottom = min(card_power(c, level) for c in hand.distinct())
    return [c for c in hand.distinct() if card_power(c, level) == bottom]


def natural_order(card: int) -> int:
    """A card's place by natural rank: 0..12 for 2..A (a level card too), 13 ``SB``, 14 ``HR``."""
    return card >> 2 if card < SMALL_JOKER else card - SMALL_JOKER + 13


def hand_over(record: TributeRecord, paid: Sequence[tuple[int, int]], level: int, rules: Rules = DEFAULT_RULES) -> TributeRecord:
    """The payments once every payer has chosen (``paid``: ``(payer, card)`` in the order
    they chose) and who will lead.

    Single tribute: the card goes to the first player; the payer leads. Double tribute:
    the stronger card goes to the first player, the other to the second; on a tie the
    payer who chose first (the loser after the first player) pays the first player. The
    cards are compared by power, and the payer of the first player leads; with
    :attr:`Rules.double_tribute_by_rank` they are compared by natural rank, and the payer
    of the card stronger by power leads — with two level cards, the one who paid the
    second player."""
    if len(paid) == 1:
        (payer, card), receiver = paid[0], record.receivers[0]
        return replace(record, payments=((payer, receiver, card),), leader=payer)
    by_rank = rules.double_tribute_by_rank
    (a, card_a), (b, card_b) = paid
    if (natural_order(card_b) > natural_order(card_a)) if by_rank else (card_power(card_b, level) > card_power(card_a, level)):
        (a, card_a), (b, card_b) = (b, card_b), (a, card_a)
    first, second = record.receivers
    leader = a
    if by_rank:
        power_a, power_b = card_power(card_a, level), card_power(card_b, level)
        if power_b > power_a or power_b == power_a == LEVEL_POWER:
            leader = b
    return replace(record, payments=((a, first, card_a), (b, second, card_b)), leader=leader)
