"""Platform client latency over the real OpenGuanDan recordings (``tests/data/platform/``).

Run ``pytest benchmarks/bench_platform.py``. Every ``act`` message a recorded seat
received is answered as the client answers it: the JSON text decoded, the mirror fed
(without the list comparison, which runs after the answer is sent), the agent asked, its
choice mapped to the server's list entry and the answer encoded. The agent's own time (a
:class:`~guandan_fast.agents.RandomAgent`, move generation included) is measured apart and
left out. The target is a median under 100 µs per ``act``. The ``notify`` messages in
between (each play applied to the mirrored deal) are timed too and reported beside it.
"""

from __future__ import annotations

import gzip
import json
import statistics
import time
from pathlib import Path
from typing import Any

from conftest import GAME_SPEED

from guandan_fast.agents import make_agent
from guandan_fast.platform import Mirror, answer_index
from guandan_fast.platform.protocols import OpenGuanDanProtocol

RECORDINGS = Path(__file__).resolve().parents[1] / "tests" / "data" / "platform"
SESSIONS = sorted(RECORDINGS.glob("session-*.jsonl.gz"))


class TimedAgent:
    """A random agent whose time is kept apart from the client's."""

    def __init__(self) -> None:
        self.agent = make_agent("random", seed=0)
        self.spent = 0

    def act(self, deal: Any, seat: int) -> int:
        start = time.perf_counter_ns()
        choice = self.agent.act(deal, seat)
        self.spent += time.perf_counter_ns() - start
        return choice


def replay_latencies(path: Path, seat: int) -> tuple[list[float], list[float]]:
    """µs per act answer (agent excluded) and per notify, for one recorded seat."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        raws = [json.dumps(row["msg"]) for row in map(json.loads, lines) if row["seat"] == seat and row["dir"] == "recv"]
    mirror, agent = Mirror(seat), TimedAgent()
    protocol = OpenGuanDanProtocol("bench", seat, join=1)
    acts, notifies = [], []
    for raw in raws:
        agent.spent = 0
        start = time.perf_counter_ns()
        msg = json.loads(raw)
        mirror.feed(msg, check=False)
        if msg.get("type") == "act":
            index, _ = answer_index(mirror, agent, msg)
            json.dumps(protocol.answer(msg, index, seat, 1))
            acts.append((time.perf_counter_ns() - start - agent.spent) / 1000)
            mirror.check_act(msg)
        else:
            notifies.append((time.perf_counter_ns() - start) / 1000)
    return acts, notifies


def test_act_answer_latency(benchmark: Any) -> None:
    result: dict[str, list[float]] = {"acts": [], "notifies": []}

    def run() -> None:
        result["acts"].clear()
        result["notifies"].clear()
        for path in SESSIONS:
            for seat in range(4):
                acts, notifies = replay_latencies(path, seat)
                result["acts"] += acts
                result["notifies"] += notifies

    benchmark.pedantic(run, rounds=1, iterations=1)
    acts, notifies = result["acts"], result["notifies"]
    act_median = statistics.median(acts)
    p90 = statistics.quantiles(acts, n=10)[-1]
    benchmark.extra_info.update(act_median_us=round(act_median, 1), act_p90_us=round(p90, 1), acts=len(acts))
    GAME_SPEED["platform act answer (agent excluded)"] = (
        f"median {act_median:.1f} µs, p90 {p90:.1f} µs over {len(acts)} recorded acts"
    )
    GAME_SPEED["platform notify (mirror update)"] = f"median {statistics.median(notifies):.1f} µs over {len(notifies)}"
    assert len(acts) > 1000
