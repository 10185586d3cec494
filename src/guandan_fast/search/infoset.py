"""What one seat knows of a deal, and worlds consistent with it (for PIMC, IS-MCTS, ...).

:func:`unseen` reads a deal through its public face only — the seat's own hand, the cards
every seat has played (:attr:`Deal.played`), the card counts, the tribute record and the
history — and says which cards the seat cannot see and what it knows of where they are:

* a tribute receiver holds the tribute card, unless it has since played a copy of that
  card or given it back;
* a payer holds the card returned to it, unless it has since played a copy of it;
* in the tribute phase, a payer who has chosen its card (a public action) still holds it;
* after an anti-tribute (抗贡) the payers hold the big jokers they showed, unless played:
  one payer, or the observer's partner-payer, holds them for sure; with two payers other
  than the observer, each copy is in one of the two hands.
* a tribute payer gave its highest card (the wildcard aside), so it holds no card of
  higher power but the wildcard; and since the payers held fewer than two big jokers
  between them (else an anti-tribute), once one pays a big joker no payer holds the other:
  those of the unseen cards are ``barred`` from their hands;
* in the tribute phase the payers hold fewer than two big jokers
  between them, and a payer still to choose holds a card other than the wildcards: worlds
  that break this are drawn again (:func:`sample_hands`).

:func:`sample_hands` (native, without the GIL) gives the unseen cards out to the other
seats, each seat keeping its number of cards and its known cards: **every arrangement of
the unseen physical cards into the free slots is equally likely** (the pooled big jokers in
their payers' slots, no card in a hand it is barred from) — what a fair shuffle gives, seen
from the seat. A deal where one seat holds both copies of a card therefore weighs half as
much as one where two seats hold a copy each. The sampler does not weigh worlds by the
players' past choices (their plays, their passes; the tribute's "highest card" is a rule,
not a choice), nor by which copy of a card was played.

:meth:`Deal.unseen`, :meth:`Deal.sample_world` and :meth:`Deal.sample_worlds` are the
usual entry points; this module holds the work (and takes any object with the public
:class:`~guandan_fast.engine.deal.Deal` API, so that ``game`` can import it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..engine.cards import BIG_JOKER, bounded, check_seat
from ..engine.hand import Hand
from ..engine.state import State
from ..engine.tribute import anti_tribute, cards_above_tribute, tribute_choices
from . import _infoset as _native
from .playout import SEED_MASK

if TYPE_CHECKING:
    from ..engine.deal import Deal  # (engine.deal imports this module: no import at run time)

__all__ = ["Unseen", "sample_hands", "sample_worlds", "unseen"]



@dataclass(frozen=True)
class Unseen:
    """What ``seat`` cannot see, and what it knows of where those cards are.

    ``cards``: the cards whose place the seat does not know (108 minus its hand, minus
    every card played, minus ``known`` and ``pooled``; an endgame set up with
    :meth:`Deal.start` leaves out the cards no hand holds, as if played). ``counts[s]``: how many of seat
    ``s``'s cards the seat does not know (0 for itself); they are ``cards`` and ``pooled``
    together. ``known[s]``: the cards the seat knows are in hand ``s`` (its own hand for
    itself). ``pooled``: big jokers known to be in one of ``pooled_seats`` (an
    anti-tribute by two other players), else empty. ``barred[s]``: the cards of ``cards``
    seat ``s`` cannot hold (a tribute payer: those above its tribute but the wildcard, and the
    other big joker once a payer paid one).
    """

    seat: int
    cards: Hand
    counts: tuple[int, int, int, int]
    known: tuple[Hand, Hand, Hand, Hand]
    pooled: Hand
    pooled_seats: tuple[int, ...]
    barred: tuple[Hand, Hand, Hand, Hand] = (Hand(), Hand(), Hand(), Hand())


def unseen(deal: Deal, seat: int) -> Unseen:
    """What ``seat`` cannot see of ``deal`` (see :class:`Unseen` and the module notes)."""
    if not isinstance(getattr(deal, "_state", None), State):  # a Deal, which owns a native State
        raise TypeError(f"expected a guandan_fast Deal, not {type(deal).__name__}")
    seat = check_seat(seat)
    hands = deal.hands
    left = deal.cards_left()
    # what the table shows each seat holds; in a deal whose hands were replaced against it
    # (``with_hands(check_public=False)``, a platform mirror), what is still there
    held, jokers, payers, chosen = deal.public_holdings()
    known = [hands[s] if s == seat else held[s].common(hands[s]) for s in range(4)]
    record = deal.tribute_record
    pooled = Hand()
    pooled_seats: tuple[int, ...] = ()
    if payers:  # an anti-tribute: the payers hold the big jokers not played between them
        if seat in payers:
            jokers -= hands[seat].count(BIG_JOKER)
        others = tuple(p for p in payers if p != seat)
        together = Hand(["HR"] * min(jokers, sum(hands[p].count(BIG_JOKER) for p in others)))
        if len(others) == 1:
            known[others[0]] = known[others[0]].add(together)
        elif others:
            pooled, pooled_seats = together, others
    # The cards in the other hands: 108 minus this hand and every card played (in an
    # endgame set up with Deal.start, minus the cards the deal left out as well).
    hidden = Hand()
    for s in range(4):
        if s != seat:
            hidden = hidden.add(hands[s]).remove(known[s])
    c0, c1, c2, c3 = (0 if s == seat else left[s] - len(known[s]) for s in range(4))
    k0, k1, k2, k3 = known
    cards = hidden.remove(pooled)
    paid = [(payer, card) for payer, _, card in record.payments] + list(chosen)
    b0, b1, b2, b3 = _barred(seat, cards, paid, record.payers, deal.level)
    return Unseen(seat, cards, (c0, c1, c2, c3), (k0, k1, k2, k3), pooled, pooled_seats, (b0, b1, b2, b3))


def _barred(
    seat: int, cards: Hand, paid: list[tuple[int, int]], payers: Sequence[int], level: int
) -> list[Hand]:
    """For each seat, the cards of ``cards`` it cannot hold, given the tributes ``paid``
    (payer, card) so far by ``payers``: a payer other than ``seat`` paid its highest card but
    the wildcard, so it holds none above it
    (:func:`~guandan_fast.engine.tribute.cards_above_tribute`); and the payers held fewer than
    two big jokers between them (two are an anti-tribute), so once one of them paid a big
    joker no payer holds the other."""
    masks = [0] * 4
    for payer, card in paid:
        masks[payer] |= cards_above_tribute(card, level)
    if any(card == BIG_JOKER for _, card in paid):
        for payer in payers:
            masks[payer] |= 1 << BIG_JOKER
    masks[seat] = 0  # the seat knows its own hand
    return [Hand._trusted(cards.once & mask, cards.twice & mask) for mask in masks]


#: More worlds than this in one call is a mistake (``uint64[n, 4, 2]`` would pass 128 GiB),
#: refused as such rather than by the allocator.
MAX_WORLDS = 2**31 - 1


def _check_count_and_seed(n: object, seed: object) -> tuple[int, int]:
    return bounded(n, "the number of worlds", 0, MAX_WORLDS), bounded(seed, "a seed", 0, SEED_MASK)


def sample_hands(deal: Deal, seat: int, n: int, seed: int = 0) -> np.ndarray:
    """``n`` worlds for ``seat`` as hand planes ``uint64[n, 4, 2]`` (row ``[i, s]`` is
    ``(once, twice)`` of seat ``s`` in world ``i``): the fast form of :func:`sample_worlds`.
    World ``i`` is drawn from the random stream ``seed + i`` (native, without the GIL).

    In the tribute phase the payers hold fewer than two big jokers between them and a payer
    still to choose holds a card it may pay (see :func:`_tribute_rule`); a world that breaks
    either is drawn again from the streams after ``seed + n - 1`` (rejection: the worlds
    stay uniform among the consistent ones)."""
    view = unseen(deal, seat)
    count, seed = _check_count_and_seed(n, seed)

    def draw(count: int, seed: int) -> np.ndarray:
        return _native.sample_hands(
            [(hand.once, hand.twice) for hand in view.known],
            view.cards.once,
            view.cards.twice,
            list(view.counts),
            BIG_JOKER,
            len(view.pooled),
            sum(1 << s for s in view.pooled_seats),
            count,
            seed,
            [hand.once for hand in view.barred],
        )

    worlds = draw(count, seed)
    rule = _tribute_rule(deal, seat)
    if rule is not None:
        next_seed = seed + count
        for _ in range(_MOST_REDRAWS):
            bad = np.flatnonzero(rule(worlds))
            if len(bad) == 0:
                break
            worlds[bad] = draw(len(bad), next_seed & SEED_MASK)
            next_seed += len(bad)
        else:
            raise RuntimeError("no world that keeps the tribute rule was drawn (please report this deal)")
    return worlds


#: Redraws of worlds that break the tribute rule before giving up; a payer of one card has
#: at worst two chances in three to draw a wildcard, so 200 rounds leave ~1e-35.
_MOST_REDRAWS = 200


def _tribute_rule(deal: Deal, seat: int) -> Callable[[np.ndarray], np.ndarray] | None:
    """In the tribute phase (no anti-tribute), the worlds that break its rule, as a function
    of the world planes (``bool[n]``), else None: the payers hold fewer than two big jokers
    between them (two would have been an anti-tribute), and a payer still to choose holds a
    card it may pay, one that is no wildcard (only a payer of one or two cards, in an
    endgame set up with :meth:`Deal.start`, can be dealt wildcards alone)."""
    info = deal.tribute
    if deal.phase != "tribute" or info["kind"] == "anti":
        return None
    payers = list(info["payers"])
    chosen = {payer for payer, (kind, _, _) in deal.history if kind == "tribute"}
    pending = [p for p in payers if p != seat and p not in chosen]
    level = deal.level

    def breaks(worlds: np.ndarray) -> np.ndarray:
        # the engine's own rules, world by world (this phase only: no agent samples in it)
        out = np.zeros(len(worlds), dtype=np.bool_)
        for i, world in enumerate(worlds.tolist()):
            hands = [Hand._trusted(once, twice) for once, twice in world]
            out[i] = anti_tribute(hands, payers) or any(not tribute_choices(hands[p], level) for p in pending)
        return out

    return breaks


def sample_worlds(deal: Deal, seat: int, n: int, seed: int = 0) -> list[Deal]:
    """``n`` copies of ``deal`` whose hidden hands are drawn for ``seat`` (see
    :func:`sample_hands`); each continues from the same state (:meth:`Deal.with_hands`)."""
    planes = sample_hands(deal, seat, n, seed).tolist()
    # drawn to keep what the table showed (as far as the deal's hands still do: see unseen)
    return [deal.with_hands([Hand._trusted(once, twice) for once, twice in world], check_public=False) for world in planes]
