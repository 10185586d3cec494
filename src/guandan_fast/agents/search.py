"""A search agent that searches every play decision, from the first card, in a time budget.

For a play decision of ``seat``: draw worlds — the other three hands redrawn uniformly among
those consistent with what the seat knows (:func:`~guandan_fast.search.infoset.sample_hands`)
— judge each candidate action in each world, and play the candidate with the best mean.

Candidates
    the MinPlays rules' choice (with their tactics, ``MinPlaysAgent(tactics=True)``, unless
    ``tactics=False``) and the actions they consider sensible
    (:meth:`MinPlaysAgent.choices <guandan_fast.agents.MinPlaysAgent.choices>`: the plays
    of the decomposition when leading; the pass, the moves that keep the decomposition and
    the two best bombs when following), at most ``max_candidates``; with ``widen``, where
    the worlds are solved (below), every legal action. A decision with one candidate is
    not searched.
How a world is judged
    * **exactly**, once the world is small — the seats still in play hold at most
      ``solve_cards`` cards together, and the first world drawn was solved within
      ``max_nodes`` positions (else every world is judged by rollouts): the native
      perfect-information solver (``solve_state`` of ``search/_solve.pxd``, through
      :class:`~guandan_fast.search._worldsolve.WorldSolver`: one call per decision, no
      Python object per world) gives each candidate's value with both teams playing
      perfectly in that world, each world stopped at ``max_nodes`` positions and at the
      decision's deadline. A world whose candidates' values were not all proven is judged
      by a rollout instead;
    * **by a rollout** otherwise: each candidate played, then the deal finished by the
      MinPlays rules with their tactics for all four seats, natively
      (:meth:`Deal.world_playouts <guandan_fast.engine.deal.Deal.world_playouts>` with
      ``policy=rollout``, default ``"tactics"``).
Objective (per team)
    values are for the seat's team, so a seat counts its partner going out as its own:
    ``"match"`` (default): the deal's result worth its match equity for the team
    (:func:`~guandan_fast.search.match_equity.deal_equity`, from the deal's ``team_levels``,
    ``deal_team`` and ``failures_at_a``: what each of the six results does to the chance of
    winning the match, scaled to -1 … +1) — about the level points early in a match; at A a
    1-4 finish worth little; where only which team goes out first matters (K/K), exactly
    "first"; ``"first"``: +1 when one of the team's players goes out first, else -1 (what
    decides which team goes up; less noisy; the best objective of a one-deal match);
    ``"points"``: the deal's level points for the team, +3/+2/+1 when one of its players
    goes out first and the partner 2nd/3rd/last, minus as much when the other team does.
    Once a seat is out "first" is decided, so the agent then uses "points" (or, with
    "match", their match equity) whatever the option says (the partner's place is what is
    left).
Leaving the rules
    the rules' choice is kept unless another candidate's mean is better by more than a
    margin times the share of the worlds judged by rollouts (an exact value needs no
    margin; a rollout — the MinPlays rules for all four seats — is a noisy, biased judge):
    ``margin`` once some seat in play holds at most ``endgame`` cards, ``early_margin``
    before (early rollouts are long and judge a position poorly) — or unless that gain,
    paired over the worlds, is more than ``leave_z`` standard errors above zero (a candidate
    that wins some worlds and loses almost none is no accident of the sampling, even early;
    the rollouts' own bias stays, which the measurements, not this test, answer for).
Time
    ``budget_ms`` (default 50) is a deadline for the whole decision, measured from the call,
    once some seat in play holds at most ``endgame`` cards; before, the deadline is
    ``early_budget_ms`` (default 10, at most ``budget_ms``; None: ``budget_ms``), because
    searches there measured no better than the rules while more time and worlds in the
    endgame measured a gain (docs/agents.md; ``worlds``, default 256). Rollouts run a world
    at a time, then in chunks sized from the measured speed so that they end by the
    deadline; the solver gets the time left as its limit (it checks the clock every 1,024
    positions) and stops at it; the worlds it left unproven are rolled out in the time left.
    At least one world is judged when the search starts before the deadline, and a chunk of
    rollouts starts only when, at the speed measured so far, it ends by the deadline. A
    decision therefore overruns the budget only by one world's rollouts (the first, when
    they start late) or a misjudged chunk, plus the fixed cost of the rules' choice and the
    sampling. ``worlds`` caps the worlds per decision. ``budget_ms=None``: no time limit at
    any stage, ``worlds`` worlds every time, and the choices depend only on ``seed``.

Tribute, return and anti-tribute are played by the rule of its MinPlays rules, with their
tactics unless ``tactics=False`` (the allowed card whose loss leaves the hand's fewest
plays; a return, then its singles and pairs fewest and highest and no high pair carried,
then the lowest card:
:class:`~guandan_fast.agents.MinPlaysAgent`): those choices come before any play, a search
there would sample the whole deal with rollouts of 27 cards (the poorest judge we have),
and the tactics' return measured better than the plain one; a test pins it.
"""

