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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ..engine.cards import (
    BIG_JOKER,
    CARD_NAMES,
    NUM_CARDS,
    card_power,
    level_char,
    parse_card,
    parse_level,
    rank_of,
    wildcard,
)
from ..engine.deal import Deal
from ..engine.scoring import DealScore, score_deal
from ..engine.rules import Rules
from ..engine.hand import Hand
from ..search.infoset import Unseen
from ..engine.kinds import platform_row
from ..engine.moves import MoveType
from ..engine.tribute import natural_order, who_pays

__all__ = ["DEPARTURES", "MOVE_LIST_CLASSES", "Mirror", "ProtocolError"]

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
    "trick_end_skip",  # the unbeaten player was asked to beat its own play
    "tribute_one_suit",  # of two top cards in different suits only one was offered
    "tribute_tie_arrival_order",  # equal double tribute: arrival order decided the first player's card
    "tribute_natural_rank",  # double tribute: cards compared by natural rank, its leader rule
    "return_without_level_cards",  # return list without level cards or the card just received
    "failing_at_a",  # the server sent a team at A back to 2
    "both_teams_at_a",  # a team at A did not win: the deal was not played at its level
    "unexplained",  # anything else: logged with the details
)

#: Room bookkeeping replies that carry nothing for the game.
_ROOM_REPLIES = frozenset({"CREATE_ROOM", "JOIN_ROOM", "JOIN"})
_FULL_DECK = Hand.from_indices([i for i in range(NUM_CARDS) for _ in range(2)])
_PASS = ("PASS", "PASS", "PASS")
_PASS_KEY = (0, 0, 0, 0)


class ProtocolError(ValueError):
    """A server message the mirror cannot read (not JSON-like, missing or malformed fields)."""


@contextmanager
def _reading(msg: Mapping[str, Any]) -> Iterator[None]:
    """Turn what a field of the wrong shape raises while reading ``msg`` into a ProtocolError."""
    try:
        yield
    except ProtocolError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as error:
        what = f"{msg.get('type')!r}/{msg.get('stage')!r}"
        raise ProtocolError(f"malformed {what} message: {type(error).__name__}: {error}") from None


def _field(msg: Mapping[str, Any], name: str) -> Any:
    try:
        return msg[name]
    except KeyError:
        raise ProtocolError(f"{msg.get('type')!r}/{msg.get('stage')!r} message without {name!r}") from None


def _cards(names: object) -> Hand:
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ProtocolError(f"expected a list of cards, not {names!r}")
    try:
        return Hand(names)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"bad card list {names!r}: {error}") from None


def _seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError(f"expected a seat 0-3, not {value!r}")
    return value


