"""The game under both environments: a deal or a match driven by action ids, with the
observations, rewards and play log they share (no PettingZoo or Gymnasium here).

Observation layout ``"cards-v0"`` (``float32[344]``; seats relative to the observer:
0 itself, 1 the next seat, 2 its partner, 3 the seat before it):

=========== ===================================================================
``0:54``    the observer's hand, the count (0, 1, 2) of each card index
``54:108``  the move to beat, card counts (zeros when the seat to act leads)
``108:324`` the cards each relative seat has played in this deal, 4 × 54 counts
``324:328`` the cards each relative seat holds, divided by 27
``328:341`` the deal's level, one-hot over 2..A
``341:344`` the phase, one-hot: tribute, return, play (zeros once the deal is done)
=========== ===================================================================

Any other layout name is handed to ``guandan_fast.encode.state(deal, seat, layout)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np

from ..cards import NUM_CARDS, level_char, parse_level
from ..encode import actions
from ..game import Deal, Match, Rules, _describe

#: The built-in observation layout (see the module's documentation).
CARDS_V0: Final = "cards-v0"
CARDS_V0_SIZE: Final = 344
_PHASE_SLOT: Final = {"tribute": 341, "return": 342, "play": 343}
_RELATIVE: Final = tuple(np.array([(seat + r) % 4 for r in range(4)]) for seat in range(4))

#: A policy: ``f(deal, seat) -> index into deal.legal_actions()`` (``agent.act`` fits).
Policy = Callable[[Deal, int], int]
MODES: Final = ("deal", "match")


def card_counts(planes: np.ndarray) -> np.ndarray:
    """``uint64[..., 2]`` (once, twice) planes as ``uint8[..., 54]`` card counts."""
    planes = np.ascontiguousarray(planes, dtype="<u8")
    bits = np.unpackbits(planes.view(np.uint8), axis=-1, bitorder="little")
    return bits[..., :NUM_CARDS] + bits[..., 64 : 64 + NUM_CARDS]


def _state_encoder(layout: str) -> Callable[[Deal, int], np.ndarray]:
    try:
        from ..encode import state  # type: ignore[attr-defined]
    except ImportError:
        raise ValueError(
            f"observation layout {layout!r} needs guandan_fast.encode.state, which this installation lacks; "
            f"use {CARDS_V0!r}"
        ) from None
    return lambda deal, seat: np.asarray(state(deal, seat, layout), dtype=np.float32)


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
        observation: str = CARDS_V0,
        max_deals: int | None = None,
        log: bool = False,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be 'deal' or 'match', not {mode!r}")
        if max_deals is not None and (isinstance(max_deals, bool) or not isinstance(max_deals, int) or max_deals < 1):
            raise ValueError(f"max_deals must be None or a positive integer, not {max_deals!r}")
        if not isinstance(observation, str):
            raise TypeError(f"observation must be a layout name, not {type(observation).__name__}")
        self.mode = mode
        self.level = parse_level(level)
        self.rules = rules
        self.max_deals = max_deals
        self.layout = observation
        self._encode = None if observation == CARDS_V0 else _state_encoder(observation)
        self._logging = log
        self.log: list[str] = []
        self._rendered = 0
        self.match: Match | None = None
        self.deal: Deal = Deal.random(0, self.level, rules=rules)
        self.rewards = np.zeros(4, dtype=np.float32)
        self.over = False
        self.truncated = False
        self._new_deal()
        self.observation_size = len(self.observe(0))

    # -- the game -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """A new game: hands, first leader (and in a match every later deal) from ``seed``."""
        stream = random.Random(seed).getrandbits(64) if seed is not None else random.getrandbits(64)
        if self.mode == "match":
            self.match = Match(stream, self.rules)
            self.deal = self.match.deal
        else:
            self.deal = Deal.random(stream, self.level, rules=self.rules)
        self.rewards[:] = 0
        self.over = self.truncated = False
        self._new_deal()
        self.log = []
        self._rendered = 0
        if self._logging:
            self._log_deal()

    def _new_deal(self) -> None:
        self._played = np.zeros((4, NUM_CARDS), dtype=np.float32)
        self._legal: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def to_act(self) -> int | None:
        """The seat to act, None once the game is over."""
        return None if self.over or self.truncated else self.deal.to_act

    def legal(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, mask)`` of the seat to act (see :func:`guandan_fast.encode.actions.ids_and_mask`)."""
        if self._legal is None:
            self._legal = actions.ids_and_mask(self.deal)
        return self._legal

    def play(self, action: int) -> None:
        """The seat to act takes action id ``action`` (its canonical move); sets
        :attr:`rewards` for this step. ValueError for an id it may not take (nothing changes)."""
        if self.to_act is None:
            raise ValueError("the game is over: reset it")
        deal = self.deal
        row_ids, _ = self.legal()
        index = actions.action_index(deal, action, row_ids=row_ids)
        self.step_index(index)

    def step_index(self, index: int) -> None:
        """The seat to act takes ``deal.legal_actions()[index]`` (the policies' form)."""
        deal = self.deal
        seat: int = deal.to_act  # type: ignore[assignment]
        row = index - deal.following if deal.phase == "play" else -1
        moves = deal.legal_moves() if row >= 0 else None
        (self.match or deal).step(index)  # refuses a bad index before anything below changes
        if moves is not None:
            self._played[seat] += card_counts(moves.cards[row])
        self._legal = None
        self.rewards[:] = 0
        if self._logging:
            self._log_action(seat, deal)
        if deal.done:
            self._deal_over(deal)

    def _deal_over(self, deal: Deal) -> None:
        team, up = deal.outcome  # type: ignore[misc]
        if self.match is None:
            self.rewards[:] = [up if seat & 1 == team else -up for seat in range(4)]
            self.over = True
        elif self.match.over:
            self.rewards[:] = [1 if seat & 1 == self.match.winner else -1 for seat in range(4)]
            self.over = True
        elif self.max_deals is not None and self.match.deals_played >= self.max_deals:
            self.truncated = True
        else:
            self.deal = self.match.deal
            self._new_deal()
        if self._logging:
            self._log_end(deal)

    # -- what a seat sees -----------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        """The observation of ``seat`` in the table's layout (``float32``)."""
        deal = self.deal
        if self._encode is not None:
            return self._encode(deal, seat)
        out = np.zeros(CARDS_V0_SIZE, dtype=np.float32)
        hand = deal.hands[seat]
        last = deal.last_move
        planes = np.array(
            [[hand.once, hand.twice], [0, 0] if last is None else [last.cards.once, last.cards.twice]], dtype=np.uint64
        )
        out[:108] = card_counts(planes).ravel()
        order = _RELATIVE[seat]
        out[108:324] = self._played[order].ravel()
        out[324:328] = np.asarray(deal.cards_left(), dtype=np.float32)[order] / 27
        out[328 + deal.level - 2] = 1
        slot = _PHASE_SLOT.get(deal.phase)
        if slot is not None:
            out[slot] = 1
        return out

    def random_index(self, rng: np.random.Generator) -> int:
        """A uniformly random index into the legal actions of the seat to act."""
        deal = self.deal
        if deal.phase == "play":
            count = len(deal.legal_moves().kinds) + deal.following
        else:
            count = len(deal.legal_actions())
        return int(rng.integers(count))

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
    """The Gymnasium ``Box`` of the table's observations (0..2 for ``"cards-v0"``, unbounded
    for the encoders' layouts). Gymnasium is imported by the callers, the environments."""
    from gymnasium import spaces

    high = 2.0 if table.layout == CARDS_V0 else np.inf
    return spaces.Box(-high if high == np.inf else 0.0, high, (table.observation_size,), np.float32)


def check_render_mode(mode: object) -> str | None:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {mode!r}")
    return mode  # type: ignore[return-value]


def as_policy(policy: Any) -> Policy:
    """A callable ``f(deal, seat) -> index``, from one or from an agent with ``act``."""
    if hasattr(policy, "act") and callable(policy.act):
        return policy.act  # type: ignore[no-any-return]
    if callable(policy):
        return policy  # type: ignore[no-any-return]
    raise TypeError(f"a policy is a callable f(deal, seat) -> index or an agent with act(deal, seat), not {policy!r}")


def check_policies(policies: Any, count: int) -> list[Policy | None]:
    """``count`` policies (None: uniformly random) from None, one policy, or a sequence."""
    if policies is None:
        return [None] * count
    if isinstance(policies, Sequence) and not isinstance(policies, str):
        if len(policies) != count:
            raise ValueError(f"give {count} policies, one per other seat, not {len(policies)}")
        return [None if p is None else as_policy(p) for p in policies]
    return [as_policy(policies)] * count


__all__ = ["CARDS_V0", "CARDS_V0_SIZE", "MODES", "Policy", "Table", "card_counts"]
