"""Is a change to an agent an improvement? :func:`compare_agents` answers on the same deals.

Two agents — a candidate and a baseline, typically the same agent with one option changed —
each play the same opponent on the same seed: every match pair of the candidate's run is
dealt the same cards as the baseline's (:mod:`.matches`), and the opponent's agents get the
same seeds. The difference of the two pair scores, pair by pair, cancels the luck of the
cards that two separate runs would each carry, so its interval is several times narrower
than the difference of two win rates (each ±0.06 at 200 matches). Its 95% interval is a
normal one on those per-pair differences.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from ..engine.rules import Rules
from .matches import Z95, AgentSpec, ArenaResult, RunOptions, play_arenas


@dataclass
class Comparison:
    """The candidate's and the baseline's runs against one opponent on the same deals."""

    candidate: ArenaResult
    baseline: ArenaResult

    @property
    def interrupted(self) -> bool:
        return self.candidate.interrupted or self.baseline.interrupted

    def differences(self) -> list[float]:
        """The candidate's pair score minus the baseline's, for every pair both completed."""
        baseline = {a.index: (a.score + b.score) / 2 for a, b in self.baseline.pairs}
        return [
            (a.score + b.score) / 2 - baseline[a.index] for a, b in self.candidate.pairs if a.index in baseline
        ]

    def summary(self) -> dict[str, Any]:
        """The mean difference per match pair with its 95% interval (NaN with fewer than two
        pairs), the pairs compared, and both runs' own summaries."""
        differences = self.differences()
        n = len(differences)
        mean = statistics.fmean(differences) if differences else math.nan
        half = Z95 * statistics.stdev(differences) / math.sqrt(n) if n > 1 else math.nan
        return {
            "candidate": self.candidate.agent_a,
            "baseline": self.baseline.agent_a,
            "opponent": self.candidate.agent_b,
            "seed": self.candidate.seed,
            "pairs": n,
            "interrupted": self.interrupted,
            "difference": mean,
            "difference_ci95": (mean - half, mean + half),
            "candidate_summary": self.candidate.summary(),
            "baseline_summary": self.baseline.summary(),
        }

    def format(self) -> str:
        s = self.summary()
        low, high = s["difference_ci95"]
        candidate, baseline = s["candidate_summary"], s["baseline_summary"]
        return "\n".join(
            [
                f"{s['candidate']} against {s['baseline']}, each playing {s['opponent']} on the same deals, "
                f"seed {s['seed']}: {s['pairs']} match pairs" + (" — interrupted" if s["interrupted"] else ""),
                f"  win rate: candidate {candidate['win_rate']:.3f}, baseline {baseline['win_rate']:.3f}",
                f"  difference per match pair: {s['difference']:+.3f}  95% CI [{low:+.3f}, {high:+.3f}]",
                (
                    f"  ms per decision: candidate {candidate['ms_per_decision'][0]:.3f}, "
                    f"baseline {baseline['ms_per_decision'][0]:.3f}"
                ),
            ]
        )


def compare_agents(
    candidate: AgentSpec,
    baseline: AgentSpec,
    opponent: AgentSpec,
    matches: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    rules: Rules | None = None,
    progress: bool = False,
) -> Comparison:
    """``matches`` matches of ``candidate`` and as many of ``baseline`` against ``opponent``,
    on the same deals (one run, the two interleaved: they share the machine's load); see
    the module docstring. The keyword arguments are :func:`~.matches.play_matches`'s."""
    options = RunOptions(workers=workers, ray_address=ray_address, rules=rules, progress=progress)
    ran, base = play_arenas([(candidate, opponent), (baseline, opponent)], matches, seed, options)
    return Comparison(ran, base)
