"""The mirror: one seat's view of an OpenGuanDan game, kept as a :class:`~guandan_fast.Deal`.

Feed it every message the seat receives (:meth:`Mirror.feed`) and :attr:`Mirror.deal`
follows the server: the own hand, every play, tribute, anti-tribute and return, 接风, the
finishing order and the levels. The other seats' hands are unknown: the deal holds a
placeholder world (the unseen cards split among them with the right counts), and before
another seat's play is applied the played cards are swapped into that seat's placeholder
hand from the other hidden hands — the own hand is never touched.

The server is taken at its word wherever it departs from the rules the mirror plays
(``Rules.openguandan()`` by default): levels from ``curRank``/``selfRank``/``oppoRank``,
tribute and return as notified, whose turn it is from the ``act`` it sends. Each known
departure (the shared PROTOCOL.md lists them) is detected, counted in
:attr:`Mirror.departures` under one of :data:`DEPARTURES` and logged; anything else that
disagrees is counted as ``"unexplained"`` (a warning). With the preset only the server's
plain bugs and the three move-list classes remain; with the national ``Rules()`` the
preset's choices (return lists, failing and winning at A, double tribute by rank) show
up as departures too. A mirror never raises on a server message it can read; a message
it cannot read raises :class:`ProtocolError`.
"""

from __future__ import annotations

import logging
from collections import ChainMap, Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards import CARD_NAMES, level_char, parse_card, parse_level
from ..game import Deal, DealScore, Rules, score_deal
from ..hand import Hand
from ..infoset import Unseen
from ..tribute import natural_order, who_pays
from . import placeholders
from .audit import Audit
from .messages import PASS, ROOM_REPLIES, ProtocolError, field, read_cards, read_seat, reading

__all__ = ["Mirror"]

log = logging.getLogger("guandan_fast.platform")


