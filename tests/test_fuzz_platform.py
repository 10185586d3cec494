"""Seeded fuzzing of the platform client: the mirror fed mutated real messages, and the
client against a hostile local websocket server.

The mirror gets the recorded messages of real games with messages dropped, duplicated and
reordered, fields removed or replaced by values of the wrong type: it may refuse a message
(ProtocolError) but nothing else, and every request whose ``actionList`` is readable gets
an index into it. The client plays against a server that sends such messages, frames that
are no protocol messages, and then closes, aborts or goes silent: it ends with a result or
a PlatformError, never another exception or a hang, and every answer it sends is an exact
entry of the request. Each campaign runs in a child process (``fuzzing.run_isolated``)."""

from __future__ import annotations

import asyncio
import copy
import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fuzzing import GARBAGE, Problems, main, nested, run_isolated

RECORDINGS = Path(__file__).resolve().parent / "data" / "platform"


def _received(name: str, seat: int) -> list[dict[str, Any]]:
    with gzip.open(RECORDINGS / f"{name}.jsonl.gz", "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    return [row["msg"] for row in rows if row["seat"] == seat and row["dir"] == "recv"]


def _damaged(value: Any, rng: random.Random) -> Any:
    """``value`` with one part replaced by a hostile value (nested lists and dicts too)."""
    if isinstance(value, dict) and value and rng.random() < 0.7:
        key = rng.choice(sorted(value))
        out = dict(value)
        if rng.random() < 0.3:
            del out[key]
        else:
            out[key] = _damaged(value[key], rng)
        return out
    if isinstance(value, list) and value and rng.random() < 0.6:
        out = list(value)
        at = rng.randrange(len(out))
        out[at] = _damaged(out[at], rng)
        return out
    return rng.choice([*GARBAGE[:30], nested(3000), "S3", "PASS", ["S3"], {"rest": -4}, [[0, "S3"]], 1e308])


def mutated(messages: list[dict[str, Any]], rng: random.Random, changes: int) -> list[Any]:
    """The messages with ``changes`` messages dropped, duplicated, swapped with the next,
    or damaged (a field removed or of the wrong type, deep inside too)."""
    out: list[Any] = copy.deepcopy(messages)
    for _ in range(changes):
        at = rng.randrange(len(out) - 1)
        kind = rng.choice(["drop", "duplicate", "swap", "damage", "damage", "damage"])
        if kind == "drop":
            del out[at]
        elif kind == "duplicate":
            out.insert(at, copy.deepcopy(out[at]))
        elif kind == "swap":
            out[at], out[at + 1] = out[at + 1], out[at]
        else:
            out[at] = _damaged(out[at], rng)
    return out


def _check_answer(problems: Problems, mirror: Any, agent: Any, msg: Any, what: str) -> None:
    """A request whose actionList can be read gets an index into it, the agent's way."""
    from guandan_fast.platform import answer_index
    from guandan_fast.platform.messages import ProtocolError, read_actions

    try:
        actions = read_actions(msg)
    except ProtocolError:
        return
    if msg.get("stage") not in ("play", "tribute", "back"):
        return
    answer = problems.call(what, answer_index, mirror, agent, msg, valid=True)
    if answer is not None and not (0 <= answer[0] < len(actions)):
        problems.lines.append(f"{what}: index {answer[0]} for {len(actions)} entries")


def mirror(seed: int) -> list[str]:
    from guandan_fast.agents import make_agent
    from guandan_fast.platform import Mirror
    from guandan_fast.platform.messages import ProtocolError

    rng, problems = random.Random(seed), Problems()
    streams = [("session-2", s) for s in range(4)] + [("tribute-tie-game", s) for s in range(4)]
    for name, seat in streams:
        messages = _received(name, seat)[:1500]
        for _ in range(2):
            seen = Mirror(rng.choice([seat, None]))
            agent = make_agent("random", seed=rng.randrange(100)) if rng.random() < 0.7 else (lambda obs: 0)
            for msg in mutated(messages, rng, rng.choice([3, 10, 40, 100])):
                try:
                    seen.feed(msg, check=rng.random() < 0.5)
                except ProtocolError:
                    pass
                except Exception as error:  # noqa: BLE001 - the finding
                    problems.lines.append(f"feed {name}/{seat}: {type(error).__name__}: {str(error)[:200]}")
                if isinstance(msg, dict) and msg.get("type") == "act":
                    _check_answer(problems, seen, agent, msg, f"answer {name}/{seat}")
                    problems.call(f"check_act {name}/{seat}", seen.check_act, msg, valid=True)
    return problems.lines


# -- the client against a hostile server ------------------------------------------------------------
HOSTILE_FRAMES = [
    "[" * 100_000 + "]" * 100_000,
    '{"type": []}',
    '{"type": "notify", "stage": []}',
    '{"type": "notify", "stage": {"a": 1}}',
    '{"type": "act", "stage": "play", "actionList": [[1, 2, 3]]}',
    '{"type": "act", "stage": "halftime", "actionList": [["PASS", "PASS", "PASS"]]}',
    '{"type": "act", "stage": "play", "actionList": []}',
    '{"type": "CREATE_ROOM", "code": 500}',
    "not json",
    "null",
    "[1, 2]",
    '"a string"',
    '{"type": "x' + "y" * 100_000 + '"}',
    b"\x00\xff binary",
]


async def _hostile(seed: int, problems: Problems) -> None:
    """One client against a server that replays a recorded seat's messages, mutated, then
    ends with something hostile."""
    import websockets

    from guandan_fast.agents import make_agent
    from guandan_fast.platform import ClientResult, PlatformError, play

    rng = random.Random(seed)
    name = rng.choice(["session-2", "tribute-tie-game"])
    seat = rng.randrange(4)
    script = mutated(_received(name, seat)[: rng.choice([5, 40, 300])], rng, rng.choice([0, 2, 8]))
    ending = rng.choice(["frame", "frame", "close", "abort", "silence", "game over"])
    sent: list[Any] = []

    async def handler(link: Any) -> None:
        await link.recv()  # CREATE_ROOM / JOIN_ROOM
        request = None
        for msg in script:
            await link.send(json.dumps(msg) if not isinstance(msg, str) else msg)
            if isinstance(msg, dict) and msg.get("type") == "act":
                request = msg
                try:  # the answer is the next frame that is not a wake-up: on a busy machine a
                    # GET_ROOMPLAYER sent in a pause between our frames may come first
                    answer = json.loads(await asyncio.wait_for(link.recv(), 2.0))
                    while isinstance(answer, dict) and answer.get("type") == "GET_ROOMPLAYER":
                        answer = json.loads(await asyncio.wait_for(link.recv(), 2.0))
                except (asyncio.TimeoutError, websockets.ConnectionClosed):
                    return
                sent.append((request, answer))
        if ending == "frame":
            await link.send(rng.choice(HOSTILE_FRAMES))
        elif ending == "close":
            await link.close(rng.choice([1000, 1001, 1008, 1011, 4000]), "hostile")
        elif ending == "abort":
            link.transport.abort()
        elif ending == "game over":
            await link.send(json.dumps({"type": "notify", "stage": "gameResult", "victoryRank": ["2", "A"], "victory": 1}))
        await asyncio.sleep(0.5)

    async with websockets.serve(handler, "127.0.0.1", 0, max_size=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        agent = make_agent("random", seed=seed) if rng.random() < 0.7 else (lambda obs: len(obs["actionList"]) - 1)
        try:
            result = await asyncio.wait_for(
                play(f"ws://127.0.0.1:{port}", agent, join=1, seat=seat, wake_after=0.05, idle_timeout=0.3), 10.0
            )
            if not isinstance(result, ClientResult):
                problems.lines.append(f"client {seed}: returned {result!r}")
        except PlatformError:
            pass
        except Exception as error:  # noqa: BLE001 - the finding (a hang is a TimeoutError here)
            problems.lines.append(f"client {seed} ({name}/{seat}, {ending}): {type(error).__name__}: {str(error)[:200]}")
    for request, answer in sent:
        act = answer.get("data", {}).get("act") if isinstance(answer, dict) else None
        if act not in request.get("actionList", []):
            problems.lines.append(f"client {seed}: answered {str(act)[:80]}, not an entry of the request")


def client(seed: int) -> list[str]:
    problems = Problems()

    async def run() -> None:
        for batch in range(2):
            await asyncio.gather(*(_hostile(seed * 1000 + batch * 100 + k, problems) for k in range(20)))

    asyncio.run(run())
    return problems.lines


CAMPAIGNS = {"mirror": mirror, "client": client}


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_fuzz_finds_nothing(campaign: str) -> None:
    pytest.importorskip("websockets")
    assert run_isolated("test_fuzz_platform.py", campaign, seed=7) == []


if __name__ == "__main__":
    main(CAMPAIGNS)