from __future__ import annotations

import time

import numpy as np

from ..engine.cards import bounded, seeded_random
from ..engine.deal import Deal
from ..search._solve import OBJECTIVES as OBJECTIVE_CODES
from ..search._worldsolve import WorldSolver
from ..search.infoset import sample_hands
from ..search.match_equity import deal_equity, first_decides
from .base import MOST_WORLDS, check_turn, non_negative, switch, time_budget
from .minplays import MinPlaysAgent
from .pimc import OBJECTIVES, ROLLOUTS, paired_standard_error, rollout_results


def _count(value: object, name: str, most: int | None = None) -> int:
    return bounded(value, f"SearchAgent {name}", 1, most)


class SearchAgent:
    """See :mod:`guandan_fast.agents.search`. ``budget_ms``: the deadline of a play decision in
    the endgame in milliseconds (None: none, at any stage); ``worlds``: the most worlds per
    decision; ``solve_cards``: solve worlds exactly once the seats in play hold at most that
    many cards together (0: never); ``early_budget_ms``: the deadline before the endgame (at
    most ``budget_ms``; None: ``budget_ms``); ``max_nodes``: the solver's limit per world;
    ``margin`` / ``early_margin``: how much better (times the share of rollout-judged worlds) a
    candidate must be than the rules' choice, once a seat in play holds at most ``endgame``
    cards / before; ``leave_z``: or how many standard errors (paired over the worlds) above zero
    its gain must be (0: never); ``objective``: ``"first"``, ``"points"`` or ``"match"``;
    ``max_candidates``: the most candidates; ``widen``: where worlds are solved, every legal
    action is a candidate; ``tactics``: the MinPlays rules with their tactics (else the plain
    ones) choose and list the candidates; ``rollout``: the rollout policy (as PIMC's)."""

    def __init__(
        self,
        budget_ms: float | str | None = 50.0,
        seed: int | str | None = 0,
        worlds: int = 256,
        solve_cards: int = 24,
        max_nodes: int = 5_000,
        margin: float = 0.15,
        early_margin: float = 1.0,
        leave_z: float = 3.0,
        endgame: int = 12,
        objective: str = "match",
        max_candidates: int = 64,
        widen: bool | int = True,
        tactics: bool | int = True,
        rollout: str = "tactics",
        early_budget_ms: float | str | None = 10.0,
    ) -> None:
        self.worlds = _count(worlds, "worlds", MOST_WORLDS)
        self.max_nodes = _count(max_nodes, "max_nodes", 2**63 - 1)  # the solver's C long long
        self.max_candidates = _count(max_candidates, "max_candidates")
        self.solve_cards = bounded(solve_cards, "SearchAgent solve_cards", 0, 108)
        self.endgame = bounded(endgame, "SearchAgent endgame", 0, 27)
        self.margin = non_negative(margin, "SearchAgent margin")
        self.early_margin = non_negative(early_margin, "SearchAgent early_margin")
        self.leave_z = non_negative(leave_z, "SearchAgent leave_z")
        self.widen = switch(widen, "SearchAgent widen")
        self.tactics = switch(tactics, "SearchAgent tactics")
        if objective not in (*OBJECTIVES, "match"):
            raise ValueError(f"SearchAgent objective must be one of {', '.join(OBJECTIVES)}, match, not {objective!r}")
        self.budget_ms = time_budget(budget_ms, "SearchAgent budget_ms")
        self.early_budget_ms = time_budget(early_budget_ms, "SearchAgent early_budget_ms")
        self.seed, self.objective = seed, objective
        self._rng = seeded_random(seed, "SearchAgent seed")
        if rollout not in ROLLOUTS:
            raise ValueError(f"SearchAgent rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        self.rollout = rollout
        self._rules = MinPlaysAgent(tactics=self.tactics)
        self._solver: WorldSolver | None = None  # made on first use (it owns native memory)
        #: play decisions, those searched, the worlds judged exactly and by rollouts, and the
        #: searched decisions that left the rules' choice (how often the search matters)
        self.stats = {"decisions": 0, "searched": 0, "solved_worlds": 0, "rollout_worlds": 0, "left_rules": 0}

    def __repr__(self) -> str:
        return (
            f"SearchAgent(budget_ms={self.budget_ms}, seed={self.seed!r}, worlds={self.worlds}, "
            f"solve_cards={self.solve_cards}, max_nodes={self.max_nodes}, margin={self.margin}, "
            f"early_margin={self.early_margin}, leave_z={self.leave_z}, endgame={self.endgame}, "
            f"objective={self.objective!r}, max_candidates={self.max_candidates}, widen={self.widen}, "
            f"tactics={self.tactics}, rollout={self.rollout!r}, early_budget_ms={self.early_budget_ms})"
        )

    def __getstate__(self) -> dict[str, object]:
        state = dict(self.__dict__)
        state["_solver"] = None  # native memory: a copy makes its own
        return state

    def act(self, deal: Deal, seat: int) -> int:
        began = time.perf_counter()
        seat = check_turn(deal, seat)
        pick, sensible = self._rules.choices(deal, seat)  # one solve of the hand for both
        if deal.phase != "play":
            return pick  # tribute, return, anti-tribute: the MinPlays rule
        self.stats["decisions"] += 1
        seed = self._rng.getrandbits(63)
        if self.widen and sum(deal.cards_left()) <= self.solve_cards:  # small worlds: every legal action
            sensible = list(range(len(deal.legal_moves()) + deal.following))
        candidates = [pick, *(i for i in sensible if i != pick)][: self.max_candidates]
        if len(candidates) == 1:
            return pick
        endgame = self.in_endgame(deal)
        deadline = self.deadline(began, endgame)
        values, rollout_share = self.world_values(deal, seat, candidates, seed, deadline)
        if len(values) == 0:
            return pick
        self.stats["searched"] += 1
        means = values.mean(axis=0).tolist()
        best = max(range(len(candidates)), key=lambda k: (means[k], k == 0))  # ties: the rules' choice
        margin = self.margin if endgame else self.early_margin
        if not leaves_rules(values[:, best] - values[:, 0], margin * rollout_share, self.leave_z):
            return pick
        self.stats["left_rules"] += 1
        return candidates[best]

    def deadline(self, began: float, endgame: bool) -> float | None:
        """When a play decision that began at ``began`` (``time.perf_counter()``) must end:
        ``budget_ms`` later in the endgame (:meth:`in_endgame`), ``early_budget_ms`` (at most
        ``budget_ms``) before; None without a budget."""
        if self.budget_ms is None:
            return None
        budget = self.budget_ms
        if self.early_budget_ms is not None and not endgame:
            budget = min(budget, self.early_budget_ms)
        return began + budget / 1000

    def in_endgame(self, deal: Deal) -> bool:
        """Whether some seat in play holds at most ``endgame`` cards (where ``margin``, not
        ``early_margin``, applies)."""
        return min(n for n in deal.cards_left() if n) <= self.endgame

    def world_values(
        self, deal: Deal, seat: int, candidates: list[int], seed: int, deadline: float | None = None
    ) -> tuple[np.ndarray, float]:
        """Each candidate's value for ``seat``'s team in each world judged
        (``float[worlds, candidates]``), and the share of those worlds judged by rollouts."""
        objective, equity = self.objective, None
        if objective == "match":  # the deal's points, each worth its match equity ("first" where that is all)
            equity = deal_equity(deal, seat)
            objective = "points" if equity is not None and not first_decides(equity) else "first"
        if deal.finish_order:  # "first" is decided once a seat is out
            objective = "points"
        values, share = self._judged(deal, seat, candidates, seed, deadline, objective)
        if equity is not None and objective == "points":
            values = equity[np.rint(values).astype(np.int64) + 3]  # (whole level points)
        return values, share

    def _judged(
        self, deal: Deal, seat: int, candidates: list[int], seed: int, deadline: float | None, objective: str
    ) -> tuple[np.ndarray, float]:
        worlds = sample_hands(deal, seat, self.worlds, seed)
        if sum(deal.cards_left()) <= self.solve_cards:
            probe, share = self._solved(deal, seat, candidates, worlds[:1], objective, deadline)
            if share == 0.0:  # the first world solved: solve them all
                values, share = self._solved(deal, seat, candidates, worlds[1:], objective, deadline)
                return np.concatenate([probe, values]), share * len(values) / (len(values) + 1)
            worlds = worlds[1:]  # too big to solve in time: rollouts (the probe's world counts)
            values = self._rollouts(deal, seat, candidates, worlds, objective, deadline)
            return np.concatenate([probe, values]), 1.0
        values = self._rollouts(deal, seat, candidates, worlds, objective, deadline)
        return values, 1.0

    def _solved(
        self, deal: Deal, seat: int, candidates: list[int], worlds: np.ndarray, objective: str, deadline: float | None
    ) -> tuple[np.ndarray, float]:
        solver = self._solver
        if solver is None:
            solver = self._solver = WorldSolver()
        rows = np.array(candidates, dtype=np.int64)  # (the native dtype: no per-item check of a list)
        values, exact, reached, _ = solver.solve_worlds(
            deal, worlds, rows, OBJECTIVE_CODES[objective], self.max_nodes, 0.0 if deadline is None else deadline
        )
        proven = values[:reached][exact[:reached]]
        unproven = worlds[:reached][~exact[:reached]]
        self.stats["solved_worlds"] += len(proven)
        if len(unproven):  # the rollout value for the worlds the solver did not finish, in the time left
            rolled = self._rollouts(
                deal, seat, candidates, unproven, objective, deadline, at_least_one=len(proven) == 0
            )
            proven = np.concatenate([proven, rolled])
            return proven, len(rolled) / len(proven) if len(proven) else 1.0
        return proven, 0.0 if len(proven) else 1.0

    def _rollouts(
        self,
        deal: Deal,
        seat: int,
        candidates: list[int],
        worlds: np.ndarray,
        objective: str,
        deadline: float | None,
        at_least_one: bool = False,
    ) -> np.ndarray:
        values = rollout_results(
            deal, seat, candidates, worlds, objective, deadline, at_least_one=at_least_one, policy=self.rollout
        )
        self.stats["rollout_worlds"] += len(values)
        return values


def leaves_rules(gains: np.ndarray, margin: float, z: float) -> bool:
    """Whether a candidate whose gains over the rules' choice in each world are ``gains``
    should be played instead: its mean gain is above ``margin``, or (``z`` > 0, at least
    three worlds) above ``z`` standard errors of that mean."""
    mean = float(gains.mean())
    if mean > margin:
        return True
    return bool(z) and len(gains) >= 3 and mean > z * paired_standard_error(gains)
