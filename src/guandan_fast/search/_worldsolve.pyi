"""Type stub of the native world solver (``_worldsolve.pyx``): exact values of candidate
actions in sampled worlds, for :mod:`guandan_fast.agents.search`."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ..engine.deal import Deal
from ..engine.state import State

@disjoint_base
class WorldSolver:
    """One solver context reused for every world of every decision (one thread at a time)."""

    def solve_worlds(
        self,
        deal: Deal | State,
        worlds: npt.NDArray[np.uint64],
        rows: Sequence[int] | npt.NDArray[np.int64],
        objective: int,
        max_nodes: int,
        deadline: float,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_], int, int]:
        """``(values, exact, solved, nodes)``: per world and candidate row its exact value
        for the team of the seat to act, whether each world's were all proven, how many
        worlds were attempted before ``deadline`` and the positions searched."""
