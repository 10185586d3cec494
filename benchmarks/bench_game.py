"""The Deal paths a user takes: ``step`` with each input form side by side, and an
observation at a big lead.

Run ``pytest benchmarks/bench_game.py``. Every case times one call on a fresh copy of a
seeded 27-card deal (the copy is made outside the timing), so nothing cached by an earlier
call helps:

* ``step[triple]``: a platform triple, as a platform client holds it;
* ``step[Move]``: a :class:`~guandan_fast.Move` from ``deal.legal_moves()``;
* ``step[index]``: an index into ``legal_actions()``; an index presupposes the list, so
  the deal's move list is made before the timing (as after ``legal_moves()``);
* ``observation``: ``deal.observation(seat)`` for the seat to act at a lead of about 500
  moves (``observation+actionList`` also reads the whole action list).

Medians go to the closing summary (``GAME_SPEED``) and to ``extra_info``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast.engine.deal import Deal

ROUNDS = 2000


def _following_deal() -> Deal:
    """Seat 0 of a seeded deal led its lowest single: seat 1 (27 cards) follows."""
    deal = Deal.random(seed=1, leader=0)
    deal.step(next(action for action in deal.legal_actions() if action[0] == "Single"))
    return deal


def _big_lead(target: int = 500) -> Deal:
    """The seeded 27-card deal whose leader has the number of legal moves closest to ``target``."""
    seed = min(range(40), key=lambda s: abs(len(Deal.random(seed=s).legal_moves()) - target))
    return Deal.random(seed=seed)  # a fresh deal: no move list cached for the clones to share


SITUATIONS: dict[str, Callable[[], Deal]] = {"following": _following_deal, "leading": lambda: _big_lead(500)}


def _time(benchmark: Any, label: str, run: Callable[[Deal], Any], setup: Callable[[], Deal]) -> None:
    benchmark.pedantic(run, setup=lambda: ((setup(),), {}), rounds=ROUNDS, warmup_rounds=50)
    if benchmark.stats is None:  # --benchmark-disable
        return
    median = benchmark.stats.stats.median * 1e6
    benchmark.extra_info["median_us"] = round(median, 2)
    GAME_SPEED[label] = f"{median:.1f} µs median"


@pytest.mark.parametrize("situation", SITUATIONS)
@pytest.mark.parametrize("form", ["triple", "Move", "index"])
def test_step(benchmark: Any, situation: str, form: str) -> None:
    start = SITUATIONS[situation]()
    probe = start.clone()  # list the moves on a copy: the timed copies of start share no cache
    pick = len(probe.legal_moves()) // 2  # a move from the middle of the list
    move = probe.legal_moves()[pick]
    action: Any = {"triple": move.to_platform(), "Move": move, "index": pick + start.following}[form]

    def fresh_copy() -> Deal:
        deal = start.clone()
        if form == "index":
            deal.legal_moves()
        return deal

    _time(benchmark, f"Deal.step({form}), {situation}", lambda deal: deal.step(action), fresh_copy)
    after = start.clone()
    after.step(action)
    assert after.plays[-1][1:] == (int(move.kind), move.key, move.cards.once, move.cards.twice)


@pytest.mark.parametrize("read_actions", [False, True], ids=["observation", "observation+actionList"])
def test_observation_at_a_big_lead(benchmark: Any, read_actions: bool) -> None:
    start = _big_lead(500)
    seat = start.to_act
    count = len(start.clone().legal_moves())

    def observe(deal: Deal) -> Any:
        observation = deal.observation(seat)
        return observation["actionList"] if read_actions else observation

    label = f"Deal.observation at a {count}-move lead" + (" + actionList" if read_actions else "")
    _time(benchmark, label, observe, start.clone)
    assert len(start.observation(seat)["actionList"]) == count
