"""scripts/bombs_kept.py, which the docs' share of broken bombs comes from."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

from guandan_fast import Hand

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "bombs_kept.py"


def test_it_tells_a_kept_bomb_from_a_broken_one() -> None:
    script = runpy.run_path(str(SCRIPT))
    whole_ranks, kept_whole = script["whole_ranks"], script["kept_whole"]
    kept = Hand("S5 H5 D5 C5 S9")
    assert len(whole_ranks(kept, 2)) == 1 and kept_whole(kept, 2, whole_ranks(kept, 2)) == 1
    assert whole_ranks(Hand("H2 S2 D2 C2 S9"), 2) == []  # three natural 2s and the wildcard
    # the docs' example: 3s, kings and aces held four or more, and the plain count breaks some
    broken = Hand("S2 H2 C2 S3 S3 C3 C3 S5 S6 S6 H7 D8 C9 CT CT CJ DJ CQ SK HK CK CK DK SA HA DA DA")
    ranks = whole_ranks(broken, 2)
    assert [int(row.sum()) for row in ranks] == [4, 5, 4]
    assert kept_whole(broken, 2, ranks) < 3


def test_it_counts_the_hands(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), "--hands", "40", "--seed", "3"])
    runpy.run_path(str(SCRIPT), run_name="__main__")
    out = capsys.readouterr().out
    found = re.search(r"(\d+) dealt hands .*?(\d+) hold.*in (\d+) of them", out, re.DOTALL)
    assert found is not None, out
    hands, holding, broken = map(int, found.groups())
    assert hands == 40 and 0 < holding <= 40 and 0 <= broken <= holding
