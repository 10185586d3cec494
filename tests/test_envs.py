"""The environments (guandan_fast.envs): PettingZoo's API and seed tests, Gymnasium's
checker, masked random play, rewards, rendering, bad input (docs/training.md, which
trains an agent on them, is run by test_docs)."""

from __future__ import annotations

import contextlib
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

from guandan_fast import Deal
from guandan_fast.encode import LAYOUTS, state
from guandan_fast.encode.actions import NUM_ACTIONS, ids, mask
from guandan_fast.envs import GYMNASIUM_IDS, GuandanGymEnv, guandan_v0, gymnasium_env, pettingzoo_env

#: PettingZoo's api_test advises a Box observation for every environment not on its own
#: list of classic games; the {"observation", "action_mask"} dict is the AEC convention
#: for masked actions (its classic games use it), so these two advisories alone are let
#: through; every other warning fails the test.
DICT_OBSERVATION_ADVICE = ("Observation is not a NumPy array", "Observation space for each agent probably should be")


@contextlib.contextmanager
def warnings_as_errors(*allowed: str) -> Iterator[None]:
    """Every warning raised as an error, but those whose message starts with ``allowed``."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in allowed:
            warnings.filterwarnings("ignore", message=message)
        yield


ENV_OPTIONS = [{}, {"mode": "match", "max_deals": 3}, {"observation": "danzero"}]


@pytest.mark.parametrize("make", [pettingzoo_env, guandan_v0.env, guandan_v0.raw_env])
@pytest.mark.parametrize("options", ENV_OPTIONS)
def test_pettingzoo_api_test(make, options: dict) -> None:
    with warnings_as_errors(*DICT_OBSERVATION_ADVICE):
        api_test(make(**options), num_cycles=1000)


@pytest.mark.parametrize("make", [guandan_v0.env, guandan_v0.raw_env])
@pytest.mark.parametrize("options", [{}, {"mode": "match", "max_deals": 2}])
def test_pettingzoo_seed_test(make, options: dict) -> None:
    with warnings_as_errors():
        seed_test(lambda: make(**options), num_cycles=500)


@pytest.mark.parametrize("make", [guandan_v0.env, guandan_v0.raw_env])
def test_pettingzoo_render_test(make, capsys: pytest.CaptureFixture[str]) -> None:
    with warnings_as_errors():
        render_test(make)
    assert "Deal at level 2" in capsys.readouterr().out  # "human" printed the log


@pytest.mark.parametrize("env_id", sorted(GYMNASIUM_IDS))
def test_gymnasium_make_by_id_and_check_env(env_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make(env_id, render_mode="ansi")
    assert env.spec.id == env_id and env.unwrapped.table.mode == GYMNASIUM_IDS[env_id]
    with warnings_as_errors():  # check_env reports bad step results, bounds, render modes as warnings
        check_env(env.unwrapped)
        check_env(gymnasium.make(env_id, max_deals=2).unwrapped)
    observation, info = env.reset(seed=5)
    assert observation.shape == (2467,) and np.array_equal(info["action_mask"], env.unwrapped.action_masks())


def test_gymnasium_ids_register_on_import_in_a_fresh_process() -> None:
    result = run_python(
        "import gymnasium, guandan_fast.envs\n"
        "env = gymnasium.make('guandan_fast/GuandanMatch-v0', observation='danzero', max_deals=1)\n"
        "print(env.reset(seed=1)[0].shape, env.unwrapped.table.mode)"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["(513,)", "match"]
    # gymnasium's "module:id" form imports the package itself
    result = run_python("import gymnasium\nprint(gymnasium.make('guandan_fast.envs:guandan_fast/Guandan-v0').spec.id)")
    assert result.returncode == 0 and result.stdout.strip() == "guandan_fast/Guandan-v0", result.stderr


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
    _, totals = play_masked_random(env, 3, np.random.default_rng(3))
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
    env.reset(seed=8)
    done, total = False, 0.0
    while not done:
        assert env.table.deal.to_act == 1
        action_masks = env.action_masks()
        assert action_masks.dtype == np.bool_ and action_masks.shape == (NUM_ACTIONS,)
        action = int(np.flatnonzero(action_masks)[0])
        _, reward, done, _, _ = env.step(action)
        total += reward
    deal = env.table.deal
    team, up = deal.outcome
    assert total == (up if team == 1 else -up)
    assert set(agent.seats) == {2} and set(calls) == {3}
    assert not env.action_masks().any()
    with pytest.raises(ValueError, match="over"):
        env.step(0)


@pytest.mark.parametrize("fails_on", [1, 6])  # in reset (the first opponent's turn), in a step
def test_gym_a_failing_opponent_ends_the_episode(fails_on: int) -> None:
    calls = 0

    def flaky(deal: Deal, seat: int) -> int:
        nonlocal calls
        calls += 1
        return 999 if calls == fails_on else 0

    env = GuandanGymEnv(seat=0, opponents=flaky)
    try:
        env.reset(seed=1)
        while True:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    except ValueError as error:
        assert "999" in str(error)
    to_act, history = env.table.deal.to_act, list(env.table.deal.history)
    assert to_act != 0  # the failing opponent's turn: the learner must not act in it
    assert not env.action_masks().any()
    with pytest.raises(ValueError, match="over"):
        env.step(0)
    assert env.table.deal.history == history
    env.reset(seed=2)  # a new episode starts cleanly
    assert env.table.deal.to_act == 0 and env.action_masks().any()


def test_gym_illegal_action_ends_or_raises() -> None:
    env = gymnasium_env()
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -3.0 and info["illegal_action"] and not info["action_mask"].any()
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
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
    assert ids(first.table.deal).tolist() == ids(second.table.deal).tolist()


# -- conventions: seeding, bounds, metadata, masks in infos -------------------------------------
def first_hands(env) -> list[str]:
    return [str(hand) for hand in env.table.deal.hands]


@pytest.mark.parametrize("mode", ["deal", "match"])
def test_a_seeded_reset_carries_its_stream_through_later_unseeded_resets(mode: str) -> None:
    one, two = pettingzoo_env(mode), pettingzoo_env(mode)
    runs = []
    for env in (one, two):
        env.reset(seed=1)
        games = [first_hands(env)]
        for _ in range(3):
            env.reset()
            games.append(first_hands(env))
        runs.append(games)
    assert runs[0] == runs[1]
    assert len({tuple(hands) for hands in runs[0]}) == 4  # every reset a new game
    gym_one, gym_two = gymnasium_env(mode=mode), gymnasium_env(mode=mode)
    gym_one.reset(seed=2)
    gym_two.reset(seed=2)
    gym_one.reset()
    gym_two.reset()
    assert first_hands(gym_one) == first_hands(gym_two)


def test_unseeded_resets_leave_the_global_random_alone() -> None:
    random.seed(99)
    before = random.getstate()
    envs = [pettingzoo_env(), gymnasium_env(), pettingzoo_env("match")]
    games = []
    for env in envs:
        env.reset()
        games.append(first_hands(env))
    gym = envs[1]
    for _ in range(30):  # the random opponents draw from the environment's own stream
        if not gym.action_masks().any():
            break
        gym.step(int(np.flatnonzero(gym.action_masks())[0]))
    assert random.getstate() == before
    random.seed(99)  # the same global state does not repeat the games: they are fresh entropy
    assert first_hands(reset_unseeded(pettingzoo_env())) != games[0]


def reset_unseeded(env):
    env.reset()
    return env


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_observation_bounds_are_finite_and_hold_in_play(layout: str) -> None:
    env = pettingzoo_env("match", observation=layout, max_deals=3)
    box = env.observation_space("player_0")["observation"]
    assert np.isfinite(box.low).all() and np.isfinite(box.high).all() and box.high.max() <= 6
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        for seat in range(4):
            assert box.contains(env.observe(f"player_{seat}")["observation"])
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_metadata_and_masks_in_infos() -> None:
    for env in (pettingzoo_env(), gymnasium_env()):
        assert env.metadata["render_fps"] > 0 and env.metadata["render_modes"] == ["human", "ansi"]
    env = pettingzoo_env()
    env.reset(seed=6)
    for _ in range(5):
        agent = env.agent_selection
        _, _, _, _, info = env.last()
        assert np.array_equal(info["action_mask"], env.observe(agent)["action_mask"])
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert "action_mask" not in env.infos[agent] or env.agent_selection == agent


# -- outside an episode: clear errors (issue 21) ---------------------------------------------------
def test_gym_an_illegal_id_really_ends_the_episode() -> None:
    env = gymnasium_env()
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    history = list(env.table.deal.history)
    assert env.step(illegal)[2]
    for action in (0, illegal, int(np.flatnonzero(env.table.legal()[1])[0])):
        with pytest.raises(ValueError, match="episode is over: call reset"):
            env.step(action)
    assert env.table.deal.history == history and not env.action_masks().any()
    env.reset(seed=3)
    assert env.action_masks().any()


def test_gym_refuses_what_is_no_action_id() -> None:
    with pytest.raises(ValueError, match="not been reset"):
        gymnasium_env().step(0)
    env = gymnasium_env()
    env.reset(seed=4)
    history = list(env.table.deal.history)
    legal = int(np.flatnonzero(env.action_masks())[0])
    for bad, error in [(True, TypeError), (np.bool_(True), TypeError), (1.0, TypeError), ("3", TypeError),
                       (None, TypeError), ([legal], TypeError), (-1, ValueError), (NUM_ACTIONS, ValueError)]:
        with pytest.raises(error, match="action id"):
            env.step(bad)
    assert env.table.deal.history == history
    assert env.step(np.int64(legal))[0].shape == (2467,)  # numpy integers (what samplers give) are ids


def test_pettingzoo_outside_an_episode() -> None:
    env = pettingzoo_env()
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(ValueError, match="not been reset"):
            call()
    env.reset(seed=9)
    for bad in ("player_9", 0, None):
        with pytest.raises(ValueError, match="no agent"):
            env.observe(bad)
        with pytest.raises(ValueError, match="no agent"):
            env.observation_space(bad)
    rng = np.random.default_rng(9)
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            with pytest.raises(ValueError, match="only valid action is None"):
                env.step(0)
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert env.agents == []
    for action in (0, None):
        with pytest.raises(ValueError, match="game is over"):
            env.step(action)
    wrapped = guandan_v0.env()
    with pytest.raises(AssertionError, match="reset"):  # PettingZoo's OrderEnforcingWrapper
        wrapped.step(0)


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
