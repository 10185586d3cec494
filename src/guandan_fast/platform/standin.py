"""Deals rebuilt from one ``act`` message: what the client answers on when the mirror
cannot follow the server (and what the mirror resyncs to at the next ``play`` request).

A stand-in deal puts the asked seat to act as the message says — its own hand, the
level, every seat's card count and the move to beat for a play; the card to pay or the
tribute received for a tribute or a return — with placeholder hands for the others. Its
legal actions are the rules' for that position, so an agent choosing on it chooses among
what the server offers (the client maps the choice onto the server's ``actionList``).
The history before the message is not in it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import CARD_NAMES, parse_card, parse_level
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.rules import Rules
from ..platform import placeholders
from .messages import PASS, ProtocolError, field, read_cards, read_seat, reading, short

log = logging.getLogger("guandan_fast.platform")

__all__ = ["card_stand_in", "last_move", "play_stand_in"]


def last_move(msg: Mapping[str, Any], seat: int) -> tuple[int, Sequence[Any]] | None:
    """``(last_seat, last move)``: the move this seat must beat in the play request ``msg``
    and the seat that made it (the platform's ``greaterPos``/``greaterAction``), or None
    when the seat leads (no ``greaterAction``, a PASS, or the seat's own play)."""
    action = msg.get("greaterAction")
    if not action or not isinstance(action, Sequence) or isinstance(action, (str, bytes)) or action[0] == "PASS":
        return None
    maker = read_seat(field(msg, "greaterPos"))
    return None if maker == seat else (maker, action)


def _rests(info: object) -> list[int]:
    """The four card counts of ``publicInfo`` (``[{"rest": n}, ...]``)."""
    if not isinstance(info, Sequence) or isinstance(info, (str, bytes)) or len(info) != 4:
        raise ProtocolError(f"publicInfo lists the four seats, not {short(info)}")
    rests = [entry.get("rest") if isinstance(entry, Mapping) else None for entry in info]
    counts = [n for n in rests if type(n) is int and 0 <= n <= 27]  # type(n) is int: no bool
    if len(counts) != 4:
        raise ProtocolError(f"publicInfo's counts are 0-27, not {rests}")
    return counts


def play_stand_in(
    msg: Mapping[str, Any], seat: int, rules: Rules, levels: tuple[int, int],
    played: Hand | None = None, finished: Sequence[int] = (), *,
    deal_team: int | None = None, failures_at_a: Sequence[int] = (0, 0),
) -> Deal:
    """A deal where ``seat`` answers the ``play`` request ``msg``. ``played``: the cards
    played so far in the deal (the others' placeholders are drawn from the rest);
    ``finished``: the seats out so far, in order, as far as known; ``deal_team`` and
    ``failures_at_a``: the match around the deal (:meth:`Deal.start`). ProtocolError when
    the message cannot be such a position."""
    with reading(msg):
        return _play_stand_in(msg, seat, rules, levels, Hand() if played is None else played, finished,
                              deal_team, failures_at_a)


def _play_stand_in(
    msg: Mapping[str, Any], seat: int, rules: Rules, levels: tuple[int, int], played: Hand, finished: Sequence[int],
    deal_team: int | None, failures_at_a: Sequence[int],
) -> Deal:
    own = read_cards(field(msg, "handCards"))
    level = parse_level(field(msg, "curRank"))
    rests = _rests(field(msg, "publicInfo"))
    if rests[seat] != len(own):
        raise ProtocolError(f"publicInfo gives seat {seat} {rests[seat]} cards, its handCards {len(own)}")
    beat = last_move(msg, seat)
    last = read_cards(beat[1][2]) if beat else Hand()
    # the unseen cards: 108 minus the own hand minus what was played (the move to beat is
    # played again in the stand-in, so it stays with its maker)
    pool = placeholders.FULL_DECK.remove(own)
    gone = played.remove(played.common(last))
    pool = pool.remove(pool.common(gone))
    if not pool.contains(last):
        raise ProtocolError(f"the move to beat {short(beat[1] if beat else None)} is not among the unseen cards")
    pool = pool.remove(last)
    hands = [Hand()] * 4
    hands[seat] = own
    cards = list(pool.indices())
    for other in range(4):
        if other == seat:
            continue
        count = rests[other]
        if len(cards) < count:
            raise ProtocolError(f"publicInfo counts {rests} exceed the {len(pool)} unseen cards")
        hands[other] = Hand.from_indices(cards[:count])
        del cards[:count]
    if cards:  # more unseen cards than the others hold: some plays were never notified
        log.info("seat %s: %d unseen cards left over (plays not seen); the placeholders hold the others", seat, len(cards))
    if beat:
        hands[beat[0]] = hands[beat[0]].add(last)
    out = [s for s in finished if not hands[s]] + [s for s in range(4) if not hands[s] and s not in finished]
    try:
        deal = Deal.start(hands, level, leader=beat[0] if beat else seat, rules=rules, team_levels=levels, finished=out,
                          deal_team=deal_team, failures_at_a=failures_at_a)
        if beat:
            deal.step(list(beat[1]))
            for _ in range(3):
                if deal.to_act == seat or deal.phase != "play":
                    break
                deal.step(PASS)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"no position of the rules fits this play request: {error}") from None
    if deal.to_act != seat or deal.following != bool(beat):
        raise ProtocolError(f"the rules do not give seat {seat} this turn (they give seat {deal.to_act})")
    return deal


def card_stand_in(
    msg: Mapping[str, Any], seat: int, rules: Rules, levels: tuple[int, int], *, failures_at_a: Sequence[int] = (0, 0)
) -> Deal:
    """A deal where ``seat`` answers the ``tribute`` or ``back`` request ``msg``: a single
    tribute the seat pays to the next seat, or the tribute the seat received from
    ``tributePos`` (its card ``tribute``), which it returns; ``failures_at_a``: the
    match's (the deal's team comes from the made-up previous finish: the payer's
    opponents). ProtocolError when the message cannot be such a position."""
    with reading(msg):
        return _card_stand_in(msg, seat, rules, levels, failures_at_a)


def _card_stand_in(
    msg: Mapping[str, Any], seat: int, rules: Rules, levels: tuple[int, int], failures_at_a: Sequence[int]
) -> Deal:
    stage = field(msg, "stage")
    own = read_cards(field(msg, "handCards"))
    level = parse_level(field(msg, "curRank"))
    try:
        if stage == "tribute":
            # the seat last, the next seat first (a single tribute between opponents)
            finish = [(seat + 1) % 4, seat ^ 2, (seat + 3) % 4, seat]
            hands = placeholders.split_unseen(own, seat, [seat], ())
            return Deal.start(hands, level, previous_finish=finish, rules=rules, team_levels=levels,
                              failures_at_a=failures_at_a)
        payer = read_seat(field(msg, "tributePos"))
        card = parse_card(field(msg, "tribute"))
        if (payer - seat) % 2 == 0:
            raise ProtocolError(f"seat {seat} returns a tribute to seat {payer}, its partner")
        finish = [seat, payer ^ 2, seat ^ 2, payer]
        deal = Deal.start(placeholders.split_unseen(own, seat, [payer], ()), level, previous_finish=finish,
                          rules=rules, team_levels=levels, failures_at_a=failures_at_a)
        deal = placeholders.arrange_tribute(deal, seat, {payer: card})
        deal.step(["tribute", "tribute", [CARD_NAMES[card]]])
    except (KeyError, TypeError, ValueError) as error:
        raise ProtocolError(f"no position of the rules fits this {short(stage)} request: {error}") from None
    if deal.to_act != seat:
        raise ProtocolError(f"the rules do not give seat {seat} this {short(stage)} request")
    return deal
