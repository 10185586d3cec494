"""The search agent (agents/search.py), its native world solver, and PIMC's presets."""

from __future__ import annotations

import inspect
import pickle
import time

import numpy as np
import pytest
from test_agents import play_out

import guandan_fast as gf
from guandan_fast.agents import MinPlaysAgent, PIMCAgent, SearchAgent, make_agent, parse_agent_spec
from guandan_fast.agents.pimc import PRESETS, paired_standard_error, team_results
from guandan_fast.agents.search import leaves_rules
from guandan_fast.search._solve import OBJECTIVES as OBJECTIVE_CODES
from guandan_fast.search._worldsolve import WorldSolver
from guandan_fast.search.infoset import sample_hands


def quick(seed: int = 0, **options: object) -> SearchAgent:
    """A small deterministic search (no time budget): fast enough for tests."""
    settings: dict[str, object] = {"budget_ms": None, "worlds": 4, "seed": seed}
    settings.update(options)
    return SearchAgent(**settings)  # type: ignore[arg-type]


def test_search_plays_legal_actions_in_every_phase_and_is_deterministic_per_seed() -> None:
    def run(seed: int) -> list[tuple[int, int]]:
        deal = gf.Deal.random(5, level=7, previous_finish=[0, 1, 2, 3])  # tribute and return first
        return play_out(deal, [quick(seed + s) for s in range(4)])

    first = run(1)
    assert first == run(1)
    assert {seat for seat, _ in first[:2]} == {3, 0}  # the tribute and return choices were its own


def test_search_with_a_budget_plays_legal_actions() -> None:
    play_out(gf.Deal.random(11), [make_agent("search", budget_ms=2, seed=s) for s in range(4)])


def test_registered_and_parsed_from_a_spec() -> None:
    name, options = parse_agent_spec("search:budget_ms=50,worlds=8,objective=first")
    agent = make_agent(name, **options)
    assert isinstance(agent, SearchAgent)
    assert (agent.budget_ms, agent.worlds, agent.objective) == (50.0, 8, "first")
    assert make_agent("search", budget_ms="none").budget_ms is None
    assert (SearchAgent().budget_ms, SearchAgent().early_budget_ms) == (50.0, 10.0)
    assert make_agent("search", early_budget_ms="none").early_budget_ms is None


def test_the_deadline_is_shorter_before_the_endgame() -> None:
    # before the endgame (every seat above 12 cards) the early budget, in it the whole one
    agent, began = SearchAgent(budget_ms=50, early_budget_ms=10), 100.0
    assert not agent.in_endgame(gf.Deal.random(2))
    assert agent.in_endgame(gf.Deal.start(["S9 C2", "DT CT", "H6 HQ", "CT S2"], level=2, leader=0))
    assert agent.deadline(began, False) == pytest.approx(100.010)
    assert agent.deadline(began, True) == pytest.approx(100.050)
    assert SearchAgent(budget_ms=5, early_budget_ms=10).deadline(began, False) == pytest.approx(100.005)  # the smaller
    assert SearchAgent(budget_ms=50, early_budget_ms=None).deadline(began, False) == pytest.approx(100.050)
    assert SearchAgent(budget_ms=None).deadline(began, False) is None
    copied = pickle.loads(pickle.dumps(SearchAgent(early_budget_ms=7)))  # (arena workers get copies)
    assert copied.early_budget_ms == 7.0 and "early_budget_ms=7.0" in repr(copied)


def test_a_decision_before_the_endgame_searches_to_the_early_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []

    def record(
        self: SearchAgent, deal: gf.Deal, seat: int, candidates: list[int], seed: int, deadline: float | None
    ) -> tuple:
        seen.append(deadline)
        return np.zeros((4, len(candidates))), 1.0

    monkeypatch.setattr(SearchAgent, "world_values", record)
    deal = gf.Deal.random(3)  # the first lead: 27 cards a seat, before the endgame
    agent = SearchAgent(budget_ms=50, early_budget_ms=10)
    before = time.perf_counter()
    agent.act(deal, deal.current_seat)
    after = time.perf_counter()
    assert len(seen) == 1 and seen[0] is not None
    assert before + 0.010 <= seen[0] <= after + 0.010  # 10 ms from the call, not 50


