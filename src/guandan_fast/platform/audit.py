"""The audit of the server's departures from the rules the mirror plays: the kinds
(:data:`DEPARTURES`, the shared PROTOCOL.md lists them), their count, their log lines, and
the comparison of an ``act``'s ``actionList`` with the mirrored deal's legal actions."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..engine.cards import CARD_NAMES, card_power, parse_card, rank_of, wildcard
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.moves import MoveType
from .messages import PASS_KEY, action_key, field, read_cards, show

__all__ = ["DEPARTURES", "MOVE_LIST_CLASSES", "Audit"]

log = logging.getLogger("guandan_fast.platform")

#: Legal readings RULES.md allows that the server leaves out of its move lists (counted
#: once per ``act`` and class).
MOVE_LIST_CLASSES = ("pair_of_wildcards", "straight_of_one_suit", "full_house_of_one_rank")

#: Every kind of server departure the mirror detects (PROTOCOL.md), plus the catch-all.
#: The first group are the server's bugs; the second its rule choices, departures only
#: from rules other than ``Rules.openguandan()``.
DEPARTURES = (
    *MOVE_LIST_CLASSES,
    "lost_wake_up",  # the seat, hearing nothing for a while, sent GET_ROOMPLAYER (a stuck message, or slow players)
    "act_to_out_seat",  # a seat that is out was asked to act (and passed)
    "trick_end_skip",  # the unbeaten player was asked to beat its own play, or the next seat again
    "tribute_one_suit",  # of two top cards in different suits only one was offered
    "tribute_tie_arrival_order",  # equal double tribute: arrival order decided the first player's card
    "tribute_natural_rank",  # double tribute: cards compared by natural rank, its leader rule
    "return_without_level_cards",  # return list without level cards or the card just received
    "failing_at_a",  # the server sent a team at A back to 2
    "both_teams_at_a",  # a team at A did not win: the deal was not played at its level
    "unexplained",  # anything else: logged with the details
)


class Audit:
    """The departures one seat's mirror has seen, by kind (:attr:`departures`)."""

    def __init__(self) -> None:
        self.departures: Counter[str] = Counter()
        self.seat: int | None = None

    def depart(self, kind: str, detail: str, count: int = 1) -> None:
        """Count and log one departure (``"unexplained"`` as a warning)."""
        self.departures[kind] += count
        level = logging.WARNING if kind == "unexplained" else logging.INFO
        log.log(level, "seat %s: server departure %s: %s", self.seat, kind, detail)

    def compare_act(self, deal: Deal, msg: Mapping[str, Any]) -> None:
        """Compare the ``act`` message ``msg`` to this seat with ``deal``, the mirror's deal
        where this seat is to act: the hand shown, and the ``actionList`` with the legal
        actions (as sets), differences counted by class."""
        seat = deal.current_seat
        stage = msg["stage"]
        own = deal.hands[seat]
        if stage == "back":  # the server shows the hand from before the tribute arrived
            own = own.remove([field(msg, "tribute")])
        if read_cards(msg.get("handCards", [])) != own:
            self.depart("unexplained", f"{stage}: server hand {msg.get('handCards')}, mirrored hand {own}")
        level = deal.level
        server = {action_key(a, level) for a in msg["actionList"]}
        if stage == "play":
            ours = set(deal.legal_moves().rows())
            if deal.following:
                ours.add(PASS_KEY)
        else:
            ours = {action_key(a, level) for a in deal.legal_actions()}
        if server == ours:
            return
        extra = server - ours
        if extra:
            self.depart("unexplained", f"server offers {len(extra)} actions the rules forbid, e.g. {show(extra)}")
        missing = ours - server
        if not missing:
            return
        if stage == "play":
            self._classify_missing(missing, ours, level)
        elif stage == "tribute":
            lost = [key[2] for key in missing]
            if all(card_power(c, level) == card_power(next(iter(server))[2], level) for c in lost):
                self.depart("tribute_one_suit", f"tribute list without {[CARD_NAMES[c] for c in lost]}")
            else:
                self.depart("unexplained", f"tribute list without {[CARD_NAMES[c] for c in lost]}")
        else:
            lost = [key[2] for key in missing]
            received = parse_card(msg.get("tribute", "HR"))
            kind = "return_without_level_cards"
            if any(card != received and (card >= 52 or rank_of(card) != level) for card in lost):
                kind = "unexplained"
            self.depart(kind, f"return list without {[CARD_NAMES[c] for c in lost]}")

    def _classify_missing(self, missing: set[Any], ours: set[Any], level: int) -> None:
        wild = wildcard(level)
        found: Counter[str] = Counter()
        for key in missing:
            kind, rank, once, twice = key
            held = list(Hand.from_bits(once, twice).indices())
            if kind == MoveType.PAIR and held == [wild, wild]:
                found["pair_of_wildcards"] += 1
            elif kind == MoveType.STRAIGHT and (MoveType.STRAIGHT_FLUSH, rank, once, twice) in ours:
                found["straight_of_one_suit"] += 1
            elif kind == MoveType.THREE_WITH_TWO and len({rank_of(c) for c in held if c != wild}) == 1:
                found["full_house_of_one_rank"] += 1
            else:
                found["unexplained"] += 1
                log.warning("seat %s: server omits %s", self.seat, show([key]))
        for name, count in found.items():
            self.depart(name, f"{count} moves left out of the server's list", 1)
