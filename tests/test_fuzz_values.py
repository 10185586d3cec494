"""Seeded fuzzing of the values' pickles: Hand, Move, MoveList and PASS (issue 21).

A value is unpickled through the same checks as its construction, so a pickle that was
tampered with gives a ValueError/TypeError when it is loaded, never a value that is wrong
(a Move whose cards do not form its reading, a Hand with bits that are no card) or one that
fails later (an IndexError in ``repr``, an OverflowError in a kernel). Two campaigns:

* ``forged``: each value's own ``__reduce__``, with its arguments replaced by hostile or
  nearby values (a level of 99, a key of 2**40, planes of -1 or 2**64, a pair's key on a
  single's cards, a list's bytes flipped, cut or lengthened), pickled and loaded;
* ``damaged``: the pickles themselves (every protocol) with bytes flipped, inserted, cut
  or repeated (those whose opcodes still read, lengths within the data); whatever the
  pickle machinery makes of them, an error raised in the package's own code must be a
  ValueError/TypeError.

Every value that loads must then be valid and behave (equal to its construction from its
parts, printable, hashable but a MoveList (whose arrays can be set), readable as a platform
triple, pickled again). Each campaign
runs in a child process (``fuzzing.run_isolated``), so a native crash fails the test with
its signal instead of ending the run.
"""

from __future__ import annotations

import pickle
import pickletools
import random
import traceback
from typing import Any

import numpy as np
import pytest
from fuzzing import main, run_isolated

from guandan_fast import Rules


class _Forged:
    """Pickles as ``function(*args)``: a value's own reduction, tampered with."""

    def __init__(self, function: Any, args: tuple[Any, ...]) -> None:
        self.function, self.args = function, args

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return self.function, self.args


#: Picklable values no part of a value expects (and a few it does, out of place).
HOSTILE: tuple[Any, ...] = (
    None, True, False, 0, 1, 2, 3, 14, 15, 17, 18, 99, 255, 256, -1, -2, 2**31, 2**40, 2**53, 2**54, 2**54 - 1,
    2**63, 2**64, 2**64 - 1, -(2**63), 2**70, -(2**70), 1.5, 3.0, float("nan"), float("inf"), "", "x", "5", "S3",
    b"", b"\x00", b"\x00" * 18, b"\xff" * 18, [], (), [1], {}, {"a": 1}, np.int64(3), np.uint64(2**63), np.float64(2.0),
)


def _values(rng: random.Random) -> list[Any]:
    """A seeded mix of every value: hands (empty, dealt, the whole double deck), moves of
    every kind (PASS included), and move lists (leading, following, empty, the reference's)."""
    from guandan_fast import PASS, Hand, legal_moves
    from guandan_fast.engine.deal import deal_cards
    from guandan_fast.engine.hand import FULL_PLANE

    values: list[Any] = [Hand(), Hand.from_bits(FULL_PLANE, FULL_PLANE), PASS, Hand("SB SB HR HR H2 H2")]
    four_jokers = legal_moves("SB SB HR HR", 2)
    values += [m for m in four_jokers if m.kind.name == "FOUR_JOKERS"]
    for _ in range(6):
        hands = deal_cards(rng)
        level = rng.randint(2, 14)
        values += hands[:2]
        lead = legal_moves(hands[0], level)
        values.append(lead)
        kinds: dict[int, Any] = {}
        for move in lead:
            kinds.setdefault(int(move.kind), []).append(move)
        values += [rng.choice(moves) for moves in kinds.values()]
        last = rng.choice(list(lead))
        values.append(legal_moves(hands[1], level, last))
        values.append(legal_moves(hands[1], level, last, backend="reference") if rng.random() < 0.3 else last)
    values.append(legal_moves("S3", 5, ["Single", "A", ["SA"]]))  # an empty list
    return values


