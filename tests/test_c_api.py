"""The public C API (engine/state.pxd) from users' extensions, built during the test against
``guandan_fast.get_include()``: the example of docs/c-api.md exactly as printed (it must
print ``gf.perft`` of its deal), and a checker of make/unmake, the action lists and the
state checks on positions of random deals."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from cython_build import build_extensions, documented_extension, load

import guandan_fast as gf
from guandan_fast import Deal
from guandan_fast.engine import state as native_state

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "c-api.md"

CHECKER = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.string cimport memcmp
    from libc.stdint cimport uint64_t
    from guandan_fast.engine._movegen cimport MoveBuffer, movebuf_free, movebuf_init
    from guandan_fast.engine.state cimport (
        GF_CAPI_VERSION, PlayState, PlayUndo, move_beats, state_actions, state_check, state_from_deal, state_make,
        state_may_play, state_perft, state_play, state_unmake,
    )

    def version():
        return GF_CAPI_VERSION

    def beats(int kind, int key, int size, int last_kind, int last_key, int last_size):
        return move_beats(kind, key, size, last_kind, last_key, last_size)

    def actions(deal):
        cdef PlayState s
        cdef MoveBuffer buf
        cdef Py_ssize_t n, i
        state_from_deal(deal, &s)
        if movebuf_init(&buf, 1) != 0:  # one row: the buffer must grow
            raise MemoryError()
        try:
            n = state_actions(&s, &buf)
            return [(buf.kinds[i], buf.keys[i], buf.cards[2 * i], buf.cards[2 * i + 1]) for i in range(n)]
        finally:
            movebuf_free(&buf)

    def round_trips(deal):
        # For every action: it may be played; make gives the state Deal.step gives (byte for
        # byte) and one state_check accepts; unmake restores the state byte for byte; a
        # copy played with state_play ends the same. Returns the number of actions.
        cdef PlayState s, before, stepped, copy
        cdef PlayUndo undo
        cdef MoveBuffer buf
        cdef Py_ssize_t n, i
        state_from_deal(deal, &s)
        before = s
        assert state_check(&s) == 0
        if movebuf_init(&buf, 16) != 0:
            raise MemoryError()
        try:
            n = state_actions(&s, &buf)
            for i in range(n):
                kind, key, once, twice = buf.kinds[i], buf.keys[i], buf.cards[2 * i], buf.cards[2 * i + 1]
                assert state_may_play(&s, kind, key, once, twice), (i, kind, key)
                copy = s
                state_make(&s, kind, key, once, twice, &undo)
                assert state_check(&s) == 0, i
                child = deal.clone()
                child.step(i)
                state_from_deal(child, &stepped)
                assert memcmp(&s, &stepped, sizeof(PlayState)) == 0, i
                state_play(&copy, kind, key, once, twice)
                assert memcmp(&s, &copy, sizeof(PlayState)) == 0, i
                state_unmake(&s, &undo)
                assert memcmp(&s, &before, sizeof(PlayState)) == 0, i
            return n
        finally:
            movebuf_free(&buf)

    def may_pass(deal):
        cdef PlayState s
        state_from_deal(deal, &s)
        return state_may_play(&s, 0, 0, 0, 0)

    def perft(deal, int depth):
        cdef PlayState s
        cdef MoveBuffer buffers[6]
        cdef uint64_t count = 0
        cdef int k, code
        state_from_deal(deal, &s)
        for k in range(6):
            movebuf_init(&buffers[k], 8)
        code = state_perft(&s, depth, buffers, &count)
        for k in range(6):
            movebuf_free(&buffers[k])
        assert code == 0
        return count
    """
)


def example_source() -> str:
    """The one ```cython block of docs/c-api.md, exactly as printed."""
    return documented_extension(DOC)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_extensions(tmp_path_factory.mktemp("c_api"), {"perft_example": example_source(),
                                                               "state_checker": CHECKER})


@pytest.fixture(scope="module")
def checker(built: Path) -> Any:
    return load(built, "state_checker")


def test_the_documented_example_prints_gf_perft(built: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import perft_example"], cwd=built, check=False,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(gf.perft(gf.Deal.random(seed=1), 3)) == "4303049"


def test_get_include_holds_the_package_and_its_pxd() -> None:
    include = Path(gf.get_include())
    for name in ("state.pxd", "_movegen.pxd", "_bitops.pxd"):
        assert (include / "guandan_fast" / "engine" / name).is_file()
    assert native_state.CAPI_VERSION == 1


def test_make_unmake_and_actions_on_random_positions(checker: Any) -> None:
    assert checker.version() == native_state.CAPI_VERSION
    checked = positions = 0
    for number in range(12):
        deal = Deal.random(number, 2 + number, previous_finish=[0, 1, 2, 3] if number % 3 == 0 else None)
        rng = random.Random(number)
        while not deal.done:
            if deal.phase == "play":
                rows = checker.actions(deal)
                pass_row = [(0, 0, 0, 0)] if deal.following else []
                assert rows == pass_row + list(deal.legal_moves().rows())
                assert checker.may_pass(deal) is deal.following
                if positions % 4 == 0:
                    checked += checker.round_trips(deal)
                positions += 1
            options = deal.legal_actions()
            deal.step(rng.randrange(len(options)))
        assert checker.actions(deal) == [] and checker.round_trips(deal) == 0
    assert positions > 500 and checked > 3000


def test_move_beats_from_the_c_api_is_the_rule(checker: Any) -> None:
    """``move_beats`` cimported from state.pxd (written once, in _movegen.pxd), the Python
    ``moves.beats`` over it, and the reference's own copy agree on every pair of readings
    that can meet: every kind at its sizes, keys 0..17, leading included."""
    from guandan_fast.engine import moves, reference

    shapes = [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5), (5, 5), (6, 6), (7, 6), (8, 5), (10, 4)]
    shapes += [(9, size) for size in range(4, 11)]
    readings = [(kind, key, size) for kind, size in shapes for key in range(0 if kind == 0 else 1, 1 if kind == 0 else 18)]
    agreed = 0
    for move in readings:
        for last in readings:
            expected = reference.beats(*move, *last)
            assert checker.beats(*move, *last) == expected == moves.beats(*move, *last), (move, last)
            agreed += expected
    assert agreed > 10_000


def test_state_perft_from_an_extension(checker: Any) -> None:
    deal = Deal.start(["", "S5 S6 S7", "S3 C3", "S9 ST"], 2, leader=1, finished=[0])
    for depth in range(6):
        assert checker.perft(deal, depth) == gf.perft(deal, depth)


def test_state_from_deal_refuses_what_has_no_play_state(checker: Any) -> None:
    with pytest.raises(TypeError, match="Deal"):
        checker.actions("deal")
    with pytest.raises(ValueError, match="tribute phase"):
        checker.actions(Deal.random(1, previous_finish=[0, 1, 2, 3]))
