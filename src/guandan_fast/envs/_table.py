"""The game under both environments: a deal or a match driven by action ids, with the
observations, rewards and play log they share (no PettingZoo or Gymnasium here).

Observations are :func:`guandan_fast.encode.state` of the observing seat in the chosen
layout: ``"full-v1"`` (the default, ``float32[2467]``) or ``"danzero"`` (``float32[513]``),
documented field by field with the encoders.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from ..agents.base import action_count, as_agent
from ..engine.cards import bounded, level_char, parse_level
from ..encode import LAYOUTS, actions, state
from ..engine.deal import Deal
from ..engine.match import Match
from ..platform.playlog import _describe
from ..engine.rules import Rules

#: The default observation layout.
DEFAULT_LAYOUT: Final = "full-v1"
#: A policy: ``f(deal, seat) -> index into deal.legal_actions()`` (``agent.act`` fits).
Policy = Callable[[Deal, int], int]
MODES: Final = ("deal", "match")
#: The rewards of every step but the last.
NO_REWARDS: Final = (0.0, 0.0, 0.0, 0.0)


class Table:
    """A deal (``mode="deal"``) or a match (``mode="match"``) played by action ids.

    Rewards, per seat, given on the step that ends the game: in a deal, ``+up`` to both
    players of the team that finished first and ``-up`` to the other two, where ``up`` is
    3, 2 or 1 as the partner finished second, third or last (the levels the team goes up);
    in a match, +1 to the winners and -1 to the losers, and 0 to everyone when the match
    is cut short by ``max_deals`` (a truncation).
    """

    def __init__(
        self,
        mode: str = "deal",
        *,
        level: int | str = 2,
        rules: Rules | None = None,
        observation: str = DEFAULT_LAYOUT,
        max_deals: int | None = None,
        log: bool = False,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'deal' or 'match', not {mode!r}")
        if max_deals is not None:
            bounded(max_deals, "max_deals", 1)
        if observation not in LAYOUTS:
            raise ValueError(f"observation must be a layout of guandan_fast.encode ({', '.join(LAYOUTS)}), not {observation!r}")
        self.mode = mode
        self.level = parse_level(level)
        self.rules = rules
        self.max_deals = max_deals
        self.layout = observation
        self._logging = log
        self.log: list[str] = []
        self._rendered = 0
        self.match: Match | None = None
        self.deal: Deal = Deal.random(0, self.level, rules=rules)
        #: The four seats' rewards of the last step (:data:`NO_REWARDS` but on the last one).
        self.rewards: tuple[float, ...] = NO_REWARDS
        self.over = False
        self.truncated = False
        self._legal: tuple[np.ndarray, np.ndarray] | None = None
        self.observation_size = LAYOUTS[observation][0]

    # -- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game: hands, first leader (and in a match every later deal) from ``seed``."""
        stream = random.Random(seed).getrandbits(64) if seed is not None else random.getrandbits(64)
        if self.mode == "match":
            self.match = Match(stream, self.rules)
            self.deal = self.match.deal
        else:
            self.deal = Deal.random(stream, self.level, rules=self.rules)
        self.rewards = NO_REWARDS
        self.over = self.truncated = False
        self._legal = None
        self.log = []
        self._rendered = 0
        if self._logging:
            self._log_deal()

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once the game is over."""
        return None if self.over or self.truncated else self.deal.to_act

    def legal(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, mask)`` of the seat to act (see :func:`guandan_fast.encode.actions.ids_and_mask`),
        kept until the next step; the mask is read-only, so the environments hand it out
        without a copy."""
        if self._legal is None:
            self._legal = actions.ids_and_mask(self.deal)
            self._legal[1].flags.writeable = False
        return self._legal

    def play(self, action: int) -> None:
        """The seat to act takes action id ``action`` (its canonical move); sets
        :attr:`rewards` for this step. ValueError for an id it may not take (nothing changes)."""
        if self.to_act is None:
            raise ValueError("the game is over: reset it")
        deal = self.deal
        self.step_index(actions.action_index(deal, action, row_ids=self.legal()[0]))

    def step_index(self, index: int) -> None:
        """The seat to act takes ``deal.legal_actions()[index]`` (the policies' form)."""
        deal = self.deal
        seat: int = deal.to_act  # type: ignore[assignment]
        (self.match or deal).step(index)  # refuses a bad index before anything below changes
        self._legal = None
        self.rewards = NO_REWARDS
        if self._logging:
            self._log_action(seat, deal)
        if deal.done:
            self._deal_over(deal)

    def _deal_over(self, deal: Deal) -> None:
        if self.match is None:
            self.rewards = tuple(float(deal.result(seat)) for seat in range(4))  # type: ignore[arg-type]
            self.over = True
        elif self.match.over:
            self.rewards = tuple(1.0 if seat & 1 == self.match.winner else -1.0 for seat in range(4))
            self.over = True
        elif self.max_deals is not None and self.match.deals_played >= self.max_deals:
            self.truncated = True
        else:
            self.deal = self.match.deal
        if self._logging:
            self._log_end(deal)

    # -- what a seat sees -----------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` in the table's layout (``float32``)."""
        return state(self.deal, seat, self.layout)  # type: ignore[no-any-return]

    def random_index(self, rng: random.Random) -> int:
        """A uniformly random index into the legal actions of the seat to act."""
        return rng.randrange(action_count(self.deal))

    # -- the play log (render) ------------------------------------------------------------
    def render(self, mode: str | None) -> str | None:
        """The play log since the last render, printed (``"human"``) or returned (``"ansi"``)."""
        if mode is None:
            return None
        text = "\n".join(self.log[self._rendered :])
        self._rendered = len(self.log)
        if mode == "ansi":
            return text
        if text:
            print(text)
        return None

    def _log_deal(self) -> None:
        deal = self.deal
        number = "" if self.match is None else f" {self.match.deals_played + 1}"
        self.log.append(f"Deal{number} at level {level_char(deal.level)}")
        self.log.extend(f"  seat {seat} ({len(hand)}): {hand}" for seat, hand in enumerate(deal.hands))

    def _log_action(self, seat: int, deal: Deal) -> None:
        kind, _, cards = deal.history[-1][1] if deal.history else ("", "", [])
        if kind == "tribute":
            self.log.append(f"  seat {seat} pays tribute {cards[0]}")
        elif kind == "back":
            self.log.append(f"  seat {seat} gives back {cards[0]}")
        else:
            self.log.append(f"  seat {seat}: {_describe(deal.history[-1][1])}")

    def _log_end(self, deal: Deal) -> None:
        team, up = deal.outcome  # type: ignore[misc]
        self.log.append(f"  finishing order {deal.finish_order}: team {team} goes up {up}")
        if self.match is not None and self.match.over:
            self.log.append(f"Team {self.match.winner} wins the match after {self.match.deals_played} deals")
        elif self.match is not None and not self.truncated:
            self._log_deal()