def _nearby(rng: random.Random, value: Any) -> Any:
    """A value close to ``value`` (an int with a bit flipped or one more/less, bytes damaged),
    or a hostile one."""
    if isinstance(value, bool) or rng.random() < 0.4:
        return rng.choice(HOSTILE)
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, value ^ (1 << rng.randrange(64)), value | (1 << rng.randrange(54)),
                           value << rng.randrange(1, 12), -value])
    if isinstance(value, bytes):
        data = bytearray(value)
        how = rng.randrange(5)
        if how == 0 and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif how == 1:
            del data[rng.randrange(len(data) + 1):]
        elif how == 2:
            data += bytes(rng.randrange(256) for _ in range(rng.choice([1, 17, 18, 36])))
        elif how == 3 and len(data) >= 18:
            start = rng.randrange(len(data) - 17)
            data += data[start : start + 18]  # a row again, out of its place
        else:
            data = bytearray(rng.randrange(256) for _ in range(len(data)))
        return bytes(data)
    return rng.choice(HOSTILE)


def _check_loaded(value: Any) -> list[str]:
    """Why a value that was loaded is wrong or misbehaves (empty: it is a valid value)."""
    from guandan_fast import Hand, Move, MoveList, MoveType

    def fails(what: str) -> str:
        return f"{type(value).__name__} {what}"

    try:
        again = pickle.loads(pickle.dumps(value))
        if again != value:
            return [fails("does not survive another pickle")]
        if type(value) is Hand:
            repr(value), hash(value), str(value)
            if Hand.from_bits(value.once, value.twice) != value or Hand(value.to_platform()) != value:
                return [fails(f"is no valid hand: planes {value.once:#x} / {value.twice:#x}")]
            if len(value) != len(list(value)) or int(value.counts().sum()) != len(value):
                return [fails("counts its cards in two ways")]
        elif type(value) is Move:
            repr(value), hash(value), value.tier, value.rank
            if value.kind is MoveType.PASS:
                if value.cards or value.key:
                    return [fails(f"is a pass with cards or a key: {value.cards!r} {value.key}")]
                return []
            if Move(value.kind, value.key, value.cards, value.level) != value:
                return [fails(f"is no valid reading: {value!r}")]
            if Move.from_platform(value.to_platform(), value.level) != value or not value.beats(None):
                return [fails(f"does not read back from its triple: {value!r}")]
        elif type(value) is MoveList:
            repr(value), value.to_numpy(), value.to_platform()
            if not 2 <= value.level <= 14 or list(MoveList(value, value.level)) != list(value):
                return [fails(f"is no valid list at level {value.level}")]
            for move in value:
                if Move(move.kind, move.key, move.cards, move.level) != move or move not in value:
                    return [fails(f"holds a move that is no valid reading: {move!r}")]
    except Exception as error:  # noqa: BLE001 - the point: a loaded value must behave
        return [fails(f"misbehaves once loaded: {type(error).__name__}: {str(error)[:200]}")]
    return []


def _load(data: bytes, what: str, *, forged: bool) -> list[str]:
    """Load a pickle: a forged reduction may only raise ValueError/TypeError; a damaged pickle
    may raise what the pickle machinery raises, but an error from the package's own code must
    be a ValueError/TypeError. A value that loads must be valid."""
    try:
        value = pickle.loads(data)
    except (ValueError, TypeError):
        return []
    except Exception as error:  # noqa: BLE001 - classified below
        ours = any("guandan_fast" in frame.filename for frame in traceback.extract_tb(error.__traceback__))
        if forged or ours:
            return [f"{what}: {type(error).__name__}: {str(error)[:200]}"]
        return []
    return [f"{what}: {problem}" for problem in _check_loaded(value)]


def forged(seed: int) -> list[str]:
    rng, problems = random.Random(seed), []
    values = _values(rng)
    for value in values:
        problems += [f"corpus: {p}" for p in _check_loaded(value)]
    for _ in range(20000):
        value = rng.choice(values)
        reduced = value.__reduce__()
        if isinstance(reduced, str):  # the one PASS, pickled by name
            continue
        function, args = reduced
        args = list(args)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            at = rng.randrange(len(args))
            args[at] = _nearby(rng, args[at])
        what = f"{function.__name__}{tuple(args)!r}"[:300]
        problems += _load(pickle.dumps(_Forged(function, tuple(args))), what, forged=True)
    return problems


