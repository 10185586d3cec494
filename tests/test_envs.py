"""The environments (guandan_fast.envs): PettingZoo's API and seed tests, Gymnasium's
checker, masked random play, rewards, rendering, bad input (docs/training.md, which
trains an agent on them, is run by test_docs)."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from guandan_fast import Deal
from guandan_fast.encode import LAYOUTS, state
from guandan_fast.encode.actions import NUM_ACTIONS, ids, mask
from guandan_fast.envs import GuandanGymEnv, gymnasium_env, pettingzoo_env


@pytest.mark.parametrize("options", [{}, {"mode": "match", "max_deals": 3}, {"observation": "danzero"}])
def test_pettingzoo_api_test(options: dict) -> None:
    with warnings.catch_warnings():
        # any warning fails the test (api_test reports some faults only as warnings), except
        # its advice for dict observations ({"observation", "action_mask"} is the AEC convention)
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        api_test(pettingzoo_env(**options), num_cycles=1000)


@pytest.mark.parametrize("options", [{}, {"mode": "match", "max_deals": 2}])
def test_pettingzoo_seed_test(options: dict) -> None:
    seed_test(lambda: pettingzoo_env(**options), num_cycles=500)


@pytest.mark.parametrize("options", [{}, {"mode": "match", "max_deals": 2}])
def test_gymnasium_check_env(options: dict) -> None:
    with warnings.catch_warnings():
        # any warning fails the test (check_env reports bad step results only as warnings),
        # except the unbounded Box (the danzero/full-v1 features need no bound) and the
        # render-mode check that needs a registered spec
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=r".*A Box observation space (maximum|minimum) value is")
        warnings.filterwarnings("ignore", message=r".*Not able to test alternative render modes")
        check_env(gymnasium_env(**options))


def play_masked_random(env, seed: int, rng: np.random.Generator) -> tuple[int, dict[str, float]]:
    """One game with uniformly random masked actions; steps taken and final cumulative rewards."""
    env.reset(seed=seed)
    steps, totals = 0, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] = reward
        if termination or truncation:
            env.step(None)
            continue
        deal = env.table.deal
        action_mask = observation["action_mask"]
        assert action_mask.dtype == np.int8 and np.array_equal(action_mask.astype(bool), mask(deal))
        assert np.array_equal(observation["observation"], state(deal, int(agent[-1]), "full-v1"))
        legal = np.flatnonzero(action_mask)
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps, totals


def test_masked_random_play_through_the_aec_env() -> None:
    env = pettingzoo_env()
    rng = np.random.default_rng(0)
    for seed in range(150):
        steps, totals = play_masked_random(env, seed, rng)
        deal = env.table.deal
        team, up = deal.outcome
        assert steps == len(deal.history)
        assert totals == {f"player_{s}": float(up if s % 2 == team else -up) for s in range(4)}


def test_a_match_ends_with_one_point_each() -> None:
    env = pettingzoo_env("match")
    steps, totals = play_masked_random(env, 3, np.random.default_rng(3))
    match = env.table.match
    assert match.over and match.deals_played >= 2
    assert totals == {f"player_{s}": 1.0 if s % 2 == match.winner else -1.0 for s in range(4)}


def test_match_mode_has_tribute_actions_and_truncates() -> None:
    env = pettingzoo_env("match", max_deals=2)
    env.reset(seed=11)
    seen_tribute = False
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            assert truncation and not termination
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        seen_tribute |= bool(legal.min() >= 205)
        env.step(int(legal[0]))
    assert seen_tribute and env.table.match.deals_played == 2 and not env.table.match.over


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = pettingzoo_env()
    env.reset(seed=5)
    agent = env.agent_selection
    before = (env.table.deal.history, env.observe(agent)["observation"].copy())
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    for bad in (illegal, -1, NUM_ACTIONS):
        with pytest.raises(ValueError):
            env.step(bad)
    assert env.agent_selection == agent
    assert env.table.deal.history == before[0]
    assert np.array_equal(env.observe(agent)["observation"], before[1])


def test_only_the_seat_to_act_has_a_mask() -> None:
    env = pettingzoo_env()
    env.reset(seed=2)
    seat = env.table.deal.to_act
    for other in range(4):
        action_mask = env.observe(f"player_{other}")["action_mask"]
        assert action_mask.any() == (other == seat)


def test_render_modes_print_the_play_log(capsys: pytest.CaptureFixture[str]) -> None:
    env = pettingzoo_env(render_mode="ansi")
    env.reset(seed=4)
    first = env.render()
    assert first.startswith("Deal at level 2") and first.count("\n") == 4
    for _ in range(3):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[-1]))
    lines = env.render().splitlines()
    history = env.table.deal.history
    assert [int(re.match(r"  seat (\d):", line).group(1)) for line in lines] == [s for s, _ in history]
    assert env.render() == ""
    human = pettingzoo_env(render_mode="human")
    human.reset(seed=4)
    assert capsys.readouterr().out.strip() == first
    with pytest.raises(ValueError, match="render_mode"):
        pettingzoo_env(render_mode="rgb_array")


def test_bad_options() -> None:
    with pytest.raises(ValueError, match="mode"):
        pettingzoo_env("tournament")
    with pytest.raises(ValueError, match="layout"):
        pettingzoo_env(observation="pixels")
    with pytest.raises(ValueError, match="max_deals"):
        pettingzoo_env("match", max_deals=0)
    with pytest.raises(ValueError, match="seat"):
        gymnasium_env(seat=4)
    with pytest.raises(ValueError, match="3 policies"):
        gymnasium_env(opponents=[None, None])
    with pytest.raises(TypeError, match="policy"):
        gymnasium_env(opponents=42)


def test_observation_space_fits_the_layouts() -> None:
    for layout, (size, _) in LAYOUTS.items():
        env = pettingzoo_env(observation=layout)
        env.reset(seed=1)
        space = env.observation_space("player_0")
        assert space["observation"].shape == (size,)
        assert space.contains(env.observe(env.agent_selection))


# -- Gymnasium --------------------------------------------------------------------------------
class CountingAgent:
    """An agent of the agents protocol that plays the first legal action and counts calls."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def act(self, deal: Deal, seat: int) -> int:
        assert deal.to_act == seat
        self.seats.append(seat)
        return 0


