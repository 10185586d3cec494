"""Seeded fuzzing of the native surfaces over positions: the state and action encoders,
the fixed action space, and what one seat knows (unseen cards, sampled worlds).

Random positions of random deals (tribute, return and play phases) are encoded with
arguments drawn from hostile values and with the deal's team levels set to anything (a
bad value is refused when set). Every call must answer, or raise TypeError/ValueError; valid
calls must answer. Each campaign runs in a child process (``fuzzing.run_isolated``), so a
native crash fails the test with its signal instead of ending the run."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from fuzzing import GARBAGE, Problems, main, run_isolated


def _position(rng: random.Random) -> Any:
    """A random position: a first deal or one with tribute, a few random actions in."""
    from guandan_fast import Deal

    finish = rng.choice([None, [0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 1, 3], [3, 2, 1, 0]])
    deal = Deal.random(rng.randrange(10**6), previous_finish=finish)
    for _ in range(rng.choice([0, 0, 1, 2, 5, 20, 60, 200])):
        if deal.phase == "done":
            break
        deal.step(rng.randrange(len(deal.legal_actions())))
    return deal


def _pick(rng: random.Random, good: list[Any]) -> tuple[Any, bool]:
    """A good value (and True) three times in four, else a hostile one (and False)."""
    if rng.random() < 0.75:
        return rng.choice(good), True
    return rng.choice(GARBAGE), False


def encoders(seed: int) -> list[str]:
    from guandan_fast.encode import LAYOUTS, action_features, state, states

    rng, problems = random.Random(seed), Problems()
    for _ in range(250):
        deal = _position(rng)
        seat, good_seat = _pick(rng, [0, 1, 2, 3, np.int64(2)])
        layout, good_layout = _pick(rng, list(LAYOUTS))
        size = LAYOUTS[layout][0] if good_layout else 8
        out, good_out = _pick(rng, [None, np.empty(size, np.float32)])
        if rng.random() < 0.2:
            out, good_out = rng.choice([np.empty(size + 1, np.float32), np.empty(size, np.float64),
                                        np.empty(2 * size, np.float32)[::2], np.empty((1, size), np.float32)]), False
        if rng.random() < 0.25:  # the public team levels, set to anything: refused unless levels
            levels, good_levels = _pick(rng, [(2, 2), (5, 14), [3, 4], (np.int64(9), 10)])
            if rng.random() < 0.3:
                levels, good_levels = rng.choice([(), (5,), (2, 3, 4), (1, 2), (15, 2), (-5, 99), (2**70, 3)]), False
            problems.call("team_levels", setattr, deal, "team_levels", levels, valid=good_levels)
        valid = good_seat and good_layout
        problems.call("state", state, deal, seat, layout, out, valid=valid and good_out)
        count = rng.choice([1, 3])
        seats, good_seats = ([seat] * count, good_seat) if rng.random() < 0.7 else (rng.choice(GARBAGE), False)
        batch_out = None if rng.random() < 0.5 else np.empty((count, size), np.float32)
        problems.call("states", states, [deal] * count, seats, layout, batch_out, valid=valid and good_seats)
        problems.call("action_features", action_features, deal, layout, valid=good_layout)
    return problems.lines


def action_space(seed: int) -> list[str]:
    from guandan_fast.encode import actions

    rng, problems = random.Random(seed), Problems()
    for _ in range(200):
        deal = _position(rng)
        playing = deal.phase != "done"
        ids = problems.call("ids", actions.ids, deal, valid=True)
        problems.call("mask", actions.mask, deal, valid=True)
        problems.call("canonical_indices", actions.canonical_indices, deal, valid=True)
        if ids is None:
            continue
        good = [int(i) for i in ids] if len(ids) else [0]
        target, good_target = _pick(rng, good)
        rows: Any = None
        if rng.random() < 0.5:
            rows = rng.choice([ids, ids[:-1], np.concatenate([ids, ids]), ids.astype(np.int32), list(ids),
                               np.full(len(ids), 32767, np.int16), np.full(len(ids), -1, np.int16), *GARBAGE[:12]])
        valid = playing and good_target and (rows is None or rows is ids)
        index = problems.call("action_index", actions.action_index, deal, target, row_ids=rows, valid=valid)
        if index is not None and not 0 <= index < len(deal.legal_actions()):
            problems.lines.append(f"action_index gave {index} for {len(deal.legal_actions())} actions")
        problems.call("concretize", actions.concretize, deal, target, valid=playing and good_target)
        problems.call("describe", actions.describe, target, valid=good_target)
        action = rng.choice([*deal.legal_actions()[:3], *GARBAGE[:20], ["Single", "3", ["S3", "S3"]],
                             ["tribute", "tribute", ["XX"]], ["back", "x", ["S3"]], ["Bomb", "JOKER", ["SB"] * 4]])
        level = rng.choice([deal.level, None, 1, 15, "Z", *GARBAGE[:8]])
        problems.call("action_id", actions.action_id, action, level)
    return problems.lines


def knowledge(seed: int) -> list[str]:
    from guandan_fast.search import infoset

    rng, problems = random.Random(seed), Problems()
    for _ in range(200):
        deal = _position(rng)
        seat, good_seat = _pick(rng, [0, 1, 2, 3])
        count, good_count = _pick(rng, [0, 1, 3])
        world_seed, good_seed = _pick(rng, [0, 7, 2**64 - 1])
        problems.call("unseen", deal.unseen, seat, valid=good_seat)
        problems.call("sample_world", deal.sample_world, seat, world_seed, valid=good_seat and good_seed)
        problems.call("sample_worlds", deal.sample_worlds, seat, count, world_seed, valid=good_seat and good_count and good_seed)
        hands = problems.call("sample_hands", infoset.sample_hands, deal, seat, count, world_seed,
                              valid=good_seat and good_count and good_seed)
        if hands is not None and hands.shape != (count, 4, 2):
            problems.lines.append(f"sample_hands gave shape {hands.shape} for {count} worlds")
    return problems.lines


CAMPAIGNS = {"encoders": encoders, "action_space": action_space, "knowledge": knowledge}


@pytest.mark.parametrize("campaign", sorted(CAMPAIGNS))
def test_fuzz_finds_nothing(campaign: str) -> None:
    assert run_isolated("test_fuzz_encode.py", campaign, seed=20240) == []


if __name__ == "__main__":
    main(CAMPAIGNS)