def damaged(seed: int) -> list[str]:
    rng, problems = random.Random(seed), []
    values = _values(rng)
    pickles = [(pickle.dumps(value, protocol), type(value).__name__) for value in values for protocol in range(6)]
    for _ in range(20000):
        data, name = rng.choice(pickles)
        data = bytearray(data)
        for _ in range(rng.choice([1, 1, 2, 4])):
            how = rng.randrange(4)
            at = rng.randrange(len(data))
            if how == 0:
                data[at] = rng.randrange(256)
            elif how == 1:
                data.insert(at, rng.randrange(256))
            elif how == 2:
                del data[at]
            else:
                data[at:at] = data[at : at + rng.randrange(1, 24)]
        if _opcodes_read(bytes(data)):
            problems += _load(bytes(data), f"damaged {name} pickle {bytes(data)[:120]!r}", forged=False)
    return problems


def _opcodes_read(data: bytes) -> bool:
    """Whether the opcodes of a pickle read to its STOP with every length within the data:
    a damaged length field would make the unpickler allocate what it names (gigabytes)
    before it finds the data short, a fault of the pickle machinery, not of the values."""
    try:
        for _ in pickletools.genops(data):
            pass
    except Exception:  # noqa: BLE001 - any reading fault: not a pickle to load
        return False
    return True


CAMPAIGNS = {"forged": forged, "damaged": damaged}


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_fuzz_of_value_pickles_finds_nothing(campaign: str) -> None:
    assert run_isolated("test_fuzz_values.py", campaign, seed=20261) == []


@pytest.mark.parametrize(
    ("function", "args", "words"),
    [
        ("_restore_move", (1, 3, 1 << 4, 0, 99), "level"),  # a Move of level 99
        ("_restore_move", (1, 3, 1 << 0, 0, 2), "do not read as Single with key 3"),  # 'Single 3' made of S2
        ("_restore_move", (1, 2**40, 1 << 4, 0, 2), "key 1099511627776"),
        ("_restore_move", (99, 3, 1 << 4, 0, 2), "MoveType"),
        ("_restore_move", (1, 3, -1, 0, 2), "bits 0..53"),
        ("_restore_hand", (-1, 0), "bits 0..53"),
        ("_restore_hand", (2**64, 0), "bits 0..53"),
        ("_restore_hand", (1, 2), "must also be marked 'once'"),
        ("_restore_hand", (1.0, 0), "must be an integer"),
        ("_restore_list", (2, b"\x00" * 17), "no whole number of moves"),
        ("_restore_list", (2, (1 << 4).to_bytes(8, "little") + bytes(8) + bytes([1, 4])), "do not read as Single with key 4"),
        ("_restore_list", (15, b""), "level"),
        ("_restore_list", (2, "moves"), "bytes expected"),
    ],
)
def test_the_faults_of_issue_21_are_refused_at_load(function: str, args: tuple[Any, ...], words: str) -> None:
    from guandan_fast.engine import hand, movelist, moves

    restore = next(getattr(module, function) for module in (hand, moves, movelist) if hasattr(module, function))
    with pytest.raises((ValueError, TypeError), match=words):
        pickle.loads(pickle.dumps(_Forged(restore, args)))


def test_state_forged_onto_a_value_is_refused() -> None:
    """A pickle that builds a value by setting state (as Python's default pickling of an
    object with slots would) is refused with a TypeError, and the value is unchanged."""
    from guandan_fast import PASS, Hand, legal_moves

    for value in (Hand("S3"), PASS, legal_moves("S3 S4", 2)):
        with pytest.raises(TypeError, match="unpickled from"):
            value.__setstate__((None, {"_once": 7, "_twice": 0}))
    assert Hand("S3").once == 1 << 4 and PASS.key == 0


def test_every_value_survives_pickling_and_copying() -> None:
    import copy

    from guandan_fast import PASS, Hand, Move

    for value in _values(random.Random(3)):
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            again = pickle.loads(pickle.dumps(value, protocol))
            assert type(again) is type(value)
            assert again == value
        if isinstance(value, (Hand, Move)):
            assert copy.copy(value) is value and copy.deepcopy(value) is value
    assert pickle.loads(pickle.dumps(PASS)) is PASS


def _match_in_second_deal() -> Any:
    from guandan_fast import Match

    match = Match(seed=5)
    while match.deals_played == 0:
        match.step(0)
    return match


class _Regional(Rules):
    """A user's subclass of the rules (a named preset), at module level to pickle."""


