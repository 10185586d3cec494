"""Self-play data for learners (DMC and the like): :func:`generate_selfplay`.

Every deal ``i`` is played by four fresh copies of one agent (seeds derived from the run
seed, ``i`` and the seat) from cards, a level and a previous finishing order (so tribute
and return decisions occur) drawn from the run seed and ``i``. Deals are grouped in
shards of ``shard_size`` deals, one task each, written as ``shard-00000.npz``, ... with one
row per decision:

``states`` float32[M, D]
    the deciding seat's view (:func:`encode_state`);
``seats`` int8[M], ``deals`` int64[M] (the deal index), ``phases`` int8[M] (0 play,
1 tribute, 2 return);
``actions`` int32[M]
    the index chosen in ``deal.legal_actions()``;
``action_offsets`` int64[M + 1], ``action_cards`` int8[N, 54]
    the legal actions' cards as counts per card index, decision ``j``'s rows being
    ``action_cards[action_offsets[j]:action_offsets[j + 1]]`` (a pass is a zero row);
``returns`` float32[M]
    the deal's result for the deciding seat's team: +n when it finished first and went
    up n levels, -n when the other team did;
``encoding``
    the name of the state encoding.
"""

from __future__ import annotations

import random
from contextlib import closing
from pathlib import Path
from typing import Any

import numpy as np

from ..agents.base import checked_choice
from .progress import ProgressBar
from ..engine.cards import NUM_CARDS, parse_card
from ..engine.deal import Deal
from .matches import AgentSpec, build_agent, derive_seed
from .runner import check_positive, run_tasks

PHASE_CODES = {"play": 0, "tribute": 1, "return": 2}
#: The layout of :func:`count_planes`: own hand, unseen, four seats' played cards, cards left.
COUNT_PLANES_SIZE = NUM_CARDS * 6 + 4
_BITS = np.arange(NUM_CARDS, dtype=np.uint64)


def plane_counts(planes: np.ndarray) -> np.ndarray:
    """Card counts int8[..., 54] of (once, twice) bit planes uint64[..., 2]."""
    planes = np.asarray(planes, dtype=np.uint64)
    bits = (planes[..., None] >> _BITS) & np.uint64(1)
    return bits.sum(axis=-2, dtype=np.int8)


def count_planes(deal: Deal, seat: int) -> np.ndarray:
    """float32[328], what ``seat`` knows as card counts: its hand (54), the cards it has not
    seen (54: two decks minus its hand minus every card played), the cards each seat has
    played (4 × 54) and each seat's cards left (4), seats in order from ``seat`` on. What
    the seat knows of the others' hands from tribute and return is left out."""
    played = plane_counts(deal.played)
    own = deal.hands[seat].counts().astype(np.int8)
    order = [(seat + k) % 4 for k in range(4)]
    left = deal.cards_left()
    return np.concatenate(
        [own, 2 - own - played.sum(axis=0), played[order].ravel(), [left[s] for s in order]]
    ).astype(np.float32)


def encode_state(deal: Deal, seat: int, encoding: str) -> np.ndarray:
    """The state encoding named ``encoding``: ``"counts"`` (:func:`count_planes`) or a
    layout of :func:`guandan_fast.encode.state` (``"danzero"``, ``"full-v1"``)."""
    if encoding == "counts":
        return count_planes(deal, seat)
    from .. import encode

    return np.asarray(encode.state(deal, seat, encoding), dtype=np.float32)


def default_encoding() -> str:
    """``"danzero"`` when :mod:`guandan_fast.encode` is there, else ``"counts"``."""
    try:
        from .. import encode
    except ImportError:
        return "counts"
    return "danzero"


def action_cards(deal: Deal) -> np.ndarray:
    """int8[n, 54]: the cards of each of ``deal.legal_actions()`` as counts (a pass: zeros)."""
    if deal.phase == "play":
        cards = plane_counts(deal.legal_moves().cards)
        if deal.following:
            cards = np.concatenate([np.zeros((1, NUM_CARDS), dtype=np.int8), cards])
        return cards
    actions = deal.legal_actions()
    cards = np.zeros((len(actions), NUM_CARDS), dtype=np.int8)
    for row, (_, _, (card,)) in enumerate(actions):
        cards[row, parse_card(card)] = 1
    return cards