def test_gym_opponents_play_the_other_seats() -> None:
    agent = CountingAgent()
    calls: list[int] = []

    def first_legal(deal: Deal, seat: int) -> int:
        calls.append(seat)
        return 0

    env = GuandanGymEnv(seat=1, opponents=[agent, first_legal, None])
    observation, _ = env.reset(seed=8)
    done, total = False, 0.0
    while not done:
        assert env.table.deal.to_act == 1
        action_masks = env.action_masks()
        assert action_masks.dtype == np.bool_ and action_masks.shape == (NUM_ACTIONS,)
        action = int(np.flatnonzero(action_masks)[0])
        observation, reward, done, truncated, info = env.step(action)
        total += reward
    deal = env.table.deal
    team, up = deal.outcome
    assert total == (up if team == 1 else -up)
    assert set(agent.seats) == {2} and set(calls) == {3}
    assert not env.action_masks().any()
    with pytest.raises(ValueError, match="over"):
        env.step(0)


def test_gym_illegal_action_ends_or_raises() -> None:
    env = gymnasium_env()
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -3.0 and info == {"illegal_action": True}
    strict = gymnasium_env(on_illegal="raise")
    strict.reset(seed=3)
    history = strict.table.deal.history
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
    assert strict.table.deal.history == history


def test_gym_seeds_repeat() -> None:
    first, second = gymnasium_env(), gymnasium_env()
    for env in (first, second):
        env.reset(seed=21)
    for _ in range(20):
        if first.table.over:
            break
        action = int(np.flatnonzero(first.action_masks())[0])
        a, b = first.step(action), second.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:] == b[1:]
    assert ids(first.table.deal).tolist() == ids(second.table.deal).tolist()


# -- optional dependencies --------------------------------------------------------------------
def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)


def test_envs_import_without_pettingzoo_and_say_what_is_missing() -> None:
    result = run_python(
        "import sys; sys.modules['pettingzoo'] = None; sys.modules['gymnasium'] = None\n"
        "import guandan_fast.envs as envs\n"
        "try:\n    envs.pettingzoo_env()\nexcept ImportError as e:\n    print(e)"
    )
    assert result.returncode == 0, result.stderr
    assert "pip install 'guandan_fast[envs]'" in result.stdout
