"""The placeholder world: the hands of the three seats a mirrored seat cannot see.

The mirror's deal holds one consistent split of the unseen cards among the hidden seats
(the right counts, and every card the seat knows to be in a given hand — tribute, return,
anti-tribute jokers — in that hand). Before a hidden seat's play or payment is applied,
its cards are swapped into its placeholder hand from the other hidden hands. The own hand
is never touched. Every function here is pure: hands in, hands out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..engine.cards import BIG_JOKER, CARD_NAMES, NUM_CARDS, card_power, wildcard
from ..engine.deal import Deal
from ..engine.hand import Hand

__all__ = ["FULL_DECK", "arrange_tribute", "give", "known", "split_unseen", "swapped_in"]

FULL_DECK = Hand.from_indices([i for i in range(NUM_CARDS) for _ in range(2)])


def split_unseen(own: Hand, seat: int, payers: Sequence[int], anti: Sequence[int]) -> list[Hand]:
    """Four 27-card hands: ``own`` at ``seat``, the other cards split among the hidden seats,
    the big jokers first to the ``anti`` seats (they refuse tribute), else last to the
    ``payers`` (who must hold a card they may pay). ValueError unless ``own`` holds 27
    cards of the two decks."""
    if len(own) != 27:
        raise ValueError(f"a hand dealt holds 27 cards, not {len(own)}")
    rest = list(FULL_DECK.remove(own).indices())
    jokers = [c for c in rest if c == BIG_JOKER]
    others = [c for c in rest if c != BIG_JOKER]
    hidden = [s for s in range(4) if s != seat]
    if anti:
        order = [s for s in hidden if s in anti] + [s for s in hidden if s not in anti]
    else:
        order = [s for s in hidden if s not in payers] + [s for s in hidden if s in payers]
    held: dict[int, list[int]] = {s: [] for s in hidden}
    for card in jokers:
        target = next(s for s in order if len(held[s]) < 27)
        held[target].append(card)
    for card in others:
        target = next(s for s in hidden if len(held[s]) < 27)
        held[target].append(card)
    return [own if s == seat else Hand.from_indices(held[s]) for s in range(4)]


def known(deal: Deal, seat: int) -> dict[int, Hand]:
    """The cards ``seat`` knows to be in another hand (tribute, return, anti-tribute
    jokers): a placeholder swap must leave them where they are, or the deal would
    contradict the seat's own knowledge (``Deal.unseen`` would then know only what is still
    there, and sampling would forget the rest)."""
    try:
        cards = deal.unseen(seat).known
    except ValueError:  # a safety net: a seat never stops over what it cannot work out
        return {}
    return {s: hand for s, hand in enumerate(cards) if s != seat and hand}


def give(deal: Deal, own_seat: int, seat: int, cards: Hand, reserved: Mapping[int, Hand] | None = None) -> Deal:
    """``deal`` with hidden ``seat`` holding ``cards`` (see :func:`swapped_in`)."""
    hands = list(deal.hands)
    if hands[seat].contains(cards):
        return deal
    # the server's word first: it may contradict what the table showed (check_public off)
    return deal.with_hands(swapped_in(hands, own_seat, seat, cards, reserved or {}), check_public=False)


def swapped_in(hands: list[Hand], own_seat: int, seat: int, cards: Hand, reserved: Mapping[int, Hand]) -> list[Hand]:
    """``hands`` with hidden ``seat`` holding ``cards``, taken from the other hidden hands
    (never their ``reserved`` cards) in exchange for cards of its own; the own seat's
    hand is never changed (ValueError when that cannot be done)."""
    held = hands[seat]
    if held.contains(cards):
        return hands
    if seat == own_seat:
        raise ValueError(f"the server says seat {seat} holds {cards}, its hand is {held}")
    hands = list(hands)
    keep = held.common(cards)
    need = list(cards.remove(keep).indices())
    rest = held.remove(keep)
    # the seat's reserved cards stay, but those the swapped-in cards already hold are not
    # needed twice (a known SA played as part of a straight frees the seat's other SA)
    mine = reserved.get(seat, Hand())
    staying = mine.remove(mine.common(cards))
    spare = list(rest.remove(rest.common(staying)).indices())
    for card in need:
        donor = next((s for s in range(4) if s not in (seat, own_seat) and card in free(hands[s], reserved.get(s))), None)
        if donor is None or not spare:
            raise ValueError(f"no hidden hand can hold {CARD_NAMES[card]} for seat {seat}")
        back = spare.pop()
        hands[donor] = hands[donor].remove([CARD_NAMES[card]]).add([CARD_NAMES[back]])
        hands[seat] = hands[seat].remove([CARD_NAMES[back]]).add([CARD_NAMES[card]])
    return hands


def arrange_tribute(deal: Deal, own_seat: int, paid: Mapping[int, int]) -> Deal:
    """``deal`` where every payer holds its tribute card and nothing of higher power
    but wildcards (so that paying it is legal), the own hand untouched."""
    reserved = {payer: Hand.from_indices([card]) for payer, card in paid.items()}
    for payer in paid:
        deal = give(deal, own_seat, payer, reserved[payer], reserved)
    level = deal.level
    wild = wildcard(level)
    hands = list(deal.hands)
    for payer, card in paid.items():
        if payer == own_seat:
            continue
        top = card_power(card, level)
        takers = [s for s in range(4) if s != own_seat and s not in paid]
        for high in [c for c in hands[payer].indices() if c != wild and card_power(c, level) > top]:
            for taker in takers:
                low = next((c for c in hands[taker].indices() if c != wild and card_power(c, level) <= top), None)
                if low is not None:
                    break
            else:
                raise ValueError(f"no hidden hand can take {CARD_NAMES[high]} from seat {payer}")
            hands[taker] = hands[taker].remove([CARD_NAMES[low]]).add([CARD_NAMES[high]])
            hands[payer] = hands[payer].remove([CARD_NAMES[high]]).add([CARD_NAMES[low]])
    return deal.with_hands(hands, check_public=False)


def free(hand: Hand, reserved: Hand | None) -> list[int]:
    """The distinct cards of ``hand`` that are not ``reserved`` for it."""
    return hand.remove(hand.common(reserved)).distinct() if reserved is not None else hand.distinct()
