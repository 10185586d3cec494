"""The uniformly random agent: the baseline every other agent must beat."""

from __future__ import annotations

from ..engine.cards import seeded_random
from ..engine.deal import Deal
from .base import action_count, check_turn


class RandomAgent:
    """Picks uniformly among the legal actions; the same ``seed`` gives the same choices
    for the same sequence of decisions (its stream advances with every decision)."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self.seed = seed
        self._rng = seeded_random(seed, "RandomAgent seed")

    def act(self, deal: Deal, seat: int) -> int:
        check_turn(deal, seat)
        return self._rng.randrange(action_count(deal))

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"