def selfplay_deal(seed: int, index: int) -> Deal:
    """Deal ``index`` of a run: cards, level and previous finish (or none) from the seed."""
    rng = random.Random(derive_seed("selfplay deal", seed, index))
    previous = rng.sample(range(4), 4) if rng.random() < 0.75 else None
    return Deal.random(rng.getrandbits(63), rng.randint(2, 14), previous_finish=previous)


def play_shard(spec: AgentSpec, seed: int, first: int, count: int, encoding: str) -> dict[str, np.ndarray]:
    """The decisions of deals ``first .. first + count - 1`` as the arrays of one shard."""
    states, seats, deals, phases, actions, returns, cards = [], [], [], [], [], [], []
    for index in range(first, first + count):
        deal = selfplay_deal(seed, index)
        agents = [build_agent(spec, derive_seed("selfplay agent", seed, index, s)) for s in range(4)]
        start = len(seats)
        while not deal.done:
            seat = deal.to_act
            states.append(encode_state(deal, seat, encoding))
            cards.append(action_cards(deal))
            seats.append(seat)
            phases.append(PHASE_CODES[deal.phase])
            choice = checked_choice(agents[seat], deal, seat)
            actions.append(choice)
            deal.step(choice)
        returns.extend(deal.result(s) for s in seats[start:])  # type: ignore[misc]
        deals.extend([index] * (len(seats) - start))
    return {
        "states": np.stack(states).astype(np.float32),
        "seats": np.asarray(seats, dtype=np.int8),
        "deals": np.asarray(deals, dtype=np.int64),
        "phases": np.asarray(phases, dtype=np.int8),
        "actions": np.asarray(actions, dtype=np.int32),
        "action_offsets": np.concatenate([[0], np.cumsum([len(c) for c in cards])]).astype(np.int64),
        "action_cards": np.concatenate(cards).astype(np.int8),
        "returns": np.asarray(returns, dtype=np.float32),
        "encoding": np.asarray(encoding),
    }


def generate_selfplay(
    agent: AgentSpec,
    deals: int,
    out: str | Path,
    seed: int = 0,
    *,
    shard_size: int = 100,
    workers: int | None = None,
    ray_address: str | None = None,
    encoding: str | None = None,
    progress: bool = False,
) -> list[Path]:
    """Play ``deals`` deals by ``agent`` in all four seats and write the shards to ``out``
    (created if needed); the paths written, in order. The same seed gives the same files
    whatever the workers. Ctrl-C keeps the shards written so far and raises
    KeyboardInterrupt."""
    deals = check_positive(deals, "the number of deals")
    shard_size = check_positive(shard_size, "the shard size")
    encoding = default_encoding() if encoding is None else encoding
    build_agent(agent, 0)  # a bad name or option fails here, not in a worker
    directory = Path(out)
    directory.mkdir(parents=True, exist_ok=True)
    starts = range(0, deals, shard_size)
    tasks = [(agent, seed, first, min(shard_size, deals - first), encoding) for first in starts]
    bar = ProgressBar(deals) if progress else None
    if bar is not None:
        bar.set_label(f"self-play: {deals} deals in {len(tasks)} shards")
    written: dict[int, Path] = {}
    try:
        with closing(run_tasks(play_shard, tasks, workers=workers, ray_address=ray_address)) as done:
            for shard, arrays in done:
                path = directory / f"shard-{shard:05d}.npz"
                np.savez_compressed(path, **arrays)
                written[shard] = path
                if bar is not None:
                    bar.tick(tasks[shard][3])
    finally:
        if bar is not None:
            bar.close()
    return [written[k] for k in sorted(written)]


def read_shard(path: str | Path) -> dict[str, Any]:
    """A shard's arrays as a dict (``np.load`` of the file, fully read)."""
    with np.load(path) as data:
        return {name: data[name] for name in data.files}
