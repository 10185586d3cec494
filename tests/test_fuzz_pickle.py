"""Seeded fuzzing of Deal pickles: a deal pickles as how it began, its actions and its team
levels (``Deal.__reduce__``), and unpickling replays them through Deal.start, step and
with_hands. Mutated payloads (values replaced by hostile ones, integers nudged, entries
dropped, duplicated or swapped, keys removed or added) must unpickle into a working deal or
raise TypeError/ValueError — never AttributeError, IndexError, KeyError, StopIteration or a
crash (issue 21 found 399 of 4,000 mutated pickles failing so when a pickle restored the
slots as they were). The campaign runs in a child process (``fuzzing.run_isolated``)."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from fuzzing import GARBAGE, Problems, main, run_isolated

#: Values a mutation may put anywhere: the hostile ones, and plausible ones of the wrong kind.
REPLACEMENTS: tuple[Any, ...] = (*GARBAGE[:30], "HR", "S3 S3 S3", ["S3"] * 3, ("tribute", "tribute", ["SA"]),
                                  (0, 1, 3, 16, 0), [0, 1, 2, 3], {"level": 2})


def _position(rng: random.Random) -> Any:
    """A random deal (tribute, return, play or done), sometimes with its hands replaced."""
    from guandan_fast import Deal

    finish = rng.choice([None, [0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 1, 3]])
    deal = Deal.random(rng.randrange(10**6), rng.randint(2, 14), previous_finish=finish)
    for _ in range(rng.choice([0, 1, 2, 4, 10, 40, 300])):
        if deal.done:
            break
        if rng.random() < 0.03:
            deal = deal.sample_world(deal.to_act, rng.randrange(1000))
        deal.step(rng.randrange(len(deal.legal_actions())))
    if rng.random() < 0.2:
        deal.team_levels = (rng.randint(2, 14), rng.randint(2, 14))
    return deal


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every part of a payload (containers and leaves)."""
    out = [path]
    if isinstance(value, dict):
        for key in value:
            out += _nodes(value[key], (*path, key))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            out += _nodes(item, (*path, index))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """``value`` with the part at ``path`` replaced (tuples rebuilt, the rest changed in place)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, tuple):
        items = list(value)
        items[head] = _set(items[head], rest, new)
        return tuple(items)
    value[head] = _set(value[head], rest, new)
    return value


def _mutated(part: Any, rng: random.Random) -> Any:
    """One change of one part."""
    choice = rng.random()
    if isinstance(part, bool) or choice < 0.3:
        return rng.choice(REPLACEMENTS)
    if isinstance(part, int):
        return rng.choice([part + 1, part - 1, -part, part * 2, part ^ (1 << rng.randrange(64)), part + 2**62])
    if isinstance(part, str):
        return rng.choice(["", part[::-1], part + "X", "SB", "H2", part.lower()])
    if isinstance(part, dict):
        part = dict(part)
        if part and rng.random() < 0.5:
            del part[rng.choice(list(part))]
        else:
            part[rng.choice(["seed", "extra", 3])] = rng.choice(REPLACEMENTS)
        return part
    if isinstance(part, (list, tuple)):
        items = list(part)
        if items and choice < 0.5:
            del items[rng.randrange(len(items))]
        elif items and choice < 0.7:
            items.insert(rng.randrange(len(items) + 1), rng.choice(items))
        elif len(items) > 1:
            i, j = rng.randrange(len(items)), rng.randrange(len(items))
            items[i], items[j] = items[j], items[i]
        else:
            items.append(rng.choice(REPLACEMENTS))
        return type(part)(items)
    return rng.choice(REPLACEMENTS)


def _works(deal: Any) -> None:
    """What a restored deal must do without failing."""
    from guandan_fast import perft
    from guandan_fast.encode import state

    actions = deal.legal_actions()
    deal.observation(0)["history"]
    state(deal, 1, "full-v1")
    if not deal.done:
        deal.playout(1)
        other = deal.clone()
        other.step(len(actions) - 1)
    if deal.phase in ("play", "done"):
        perft(deal, 1)
    again = pickle.loads(pickle.dumps(deal))
    assert again.history == deal.history and again.hands == deal.hands and again.team_levels == deal.team_levels


def deal_pickles(seed: int) -> list[str]:
    rng, problems = random.Random(seed), Problems()
    restored = refused = 0
    for _ in range(1400):  # 4,200 mutated pickles
        deal = _position(rng)
        restore, payload = deal.__reduce__()
        again = restore(*copy.deepcopy(payload))  # an unchanged pickle gives the same deal
        if again.history != deal.history or again.hands != deal.hands or again.phase != deal.phase:
            problems.lines.append(f"an unchanged pickle of {deal!r} came back as {again!r}")
        for _ in range(3):
            mutated = copy.deepcopy(payload)
            for _ in range(rng.choice([1, 1, 2, 3])):
                path = rng.choice(_nodes(mutated))
                mutated = _set(mutated, path, _mutated(_get(mutated, path), rng))
            result = problems.call("unpickle", restore, *mutated) if isinstance(mutated, tuple) and len(mutated) == 5 \
                else problems.call("unpickle", restore, mutated)
            if result is None:
                refused += 1
                continue
            restored += 1
            problems.call("use", _works, result, valid=True)
    if restored < 200 or refused < 2000:
        problems.lines.append(f"too few of each outcome: {restored} restored, {refused} refused")
    return problems.lines


CAMPAIGNS = {"deal_pickles": deal_pickles}


def test_mutated_deal_pickles_are_refused_or_work() -> None:
    assert run_isolated("test_fuzz_pickle.py", "deal_pickles", seed=21, timeout=300) == []


def test_a_deal_pickles_its_start_and_actions() -> None:
    """The payload names how the deal began and what happened, so that unpickling goes
    through the public checks: Deal.start's arguments, the card actions as platform triples,
    the plays as rows, the hands replaced, the team levels."""
    from guandan_fast import Deal

    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST SA"], 5, leader=2, team_levels=(5, 9))
    deal.step(["Single", "7", ["S7"]])
    world = deal.with_hands(["S3 S4", "S5 S6", "S8", "S9 SA ST"])
    world.step(0)
    restore, (start, card_actions, plays, replaced, levels) = world.__reduce__()
    assert start["hands"] == [["S3", "S4"], ["S5", "S6"], ["S7", "S8"], ["S9", "ST", "SA"]]
    assert (start["level"], start["leader"], start["previous_finish"]) == (5, 2, None)
    assert card_actions == [] and levels == (5, 9)
    assert [row[:3] for row in plays] == [(2, 1, 7), (3, 0, 0)]
    assert len(replaced) == 1 and replaced[0][:2] == (0, 1)
    again = restore(start, card_actions, plays, replaced, levels)
    assert again.history == world.history and again.hands == world.hands and again.team_levels == (5, 9)
    assert pickle.loads(pickle.dumps(world)).legal_actions() == world.legal_actions()


if __name__ == "__main__":
    main(CAMPAIGNS)
