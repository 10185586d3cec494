"""Which entry of the server's ``actionList`` answers an ``act`` for an agent.

Two kinds of agent: an object with ``act(deal, seat) -> int`` (:mod:`guandan_fast.agents`)
chooses on :meth:`Mirror.answer_deal <guandan_fast.platform.Mirror.answer_deal>` (the
mirrored deal, or a stand-in rebuilt from the request when the mirror cannot follow), and
its choice is sent as the server's entry holding the same action; a plain callable
``f(observation) -> int`` gets :meth:`Mirror.observation` and returns an index into its
``actionList``, which is the server's list.

The server lists some moves under one reading only (five cards of one suit only as a
``StraightFlush``): a choice not on the list is matched by its cards, under the reading
the server gives them; a tribute card by its power (the server offers one suit of two).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.cards import card_power, parse_card
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.moves import Move
from ..engine.notation import parse
from .mirror import Mirror

__all__ = ["answer_index", "find_move"]

log = logging.getLogger("guandan_fast.platform")


def answer_index(mirror: Mirror, agent: Any, msg: Mapping[str, Any]) -> tuple[int, bool]:
    """The index into ``msg["actionList"]`` that answers the pending ``act`` for ``agent``,
    and whether the agent's own choice was found there (else the first entry is chosen)."""
    actions = msg["actionList"]
    seat = mirror.seat
    if not hasattr(agent, "act"):
        index = agent(mirror.observation())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(actions):
            log.warning("seat %s: the agent answered %r, not an index 0..%d: sending entry 0", seat, index, len(actions) - 1)
            return 0, False
        return index, True
    if mirror.off_rules(msg):
        # Asked to act where the rules would not ask (an out seat, its own unbeaten play,
        # a pass out of turn): the server's first entry is its PASS.
        log.info("seat %s: asked out of turn; answering the server's first entry %s", seat, actions[0])
        return 0, True
    deal = mirror.answer_deal(msg)
    if deal is None or seat is None:
        log.warning("seat %s: no deal fits the request; sending the server's first entry %s", seat, actions[0])
        return 0, False
    choice = agent.act(deal, seat)
    found = _entry(actions, deal, choice)
    if found is None:
        log.warning("seat %s: the server does not offer the agent's choice %d; sending %s", seat, choice, actions[0])
        return 0, False
    return found, True


def _entry(actions: Sequence[Any], deal: Deal, choice: int) -> int | None:
    """The server's entry holding action ``choice`` of ``deal.legal_actions()``."""
    if deal.phase != "play":
        card = parse_card(deal.legal_actions()[choice][2][0])
        cards = [parse_card(entry[2][0]) for entry in actions]
        if card in cards:
            return cards.index(card)
        # of two top tribute cards in different suits the server offers one
        level = deal.level
        same = [i for i, c in enumerate(cards) if deal.phase == "tribute" and card_power(c, level) == card_power(card, level)]
        return same[0] if same else None
    if deal.following and choice == 0:
        return next((i for i, entry in enumerate(actions) if entry[0] == "PASS"), None)
    return find_move(actions, deal.legal_moves()[choice - deal.following], deal.level)


def find_move(actions: Sequence[Any], move: Move, level: int) -> int | None:
    """The index of the server's entry holding ``move`` (any card order); when the server
    lists those cards only under another reading (a one-suit straight as a straight flush),
    that entry."""
    kind = move.kind.platform_name  # "Bomb" for four jokers too
    rank, size = move.rank, len(move.cards)
    target = (int(move.kind), move.key, move.cards.once, move.cards.twice)
    for i, entry in enumerate(actions):
        if (
            entry[1] == rank and len(entry[2]) == size and (entry[0] == kind or entry[0] == "FourKings")
            and parse(entry, level) == target
        ):
            return i
    return next(
        (i for i, entry in enumerate(actions) if len(entry[2]) == size and entry[0] != "PASS" and Hand(entry[2]) == move.cards),
        None,
    )
