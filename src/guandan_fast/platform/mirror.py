"""The mirror: one seat's view of an OpenGuanDan game, kept as a :class:`~guandan_fast.Deal`.

Feed it every message the seat receives (:meth:`Mirror.feed`) and :attr:`Mirror.deal`
follows the server: the own hand, every play, tribute, anti-tribute and return, 接风, the
finishing order and the levels. The other seats' hands are unknown: the deal holds a
placeholder world (:mod:`~guandan_fast.platform.placeholders`).

The server is taken at its word wherever it decides: levels from ``curRank``/``selfRank``/
``oppoRank``, tribute pairing (equal tributes by arrival order too), returns and leader as
notified, whose turn it is and the own hand from the ``act`` it sends. Each known
departure from the rules the mirror plays (``Rules.openguandan()`` by default; the shared
PROTOCOL.md lists them) is counted in :attr:`Mirror.departures` under one of
:data:`~guandan_fast.platform.DEPARTURES` and logged; anything else that disagrees is
counted as ``"unexplained"`` (a warning).

A message the mirror cannot read raises :class:`ProtocolError`. When it cannot follow
the deal any more (such a message, or a position no rule reaches) it says why in
:attr:`Mirror.lost`, once, in the log; the next ``play`` request rebuilds the position
from the request itself (a stand-in, :mod:`~guandan_fast.platform.standin`), and
:meth:`Mirror.answer_deal` always gives a deal to answer on when one can be made.
"""

from __future__ import annotations

import logging
from collections import ChainMap, Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from ..engine.cards import CARD_NAMES, level_char, parse_card, parse_level
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.rules import Rules
from ..engine.scoring import DealScore, score_deal, team_of
from ..engine.tribute import natural_order, who_pays
from ..platform import placeholders, standin
from ..search.infoset import Unseen
from .audit import Audit
from .messages import PASS, ROOM_REPLIES, ProtocolError, field, read_actions, read_cards, read_seat, reading, short

__all__ = ["Mirror"]

log = logging.getLogger("guandan_fast.platform")

