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

The modules below this one each hold one job: :mod:`~guandan_fast.engine.rules` the options
(:class:`Rules`), :mod:`~guandan_fast.engine.tribute` the tribute record and its rules as pure
functions, :mod:`~guandan_fast.engine.observation` what a seat sees, :mod:`~guandan_fast.search.playout`
the random playouts (native, without the GIL, or in Python). Adapters for the competition
platform live above, in :mod:`guandan_fast.platform`.

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

import random
import sys
from array import array
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from .api import MoveList, legal_moves
from .cards import CARD_NAMES, NUM_CARDS, bounded, check_seat, level_char, parse_card, parse_level
from .hand import Hand, as_hand, new_hand
from .moves import PASS, Move, MoveType, bomb_tier
from .notation import PASS_ACTION, StoredAction, card_triple, fresh, reading, stored_triple, stored_triples
from .observation import DealView, Observation, observe, play_row
from .rules import Rules, check_rules
from .scoring import check_finish_order, double_down, finish_outcome, partner_of, team_of
from .tribute import NO_TRIBUTE, TributeRecord, hand_over, return_choices, tribute_choices, tribute_due

if TYPE_CHECKING:
    from ..search.infoset import Unseen
    from ..search.playout import PlayState

__all__ = ["PHASES", "Action", "Deal", "deal_cards"]

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
class Deal:
    """One deal of Guandan: tribute and return, the tricks, and the finishing order.

    Build one with :meth:`start` (given hands) or :meth:`random` (shuffled hands). Seats
    0-3; partners sit opposite (0 & 2 are team 0, 1 & 3 team 1); play goes to seat
    ``(s + 1) % 4``, skipping the players who are out.
    """

    __slots__ = (
        "_actions",
        "_card_actions",
        "_finish",
        "_hands",
        "_last",
        "_last_move",
        "_last_seat",
        "_moves",
        "_paid",
        "_passes",
        "_pending",
        "_phase",
        "_played",
        "_played_array",
        "_plays",
        "_rows",
        "_to_act",
        "_tribute",
        "_trick",
        "_triples",
        "level",
        "rules",
        "team_levels",
    )

    level: int
    rules: Rules
    team_levels: tuple[int, int]
    _hands: list[Hand]
    _phase: str
    _to_act: int | None
    #: The move to beat as plain ints (kind, key, once, twice, size, bomb tier); None when
    #: the seat to act leads. ``_last_move`` is the same as a Move, made when first needed.
    _last: tuple[int, int, int, int, int, int] | None
    _last_move: Move | None
    _last_seat: int
    _passes: int
    _finish: list[int]
    #: Tributes and returns as (seat, stored triple); they all come before the first play.
    _card_actions: list[tuple[int, StoredAction]]
    #: Every play-phase action, packed: three words each, ``seat | kind << 2 | key << 6``,
    #: ``once``, ``twice`` (:func:`~guandan_fast.engine.observation.play_row`), so that a step
    #: appends three ints and the native encoders (:mod:`guandan_fast.encode`) read the log
    #: without a Python object per play.
    _plays: array[int]
    #: The first plays as (seat, kind, key, once, twice) rows, made when :attr:`plays` or
    #: :attr:`history` is read.
    _rows: list[tuple[int, int, int, int, int]]
    #: Stored triples of the first plays, made when :attr:`history` is read.
    _triples: list[StoredAction]
    #: Per seat, the number (from 0) of its play in the current trick, or -1.
    _trick: list[int]
    _tribute: TributeRecord
    #: Tributes chosen, (payer, card), not yet handed over (a double tribute is paid at once).
    _paid: tuple[tuple[int, int], ...]
    _pending: list[int]
    #: Cards each seat has played, as 8 plane ints (once, twice per seat): kept per play.
    _played: list[int]
    _played_array: np.ndarray | None
    # Caches of the current state, dropped by every action; their contents are immutable
    # (read-only arrays, tuples), so clones share them.
    _moves: MoveList | None
    _actions: list[StoredAction] | None

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        hands: Sequence[Any],
        level: int | str,
        *,
        leader: int | None = None,
        previous_finish: Sequence[int] | None = None,
        rules: Rules | None = None,
        seed: Any = None,
        team_levels: Sequence[int | str] | None = None,
        finished: Sequence[int] | None = None,
        tribute_order: Sequence[int] | None = None,
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
        """
        deal = cls.__new__(cls)
        deal.level = parse_level(level)
        deal.rules = check_rules(rules)
        deal.team_levels = _check_team_levels(team_levels, deal.level)
        deal._hands = _check_hands(hands)
        deal._finish = _check_finished(finished, deal._hands)
        deal._card_actions = []
        deal._plays = array("Q")
        deal._rows = []
        deal._triples = []
        deal._trick = [-1, -1, -1, -1]
        deal._last = None
        deal._last_move = PASS
        deal._last_seat = -1
        deal._passes = 0
        deal._tribute = NO_TRIBUTE
        deal._paid = ()
        deal._pending = []
        deal._played = [0] * 8
        deal._played_array = None
        deal._moves = None
        deal._actions = None
        active = [s for s in range(4) if s not in deal._finish]
        if len(active) < 2 or (len(deal._finish) >= 2 and deal._finish[1] == partner_of(deal._finish[0])):
            raise ValueError("the deal is already over: at most two seats may be out, and not a whole team")
        if previous_finish is not None:
            if leader is not None:
                raise ValueError("with previous_finish the tribute rules decide who leads: leave leader as None")
            deal._setup_tribute(check_finish_order(previous_finish), tribute_order)
            return deal
        if tribute_order is not None:
            raise ValueError("tribute_order needs previous_finish: only a deal after another has a tribute")
        if leader is None:
            leader = random.Random(seed).choice(active)
        leader = check_seat(leader, "leader")
        if leader not in active:
            raise ValueError(f"the leader, seat {leader}, holds no cards")
        deal._phase = "play"
        deal._to_act = leader
        return deal

    @classmethod
    def random(
        cls,
        seed: Any = None,
        level: int | str = 2,
        *,
        leader: int | None = None,
        previous_finish: Sequence[int] | None = None,
        rules: Rules | None = None,
    ) -> Deal:
        """A deal of 27 shuffled cards per seat; hands and leader drawn from ``seed``."""
        rng = random.Random(seed)
        hands = deal_cards(rng)
        if previous_finish is None and leader is None:
            leader = rng.randrange(4)
        return cls.start(hands, level, leader=leader, previous_finish=previous_finish, rules=rules)

    def _setup_tribute(self, finish: list[int], order: Sequence[int] | None) -> None:
        """Decide tribute, anti-tribute or none from the previous finish (RULES.md §9-10)."""
        record = tribute_due(finish, self._hands, self.rules)
        if order is not None:
            if isinstance(order, (str, bytes)) or not isinstance(order, Sequence) or sorted(order) != sorted(record.payers):
                raise ValueError(f"tribute_order must list the payers {list(record.payers)} in some order, not {order!r}")
            record = replace(record, payers=tuple(order))
        self._tribute = record
        if record.leader is not None:  # anti-tribute, or waived between partners
            self._begin_play(record.leader)
            return
        for payer in record.payers:
            if not tribute_choices(self._hands[payer], self.level):
                raise ValueError(f"seat {payer} must pay tribute but holds no card other than wildcards")
        self._phase = "tribute"
        self._pending = list(record.payers)
        self._to_act = record.payers[0]

    def _begin_play(self, leader: int) -> None:
        self._phase = "play"
        self._pending = []
        self._to_act = leader if self._hands[leader] else self._next_active(leader)

    # -- state ------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"tribute"``, ``"return"``, ``"play"`` or ``"done"``."""
        return self._phase

    @property
    def to_act(self) -> int | None:
        """The seat whose action is awaited (None once the deal is done)."""
        return self._to_act

    @property
    def current_seat(self) -> int:
        """The seat whose action is awaited, typed ``int`` for the idioms
        ``state(deal, deal.current_seat)`` and ``agent.act(deal, deal.current_seat)``:
        ValueError once the deal is done (where :attr:`to_act` is None)."""
        if self._to_act is None:
            raise ValueError("the deal is done: no seat is to act")
        return self._to_act

    @property
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        return tuple(self._hands)  # type: ignore[return-value]

    @property
    def finish_order(self) -> list[int]:
        """Seats that are out, first to last; all four once the deal is done (a double
        down's two losers both count as last and are listed in turn order after the
        second finisher)."""
        return list(self._finish)

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
        rows, plays = self._rows, self._plays
        for index in range(len(rows), len(plays) // 3):
            rows.append(play_row(plays, index))
        return rows

    @property
    def played(self) -> np.ndarray:
        """The cards each seat has played in the play phase so far, as read-only
        ``uint64[4, 2]`` planes: row ``s`` is ``(once, twice)`` of seat ``s`` (the layout
        of :meth:`Hand.to_numpy`). Tributes and returns are not plays."""
        array = self._played_array
        if array is None:
            array = np.array(self._played, dtype=np.uint64).reshape(4, 2)
            array.setflags(write=False)
            self._played_array = array
        return array

    @property
    def plays(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """Every play-phase action in order as plain ints ``(seat, kind, key, once,
        twice)`` (the :class:`~guandan_fast.engine.api.MoveList` row of the move, and
        ``(seat, 0, 0, 0, 0)`` for a pass)."""
        return tuple(self._play_rows())

    @property
    def last_move(self) -> Move | None:
        """The move to beat (None when the seat to act leads)."""
        return None if self._last is None else self._move_to_beat()

    def _move_to_beat(self) -> Move:
        """The move to beat as a Move (PASS when leading), made once per trick state."""
        move = self._last_move
        if move is None:
            kind, key, once, twice, _, _ = self._last  # type: ignore[misc]
            move = self._last_move = Move._trusted(_MOVE_TYPES[kind], key, Hand._trusted(once, twice), self.level)
        return move

    @property
    def last_seat(self) -> int:
        """The seat that made :attr:`last_move` (-1 when the seat to act leads); the
        platform calls it ``greaterPos``."""
        return self._last_seat

    @property
    def tribute(self) -> dict[str, Any]:
        """What happened before play: ``kind`` is ``"none"`` (first deal), ``"single"``,
        ``"double"``, ``"anti"`` (抗贡) or ``"waived"`` (no tribute between partners);
        ``payments`` and ``returns`` list ``(from_seat, to_seat, card)``."""
        return self._tribute.as_dict()

    @property
    def tribute_record(self) -> TributeRecord:
        """The same as a frozen :class:`~guandan_fast.engine.tribute.TributeRecord` (cards as
        indices; its ``leader`` is the seat that leads once the returns are made)."""
        return self._tribute

    @property
    def done(self) -> bool:
        return self._phase == "done"

    @property
    def outcome(self) -> tuple[int, int] | None:
        """``(winning team, levels up)`` once the deal is done: the team that finished
        first goes up 3, 2 or 1 as its partner was second, third or last (RULES.md §8)."""
        if self._phase != "done":
            return None
        return finish_outcome(self._finish)

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
        return [len(hand) for hand in self._hands]

    def clone(self) -> Deal:
        """An independent copy (hands, moves, stored actions and the cached move list are
        immutable, so this is cheap). ``copy.copy`` and ``copy.deepcopy`` make the same."""
        other = _new_deal(Deal)
        other.level = self.level
        other.rules = self.rules
        other.team_levels = self.team_levels
        other._hands = self._hands[:]
        other._phase = self._phase
        other._to_act = self._to_act
        other._last = self._last
        other._last_move = self._last_move
        other._last_seat = self._last_seat
        other._passes = self._passes
        other._finish = self._finish[:]
        other._card_actions = self._card_actions[:]
        other._plays = self._plays[:]
        other._rows = self._rows[:]
        other._triples = self._triples[:]
        other._trick = self._trick[:]
        other._tribute = self._tribute
        other._paid = self._paid
        other._pending = self._pending[:]
        other._played = self._played[:]
        other._played_array = self._played_array
        other._moves = self._moves
        other._actions = self._actions
        return other

    def __copy__(self) -> Deal:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return self.clone()

    def with_hands(self, hands: Sequence[Any]) -> Deal:
        """A copy of this deal with the four hands replaced (e.g. a world sampled for
        what one seat cannot see); everything else — phase, seat to act, trick, finishing
        order, history, plays, tribute record, rules and levels — stays as it is.

        Each seat must keep its number of cards and the four hands together must hold
        exactly the cards they hold now (ValueError otherwise). In the tribute phase a
        payer who has already chosen keeps the card it chose, and every payer still to
        choose must have a card it may pay."""
        new = _check_hands(hands)
        old = self._hands
        for seat in range(4):
            if len(new[seat]) != len(old[seat]):
                raise ValueError(
                    f"hand of seat {seat} has {len(new[seat])} cards, the deal gives it {len(old[seat])}"
                )
        if _union(new) != _union(old):
            raise ValueError("the new hands must hold together exactly the cards the four hands hold now")
        for payer, card in self._paid:
            if not new[payer].count(card):
                raise ValueError(f"seat {payer} has chosen to pay {CARD_NAMES[card]} and must keep it")
        if self._phase == "tribute":
            for payer in self._pending:
                if not tribute_choices(new[payer], self.level):
                    raise ValueError(f"seat {payer} must pay tribute but would hold no card other than wildcards")
        other = self.clone()
        other._hands = new
        other._moves = other._actions = None
        return other

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
        ``sample_world(seat, seed + i)``."""
        from ..search import infoset  # a convenience of the search layer (see tests/test_layers.py)

        return infoset.sample_worlds(self, seat, n, seed)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: every slot but the caches (rebuilt on demand)."""
        state = {name: getattr(self, name) for name in Deal.__slots__}
        state["_moves"] = state["_actions"] = state["_played_array"] = None
        state["_triples"] = []
        state["_rows"] = []
        if state["_last"] is not None:
            state["_last_move"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in Deal.__slots__:
            setattr(self, name, state[name])

    # -- actions ----------------------------------------------------------------------------
    def legal_moves(self) -> MoveList:
        """The moves of the seat to act in the play phase: exactly ``legal_moves(hand,
        level, last)``. A follower may also pass, which this list (like ``legal_moves``)
        does not hold; :meth:`legal_actions` does.

        The deal keeps these moves until the next action (``step(index)`` reads them); the
        list returned is a new :class:`MoveList` over read-only arrays (copy them to write)."""
        moves = self._moves if self._moves is not None else self._own_moves()
        return moves._shared()

    def _own_moves(self) -> MoveList:
        """The deal's cached move list (never handed out)."""
        moves = self._moves
        if moves is None:
            if self._phase != "play":
                raise ValueError(f"there are no moves to play in the {self._phase} phase")
            moves = legal_moves(self._hands[self._to_act], self.level, self._move_to_beat())  # type: ignore[index]
            self._moves = moves
        return moves

    @property
    def following(self) -> bool:
        """Whether the seat to act follows (may pass) rather than leads."""
        return self._last is not None

    def legal_actions(self) -> list[list[Any]]:
        """Every legal action of :attr:`to_act` as a platform triple.

        In play: ``["PASS", "PASS", "PASS"]`` first when following, then the complete move
        list in :func:`~guandan_fast.engine.api.legal_moves` order. In the tribute phase
        ``["tribute", "tribute", [card]]`` and in the return phase ``["back", "back",
        [card]]``, one per distinct card allowed. Empty once the deal is done.
        """
        return [fresh(action) for action in self._stored_actions()]

    def _stored_actions(self) -> list[StoredAction]:
        actions = self._actions
        if actions is None:
            phase = self._phase
            if phase == "play":
                actions = _move_list_actions(self._own_moves(), self._last is not None)
            elif phase in ("tribute", "return"):
                kind = "tribute" if phase == "tribute" else "back"
                actions = [card_triple(kind, c) for c in self._card_choices()]
            else:
                actions = []
            self._actions = actions
        return actions

    def step(self, action: Action) -> None:
        """Make the seat to act take ``action``: a platform triple, a :class:`Move` (or
        :data:`~guandan_fast.PASS`), or an index into :meth:`legal_actions`.

        An illegal action raises ValueError (TypeError when it is no action at all) and
        leaves the deal unchanged.
        """
        if self._phase == "play":  # the common cases first, each checked without a move list
            cls = action.__class__
            if cls is list or cls is tuple:
                self._play(*self._triple_row(action))  # type: ignore[arg-type]
                return
            if cls is int:
                self._play(*self._row_at(action))  # type: ignore[arg-type]
                return
            if cls is Move:
                self._play(*self._move_row(action))  # type: ignore[arg-type]
                return
        if self._phase == "done":
            raise ValueError("the deal is over: no more actions")
        if isinstance(action, bool):
            raise TypeError("an action is a platform triple, a Move or an index, not a bool")
        if isinstance(action, (int, np.integer)):
            if self._phase == "play":
                self._play(*self._row_at(int(action)))
                return
            action = self._stored_actions_at(int(action))
        if self._phase != "play":
            self._do_card_action(action)
        elif isinstance(action, Move):
            self._play(*self._move_row(action))
        elif isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
            raise TypeError(
                f"an action is a platform triple [type, rank, cards], a Move or an index, not {type(action).__name__}"
            )
        else:
            self._play(*self._triple_row(action))

    def _stored_actions_at(self, index: int) -> list[Any]:
        actions = self._stored_actions()
        if not 0 <= index < len(actions):
            raise ValueError(f"action index {index} is out of range: seat {self._to_act} has {len(actions)} legal actions")
        return fresh(actions[index])

    # A play is checked and applied as plain ints: Row = (kind, key, once, twice, move or None).
    def _row_at(self, index: int) -> _Row:
        """Entry ``index`` of :meth:`legal_actions` in the play phase."""
        moves = self._own_moves()
        following = self._last is not None
        count = len(moves) + following
        if not 0 <= index < count:
            raise ValueError(f"action index {index} is out of range: seat {self._to_act} has {count} legal actions")
        if following:
            if index == 0:
                return _PASS_ROW
            index -= 1
        return (*moves.row(index), None)

    def _move_row(self, move: Move) -> _Row:
        """A Move checked against the seat's hand and the move to beat (a Move is always
        a valid reading of its cards, so this is exactly membership in the move list)."""
        kind, key, size = move.kind, move.key, len(move.cards)
        if not kind:
            self._check_pass()
            return _PASS_ROW
        if move.level != self.level:
            raise ValueError(
                f"the move {move!r} is made at level {level_char(move.level)}, the deal is played at {level_char(self.level)}"
            )
        cards = move.cards
        once, twice = cards.once, cards.twice
        if not self._may_play(kind, key, once, twice, size, _TIERS[kind][size]):
            raise ValueError(
                f"illegal move for seat {self._to_act}: {move!r} is not among its {len(self._own_moves())} legal moves"
            )
        return kind, key, once, twice, move

    def _triple_row(self, action: Sequence[Any]) -> _Row:
        """A platform triple read (once per spelling and level) and checked against the
        seat's hand and the move to beat."""
        read = reading(action, self.level)
        if read is None:
            self._check_pass()
            return _PASS_ROW
        kind, key, once, twice, size, tier = read
        if kind < 0 or not self._may_play(kind, key, once, twice, size, tier):
            raise ValueError(
                f"illegal action for seat {self._to_act}: {list(action)!r} is not among its "
                f"{len(self._own_moves())} legal moves"
                + (" (or a pass)" if self._last is not None else " (it leads and may not pass)")
            )
        return kind, key, once, twice, None

    def _may_play(self, kind: int, key: int, once: int, twice: int, size: int, tier: int) -> bool:
        """Whether the seat to act holds these cards and they beat the move to beat."""
        hand = self._hands[self._to_act]  # type: ignore[index]
        if once & ~hand.once or twice & ~hand.twice:
            return False
        last = self._last
        if last is None:
            return True
        last_kind, last_key, _, _, last_size, last_tier = last
        if tier < 0:
            return last_tier < 0 and kind == last_kind and size == last_size and key > last_key
        return tier > last_tier or (tier == last_tier and key > last_key)

    def _check_pass(self) -> None:
        if self._last is None:
            raise ValueError(f"seat {self._to_act} leads and may not pass")

    def _next_active(self, seat: int) -> int:
        hands = self._hands
        for step in (1, 2, 3):
            other = (seat + step) & 3
            if hands[other]:  # Hand.__bool__ is a C slot
                return other
        return seat

    def _play(self, kind: int, key: int, once: int, twice: int, move: Move | None) -> None:
        """Apply a checked play-phase action (a pass when ``kind`` is 0)."""
        seat: int = self._to_act  # type: ignore[assignment]
        plays = self._plays
        self._trick[seat] = len(plays) // 3
        self._moves = self._actions = None
        if not kind:
            plays.extend((seat, 0, 0))
            self._after_pass(seat)
            return
        plays.extend((seat | kind << 2 | key << 6, once, twice))
        hand = self._hands[seat]
        held_once, held_twice = hand.once, hand.twice
        hand = self._hands[seat] = new_hand((held_once & ~once) | (held_twice & ~twice), held_twice & ~once)
        played = self._played
        base = 2 * seat
        had = played[base]
        played[base] = had | once
        played[base + 1] |= twice | (had & once)
        self._played_array = None
        size = once.bit_count() + twice.bit_count()
        self._last = (kind, key, once, twice, size, _TIERS[kind][size])
        self._last_move = move
        self._last_seat = seat
        self._passes = 0
        if not hand:
            self._finish.append(seat)
            if self._check_end():
                return
        self._to_act = self._next_active(seat)

    def _after_pass(self, seat: int) -> None:
        self._passes += 1
        last_seat = self._last_seat
        # The trick ends once every other player still holding cards has passed.
        hands = self._hands
        others = 0
        for other in range(4):
            if other != last_seat and hands[other]:
                others += 1
        if self._passes < others:
            self._to_act = self._next_active(seat)
            return
        self._end_trick()
        if self._hands[last_seat]:
            self._to_act = last_seat
        else:
            # 接风: the partner of a player who went out with an unbeaten play leads. The
            # partner always holds cards here: had it been out already, ``last_seat`` going
            # out would have ended the deal (a 1-2 finish, or three out), also in endgames
            # set up with ``finished=`` (start refuses a deal that is already over), so
            # RULES.md's "partner out too" case cannot arise and has no branch.
            self._to_act = partner_of(last_seat)

    def _end_trick(self) -> None:
        self._last = None
        self._last_move = PASS
        self._last_seat = -1
        self._passes = 0
        self._trick = [-1, -1, -1, -1]

    def _check_end(self) -> bool:
        """End the deal on a 1-2 finish (双下) or when three players are out (RULES.md §7)."""
        finish = self._finish
        if len(finish) == 2 and finish[1] == partner_of(finish[0]):
            finish[:] = double_down(finish[0])
        elif len(finish) == 3:
            finish.append(6 - sum(finish))  # the seats sum to 0 + 1 + 2 + 3
        else:
            return False
        self._phase = "done"
        self._to_act = None
        self._end_trick()
        return True

    def _do_card_action(self, action: Action) -> None:
        """A tribute or return action (RULES.md §9)."""
        kind = "tribute" if self._phase == "tribute" else "back"
        if isinstance(action, Move):
            raise ValueError(  # noqa: TRY004 - a Move is an action, just not one allowed now
                f"seat {self._to_act} must {'pay tribute' if kind == 'tribute' else 'return a card'} now, not play a move"
            )
        if isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
            raise TypeError(f"a {kind} action is [{kind!r}, {kind!r}, [card]], not {type(action).__name__}")
        if len(action) != 3:
            raise ValueError(f"a {kind} action has 3 fields [{kind!r}, {kind!r}, [card]], not {len(action)}")
        name, rank, cards = action
        if name != kind or rank != kind:
            raise ValueError(
                f"seat {self._to_act} must act [{kind!r}, {kind!r}, [card]] in the {self._phase} phase, not {list(action)!r}"
            )
        if isinstance(cards, str) or not isinstance(cards, Sequence) or len(cards) != 1:
            raise ValueError(f"a {kind} action names exactly one card, e.g. [{kind!r}, {kind!r}, ['S3']]")
        card = parse_card(cards[0])
        seat: int = self._to_act  # type: ignore[assignment]
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
        self._moves = self._actions = None
        self._pending.pop(0)
        if kind == "tribute":
            self._after_tribute(seat, card)
        else:
            self._after_return(seat, card)

    def _card_choices(self) -> list[int]:
        """The cards the seat to act may pay (tribute phase) or give back (return phase)."""
        seat: int = self._to_act  # type: ignore[assignment]
        hand = self._hands[seat]
        if self._phase == "tribute":
            return tribute_choices(hand, self.level)
        received = self._tribute.payment_to(seat)[2]
        return return_choices(hand, self.level, self.rules, received)

    def _move_card(self, giver: int, taker: int, card: int) -> None:
        one = Hand.from_indices([card])
        self._hands[giver] = self._hands[giver].remove(one)
        self._hands[taker] = self._hands[taker].add(one)

    def _after_tribute(self, seat: int, card: int) -> None:
        # The cards change hands once every payer has chosen (a double tribute is paid at once).
        self._paid += ((seat, card),)
        if self._pending:
            self._to_act = self._pending[0]
            return
        record = hand_over(self._tribute, self._paid, self.level, self.rules)
        self._paid = ()
        for payer, receiver, given in record.payments:
            self._move_card(payer, receiver, given)
        self._tribute = record
        self._phase = "return"
        self._pending = list(record.receivers)
        self._to_act = record.receivers[0]

    def _after_return(self, seat: int, card: int) -> None:
        record = self._tribute.with_return(seat, card)
        self._move_card(seat, record.returns[-1][1], card)
        self._tribute = record
        if self._pending:
            self._to_act = self._pending[0]
            return
        self._begin_play(record.leader)  # type: ignore[arg-type]

    # -- random playouts ----------------------------------------------------------------------
    def playout(self, seed: int = 0, *, record: bool = False, policy: str = "random") -> Any:
        """Play the rest of the deal with uniformly random legal actions; the finishing order.

        Every seat draws uniformly among its :meth:`legal_actions` (the complete move list,
        and the pass when following) until the deal ends. The deal itself is not changed.
        Deterministic per ``seed`` (an integer 0 <= seed < 2**64). The play runs in native
        code, without the GIL, when the ``_playout`` extension is built and the backend is
        native (else in Python, with another random stream); tribute and return choices, if the deal is still in
        those phases, are drawn in Python from the same seed.

        Returns the finishing order as a list of the four seats, first to last; with
        ``record=True``, ``(finish_order, actions)`` where ``actions`` lists every action
        taken as ``(seat, platform triple)``, which can be replayed through :meth:`step`.
        ``policy="greedy"`` or ``"minplays"``: the rules of :meth:`playouts` (from the play
        phase on).
        """
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        seed = playouts.check_seed(seed)
        code = self._policy_code(policy)
        deal, actions = self._through_tribute(seed, record)
        if deal._phase == "done":
            finish: list[int] = list(deal._finish)
        elif code or playouts.plays_natively():  # the greedy rules exist only in native code
            result = playouts.native_playout(deal._play_state(), seed, record, code)
            finish = result[0] if record else result
            if record:
                actions.extend(result[1])
        else:
            finish, played = playouts.python_playout(deal, seed, record)
            actions.extend(played)
        return (finish, actions) if record else finish

    def playouts(self, n: int, seed: int = 0, *, policy: str = "random") -> np.ndarray:
        """``n`` random playouts of the rest of the deal (see :meth:`playout`): an ``int8``
        array of shape ``(n, 4)``, row ``i`` the finishing order of ``playout(seed + i)``.
        In the play phase the whole batch runs in native code without the GIL.

        ``policy="greedy"`` plays the greedy rules instead (native, play phase only, see
        ``_playout.pyx``): lead the lowest cards in the largest combination, follow an
        opponent with the cheapest move that keeps bombs, wildcards and ranks whole, pass
        on a partner, bomb only when an opponent is about to finish. ``policy="minplays"``
        plays :class:`~guandan_fast.agents.MinPlaysAgent`'s rules, the same choices, on the
        native solver (a few times slower than greedy). Neither draws anything: the game
        is played once and every row is the same."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        n = bounded(n, "the number of playouts", 0, sys.maxsize)
        seed = playouts.check_seed(seed)
        code = self._policy_code(policy)
        if self._phase == "play" and (code or playouts.plays_natively()):
            return playouts.native_playouts(self._play_state(), seed, n, code)
        out = np.empty((n, 4), dtype=np.int8)
        for i in range(n):
            out[i] = self.playout((seed + i) & playouts.SEED_MASK)
        return out

    def world_playouts(
        self, worlds: np.ndarray, actions: Sequence[int], n: int = 1, seed: int = 0, *, policy: str = "random"
    ) -> np.ndarray:
        """Playouts of this deal (in its play phase) in other worlds after each of several
        actions, all in one native call without the GIL: what a PIMC search step needs.

        ``worlds``: hands that may replace this deal's (see :meth:`with_hands`) as planes
        ``uint64[w, 4, 2]``, e.g. ``infoset.sample_hands(deal, seat, w, seed)``;
        ``actions``: indices into :meth:`legal_actions`, whose cards the seat to act holds
        in every world. Returns ``int8[w, len(actions), n, 4]``: row ``[i, j, r]`` is
        ``d.playouts(n, seed + i * n, policy=policy)[r]`` for ``d`` this deal with the hands
        of world ``i`` after action ``j`` — the same random streams for every action. With
        a deterministic policy (``"greedy"``, ``"minplays"``) each game is played once and repeated."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        if self._phase != "play" or not playouts.NATIVE_PLAYOUT:
            raise ValueError("world playouts run in native code in the play phase")
        n = bounded(n, "the number of playouts", 0, sys.maxsize)
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise TypeError(f"actions must be a sequence of action indices, not {type(actions).__name__}")
        rows = [self._row_at(bounded(action, "an action index", 0, sys.maxsize)) for action in actions]
        moves = (
            [row[0] for row in rows],
            [row[1] for row in rows],
            np.array([row[2:4] for row in rows], dtype=np.uint64).reshape(len(rows), 2),
        )
        return playouts.native_world_playouts(self._play_state(), worlds, moves, playouts.check_seed(seed), n, playouts.policy_code(policy))

    def _policy_code(self, policy: str) -> int:
        """A playout policy's native code; only random playouts leave the native path."""
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        code = playouts.policy_code(policy)
        if code and not (self._phase in ("play", "done") and playouts.NATIVE_PLAYOUT):
            raise ValueError(f"{policy} playouts run in native code from the play phase on")
        return code

    def _play_state(self) -> PlayState:
        from ..search import playout as playouts  # a convenience of the search layer (see tests/test_layers.py)

        hands, last = self._hands, self._last
        kind, key, size = (0, 0, 0) if last is None else (last[0], last[1], last[4])
        return playouts.PlayState(
            [hand.once for hand in hands],
            [hand.twice for hand in hands],
            self.level,
            self._to_act,  # type: ignore[arg-type]
            kind,
            key,
            size,
            self._last_seat,
            self._passes,
            self._finish,
        )

    def _through_tribute(self, seed: int, record: bool) -> tuple[Deal, list[tuple[int, list[Any]]]]:
        """This deal, or a copy advanced to the play phase by random tribute and return choices."""
        if self._phase not in ("tribute", "return"):
            return self, []
        deal, rng, actions = self.clone(), random.Random(seed), []
        while deal._phase in ("tribute", "return"):
            seat, options = int(deal._to_act), deal.legal_actions()  # type: ignore[arg-type]
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
        hands, last = self._hands, self._last
        return observe(
            DealView(
                seat,
                self._phase,
                self._to_act,
                hands[seat],
                (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3])),
                self.level,
                self.team_levels,
                self._last_seat,
                None if last is None else last[:4],
                tuple(self._card_actions),
                self._plays,
                len(self._plays) // 3,
                (self._trick[0], self._trick[1], self._trick[2], self._trick[3]),
                tuple(self._finish),
                self._actions_later() if seat == self._to_act else tuple,
            )
        )

    def _encoder_view(self) -> tuple[Any, ...]:
        """What the native encoders (:mod:`guandan_fast.encode`) read, as plain values and
        without copies (they only read): level, team levels, phase, seat to act, finishing
        order, played planes (8 ints), packed plays, the move to beat (``_last``), its seat,
        the four hands' (once, twice) planes, and the tribute record's kind, payers,
        receivers, payments and returns."""
        h0, h1, h2, h3 = self._hands
        tribute = self._tribute
        return (
            self.level,
            self.team_levels,
            self._phase,
            self._to_act,
            self._finish,
            self._played,
            self._plays,
            self._last,
            self._last_seat,
            h0.once,
            h0.twice,
            h1.once,
            h1.twice,
            h2.once,
            h2.twice,
            h3.once,
            h3.twice,
            tribute.kind,
            tribute.payers,
            tribute.receivers,
            tribute.payments,
            tribute.returns,
        )

    def _actions_later(self) -> Callable[[], Sequence[StoredAction]]:
        """The legal actions of the seat to act, as a function that computes them only if
        called (and gives the same answer whatever the deal does meanwhile)."""
        if self._actions is not None or self._phase != "play":
            actions = self._stored_actions()
            return lambda: actions
        moves, following = self._moves, self._last is not None
        if moves is not None:
            return lambda: _move_list_actions(moves, following)
        hand, level, last = self._hands[self._to_act], self.level, self._move_to_beat()  # type: ignore[index]
        return lambda: _move_list_actions(legal_moves(hand, level, last), following)

    def __repr__(self) -> str:
        where = f"seat {self._to_act} to act" if self._to_act is not None else f"finish {self._finish}"
        return f"<Deal at level {level_char(self.level)}, {self._phase}, {where}, cards left {self.cards_left()}>"


_Row = tuple[int, int, int, int, Union[Move, None]]  # noqa: UP007 - a runtime alias
_PASS_ROW: _Row = (0, 0, 0, 0, PASS)
_MOVE_TYPES = tuple(MoveType)
#: Bomb tier by kind and size (a move has at most 10 cards): ``bomb_tier`` as a table.
_TIERS = tuple(tuple(bomb_tier(kind, size) for size in range(11)) for kind in range(len(_MOVE_TYPES)))
_new_deal = object.__new__


def _move_list_actions(moves: MoveList, following: bool) -> list[StoredAction]:
    """A move list as stored platform triples, the pass first when following."""
    actions = [PASS_ACTION] if following else []
    stored_triples(moves.rows(), moves.level, actions)
    return actions


# -- validation helpers ------------------------------------------------------------------------
def _check_hands(hands: object) -> list[Hand]:
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
    table = Hand()
    for seat, hand in enumerate(out):
        clash = table.clash(hand)
        if clash is not None:
            raise ValueError(f"card {CARD_NAMES[clash]} appears more than twice across the table (the deck has two)")
        table = table.add(hand)
    return out


def _union(hands: Sequence[Hand]) -> Hand:
    """The cards of the four hands together (the table never holds three copies)."""
    table = Hand()
    for hand in hands:
        table = table.add(hand)
    return table


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


def _check_team_levels(levels: object, level: int) -> tuple[int, int]:
    if levels is None:
        return (level, level)
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence) or len(levels) != 2:
        raise ValueError("team_levels must be two levels (team 0, team 1)")
    return (parse_level(levels[0]), parse_level(levels[1]))
