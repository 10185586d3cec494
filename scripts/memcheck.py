"""Run the native generators under valgrind's memcheck and fail on an invalid access.

A kernel that writes a row past the room it made may still land inside its buffer (the
list entry points use buffers on the C stack; the heap ones grow by doubling), where no
tool sees it. This builds the generator of the working tree with ``GF_TIGHT_BUFFERS``
(buffers on the heap, grown to exactly the room asked for: a row too far is past the end
of a heap block) and drives every generator through it under memcheck — leading,
following (a move of every kind to beat) and strongest lists of seeded dealt hands, the
readings of their moves, and batches — then, in the installed package, the playouts
(every policy, the min-plays solver included), the encoders (states of every layout, one
at a time and batched, action features, action ids, masks and canonical indices), the
world sampler (hands and worlds of every seat) and the perfect-information solver (with
and without its table, under node limits that stop it at every depth, both objectives,
its principal lines, and a table grown past its first size):

    python scripts/memcheck.py

Needs valgrind, Cython and a C compiler. Reports inside the dynamic loader (valgrind's
known false alarms) are not counted; any other invalid read or write, or use of
uninitialised memory, in the package's modules fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_kernels import build

_DRIVE = """
import random, sys
import numpy as np
sys.path.insert(0, sys.argv[1])
import _kernel_0 as tight
from guandan_fast import Deal

sys.path.insert(0, sys.argv[3])
import workload as bench  # the benchmark workload of this checkout
from guandan_fast.search import infoset
workload = bench.make_workload(int(sys.argv[2]), 11)
lasts = [(int(last.kind), last.key, len(last.cards)) for last in workload.lasts]
for hand, level in zip(workload.hands, workload.levels):
    for strongest in (False, True):
        moves = tight.generate(hand.once, hand.twice, level, 0, 0, 0, strongest)
        for kind, key, size in lasts[:12]:
            tight.generate(hand.once, hand.twice, level, kind, key, size, strongest)
    cards = moves.cards
    for i in range(0, len(moves), 97):
        tight.classify(int(cards[i, 0]), int(cards[i, 1]), level)
hands = np.array([(hand.once, hand.twice) for hand in workload.hands], dtype=np.uint64)
tight.generate_batch(hands, 5, 0, 0, 0, False)
rng = random.Random(7)
for number in range(12):  # playouts some way into a deal, every policy
    deal = Deal.random(seed=number)
    for _ in range(rng.randrange(40)):
        if deal.done:
            break
        deal.step(rng.randrange(len(deal.legal_actions())))
    if not deal.done:
        planes = infoset.sample_hands(deal, deal.to_act, 4, seed=number)
        actions = list(range(min(3, len(deal.legal_actions()))))
        for policy in ("random", "greedy", "minplays"):
            deal.world_playouts(planes, actions, 1, seed=number, policy=policy)

import guandan_fast as gf
from guandan_fast import encode
from guandan_fast.encode import actions as action_space
positions = []
for number in range(8):  # positions along seeded deals played by the MinPlays rules
    deal = Deal.random(seed=number)
    _, played = deal.playout(number, record=True, policy="minplays")
    for k, (_, action) in enumerate(played):
        if k % 9 == 0 or max(deal.cards_left()) <= 6:
            positions.append(deal.clone())
        if max(deal.cards_left()) <= 5:
            break
        deal.step(action)
for layout in encode.LAYOUTS:  # the encoders
    for deal in positions[::3]:
        for seat in range(4):
            encode.state(deal, seat, layout)
        encode.action_features(deal, layout)
    encode.states(positions[::3], [deal.current_seat for deal in positions[::3]], layout)
for deal in positions[::2]:
    action_space.ids_and_mask(deal)
    action_space.canonical_indices(deal)
for deal in positions[::4]:  # the world sampler
    for seat in range(4):
        infoset.sample_hands(deal, seat, 3, seed=seat)
    deal.sample_worlds(deal.current_seat, 2, seed=1)
endgames = [deal for deal in positions if max(deal.cards_left()) <= 6 and not deal.done]
for deal in endgames:  # the solver
    for objective in ("points", "first"):
        for limit in (1, 5, 40, 300, 200_000):
            gf.solve(deal, objective, max_nodes=limit)
        gf.solve(deal, objective, table=False, max_nodes=3_000)
gf.solve(positions[0], max_nodes=60_000)  # grows the table in place and into new memory
print("driven", len(endgames))
"""

_REPORT = re.compile(
    r"^==\d+== (Invalid (?:read|write) of size \d+|Conditional jump or move depends on uninitialised value|Use of uninitialised value)"
)


def main() -> int:
    hands = sys.argv[1] if len(sys.argv) > 1 else "120"
    with tempfile.TemporaryDirectory() as tmp:
        build(["worktree"], Path(tmp), [("GF_TIGHT_BUFFERS", "1")])
        done = subprocess.run(
            ["valgrind", "--error-limit=no", "--num-callers=8", sys.executable, "-c", _DRIVE, tmp, hands, str(Path(__file__).resolve().parent.parent / "benchmarks")],
            capture_output=True,
            text=True,
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
            check=False,
        )
    if "driven" not in done.stdout:
        print(done.stderr[-4000:])
        print("memcheck: the drive did not finish")
        return 1
    lines = done.stderr.splitlines()
    found = [
        "\n".join(lines[i : i + 8])
        for i, line in enumerate(lines)
        if _REPORT.match(line) and ("guandan_fast" in "".join(lines[i : i + 8]) or "_kernel_" in "".join(lines[i : i + 8]))
    ]
    for frames in found:
        print(frames, end="\n\n")
    print(f"memcheck: {len(found)} invalid accesses in the native modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