def _tampered(match: Any, **changes: Any) -> Any:
    """``match``'s own reduction with some of its parts replaced."""
    function, args = match.__reduce__()
    names = ("rules", "first_stream", "deals", "team_levels")
    parts = dict(zip(names, args))
    parts.update(changes)
    return _Forged(function, tuple(parts[name] for name in names))


def _deals_changed(match: Any, change: Any) -> list[Any]:
    deals = [list(actions) for actions in match.__reduce__()[1][2]]
    change(deals)
    return deals


def _other_seat(deals: list[Any]) -> None:
    seat, action = deals[0][0]
    deals[0][0] = ((seat + 1) % 4, action)


def _illegal(deals: list[Any]) -> None:
    seat, _ = deals[0][0]
    deals[0][0] = (seat, ["Bomb", "A", ["SA", "SA", "HA", "HA"]])


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"rules": "national"}, "rules must be a guandan_fast.Rules"),
        ({"first_stream": None}, "random state"),
        ({"first_stream": (3, (1,) * 5, None)}, "random state"),
        ({"first_stream": ()}, "random state"),
        ({"first_stream": {}}, "random state"),
        ({"first_stream": (3, (-1,) * 625, None)}, "random state"),
        ({"first_stream": (3, (2**64,) * 625, None)}, "random state"),
        ({"deals": "x"}, "non-empty list"),
        ({"deals": []}, "non-empty list"),
        ({"team_levels": (99, 2)}, "level"),
        ({"deals": lambda m: _deals_changed(m, _other_seat)}, "an action of seat"),
        ({"deals": lambda m: _deals_changed(m, _illegal)}, "illegal action for seat"),
        ({"deals": lambda m: _deals_changed(m, lambda d: d.insert(1, []))}, "deal 3 begins before deal 2 ended"),
        ({"deals": lambda m: _deals_changed(m, lambda d: d.pop())}, "no deal follows"),
        ({"deals": lambda m: _deals_changed(m, lambda d: d[0].append("x"))}, "pair"),
        ({"deals": lambda m: _deals_changed(m, lambda d: d.__setitem__(1, ()))}, "must be a list"),
    ],
)
def test_a_damaged_match_pickle_is_refused(changes: dict[str, Any], words: str) -> None:
    """A match unpickles by replaying its actions through Match.step: whatever is changed,
    it either is a match step reaches or is refused."""
    match = _match_in_second_deal()
    changes = {name: value(match) if callable(value) else value for name, value in changes.items()}
    with pytest.raises((ValueError, TypeError), match=words):
        pickle.loads(pickle.dumps(_tampered(match, **changes)))


def test_a_match_pickle_round_trips_and_its_raw_state_is_refused() -> None:
    import copy
    import copyreg

    from guandan_fast import Match

    match = _match_in_second_deal()
    again = pickle.loads(pickle.dumps(match))
    assert (again.levels, again.deals_played, again.deal) == (match.levels, match.deals_played, match.deal)
    assert [vars(record) for record in again.records] == [vars(record) for record in match.records]
    capped = Match(seed=2, rules=_Regional(deal_cap=1))
    while not capped.over:
        capped.step(0)
    done = pickle.loads(pickle.dumps(capped))
    assert done.over and (done.winner, done.levels) == (capped.winner, capped.levels) and type(done.rules) is _Regional
    match.deal.team_levels = (5, 5)  # a public, checked setting (a server's word)
    assert pickle.loads(pickle.dumps(match)).deal.team_levels == (5, 5)
    assert copy.deepcopy(match).deal == match.deal and copy.deepcopy(match) is not match
    match.deal = match.deal.with_hands(match.deal.hands[::-1], check_public=False)
    with pytest.raises(ValueError, match="replaced hands, or ended outside Match.step cannot be pickled"):
        pickle.dumps(match)
    assert copy.deepcopy(match).deal == match.deal  # a copy is no pickle: it copies what is there
    bypassed = Match(seed=4)
    while not bypassed.deal.done:
        bypassed.deal.step(0)  # the deal played to its end around Match.step: never scored
    with pytest.raises(ValueError, match="ended outside Match.step"):
        pickle.dumps(bypassed)

    class Raw:  # Python's default pickling of a plain object: made bare, then its __dict__ set
        def __reduce__(self) -> tuple[Any, ...]:
            return (copyreg._reconstructor, (Match, object, None), dict(vars(match), _levels=[99, -5]))

    with pytest.raises(TypeError, match="unpickled by replaying its actions"):
        pickle.loads(pickle.dumps(Raw()))


