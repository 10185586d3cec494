"""The documented idioms as a user writes them, with the types they must come back as.

tests/test_typing.py checks this file with ``mypy --strict`` against the installed package
(its stubs and ``py.typed``) and runs it: ``assert_type`` fails the check when a call's type
is not the one named here (an ``Any`` included), and the file runs as the README says.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import guandan_fast as gf
from guandan_fast.agents import Agent, make_agent
from guandan_fast.encode import action_features, actions, state, states


def moves_of_a_hand() -> None:
    hand = assert_type(gf.Hand.parse("S3 S4 S5 S6 H2 H2 SA DA"), gf.Hand)
    moves = assert_type(gf.legal_moves(hand, level=2), gf.MoveList)
    assert_type(len(moves), int)
    for move in moves:
        assert_type(move, gf.Move)
        assert_type(move.kind, gf.MoveType)
        assert_type(move.key, int)
        assert_type(move.cards, gf.Hand)
        assert_type(move.beats(None), bool)
    assert_type(moves[0], gf.Move)
    assert_type(moves[:2], list[gf.Move])
    assert_type(moves.kinds, npt.NDArray[np.uint8])
    assert_type(moves.cards, npt.NDArray[np.uint64])
    assert_type(moves.to_platform(), list[list[Any]])
    last = ["Pair", "K", ["SK", "DK"]]
    follow = gf.legal_moves(hand, 2, last, strongest=True)
    assert_type(gf.Move.from_platform(["Pair", "A", ["SA", "DA"]], 2) in follow, bool)
    assert_type(gf.legal_moves("S3 S3 S4", "A", gf.PASS), gf.MoveList)
    assert_type(gf.classify("CA CA DA H2 H2", 2), list[gf.Move])
    assert_type(gf.has_legal_follow(hand, 2, ["Bomb", "9", ["S9", "S9", "C9", "D9"]]), bool)
    assert_type(hand.add("SB").remove(["SB"]), gf.Hand)
    assert_type(hand.to_platform(), list[str])

    planes = np.stack([h.to_numpy() for h in [hand, gf.Hand.parse("SB SB HR HR C9 C9 D9")]])
    batch = assert_type(gf.legal_moves_batch(planes, level=[2, 9]), gf.MoveBatch)
    assert_type(batch[1], gf.MoveList)


def a_deal_and_a_match() -> None:
    deal = assert_type(gf.Deal.start(["S7 D7 SA", "S8 D8", "C9 H9", "SK"], level=2, leader=0), gf.Deal)
    assert_type(deal.phase, str)
    assert_type(deal.to_act, int | None)
    assert_type(deal.current_seat, int)
    assert_type(deal.legal_actions(), list[list[Any]])
    deal.step(["Pair", "7", ["S7", "D7"]])
    assert_type(deal.last_move, gf.Move | None)
    assert_type(deal.hands, tuple[gf.Hand, gf.Hand, gf.Hand, gf.Hand])
    assert_type(deal.playout(seed=7), list[int])
    finish, played = deal.playout(seed=7, record=True)
    assert_type(finish, list[int])
    assert_type(played, list[tuple[int, list[Any]]])
    assert_type(deal.outcome, tuple[int, int] | None)

    match = gf.Match(seed=1)
    while not match.over:
        match.step(match.deal.legal_actions()[-1])
    assert_type(match.winner, int | None)


def search_encoders_and_agents() -> None:
    count, plays = gf.min_plays("S3 S4 S5 S6 S7 H9 D9 C9 SK DK", level=2)
    assert_type(count, int)
    assert_type(plays, list[gf.Move])

    d = gf.Deal.random(seed=1)
    assert_type(gf.perft(d, 2), int)
    assert_type(d.sample_world(d.current_seat, seed=1), gf.Deal)
    assert_type(state(d, d.current_seat), npt.NDArray[np.float32])
    assert_type(states([d, d], [0, 1]), npt.NDArray[np.float32])
    assert_type(action_features(d), npt.NDArray[np.int8])
    legal = actions.mask(d)
    d.step(actions.concretize(d, int(legal.nonzero()[0][0])))

    endgame = gf.Deal.start(["HR HR S3 S3", "D4 D5", "C9 C9", "DK"], level=2, leader=0)
    solution = assert_type(gf.solve(endgame), gf.Solution)
    assert_type(solution.value, int | None)
    assert_type(solution.best, int)
    assert_type(gf.solve(endgame, "first", max_nodes=100_000).exact, bool)

    agent: Agent = make_agent("minplays")
    index = assert_type(agent.act(d, d.current_seat), int)
    d.step(index)


if __name__ == "__main__":
    moves_of_a_hand()
    a_deal_and_a_match()
    search_encoders_and_agents()
