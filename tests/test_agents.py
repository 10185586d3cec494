"""The agent protocol, RandomAgent and make_agent."""

from __future__ import annotations

import pytest

import guandan_fast as gf
from guandan_fast.agents import Agent, FunctionAgent, RandomAgent, as_agent, make_agent, parse_agent_spec
from guandan_fast.agents.base import checked_choice


def play_out(deal: gf.Deal, agents: list[Agent]) -> list[tuple[int, int]]:
    """Play the deal to its end; the (seat, index) choices made."""
    choices = []
    while not deal.done:
        seat = deal.to_act
        index = checked_choice(agents[seat], deal, seat)
        choices.append((seat, index))
        deal.step(index)
    return choices


def test_random_agent_plays_every_phase_and_is_deterministic_per_seed() -> None:
    def run(seed: int) -> list[tuple[int, int]]:
        deal = gf.Deal.random(5, level=7, previous_finish=[0, 1, 2, 3])
        return play_out(deal, [RandomAgent(seed + s) for s in range(4)])

    first = run(1)
    assert first == run(1)
    assert first != run(2)
    deal = gf.Deal.random(5, level=7, previous_finish=[0, 1, 2, 3])
    assert deal.phase == "tribute"  # the agents made the tribute and return choices too
    assert {seat for seat, _ in first[:2]} == {3, 0}


def test_random_agent_chooses_every_action_over_many_calls() -> None:
    deal = gf.Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0)
    agent = RandomAgent(0)
    assert {agent.act(deal, 0) for _ in range(200)} == set(range(len(deal.legal_actions())))


def test_functions_are_agents() -> None:
    agent = as_agent(lambda deal, seat: len(deal.legal_actions()) - 1)
    assert isinstance(agent, FunctionAgent) and isinstance(agent, Agent)
    deal = gf.Deal.random(3)
    assert agent.act(deal, deal.to_act) == len(deal.legal_actions()) - 1
    same = RandomAgent(1)
    assert as_agent(same) is same
    with pytest.raises(TypeError, match="act"):
        as_agent(42)  # type: ignore[arg-type]


def test_make_agent_by_name_and_spec() -> None:
    agent = make_agent("Random", seed=9)
    assert isinstance(agent, RandomAgent) and agent.seed == 9
    assert parse_agent_spec("random:seed=4") == ("random", {"seed": 4})
    assert parse_agent_spec("random") == ("random", {})
    with pytest.raises(ValueError, match="unknown agent 'alphago': the agents are .*random"):
        make_agent("alphago")
    with pytest.raises(ValueError, match="unknown agent"):
        parse_agent_spec("alphago:x=1")
    with pytest.raises(ValueError, match="key=value"):
        parse_agent_spec("random:seed")
    with pytest.raises(TypeError):
        make_agent("random", playouts=3)


def test_asking_a_seat_that_is_not_to_act_is_a_clear_error() -> None:
    deal = gf.Deal.start(["", "S5", "S7 S8", "S9 ST"], 2, leader=1)
    agent = RandomAgent(0)
    with pytest.raises(ValueError, match="seat 0 is not to act \\(it is out\\): seat 1 is"):
        agent.act(deal, 0)
    with pytest.raises(ValueError, match="seat 2 is not to act: seat 1 is"):
        agent.act(deal, 2)
    play_out(deal, [agent] * 4)
    with pytest.raises(ValueError, match="the deal is over"):
        agent.act(deal, 1)


def test_bad_answers_from_an_agent_are_named() -> None:
    deal = gf.Deal.random(1)
    with pytest.raises(ValueError, match="returned action index 9999"):
        checked_choice(as_agent(lambda d, s: 9999), deal, deal.to_act)
    with pytest.raises(TypeError, match="must return an action index"):
        checked_choice(as_agent(lambda d, s: "S3"), deal, deal.to_act)