def test_damaged_rules_are_refused_at_load() -> None:
    import copyreg
    import dataclasses

    from guandan_fast import Rules

    rules = Rules.openguandan()
    assert pickle.loads(pickle.dumps(rules)) == rules
    capped = Rules(deal_cap=np.int64(3))  # a numpy integer counts as the int it equals
    assert capped.deal_cap == 3 and type(capped.deal_cap) is int and capped == Rules(deal_cap=3)
    options = dataclasses.astuple(rules)
    with pytest.raises(ValueError, match="deal_cap"):
        pickle.loads(pickle.dumps(_Forged(Rules, (*options[:6], -7, *options[7:]))))

    class Raw:
        def __reduce__(self) -> tuple[Any, ...]:
            return (copyreg._reconstructor, (Rules, object, None), dict(vars(rules), deal_cap=-7))

    with pytest.raises(TypeError, match="unpickled from their options"):
        pickle.loads(pickle.dumps(Raw()))


def test_a_deal_is_not_made_bare() -> None:
    from guandan_fast import Deal

    with pytest.raises(TypeError, match=r"Deal\.start"):
        Deal()


def test_indices_are_integers_and_only_integers() -> None:
    """A move list, a batch and a deal take an int, a numpy integer or an ``__index__``
    object as an index; a bool, a float, a string, a tuple or a ``numpy.timedelta64``
    (which numpy files under its integers) is a TypeError, a huge integer an IndexError."""
    from decimal import Decimal

    from guandan_fast import Deal, legal_moves, legal_moves_batch

    moves = legal_moves("S3 S4 S5", 2)
    assert moves[np.int64(1)] == moves[1] == moves[np.array(1)] and moves.row(np.uint8(2)) == moves.row(-1)
    for bad in (2.0, "1", b"1", (0,), [0], None, ..., True, np.timedelta64(1), Decimal(1), np.array([0, 1]), np.array(1.0)):
        with pytest.raises(TypeError, match="move list indices must be integers or slices"):
            moves[bad]
        with pytest.raises(TypeError, match="move list row is read by an integer index"):
            moves.row(bad)
    with pytest.raises(TypeError, match="not slice"):
        moves.row(slice(0, 2))
    for huge in (np.uint64(2**64 - 1), 2**70, -(2**70)):
        with pytest.raises(IndexError, match="out of bounds"):
            moves[huge]
        with pytest.raises(IndexError, match="out of bounds"):
            moves.row(huge)
    batch = legal_moves_batch(["S3", "S4"], 2)
    assert batch[np.int8(1)] == batch[1] == batch[np.array(1)]
    with pytest.raises(TypeError, match="batch indices"):
        batch[np.timedelta64(1)]
    deal = Deal.random(seed=1)
    before = deal.clone()
    for bad in (np.timedelta64(0), np.array(0.0), True):
        with pytest.raises(TypeError, match="not (timedelta64|ndarray|a bool)"):
            deal.step(bad)
    assert deal == before
    deal.step(np.array(0))  # a 0-d integer array is an index, as everywhere
    before.step(0)
    assert deal == before
    with pytest.raises(TypeError, match="integers"):
        deal.world_playouts([[[np.timedelta64(1), 0]] * 4], [0])
    # the one check, as_index, is what is_integer tells: a level or a seat is no time span either
    from guandan_fast.engine.cards import as_index, is_integer

    for value in (3, np.int64(3), np.uint8(3), np.array(3), np.timedelta64(3), True, 3.0, "3", np.array([3])):
        if is_integer(value):
            assert as_index(value, "x") == 3
        else:
            with pytest.raises(TypeError, match="^x, not "):
                as_index(value, "x")
    with pytest.raises(TypeError, match="not timedelta64"):
        legal_moves("S3", np.timedelta64(5))


def test_a_playout_records_only_when_told_true_or_false() -> None:
    from guandan_fast import Deal

    deal = Deal.random(seed=3)
    assert isinstance(deal.playout(0, record=False), list)
    with pytest.raises(TypeError, match="record must be True or False"):
        deal.playout(0, record="no")  # type: ignore[call-overload]


if __name__ == "__main__":
    main(CAMPAIGNS)