class Mirror:
    """One seat's view of the game, in step with the server (see the module docstring).

    ``seat``: the seat mirrored (None: taken from the first ``beginning`` message).
    ``rules``: the rules the mirrored deal follows (default ``Rules.openguandan()``).
    """

    def __init__(self, seat: int | None = None, rules: Rules | None = None) -> None:
        self.seat = None if seat is None else _seat(seat)
        self.rules = Rules.openguandan() if rules is None else rules
        self.departures: Counter[str] = Counter()
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

    def _depart(self, kind: str, detail: str, count: int = 1) -> None:
        self.departures[kind] += count
        level = logging.WARNING if kind == "unexplained" else logging.INFO
        log.log(level, "seat %s: server departure %s: %s", self.seat, kind, detail)

    # -- messages -----------------------------------------------------------------------------
    def feed(self, msg: Mapping[str, Any], *, check: bool = True) -> None:
        """Take one message the seat received. ``check=False`` skips comparing an ``act``'s
        ``actionList`` with the deal's legal actions (call :meth:`check_act` later)."""
        if not isinstance(msg, Mapping):
            raise ProtocolError(f"a server message is a JSON object, not {type(msg).__name__}")
        kind = msg.get("type")
        self._view = None
        with _reading(msg):
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
        if kind in _ROOM_REPLIES:
            data = msg.get("data")
            if isinstance(data, Mapping) and isinstance(data.get("roomId"), int):
                self.room = data["roomId"]
        elif kind == "GET_ROOMPLAYER":
            if self._deal is not None and not self.game_over:
                self._depart("lost_wake_up", "a room query was needed to release a stuck message")
        elif kind != "tribute":  # the server's internal tribute codes: nothing to read
            raise ProtocolError(f"unknown message type {kind!r}")

    # -- the deal's start ---------------------------------------------------------------------
    def _beginning(self, msg: Mapping[str, Any]) -> None:
        seat = _seat(_field(msg, "myPos"))
        if self.seat is None:
            self.seat = seat
        elif seat != self.seat:
            raise ProtocolError(f"the mirror follows seat {self.seat}, the server dealt to seat {seat}")
        own = _cards(_field(msg, "handCards"))
        level = parse_level(_field(msg, "levelCard"))
        scored = self._scored
        if self.game_over or (self._previous is not None and level == 2):
            # A new game (a deal after a played one is never at 2: the winner goes up).
            if scored is not None and scored.winner is None:
                self._depart("unexplained", "the server started a new game; by the rules nobody won the last deal")
            self.game_over = False
            self._new_game()
        elif scored is not None and scored.winner is not None:
            self._depart("both_teams_at_a", f"by the rules team {scored.winner} won the match; the server deals again")
        self._played = Hand()
        self._leader_known = True
        self.tribute = {"kind": "none", "payments": [], "returns": [], "anti": []}
        self._start(own, level, anti=())

    def _start(self, own: Hand, level: int, anti: Sequence[int]) -> None:
        """A fresh deal: the own hand, placeholders for the others (both ``HR`` with the
        seats in ``anti`` when they refuse tribute, else away from the payers)."""
        seat: int = self.seat  # type: ignore[assignment]
        rest = list(_FULL_DECK.remove(own).indices())
        payers = () if self._previous is None else who_pays(self._previous)[0]
        # big jokers first to the anti-tribute seats, last to the payers otherwise
        jokers = [c for c in rest if c == BIG_JOKER]
        others = [c for c in rest if c != BIG_JOKER]
        hidden = [s for s in range(4) if s != seat]
        if anti:
            order = [s for s in hidden if s in anti] + [s for s in hidden if s not in anti]
        else:
            order = [s for s in hidden if s not in payers] + [s for s in hidden if s in payers]
        cards: dict[int, list[int]] = {s: [] for s in hidden}
        for card in jokers:
            target = next(s for s in order if len(cards[s]) < 27)
            cards[target].append(card)
        for card in others:
            target = next(s for s in hidden if len(cards[s]) < 27)
            cards[target].append(card)
        hands = [own if s == seat else Hand.from_indices(cards[s]) for s in range(4)]
        levels = self.levels
        if self._previous is None:
            # The server's first deal is led by seat 0 (the leader is checked at the first play).
            self._deal = Deal.start(hands, level, leader=0, rules=self.rules, team_levels=levels)
        else:
            self._deal = Deal.start(hands, level, previous_finish=self._previous, rules=self.rules, team_levels=levels)

    def _anti(self, msg: Mapping[str, Any]) -> None:
        seats = [_seat(s) for s in _field(msg, "antiPos")]
        deal = self._need_deal()
        self.tribute["kind"] = "anti"
        self.tribute["anti"] = seats
        self._start(deal.hands[self.seat], deal.level, anti=seats)  # type: ignore[index]
        if self._deal.tribute["kind"] != "anti":  # type: ignore[union-attr]
            self._depart("unexplained", f"anti-tribute by seats {seats} which the rules do not give")

    def _tribute(self, msg: Mapping[str, Any]) -> None:
        results = [(_seat(p), _seat(r), parse_card(c)) for p, r, c in _field(msg, "result")]
        self.tribute["kind"] = "single" if len(results) == 1 else "double"
        self.tribute["payments"] = results
        before = self._need_deal()
        paid = {payer: card for payer, _, card in results}
        try:
            deal = self._arrange_tribute(before.clone(), paid)
            while deal.phase == "tribute":
                payer: int = deal.to_act  # type: ignore[assignment]
                deal.step(["tribute", "tribute", [_name(paid[payer])]])
        except (KeyError, ValueError) as error:
            self._depart("unexplained", f"tribute {results} cannot be followed: {error}")
            self._deal = self._rebuilt(before, results, [])
            return
        ours = sorted(deal.tribute["payments"])
        if ours != sorted(results):
            cards = [card for _, _, card in results]
            if len(cards) == 2 and natural_order(cards[0]) == natural_order(cards[1]):
                self._depart("tribute_tie_arrival_order", f"server {results}, rules {ours}")
            else:
                self._depart("tribute_natural_rank", f"server {results}, rules {ours}")
            deal = self._rebuilt(before, results, [])
        self._deal = deal

    def _back(self, msg: Mapping[str, Any]) -> None:
        results = [(_seat(r), _seat(p), parse_card(c)) for r, p, c in _field(msg, "result")]
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
                deal = self._give(deal, returner, Hand.from_indices([back[returner]]), received)
                deal.step(["back", "back", [_name(back[returner])]])
        except (KeyError, ValueError) as error:
            self._depart("unexplained", f"return {results} cannot be followed: {error}")
            deal = self._rebuilt(before, [], results)
        self._deal = deal

    def _rebuilt(self, deal: Deal, payments: Sequence[tuple[int, int, int]], returns: Sequence[tuple[int, int, int]]) -> Deal:
        """The deal restarted in the play phase with the server's card movements applied
        (when the rules cannot reproduce them); the leader is fixed at the first play."""
        hands = list(deal.hands)
        for giver, taker, card in [*payments, *returns]:
            hands = self._swapped_in(hands, giver, Hand.from_indices([card]), {})
            hands[giver] = hands[giver].remove([_name(card)])
            hands[taker] = hands[taker].add([_name(card)])
        self._leader_known = False
        return Deal.start(hands, deal.level, leader=0, rules=self.rules, team_levels=deal.team_levels)

    # -- placeholder world ----------------------------------------------------------------------
    def _known(self, deal: Deal) -> dict[int, Hand]:
        """The cards this seat knows to be in another hand (tribute, return, anti-tribute
        jokers): a placeholder swap must leave them where they are, or the deal would
        contradict the seat's own knowledge (``Deal.unseen`` and sampling would fail)."""
        try:
            known = deal.unseen(self.seat).known
        except ValueError:  # a stand-in deal the server's word already made inconsistent
            return {}
        return {s: hand for s, hand in enumerate(known) if s != self.seat and hand}

    def _give(self, deal: Deal, seat: int, cards: Hand, reserved: Mapping[int, Hand] | None = None) -> Deal:
        """``deal`` with hidden ``seat`` holding ``cards`` (see :meth:`_swapped_in`)."""
        hands = list(deal.hands)
        if hands[seat].contains(cards):
            return deal
        return deal.with_hands(self._swapped_in(hands, seat, cards, reserved or {}))

    def _swapped_in(self, hands: list[Hand], seat: int, cards: Hand, reserved: Mapping[int, Hand]) -> list[Hand]:
        """``hands`` with hidden ``seat`` holding ``cards``, taken from the other hidden hands
        (never their ``reserved`` cards) in exchange for cards of its own; the own seat's
        hand is never changed (ValueError when that cannot be done)."""
        held = hands[seat]
        if held.contains(cards):
            return hands
        if seat == self.seat:
            raise ValueError(f"the server says seat {seat} holds {cards}, its hand is {held}")
        hands = list(hands)
        keep = _common(held, cards)
        need = list(cards.remove(keep).indices())
        rest = held.remove(keep)
        spare = list(rest.remove(_common(rest, reserved[seat])).indices() if seat in reserved else rest.indices())
        for card in need:
            donor = next((s for s in range(4) if s not in (seat, self.seat) and card in _free(hands[s], reserved.get(s))), None)
            if donor is None or not spare:
                raise ValueError(f"no hidden hand can hold {_name(card)} for seat {seat}")
            back = spare.pop()
            hands[donor] = hands[donor].remove([_name(card)]).add([_name(back)])
            hands[seat] = hands[seat].remove([_name(back)]).add([_name(card)])
        return hands

    def _arrange_tribute(self, deal: Deal, paid: Mapping[int, int]) -> Deal:
        """``deal`` where every payer holds its tribute card and nothing of higher power
        but wildcards (so that paying it is legal), the own hand untouched."""
        reserved = {payer: Hand.from_indices([card]) for payer, card in paid.items()}
        for payer, card in paid.items():
            deal = self._give(deal, payer, reserved[payer], reserved)
        level = deal.level
        wild = wildcard(level)
        hands = list(deal.hands)
        for payer, card in paid.items():
            if payer == self.seat:
                continue
            top = card_power(card, level)
            takers = [s for s in range(4) if s != self.seat and s not in paid]
            for high in [c for c in hands[payer].indices() if c != wild and card_power(c, level) > top]:
                for taker in takers:
                    low = next((c for c in hands[taker].indices() if c != wild and card_power(c, level) <= top), None)
                    if low is not None:
                        break
                else:
                    raise ValueError(f"no hidden hand can take {_name(high)} from seat {payer}")
                hands[taker] = hands[taker].remove([_name(low)]).add([_name(high)])
                hands[payer] = hands[payer].remove([_name(high)]).add([_name(low)])
        return deal.with_hands(hands)

    # -- play -----------------------------------------------------------------------------------
    def _play(self, msg: Mapping[str, Any]) -> None:
        seat = _seat(_field(msg, "curPos"))
        action = _field(msg, "curAction")
        if not isinstance(action, Sequence) or len(action) != 3:
            raise ProtocolError(f"malformed curAction {action!r}")
        passing = action[0] == "PASS"
        deal = self._need_deal()
        if deal.phase in ("tribute", "return"):
            self._depart("unexplained", f"play by seat {seat} before the tribute was settled")
            deal = self._rebuilt(deal, [], [])
        greater = msg.get("greaterPos", -1)
        if deal.phase == "play" and not deal.hands[seat]:
            self._depart("act_to_out_seat", f"seat {seat} is out and was asked to act; it answered {list(action)!r}")
            if passing:
                return
            raise ProtocolError(f"seat {seat} is out but played {list(action)!r}")
        if greater == seat and deal.phase == "play":
            # The trick was over, but the server had the unbeaten player answer its own play.
            self._depart("trick_end_skip", f"seat {seat} was asked to beat its own play and answered {list(action)!r}")
            if passing:
                return
        elif deal.to_act != seat or (passing and not deal.following):
            deal = self._off_turn(deal, seat, action)
            if deal is None:
                return
        elif greater != deal.last_seat:
            self._depart("unexplained", f"seat {seat} answered seat {greater}'s play; the deal's is seat {deal.last_seat}'s")
        if passing:
            deal.step(_PASS)
        else:
            cards = _cards(action[2])
            deal = self._give(deal, seat, cards, self._known(deal))
            try:
                deal.step(action)
            except (TypeError, ValueError) as error:
                # The server does not check what a client sends: take the cards as played.
                self._depart("unexplained", f"seat {seat} played {list(action)!r}, which the rules refuse: {error}")
                deal = self._after_refused_play(deal, seat, cards)
            self._played = self._played.add(cards)
        self._deal = deal

    def _off_turn(self, deal: Deal, seat: int, action: Sequence[Any]) -> Deal | None:
        """A play from a seat the deal did not expect (the server's turn order is taken):
        the deal ready for the action, or None when the action changes nothing."""
        if deal.phase != "play":
            self._depart("unexplained", f"seat {seat} acted {list(action)!r} after the deal ended")
            return None
        if action[0] == "PASS":
            if not deal.following:
                self._depart("trick_end_skip", f"seat {seat} passed where seat {deal.to_act} leads a new trick")
            else:
                self._depart("unexplained", f"seat {seat} passed; the deal waits for seat {deal.to_act}")
            return None
        if deal.following:
            self._depart("unexplained", f"seat {seat} played {list(action)!r}; the deal waits for seat {deal.to_act}")
        elif not self._played:  # the deal's first play: the leader after the tribute
            if self._leader_known:
                kind = "tribute_natural_rank" if self.tribute["kind"] == "double" else "unexplained"
                self._depart(kind, f"seat {seat} leads the deal, the rules give the lead to seat {deal.to_act}")
        else:
            self._depart("trick_end_skip", f"seat {seat} leads where the rules give the lead to seat {deal.to_act}")
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
        stage = _field(msg, "stage")
        actions = _field(msg, "actionList")
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
                self._depart("unexplained", f"act to seat {self.seat}, the deal waits for seat {deal.to_act}")
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
        with _reading(msg):
            self._check_act(msg)

    def off_rules(self, msg: Mapping[str, Any]) -> bool:
        """Whether a ``play`` request is one the rules would not make: to this seat while it
        is out, or while its own play stands unbeaten (the server's trick-end skip)."""
        deal = self._need_deal()
        out = not deal.hands[self.seat]  # type: ignore[index]
        return msg.get("stage") == "play" and (out or (msg.get("greaterPos") == self.seat and bool(msg.get("greaterAction"))))

    def _check_act(self, msg: Mapping[str, Any]) -> None:
        deal = self._need_deal()
        stage = msg["stage"]
        if deal.to_act != self.seat or self.off_rules(msg):
            return
        own = deal.hands[self.seat]  # type: ignore[index]
        if stage == "back":  # the server shows the hand from before the tribute arrived
            own = own.remove([_field(msg, "tribute")])
        if _cards(msg.get("handCards", [])) != own:
            self._depart("unexplained", f"{stage}: server hand {msg.get('handCards')}, mirrored hand {own}")
        level = deal.level
        server = {_action_key(a, level) for a in msg["actionList"]}
        if stage == "play":
            ours = set(deal.legal_moves().rows())
            if deal.following:
                ours.add(_PASS_KEY)
        else:
            ours = {_action_key(a, level) for a in deal.legal_actions()}
        if server == ours:
            return
        extra = server - ours
        if extra:
            self._depart("unexplained", f"server offers {len(extra)} actions the rules forbid, e.g. {_show(extra)}")
        missing = ours - server
        if not missing:
            return
        if stage == "play":
            self._classify_missing(missing, ours, level)
        elif stage == "tribute":
            cards = [key[2] for key in missing]
            if all(card_power(c, level) == card_power(next(iter(server))[2], level) for c in cards):
                self._depart("tribute_one_suit", f"tribute list without {[_name(c) for c in cards]}")
            else:
                self._depart("unexplained", f"tribute list without {[_name(c) for c in cards]}")
        else:
            cards = [key[2] for key in missing]
            received = parse_card(msg.get("tribute", "HR"))
            kind = "return_without_level_cards"
            if any(card != received and (card >= 52 or rank_of(card) != level) for card in cards):
                kind = "unexplained"
            self._depart(kind, f"return list without {[_name(c) for c in cards]}")

    def _classify_missing(self, missing: set[Any], ours: set[Any], level: int) -> None:
        wild = wildcard(level)
        found: Counter[str] = Counter()
        for key in missing:
            kind, rank, once, twice = key
            cards = list(Hand.from_bits(once, twice).indices())
            if kind == MoveType.PAIR and cards == [wild, wild]:
                found["pair_of_wildcards"] += 1
            elif kind == MoveType.STRAIGHT and (MoveType.STRAIGHT_FLUSH, rank, once, twice) in ours:
                found["straight_of_one_suit"] += 1
            elif kind == MoveType.THREE_WITH_TWO and len({rank_of(c) for c in cards if c != wild}) == 1:
                found["full_house_of_one_rank"] += 1
            else:
                found["unexplained"] += 1
                log.warning("seat %s: server omits %s", self.seat, _show([key]))
        for name, count in found.items():
            self._depart(name, f"{count} moves left out of the server's list", 1)

    # -- levels and the deal's end --------------------------------------------------------------
    def _server_levels(self, msg: Mapping[str, Any]) -> None:
        """Take the levels of an ``act``; the first act of a deal is compared with the
        levels the rules gave after the previous deal."""
        if "selfRank" not in msg:
            return
        mine, theirs = parse_level(msg["selfRank"]), parse_level(_field(msg, "oppoRank"))
        levels = (mine, theirs) if self.seat & 1 == 0 else (theirs, mine)  # type: ignore[operator]
        scored, self._scored = self._scored, None
        if scored is not None and scored.winner is None and levels != scored.levels:
            kind = "failing_at_a" if all(a <= b for a, b in zip(levels, scored.levels)) else "unexplained"
            self._depart(kind, f"server levels {_chars(levels)}, by the rules {_chars(scored.levels)}")
        self._set_levels(levels)

    def _set_levels(self, levels: tuple[int, int]) -> None:
        self.levels = levels
        for deal in (self._deal, self._view):
            if deal is not None:
                deal.team_levels = levels

    def _episode_over(self, msg: Mapping[str, Any]) -> None:
        order = [_seat(s) for s in _field(msg, "order")]
        deal = self._need_deal()
        ours = deal.finish_order
        # in a double down the two losers' order is no information (both count as last)
        same = ours[:2] == order[:2] and set(order) == {0, 1, 2, 3} if ours[1:2] == [ours[0] ^ 2] else ours == order
        self.finish_orders.append((order, ours))
        if not deal.done or not same:
            self._depart("unexplained", f"server finishing order {order}, the deal's {ours} ({deal.phase})")
        level = parse_level(_field(msg, "curRank"))
        if level != deal.level:
            self._depart("unexplained", f"deal played at {level_char(level)}, mirrored at {level_char(deal.level)}")
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
        ranks = _field(msg, "victoryRank")
        levels = (parse_level(ranks[0]), parse_level(ranks[1]))
        if levels != self.levels:
            self._depart("unexplained", f"final levels {_chars(levels)}, mirrored {_chars(self.levels)}")
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


def _free(hand: Hand, reserved: Hand | None) -> list[int]:
    """The distinct cards of ``hand`` that are not ``reserved`` for it."""
    return hand.remove(_common(hand, reserved)).distinct() if reserved is not None else hand.distinct()


def _common(a: Hand, b: Hand) -> Hand:
    return Hand.from_bits(a.once & b.once, a.twice & b.twice)


def _action_key(action: Sequence[Any], level: int) -> tuple[Any, ...]:
    if action[0] in ("tribute", "back"):
        return (action[0], 0, parse_card(action[2][0]), 0)
    return platform_row(action, level)


def _show(keys: Any) -> str:
    """A few action keys (see :func:`_action_key`) in words, for log lines."""

    def words(key: tuple[Any, ...]) -> str:
        kind, _, once, twice = key
        if isinstance(kind, str):
            return f"{kind} {CARD_NAMES[once]}"
        return f"{MoveType(kind).name} {Hand.from_bits(once, twice)}"

    return ", ".join(words(key) for key in list(keys)[:3])
