"""Agents against agents, and self-play data, on local processes or a Ray cluster.

* :func:`play_matches`: seat-swapped matches between two agents, A's win rate with a 95%
  confidence interval and level points per deal (:mod:`.matches`);
* :func:`compare_agents`: a candidate agent against a baseline, each playing one opponent on
  the same deals, the difference per match pair with its interval (:mod:`.compare`);
* :func:`generate_selfplay`: sharded ``.npz`` decisions for learners, read back by
  :func:`read_selfplay` / :func:`read_shard` (:mod:`.selfplay`);
* :mod:`.runner`: the one place that farms tasks out to processes or Ray.
"""

from .compare import Comparison, compare_agents
from .matches import ArenaResult, MatchResult, play_matches
from .runner import connect_ray
from .selfplay import SelfPlayShard, generate_selfplay, read_selfplay, read_shard

__all__ = [
    "ArenaResult",
    "Comparison",
    "MatchResult",
    "SelfPlayShard",
    "compare_agents",
    "connect_ray",
    "generate_selfplay",
    "play_matches",
    "read_selfplay",
    "read_shard",
]