class Mirror:
    """One seat's view of the game, in step with the server (see the module docstring).

    ``seat``: the seat mirrored (None: taken from the first ``beginning`` message).
    ``rules``: the rules the mirrored deal follows (default ``Rules.openguandan()``).
    """

    def __init__(self, seat: int | None = None, rules: Rules | None = None) -> None:
        self.seat = None if seat is None else read_seat(seat)
        self.rules = Rules.openguandan() if rules is None else rules
        self.audit = Audit()
        self.audit.seat = self.seat
        #: Finishing orders of the deals so far: ``(server's order, the deal's order)``.
        self.finish_orders: list[tuple[list[int], list[int]]] = []
        #: The server's account of the current deal's tribute: ``kind`` and the results.
        self.tribute: dict[str, Any] = {"kind": "none", "payments": [], "returns": [], "anti": []}
        self.levels: tuple[int, int] = (2, 2)
        self.acts = 0
        self.room: int | None = None
        self.game_over = False
        self._deal: Deal | None = None
        self._view: Deal | None = None  # the deal shown while the seat answers a simultaneous request
        self._pending: Mapping[str, Any] | None = None
        self._previous: list[int] | None = None  # the previous deal's finishing order in this game
        self._scored: DealScore | None = None  # the previous deal scored by the rules in use
        self._failures = (0, 0)
        self._played = Hand()
        self._leader_known = True  # False once the deal was rebuilt: its first leader is the first to play

    @property
    def departures(self) -> Counter[str]:
        """The server's departures seen so far, by kind (:data:`~guandan_fast.platform.DEPARTURES`)."""
        return self.audit.departures

    # -- views --------------------------------------------------------------------------------
    @property
    def deal(self) -> Deal | None:
        """The current deal as this seat may know it (None before the first deal). While
        an ``act`` waits for an answer, its :attr:`~Deal.to_act` is this seat."""
        return self._view if self._view is not None else self._deal

    @property
    def pending(self) -> Mapping[str, Any] | None:
        """The ``act`` message waiting for an answer, if any."""
        return self._pending

    def unseen(self) -> Unseen:
        """What this seat cannot see: :meth:`Deal.unseen` of the mirrored deal."""
        return self._need_deal().unseen(self.seat)  # type: ignore[arg-type]

    def observation(self) -> Mapping[str, Any]:
        """:meth:`Deal.observation` of this seat; while an ``act`` is pending its
        ``actionList``/``indexRange`` are the server's (an answer indexes that list)."""
        obs = self._need_deal().observation(self.seat)  # type: ignore[arg-type]
        if self._pending is None:
            return obs
        actions = self._pending["actionList"]
        return ChainMap({"actionList": [list(a) for a in actions], "indexRange": len(actions) - 1}, obs)  # type: ignore[arg-type]

    def _need_deal(self) -> Deal:
        deal = self.deal
        if deal is None or self.seat is None:
            raise ProtocolError("no deal yet: the mirror has not received a 'beginning' message")
        return deal

    # -- messages -----------------------------------------------------------------------------
    def feed(self, msg: Mapping[str, Any], *, check: bool = True) -> None:
        """Take one message the seat received. ``check=False`` skips comparing an ``act``'s
        ``actionList`` with the deal's legal actions (call :meth:`check_act` later)."""
        if not isinstance(msg, Mapping):
            raise ProtocolError(f"a server message is a JSON object, not {type(msg).__name__}")
        kind = msg.get("type")
        self._view = None
        with reading(msg):
            if kind == "notify":
                self._pending = None
                handler = self._NOTIFY.get(msg.get("stage"))  # type: ignore[arg-type]
                if handler is None:
                    raise ProtocolError(f"notify of unknown stage {msg.get('stage')!r}")
                handler(self, msg)
            elif kind == "act":
                self._act(msg, check)
            else:
                self._other(kind, msg)

    def _other(self, kind: object, msg: Mapping[str, Any]) -> None:
        """Messages outside the game: room replies and the server's internal codes."""
        if kind in ROOM_REPLIES:
            data = msg.get("data")
            if isinstance(data, Mapping) and isinstance(data.get("roomId"), int):
                self.room = data["roomId"]
        elif kind == "GET_ROOMPLAYER":
            if self._deal is not None and not self.game_over:
                self.audit.depart("lost_wake_up", "a room query was needed to release a stuck message")
        elif kind != "tribute":  # the server's internal tribute codes: nothing to read
            raise ProtocolError(f"unknown message type {kind!r}")

    # -- the deal's start ---------------------------------------------------------------------
    def _beginning(self, msg: Mapping[str, Any]) -> None:
        seat = read_seat(field(msg, "myPos"))
        if self.seat is None:
            self.seat = self.audit.seat = seat
        elif seat != self.seat:
            raise ProtocolError(f"the mirror follows seat {self.seat}, the server dealt to seat {seat}")
        own = read_cards(field(msg, "handCards"))
        level = parse_level(field(msg, "levelCard"))
        scored = self._scored
        if self.game_over or (self._previous is not None and level == 2):
            # A new game (a deal after a played one is never at 2: the winner goes up).
            if scored is not None and scored.winner is None:
                self.audit.depart("unexplained", "the server started a new game; by the rules nobody won the last deal")
            self.game_over = False
            self._new_game()
        elif scored is not None and scored.winner is not None:
            self.audit.depart("both_teams_at_a", f"by the rules team {scored.winner} won the match; the server deals again")
        self._played = Hand()
        self._leader_known = True
        self.tribute = {"kind": "none", "payments": [], "returns": [], "anti": []}
        self._start(own, level, anti=())

    def _start(self, own: Hand, level: int, anti: Sequence[int]) -> None:
        """A fresh deal: the own hand, placeholders for the others (both ``HR`` with the
        seats in ``anti`` when they refuse tribute, else away from the payers)."""
        payers = () if self._previous is None else who_pays(self._previous)[0]
        hands = placeholders.split_unseen(own, self.seat, payers, anti)  # type: ignore[arg-type]
        levels = self.levels
        if self._previous is None:
            # The server's first deal is led by seat 0 (the leader is checked at the first play).
            self._deal = Deal.start(hands, level, leader=0, rules=self.rules, team_levels=levels)
        else:
            self._deal = Deal.start(hands, level, previous_finish=self._previous, rules=self.rules, team_levels=levels)

    def _anti(self, msg: Mapping[str, Any]) -> None:
        seats = [read_seat(s) for s in field(msg, "antiPos")]
        deal = self._need_deal()
        self.tribute["kind"] = "anti"
        self.tribute["anti"] = seats
        self._start(deal.hands[self.seat], deal.level, anti=seats)  # type: ignore[index]
        if self._deal.tribute["kind"] != "anti":  # type: ignore[union-attr]
            self.audit.depart("unexplained", f"anti-tribute by seats {seats} which the rules do not give")

    def _tribute(self, msg: Mapping[str, Any]) -> None:
        results = [(read_seat(p), read_seat(r), parse_card(c)) for p, r, c in field(msg, "result")]
        self.tribute["kind"] = "single" if len(results) == 1 else "double"
        self.tribute["payments"] = results
        before = self._need_deal()
        paid = {payer: card for payer, _, card in results}
        try:
            deal = placeholders.arrange_tribute(before.clone(), self.seat, paid)
            while deal.phase == "tribute":
                payer: int = deal.to_act  # type: ignore[assignment]
                deal.step(["tribute", "tribute", [_name(paid[payer])]])
        except (KeyError, ValueError) as error:
            self.audit.depart("unexplained", f"tribute {results} cannot be followed: {error}")
            self._deal = self._rebuilt(before, results, [])
            return
        ours = sorted(deal.tribute["payments"])
        if ours != sorted(results):
            cards = [card for _, _, card in results]
            if len(cards) == 2 and natural_order(cards[0]) == natural_order(cards[1]):
                self.audit.depart("tribute_tie_arrival_order", f"server {results}, rules {ours}")
            else:
                self.audit.depart("tribute_natural_rank", f"server {results}, rules {ours}")
            deal = self._rebuilt(before, results, [])
        self._deal = deal

    def _back(self, msg: Mapping[str, Any]) -> None:
        results = [(read_seat(r), read_seat(p), parse_card(c)) for r, p, c in field(msg, "result")]
        self.tribute["returns"] = results
        before = self._need_deal()
        if before.phase == "play" and not before.tribute["payments"]:  # rebuilt after a departure: returns by hand
            self._deal = self._rebuilt(before, [], results)
            return
        back = {returner: card for returner, _, card in results}
        # the tribute a receiver was just given stays with it (the rules may forbid returning it)
        received = {receiver: Hand.from_indices([card]) for _, receiver, card in before.tribute["payments"]}
        deal = before.clone()
        try:
            while deal.phase == "return":
                returner: int = deal.to_act  # type: ignore[assignment]
                deal = placeholders.give(deal, self.seat, returner, Hand.from_indices([back[returner]]), received)
                deal.step(["back", "back", [_name(back[returner])]])
        except (KeyError, ValueError) as error:
            self.audit.depart("unexplained", f"return {results} cannot be followed: {error}")
            deal = self._rebuilt(before, [], results)
        self._deal = deal

    def _rebuilt(self, deal: Deal, payments: Sequence[tuple[int, int, int]], returns: Sequence[tuple[int, int, int]]) -> Deal:
        """The deal restarted in the play phase with the server's card movements applied
        (when the rules cannot reproduce them); the leader is fixed at the first play."""
        hands = list(deal.hands)
        for giver, taker, card in [*payments, *returns]:
            hands = placeholders.swapped_in(hands, self.seat, giver, Hand.from_indices([card]), {})
            hands[giver] = hands[giver].remove([_name(card)])
            hands[taker] = hands[taker].add([_name(card)])
        self._leader_known = False
        return Deal.start(hands, deal.level, leader=0, rules=self.rules, team_levels=deal.team_levels)

    # -- play -----------------------------------------------------------------------------------
    def _play(self, msg: Mapping[str, Any]) -> None:
        seat = read_seat(field(msg, "curPos"))
        action = field(msg, "curAction")
        if not isinstance(action, Sequence) or len(action) != 3:
            raise ProtocolError(f"malformed curAction {action!r}")
        passing = action[0] == "PASS"
        deal = self._need_deal()
        if deal.phase in ("tribute", "return"):
            self.audit.depart("unexplained", f"play by seat {seat} before the tribute was settled")
            deal = self._rebuilt(deal, [], [])
        greater = msg.get("greaterPos", -1)
        if deal.phase == "play" and not deal.hands[seat]:
            self.audit.depart("act_to_out_seat", f"seat {seat} is out and was asked to act; it answered {list(action)!r}")
            if passing:
                return
            raise ProtocolError(f"seat {seat} is out but played {list(action)!r}")
        if greater == seat and deal.phase == "play":
            # The trick was over, but the server had the unbeaten player answer its own play.
            self.audit.depart("trick_end_skip", f"seat {seat} was asked to beat its own play and answered {list(action)!r}")
            if passing:
                return
        elif deal.to_act != seat or (passing and not deal.following):
            deal = self._off_turn(deal, seat, action)
            if deal is None:
                return
        elif greater != deal.last_seat:
            self.audit.depart("unexplained", f"seat {seat} answered seat {greater}'s play; the deal's is seat {deal.last_seat}'s")
        if passing:
            deal.step(PASS)
        else:
            cards = read_cards(action[2])
            deal = placeholders.give(deal, self.seat, seat, cards, placeholders.known(deal, self.seat))
            try:
                deal.step(action)
            except (TypeError, ValueError) as error:
                # The server does not check what a client sends: take the cards as played.
                self.audit.depart("unexplained", f"seat {seat} played {list(action)!r}, which the rules refuse: {error}")
                deal = self._after_refused_play(deal, seat, cards)
            self._played = self._played.add(cards)
        self._deal = deal

    def _off_turn(self, deal: Deal, seat: int, action: Sequence[Any]) -> Deal | None:
        """A play from a seat the deal did not expect (the server's turn order is taken):
        the deal ready for the action, or None when the action changes nothing."""
        if deal.phase != "play":
            self.audit.depart("unexplained", f"seat {seat} acted {list(action)!r} after the deal ended")
            return None
        if action[0] == "PASS":
            if not deal.following:
                self.audit.depart("trick_end_skip", f"seat {seat} passed where seat {deal.to_act} leads a new trick")
            else:
                self.audit.depart("unexplained", f"seat {seat} passed; the deal waits for seat {deal.to_act}")
            return None
        if deal.following:
            self.audit.depart("unexplained", f"seat {seat} played {list(action)!r}; the deal waits for seat {deal.to_act}")
        elif not self._played:  # the deal's first play: the leader after the tribute
            if self._leader_known:
                kind = "tribute_natural_rank" if self.tribute["kind"] == "double" else "unexplained"
                self.audit.depart(kind, f"seat {seat} leads the deal, the rules give the lead to seat {deal.to_act}")
        else:
            self.audit.depart("trick_end_skip", f"seat {seat} leads where the rules give the lead to seat {deal.to_act}")
        return self._led_by(deal, seat)

    def _after_refused_play(self, deal: Deal, seat: int, cards: Hand) -> Deal:
        """The deal restarted with ``cards`` gone from ``seat``'s hand and the next seat to
        lead (the rules cannot make anyone follow a play they refuse)."""
        hands = list(deal.hands)
        hands[seat] = hands[seat].remove(cards)
        finished = deal.finish_order + ([seat] if not hands[seat] else [])
        leader = next(s for s in ((seat + step) % 4 for step in (1, 2, 3, 4)) if hands[s])
        try:
            return Deal.start(hands, deal.level, leader=leader, rules=self.rules, team_levels=deal.team_levels, finished=finished)
        except ValueError as error:
            raise ProtocolError(f"seat {seat} played {cards}, which ends the deal against the rules: {error}") from None

    def _led_by(self, deal: Deal, seat: int) -> Deal:
        """The deal restarted from the current hands with ``seat`` to lead a new trick (the
        server's turn order, which the rules cannot reach by a step)."""
        return Deal.start(
            deal.hands, deal.level, leader=seat, rules=self.rules, team_levels=deal.team_levels,
            finished=deal.finish_order,
        )

    # -- act ----------------------------------------------------------------------------------
    def _act(self, msg: Mapping[str, Any], check: bool) -> None:
        self.acts += 1
        stage = field(msg, "stage")
        actions = field(msg, "actionList")
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or not actions:
            raise ProtocolError(f"act with an empty or malformed actionList: {actions!r}")
        self._pending = msg
        self._server_levels(msg)
        deal = self._need_deal()
        if stage == "play":
            if self.off_rules(msg):
                # Asked to beat its own play, or asked while out: counted when the answer is
                # notified; the server's list (PASS first) is answered as it stands.
                log.debug("seat %s: act after the trick or the deal ended for it: %s", self.seat, msg["actionList"][:1])
                return
            if deal.to_act != self.seat and not self._leader_known and not self._played:
                self._deal = self._led_by(deal, self.seat)  # a rebuilt deal learns its leader here
                self._leader_known = True
            elif deal.to_act != self.seat:
                self.audit.depart("unexplained", f"act to seat {self.seat}, the deal waits for seat {deal.to_act}")
        elif stage in ("tribute", "back"):
            phase = "tribute" if stage == "tribute" else "return"
            if deal.phase == phase and deal.to_act != self.seat:
                # Both payers (receivers) are asked at once; the deal takes them in turn:
                # show a copy where the other one has made a placeholder choice.
                view = deal.clone()
                view.step(0)
                self._view = view
        else:
            raise ProtocolError(f"act of unknown stage {stage!r}")
        if check:
            self.check_act(msg)

    def check_act(self, msg: Mapping[str, Any]) -> None:
        """Compare an ``act``'s ``actionList`` with the deal's legal actions (as sets) and
        count the differences by class (:data:`MOVE_LIST_CLASSES`, tribute and return rules)."""
        with reading(msg):
            deal = self._need_deal()
            if deal.to_act == self.seat and not self.off_rules(msg):
                self.audit.compare_act(deal, msg)

    def off_rules(self, msg: Mapping[str, Any]) -> bool:
        """Whether a ``play`` request is one the rules would not make: to this seat while it
        is out, or while its own play stands unbeaten (the server's trick-end skip)."""
        deal = self._need_deal()
        out = not deal.hands[self.seat]  # type: ignore[index]
        return msg.get("stage") == "play" and (out or (msg.get("greaterPos") == self.seat and bool(msg.get("greaterAction"))))

    # -- levels and the deal's end --------------------------------------------------------------
    def _server_levels(self, msg: Mapping[str, Any]) -> None:
        """Take the levels of an ``act``; the first act of a deal is compared with the
        levels the rules gave after the previous deal."""
        if "selfRank" not in msg:
            return
        mine, theirs = parse_level(msg["selfRank"]), parse_level(field(msg, "oppoRank"))
        levels = (mine, theirs) if self.seat & 1 == 0 else (theirs, mine)  # type: ignore[operator]
        scored, self._scored = self._scored, None
        if scored is not None and scored.winner is None and levels != scored.levels:
            kind = "failing_at_a" if all(a <= b for a, b in zip(levels, scored.levels)) else "unexplained"
            self.audit.depart(kind, f"server levels {_chars(levels)}, by the rules {_chars(scored.levels)}")
        self._set_levels(levels)

    def _set_levels(self, levels: tuple[int, int]) -> None:
        self.levels = levels
        for deal in (self._deal, self._view):
            if deal is not None:
                deal.team_levels = levels

    def _episode_over(self, msg: Mapping[str, Any]) -> None:
        order = [read_seat(s) for s in field(msg, "order")]
        deal = self._need_deal()
        ours = deal.finish_order
        # in a double down the two losers' order is no information (both count as last)
        same = ours[:2] == order[:2] and set(order) == {0, 1, 2, 3} if ours[1:2] == [ours[0] ^ 2] else ours == order
        self.finish_orders.append((order, ours))
        if not deal.done or not same:
            self.audit.depart("unexplained", f"server finishing order {order}, the deal's {ours} ({deal.phase})")
        level = parse_level(field(msg, "curRank"))
        if level != deal.level:
            self.audit.depart("unexplained", f"deal played at {level_char(level)}, mirrored at {level_char(deal.level)}")
        # The levels by the rules in use (the server's own with the platform preset); the
        # next deal's messages show where the server differs.
        own_deal = None if self._previous is None else self._previous[0] & 1
        scored = score_deal(self.levels, level, order, rules=self.rules, failures=self._failures, deal_team=own_deal)
        self._scored = scored
        self._failures = scored.failures
        self._set_levels(scored.levels)
        self._previous = order

    def _new_game(self) -> None:
        self._previous, self._scored, self._failures = None, None, (0, 0)
        self._set_levels((2, 2))

    def _game_result(self, msg: Mapping[str, Any]) -> None:
        ranks = field(msg, "victoryRank")
        levels = (parse_level(ranks[0]), parse_level(ranks[1]))
        if levels != self.levels:
            self.audit.depart("unexplained", f"final levels {_chars(levels)}, mirrored {_chars(self.levels)}")
        self._set_levels(levels)
        self.game_over = True

    _NOTIFY = {
        "beginning": _beginning,
        "anti-tribute": _anti,
        "tribute": _tribute,
        "back": _back,
        "play": _play,
        "episodeOver": _episode_over,
        "gameResult": _game_result,
        "gameOver": lambda self, msg: None,
    }


def _chars(levels: Sequence[int]) -> str:
    return "/".join(level_char(level) for level in levels)


def _name(card: int) -> str:
    return CARD_NAMES[card]
