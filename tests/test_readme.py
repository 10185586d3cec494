"""The README's Python examples run as written, and its claims about them hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_examples import python_blocks, run_python_blocks

README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests")
def test_readme_examples_run_in_order() -> None:
    assert len(python_blocks(README)) >= 3
    namespace = run_python_blocks(README)
    follow, move_list = namespace["follow"], namespace["moves"]
    assert len(move_list) == move_list.count() > 0  # type: ignore[attr-defined]
    assert all(m.beats(namespace["gf"].Move.from_platform(namespace["last"], 2)) for m in follow)  # type: ignore[attr-defined]
    batch = namespace["batch"]
    assert batch.offsets[-1] == len(batch.kinds) and len(batch) == 2  # type: ignore[attr-defined]
    match = namespace["match"]
    assert match.over and match.winner in (0, 1)  # type: ignore[attr-defined]
    capped = namespace["capped"]
    assert capped.over and capped.deals_played == 2  # type: ignore[attr-defined]
    gf = namespace["gf"]
    count, plays = namespace["count"], namespace["plays"]
    assert count == len(plays) == 2  # type: ignore[arg-type]
    assert sum((m.cards for m in plays), gf.Hand()) == gf.Hand.parse("S3 S4 S5 S6 S7 H9 D9 C9 SK DK")  # type: ignore[attr-defined]
    assert namespace["x"].shape == (513,) and namespace["batch_x"].shape == (2, 513)  # type: ignore[attr-defined]
    world, deal = namespace["world"], namespace["deal"]
    assert world.hands[namespace["seat"]] == deal.hands[namespace["seat"]]  # type: ignore[attr-defined,index]
