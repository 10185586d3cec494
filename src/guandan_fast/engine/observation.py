"""What one seat sees of a deal: the :class:`Observation` mapping that
:meth:`Deal.observation <guandan_fast.engine.deal.Deal.observation>` returns (actions as the
platform triples of :mod:`~guandan_fast.engine.notation`, RULES.md §6).

Layering: this module sits below :mod:`guandan_fast.engine.deal` and knows nothing of ``Deal``.
The deal hands :func:`observe` a :class:`DealView` — plain values, append-only logs and
a callable for its legal actions — and every field is computed from that view. Besides
the seat's own fields, an observation carries the competition platform's act-message
fields (``Deal.observation`` always has); :func:`guandan_fast.platform.act_message`
returns just those, as a plain dict shaped like the server's ``act`` message. Fields that
cost time in proportion to the history or to the number of legal actions (``history``,
``legal_actions``, ``actionList``, ...) are computed on first access, so an observation
at a lead of hundreds of moves is cheap until those fields are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from .cards import level_char
from .hand import Hand
from .notation import StoredAction, fresh, stored_triple

__all__ = [
    "ACT_FIELDS",
    "FIELDS",
    "OWN_FIELDS",
    "DealView",
    "Observation",
    "observe",
]


class DealView(NamedTuple):
    """The state one observation is computed from (immutable values, and logs the deal
    only ever appends to, read up to their length at the time of the observation)."""

    seat: int
    phase: str
    to_act: int | None
    hand: Hand  #: the seat's own cards
    cards_left: tuple[int, int, int, int]
    level: int
    team_levels: tuple[int, int]
    last_seat: int  #: who made the move to beat, -1 when leading
    last: tuple[int, int, int, int] | None  #: the move to beat as (kind, key, once, twice)
    card_actions: tuple[tuple[int, StoredAction], ...]  #: tributes and returns, (seat, triple)
    plays: Sequence[int]  #: the deal's packed play log (append-only; see :func:`play_row`)
    play_count: int  #: how many plays of ``plays`` belong to this view
    trick: tuple[int, int, int, int]  #: per seat, its action in the current trick (index into plays) or -1
    finish: tuple[int, ...]
    actions: Callable[[], Sequence[StoredAction]]  #: the seat's legal actions (empty unless it acts)


#: The seat's own fields of an observation.
OWN_FIELDS = (
    "seat",
    "phase",
    "to_act",
    "hand",
    "cards_left",
    "last_move",
    "last_seat",
    "history",
    "finish_order",
    "level",
    "team_levels",
    "legal_actions",
)
#: The competition platform's act-message fields of an observation.
ACT_FIELDS = (
    "type",
    "stage",
    "myPos",
    "handCards",
    "publicInfo",
    "selfRank",
    "oppoRank",
    "curRank",
    "curPos",
    "curAction",
    "greaterPos",
    "greaterAction",
    "actionList",
    "indexRange",
)
#: Every field of an observation, in order.
FIELDS = OWN_FIELDS + ACT_FIELDS
_FIELD_SET = frozenset(FIELDS)


class Observation(Mapping[str, Any]):
    """One seat's view of a deal, as a read-only mapping of :data:`FIELDS`.

    Every value is computed at most once, on first access, from the state at the time
    :meth:`Deal.observation <guandan_fast.engine.deal.Deal.observation>` was called (later steps
    of the deal change nothing here); values are the observation's own (changing them
    changes nothing in the deal). ``dict(observation)`` gives a plain dict (e.g. for JSON).
    """

    __slots__ = ("_lazy", "_values")

    def __init__(self, values: dict[str, Any], lazy: dict[str, Callable[[], Any]]) -> None:
        self._values = values
        self._lazy = lazy

    def __getitem__(self, key: str) -> Any:
        values = self._values
        if key in values:
            return values[key]
        make = self._lazy.pop(key, None)
        if make is None:
            raise KeyError(key)
        value = values[key] = make()
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(FIELDS)

    def __len__(self) -> int:
        return len(FIELDS)

    def __contains__(self, key: object) -> bool:
        return key in _FIELD_SET

    def __reduce__(self) -> tuple[Any, ...]:
        return (Observation, (dict(self), {}))

    def __repr__(self) -> str:
        return f"Observation({dict(self)!r})"


def _memo(make: Callable[[], Sequence[StoredAction]]) -> Callable[[], Sequence[StoredAction]]:
    box: list[Sequence[StoredAction]] = []

    def once() -> Sequence[StoredAction]:
        if not box:
            box.append(make())
        return box[0]

    return once


def play_row(plays: Sequence[int], index: int) -> tuple[int, int, int, int, int]:
    """Play ``index`` of a packed play log as ``(seat, kind, key, once, twice)``: a log
    holds three words a play, ``seat | kind << 2 | key << 6``, ``once`` and ``twice`` (so
    that the native encoders read it without a Python object per play)."""
    at = 3 * index
    word = plays[at]
    return word & 3, word >> 2 & 15, word >> 6, plays[at + 1], plays[at + 2]


def observe(view: DealView) -> Observation:
    """The observation of ``view.seat`` (see :meth:`Deal.observation
    <guandan_fast.engine.deal.Deal.observation>` for the fields)."""
    seat, level, plays, count = view.seat, view.level, view.plays, view.play_count
    actions = _memo(view.actions)
    own, other = view.team_levels[seat & 1], view.team_levels[1 - (seat & 1)]
    if count:
        cur_pos = play_row(plays, count - 1)[0]
    elif view.card_actions:
        cur_pos = view.card_actions[-1][0]
    else:
        cur_pos = -1

    def play_triple(index: int) -> list[Any]:
        _, kind, key, once, twice = play_row(plays, index)
        return fresh(stored_triple(kind, key, once, twice, level))

    def last_move() -> list[Any] | None:
        return None if view.last is None else fresh(stored_triple(*view.last, level))

    def history() -> list[list[Any]]:
        out = [[s, fresh(triple)] for s, triple in view.card_actions]
        out.extend([play_row(plays, i)[0], play_triple(i)] for i in range(count))
        return out

    def cur_action() -> list[Any] | None:
        if count:
            return play_triple(count - 1)
        return fresh(view.card_actions[-1][1]) if view.card_actions else None

    def action_list() -> list[list[Any]]:
        return [fresh(action) for action in actions()]

    def public_info() -> list[dict[str, Any]]:
        return [
            {"rest": view.cards_left[s], "playArea": None if view.trick[s] < 0 else play_triple(view.trick[s])}
            for s in range(4)
        ]

    values: dict[str, Any] = {
        "seat": seat,
        "phase": view.phase,
        "to_act": view.to_act,
        "cards_left": list(view.cards_left),
        "last_seat": view.last_seat,
        "finish_order": list(view.finish),
        "level": level,
        "team_levels": list(view.team_levels),
        "type": "act",
        "stage": "back" if view.phase == "return" else view.phase,
        "myPos": seat,
        "selfRank": level_char(own),
        "oppoRank": level_char(other),
        "curRank": level_char(level),
        "curPos": cur_pos,
        "greaterPos": view.last_seat,
    }
    lazy: dict[str, Callable[[], Any]] = {
        "hand": view.hand.to_platform,
        "last_move": last_move,
        "history": history,
        "legal_actions": action_list,
        "handCards": view.hand.to_platform,
        "publicInfo": public_info,
        "curAction": cur_action,
        "greaterAction": last_move,
        "actionList": action_list,
        "indexRange": lambda: len(actions()) - 1,
    }
    return Observation(values, lazy)
