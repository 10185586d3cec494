"""Two agents compared by the match equity one deal wins, on deals at the states full matches reach.

    python scripts/match_states.py search:objective=match search --matches 40 --reps 3 --seed 1

Full matches resolve small differences slowly (a match is some ten deals, and its result is
one bit). This plays single deals instead, each at a state a real match reached (the two
teams' levels, the previous deal's result for its tribute and its level's team, the failures
at A): the states come from
``--matches`` full matches of ``--opponent`` against itself; each state is dealt ``--reps``
times, and each deal is played four times — A's team against ``--opponent`` from both
sides, then B's the same way — so that A and B meet the same cards at the same states.
A deal scores what it does to the team's chance of winning the match
(:func:`~guandan_fast.search.match_equity.outcome_equity`, unscaled, for the match the deal
carries). Prints the mean difference A - B per state and deal with its 95% interval, and the
same in level points. ``--rules openguandan``: the matches and deals on the platform's rules
(three failures at A send a team back to 2; at A a team wins only on its own deal).
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from guandan_fast.agents.base import checked_choice
from guandan_fast.arena.matches import build_agent, derive_seed, mean_interval
from guandan_fast.engine.deal import Deal, deal_cards
from guandan_fast.engine.match import Match
from guandan_fast.engine.rules import Rules
from guandan_fast.engine.scoring import team_of
from guandan_fast.search.match_equity import outcome_equity

#: (levels before the deal, the deal's level, the previous deal's finishing order or None,
#: each team's failures at A before the deal)
MatchState = tuple[tuple[int, int], int, "list[int] | None", tuple[int, int]]
RULES = {"default": Rules(), "openguandan": Rules.openguandan()}


def match_states(opponent: str, matches: int, seed: int, rules: Rules | None = None) -> list[MatchState]:
    """The state before every deal of ``matches`` full matches of ``opponent`` against itself."""
    states: list[MatchState] = []
    for index in range(matches):
        match = Match(derive_seed("states", seed, index), rules=rules)
        agents = [build_agent(opponent, derive_seed("states agent", seed, index, seat)) for seat in range(4)]
        while not match.over:
            played, deal, previous = match.deals_played, match.deal, match.deal.previous_finish
            states.append((match.levels, deal.level, None if previous is None else list(previous), deal.failures_at_a))
            while not match.over and match.deals_played == played:
                seat = match.deal.current_seat
                match.step(checked_choice(agents[seat], match.deal, seat))
    return states


def play_state(job: tuple[str, str, str, MatchState, int, str]) -> tuple[list[float], list[int]]:
    """One state dealt once, played by A's and B's team from both sides: equity and points."""
    spec_a, spec_b, opponent, (levels, level, previous, failures), seed, rules = job
    equities, points = [], []
    for spec in (spec_a, spec_b):
        for team in (0, 1):
            deal = Deal.start(  # a first deal's leader (unless the rules fix it) drawn from the seed: the same deal for A and B
                deal_cards(random.Random(seed)), level, previous_finish=previous, team_levels=levels,
                leader=None if previous else RULES[rules].first_leader, seed=None if previous else seed,
                rules=RULES[rules], failures_at_a=failures,
            )
            agents = [
                build_agent(spec if team_of(seat) == team else opponent, derive_seed("agent", seed, team, seat))
                for seat in range(4)
            ]
            while not deal.done:
                seat = deal.current_seat
                deal.step(checked_choice(agents[seat], deal, seat))
            result = deal.result(team)
            assert result is not None
            table = outcome_equity(deal.rules, levels, level, team, deal_team=deal.deal_team, failures=deal.failures_at_a)
            equities.append(float(table[3 + result]))
            points.append(result)
    return equities, points


def interval(values: list[float]) -> str:
    """The mean with its 95% interval, for printing."""
    mean, low, high = mean_interval(values)
    return f"{mean:+.4f} [{low:+.4f}, {high:+.4f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("agent_a")
    parser.add_argument("agent_b")
    parser.add_argument("--opponent", default="minplays")
    parser.add_argument("--matches", type=int, default=40, help="full matches whose states are played")
    parser.add_argument("--reps", type=int, default=1, help="deals per state")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", choices=sorted(RULES), default="default")
    args = parser.parse_args()
    states = match_states(args.opponent, args.matches, args.seed, RULES[args.rules])
    jobs = [
        (args.agent_a, args.agent_b, args.opponent, state, derive_seed("deal", args.seed, k, rep), args.rules)
        for rep in range(args.reps)
        for k, state in enumerate(states)
    ]
    equity, points = [], []
    with ProcessPoolExecutor(args.workers) as pool:
        for eq, pts in pool.map(play_state, jobs, chunksize=1):
            equity.append((eq[0] + eq[1] - eq[2] - eq[3]) / 2)
            points.append((pts[0] + pts[1] - pts[2] - pts[3]) / 2)
    print(f"{args.agent_a} - {args.agent_b} against {args.opponent}: {len(jobs)} deals at {len(states)} match states")
    print(f"  match equity a deal: {interval(equity)}")
    print(f"  level points a deal: {interval(points)}")


if __name__ == "__main__":
    main()
