"""One deal of the game (:class:`Deal`, the one owner of a deal's state), as RULES.md §7-9
describe it; a match of deals is :mod:`~guandan_fast.engine.match`, its scoring
:mod:`~guandan_fast.engine.scoring`.

A deal moves through four phases:

``"tribute"``
    the losers of the previous deal pay their highest card (``["tribute", "tribute", [card]]``);
``"return"``
    each receiver gives one card back (``["back", "back", [card]]``);
``"play"``
    the tricks: moves as platform triples, and ``["PASS", "PASS", "PASS"]`` when following;
``"done"``
    the finishing order is known.

Every decision is an action of the seat in :attr:`Deal.to_act`; :meth:`Deal.legal_actions`
lists them all (the complete move list of :func:`~guandan_fast.engine.api.legal_moves`, after a
pass when following), and :meth:`Deal.step` takes one of them as a platform triple, a
:class:`~guandan_fast.engine.moves.Move` or an index into that list. An illegal action raises
ValueError (TypeError for something that is no action at all) and changes nothing.

The modules below this one each hold one job: :mod:`~guandan_fast.engine.state` the play
state in C and the rules of play (turn order, trick end, 接风, the end of the deal; the deal
holds a :class:`~guandan_fast.engine.state.State` and steps it), :mod:`~guandan_fast.engine.rules`
the options (:class:`Rules`), :mod:`~guandan_fast.engine.tribute` the tribute record and its
rules as pure functions, :mod:`~guandan_fast.engine.observation` what a seat sees. The
playouts (:mod:`~guandan_fast.search.playout`, native, without the GIL) are called at call
time; adapters for the competition platform live above, in :mod:`guandan_fast.platform`.

Where RULES.md is silent, this module does what an expert player would expect; each such
choice is written down where it is implemented and summarised here:

* a deal's two losers in a double down (双下) both count as last; :attr:`Deal.finish_order`
  lists them after the winners in turn order, starting with the next seat after the
  second finisher (one order everywhere: deals, previous finishes, native playouts);
* in a single down the "paying side" of anti-tribute (抗贡) is the one payer: it needs both
  ``HR`` in that one hand; in a double down the two payers' hands together;
* the two payers of a double tribute choose one after the other, the loser sitting after
  the first player first; the two receivers return in finishing order;
* a card received as tribute may be returned if it qualifies (unless
  :attr:`Rules.return_received_card` is off);
* a team "plays at A" when its own level is A and the deal is played at A; only such a
  deal can win the match, and (with :attr:`Rules.fail_at_a_limit`) only such a deal can be
  a failure at A. Failures count from the moment the team reached A;
* hands of any size are accepted so that endgames can be set up; an empty hand is a seat
  already out (``finished`` gives their order when more than one hand is empty).
"""

from __future__ import annotations

import operator
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, Union, overload

import numpy as np

from .api import MoveList
from .cards import (
    BIG_JOKER,
    CARD_NAMES,
    NUM_CARDS,
    as_index,
    bounded,
    check_flag,
    check_seat,
    is_integer,
    level_char,
    parse_card,
    parse_level,
    seeded_random,
)
from .hand import CardsLike, Hand, as_hand, card_names
from .moves import PASS, Move
from .notation import PASS_ACTION, StoredAction, card_triple, fresh, reading, stored_triple, stored_triples
from .observation import DealView, Observation, observe, play_row
from .rules import Rules, check_rules
from .scoring import check_failures_at_a, check_finish_order, check_team_levels, finish_outcome, partner_of, team_of
from .state import LONGEST_DEAL, State
from .subclassing import copy_extra_state, extra_state, set_extra_state
from .tribute import NO_TRIBUTE, TributeRecord, hand_over, return_choices, tribute_choices, tribute_due

if TYPE_CHECKING:
    from ..search.infoset import Unseen

__all__ = ["PHASES", "Action", "Deal", "PublicHoldings", "deal_cards", "perft"]

PHASES = ("tribute", "return", "play", "done")

Action = Union[Sequence[Any], Move, int]  # noqa: UP007 - a runtime alias


def deal_cards(rng: random.Random) -> list[Hand]:
    """Shuffle the 108 cards with ``rng`` and give each seat 27."""
    deck = [index for index in range(NUM_CARDS) for _ in range(2)]
    rng.shuffle(deck)
    return [Hand.from_indices(deck[27 * seat : 27 * seat + 27]) for seat in range(4)]


# ---------------------------------------------------------------------------------------------
# One deal
# ---------------------------------------------------------------------------------------------
class PublicHoldings(NamedTuple):
    """What the table shows each seat holds (:meth:`Deal.public_holdings`)."""

    #: Per seat, the cards it received and has not played (a tribute not given back, a card
    #: returned to it) and, in the tribute phase, the tribute it chose and has not handed over.
    cards: tuple[Hand, Hand, Hand, Hand]
    #: After an anti-tribute, the big jokers not played, which ``joker_seats`` hold between them.
    big_jokers: int
    #: The seats that refused tribute with two big jokers (empty without an anti-tribute).
    joker_seats: tuple[int, ...]
    #: In the tribute phase, the ``(payer, card)`` tributes chosen and not yet handed over.
    chosen: tuple[tuple[int, int], ...]


