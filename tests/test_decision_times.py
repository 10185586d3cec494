"""scripts/decision_times.py, which the README's time figures come from, on one small deal."""

from __future__ import annotations

import re
import runpy
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "decision_times.py"


def test_it_counts_every_decision_and_the_worlds_of_each_search(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), "search:budget_ms=none,worlds=3", "--deals", "1", "--seed", "5"])
    runpy.run_path(str(SCRIPT), run_name="__main__")
    out = capsys.readouterr().out
    decisions = int(re.search(r"(\d+) decisions in 1 deals", out).group(1))
    stats = {key: int(value) for key, value in re.findall(r"(\w+) (\d+)", out.splitlines()[2])}
    assert stats["decisions"] <= decisions  # the agent counts play decisions only
    searches = re.findall(
        r"(\d+) searched decisions (?:in|before) the endgame: worlds median (\S+), all 3 in (\d+)%; left the rules in (\S+)%",
        out,
    )
    assert sum(int(n) for n, *_ in searches) == stats["searched"] > 0
    # with no deadline every search judges all its worlds
    assert all(float(median) == 3 and share == "100" for _, median, share, _ in searches)
    left = sum(round(int(n) * float(percent) / 100) for n, _, _, percent in searches)
    assert left == stats["left_rules"] <= stats["searched"]