def test_tribute_and_return_are_the_minplays_rule() -> None:
    # The search agent pays and returns by the rule of the MinPlays tactics (see its module
    # docstring): the card whose loss leaves the fewest plays, then the singles and pairs
    # fewest and highest (a return: then the lowest such card).
    deal = gf.Deal.start(["S4 H4 C4 S9 SK", "D9 D8", "D6 C6", "SA S3"], 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.phase == "return" and deal.to_act == 0
    assert deal.legal_actions()[quick().act(deal, 0)] == ["back", "back", ["S9"]]
    deal = gf.Deal.start(["C8 CJ D8 H3 S3", "D9 D8", "D6 C6", "SB S3"], 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SB"]])  # the tactics keep the pair of 3s (the plain rule: S3)
    assert deal.legal_actions()[quick().act(deal, 0)] == ["back", "back", ["C8"]]
    for seed in range(6):  # and every tribute and return choice is the rule's
        deal = gf.Deal.random(
            seed, level=2 + seed, previous_finish=[seed % 4, (seed + 1) % 4, (seed + 2) % 4, (seed + 3) % 4]
        )
        while deal.phase in ("tribute", "return"):
            seat = deal.current_seat
            choice = quick().act(deal, seat)
            assert choice == MinPlaysAgent(tactics=True).act(deal, seat)
            deal.step(choice)


def test_small_worlds_are_solved_exactly() -> None:
    # Two cards a seat: judged by rollouts of the plain MinPlays rules ("points"), and choosing
    # by them, the agent leads its 9 and its team loses (value -1 with every hand known);
    # solving the sampled worlds it leads the level card 2 (a high single) and its team goes
    # out first (+1), as the rules with their tactics do (nobody can beat the 2).
    deal = gf.Deal.start(["S9 C2", "DT CT", "H6 HQ", "CT S2"], level=2, leader=0)
    truth = gf.solve(deal)
    solving = quick(0, worlds=16, objective="points")
    by_rollouts = quick(0, worlds=16, solve_cards=0, objective="points", rollout="minplays", tactics=False)
    win, loss = solving.act(deal, 0), by_rollouts.act(deal, 0)
    assert deal.legal_actions()[win] == ["Single", "2", ["C2"]] and truth.values[win] == 1
    assert deal.legal_actions()[loss] == ["Single", "9", ["S9"]] and truth.values[loss] == -1
    assert solving.stats["solved_worlds"] == 16 and solving.stats["rollout_worlds"] == 0
    assert by_rollouts.stats["solved_worlds"] == 0


def test_world_solver_equals_solve_on_each_world() -> None:
    deal = gf.Deal.start(["HR HR S3 S3", "D4 D5", "C9 C9", "DK"], level=2, leader=0)
    worlds = sample_hands(deal, 0, 6, seed=2)
    rows = list(range(len(deal.legal_actions())))
    values, exact, reached, nodes = WorldSolver().solve_worlds(deal, worlds, rows, 0, 0, 0.0)
    assert reached == 6 and exact.all() and nodes > 0
    for world, row in zip(worlds.tolist(), values.tolist()):
        hands = [gf.Hand._trusted(once, twice) for once, twice in world]
        assert list(gf.solve(deal.with_hands(hands)).values) == row
    bad = worlds.copy()
    bad[0, 1] = bad[0, 2]  # seat 1 gets seat 2's cards: not the deal's cards
    with pytest.raises(ValueError, match="world 0"):
        WorldSolver().solve_worlds(deal, bad, rows, 0, 0, 0.0)
    with pytest.raises(ValueError, match="row 9"):
        WorldSolver().solve_worlds(deal, worlds, [9], 0, 0, 0.0)
    swapped = [gf.Hand.parse(text) for text in ("HR HR S3 D4", "S3 D5", "C9 C9", "DK")]  # the deal's cards and counts
    moved = np.array([[(hand.once, hand.twice) for hand in swapped]], dtype=np.uint64)
    with pytest.raises(ValueError, match="hand of the seat to act"):  # its rows would name other moves
        WorldSolver().solve_worlds(deal, moved, rows, 0, 0, 0.0)


def test_widened_candidates_where_worlds_are_solved() -> None:
    deal = gf.Deal.start(["S9 C2", "DT CT", "H6 HQ", "CT S2"], level=2, leader=0)
    agent = quick(0, widen=1)
    assert agent.widen and deal.legal_actions()[agent.act(deal, 0)] == ["Single", "2", ["C2"]]
    assert quick(0, widen=1, solve_cards=0).act(deal, 0) in range(len(deal.legal_actions()))


def test_unfinished_worlds_fall_back_to_rollouts() -> None:
    deal = gf.Deal.random(4)  # many cards a seat: few worlds are solved within 50 nodes
    deal = _advance(deal, 20)
    agent = quick(0, solve_cards=27, max_nodes=50)
    assert 0 <= agent.act(deal, deal.current_seat) < len(deal.legal_actions())
    assert agent.stats["rollout_worlds"] > 0 and agent.stats["solved_worlds"] + agent.stats["rollout_worlds"] == 4


def _advance(deal: gf.Deal, actions: int) -> gf.Deal:
    """``deal`` after the MinPlays rules have taken ``actions`` actions, and then on to the
    next play decision with more than one candidate (a decision the agent searches)."""
    rules = MinPlaysAgent()
    for _ in range(actions):
        deal.step(rules.act(deal, deal.current_seat))
    while deal.phase != "play" or len(rules.choices(deal, deal.current_seat)[1]) < 2:
        deal.step(rules.act(deal, deal.current_seat))
        assert not deal.done, "no decision to search left: cut earlier"
    return deal


@pytest.mark.parametrize("cut", [0, 40])
def test_a_small_budget_is_respected(cut: int) -> None:
    # A loose sanity limit, not a speed claim: a 5 ms budget answers well within a second,
    # with 1,000 worlds and a solver without a node limit on every world: only the
    # deadline stops the solver and the rollouts.
    deal = _advance(gf.Deal.random(8), cut)
    agent = make_agent("search", budget_ms=5, worlds=1_000, solve_cards=108, max_nodes=10**9, seed=1)
    began = time.perf_counter()
    choice = agent.act(deal, deal.current_seat)
    assert time.perf_counter() - began < 1.0
    assert 0 <= choice < len(deal.legal_actions())


@pytest.mark.parametrize(
    "options, words",
    [
        ({"budget_ms": 0}, "budget_ms must be a positive"),
        ({"budget_ms": "fast"}, "budget_ms must be a positive"),
        ({"budget_ms": float("inf")}, "budget_ms must be a positive number of milliseconds up to 86400000"),
        ({"worlds": 0}, "worlds must be an integer 1..1048576"),
        ({"worlds": 10**9}, "worlds must be an integer 1..1048576"),
        ({"max_nodes": 2**63}, "max_nodes must be an integer 1..9223372036854775807"),
        ({"max_nodes": 1.5}, "max_nodes must be an integer"),
        ({"solve_cards": -1}, "solve_cards must be an integer"),
        ({"margin": -0.1}, "margin must be a number"),
        ({"objective": "levels"}, "objective must be one of points, first"),
        ({"max_candidates": 0}, "max_candidates must be an integer >= 1"),
        ({"early_margin": -1}, "early_margin must be a number"),
        ({"endgame": -1}, "endgame must be an integer"),
        ({"widen": "yes"}, "widen must be true or false"),
        ({"tactics": 2}, "SearchAgent tactics must be true or false"),
        ({"rollout": "smart"}, "rollout must be one of random, greedy, minplays, tactics"),
        ({"leave_z": -1}, "leave_z must be a number"),
        ({"early_budget_ms": 0}, "early_budget_ms must be a positive"),
    ],
)
def test_bad_options_are_named(options: dict, words: str) -> None:
    with pytest.raises((ValueError, TypeError), match=words):
        make_agent("search", **options)


# -- PIMC's presets --------------------------------------------------------------------------------
def test_pimc_preset_v01_is_the_defaults_of_release_01() -> None:
    assert PRESETS["v0.1"] == {
        "playouts": 64, "budget_ms": None, "rollout": "minplays", "worlds": 48, "endgame": 12,
        "margin": 0.15, "max_candidates": 16, "objective": "first", "confidence": 0.0,
    }  # fmt: skip
    defaults = {
        name: p.default
        for name, p in inspect.signature(PIMCAgent.__init__).parameters.items()
        if name in PRESETS["v0.1"]
    }
    assert defaults == PRESETS["v0.1"]  # today the defaults are v0.1's
    name, options = parse_agent_spec("pimc:preset=v0.1")
    preset, default = make_agent(name, **options), PIMCAgent()
    assert repr(preset) == repr(default)
    for key in PRESETS["v0.1"]:
        if key != "playouts":
            assert getattr(preset, key) == PRESETS["v0.1"][key]
    assert make_agent("pimc", preset="v0.1", worlds=8).worlds == 8  # an option given still wins
    deal = _advance(gf.Deal.random(6), 40)
    assert preset.act(deal, deal.current_seat) == default.act(deal, deal.current_seat)


def test_pimc_unknown_preset_names_the_presets() -> None:
    with pytest.raises(ValueError, match="preset must be one of v0.1, not 'v9'"):
        make_agent("pimc", preset="v9")


def test_values_are_per_team() -> None:
    # Seat 0 cannot win the race itself, but its partner's red joker takes the first trick
    # whatever happens and goes out: with every hand known, every action wins for seat 0's
    # team, judged exactly or by rollouts, with either objective.
    deal = gf.Deal.start(["S3 S7", "D4 D9", "HR", "C5 C8"], level=2, leader=0)
    world = np.array([[[hand.once, hand.twice] for hand in deal.hands]], dtype=np.uint64)
    rows = list(range(len(deal.legal_actions())))
    for objective in ("first", "points"):
        values, exact, _, _ = WorldSolver().solve_worlds(deal, world, rows, OBJECTIVE_CODES[objective], 0, 0.0)
        assert exact.all() and np.all(values >= 1)
        rollouts = team_results(deal.world_playouts(world, rows, 1, policy="minplays"), 0, objective)
        assert np.all(rollouts >= 1)


# -- leaving the rules -----------------------------------------------------------------------------
def test_a_gain_seen_in_every_world_leaves_the_rules_below_the_margin() -> None:
    steady = np.full(64, 0.1)  # +0.1 in every world: no sampling accident
    assert leaves_rules(steady, 1.0, 3.0)
    assert not leaves_rules(steady, 1.0, 0.0)  # leave_z=0: the margin alone
    assert leaves_rules(steady, 0.05, 0.0)
    noisy = np.array([2.0] * 33 + [-2.0] * 31)  # +0.0625 on average, 2 per world either way
    assert not leaves_rules(noisy, 1.0, 3.0)  # 0.25 a standard error: far within 3 of them
    assert leaves_rules(noisy, 0.05, 3.0)
    assert not leaves_rules(np.zeros(64), 0.0, 3.0)  # the rules' own choice never leaves
    assert not leaves_rules(np.full(2, 0.1), 1.0, 3.0)  # two worlds say nothing of the spread


def test_the_paired_standard_error_is_that_of_the_mean_gain() -> None:
    assert paired_standard_error(np.array([2.0, 0.0, 0.0, 0.0])) == pytest.approx(0.5)  # s = 1, 4 worlds
    assert paired_standard_error(np.full(9, 0.5)) == 0.0  # the same gain in every world
    assert paired_standard_error(np.array([2.0])) == 0.0  # one world: spread unknown, none assumed


def test_leave_z_counts_standard_errors_of_the_mean_gain() -> None:
    # "first" values: a world's gain is 0 or +2; 9 wins in 64 worlds is 3.21 standard errors
    # of the mean, 7 wins 2.78, both far below the early margin of 1.0
    assert leaves_rules(np.array([2.0] * 9 + [0.0] * 55), 1.0, 3.0)
    assert not leaves_rules(np.array([2.0] * 7 + [0.0] * 57), 1.0, 3.0)
    assert leaves_rules(np.array([2.0] * 7 + [0.0] * 57), 1.0, 2.5)
    # one loss among them costs more than one win is worth
    assert not leaves_rules(np.array([2.0] * 9 + [-2.0] + [0.0] * 54), 1.0, 3.0)


def test_the_agent_leaves_the_rules_early_for_a_steady_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    deal = gf.Deal.random(3)  # the first lead: every seat holds 27 cards, early_margin applies
    seat = deal.current_seat

    def steady_second(self: SearchAgent, deal: gf.Deal, seat: int, candidates: list[int], *_: object) -> tuple:
        values = np.zeros((16, len(candidates)))
        values[:, 1] = 0.25  # the second candidate wins a little in every world
        return values, 1.0

    monkeypatch.setattr(SearchAgent, "world_values", steady_second)
    rules = MinPlaysAgent(tactics=True)
    pick, sensible = rules.choices(deal, seat)
    second = next(i for i in sensible if i != pick)
    leaving, keeping = quick(), quick(leave_z=0)  # (no budget: no early one either)
    assert leaving.act(deal, seat) == second and leaving.stats["left_rules"] == 1
    assert keeping.act(deal, seat) == pick and keeping.stats["left_rules"] == 0  # 0.25 is within early_margin
