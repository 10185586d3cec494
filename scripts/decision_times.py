"""Per-decision wall time of an agent: it plays every seat of seeded deals, one process.

    python scripts/decision_times.py search --deals 10 --seed 1
    python scripts/decision_times.py "search:budget_ms=100" --deals 5

Prints the number of decisions, the mean, median, 99th percentile and slowest time per
decision (every phase: tribute and return too), and, for the search agent, how many
worlds it judged exactly and by rollouts, and, before the endgame and in it, how many
worlds a searched decision judged (the deadline, not ``worlds``, is what stops an early
search) and how often the search left the rules' choice.
Times include the machine's load: run it alone.
"""

from __future__ import annotations

import argparse
import statistics
import time

import guandan_fast as gf
from guandan_fast.agents import SearchAgent, make_agent, parse_agent_spec


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("agent", help="an agent spec, e.g. search or search:budget_ms=100")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    name, options = parse_agent_spec(args.agent)
    agent = make_agent(name, **options)
    times: list[float] = []
    searches: dict[bool, list[tuple[int, int]]] = {False: [], True: []}  # (worlds, left the rules), by "late"
    slowest = (0.0, "")
    for k in range(args.deals):
        deal = gf.Deal.random(seed=args.seed + k)
        while not deal.done:
            seat = deal.current_seat
            where = f"deal seed {args.seed + k}, {deal.phase}, cards left {deal.cards_left()}, {len(deal.legal_actions())} actions"
            before = _worlds_searched(agent)
            late = isinstance(agent, SearchAgent) and agent.in_endgame(deal)
            began = time.perf_counter()
            action = agent.act(deal, seat)
            took = 1000 * (time.perf_counter() - began)
            after = _worlds_searched(agent)
            if after[0] > before[0]:
                searches[late].append((after[1] - before[1], after[2] - before[2]))
            times.append(took)
            slowest = max(slowest, (took, where))
            deal.step(action)
    times.sort()
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(
        f"{args.agent}: {len(times)} decisions in {args.deals} deals (seeds {args.seed}..{args.seed + args.deals - 1}); "
        f"ms per decision: mean {statistics.fmean(times):.2f}, median {statistics.median(times):.2f}, "
        f"p99 {p99:.1f}, max {times[-1]:.1f}"
    )
    print(f"  slowest: {slowest[0]:.1f} ms at {slowest[1]}")
    stats = getattr(agent, "stats", None)
    if stats:
        print("  " + ", ".join(f"{key} {value}" for key, value in stats.items()))
    cap = getattr(agent, "worlds", 0)
    for late, searched in searches.items():
        if searched:
            worlds = [n for n, _ in searched]
            print(
                f"  {len(searched)} searched decisions {'in' if late else 'before'} the endgame: worlds median "
                f"{statistics.median(worlds):g}, all {cap} in {sum(n >= cap for n in worlds) / len(worlds):.0%}; "
                f"left the rules in {sum(left for _, left in searched) / len(searched):.1%}"
            )


def _worlds_searched(agent: object) -> tuple[int, int, int]:
    """The search agent's searched decisions, worlds judged and rules left so far (zeros
    for other agents)."""
    stats = getattr(agent, "stats", {})
    worlds = stats.get("solved_worlds", 0) + stats.get("rollout_worlds", 0)
    return stats.get("searched", 0), worlds, stats.get("left_rules", 0)


if __name__ == "__main__":
    main()
