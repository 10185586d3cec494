"""The whole game: one deal (:class:`Deal`), a match of deals (:class:`Match`) and the
rule options (:class:`Rules`), as RULES.md §7-10 describe them.

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
lists them all (the complete move list of :func:`~guandan_fast.api.legal_moves`, after a
pass when following), and :meth:`Deal.step` takes one of them as a platform triple, a
:class:`~guandan_fast.moves.Move` or an index into that list. An illegal action raises
ValueError (TypeError for something that is no action at all) and changes nothing.

:meth:`Deal.playout` and :meth:`Deal.playouts` play the rest of a deal by uniformly random
legal actions in native code (``_playout``, without the GIL), deterministic per seed, and
:func:`random_deals` plays whole random deals there; :func:`score_deal` scores a finished
deal for a match.

Where RULES.md is silent, this module does what an expert player would expect; each such
choice is written down where it is implemented and summarised here:

* a deal's two losers in a double down (双下) both count as last; :attr:`Deal.finish_order`
  lists them after the winners in turn order, starting with the next seat after the
  second finisher;
* in a single down the "paying side" of anti-tribute (抗贡) is the one payer: it needs both
  ``HR`` in that one hand; in a double down the two payers' hands together;
* the two payers of a double tribute choose one after the other, the loser sitting after
  the first player first; the two receivers return in finishing order;
* a card received as tribute may be returned if it qualifies;
* a team "plays at A" when its own level is A and the deal is played at A; only such a
  deal can win the match, and (with :attr:`Rules.fail_at_a_limit`) only such a deal can be
  a failure at A. Failures count from the moment the team reached A;
* hands of any size are accepted so that endgames can be set up; an empty hand is a seat
  already out (``finished`` gives their order when more than one hand is empty).
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

import numpy as np

from . import infoset
from .api import MoveList, legal_moves
from .cards import CARD_NAMES, NUM_CARDS, level_char, parse_card, parse_level
from .hand import Hand, as_hand, card_names
from .infoset import Unseen
from .rules import Rules, bounded, check_rules, check_seat
from .tribute import NO_TRIBUTE, TributeRecord, hand_over, return_choices, tribute_choices, tribute_due
from .moves import PASS, PLATFORM_NAMES, Move, MoveType, platform_rank, read_platform

try:  # the native playouts (phase 2); Deal.playout falls back to Python without them
    from . import _playout as _native_playout
except ImportError:  # pragma: no cover - exercised only where the extension is not built
    _native_playout = None  # type: ignore[assignment]

__all__ = [
    "NATIVE_PLAYOUT",
    "PHASES",
    "Deal",
    "DealScore",
    "Match",
    "Rules",
    "deal_cards",
    "random_deals",
    "score_deal",
]

PHASES = ("tribute", "return", "play", "done")


def _set_read_only(*arrays: np.ndarray) -> None:
    for array in arrays:
        array.setflags(write=False)


#: Make arrays read-only (in native code when built: much cheaper than ``setflags``).
_read_only = _set_read_only if _native_playout is None else _native_playout.read_only
#: Whether :meth:`Deal.playout` runs in native code (the ``_playout`` extension is built).
NATIVE_PLAYOUT: bool = _native_playout is not None
_SEED_MASK = (1 << 64) - 1
#: The pass as a platform triple. Actions are stored as immutable tuples ``(type, rank,
#: cards)`` — ``cards`` a tuple of card names, or ``"PASS"`` — and handed out as fresh
#: lists (:func:`_fresh`), so that nothing a caller receives shares state with a deal.
PASS_ACTION = ("PASS", "PASS", "PASS")
ACE = 14

Action = Union[Sequence[Any], Move, int]  # noqa: UP007 - a runtime alias, kept 3.9-readable


def _partner(seat: int) -> int:
    return seat ^ 2


def _team(seat: int) -> int:
    return seat & 1


# ---------------------------------------------------------------------------------------------
# Card helpers
# ---------------------------------------------------------------------------------------------
def deal_cards(rng: random.Random) -> list[Hand]:
    """Shuffle the 108 cards with ``rng`` and give each seat 27."""
    deck = [index for index in range(NUM_CARDS) for _ in range(2)]
    rng.shuffle(deck)
    return [Hand.from_indices(deck[27 * seat : 27 * seat + 27]) for seat in range(4)]


def _card_triple(kind: str, card: int) -> list[Any]:
    return [kind, kind, [CARD_NAMES[card]]]


def _fresh(triple: Sequence[Any]) -> list[Any]:
    """A stored action as a new platform triple: lists nobody else holds."""
    cards = triple[2]
    return [triple[0], triple[1], cards if cards.__class__ is str else list(cards)]


_TYPE_NAMES = {int(kind): name for kind, name in PLATFORM_NAMES.items()}

def _move_triple(kind: int, key: int, once: int, twice: int, level: int) -> list[Any]:
    """The platform triple of a generated move (what ``Move.to_platform`` gives, faster)."""
    return [_TYPE_NAMES[kind], platform_rank(kind, key, level), card_names(once, twice)]


def _move_tuple(move: Move) -> tuple[Any, ...]:
    """A move's platform triple as stored in a deal (immutable; see :data:`PASS_ACTION`)."""
    kind, key, _ = move.table_args
    cards = move.cards
    return (_TYPE_NAMES[kind], platform_rank(kind, key, move.level), tuple(card_names(cards.once, cards.twice)))


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
        "_finish",
        "_greater",
        "_hands",
        "_history",
        "_index",
        "_last",
        "_last_action",
        "_last_actor",
        "_moves",
        "_paid",
        "_passes",
        "_pending",
        "_phase",
        "_played",
        "_played_array",
        "_plays",
        "_to_act",
        "_tribute",
        "_trick",
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
    _last: Move
    _greater: int
    _passes: int
    _finish: list[int]
    # Actions are stored as immutable tuples (see PASS_ACTION) and the cached move list's
    # arrays are read-only, so clones may share them; the lists are the deal's own.
    _history: list[tuple[int, tuple[Any, ...]]]
    _trick: list[tuple[Any, ...] | None]
    _tribute: TributeRecord
    #: Tributes chosen, (payer, card), not yet handed over (a double tribute is paid at once).
    _paid: tuple[tuple[int, int], ...]
    _pending: list[int]
    #: Cards each seat has played, as 8 plane ints (once, twice per seat): kept per play.
    _played: list[int]
    _played_array: np.ndarray | None
    _plays: list[tuple[int, int, int, int, int]]
    _moves: MoveList | None
    _actions: list[list[Any]] | None
    _index: dict[tuple[int, int, int, int], int] | None
    _last_actor: int
    _last_action: tuple[Any, ...] | None

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
        empty (needed only when more than one is).
        """
        deal = cls.__new__(cls)
        deal.level = parse_level(level)
        deal.rules = check_rules(rules)
        deal.team_levels = _check_team_levels(team_levels, deal.level)
        deal._hands = _check_hands(hands)
        deal._finish = _check_finished(finished, deal._hands)
        deal._history = []
        deal._trick = [None, None, None, None]
        deal._last = PASS
        deal._greater = -1
        deal._passes = 0
        deal._tribute = NO_TRIBUTE
        deal._paid = ()
        deal._pending = []
        deal._last_actor = -1
        deal._last_action = None
        deal._played = [0] * 8
        deal._played_array = None
        deal._plays = []
        deal._clear_cache()
        active = [s for s in range(4) if s not in deal._finish]
        if len(active) < 2 or (len(deal._finish) >= 2 and deal._finish[1] == _partner(deal._finish[0])):
            raise ValueError("the deal is already over: at most two seats may be out, and not a whole team")
        if previous_finish is not None:
            if leader is not None:
                raise ValueError("with previous_finish the tribute rules decide who leads: leave leader as None")
            deal._setup_tribute(_check_previous_finish(previous_finish))
            return deal
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

    def _setup_tribute(self, finish: list[int]) -> None:
        """Decide tribute, anti-tribute or none from the previous finish (RULES.md §9-10)."""
        record = tribute_due(finish, self._hands, self.rules)
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
    def hands(self) -> tuple[Hand, Hand, Hand, Hand]:
        return tuple(self._hands)  # type: ignore[return-value]

    @property
    def finish_order(self) -> list[int]:
        """Seats that are out, first to last; all four once the deal is done (a double
        down's two losers both count as last and are listed in turn order)."""
        return list(self._finish)

    @property
    def history(self) -> list[tuple[int, list[Any]]]:
        """Every action so far as ``(seat, platform triple)``, tributes and returns included
        (new lists on every call: changing them changes nothing in the deal)."""
        return [(seat, _fresh(triple)) for seat, triple in self._history]

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
        twice)`` (the :class:`~guandan_fast.api.MoveList` row of the move, and
        ``(seat, 0, 0, 0, 0)`` for a pass)."""
        return tuple(self._plays)

    @property
    def last_move(self) -> Move | None:
        """The move to beat (None when the seat to act leads)."""
        return None if self._last is PASS else self._last

    @property
    def last_seat(self) -> int:
        """The seat that made :attr:`last_move` (-1 when the seat to act leads)."""
        return self._greater

    @property
    def tribute(self) -> dict[str, Any]:
        """What happened before play: ``kind`` is ``"none"`` (first deal), ``"single"``,
        ``"double"``, ``"anti"`` (抗贡) or ``"waived"`` (no tribute between partners);
        ``payments`` and ``returns`` list ``(from_seat, to_seat, card)``."""
        return self._tribute.as_dict()

    @property
    def tribute_record(self) -> TributeRecord:
        """The same as a frozen :class:`~guandan_fast.tribute.TributeRecord` (cards as
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
        first = self._finish[0]
        return _team(first), 4 - self._finish.index(_partner(first))

    def cards_left(self) -> list[int]:
        return [len(hand) for hand in self._hands]

    def clone(self) -> Deal:
        """An independent copy (hands, moves, stored actions and the cached move list are
        immutable, so this is cheap). ``copy.copy`` and ``copy.deepcopy`` make the same."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other._hands = list(self._hands)
        other._finish = list(self._finish)
        other._history = list(self._history)
        other._trick = list(self._trick)
        other._pending = list(self._pending)
        other._played = list(self._played)
        other._plays = list(self._plays)
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
        other._clear_cache()
        return other

    # -- what one seat knows (the work is in guandan_fast.infoset) -----------------------------
    def unseen(self, seat: int) -> Unseen:
        """The cards ``seat`` cannot see, how many of each other seat's cards it does not
        know, and the cards it knows are in a given hand (:class:`~guandan_fast.infoset.Unseen`)."""
        return infoset.unseen(self, seat)

    def sample_world(self, seat: int, seed: int = 0) -> Deal:
        """A copy of this deal with the hands ``seat`` cannot see drawn at random among those
        consistent with what it knows (see :mod:`guandan_fast.infoset`); deterministic per seed."""
        return infoset.sample_worlds(self, seat, 1, seed)[0]

    def sample_worlds(self, seat: int, n: int, seed: int = 0) -> list[Deal]:
        """``n`` worlds for ``seat`` (see :meth:`sample_world`); world ``i`` is
        ``sample_world(seat, seed + i)``."""
        return infoset.sample_worlds(self, seat, n, seed)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled state: every slot but the move-list caches (rebuilt on demand)."""
        state = {name: getattr(self, name) for name in Deal.__slots__}
        for name in ("_moves", "_actions", "_index", "_played_array"):
            state[name] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in Deal.__slots__:
            setattr(self, name, state[name])

    # -- actions ----------------------------------------------------------------------------
    def _clear_cache(self) -> None:
        self._moves: MoveList | None = None
        self._actions: list[list[Any]] | None = None
        self._index: dict[tuple[int, int, int, int], int] | None = None

    def legal_moves(self) -> MoveList:
        """The moves of the seat to act in the play phase: exactly ``legal_moves(hand,
        level, last)``. A follower may also pass, which this list (like ``legal_moves``)
        does not hold; :meth:`legal_actions` does.

        The deal keeps these moves until the next action (``step(index)`` reads them); the
        list returned is a new :class:`MoveList` over read-only arrays (copy them to write)."""
        moves = self._moves if self._moves is not None else self._own_moves()
        return MoveList(moves.kinds, moves.keys, moves.cards, moves.level)

    def _own_moves(self) -> MoveList:
        """The deal's cached move list (never handed out; its arrays are read-only)."""
        moves = self._moves
        if moves is None:
            if self._phase != "play":
                raise ValueError(f"there are no moves to play in the {self._phase} phase")
            moves = legal_moves(self._hands[self._to_act], self.level, self._last)  # type: ignore[index]
            _read_only(moves.kinds, moves.keys, moves.cards)
            self._moves = moves
        return moves

    @property
    def following(self) -> bool:
        """Whether the seat to act follows (may pass) rather than leads."""
        return self._phase == "play" and self._last is not PASS

    def legal_actions(self) -> list[list[Any]]:
        """Every legal action of :attr:`to_act` as a platform triple.

        In play: ``["PASS", "PASS", "PASS"]`` first when following, then the complete move
        list in :func:`~guandan_fast.api.legal_moves` order. In the tribute phase
        ``["tribute", "tribute", [card]]`` and in the return phase ``["back", "back",
        [card]]``, one per distinct card allowed. Empty once the deal is done.
        """
        if self._actions is None:
            phase = self._phase
            if phase == "play":
                moves = self._own_moves()
                level = self.level
                actions = [list(PASS_ACTION)] if self._last is not PASS else []
                actions.extend(_move_triple(k, y, o, t, level) for k, y, o, t in moves.rows())
            elif phase in ("tribute", "return"):
                kind = "tribute" if phase == "tribute" else "back"
                actions = [_card_triple(kind, c) for c in self._card_choices()]
            else:
                actions = []
            self._actions = actions
        return [_fresh(action) for action in self._actions]

    def step(self, action: Action) -> None:
        """Make the seat to act take ``action``: a platform triple, a :class:`Move` (or
        :data:`~guandan_fast.PASS`), or an index into :meth:`legal_actions`.

        An illegal action raises ValueError (TypeError when it is no action at all) and
        leaves the deal unchanged.
        """
        if self._phase == "done":
            raise ValueError("the deal is over: no more actions")
        if isinstance(action, bool):
            raise TypeError("an action is a platform triple, a Move or an index, not a bool")
        if isinstance(action, (int, np.integer)):
            action = self._action_at(int(action))
            if isinstance(action, Move):  # in play, a move of the list itself: nothing to look up
                self._apply(action)
                return
        if self._phase == "play":
            self._apply(self._resolve_move(action))
        else:
            self._do_card_action(action)

    def _apply(self, move: Move) -> None:
        if move is PASS:
            self._do_pass()
        else:
            self._do_play(move)

    def _action_at(self, index: int) -> Move | list[Any]:
        """Entry ``index`` of :meth:`legal_actions` (in play, as a Move: no triple is built)."""
        if self._phase != "play":
            actions = self.legal_actions()
            if not 0 <= index < len(actions):
                raise ValueError(
                    f"action index {index} is out of range: seat {self._to_act} has {len(actions)} legal actions"
                )
            return actions[index]
        moves = self._own_moves()
        following = self._last is not PASS
        count = len(moves.kinds) + following
        if not 0 <= index < count:
            raise ValueError(f"action index {index} is out of range: seat {self._to_act} has {count} legal actions")
        if following:
            return PASS if index == 0 else moves[index - 1]
        return moves[index]

    def _resolve_move(self, action: Action) -> Move:
        """The legal move (or PASS) an action names; ValueError/TypeError otherwise."""
        seat = self._to_act
        if isinstance(action, Move):
            if action.kind is MoveType.PASS:
                return self._check_pass()
            moves = self._own_moves()
            if action.level != self.level:
                raise ValueError(
                    f"the move {action!r} is made at level {level_char(action.level)}, the deal is played at {level_char(self.level)}"
                )
            if action not in moves:
                raise ValueError(f"illegal move for seat {seat}: {action!r} is not among its {len(moves)} legal moves")
            return action
        if isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
            raise TypeError(
                f"an action is a platform triple [type, rank, cards], a Move or an index, not {type(action).__name__}"
            )
        kind, key, hand = read_platform(action, self.level)
        if kind is MoveType.PASS:
            return self._check_pass()
        index = self._move_index().get((int(kind), key, hand.once, hand.twice))
        if index is None:
            raise ValueError(
                f"illegal action for seat {seat}: {list(action)!r} is not among its {len(self._own_moves())} legal moves"
                + (" (or a pass)" if self._last is not PASS else " (it leads and may not pass)")
            )
        return self._own_moves()[index]

    def _move_index(self) -> dict[tuple[int, int, int, int], int]:
        if self._index is None:
            moves = self._own_moves()
            self._index = {row: i for i, row in enumerate(moves.rows())}
        return self._index

    def _check_pass(self) -> Move:
        if self._last is PASS:
            raise ValueError(f"seat {self._to_act} leads and may not pass")
        return PASS

    def _next_active(self, seat: int) -> int:
        hands = self._hands
        for step in (1, 2, 3):
            other = (seat + step) & 3
            if hands[other]:
                return other
        return seat

    def _record(self, seat: int, triple: tuple[Any, ...]) -> None:
        self._history.append((seat, triple))
        self._last_actor = seat
        self._last_action = triple
        self._clear_cache()

    def _do_play(self, move: Move) -> None:
        seat: int = self._to_act  # type: ignore[assignment]
        hand = self._hands[seat].remove(move.cards)
        self._hands[seat] = hand
        triple = _move_tuple(move)
        self._record(seat, triple)
        cards = move.cards
        once, twice = cards.once, cards.twice
        played = self._played
        base = 2 * seat
        had = played[base]
        played[base] = had | once
        played[base + 1] |= twice | (had & once)
        self._played_array = None
        self._plays.append((seat, int(move.kind), move.key, once, twice))
        self._trick[seat] = triple
        self._last = move
        self._greater = seat
        self._passes = 0
        if not hand:
            self._finish.append(seat)
            if self._check_end():
                return
        self._to_act = self._next_active(seat)

    def _do_pass(self) -> None:
        seat: int = self._to_act  # type: ignore[assignment]
        self._record(seat, PASS_ACTION)
        self._plays.append((seat, 0, 0, 0, 0))
        self._trick[seat] = PASS_ACTION
        self._passes += 1
        greater = self._greater
        # The trick ends once every other player still holding cards has passed.
        others = sum(1 for s in range(4) if s != greater and self._hands[s])
        if self._passes < others:
            self._to_act = self._next_active(seat)
            return
        self._last = PASS
        self._greater = -1
        self._passes = 0
        self._trick = [None, None, None, None]
        if self._hands[greater]:
            self._to_act = greater
        else:
            # 接风: the partner of a player who went out with an unbeaten play leads. The
            # partner always holds cards here: had it been out already, ``greater`` going out
            # would have ended the deal (a 1-2 finish, or three out), also in endgames set up
            # with ``finished=`` (start refuses a deal that is already over), so RULES.md's
            # "partner out too" case cannot arise and has no branch.
            self._to_act = _partner(greater)

    def _check_end(self) -> bool:
        """End the deal on a 1-2 finish (双下) or when three players are out (RULES.md §7)."""
        finish = self._finish
        if len(finish) >= 2 and finish[1] == _partner(finish[0]):
            # Both losers count as last; listed in turn order after the second finisher.
            after = finish[1]
            while len(finish) < 4:
                after = self._next_active(after)
                finish.append(after)
        elif len(finish) == 3:
            finish.append(next(s for s in range(4) if s not in finish))
        else:
            return False
        self._phase = "done"
        self._to_act = None
        self._last = PASS
        self._greater = -1
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
        self._record(seat, (kind, kind, (CARD_NAMES[card],)))  # clears the move-list cache
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
    def playout(self, seed: int = 0, *, record: bool = False) -> Any:
        """Play the rest of the deal with uniformly random legal actions; the finishing order.

        Every seat draws uniformly among its :meth:`legal_actions` (the complete move list,
        and the pass when following) until the deal ends. The deal itself is not changed.
        Deterministic per ``seed`` (an integer 0 <= seed < 2**64). The play runs in native
        code, without the GIL, when the ``_playout`` extension is built (else in Python,
        with another random stream); tribute and return choices, if the deal is still in
        those phases, are drawn in Python from the same seed.

        Returns the finishing order as a list of the four seats, first to last; with
        ``record=True``, ``(finish_order, actions)`` where ``actions`` lists every action
        taken as ``(seat, platform triple)``, which can be replayed through :meth:`step`.
        """
        seed = _check_seed(seed)
        deal, actions = self._through_tribute(seed, record)
        if deal._phase == "done":
            finish = list(deal._finish)
        elif _native_playout is None:
            finish, played = deal._python_playout(seed, record)
            actions.extend(played)
        else:
            result = _native_playout.playout(*deal._native_state(), seed, record)
            if record:
                finish, seats, kinds, keys, cards = result
                level = deal.level
                for seat, kind, key, (once, twice) in zip(
                    seats.tolist(), kinds.tolist(), keys.tolist(), cards.tolist()
                ):
                    triple = list(PASS_ACTION) if kind == 0 else _move_triple(kind, key, once, twice, level)
                    actions.append((seat, triple))
            else:
                finish = result
            finish = list(finish)
        return (finish, actions) if record else finish

    def playouts(self, n: int, seed: int = 0) -> np.ndarray:
        """``n`` random playouts of the rest of the deal (see :meth:`playout`): an ``int8``
        array of shape ``(n, 4)``, row ``i`` the finishing order of ``playout(seed + i)``.
        In the play phase the whole batch runs in native code without the GIL."""
        n = bounded(n, "the number of playouts", 0, sys.maxsize)
        seed = _check_seed(seed)
        if self._phase == "play" and _native_playout is not None:
            return np.asarray(_native_playout.playouts(*self._native_state(), seed, n), dtype=np.int8)
        out = np.empty((n, 4), dtype=np.int8)
        for i in range(n):
            out[i] = self.playout((seed + i) & _SEED_MASK)
        return out

    def _native_state(self) -> tuple[list[int], list[int], int, int, int, int, int, int, int, list[int]]:
        hands = self._hands
        last = self._last
        return (
            [hand.once for hand in hands],
            [hand.twice for hand in hands],
            self.level,
            int(self._to_act),  # type: ignore[arg-type]
            *last.table_args,
            self._greater,
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

    def _python_playout(self, seed: int, record: bool) -> tuple[list[int], list[tuple[int, list[Any]]]]:
        """The same policy in Python (used when the native extension is not built)."""
        deal, rng = self.clone(), random.Random(seed)
        start = len(deal._history)
        while deal._phase != "done":
            moves = deal._own_moves()
            following = deal._last is not PASS
            pick = rng.randrange(len(moves) + following)
            deal.step(PASS if following and pick == 0 else moves[pick - following])
        return list(deal._finish), ([(s, _fresh(a)) for s, a in deal._history[start:]] if record else [])

    # -- observation ------------------------------------------------------------------------
    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see, as a dict.

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
        hand = self._hands[seat].to_platform()
        left = self.cards_left()
        actions = self.legal_actions() if seat == self._to_act else []
        last = None if self._last is PASS else _move_tuple(self._last)
        stage = "back" if self._phase == "return" else self._phase
        own, other = self.team_levels[_team(seat)], self.team_levels[1 - _team(seat)]
        return {
            "seat": seat,
            "phase": self._phase,
            "to_act": self._to_act,
            "hand": hand,
            "cards_left": left,
            "last_move": None if last is None else _fresh(last),
            "last_seat": self._greater,
            "history": [[s, _fresh(a)] for s, a in self._history],
            "finish_order": list(self._finish),
            "level": self.level,
            "team_levels": list(self.team_levels),
            "legal_actions": actions,
            "type": "act",
            "stage": stage,
            "myPos": seat,
            "handCards": list(hand),
            "publicInfo": [
                {"rest": left[s], "playArea": None if (play := self._trick[s]) is None else _fresh(play)}
                for s in range(4)
            ],
            "selfRank": level_char(own),
            "oppoRank": level_char(other),
            "curRank": level_char(self.level),
            "curPos": self._last_actor,
            "curAction": None if self._last_action is None else _fresh(self._last_action),
            "greaterPos": self._greater,
            "greaterAction": None if last is None else _fresh(last),
            "actionList": [_fresh(action) for action in actions],
            "indexRange": len(actions) - 1,
        }

    def __repr__(self) -> str:
        where = f"seat {self._to_act} to act" if self._to_act is not None else f"finish {self._finish}"
        return f"<Deal at level {level_char(self.level)}, {self._phase}, {where}, cards left {self.cards_left()}>"


def random_deals(n: int, seed: int = 0, level: int | str = 2) -> np.ndarray:
    """``n`` complete random deals played by uniformly random legal actions, entirely in
    native code (shuffle, random leader, play; no tribute): the finishing orders as an
    ``int8`` array of shape ``(n, 4)``. Deal ``i`` uses the random stream ``seed + i``.
    Needs the native ``_playout`` extension (RuntimeError otherwise)."""
    if _native_playout is None:
        raise RuntimeError("random_deals needs the native _playout extension, which is not built")
    n = bounded(n, "the number of deals", 0, sys.maxsize)
    return np.asarray(_native_playout.random_deals(n, _check_seed(seed), parse_level(level)), dtype=np.int8)


def _check_seed(seed: object) -> int:
    return bounded(seed, "a playout seed", 0, _SEED_MASK)


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


def _check_previous_finish(previous: object) -> list[int]:
    if isinstance(previous, (str, bytes)) or not isinstance(previous, Sequence):
        raise TypeError(f"previous_finish must be a list of seats, first to last, not {type(previous).__name__}")
    order = [check_seat(s, "a seat of previous_finish") for s in previous]
    if len(set(order)) != len(order):
        raise ValueError(f"previous_finish lists a seat twice: {order}")
    if len(order) == 2 and order[1] == _partner(order[0]):
        order += [(order[0] + 1) % 4, (order[0] + 3) % 4]
    elif len(order) == 3:
        order += [next(s for s in range(4) if s not in order)]
    if len(order) != 4:
        raise ValueError(f"previous_finish must list the four seats first to last, not {order}")
    return order


def _check_team_levels(levels: object, level: int) -> tuple[int, int]:
    if levels is None:
        return (level, level)
    if isinstance(levels, (str, bytes)) or not isinstance(levels, Sequence) or len(levels) != 2:
        raise ValueError("team_levels must be two levels (team 0, team 1)")
    return (parse_level(levels[0]), parse_level(levels[1]))


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DealScore:
    """What a finished deal does to the match (see :func:`score_deal`)."""

    team: int  #: the team that finished first
    up: int  #: 3, 2 or 1: its partner was second, third or last
    levels: tuple[int, int]  #: both teams' levels after the deal
    failures: tuple[int, int]  #: failed deals at A counted so far (for Rules.fail_at_a_limit)
    winner: int | None  #: the team that won the match with this deal, else None


def score_deal(
    levels: Sequence[int],
    level: int | str,
    finish_order: Sequence[int],
    *,
    rules: Rules | None = None,
    failures: Sequence[int] = (0, 0),
    deal_team: int | None = None,
) -> DealScore:
    """Score one deal (RULES.md §8, §10): ``levels`` are the teams' levels before the deal,
    ``level`` the deal's level and ``finish_order`` its finishing order (the first two
    seats are enough for a double down). ``deal_team`` is the team whose level the deal
    is played at (the team that finished first in the previous deal; None for a match's
    first deal); only :attr:`Rules.at_a_only_own_deal` reads it.

    Only the team that finished first goes up (+3/+2/+1 as its partner was second, third
    or last), never past A. A team *plays at A* when its level is A and the deal is played
    at A (with ``at_a_only_own_deal``: and it is ``deal_team``); it wins the match by
    finishing first with its partner not last (with ``a_needs_double_up``: second). With
    ``rules.fail_at_a_limit`` = N, every deal a team plays at A without winning the match
    counts as a failure, and the N-th sends it back to ``rules.fail_at_a_level``
    (failures count from the moment the team reached A and restart after the fall; with
    ``fail_at_a_then_up`` a team that finished first then goes up that deal's levels).
    With ``reaching_a_wins`` a team whose level reaches A wins.
    """
    rules = check_rules(rules)
    before = [parse_level(levels[0]), parse_level(levels[1])]
    level = parse_level(level)
    finish = _check_previous_finish(finish_order)
    if deal_team is not None:
        deal_team = bounded(deal_team, "deal_team (a team 0 or 1)", 0, 1)
    first = finish[0]
    team, up = _team(first), 4 - finish.index(_partner(first))
    at_a = [
        level == ACE and before[t] == ACE and (t == deal_team or not rules.at_a_only_own_deal) for t in (0, 1)
    ]
    wins_at_a = up == 3 if rules.a_needs_double_up else up > 1
    after = list(before)
    counts = [int(failures[0]), int(failures[1])]
    winner = None
    if at_a[team] and wins_at_a:
        winner = team
    else:
        after[team] = min(ACE, before[team] + up)
        limit = rules.fail_at_a_limit
        if limit is not None:
            for t in (0, 1):
                if at_a[t]:  # a deal played at A and not won
                    counts[t] += 1
                    if counts[t] >= limit:
                        gain = up if t == team and rules.fail_at_a_then_up else 0
                        after[t] = min(ACE, int(rules.fail_at_a_level) + gain)
                        counts[t] = 0
        if rules.reaching_a_wins and after[team] == ACE:
            winner = team
    return DealScore(team, up, (after[0], after[1]), (counts[0], counts[1]), winner)


# ---------------------------------------------------------------------------------------------
# A match
# ---------------------------------------------------------------------------------------------
@dataclass
class _DealRecord:
    level: int
    finish_order: list[int]
    levels_after: tuple[int, int]
    tribute: dict[str, Any] = field(default_factory=dict)


class Match:
    """A match: deals from level 2 until a team wins at A (RULES.md §7-8).

    Team 0 is seats 0 and 2, team 1 seats 1 and 3. The first deal is played at level 2
    with a random leader; each later deal at the level of the team that finished first in
    the previous one, beginning with the tribute. Hands and first leader come from
    ``seed``. :meth:`step` plays one action of the current deal and starts the next deal
    when it ends.
    """

    def __init__(self, seed: Any = None, rules: Rules | None = None) -> None:
        self.rules = check_rules(rules)
        self._rng = random.Random(seed)
        self._levels = [2, 2]
        self._failures = [0, 0]
        #: The team whose level the current deal is played at (None in the first deal).
        self._deal_team: int | None = None
        self._over = False
        self.winner: int | None = None
        self.deals_played = 0
        self.records: list[_DealRecord] = []
        hands = deal_cards(self._rng)
        leader = self._rng.randrange(4)  # drawn with first_leader too: later deals stay the same
        if self.rules.first_leader is not None:
            leader = self.rules.first_leader
        self.deal = Deal.start(hands, 2, leader=leader, rules=self.rules, team_levels=(2, 2))

    def clone(self) -> Match:
        """An independent copy: its own deal, random stream and records, so both go on
        identically and neither changes the other. ``copy.copy`` and ``copy.deepcopy``
        make the same; a match pickles by value."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other._rng = random.Random()
        other._rng.setstate(self._rng.getstate())
        other._levels = list(self._levels)
        other._failures = list(self._failures)
        other.records = [
            _DealRecord(r.level, list(r.finish_order), r.levels_after, copy.deepcopy(r.tribute)) for r in self.records
        ]
        other.deal = self.deal.clone()
        return other

    def __copy__(self) -> Match:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.clone()

    @property
    def levels(self) -> tuple[int, int]:
        """The two teams' levels (2..14, 14 = A)."""
        return (self._levels[0], self._levels[1])

    @property
    def over(self) -> bool:
        """Whether the match has ended: won by :attr:`winner`, or a draw (winner None)
        when :attr:`Rules.deal_cap` deals ended with equal levels."""
        return self._over

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.deal.to_act

    def legal_actions(self) -> list[list[Any]]:
        return [] if self.over else self.deal.legal_actions()

    def observation(self, seat: int) -> dict[str, Any]:
        return self.deal.observation(seat)

    def step(self, action: Action) -> None:
        """Play ``action`` in the current deal; when the deal ends, score it and deal the next."""
        if self.over:
            raise ValueError(f"the match is over: {self._result()}")
        self.deal.step(action)
        if self.deal.phase == "done":
            self._score(self.deal)

    def _score(self, deal: Deal) -> None:
        finish = deal.finish_order
        result = score_deal(
            self.levels, deal.level, finish, rules=self.rules, failures=self._failures, deal_team=self._deal_team
        )
        self._levels = list(result.levels)
        self._failures = list(result.failures)
        self._deal_team = result.team
        self.winner = result.winner
        self.deals_played += 1
        self.records.append(_DealRecord(deal.level, finish, self.levels, deal.tribute))
        cap = self.rules.deal_cap
        if self.winner is None and cap is not None and self.deals_played >= cap:
            low, high = self._levels
            self.winner = None if low == high else int(high > low)
            self._over = True
        if self.winner is not None:
            self._over = True
        if self._over:
            return
        self.deal = Deal.start(
            deal_cards(self._rng),
            self._levels[result.team],
            previous_finish=finish,
            rules=self.rules,
            team_levels=self.levels,
        )

    def _result(self) -> str:
        return "a draw" if self.winner is None else f"team {self.winner} won"

    def __repr__(self) -> str:
        state = self._result() if self.over else f"deal {self.deals_played + 1} {self.deal.phase}"
        return f"<Match levels {level_char(self._levels[0])}/{level_char(self._levels[1])}, {state}>"


# ---------------------------------------------------------------------------------------------
# A readable log of random play (the ``guandan-fast play`` command)
# ---------------------------------------------------------------------------------------------
_PLACES = ("1st", "2nd", "3rd", "4th")


def _describe(triple: Sequence[Any]) -> str:
    kind, rank, cards = triple
    if kind == "PASS":
        return "pass"
    if rank == "JOKER":
        return f"FourJokers: {' '.join(cards)}"
    return f"{kind} {rank}: {' '.join(cards)}"


def play_log(seed: Any = None, *, deals: int | None = 1, rules: Rules | None = None) -> Iterable[str]:
    """Lines of a readable log of a match played by uniformly random legal actions.

    Plays ``deals`` deals (None: until the match is won), showing each deal's hands, the
    tribute, every play, the finishing order and the levels. The match (hands, first
    leader) and the random policy both follow from ``seed``.
    """
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or deals < 1):
        raise ValueError(f"deals must be a positive number, not {deals!r}")
    match = Match(seed, rules)
    policy = random.Random(f"guandan_fast play policy {seed!r}")
    yield f"Match, seed {seed!r}: team 0 = seats 0 and 2, team 1 = seats 1 and 3"
    while not match.over and (deals is None or match.deals_played < deals):
        deal = match.deal
        number = match.deals_played + 1
        yield ""
        yield (
            f"Deal {number} at level {level_char(deal.level)} "
            f"(team 0 at {level_char(match.levels[0])}, team 1 at {level_char(match.levels[1])})"
        )
        for seat, hand in enumerate(deal.hands):
            yield f"  seat {seat} ({len(hand)}): {hand}"
        info = deal.tribute
        if info["kind"] == "anti":
            yield f"  anti-tribute (抗贡): seats {' and '.join(map(str, info['payers']))} hold both big jokers"
        elif info["kind"] == "waived":
            yield f"  no tribute between partners: seat {info['payers'][0]} pays nothing"
        announced_play = False
        last_player: int | None = None
        while True:
            if deal.phase == "play" and not announced_play:
                if info["kind"] in ("single", "double"):
                    info = deal.tribute
                    for payer, receiver, card in info["payments"]:
                        yield f"  tribute: seat {payer} pays {CARD_NAMES[card]} to seat {receiver}"
                    for receiver, payer, card in info["returns"]:
                        yield f"  return: seat {receiver} gives {CARD_NAMES[card]} back to seat {payer}"
                announced_play = True
            if deal.phase == "done":
                break
            seat = int(deal.to_act)  # type: ignore[arg-type]
            leading = deal.phase == "play" and not deal.following
            if leading:
                went_out = last_player is not None and last_player != seat and not deal.hands[last_player]
                note = f" (接风 for seat {last_player}, who went out)" if went_out else ""
                yield f"  -- seat {seat} leads{note}"
            out_before = len(deal.finish_order)
            actions = deal.legal_actions()
            action = actions[policy.randrange(len(actions))]
            match.step(action)
            if action[0] in ("tribute", "back"):
                continue
            yield f"  seat {seat}: {_describe(action)}"
            if action[0] != "PASS":
                last_player = seat
            finish = deal.finish_order
            if len(finish) > out_before and seat in finish:
                yield f"  seat {seat} is out ({_PLACES[finish.index(seat)]})"
        finish = deal.finish_order
        team, up = deal.outcome  # type: ignore[misc]
        if finish[1] == _partner(finish[0]):
            places = f"seat {finish[0]} 1st, seat {finish[1]} 2nd, seats {finish[2]} and {finish[3]} both last (双下)"
        else:
            places = ", ".join(f"seat {s} {_PLACES[i]}" for i, s in enumerate(finish))
        yield f"  finishing order: {places}"
        yield f"  team {team} finished first and goes up {up}"
        yield f"  levels: team 0 at {level_char(match.levels[0])}, team 1 at {level_char(match.levels[1])}"
    yield ""
    if match.over and match.winner is None:
        yield f"A draw: equal levels after {match.deals_played} deals (the deal cap)"
    elif match.over:
        yield f"Team {match.winner} wins the match after {match.deals_played} deals"
    else:
        yield f"Stopped after {match.deals_played} deals; next deal at level {level_char(match.deal.level)}"
