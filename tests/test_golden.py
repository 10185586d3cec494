"""Both implementations reproduce the independently computed golden move lists exactly."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import as_comparable, load_golden

from guandan_fast import legal_moves

GOLDEN = load_golden()


def _case_id(case: dict[str, Any]) -> str:
    last = "lead" if case["last"] is None else f"{case['last'][0]}-{case['last'][1]}"
    return f"L{case['level']}-{len(case['hand'])}cards-{last}"


def test_golden_file_covers_leading_and_following() -> None:
    assert len(GOLDEN) >= 90
    assert any(case["last"] is None for case in GOLDEN)
    assert any(case["last"] is not None for case in GOLDEN)


@pytest.mark.parametrize("case", GOLDEN, ids=[_case_id(c) for c in GOLDEN])
@pytest.mark.parametrize("strongest", [False, True], ids=["complete", "strongest"])
def test_golden_move_lists(case: dict[str, Any], strongest: bool, backend: str) -> None:
    moves = legal_moves(case["hand"], case["level"], case["last"], strongest=strongest, backend=backend)
    expected = as_comparable(case["strongest" if strongest else "moves"])
    got = as_comparable(moves.to_platform())
    assert len(moves) == len(got), "the move list holds duplicates"
    assert got == expected, f"missing {sorted(expected - got)[:5]}, extra {sorted(got - expected)[:5]}"
