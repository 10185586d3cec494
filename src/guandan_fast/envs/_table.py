"""The game under both environments: a deal or a match driven by action ids, with the
observations, rewards and play log they share (no PettingZoo or Gymnasium here).

Observations are :func:`guandan_fast.encode.state` of the observing seat in the chosen
layout: ``"full-v1"`` (the default, ``float32[2467]``) or ``"danzero"`` (``float32[513]``),
documented field by field with the encoders.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..agents.base import action_count, as_agent
from ..encode import FIELDS, LAYOUTS, actions, state
from ..engine.cards import bounded, level_char, parse_level
from ..engine.deal import Deal
from ..engine.match import Match
from ..engine.rules import Rules
from ..engine.scoring import finish_outcome, team_of
from ..platform.playlog import _describe

if TYPE_CHECKING:
    from gymnasium import spaces

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
        #: Where unseeded resets draw their games: fresh entropy until a seeded reset.
        self._rng = np.random.default_rng()

    # -- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game: hands, first leader (and in a match every later deal) drawn from
        the table's random stream, which ``seed`` restarts (so ``reset(seed=1)`` then
        ``reset()`` repeats too); no seed ever seen: fresh entropy."""
        if seed is not None:
            self._rng = np.random.default_rng(bounded(seed, "seed", 0))
        stream = int(self._rng.integers(2**63))
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

    @property
    def current_seat(self) -> int:
        """The seat to act as an ``int``; ValueError once the game is over."""
        if self.over or self.truncated:
            raise ValueError("the game is over: reset it")
        return self.deal.current_seat

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
        seat = deal.current_seat
        (self.match or deal).step(index)  # refuses a bad index before anything below changes
        self._legal = None
        self.rewards = NO_REWARDS
        if self._logging:
            self._log_action(seat, deal)
        if deal.done:
            self._deal_over(deal)

    def _deal_over(self, deal: Deal) -> None:
        if self.match is None:
            team, up = finish_outcome(deal.finish_order)
            self.rewards = tuple(float(up if team_of(seat) == team else -up) for seat in range(4))
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
        return state(self.deal, seat, self.layout)

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
        team, up = finish_outcome(deal.finish_order)
        self.log.append(f"  finishing order {deal.finish_order}: team {team} goes up {up}")
        if self.match is not None and self.match.over:
            self.log.append(f"Team {self.match.winner} wins the match after {self.match.deals_played} deals")
        elif self.match is not None and not self.truncated:
            self._log_deal()


RENDER_MODES: Final = ("human", "ansi")
#: Frames per second for recorders of the ``"human"``/``"ansi"`` play log (one line a step).
RENDER_FPS: Final = 4
#: The most bombs one seat can play in a deal: a play-phase hand holds at most 27 cards,
#: a bomb at least 4 (full-v1's ``bombs`` field, the one count that can pass 2).
MAX_BOMBS: Final = 27 // 4


def observation_bounds(layout: str) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``, ``float32[D]`` each: the range of every number of ``layout``
    (docs/encoding.md): card counts and one-hots 0..2, DanZero's markers -1, full-v1's
    per-seat bomb counts 0..:data:`MAX_BOMBS`."""
    size = LAYOUTS[layout][0]
    low = np.full(size, -1.0 if layout == "danzero" else 0.0, dtype=np.float32)
    high = np.full(size, 2.0, dtype=np.float32)
    if "bombs" in FIELDS[layout]:
        offset, length = FIELDS[layout]["bombs"]
        high[offset : offset + length] = MAX_BOMBS
    return low, high


def observation_box(table: Table) -> spaces.Box:
    """The Gymnasium ``Box`` of the table's observations (finite bounds). Gymnasium is
    imported by the callers, the environments, before they call this."""
    from gymnasium import spaces

    low, high = observation_bounds(table.layout)
    return spaces.Box(low, high, dtype=np.float32)


def check_render_mode(mode: object) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {mode!r}")
    return mode


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
