"""A readable log of a match played by agents or uniformly random legal actions (the
``guandan-fast play`` command): hands, tribute, every play, 接风, finishing orders, levels."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from ..agents.base import Agent, checked_choice
from ..engine.cards import CARD_NAMES, bounded, check_seat, level_char
from ..engine.match import Match
from ..engine.rules import Rules
from ..engine.scoring import finish_outcome

__all__ = ["play_log"]

_PLACES = ("1st", "2nd", "3rd", "4th")


def _describe(triple: Sequence[Any]) -> str:
    kind, rank, cards = triple
    if kind == "PASS":
        return "pass"
    if rank == "JOKER":
        return f"FourJokers: {' '.join(cards)}"
    return f"{kind} {rank}: {' '.join(cards)}"


def play_log(
    seed: Any = None,
    *,
    deals: int | None = 1,
    rules: Rules | None = None,
    agents: Sequence[Agent] | None = None,
    viewer: int | None = None,
) -> Iterable[str]:
    """Lines of a readable log of a match played by ``agents`` (one per seat; None:
    uniformly random legal actions).

    Plays ``deals`` deals (None: until the match is won), showing each deal's hands (only
    ``viewer``'s when given: a person playing that seat), the tribute, every play, the
    finishing order and the levels. The match (hands, first leader) and the random
    policy both follow from ``seed``. The lines are made as the game goes on, so an
    agent asking a person sees the log up to its turn.
    """
    if deals is not None:
        bounded(deals, "deals", 1)
    if agents is not None and len(agents) != 4:
        raise ValueError(f"give four agents, one per seat, not {len(agents)}")
    if viewer is not None:
        viewer = check_seat(viewer, "viewer")
    match = Match(seed, rules)
    policy = random.Random(f"guandan_fast play policy {seed!r}")
    yield f"Match, seed {seed!r}: team 0 = seats 0 and 2, team 1 = seats 1 and 3"
    while not match.over and (deals is None or match.deals_played < deals):
        deal = match.deal
        number = match.deals_played + 1
        yield ""
        yield (
            f"Deal {number} at level {level_char(deal.level)} "
            f"(team 0 at {level_char(match.levels[0])}, team 1 at {level_char(match.levels[1])})"
        )
        for seat, hand in enumerate(deal.hands):
            yield f"  seat {seat} ({len(hand)}): {hand if viewer in (None, seat) else '(hidden)'}"
        info = deal.tribute
        if info["kind"] == "anti":
            yield f"  anti-tribute (抗贡): seats {' and '.join(map(str, info['payers']))} hold both big jokers"
        elif info["kind"] == "waived":
            yield f"  no tribute between partners: seat {info['payers'][0]} pays nothing"
        announced_play = False
        last_player: int | None = None
        while True:
            if deal.phase == "play" and not announced_play:
                if info["kind"] in ("single", "double"):
                    info = deal.tribute
                    for payer, receiver, card in info["payments"]:
                        yield f"  tribute: seat {payer} pays {CARD_NAMES[card]} to seat {receiver}"
                    for receiver, payer, card in info["returns"]:
                        yield f"  return: seat {receiver} gives {CARD_NAMES[card]} back to seat {payer}"
                announced_play = True
            if deal.phase == "done":
                break
            seat = deal.current_seat
            leading = deal.phase == "play" and not deal.following
            if leading:
                went_out = last_player is not None and last_player != seat and not deal.hands[last_player]
                note = f" (接风 for seat {last_player}, who went out)" if went_out else ""
                yield f"  -- seat {seat} leads{note}"
            out_before = len(deal.finish_order)
            actions = deal.legal_actions()
            index = policy.randrange(len(actions)) if agents is None else checked_choice(agents[seat], deal, seat)
            action = actions[index]
            match.step(action)
            if action[0] in ("tribute", "back"):
                continue
            yield f"  seat {seat}: {_describe(action)}"
            if action[0] != "PASS":
                last_player = seat
            finish = deal.finish_order
            if len(finish) > out_before and seat in finish:
                yield f"  seat {seat} is out ({_PLACES[finish.index(seat)]})"
        finish = deal.finish_order
        team, up = finish_outcome(finish)
        if finish[1] == finish[0] ^ 2:
            places = f"seat {finish[0]} 1st, seat {finish[1]} 2nd, seats {finish[2]} and {finish[3]} both last (双下)"
        else:
            places = ", ".join(f"seat {s} {_PLACES[i]}" for i, s in enumerate(finish))
        yield f"  finishing order: {places}"
        yield f"  team {team} finished first and goes up {up}"
        yield f"  levels: team 0 at {level_char(match.levels[0])}, team 1 at {level_char(match.levels[1])}"
    yield ""
    if match.over and match.winner is None:
        yield f"A draw: equal levels after {match.deals_played} deals (the deal cap)"
    elif match.over:
        yield f"Team {match.winner} wins the match after {match.deals_played} deals"
    else:
        played = f"{match.deals_played} deal{'' if match.deals_played == 1 else 's'}"
        yield f"Stopped after {played}; next deal at level {level_char(match.deal.level)}"
