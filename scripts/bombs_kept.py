"""How often the plain min-plays count breaks a bomb: of dealt hands holding a rank of four
or more natural cards (the wildcards apart), those whose optimal decomposition with the
most bombs (``min_plays(..., prefer="bombs")``) keeps fewer such ranks whole, as one bomb,
than the hand holds — the reason the tactics decompose with ``whole=True``.

    python scripts/bombs_kept.py --hands 4000 --seed 777

The hands are the speed workload's (``benchmarks/workload.py``: whole shuffled deals, each
at a random level), so a source checkout is needed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from guandan_fast import Hand, min_plays
from guandan_fast.engine.cards import wildcard
from guandan_fast.engine.moves import MoveType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from workload import deal_hands  # (a source checkout's benchmark module)


def whole_ranks(hand: Hand, level: int) -> list[np.ndarray]:
    """The natural cards (a card-count row) of each rank the hand holds four or more of."""
    counts = hand.counts().astype(np.int64)
    counts[wildcard(level)] = 0
    ranks = []
    for rank in range(13):
        natural = np.zeros_like(counts)
        natural[4 * rank : 4 * rank + 4] = counts[4 * rank : 4 * rank + 4]
        if natural.sum() >= 4:
            ranks.append(natural)
    return ranks


def kept_whole(hand: Hand, level: int, ranks: list[np.ndarray]) -> int:
    """How many of ``ranks`` one bomb of the plain decomposition holds entirely."""
    bombs = [
        p.cards.counts().astype(np.int64) for p in min_plays(hand, level, prefer="bombs")[1] if p.kind == MoveType.BOMB
    ]
    return sum(any(np.all(bomb >= natural) for bomb in bombs) for natural in ranks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    hands, levels = deal_hands(args.hands, args.seed)
    holding = broken = 0
    for hand, level in zip(hands, levels):
        ranks = whole_ranks(hand, level)
        if ranks:
            holding += 1
            broken += kept_whole(hand, level, ranks) < len(ranks)
    print(f"{len(hands)} dealt hands (seed {args.seed}): {holding} hold a rank of four or more natural cards;")
    print(f"the plain count's decomposition breaks one in {broken} of them ({broken / max(holding, 1):.0%})")


if __name__ == "__main__":
    main()
