"""Environment speed: env steps per second with a random masked policy, and the action
space's per-call costs.

Run ``pytest benchmarks/bench_envs.py``. Headline figures go to ``extra_info`` and the
closing summary:

* ``aec full-v1`` / ``aec danzero``: PettingZoo AEC steps per second over whole deals,
  the policy drawing uniformly among the ids its observation's mask allows (``env.last()``
  + ``env.step(id)`` per step, as a training loop does);
* ``gym``: Gymnasium steps per second (each step is the learner's action and the three
  random opponents' actions up to its next turn);
* ``mask`` / ``ids`` / ``concretize`` / ``action_id``: µs per call on a 27-card lead of
  ~800 moves, and ``action_id`` of a Move beside a platform triple (the users' two forms).

All on one core.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from bench_playout import _per_second
from conftest import GAME_SPEED

from guandan_fast import Deal
from guandan_fast.encode import actions

pytest.importorskip("pettingzoo")
from guandan_fast.envs import gymnasium_env, pettingzoo_env

DEALS = 10


def _measure(benchmark: Any, play: Callable[[], int], label: str) -> None:
    """Time rounds of ``play`` (which returns its step count) and report steps per second
    over all rounds — they play different deals, so the total over the total time, not a
    median — by the wall clock and by this process's CPU time (its one core, whatever
    else the machine runs)."""
    play()  # warm-up
    counts: list[int] = []
    cpu: list[float] = []

    def round_() -> None:
        start = time.process_time()
        counts.append(play())
        cpu.append(time.process_time() - start)

    benchmark.pedantic(round_, rounds=8, iterations=1)
    assert min(counts) > 0
    if benchmark.stats is None:  # --benchmark-disable
        return
    seconds = sum(benchmark.stats.stats.data)
    rate, cpu_rate = sum(counts) / seconds, sum(counts) / sum(cpu)
    benchmark.extra_info["steps_per_second"] = round(rate)
    benchmark.extra_info["cpu_steps_per_second"] = round(cpu_rate)
    GAME_SPEED[label] = (
        f"{rate:,.0f} steps/s wall, {cpu_rate:,.0f} steps/s CPU ({seconds * 1e6 / sum(counts):.1f} µs each, "
        f"{sum(counts)} steps)"
    )


@pytest.mark.parametrize("layout", ["full-v1", "danzero"])
def test_aec_steps(benchmark: Any, layout: str) -> None:
    env = pettingzoo_env(observation=layout)
    policy = random.Random(0)
    seeds = iter(range(1 << 40))

    def play() -> int:
        steps = 0
        for _ in range(DEALS):
            env.reset(seed=next(seeds))
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[policy.randrange(len(legal))]))
                steps += 1
        return steps

    _measure(benchmark, play, f"pettingzoo AEC, {layout} observation, random masked policy")


def test_gym_steps(benchmark: Any) -> None:
    env = gymnasium_env()
    policy = random.Random(1)
    seeds = iter(range(1 << 40))

    def play() -> int:
        steps = 0
        for _ in range(DEALS):
            env.reset(seed=next(seeds))
            done = False
            while not done:
                legal = np.flatnonzero(env.action_masks())
                _, _, done, _, _ = env.step(int(legal[policy.randrange(len(legal))]))
                steps += 1
        return steps

    _measure(benchmark, play, "gymnasium, learner random masked + 3 random seats")


@pytest.fixture(scope="module")
def big_lead() -> Deal:
    deal = max((Deal.random(seed) for seed in range(40)), key=lambda d: len(d.legal_moves()))
    assert len(deal.legal_moves()) > 500
    return deal


def test_mask(benchmark: Any, big_lead: Deal) -> None:
    marks = benchmark(actions.mask, big_lead)
    assert marks.sum() > 20
    _per_second(benchmark, 1, f"mask, a lead of {len(big_lead.legal_moves())} moves")


def test_ids(benchmark: Any, big_lead: Deal) -> None:
    row_ids = benchmark(actions.ids, big_lead)
    assert len(row_ids) == len(big_lead.legal_moves())
    _per_second(benchmark, 1, "ids, the same lead")


def test_concretize(benchmark: Any, big_lead: Deal) -> None:
    row_ids = actions.ids(big_lead)
    busiest = int(np.bincount(row_ids).argmax())  # the id with the most card-level moves
    move = benchmark(actions.concretize, big_lead, busiest)
    assert actions.action_id(move) == busiest
    _per_second(benchmark, 1, f"concretize, {int((row_ids == busiest).sum())} candidates")


@pytest.mark.parametrize("form", ["Move", "platform triple"])
def test_action_id(benchmark: Any, big_lead: Deal, form: str) -> None:
    move = big_lead.legal_moves()[len(big_lead.legal_moves()) // 2]
    if form == "Move":
        found = benchmark(actions.action_id, move)
    else:
        found = benchmark(actions.action_id, move.to_platform(), big_lead.level)
    assert found == actions.action_id(move)
    _per_second(benchmark, 1, f"action_id of a {form}")
