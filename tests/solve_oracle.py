"""Helpers of the solver's tests (tests/test_solve*.py): a plain minimax over
``Deal.clone()``/``step()`` (the oracle), random small positions, endgames cut from played
deals (the benchmarks' workload), and a position far too big to solve."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from guandan_fast import Deal
from guandan_fast.engine.cards import CARD_NAMES, wildcard

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from workload import endgame as cut  # the benchmarks' workload: positions cut from played deals

__all__ = ["Minimax", "TooBig", "cut", "hard_position", "outcome", "over", "small_position"]

DECK = [card for card in range(54) for _ in range(2)]
#: The oracle gives up on a position past this many distinct positions (the plain tree
#: of a few of the 4-card positions runs to millions): those are drawn again.
ORACLE_POSITIONS = 2500


class TooBig(Exception):
    pass


def over(deal: Deal, objective: str) -> bool:
    return deal.done if objective == "points" else bool(deal.finish_order)


def outcome(deal: Deal, objective: str, team: int) -> int:
    if objective == "points":
        result = deal.result(team)
        assert result is not None
        return result
    return 1 if deal.finish_order[0] % 2 == team else -1


def trailing_passes(deal: Deal) -> int:
    passes = 0
    for _, action in reversed(deal.history):
        if action[0] != "PASS":
            break
        passes += 1
    return passes


class Minimax:
    """The value of every action by plain minimax (the value of the team to act)."""

    def __init__(self, objective: str) -> None:
        self.objective = objective
        self.memo: dict[Any, int] = {}

    def key(self, deal: Deal, passes: int) -> Any:
        last = deal.last_move
        return (
            deal.hands,
            deal.current_seat,
            None if last is None else (int(last.kind), last.key, last.cards.once, last.cards.twice),
            deal.last_seat,
            tuple(deal.finish_order),
            passes,
        )

    def child(self, deal: Deal, index: int, team: int, passes: int) -> int:
        child = deal.clone()
        following = deal.following
        child.step(index)
        if over(child, self.objective):
            return outcome(child, self.objective, team)
        value = self.value(child, passes + 1 if following and index == 0 else 0)
        return value if child.current_seat % 2 == team else -value

    def value(self, deal: Deal, passes: int) -> int:
        key = self.key(deal, passes)
        if key in self.memo:
            return self.memo[key]
        if len(self.memo) >= ORACLE_POSITIONS:
            raise TooBig
        team = deal.current_seat % 2
        best = max(self.child(deal, i, team, passes) for i in range(len(deal.legal_actions())))
        self.memo[key] = best
        return best

    def actions(self, deal: Deal) -> list[int]:
        if over(deal, self.objective):  # "first" with a seat already out
            value = outcome(deal, self.objective, deal.current_seat % 2)
            return [value] * len(deal.legal_actions())
        passes = trailing_passes(deal)
        team = deal.current_seat % 2
        return [self.child(deal, i, team, passes) for i in range(len(deal.legal_actions()))]


def small_position(rng: random.Random) -> Deal:
    """A random position of 1-4 cards per seat still in, some seats out, leading or
    following (the leader played a random action from a few more cards, then some passed)."""
    level = rng.randint(2, 14)
    out: list[int] = []
    if rng.random() < 0.3:
        out = [rng.randrange(4)]
        if rng.random() < 0.4:
            out.append(rng.choice([s for s in range(4) if s not in out and s != out[0] ^ 2]))
    active = [s for s in range(4) if s not in out]
    leader = rng.choice(active)
    following = rng.random() < 0.5
    pool = DECK[:]
    rng.shuffle(pool)
    if rng.random() < 0.35:  # wildcards and jokers, often
        pool = [wildcard(level), wildcard(level), 52, 53, 52][: rng.randint(1, 5)] + pool
    copies: Counter[int] = Counter()
    hands: list[list[str]] = [[] for _ in range(4)]
    for seat in active:
        size = rng.choices((1, 2, 3, 4), weights=(6, 3, 2, 1))[0] + (rng.randint(1, 2) if following and seat == leader else 0)
        while len(hands[seat]) < size:
            card = pool.pop()
            if copies[card] < 2:
                copies[card] += 1
                hands[seat].append(CARD_NAMES[card])
    deal = Deal.start([" ".join(hand) for hand in hands], level, leader=leader, finished=out or None)
    if following:
        deal.step(rng.randrange(len(deal.legal_actions())))
        while not deal.done and deal.following and rng.random() < 0.5:
            deal.step(0)
    return deal


def hard_position() -> Deal:
    """A deal after its first trick: far too big to solve in a test."""
    deal = Deal.random(seed=3)
    for _ in range(4):
        deal.step(deal.legal_actions()[-1])
    return deal
