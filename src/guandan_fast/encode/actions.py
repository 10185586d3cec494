"""The fixed action space: every action of a deal as one of :data:`NUM_ACTIONS` ids.

A policy network needs one output per action, the same in every position, while a
deal's legal actions are card-level moves whose number changes from one to a few
thousand. Here every move maps to a *structural* id — its type, key and size, not its
cards — and every tribute or return to the id of its card:

| ids     | actions       | order inside the block                                          |
|---------|---------------|-----------------------------------------------------------------|
| 0       | PASS          |                                                                 |
| 1-16    | Single        | key (power) 2..17: 2..A, the level rank, SB, HR                 |
| 17-32   | Pair          | key 2..17                                                       |
| 33-46   | Trips         | key 2..15                                                       |
| 47-60   | ThreeWithTwo  | the triple's key 2..15 (any pair)                               |
| 61-70   | Straight      | lowest position 1..10 (1 = A low)                               |
| 71-82   | ThreePair     | lowest position 1..12                                           |
| 83-95   | TwoTrips      | lowest position 1..13                                           |
| 96-105  | StraightFlush | lowest position 1..10 (any suit)                                |
| 106-203 | Bomb          | size 4..10, then key 2..15: ``106 + 14 * (size - 4) + key - 2`` |
| 204     | four jokers   |                                                                 |
| 205-258 | tribute       | card index 0..53 (``["tribute", "tribute", [card]]``)           |
| 259-312 | return        | card index 0..53 (``["back", "back", [card]]``)                 |

Keys are those of :mod:`guandan_fast.engine.moves` (the level rank has power 15, so at each
level one natural key of Singles, Pairs, ... is never legal; some ids, such as a
ten-card bomb of the level rank, never are). Tribute and return keep the card because
its suit matters (a paid card changes hands).

An id stands for several card-level moves (which suits, which pair in a ThreeWithTwo,
where the wildcards go). :func:`concretize` picks one of them, the *canonical* move:

1. the fewest wildcards (hearts of the level rank) among its cards;
2. then the fewest cards taken from the hand's bomb groups: the ranks of which the hand
   holds 4 or more cards, and the four jokers when it holds all four;
3. then the lowest cards: both moves' cards sorted by (power, suit S < H < C < D) and
   compared in that order, the first difference deciding (so a ThreeWithTwo takes the
   lowest pair, and a single takes a spade before a heart).

These three rules order any two distinct moves of one id, so the choice is
deterministic. The exact card-level list stays available beside it:
:func:`ids` is row-aligned with :meth:`~guandan_fast.Deal.legal_actions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal, overload

import numpy as np

from ..engine.api import classify
from ..engine.cards import (
    CARD_NAMES,
    LEVEL_POWER,
    as_index,
    level_char,
    parse_card,
    parse_level,
    position_char,
    power_char,
)
from ..engine.deal import Deal
from ..engine.hand import new_hand
from ..engine.kinds import SEQUENCE_TYPES
from ..engine.moves import PASS, Move, MoveType
from ..engine.notation import parse
from . import _actions as _native

__all__ = [
    "NUM_ACTIONS",
    "NUM_MOVE_ACTIONS",
    "PASS_ID",
    "RETURN_BASE",
    "TRIBUTE_BASE",
    "action_id",
    "action_index",
    "canonical_indices",
    "concretize",
    "describe",
    "ids",
    "ids_and_mask",
    "mask",
]

#: The move blocks of the layout, in id order: (kind, lowest key, highest key, smallest
#: size, largest size). Inside a block ids run over the sizes, then over the keys.
_BLOCKS: Final = (
    (MoveType.PASS, 0, 0, 0, 0),
    (MoveType.SINGLE, 2, 17, 1, 1),
    (MoveType.PAIR, 2, 17, 2, 2),
    (MoveType.TRIPS, 2, 15, 3, 3),
    (MoveType.THREE_WITH_TWO, 2, 15, 5, 5),
    (MoveType.STRAIGHT, 1, 10, 5, 5),
    (MoveType.THREE_PAIR, 1, 12, 6, 6),
    (MoveType.TWO_TRIPS, 1, 13, 6, 6),
    (MoveType.STRAIGHT_FLUSH, 1, 10, 5, 5),
    (MoveType.BOMB, 2, 15, 4, 10),
    (MoveType.FOUR_JOKERS, 0, 0, 4, 4),
)
_TABLE_KEYS = 18


def _layout() -> tuple[list[list[int]], list[int], list[int], list[int], int]:
    first_id = [[-1] * _TABLE_KEYS for _ in MoveType]
    size_min, size_max, stride = [0] * len(MoveType), [0] * len(MoveType), [0] * len(MoveType)
    next_id = 0
    for kind, low, high, smallest, largest in _BLOCKS:
        keys = high - low + 1
        for key in range(low, high + 1):
            first_id[kind][key] = next_id + key - low
        size_min[kind], size_max[kind], stride[kind] = smallest, largest, keys
        next_id += keys * (largest - smallest + 1)
    return first_id, size_min, size_max, stride, next_id


_FIRST_ID, _SIZE_MIN, _SIZE_MAX, _STRIDE, _MOVE_IDS = _layout()

PASS_ID: Final = 0
#: Ids below this are play-phase actions (PASS and moves).
NUM_MOVE_ACTIONS: Final = _MOVE_IDS
#: ``TRIBUTE_BASE + card``: pay ``card`` as tribute.
TRIBUTE_BASE: Final = NUM_MOVE_ACTIONS
#: ``RETURN_BASE + card``: give ``card`` back.
RETURN_BASE: Final = TRIBUTE_BASE + len(CARD_NAMES)
#: The size of the action space.
NUM_ACTIONS: Final = RETURN_BASE + len(CARD_NAMES)

_native.set_layout(_FIRST_ID, _SIZE_MIN, _SIZE_MAX, _STRIDE)
_CARD_BASES: Final = {"tribute": TRIBUTE_BASE, "return": RETURN_BASE}



def _move_id(kind: int, key: int, size: int) -> int:
    first = _FIRST_ID[kind][key] if 0 <= key < _TABLE_KEYS else -1
    if first < 0 or not _SIZE_MIN[kind] <= size <= _SIZE_MAX[kind]:
        raise ValueError(f"no action id for a {MoveType(kind).platform_name} of key {key} and {size} cards")
    return first + _STRIDE[kind] * (size - _SIZE_MIN[kind])


def action_id(action: Move | Sequence[Any], level: int | str | None = None) -> int:
    """The id of an action: a :class:`~guandan_fast.Move` (PASS included) or a platform
    triple — ``["tribute", "tribute", [card]]``, ``["back", "back", [card]]`` or a move,
    which needs ``level`` to be read (its rank names the level rank by its character).

    With ``level`` given, a Move made at another level is refused (ValueError)."""
    if isinstance(action, Move):
        if level is not None and action.kind is not MoveType.PASS and action.level != parse_level(level):
            raise ValueError(
                f"the move {action!r} is made at level {level_char(action.level)}, not at level {level_char(parse_level(level))}"
            )
        return _move_id(action.kind, action.key, len(action.cards))
    if isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
        raise TypeError(f"an action is a Move or a platform triple, not {type(action).__name__}")
    if len(action) == 3 and action[0] in ("tribute", "back"):
        name, rank, cards = action
        if rank != name or isinstance(cards, str) or not isinstance(cards, Sequence) or len(cards) != 1:
            raise ValueError(f"a {name} action is [{name!r}, {name!r}, [card]], not {list(action)!r}")
        return (TRIBUTE_BASE if name == "tribute" else RETURN_BASE) + parse_card(cards[0])
    if level is None:
        raise ValueError("a move's platform triple is read at a level: call action_id(triple, level)")
    level = parse_level(level)
    code, key, once, twice = parse(action, level)
    kind, cards = MoveType(code), new_hand(once, twice)
    if kind is not MoveType.PASS and not any(m.kind is kind and m.key == key for m in classify(cards, level)):
        raise ValueError(f"cards {' '.join(cards) or '(none)'} do not read as {list(action)[:2]!r} at level {level_char(level)}")
    return _move_id(kind, key, len(cards))


def describe(action: int) -> str:
    """A short readable name of an id, e.g. ``"Single 5"``, ``"Bomb of 6 level"``,
    ``"tribute HR"`` (keys named by rank, ``level`` for the level rank's power 15)."""
    action = _check_id(action)
    if action >= RETURN_BASE:
        return f"back {CARD_NAMES[action - RETURN_BASE]}"
    if action >= TRIBUTE_BASE:
        return f"tribute {CARD_NAMES[action - TRIBUTE_BASE]}"
    for kind, low, high, smallest, largest in _BLOCKS:
        block = _FIRST_ID[kind][low]
        keys = high - low + 1
        if action < block + keys * (largest - smallest + 1):
            size, key = divmod(action - block, keys)
            key += low
            if kind is MoveType.PASS:
                return "PASS"
            if kind is MoveType.FOUR_JOKERS:
                return "FourJokers"
            if kind in SEQUENCE_TYPES:
                return f"{kind.platform_name} {position_char(key)}"
            name = "level" if key == LEVEL_POWER else power_char(key, 2)  # level 2: only power 15 depends on it
            return f"Bomb of {size + smallest} {name}" if kind is MoveType.BOMB else f"{kind.platform_name} {name}"
    raise AssertionError("unreachable: every id below NUM_MOVE_ACTIONS is in a block")


def _check_id(value: object) -> int:
    number = as_index(value, "an action id must be an integer")
    if not 0 <= number < NUM_ACTIONS:
        raise ValueError(f"action id {number} is outside the action space 0..{NUM_ACTIONS - 1}")
    return number


def _check_deal(deal: object) -> Deal:
    if not isinstance(deal, Deal):
        raise TypeError(f"expected a guandan_fast.Deal, not {type(deal).__name__}")
    return deal


@overload
def _tables(deal: Deal, with_mask: Literal[False]) -> tuple[np.ndarray, None]: ...
@overload
def _tables(deal: Deal, with_mask: Literal[True]) -> tuple[np.ndarray, np.ndarray]: ...
def _tables(deal: Deal, with_mask: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """The ids row-aligned with ``deal.legal_actions()``, and their mask when asked."""
    phase = deal.phase
    if phase == "play":
        moves = deal.legal_moves()
        return _native.move_ids(
            moves.kinds, moves.keys, moves.cards, deal.following, NUM_ACTIONS if with_mask else 0
        )
    if phase in _CARD_BASES:
        base = _CARD_BASES[phase]
        row_ids = np.array([base + parse_card(action[2][0]) for action in deal.legal_actions()], dtype=np.int16)
    else:
        row_ids = np.empty(0, dtype=np.int16)
    if not with_mask:
        return row_ids, None
    marks = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    marks[row_ids] = True
    return row_ids, marks


def ids(deal: Deal) -> np.ndarray:
    """``int16[n]``: the id of every legal action, row-aligned with ``deal.legal_actions()``
    (PASS first when following; empty once the deal is done)."""
    return _tables(_check_deal(deal), False)[0]


def mask(deal: Deal) -> np.ndarray:
    """``bool[NUM_ACTIONS]``: which ids the seat to act may take (all False once done)."""
    return _tables(_check_deal(deal), True)[1]


def ids_and_mask(deal: Deal) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ids` and :func:`mask` of one state in one pass."""
    return _tables(_check_deal(deal), True)


#: The most legal actions :func:`canonical_indices` can index (its rows are ``int16``).
INT16_ROWS = 32767


def canonical_indices(deal: Deal) -> np.ndarray:
    """``int16[NUM_ACTIONS]``: for every id, the index into ``deal.legal_actions()`` of its
    canonical action, -1 for an id the seat may not take now — :func:`action_index` of
    every id at once (``rows[mask]`` are the actions a policy over ids can reach; their
    :func:`~guandan_fast.encode.action_features` rows score them)."""
    row_ids, _ = _tables(_check_deal(deal), False)
    if deal.phase != "play":
        rows = np.full(NUM_ACTIONS, -1, dtype=np.int16)
        rows[row_ids] = np.arange(len(row_ids), dtype=np.int16)
        return rows
    following = 1 if deal.following else 0
    hand = deal.hands[deal.current_seat]
    actions = len(row_ids)
    if actions > INT16_ROWS:  # a dealt hand has a few thousand at most; a Deal.start hand of 50 cards, more
        raise ValueError(
            f"canonical_indices gives int16 rows, for at most {INT16_ROWS:,} legal actions; this position has "
            f"{actions:,} (a hand of {len(hand)} cards): use action_index for the ids needed"
        )
    rows = _native.canonical_table(
        row_ids[following:], deal.legal_moves().cards, hand.once, hand.twice, deal.level, NUM_ACTIONS, following
    )
    if following:
        rows[PASS_ID] = 0
    return rows


def action_index(deal: Deal, action: int, *, row_ids: np.ndarray | None = None) -> int:
    """The index into ``deal.legal_actions()`` of the canonical action of id ``action``
    (see the module's documentation): what ``deal.step`` and the agents protocol take.

    ``row_ids`` may pass :func:`ids` of this very state (the ``int16`` array), already
    computed, to save that work. ValueError for an id outside the space, an id the seat
    may not take now (masked out) or a finished deal; nothing is changed."""
    target = _check_id(action)
    _check_deal(deal)
    phase = deal.phase
    if phase == "done":
        raise ValueError("the deal is over: no action id is legal")
    if row_ids is None:
        row_ids = _tables(deal, False)[0]
    elif not isinstance(row_ids, np.ndarray) or row_ids.dtype != np.int16 or row_ids.ndim != 1:
        raise TypeError("row_ids must be the int16 array ids(deal) gives")
    if phase == "play":
        following = 1 if deal.following else 0
        if target == PASS_ID and following:
            return 0
        moves = deal.legal_moves()
        _check_rows(row_ids, len(moves.kinds) + following)
        hand = deal.hands[deal.current_seat]
        row = _native.canonical_row(row_ids[following:], moves.cards, target, hand.once, hand.twice, deal.level)
        if row >= 0:
            return int(row) + following
    else:
        _check_rows(row_ids, len(deal.legal_actions()))
        rows = np.flatnonzero(row_ids == target)
        if len(rows):
            return int(rows[0])
    raise ValueError(f"action id {target} ({describe(target)}) is not legal for seat {deal.to_act} in the {phase} phase")


def _check_rows(row_ids: np.ndarray, actions: int) -> None:
    if len(row_ids) != actions:
        raise ValueError(f"row_ids has {len(row_ids)} entries for {actions} legal actions: pass ids() of this very state")


def concretize(deal: Deal, action: int) -> Move | list[Any]:
    """The canonical action of id ``action`` (see the module's documentation): a
    :class:`~guandan_fast.Move` in the play phase (:data:`~guandan_fast.PASS` for id 0),
    the platform triple in the tribute and return phases. ValueError as :func:`action_index`."""
    index = action_index(deal, action)
    if deal.phase != "play":
        return deal.legal_actions()[index]
    if deal.following:
        return PASS if index == 0 else deal.legal_moves()[index - 1]
    return deal.legal_moves()[index]