#: The notify stages that change the current deal (a fault in one loses the deal).
_DEAL_STAGES = frozenset({"anti-tribute", "tribute", "back", "play"})
#: The deal phase an ``act`` stage asks for.
_PHASE_OF = {"play": "play", "tribute": "tribute", "back": "return"}


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
        #: Why the mirror stopped following the current deal (None while it follows).
        self.lost: str | None = None
        #: How many times the mirror rebuilt its deal from a ``play`` request.
        self.resyncs = 0
        self._deal: Deal | None = None
        self._view: Deal | None = None  # the deal shown while the seat answers a simultaneous request
        self._pending: Mapping[str, Any] | None = None
        self._previous: list[int] | None = None  # the previous deal's finishing order in this game
        self._scored: DealScore | None = None  # the previous deal scored by the rules in use
        self._failures = (0, 0)
        self._played = Hand()  # every card played in this deal, as notified
        self._leader_known = True  # False once the deal was rebuilt: its first leader is the first to play
        self._tie = False  # the tribute was paired by the server's arrival order

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
        return self._need_deal().unseen(self._own_seat())

    def observation(self) -> Mapping[str, Any]:
        """:meth:`Deal.observation` of this seat; while an ``act`` is pending, that of
        :meth:`answer_deal`, with the server's ``actionList``/``indexRange`` (an answer
        indexes that list) — or the ``act`` message itself when no deal can be made."""
        msg = self._pending
        if msg is None:
            return self._need_deal().observation(self._own_seat())
        deal = self.answer_deal(msg)
        if deal is None:
            return dict(msg)
        actions = msg["actionList"]
        answer = {"actionList": [list(a) for a in actions], "indexRange": len(actions) - 1}
        # typeshed's ChainMap takes MutableMappings; it writes to the first map only (answer)
        return ChainMap(answer, deal.observation(self._own_seat()))  # type: ignore[arg-type]

    def in_step(self, msg: Mapping[str, Any]) -> bool:
        """Whether the ``act`` message ``msg`` asks what the mirrored deal asks: this seat
        to act in the phase of the request (the agent answers on :attr:`deal` itself)."""
        deal, stage = self.deal, msg.get("stage")
        return (
            self.lost is None and deal is not None and deal.to_act == self.seat and isinstance(stage, str)
            and deal.phase == _PHASE_OF.get(stage) and not self.off_rules(msg)
        )

    def answer_deal(self, msg: Mapping[str, Any]) -> Deal | None:
        """The deal on which this seat answers the ``act`` message ``msg``: the mirrored
        deal when it is in step, else a stand-in built from the message (None when the
        message fits no position of the rules)."""
        if self.in_step(msg):
            return self.deal
        if self.seat is None:
            return None
        try:
            if msg.get("stage") == "play":
                deal = self._deal
                finished = deal.finish_order if deal is not None else []
                return standin.play_stand_in(msg, self.seat, self.rules, self.levels, self._played, finished,
                                             deal_team=self._deal_team(), failures_at_a=self._failures)
            return standin.card_stand_in(msg, self.seat, self.rules, self.levels, failures_at_a=self._failures)
        except ProtocolError as error:
            log.info("seat %s: no stand-in deal for this request: %s", self.seat, error)
            return None

    def off_rules(self, msg: Mapping[str, Any]) -> bool:
        """Whether a ``play`` request is one the rules would not make, answered with the
        server's first entry (its PASS): to this seat while it is out, while its own play
        stands unbeaten, or out of turn with nothing but PASS offered (the server's
        turn order with seats out; counted when the answer is notified)."""
        deal = self._deal
        if msg.get("stage") != "play" or deal is None or self.seat is None:
            return False
        if not deal.hands[self.seat] or (msg.get("greaterPos") == self.seat and bool(msg.get("greaterAction"))):
            return True
        actions = msg.get("actionList")
        only_pass = isinstance(actions, Sequence) and len(actions) == 1 and _is_pass(actions[0])
        return only_pass and self.lost is None and deal.to_act != self.seat

    def _own_seat(self) -> int:
        """This mirror's seat; ProtocolError while no message has named it."""
        seat = self.seat
        if seat is None:
            raise ProtocolError("the seat is unknown: no 'beginning' message yet")
        return seat

    def _need_deal(self) -> Deal:
        deal = self.deal
        if deal is None or self.seat is None:
            raise ProtocolError("no deal yet: the mirror has not received a 'beginning' message")
        return deal

    def _lose(self, reason: str) -> None:
        if self.lost is None:
            log.warning(
                "seat %s: the mirror cannot follow the server (%s): answering from the server's actionList"
                " on a deal rebuilt from each request", self.seat, reason,
            )
        self.lost = reason

    # -- messages -----------------------------------------------------------------------------
    def feed(self, msg: Mapping[str, Any], *, check: bool = True) -> None:
        """Take one message the seat received. ``check=False`` skips comparing an ``act``'s
        ``actionList`` with the deal's legal actions (call :meth:`check_act` later).
        ProtocolError for a message that cannot be read (a fault in a message of the deal
        also stops the mirror following it: :attr:`lost`)."""
        if not isinstance(msg, Mapping):
            raise ProtocolError(f"a server message is a JSON object, not {type(msg).__name__}")
        kind, stage = msg.get("type"), msg.get("stage")
        if not isinstance(kind, str) or not isinstance(stage, (str, type(None))):
            raise ProtocolError(f"a server message's type and stage are strings, not {short(kind)} and {short(stage)}")
        self._view = None
        try:
            with reading(msg):
                if kind == "notify":
                    self._pending = None
                    handler = None if stage is None else self._NOTIFY.get(stage)
                    if handler is None:
                        raise ProtocolError(f"notify of unknown stage {short(stage)}")
                    handler(self, msg)
                elif kind == "act":
                    self._act(msg, check)
                else:
                    self._other(kind, msg)
        except ProtocolError as error:
            if kind == "notify" and stage == "beginning":
                self._deal = None  # the previous deal is over; this one could not be read
                self._lose(str(error))
            elif self._deal is not None and (kind == "act" or stage in _DEAL_STAGES):
                self._lose(str(error))
            raise

    def _other(self, kind: str, msg: Mapping[str, Any]) -> None:
        """Messages outside the game: room replies and the server's internal codes."""
        if kind in ROOM_REPLIES:
            data = msg.get("data")
            if isinstance(data, Mapping) and isinstance(data.get("roomId"), int):
                self.room = data["roomId"]
        elif kind == "GET_ROOMPLAYER":
            if self._deal is not None and not self.game_over:
                self.audit.depart("lost_wake_up", "a room query was needed to release a stuck message")
        elif kind != "tribute":  # the server's internal tribute codes: nothing to read
            raise ProtocolError(f"unknown message type {short(kind)}")

    # -- the deal's start ---------------------------------------------------------------------
    def _beginning(self, msg: Mapping[str, Any]) -> None:
        seat = read_seat(field(msg, "myPos"))
        if self.seat is None:
            self.seat = self.audit.seat = seat
        elif seat != self.seat:
            raise ProtocolError(f"the mirror follows seat {self.seat}, the server dealt to seat {seat}")
        own = read_cards(field(msg, "handCards"))
        if len(own) != 27:
            raise ProtocolError(f"a beginning hand holds 27 cards, not {len(own)}")
        level = parse_level(field(msg, "levelCard"))
        scored = self._scored
        if self.game_over or (self._previous is not None and level == 2):
            # A new game (on the server's rules a deal after a played one is never at 2: its
            # first team goes up, even from a fall at A — fail_at_a_then_up).
            if scored is not None and scored.winner is None:
                self.audit.depart("unexplained", "the server started a new game; by the rules nobody won the last deal")
            self.game_over = False
            self._new_game()
        elif scored is not None and scored.winner is not None:
            self.audit.depart("both_teams_at_a", f"by the rules team {scored.winner} won the match; the server deals again")
        self._played = Hand()
        self._leader_known = True
        self._tie = False
        self.lost = None
        self.tribute = {"kind": "none", "payments": [], "returns": [], "anti": []}
        self._deal = self._start(own, level, anti=())

    def _start(self, own: Hand, level: int, anti: Sequence[int], order: Sequence[int] | None = None,
               rules: Rules | None = None) -> Deal:
        """A fresh deal: the own hand, placeholders for the others (both ``HR`` with the
        seats in ``anti`` when they refuse tribute, else away from the payers); ``order``:
        the order the payers' tributes arrived in, when it matters."""
        payers = () if self._previous is None else who_pays(self._previous)[0]
        hands = placeholders.split_unseen(own, self._own_seat(), payers, anti)
        rules = self.rules if rules is None else rules
        if self._previous is None:
            # The server's first deal is led by seat 0 (the leader is checked at the first play).
            return Deal.start(hands, level, leader=0, rules=rules, team_levels=self.levels)
        return Deal.start(hands, level, previous_finish=self._previous, rules=rules, team_levels=self.levels,
                          tribute_order=order, failures_at_a=self._failures)

    def _anti(self, msg: Mapping[str, Any]) -> None:
        seats = [read_seat(s) for s in field(msg, "antiPos")]
        deal = self._deal_to_follow()
        if deal is None:
            return
        self.tribute["kind"] = "anti"
        self.tribute["anti"] = seats
        self._deal = self._start(deal.hands[self._own_seat()], deal.level, anti=seats)
        if self._deal.tribute["kind"] != "anti":
            self.audit.depart("unexplained", f"anti-tribute by seats {seats} which the rules do not give")

    def _tribute(self, msg: Mapping[str, Any]) -> None:
        results = [(read_seat(p), read_seat(r), parse_card(c)) for p, r, c in field(msg, "result")]
        self.tribute["kind"] = "single" if len(results) == 1 else "double"
        self.tribute["payments"] = results
        before = self._deal_to_follow()
        if before is None:
            return
        try:
            deal, kind = self._paid_as_notified(before, results)
        except (KeyError, ValueError) as error:
            self.audit.depart("unexplained", f"tribute {results} cannot be followed: {error}")
            self._deal = self._rebuilt(before, results, [])
            return
        if kind is not None:
            payer, receiver = before.tribute["payers"][0], before.tribute["receivers"][0]
            self.audit.depart(kind, f"server {results}; by the rules seat {payer} pays seat {receiver}")
            self._tie = kind == "tribute_tie_arrival_order"
        self._deal = deal

    def _paid_as_notified(self, before: Deal, results: list[tuple[int, int, int]]) -> tuple[Deal, str | None]:
        """The deal after the tribute the server notified, and the departure it took: the
        rules' pairing; else, for two tributes, the server's — equal cards by arrival order
        (the other payer first), other cards compared by natural rank."""
        paid = {payer: card for payer, _, card in results}
        seat = self._own_seat()
        own = before.hands[seat]
        candidates: list[tuple[Sequence[int] | None, Rules | None, str | None]] = [(None, None, None)]
        if len(results) == 2 and before.phase == "tribute":
            payers = before.tribute["payers"]
            by_rank = replace(self.rules, double_tribute_by_rank=True)
            tie = natural_order(results[0][2]) == natural_order(results[1][2])
            arrival = "tribute_tie_arrival_order" if tie else "tribute_natural_rank"
            candidates += [
                (payers[::-1], None, arrival), (None, by_rank, "tribute_natural_rank"),
                (payers[::-1], by_rank, arrival),
            ]
        error: ValueError | None = None
        for order, rules, kind in candidates:
            deal = before.clone() if kind is None else self._start(own, before.level, (), order, rules)
            try:
                deal = placeholders.arrange_tribute(deal, seat, paid)
                while deal.phase == "tribute":
                    deal.step(["tribute", "tribute", [CARD_NAMES[paid[deal.current_seat]]]])
            except (KeyError, ValueError) as failed:
                error = error or ValueError(str(failed))
                continue
            if sorted(deal.tribute["payments"]) == sorted(results):
                return deal, kind
        raise error or ValueError("no pairing of the rules gives the server's")

    def _back(self, msg: Mapping[str, Any]) -> None:
        results = [(read_seat(r), read_seat(p), parse_card(c)) for r, p, c in field(msg, "result")]
        self.tribute["returns"] = results
        before = self._deal_to_follow()
        if before is None:
            return
        if before.phase == "play" and not before.tribute["payments"]:  # rebuilt after a departure: returns by hand
            self._deal = self._rebuilt(before, [], results)
            return
        back = {returner: card for returner, _, card in results}
        # the tribute a receiver was just given stays with it (the rules may forbid returning it)
        received = {receiver: Hand.from_indices([card]) for _, receiver, card in before.tribute["payments"]}
        deal, seat = before.clone(), self._own_seat()
        try:
            while deal.phase == "return":
                returner = deal.current_seat
                deal = placeholders.give(deal, seat, returner, Hand.from_indices([back[returner]]), received)
                deal.step(["back", "back", [CARD_NAMES[back[returner]]]])
        except (KeyError, ValueError) as error:
            self.audit.depart("unexplained", f"return {results} cannot be followed: {error}")
            deal = self._rebuilt(before, [], results)
        self._deal = deal

    def _rebuilt(self, deal: Deal, payments: Sequence[tuple[int, int, int]], returns: Sequence[tuple[int, int, int]]) -> Deal:
        """The deal restarted in the play phase with the server's card movements applied
        (when the rules cannot reproduce them); the leader is fixed at the first play."""
        hands, seat = list(deal.hands), self._own_seat()
        for giver, taker, card in [*payments, *returns]:
            hands = placeholders.swapped_in(hands, seat, giver, Hand.from_indices([card]), {})
            hands[giver] = hands[giver].remove([CARD_NAMES[card]])
            hands[taker] = hands[taker].add([CARD_NAMES[card]])
        self._leader_known = False
        return _restarted(deal, hands, 0)

    def _deal_to_follow(self) -> Deal | None:
        """The deal a notify of the deal applies to; None while the mirror is lost (the
        next request resyncs it)."""
        self._need_deal()
        return None if self.lost is not None else self._deal

    # -- play -----------------------------------------------------------------------------------
    def _play(self, msg: Mapping[str, Any]) -> None:
        seat = read_seat(field(msg, "curPos"))
        action = field(msg, "curAction")
        if isinstance(action, (str, bytes)) or not isinstance(action, Sequence) or len(action) != 3:
            raise ProtocolError(f"malformed curAction {short(action)}")
        passing = action[0] == "PASS"
        played = Hand() if passing else read_cards(action[2])
        deal = self._deal_to_follow()
        if deal is None:
            self._played = self._played.add(played)
            return
        if deal.phase in ("tribute", "return"):
            self.audit.depart("unexplained", f"play by seat {seat} before the tribute was settled")
            deal = self._rebuilt(deal, [], [])
        last_seat = msg.get("greaterPos", -1)
        if deal.phase == "play" and not deal.hands[seat]:
            self.audit.depart("act_to_out_seat", f"seat {seat} is out and was asked to act; it answered {short(list(action))}")
            if passing:
                return
            raise ProtocolError(f"seat {seat} is out but played {short(list(action))}")
        if last_seat == seat and deal.phase == "play":
            # The trick was over, but the server had the unbeaten player answer its own play.
            self.audit.depart("trick_end_skip", f"seat {seat} was asked to beat its own play and answered {short(list(action))}")
            if passing:
                return
        elif deal.to_act != seat or (passing and not deal.following):
            deal = self._off_turn(deal, seat, action)
            if deal is None:
                return
        elif last_seat != deal.last_seat:
            self.audit.depart("unexplained", f"seat {seat} answered seat {last_seat}'s play; the deal's is seat {deal.last_seat}'s")
        if passing:
            deal.step(PASS)
        else:
            deal = self._held_by(deal, seat, played)
            try:
                deal.step(action)
            except (TypeError, ValueError) as error:
                # The server does not check what a client sends: take the cards as played.
                self.audit.depart("unexplained", f"seat {seat} played {short(list(action))}, which the rules refuse: {error}")
                deal = self._after_refused_play(deal, seat, played)
            self._played = self._played.add(played)
        self._deal = deal

    def _held_by(self, deal: Deal, seat: int, cards: Hand) -> Deal:
        """``deal`` where ``seat`` holds ``cards`` (a placeholder swap keeping what this seat
        knows; when what it knows cannot be kept, a swap without it)."""
        own = self._own_seat()
        try:
            return placeholders.give(deal, own, seat, cards, placeholders.known(deal, own))
        except ValueError as error:
            log.info("seat %s: %s; swapping without the known cards", own, error)
        try:
            return placeholders.give(deal, own, seat, cards)
        except ValueError as error:
            raise ProtocolError(f"seat {seat} played {cards}: {error}") from None

    def _off_turn(self, deal: Deal, seat: int, action: Sequence[Any]) -> Deal | None:
        """A play from a seat the deal did not expect (the server's turn order is taken):
        the deal ready for the action, or None when the action changes nothing."""
        if deal.phase != "play":
            self.audit.depart("unexplained", f"seat {seat} acted {short(list(action))} after the deal ended")
            return None
        if action[0] == "PASS":
            if not deal.following:
                self.audit.depart("trick_end_skip", f"seat {seat} passed where seat {deal.to_act} leads a new trick")
            else:
                self.audit.depart("unexplained", f"seat {seat} passed; the deal waits for seat {deal.to_act}")
            return None
        if deal.following:
            self.audit.depart("unexplained", f"seat {seat} played {short(list(action))}; the deal waits for seat {deal.to_act}")
        elif not self._played:  # the deal's first play: the leader after the tribute
            if self._leader_known:
                kind = "unexplained"
                if self.tribute["kind"] == "double":
                    kind = "tribute_tie_arrival_order" if self._tie else "tribute_natural_rank"
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
        leader = _next_holding(hands, seat)
        try:
            return _restarted(deal, hands, leader, finished)
        except ValueError as error:
            raise ProtocolError(f"seat {seat} played {cards}, which ends the deal against the rules: {error}") from None

    def _led_by(self, deal: Deal, seat: int) -> Deal:
        """The deal restarted from the current hands with ``seat`` to lead a new trick (the
        server's turn order, which the rules cannot reach by a step)."""
        return _restarted(deal, deal.hands, seat, deal.finish_order)

    # -- act ----------------------------------------------------------------------------------
    def _act(self, msg: Mapping[str, Any], check: bool) -> None:
        self.acts += 1
        stage = field(msg, "stage")
        read_actions(msg)
        if stage not in _PHASE_OF:
            raise ProtocolError(f"act of unknown stage {short(stage)}")
        self._pending = msg
        self._server_levels(msg)
        deal = self._deal
        if stage == "play":
            self._play_request(deal, msg)
        elif self.lost is None and deal is not None and deal.phase == _PHASE_OF[stage] and deal.to_act != self.seat:
            # Both payers (receivers) are asked at once; the deal takes them in turn:
            # show a copy where the other one has made a placeholder choice.
            view = deal.clone()
            view.step(0)
            self._view = view
        if check:
            self.check_act(msg)

    def _play_request(self, deal: Deal | None, msg: Mapping[str, Any]) -> None:
        """A ``play`` request: the server's turn, move to beat and hand of this seat taken
        (the deal rebuilt from the request where the mirror has them otherwise)."""
        if self.off_rules(msg):
            # Asked to beat its own play, asked while out, or asked to pass out of turn:
            # counted when the answer is notified; the server's PASS is the answer.
            log.debug("seat %s: a request the rules would not make: %s", self.seat, msg["actionList"][:1])
            return
        if self.seat is None:
            raise ProtocolError("a play request before any 'beginning' message: the seat is unknown")
        seat = self.seat
        why: str | None
        if deal is None:
            why = self.lost or "no deal to follow"
        elif self.lost is not None:
            why = self.lost
        else:
            if deal.phase == "play" and deal.to_act != seat and not self._leader_known and not self._played:
                deal = self._deal = self._led_by(deal, seat)  # a rebuilt deal learns its leader here
                self._leader_known = True
            why = self._out_of_step(deal, msg)
            if why is None:
                return
            if self._reopened(deal, seat, msg):
                # The trick was over, its winner passed on its own play, and the server asks
                # this seat again to beat it (a second chance the rules do not give): the
                # deal is rebuilt from the request, as the server's turn order says.
                self.audit.depart("trick_end_skip", f"seat {seat} asked again to beat seat {deal.to_act}'s play, which ended the trick")
            else:
                self.audit.depart("unexplained", why)
        finished = [] if deal is None else deal.finish_order
        try:
            self._deal = standin.play_stand_in(msg, seat, self.rules, self.levels, self._played, finished,
                                               deal_team=self._deal_team(), failures_at_a=self._failures)
        except ProtocolError as error:
            self._lose(f"{why}; no position fits the request: {error}")
            return
        self.resyncs += 1
        self.lost = None
        self._leader_known = True
        log.info("seat %s: the deal rebuilt from the server's request (%s)", seat, why)

    @staticmethod
    def _reopened(deal: Deal, seat: int, msg: Mapping[str, Any]) -> bool:
        """Whether the play request ``msg`` asks ``seat``, the next seat in play after the
        one the deal gives the lead to, to beat the play with which that seat won the trick
        just ended, its own hand as the deal has it: the server's turn order with two seats
        out (the unbeaten player asked about its own play, then the next seat again).
        Anything else, a malformed request included, is not (the caller counts it as
        unexplained)."""
        leader = deal.to_act
        if deal.phase != "play" or deal.following or leader is None or msg.get("greaterPos") != leader:
            return False
        after = _next_holding(deal.hands, leader)
        beat = msg.get("greaterAction")
        if after != seat or not isinstance(beat, list) or len(beat) != 3 or not all(isinstance(x, str) for x in beat[:2]):
            return False
        won = next((action for who, action in reversed(deal.history) if who == leader and action[0] != "PASS"), None)
        try:
            return (
                won is not None and read_cards(beat[2]) == read_cards(won[2])
                and read_cards(field(msg, "handCards")) == deal.hands[seat]
            )
        except ProtocolError:
            return False

    def _out_of_step(self, deal: Deal, msg: Mapping[str, Any]) -> str | None:
        """How the play request ``msg`` differs from ``deal`` (turn, own hand, move to
        beat), or None when it asks what the deal asks."""
        seat = self._own_seat()
        if deal.phase != "play" or deal.to_act != seat:
            return f"act to seat {seat}, the deal waits for seat {deal.to_act} ({deal.phase})"
        server_hand = read_cards(field(msg, "handCards"))
        if server_hand != deal.hands[seat]:
            return f"server hand {server_hand}, mirrored hand {deal.hands[seat]}"
        beat = standin.last_move(msg, seat)
        last = deal.last_move if deal.following else None
        if (beat is None) != (last is None) or (
            beat is not None and last is not None and (beat[0] != deal.last_seat or read_cards(beat[1][2]) != last.cards)
        ):
            return f"the server's move to beat is {beat}, the deal's {last} by seat {deal.last_seat}"
        return None

    def check_act(self, msg: Mapping[str, Any]) -> None:
        """Compare an ``act``'s ``actionList`` with the deal's legal actions (as sets) and
        count the differences by class (:data:`MOVE_LIST_CLASSES`, tribute and return
        rules). A diagnostic: a comparison that fails is logged, never raised."""
        try:
            with reading(msg):
                deal = self.deal
                if deal is not None and self.in_step(msg):
                    self.audit.compare_act(deal, msg)
        except ProtocolError as error:
            log.warning("seat %s: the act message could not be compared with the deal: %s", self.seat, error)

    # -- levels and the deal's end --------------------------------------------------------------
    def _server_levels(self, msg: Mapping[str, Any]) -> None:
        """Take the levels of an ``act``; the first act of a deal is compared with the
        levels the rules gave after the previous deal."""
        if "selfRank" not in msg:
            return
        mine, theirs = parse_level(msg["selfRank"]), parse_level(field(msg, "oppoRank"))
        levels = (mine, theirs) if self._own_seat() & 1 == 0 else (theirs, mine)
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
        level = parse_level(field(msg, "curRank"))
        deal = self._deal
        ours = [] if deal is None else deal.finish_order
        self.finish_orders.append((order, ours))
        if self.lost is None and deal is not None:
            # in a double down the two losers' order is no information (both count as last)
            same = ours[:2] == order[:2] and set(order) == {0, 1, 2, 3} if ours[1:2] == [ours[0] ^ 2] else ours == order
            if not deal.done or not same:
                self.audit.depart("unexplained", f"server finishing order {order}, the deal's {ours} ({deal.phase})")
            if level != deal.level:
                self.audit.depart("unexplained", f"deal played at {level_char(level)}, mirrored at {level_char(deal.level)}")
        # The levels by the rules in use (the server's own with the platform preset); the
        # next deal's messages show where the server differs.
        scored = score_deal(self.levels, level, order, rules=self.rules, failures=self._failures,
                            deal_team=self._deal_team())
        self._scored = scored
        self._failures = scored.failures
        self._set_levels(scored.levels)
        self._previous = order

    def _deal_team(self) -> int | None:
        """The team whose level the current deal is played at: the previous deal's first."""
        return None if self._previous is None else team_of(self._previous[0])

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

    _NOTIFY: ClassVar[dict[str, Callable[[Mirror, Mapping[str, Any]], None]]] = {
        "beginning": _beginning,
        "anti-tribute": _anti,
        "tribute": _tribute,
        "back": _back,
        "play": _play,
        "episodeOver": _episode_over,
        "gameResult": _game_result,
        "gameOver": lambda self, msg: None,
    }


def _next_holding(hands: Sequence[Hand], seat: int) -> int:
    """The next seat after ``seat`` in turn order that holds cards (``seat`` itself when no
    other does): who plays after it with seats out, as the play state's rule."""
    return next(other for other in ((seat + step) % 4 for step in (1, 2, 3, 4)) if hands[other] or other == seat)


def _is_pass(entry: object) -> bool:
    return isinstance(entry, Sequence) and not isinstance(entry, (str, bytes)) and len(entry) == 3 and entry[0] == "PASS"


def _chars(levels: Sequence[int]) -> str:
    return "/".join(level_char(level) for level in levels)


def _restarted(deal: Deal, hands: Sequence[Hand], leader: int, finished: Sequence[int] | None = None) -> Deal:
    """``deal`` begun again in the play phase from ``hands`` with ``leader`` to lead and
    ``finished`` out, keeping its rules, levels and match (its level's team, failures at A)."""
    return Deal.start(
        hands, deal.level, leader=leader, rules=deal.rules, team_levels=deal.team_levels, finished=finished,
        deal_team=deal.deal_team, failures_at_a=deal.failures_at_a,
    )