class Deal:
    """One deal of Guandan: tribute and return, the tricks, and the finishing order.

    Build one with :meth:`start` (given hands) or :meth:`random` (shuffled hands). Seats
    0-3; partners sit opposite (0 & 2 are team 0, 1 & 3 team 1); play goes to seat
    ``(s + 1) % 4``, skipping the players who are out.

    The position lives in a native :class:`~guandan_fast.engine.state.State` (the C play
    state of ``state.pxd`` and the play log), which applies the rules of play; the deal
    adds the tribute and return (RULES.md §9), the platform notation and the caches of
    what it hands out.
    """

    __slots__ = (
        "_card_actions",
        "_deal_team",
        "_failures_at_a",
        "_paid",
        "_pending",
        "_replaced",
        "_rows",
        "_start",
        "_state",
        "_team_levels",
        "_tribute",
        "_triples",
        "rules",
    )

    rules: Rules
    #: The position: hands, level, seat to act, the move to beat, seats out, the play log.
    _state: State
    _team_levels: tuple[int, int]
    #: The match around the deal, for agents that play for the match: the team whose level
    #: it is played at (None: neither, as in a match's first deal) and each team's failures at A.
    _deal_team: int | None
    _failures_at_a: tuple[int, int]
    #: Tributes and returns as (seat, stored triple); they all come before the first play.
    _card_actions: list[tuple[int, StoredAction]]
    #: The first plays as (seat, kind, key, once, twice) rows, made when :attr:`plays` or
    #: :attr:`history` is read from the state's play log (three words a play, see
    #: :func:`~guandan_fast.engine.observation.play_row`).
    _rows: list[tuple[int, int, int, int, int]]
    #: Stored triples of the first plays, made when :attr:`history` is read.
    _triples: list[StoredAction]
    _tribute: TributeRecord
    #: Tributes chosen, (payer, card), not yet handed over (a double tribute is paid at once).
    _paid: tuple[tuple[int, int], ...]
    _pending: list[int]
    #: How the deal began, for pickling: the hands as planes, the leader (None after a
    #: tribute), the previous finish, the seats out and the tribute order.
    _start: tuple[Any, ...]
    #: Hands replaced by :meth:`with_hands`: (card actions, plays, the four hands) at the time.
    _replaced: tuple[tuple[int, int, tuple[Hand, ...]], ...]

    # -- construction -----------------------------------------------------------------------
    def __init__(self) -> None:
        """Refused: a deal without hands would be no position at all."""
        raise TypeError("a Deal is made by Deal.start(hands, level, ...), Deal.random(seed=...) or a Match, not Deal()")

    @classmethod
    def start(
        cls,
        hands: Sequence[CardsLike],
        level: int | str,
        *,
        leader: int | None = None,
        previous_finish: Sequence[int] | None = None,
        rules: Rules | None = None,
        seed: int | str | bytes | None = None,
        team_levels: Sequence[int | str] | None = None,
        finished: Sequence[int] | None = None,
        tribute_order: Sequence[int] | None = None,
        deal_team: int | None = None,
        failures_at_a: Sequence[int] = (0, 0),
    ) -> Deal:
        """A deal from four hands at ``level``.

        ``hands``: four Hands, card strings or iterables of card strings, of any sizes
        (endgames may be set up) but never more than two copies of a card across the
        table. ``leader``: the seat that leads, random from ``seed`` when None.
        ``previous_finish``: the previous deal's finishing order (seats, first to last;
        for a double down the two winners are enough) — then the deal starts with the
        tribute (RULES.md §9) and the rules decide who leads, so ``leader`` must be None.
        ``team_levels``: the two teams' levels, shown in observations (default: both at
        ``level``). ``finished``: seats already out, in order — the seats whose hands are
        empty (needed only when more than one is). ``tribute_order``: in a double tribute,
        the order in which the two payers choose (default: the loser after the first player
        first); on equal cards the first to choose pays the first player — RULES.md §9 with
        the default, the OpenGuanDan server's arrival order when given.

        The match around the deal (kept by :class:`~guandan_fast.engine.match.Match` and the
        platform client; agents that play for the match read it): ``deal_team``, the team
        whose level the deal is played at — the previous finish's first team when
        ``previous_finish`` is given (then ``deal_team`` must be None or that team), else as
        given (None: neither, as in a match's first deal); ``failures_at_a``, each team's
        failures at A so far (:func:`~guandan_fast.engine.scoring.score_deal`). Neither is
        checked against ``team_levels``, which may be set later (a server's word).
        """
        deal = _new_deal(cls)
        level = parse_level(level)
        deal.rules = check_rules(rules)
        deal._team_levels = (level, level) if team_levels is None else check_team_levels(team_levels)
        deal._deal_team = None if deal_team is None else bounded(deal_team, "deal_team (a team, 0 or 1)", 0, 1)
        deal._failures_at_a = check_failures_at_a(failures_at_a)
        checked = _check_hands(hands)
        finish = _check_finished(finished, checked)
        deal._card_actions = []
        deal._rows = []
        deal._triples = []
        deal._tribute = NO_TRIBUTE
        deal._paid = ()
        deal._pending = []
        deal._replaced = ()
        active = [s for s in range(4) if s not in finish]
        if len(active) < 2 or (len(finish) >= 2 and finish[1] == partner_of(finish[0])):
            raise ValueError("the deal is already over: at most two seats may be out, and not a whole team")
        planes = tuple((hand.once, hand.twice) for hand in checked)
        if previous_finish is not None:
            if leader is not None:
                raise ValueError("with previous_finish the tribute rules decide who leads: leave leader as None")
            order = check_finish_order(previous_finish)
            if deal_team is not None and deal._deal_team != team_of(order[0]):
                raise ValueError(f"deal_team {deal_team} is not the previous finish's first team, {team_of(order[0])}")
            deal._deal_team = team_of(order[0])
            deal._state = State.position(planes, level, active[0], finished=finish)
            deal._start = (planes, None, order, finish, None)
            deal._setup_tribute(order, tribute_order)
            return deal
        if tribute_order is not None:
            raise ValueError("tribute_order needs previous_finish: only a deal after another has a tribute")
        rng = seeded_random(seed)  # (a bad seed is refused even when the leader is given)
        if leader is None:
            leader = rng.choice(active)
        leader = check_seat(leader, "leader")
        if leader not in active:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        deal._state = State.position(planes, level, leader, finished=finish)
        deal._start = (planes, leader, None, finish, None)
        return deal

    @classmethod
    def random(
        cls,
        seed: int | str | bytes | None = None,
        level: int | str = 2,
        *,
        leader: int | None = None,
        previous_finish: Sequence[int] | None = None,
        rules: Rules | None = None,
    ) -> Deal:
        """A deal of 27 shuffled cards per seat; hands and leader drawn from ``seed``."""
        rng = seeded_random(seed)
        hands = deal_cards(rng)
        if previous_finish is None and leader is None:
            leader = rng.randrange(4)
        return cls.start(hands, level, leader=leader, previous_finish=previous_finish, rules=rules)

    def _setup_tribute(self, finish: list[int], order: Sequence[int] | None) -> None:
        """Decide tribute, anti-tribute or none from the previous finish (RULES.md §9-10)."""
        record = tribute_due(finish, self.hands, self.rules)
        if order is not None:
            if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or sorted(order) != sorted(record.payers):
                raise ValueError(f"tribute_order must list the payers {list(record.payers)} in some order, not {order!r}")
            record = replace(record, payers=tuple(order))
            self._start = (*self._start[:4], tuple(order))
        self._tribute = record
        if record.leader is not None:  # anti-tribute, or waived between partners
            self._begin_play(record.leader)
            return
        for payer in record.payers:
            if not tribute_choices(self._state.hand(payer), self.level):
                raise ValueError(f"seat {payer} must pay tribute but holds no card other than wildcards")
        self._pending = list(record.payers)
        self._state.before_play("tribute", record.payers[0])

    def _begin_play(self, leader: int) -> None:
        self._pending = []
        self._state.begin_play(leader)

    # -- state ------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"tribute"``, ``"return"``, ``"play"`` or ``"done"``."""
        return self._state.phase_name

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited (None once the deal is done)."""
        return self._state.to_act

    @property
    def level(self) -> int:
        """The level the deal is played at (2..14)."""
        return self._state.level

    @property
    def team_levels(self) -> tuple[int, int]:
        """The two teams' levels (team 0: seats 0 and 2), shown in observations; assigning
        checks them as :meth:`start` does."""
        return self._team_levels

    @team_levels.setter
    def team_levels(self, levels: Sequence[int | str]) -> None:
        self._team_levels = check_team_levels(levels)

    @property
    def current_seat(self) -> int:
        """The seat whose action is awaited, typed ``int`` for the idioms
        ``state(deal, deal.current_seat)`` and ``agent.act(deal, deal.current_seat)``:
        ValueError once the deal is done (where :attr:`to_act` is None)."""
        to_act = self._state.to_act
        if to_act is None:
            raise ValueError("the deal is done: no seat is to act")
        return to_act

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        return self._state.all_hands()

    @property
    def finish_order(self) -> list[int]:
        """Seats that are out, first to last; all four once the deal is done (a double
        down's two losers both count as last and are listed in turn order after the
        second finisher)."""
        return self._state.finish_order

    @property
    def history(self) -> list[tuple[int, list[Any]]]:
        """Every action so far as ``(seat, platform triple)``, tributes and returns included
        (new lists on every call: changing them changes nothing in the deal)."""
        triples, plays, level = self._triples, self._play_rows(), self.level
        for seat, kind, key, once, twice in plays[len(triples) :]:
            triples.append(stored_triple(kind, key, once, twice, level))
        out = [(seat, fresh(triple)) for seat, triple in self._card_actions]
        out.extend((row[0], fresh(triple)) for row, triple in zip(plays, triples))
        return out

    def _play_rows(self) -> list[tuple[int, int, int, int, int]]:
        """The rows of every play so far (the packed log read once, as far as it goes)."""
        rows, state = self._rows, self._state
        plays = state.plays
        for index in range(len(rows), state.play_count):
            rows.append(play_row(plays, index))
        return rows

    @property
    def played(self) -> np.ndarray:
        """The cards each seat has played in the play phase so far, as read-only
        ``uint64[4, 2]`` planes: row ``s`` is ``(once, twice)`` of seat ``s`` (the layout
        of :meth:`Hand.to_numpy`). Tributes and returns are not plays."""
        return self._state.played

    @property
    def plays(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """Every play-phase action in order as plain ints ``(seat, kind, key, once,
        twice)`` (the :class:`~guandan_fast.engine.api.MoveList` row of the move, and
        ``(seat, 0, 0, 0, 0)`` for a pass)."""
        return tuple(self._play_rows())

    @property
    def last_move(self) -> Move | None:
        """The move to beat (None when the seat to act leads)."""
        move = self._state.move_to_beat()
        return None if move is PASS else move

    @property
    def last_seat(self) -> int:
        """The seat that made :attr:`last_move` (-1 when the seat to act leads); the
        platform calls it ``greaterPos``."""
        return self._state.last_seat

    @property
    def tribute(self) -> dict[str, Any]:
        """What happened before play: ``kind`` is ``"none"`` (first deal), ``"single"``,
        ``"double"``, ``"anti"`` (抗贡) or ``"waived"`` (no tribute between partners);
        ``payments`` and ``returns`` list ``(from_seat, to_seat, card)``."""
        return self._tribute.as_dict()

    @property
    def previous_finish(self) -> tuple[int, ...] | None:
        """The previous deal's finishing order this deal was started with (its tribute and
        its level's team come from it), or None (a match's first deal, or a deal set up
        with a leader)."""
        previous = self._start[2]
        return None if previous is None else tuple(previous)

    @property
    def deal_team(self) -> int | None:
        """The team whose level the deal is played at (the previous deal's first team), or
        None (neither: a match's first deal, or a deal set up without saying)."""
        return self._deal_team

    @property
    def failures_at_a(self) -> tuple[int, int]:
        """Each team's failures at A before this deal (the rules' ``fail_at_a_limit``)."""
        return self._failures_at_a

    @property
    def tribute_record(self) -> TributeRecord:
        """The same as a frozen :class:`~guandan_fast.engine.tribute.TributeRecord` (cards as
        indices; its ``leader`` is the seat that leads once the returns are made)."""
        return self._tribute

    @property
    def done(self) -> bool:
        return self._state.to_act is None

    @property
    def outcome(self) -> tuple[int, int] | None:
        """``(winning team, levels up)`` once the deal is done: the team that finished
        first goes up 3, 2 or 1 as its partner was second, third or last (RULES.md §8)."""
        if not self.done:
            return None
        return finish_outcome(self._state.finish_order)

    def result(self, seat: int) -> int | None:
        """The finished deal for ``seat``'s team: +n when it goes up n levels, -n when the
        other team does (a zero-sum reward); None while the deal is on."""
        seat = check_seat(seat)
        outcome = self.outcome
        if outcome is None:
            return None
        team, up = outcome
        return up if team_of(seat) == team else -up

    def cards_left(self) -> list[int]:
        return list(self._state.cards_left)

    def clone(self) -> Deal:
        """An independent copy (hands, moves, stored actions and the cached move list are
        immutable, so this is cheap). ``copy.copy`` and ``copy.deepcopy`` make the same. A
        subclass's copy is of that subclass, with its own attributes (shallow copies here
        and in ``copy.copy``, deep ones in ``copy.deepcopy``)."""
        other = _new_deal(type(self))
        other.rules = self.rules
        other._team_levels = self._team_levels
        other._deal_team = self._deal_team
        other._failures_at_a = self._failures_at_a
        other._state = self._state.copy()
        other._card_actions = self._card_actions[:]
        other._rows = self._rows[:]
        other._triples = self._triples[:]
        other._tribute = self._tribute
        other._paid = self._paid
        other._pending = self._pending[:]
        other._start = self._start
        other._replaced = self._replaced
        if type(self) is not Deal:
            copy_extra_state(self, other, Deal)
        return other

    def __copy__(self) -> Deal:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        other = self.clone()
        if type(self) is not Deal:  # a subclass's own attributes, deeply
            memo[id(self)] = other
            copy_extra_state(self, other, Deal, memo=memo)
        return other

    def with_hands(self, hands: Sequence[CardsLike], *, check_public: bool = True) -> Deal:
        """A copy of this deal with the four hands replaced (e.g. a world sampled for
        what one seat cannot see); everything else — phase, seat to act, trick, finishing
        order, history, plays, tribute record, rules and levels — stays as it is.

        Each seat must keep its number of cards and the four hands together must hold
        exactly the cards they hold now (ValueError otherwise). In the tribute phase a
        payer who has already chosen keeps the card it chose, and every payer still to
        choose must have a card it may pay. Every seat keeps what the table saw it receive
        and has not played (see :meth:`public_holdings`), unless ``check_public`` is False:
        a platform mirror following a server that broke the rules needs such hands."""
        new = _as_hands(hands)
        check_public = check_flag(check_public, "check_public")
        for payer, card in self._paid:
            if not new[payer].count(card):
                raise ValueError(f"seat {payer} has chosen to pay {CARD_NAMES[card]} and must keep it")
        if check_public:
            self._check_public(new)
        if self._pending and self.phase == "tribute":
            for payer in self._pending:
                if not tribute_choices(new[payer], self.level):
                    raise ValueError(f"seat {payer} must pay tribute but would hold no card other than wildcards")
        other = self.clone()
        other._state.set_hands(new)  # each seat keeps its number of cards, the table its cards
        other._replaced = (*self._replaced, (len(self._card_actions), self._state.play_count, tuple(new)))
        return other

    def _check_public(self, new: list[Hand]) -> None:
        """ValueError when the hands ``new`` take from a seat what the table saw it receive."""
        known, jokers, payers, _ = self.public_holdings()
        for seat in range(4):
            missing = known[seat].remove(known[seat].common(new[seat]))
            if missing:
                raise ValueError(
                    f"seat {seat} holds {' '.join(missing)} for all to see (a tribute or a return it received "
                    f"and has not played) and must keep it"
                )
        if payers and sum(new[payer].count(BIG_JOKER) for payer in payers) != jokers:
            raise ValueError(f"the big jokers not played stay with the seats that refused tribute with them, {payers}")

    def public_holdings(self) -> PublicHoldings:
        """What the table shows each seat holds (:class:`PublicHoldings`). World sampling
        keeps it; :meth:`with_hands` refuses hands that do not."""
        played = [Hand._trusted(int(once), int(twice)) for once, twice in self.played.tolist()]
        known = [Hand(), Hand(), Hand(), Hand()]
        record = self._tribute
        for _, receiver, card in record.payments:
            given_back = any(r == receiver and c == card for r, _, c in record.returns)
            if not given_back and not played[receiver].count(card):
                known[receiver] = known[receiver].add(Hand._trusted(1 << card, 0))
        for _, payer, card in record.returns:
            if not played[payer].count(card):
                known[payer] = known[payer].add(Hand._trusted(1 << card, 0))
        chosen = tuple(self._paid) if self.phase == "tribute" else ()  # shown, not yet handed over
        for payer, card in chosen:
            known[payer] = known[payer].add(Hand._trusted(1 << card, 0))
        payers: tuple[int, ...] = tuple(record.payers) if record.kind == "anti" else ()
        jokers = 2 - sum(played[payer].count(BIG_JOKER) for payer in payers) if payers else 0
        return PublicHoldings((known[0], known[1], known[2], known[3]), jokers, payers, chosen)

    # -- what one seat knows (the work is in guandan_fast.search.infoset) -----------------------------
    def unseen(self, seat: int) -> Unseen:
        """The cards ``seat`` cannot see, how many of each other seat's cards it does not
        know, and the cards it knows are in a given hand (:class:`~guandan_fast.search.infoset.Unseen`)."""
        from ..search import infoset  # a convenience of the search layer (see tests/test_layers.py)

        return infoset.unseen(self, seat)

    def sample_world(self, seat: int, seed: int = 0) -> Deal:
        """A copy of this deal with the hands ``seat`` cannot see drawn at random among those
        consistent with what it knows (see :mod:`guandan_fast.search.infoset`); deterministic per seed."""
        return self.sample_worlds(seat, 1, seed)[0]

    def sample_worlds(self, seat: int, n: int, seed: int = 0) -> list[Deal]:
        """``n`` worlds for ``seat`` (see :meth:`sample_world`); world ``i`` is
        ``sample_world(seat, seed + i)``, except in the tribute phase when a world drawn
        there breaks the tribute rule and is drawn again from the streams after ``seed + n - 1``
        (see :func:`~guandan_fast.search.infoset.sample_hands`)."""
        from ..search import infoset  # a convenience of the search layer (see tests/test_layers.py)

        return infoset.sample_worlds(self, seat, n, seed)

    # -- pickling: the construction and the actions, replayed through the same checks ---------------
    def __eq__(self, other: object) -> bool:
        """Deals are equal when they are one game so far: the same start (hands, level, leader,
        rules, match around it), the same actions in the same order, any :meth:`with_hands`
        at the same points, and the same team levels (what a pickle holds), whatever their
        classes and a subclass's own attributes. A deal changes
        with every action, so it is unhashable."""
        if not isinstance(other, Deal):
            return NotImplemented
        return other is self or self.__reduce__()[1][:5] == other.__reduce__()[1][:5]

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        """A deal pickles as how it began (the arguments of :meth:`start`), every action
        since (and any :meth:`with_hands`), and its team levels; unpickling replays them
        through :meth:`start`, :meth:`step` and :meth:`with_hands`, so a damaged pickle is
        refused with the ValueError or TypeError any of them gives. A subclass's deal is
        replayed through that subclass and given back its own attributes (pickle's state)."""
        planes, leader, previous, finished, order = self._start
        start = {
            "hands": [_names(once, twice) for once, twice in planes],
            "level": self.level,
            "leader": leader,
            "previous_finish": previous,
            "rules": self.rules,  # (Rules pickle through their own checks)
            "finished": finished,
            "tribute_order": order,
            "deal_team": self._deal_team,
            "failures_at_a": self._failures_at_a,
        }
        card_actions = [(seat, fresh(triple)) for seat, triple in self._card_actions]
        replaced = [(cards, plays, [_names(hand.once, hand.twice) for hand in hands]) for cards, plays, hands in self._replaced]
        replay = (start, card_actions, list(self._play_rows()), replaced, self._team_levels)
        if type(self) is Deal:
            return (_restore, replay)
        return (_restore, (*replay, type(self)), extra_state(self, Deal))

    def __setstate__(self, state: object) -> None:
        """A subclass's own attributes, after its replay (never the deal's own state)."""
        set_extra_state(self, state, Deal)

    # -- actions ----------------------------------------------------------------------------
    def legal_moves(self) -> MoveList:
        """The moves of the seat to act in the play phase: exactly ``legal_moves(hand,
        level, last)``. A follower may also pass, which this list (like ``legal_moves``)
        does not hold; :meth:`legal_actions` does.

        The deal keeps these moves until the next action (``step(index)`` reads them); the
        list returned is a new :class:`MoveList` over read-only arrays (copy them to write)."""
        return self._state.move_list()._shared()

    @property
    def following(self) -> bool:
        """Whether the seat to act follows (may pass) rather than leads."""
        return self._state.following

    def legal_actions(self) -> list[list[Any]]:
        """Every legal action of :attr:`to_act` as a platform triple.

        In play: ``["PASS", "PASS", "PASS"]`` first when following, then the complete move
        list in :func:`~guandan_fast.engine.api.legal_moves` order. In the tribute phase
        ``["tribute", "tribute", [card]]`` and in the return phase ``["back", "back",
        [card]]``, one per distinct card allowed. Empty once the deal is done.
        """
        return [fresh(action) for action in self._stored_actions()]

    def _stored_actions(self) -> list[StoredAction]:
        state = self._state
        actions = state.actions
        if actions is None:
            phase = state.phase_name
            if phase == "play":
                actions = _move_list_actions(state.move_rows(), state.following, state.level)
            elif phase in ("tribute", "return"):
                kind = "tribute" if phase == "tribute" else "back"
                actions = [card_triple(kind, c) for c in self._card_choices()]
            else:
                actions = []
            state.actions = actions
        return actions

    def step(self, action: Action) -> None:
        """Make the seat to act take ``action``: a platform triple, a :class:`Move` (or
        :data:`~guandan_fast.PASS`), or an index into :meth:`legal_actions`.

        An illegal action raises ValueError (TypeError when it is no action at all) and
        leaves the deal unchanged.
        """
        if not self._state.step(action):  # an index or a Move in the play phase, natively
            self._step_other(action)

    def _step_other(self, action: Action) -> None:
        state = self._state
        phase = state.phase_name
        if phase == "play" and isinstance(action, (list, tuple)):
            self._play_triple(action)
            return
        if phase == "done":
            raise ValueError("the deal is over: no more actions")
        if isinstance(action, bool):
            raise TypeError("an action is a platform triple, a Move or an index, not a bool")
        if is_integer(action):
            index = operator.index(action)
            if phase == "play":
                state.step(index)
                return
            action = self._stored_actions_at(index)
        if phase != "play":
            self._do_card_action(action)
        elif isinstance(action, Move):
            state.step_move(action)
        elif isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
            raise TypeError(
                f"an action is a platform triple [type, rank, cards], a Move or an index, not {type(action).__name__}"
            )
        else:
            self._play_triple(action)

    def _stored_actions_at(self, index: int) -> list[Any]:
        actions = self._stored_actions()
        if not 0 <= index < len(actions):
            raise ValueError(f"action index {index} is out of range: seat {self.to_act} has {len(actions)} legal actions")
        return fresh(actions[index])

    def _play_triple(self, action: Sequence[Any]) -> None:
        """A platform triple read (once per spelling and level) and played, checked against
        the seat's hand and the move to beat by the state."""
        read = reading(action, self.level)
        if read is None:
            self._state.play(0, 0, 0, 0, action)
        else:
            kind, key, once, twice, _, _ = read
            self._state.play(kind, key, once, twice, list(action))

    def _do_card_action(self, action: Action) -> None:
        """A tribute or return action (RULES.md §9)."""
        phase = self.phase
        kind = "tribute" if phase == "tribute" else "back"
        if isinstance(action, Move):
            raise ValueError(  # noqa: TRY004 - a Move is an action, just not one allowed now
                f"seat {self.to_act} must {'pay tribute' if kind == 'tribute' else 'return a card'} now, not play a move"
            )
        if isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
            raise TypeError(f"a {kind} action is [{kind!r}, {kind!r}, [card]], not {type(action).__name__}")
        if len(action) != 3:
            raise ValueError(f"a {kind} action has 3 fields [{kind!r}, {kind!r}, [card]], not {len(action)}")
        name, rank, cards = action
        if name != kind or rank != kind:
            raise ValueError(
                f"seat {self.to_act} must act [{kind!r}, {kind!r}, [card]] in the {phase} phase, not {list(action)!r}"
            )
        if isinstance(cards, str) or not isinstance(cards, Sequence) or len(cards) != 1:
            raise ValueError(f"a {kind} action names exactly one card, e.g. [{kind!r}, {kind!r}, ['S3']]")
        card = parse_card(cards[0])
        seat = self.current_seat
        allowed = self._card_choices()
        if card not in allowed:
            rule = (
                "the highest card by power, never a wildcard"
                if kind == "tribute"
                else "a card of rank 2-10, or of the lowest power when there is none"
            )
            raise ValueError(
                f"seat {seat} may not {'pay' if kind == 'tribute' else 'return'} {CARD_NAMES[card]}: it must be {rule} "
                f"({' '.join(CARD_NAMES[c] for c in allowed)})"
            )
        self._card_actions.append((seat, card_triple(kind, card)))
        self._state.actions = None
        self._pending.pop(0)
        if kind == "tribute":
            self._after_tribute(seat, card)
        else:
            self._after_return(seat, card)

    def _card_choices(self) -> list[int]:
        """The cards the seat to act may pay (tribute phase) or give back (return phase)."""
        seat = self.current_seat
        hand = self._state.hand(seat)
        if self.phase == "tribute":
            return tribute_choices(hand, self.level)
        received = self._tribute.payment_to(seat)[2]
        return return_choices(hand, self.level, self.rules, received)

    def _after_tribute(self, seat: int, card: int) -> None:
        # The cards change hands once every payer has chosen (a double tribute is paid at once).
        self._paid += ((seat, card),)
        if self._pending:
            self._state.before_play("tribute", self._pending[0])
            return
        record = hand_over(self._tribute, self._paid, self.level, self.rules)
        self._paid = ()
        for payer, receiver, given in record.payments:
            self._state.give(payer, receiver, given)
        self._tribute = record
        self._pending = list(record.receivers)
        self._state.before_play("return", record.receivers[0])

    def _after_return(self, seat: int, card: int) -> None:
        record = self._tribute.with_return(seat, card)
        self._state.give(seat, record.returns[-1][1], card)
        self._tribute = record
        if self._pending:
            self._state.before_play("return", self._pending[0])
            return
        assert record.leader is not None  # hand_over names the leader before any return
        self._begin_play(record.leader)

    # -- random playouts ----------------------------------------------------------------------
    @overload
    def playout(self, seed: int = 0, *, record: Literal[False] = False, policy: str = "random") -> list[int]: ...
    @overload
    def playout(
        self, seed: int = 0, *, record: Literal[True], policy: str = "random"
    ) -> tuple[list[int], list[tuple[int, list[Any]]]]: ...
    @overload
    def playout(
        self, seed: int = 0, *, record: bool, policy: str = "random"
    ) -> list[int] | tuple[list[int], list[tuple[int, list[Any]]]]: ...
    def playout(
        self, seed: int = 0, *, record: bool = False, policy: str = "random"
    ) -> list[int] | tuple[list[int], list[tuple[int, list[Any]]]]:
        """Play the rest of the deal with uniformly random legal actions; the finishing order.

        Every seat draws uniformly among its :meth:`legal_actions` (the complete move list,
        and the pass when following) until the deal ends. The deal itself is not changed.
        Deterministic per ``seed`` (an integer 0 <= seed < 2**64). The play runs in native
        code, without the GIL; tribute and return choices, if the deal is still in those
        phases, are drawn in Python from the same seed.

        Returns the finishing order as a list of the four seats, first to last; with
        ``record=True``, ``(finish_order, actions)`` where ``actions`` lists every action
        taken as ``(seat, platform triple)``, which can be replayed through :meth:`step`.
        ``policy="greedy"``, ``"minplays"`` or ``"tactics"``: the rules of :meth:`playouts`
        (from the play phase on).
        """
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        seed = playouts.check_seed(seed)
        record = check_flag(record, "record")
        code = self._policy_code(policy)
        deal, actions = self._through_tribute(seed, record)
        if deal.done:
            finish = deal.finish_order
        elif record:
            finish, played = playouts.native_playout(deal._state, seed, True, code)
            actions.extend(played)
        else:
            finish = playouts.native_playout(deal._state, seed, False, code)
        return (finish, actions) if record else finish

    def playouts(self, n: int, seed: int = 0, *, policy: str = "random") -> np.ndarray:
        """``n`` random playouts of the rest of the deal (see :meth:`playout`): an ``int8``
        array of shape ``(n, 4)``, row ``i`` the finishing order of ``playout(seed + i)``
        (at most ``2**31 - 1`` a call). In the play phase the whole batch runs in native
        code without the GIL.

        ``policy="greedy"`` plays the greedy rules instead (native, play phase only, see
        ``search/_policies.pyx``): lead the lowest cards in the largest combination, follow
        an opponent with the cheapest move that keeps bombs, wildcards and ranks whole,
        pass on a partner, bomb only when an opponent is about to finish.
        ``policy="minplays"`` plays :class:`~guandan_fast.agents.MinPlaysAgent`'s rules on
        the native solver (a few times slower than greedy), ``"tactics"`` the same rules
        with their tactics (``MinPlaysAgent(tactics=True)``). None of these draws
        anything: the game is played once and every row is the same."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        n = bounded(n, "the number of playouts", 0, playouts.MAX_PLAYOUTS)
        seed = playouts.check_seed(seed)
        code = self._policy_code(policy)
        if self.phase in ("play", "done"):
            return playouts.native_playouts(self._state, seed, n, code)
        out = np.empty((n, 4), dtype=np.int8)
        for i in range(n):
            out[i] = self.playout((seed + i) & playouts.SEED_MASK)
        return out

    def world_playouts(
        self, worlds: np.ndarray, actions: Sequence[int], n: int = 1, seed: int = 0, *, policy: str = "random"
    ) -> np.ndarray:
        """Playouts of this deal (in its play phase) in other worlds after each of several
        actions, all in one native call without the GIL: what a PIMC search step needs.

        ``worlds``: hands that may replace this deal's (see :meth:`with_hands`; what the
        table saw is not checked, as with ``check_public=False``) as planes
        ``uint64[w, 4, 2]``, e.g. ``infoset.sample_hands(deal, seat, w, seed)``;
        ``actions``: indices into :meth:`legal_actions`, whose cards the seat to act holds
        in every world. Returns ``int8[w, len(actions), n, 4]``: row ``[i, j, r]`` is
        ``d.playouts(n, seed + i * n, policy=policy)[r]`` for ``d`` this deal with the hands
        of world ``i`` after action ``j`` — the same random streams for every action. With
        a deterministic policy (``"greedy"``, ``"minplays"``, ``"tactics"``) each game is
        played once and repeated."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        if self.phase != "play":
            raise ValueError("world playouts run in native code in the play phase")
        n = bounded(n, "the number of playouts", 0, playouts.MAX_PLAYOUTS)
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise TypeError(f"actions must be a sequence of action indices, not {type(actions).__name__}")
        state = self._state
        rows = [state.row(bounded(action, "an action index", 0, sys.maxsize)) for action in actions]
        moves = (  # arrays of the native dtypes: taken as they are (rows of the deal's own moves)
            np.array([row[0] for row in rows], dtype=np.uint8),
            np.array([row[1] for row in rows], dtype=np.uint8),
            np.array([row[2:4] for row in rows], dtype=np.uint64).reshape(len(rows), 2),
        )
        return playouts.native_world_playouts(state, worlds, moves, playouts.check_seed(seed), n,
                                              self._policy_code(policy))

    def _policy_code(self, policy: str) -> int:
        """A playout policy's native code; only random playouts start before the play phase
        (the search layer's playout entries refuse hands the MinPlays rules cannot decompose)."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        code = playouts.policy_code(policy)
        if code and self.phase not in ("play", "done"):
            raise ValueError(f"{policy} playouts run in native code from the play phase on")
        return code

    def _through_tribute(self, seed: int, record: bool) -> tuple[Deal, list[tuple[int, list[Any]]]]:
        """This deal, or a copy advanced to the play phase by random tribute and return choices."""
        if self.phase not in ("tribute", "return"):
            return self, []
        deal, rng, actions = self.clone(), random.Random(seed), []
        while deal.phase in ("tribute", "return"):
            seat, options = deal.current_seat, deal.legal_actions()
            action = options[rng.randrange(len(options))]
            deal.step(action)
            if record:
                actions.append((seat, action))
        return deal, actions

    # -- observation ------------------------------------------------------------------------
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see, as a read-only mapping (:class:`~guandan_fast.engine.observation.
        Observation`; ``dict(...)`` makes a plain dict). Costly fields are computed on first
        access, from the state at the time of this call.

        Own fields: ``seat``, ``phase``, ``to_act``, ``hand`` (own cards), ``cards_left``
        (per seat), ``last_move`` / ``last_seat`` (the move to beat and who made it; None
        and -1 when leading), ``history`` (public ``[seat, triple]`` list, tributes and
        returns included), ``finish_order``, ``level``, ``team_levels``,
        ``legal_actions`` (empty unless ``seat`` is to act).

        Plus the competition platform's act-message fields: ``type`` (``"act"``),
        ``stage`` (``"tribute"``, ``"back"``, ``"play"``, ``"done"``), ``myPos``,
        ``handCards``, ``publicInfo`` (per seat ``{"rest": cards left, "playArea": its
        last action in the current trick or None}``), ``selfRank``, ``oppoRank``,
        ``curRank`` (rank characters), ``curPos`` / ``curAction`` (the latest action and
        its seat; -1 / None at the start), ``greaterPos`` / ``greaterAction`` (the move to
        beat; -1 / None when leading), ``actionList`` and ``indexRange`` (its last index).
        """
        seat = check_seat(seat, "seat")
        state = self._state
        to_act = state.to_act
        return observe(
            DealView(
                seat,
                state.phase_name,
                to_act,
                state.hand(seat),
                state.cards_left,
                state.level,
                self._team_levels,
                state.last_seat,
                state.last,
                tuple(self._card_actions),
                state.plays,
                state.play_count,
                state.trick,
                state.finish,
                self._actions_later() if seat == to_act else tuple,
            )
        )

    def _actions_later(self) -> Callable[[], Sequence[StoredAction]]:
        """The legal actions of the seat to act, as a function that computes them only if
        called (and gives the same answer whatever the deal does meanwhile)."""
        state = self._state
        if state.actions is not None or state.phase_name != "play":
            actions = self._stored_actions()
            return lambda: actions
        rows, level, following = state.rows_later(), state.level, state.following
        return lambda: _move_list_actions(rows(), following, level)

    def __repr__(self) -> str:
        to_act = self.to_act
        where = f"seat {to_act} to act" if to_act is not None else f"finish {self.finish_order}"
        return f"<Deal at level {level_char(self.level)}, {self.phase}, {where}, cards left {self.cards_left()}>"


def perft(deal: Deal, depth: int) -> int:
    """The number of sequences of ``depth`` legal actions from ``deal``'s position (over
    :meth:`Deal.legal_actions`, the pass included when following), counted natively
    without the GIL; a deal that ends earlier contributes none (``perft(deal, 0)`` is 1).
    The deal must be in its play phase (or done); ``depth`` is 0..432 (no deal lasts
    longer). What a chess engine's perft is: a check of the move generator and the rules
    of play together, and a measure of their speed."""
    if not isinstance(deal, Deal):
        raise TypeError(f"perft counts the actions of a guandan_fast Deal, not {type(deal).__name__}")
    return deal._state.perft(bounded(depth, "the depth", 0, LONGEST_DEAL))


def _restore(
    start: dict[str, Any],
    card_actions: Sequence[Any],
    plays: Sequence[Any],
    replaced: Sequence[Any],
    team_levels: Any,
    kind: object = None,
) -> Deal:
    """A pickled deal: :meth:`Deal.start` (of the subclass ``kind``, if any) with the
    recorded arguments, then every action and hand replacement in order, each through the
    public checks."""
    if not isinstance(start, dict) or set(start) != _START_KEYS:
        raise ValueError("not a pickled Deal: its start must name the arguments of Deal.start")
    if kind is None:
        kind = Deal
    elif not (isinstance(kind, type) and issubclass(kind, Deal)):
        raise TypeError(f"not a pickled Deal: its class must be Deal or a subclass, not {kind!r}")
    # the base's own methods throughout: a subclass's overrides may read attributes its
    # pickle gives back only once the game is replayed
    deal: Deal = Deal.start.__func__(kind, **start)  # type: ignore[attr-defined]  # (its rules: checked by start as any)
    for part, what in ((card_actions, "card actions"), (plays, "plays"), (replaced, "replaced hands")):
        if not isinstance(part, list):
            raise TypeError(f"not a pickled Deal: its {what} must be a list, not {type(part).__name__}")
    changes = list(replaced)
    cards_done = plays_done = 0

    def replace_due() -> Deal:
        nonlocal changes
        out = deal
        while changes and _at(changes[0]) == (cards_done, plays_done):
            out = Deal.with_hands(out, changes.pop(0)[2], check_public=False)  # as it was accepted
        return out

    for seat, action in (_pair(entry, "card action") for entry in card_actions):
        deal = replace_due()
        check_replayed_turn(deal, seat, "Deal")
        Deal.step(deal, action)
        cards_done += 1
    for row in plays:
        deal = replace_due()
        seat, kind, key, once, twice = _play_entry(row)
        check_replayed_turn(deal, seat, "Deal")
        Deal.step(deal, PASS if kind == 0 and key == 0 and once == 0 and twice == 0 else
                  Move(kind, key, Hand.from_bits(once, twice), deal.level))
        plays_done += 1
    deal = replace_due()
    if changes:
        raise ValueError("not a pickled Deal: a hand replacement lies outside its actions")
    Deal.team_levels.fset(deal, team_levels)  # type: ignore[attr-defined]
    return deal


_START_KEYS = frozenset(
    {"hands", "level", "leader", "previous_finish", "rules", "finished", "tribute_order", "deal_team", "failures_at_a"}
)


def _at(change: object) -> tuple[int, int]:
    if not isinstance(change, tuple) or len(change) != 3:
        raise ValueError("not a pickled Deal: a hand replacement is (card actions, plays, hands)")
    return (as_index(change[0], "a replacement's position must be an integer"),
            as_index(change[1], "a replacement's position must be an integer"))


def _pair(entry: object, what: str) -> tuple[Any, Any]:
    if not isinstance(entry, tuple) or len(entry) != 2:
        raise ValueError(f"not a pickled Deal: a {what} is (seat, action)")
    return entry


def _play_entry(row: object) -> tuple[int, int, int, int, int]:
    if not isinstance(row, tuple) or len(row) != 5:
        raise ValueError("not a pickled Deal: a play is (seat, kind, key, once, twice)")
    values = [as_index(value, "a play's fields must be integers") for value in row]
    return values[0], values[1], values[2], values[3], values[4]


def check_replayed_turn(deal: Deal, seat: object, what: str) -> None:
    """A replayed action (of a pickled ``what``) names the seat to act: a ValueError otherwise."""
    if type(seat) is not int or seat != deal.to_act:
        raise ValueError(f"not a pickled {what}: an action of seat {seat!r} where seat {deal.to_act} acts")


def _names(once: int, twice: int) -> list[str]:
    return card_names(once, twice)


_new_deal = object.__new__


def _move_list_actions(rows: list[tuple[int, int, int, int]], following: bool, level: int) -> list[StoredAction]:
    """Move rows as stored platform triples, the pass first when following."""
    actions: list[StoredAction] = [PASS_ACTION] if following else []
    stored_triples(rows, level, actions)
    return actions


# -- validation helpers ------------------------------------------------------------------------
def _as_hands(hands: object) -> list[Hand]:
    """Four hands, each read by :func:`as_hand` (TypeError/ValueError naming the seat)."""
    if isinstance(hands, (str, bytes, Hand)) or not isinstance(hands, Sequence):
        raise TypeError(f"hands must be a sequence of four hands, not {type(hands).__name__}")
    if len(hands) != 4:
        raise ValueError(f"a deal needs exactly four hands, not {len(hands)}")
    out = []
    for seat, cards in enumerate(hands):
        try:
            out.append(as_hand(cards))
        except (TypeError, ValueError) as error:
            raise type(error)(f"hand of seat {seat}: {error}") from None
    return out


def _check_hands(hands: object) -> list[Hand]:
    """Four hands that hold no card more than twice between them."""
    out = _as_hands(hands)
    table = Hand()
    for seat, hand in enumerate(out):
        clash = table.clash(hand)
        if clash is not None:
            raise ValueError(f"card {CARD_NAMES[clash]} appears more than twice across the table (the deck has two)")
        table = table.add(hand)
    return out


def _check_finished(finished: Sequence[int] | None, hands: list[Hand]) -> list[int]:
    empty = [seat for seat in range(4) if not hands[seat]]
    if finished is None:
        if len(empty) > 1:
            raise ValueError(f"seats {empty} hold no cards: pass finished=[...] to say in which order they went out")
        return empty
    if isinstance(finished, (str, bytes)) or not isinstance(finished, Sequence):
        raise TypeError(f"finished must be a list of seats, not {type(finished).__name__}")
    order = [check_seat(s, "a finished seat") for s in finished]
    if len(set(order)) != len(order):
        raise ValueError(f"finished lists a seat twice: {order}")
    if sorted(order) != empty:
        raise ValueError(f"finished must list exactly the seats with empty hands ({empty}), not {order}")
    return order
