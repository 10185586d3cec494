"""Platform triples (RULES.md §6): the one reader and writer of the competition platform's
action format ``[type, rank, cards]``, with the memories of triples already read and written.

Reading:

* :func:`parse` — what a triple names, as plain ints ``(kind, key, once, twice)``, without
  checking that the cards form that reading (a lookup among listed moves needs no more);
* :func:`read` — the same, checked: ``(kind, key, once, twice, size)``, None for a pass,
  ValueError when the cards do not read as the triple says;
* :func:`reading` — :func:`read` remembered by spelling, for :meth:`Deal.step
  <guandan_fast.engine.deal.Deal.step>`: a client sends the same triples again and again.

A triple in canonical notation is read and checked in C (:mod:`~guandan_fast.engine._notation`)
when the native generator is the one asked; anything else (other spellings: ``"10"``, lower
case, suit symbols, ``FourKings``; faults) is read here, in Python, which names the fault.

Writing: :func:`triple` (a new list, as :meth:`Move.to_platform
<guandan_fast.engine.moves.Move.to_platform>` gives it), :func:`stored_triple` (the immutable
tuple a :class:`~guandan_fast.engine.deal.Deal` stores and hands out as :func:`fresh` lists),
:func:`stored_triples` (a move list's rows, remembered), :func:`card_triple` (tribute and
return) and :func:`rank_field`.

A move named here is plain ints: its kind (a :class:`~guandan_fast.engine.kinds.MoveType`
code), its key, its cards as two planes ``(once, twice)`` and its number of cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any, Final

from . import _movegen
from ._notation import read_checked as _read_checked
from .backend import generator
from .cards import (
    BIG_JOKER_POWER,
    CARD_NAMES,
    LEVEL_POWER,
    SMALL_JOKER_POWER,
    ascii_upper,
    level_char,
    position_char,
    power_char,
)
from .hand import card_names, planes_of_names
from .kinds import (
    _BOMB,
    _CODE_BY_PLATFORM_NAME,
    _FOUR_JOKERS,
    _POSITION_BY_CHAR,
    _RANK_BY_CHAR,
    _SEQUENCE_CODES,
    PLATFORM_NAMES,
    MoveType,
    bomb_tier,
)

__all__ = [
    "NOT_A_READING",
    "PASS_ACTION",
    "StoredAction",
    "card_triple",
    "check_reading",
    "forget_readings",
    "fresh",
    "parse",
    "rank_field",
    "read",
    "reading",
    "stored_triple",
    "stored_triples",
    "triple",
]

#: The pass as a stored triple. A deal stores actions as immutable tuples ``(type, rank,
#: cards)`` — ``cards`` a tuple of card names, or ``"PASS"`` — and hands them out as fresh
#: lists (:func:`fresh`), so that nothing a caller receives shares state with a deal.
PASS_ACTION: Final = ("PASS", "PASS", "PASS")
StoredAction = tuple[Any, ...]

#: Type names by kind code (four jokers are a ``Bomb`` of rank ``JOKER``).
_TYPE_NAMES: Final = tuple(PLATFORM_NAMES[kind] for kind in sorted(PLATFORM_NAMES))
#: Bomb tier by kind and size (a move has at most 10 cards): ``bomb_tier`` as a table.
_TIERS: Final = tuple(tuple(bomb_tier(kind, size) for size in range(11)) for kind in range(len(MoveType)))


# -- reading ------------------------------------------------------------------------------------
def parse(action: object, level: int) -> tuple[int, int, int, int]:
    """The row ``(kind, key, once, twice)`` a platform triple names at ``level`` (the shape of
    :meth:`MoveList.rows <guandan_fast.engine.movelist.MoveList.rows>`), without checking that
    the cards form that reading; the pass reads as ``(0, 0, 0, 0)``. TypeError/ValueError name
    the fault."""
    if type(action) is not list and (not isinstance(action, Sequence) or isinstance(action, (str, bytes))):
        raise TypeError(f"a platform action is a [type, rank, cards] list, not {type(action).__name__}")
    if len(action) != 3:
        raise ValueError(f"a platform action has 3 fields [type, rank, cards], not {len(action)}")
    type_name, rank, cards = action
    if not isinstance(type_name, str) or not isinstance(rank, str):
        raise TypeError("the type and rank of a platform action must be strings")
    if type_name == "PASS":
        if rank != "PASS" or cards not in ("PASS", [], ()):
            raise ValueError(f"malformed pass {list(action)!r}: expected ['PASS', 'PASS', 'PASS']")
        return 0, 0, 0, 0
    if type(cards) is not list and (isinstance(cards, str) or not isinstance(cards, Sequence)):
        raise TypeError("the cards of a platform action must be a list of card strings")
    once, twice = planes_of_names(cards)
    code = _CODE_BY_PLATFORM_NAME.get(type_name)
    if type_name == "FourKings" or (code == _BOMB and ascii_upper(rank.strip()) in ("JOKER", "R")):
        return _FOUR_JOKERS, 0, once, twice
    if code is None:
        raise ValueError(f"unknown action type {type_name!r} (tribute and back are not moves)")
    return code, _key_from_rank(code, rank, level), once, twice


def _key_from_rank(code: int, rank: str, level: int) -> int:
    if code in _SEQUENCE_CODES:
        position = _POSITION_BY_CHAR.get(rank)
        if position is None:
            position = _POSITION_BY_CHAR.get(_rank_text(rank))
        if position is not None:
            return position
    else:
        natural = _RANK_BY_CHAR.get(rank)
        if natural is None:
            text = _rank_text(rank)
            if text == "B":
                return SMALL_JOKER_POWER
            if text == "R":
                return BIG_JOKER_POWER
            natural = _RANK_BY_CHAR.get(text)
        if natural is not None:
            return LEVEL_POWER if natural == level else natural
    raise ValueError(f"bad rank {rank!r} for a {PLATFORM_NAMES[MoveType(code)]}")


def _rank_text(rank: str) -> str:
    """A rank field as the canonical character (``"10"`` is ``"T"``, case and spaces ignored)."""
    text = ascii_upper(rank.strip())
    return "T" if text == "10" else text


def read(action: object, level: int, gen: ModuleType | None = None) -> tuple[int, int, int, int, int] | None:
    """What a platform triple names at ``level`` (an int 2..14), checked by ``gen`` (default:
    the chosen generator, see :mod:`guandan_fast.engine.backend`): ``(kind, key, once, twice,
    size)``, None for a pass; TypeError/ValueError naming a malformed triple or cards that do
    not form the reading it names."""
    if gen is None:
        gen = generator()
    if gen is _movegen:
        row = _read_checked(action, level)  # a triple in canonical notation that reads as it says
        if row is not None:
            return row
    kind, key, once, twice = parse(action, level)
    if kind == MoveType.PASS:
        return None
    check_reading(kind, key, once, twice, level, gen)
    return kind, key, once, twice, once.bit_count() + twice.bit_count()


def check_reading(kind: int, key: object, once: int, twice: int, level: int, gen: ModuleType | None = None) -> None:
    """ValueError unless the cards ``(once, twice)`` read as (kind, key) at ``level``, asked
    of ``gen`` (default: the chosen generator)."""
    if gen is None:
        gen = generator()
    if type(key) is not int or not 0 <= key <= 17 or not gen.reads_as(once, twice, level, kind, key):
        raise ValueError(
            f"cards {' '.join(card_names(once, twice)) or '(none)'} do not read as {PLATFORM_NAMES[MoveType(kind)]} "
            f"with key {key} at level {level_char(level)}"
        )


#: Platform triples already read, by (type, rank, cards, level): their (kind, key, once,
#: twice, size, bomb tier) when the cards really form that reading, None for a pass,
#: NOT_A_READING when they do not. A memo of a pure function (bounded: emptied when full).
_READINGS: dict[tuple[Any, ...], tuple[int, int, int, int, int, int] | None] = {}
_READINGS_MAX = 1 << 16
#: What :func:`reading` gives for a well-formed triple whose cards do not form the reading it
#: names (kind -1: no move).
NOT_A_READING: Final = (-1, 0, 0, 0, 0, -1)


def forget_readings() -> None:
    """Empty the memory of platform triples read by :func:`reading` (every triple is new
    again: what the bench's "triple not seen before" path times)."""
    _READINGS.clear()


def reading(action: Sequence[Any], level: int) -> tuple[int, int, int, int, int, int] | None:
    """:func:`read` with the default generator, remembered by spelling: ``(kind, key, once,
    twice, size, bomb tier)``, None for a pass, :data:`NOT_A_READING` when the cards do not
    form the reading named; TypeError/ValueError for a malformed triple (not remembered)."""
    memo_key = None
    try:
        if len(action) == 3:
            cards = action[2]
            kind_of_cards = cards.__class__
            if kind_of_cards is str or kind_of_cards is list or kind_of_cards is tuple:  # what the reader accepts
                memo_key = (action[0], action[1], cards if kind_of_cards is str else tuple(cards), level)
                return _READINGS[memo_key]
    except KeyError:
        pass
    except TypeError:  # no sequence, or unhashable parts: read (and refused) below, not memoised
        memo_key = None
    gen = generator()
    row = _read_checked(action, level) if gen is _movegen else None
    if row is not None:
        result: tuple[int, int, int, int, int, int] | None = (*row, _TIERS[row[0]][row[4]])
    else:  # anything else: read in Python, which names a fault (or is a pass, or no reading)
        kind, key, once, twice = parse(action, level)
        if kind == MoveType.PASS:
            result = None
        elif gen.reads_as(once, twice, level, kind, key):  # another notation
            size = once.bit_count() + twice.bit_count()
            result = (kind, key, once, twice, size, _TIERS[kind][size])
        else:
            result = NOT_A_READING
    if memo_key is not None:
        if len(_READINGS) >= _READINGS_MAX:
            _READINGS.clear()
        _READINGS[memo_key] = result
    return result


# -- writing ------------------------------------------------------------------------------------
def rank_field(kind: int, key: int, level: int) -> str:
    """The platform's rank field of a move (RULES.md §6), from its kind code and key."""
    if kind in _SEQUENCE_CODES:
        return position_char(key)
    if kind == _FOUR_JOKERS:
        return "JOKER"
    if kind == MoveType.PASS:
        return "PASS"
    return power_char(key, level)


def triple(kind: int, key: int, once: int, twice: int, level: int) -> list[Any]:
    """A move as a new platform triple ``[type, rank, cards]`` (the pass: ``["PASS", "PASS", "PASS"]``)."""
    if not kind:
        return ["PASS", "PASS", "PASS"]
    return [_TYPE_NAMES[kind], rank_field(kind, key, level), card_names(once, twice)]


def stored_triple(kind: int, key: int, once: int, twice: int, level: int) -> StoredAction:
    """The stored triple of a move given as plain ints (:data:`PASS_ACTION` when ``kind`` is 0)."""
    if not kind:
        return PASS_ACTION
    return (_TYPE_NAMES[kind], rank_field(kind, key, level), tuple(card_names(once, twice)))


class _StoredMemo:
    """Stored triples of moves already written at one level, by row (kind, key, once, twice):
    a hand lists mostly the same moves turn after turn. A memo of a pure function, bounded
    (emptied when full, or for another level)."""

    __slots__ = ("level", "triples")

    def __init__(self) -> None:
        self.level = 0
        self.triples: dict[tuple[int, int, int, int], StoredAction] = {}

    def at(self, level: int) -> dict[tuple[int, int, int, int], StoredAction]:
        if level != self.level or len(self.triples) >= 1 << 15:
            self.level, self.triples = level, {}
        return self.triples


_STORED = _StoredMemo()


def stored_triples(rows: Iterable[tuple[int, int, int, int]], level: int, actions: list[StoredAction]) -> None:
    """Append the stored triples of move rows ``(kind, key, once, twice)`` at ``level`` to
    ``actions`` (each triple written once and remembered)."""
    memo = _STORED.at(level)
    for row in rows:
        stored = memo.get(row)
        if stored is None:
            stored = memo[row] = stored_triple(*row, level)
        actions.append(stored)


def card_triple(kind: str, card: int) -> StoredAction:
    """The stored triple of a tribute (``kind`` ``"tribute"``) or a return (``"back"``)."""
    return (kind, kind, (CARD_NAMES[card],))


def fresh(stored: Sequence[Any]) -> list[Any]:
    """A stored action as a new platform triple: lists nobody else holds."""
    cards = stored[2]
    return [stored[0], stored[1], cards if cards.__class__ is str else list(cards)]