RENDER_MODES: Final = ("human", "ansi")


def observation_box(table: Table) -> Any:
    """The Gymnasium ``Box`` of the table's observations. Gymnasium is imported by the
    callers, the environments, before they call this."""
    from gymnasium import spaces

    return spaces.Box(-np.inf, np.inf, (table.observation_size,), np.float32)


def check_render_mode(mode: object) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {mode!r}")
    return mode  # type: ignore[return-value]


class TableEnv:
    """What both environments share: the :class:`Table` they drive, and its play log as
    their ``render``. ``options`` are the Table's: ``level``, ``rules``, ``observation``
    and ``max_deals``."""

    render_mode: str | None
    _table: Table

    def _set_table(self, mode: str, render_mode: str | None, options: dict[str, Any]) -> None:
        self.render_mode = check_render_mode(render_mode)
        self._table = Table(mode, log=self.render_mode is not None, **options)

    @property
    def table(self) -> Table:
        """The game underneath: ``env.table.deal`` is the current :class:`~guandan_fast.Deal`."""
        return self._table

    def render(self) -> str | None:
        """The play log since the last render: printed (``"human"``) or returned (``"ansi"``)."""
        return self._table.render(self.render_mode)


def check_policies(policies: Any, count: int) -> list[Policy | None]:
    """``count`` policies (None: uniformly random) from None, one policy, or a sequence."""
    if policies is None:
        return [None] * count
    if isinstance(policies, Sequence) and not isinstance(policies, str):
        if len(policies) != count:
            raise ValueError(f"give {count} policies, one per other seat, not {len(policies)}")
        return [None if p is None else as_agent(p).act for p in policies]
    return [as_agent(policies).act] * count


__all__ = ["DEFAULT_LAYOUT", "MODES", "NO_REWARDS", "Policy", "Table", "TableEnv"]
