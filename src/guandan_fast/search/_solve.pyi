"""Type stub of the native perfect-information solver (``_solve.pyx``); see :mod:`guandan_fast.search.solve`."""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ..engine.deal import Deal
from ..engine.state import State

#: The objectives by name, and their native codes.
OBJECTIVES: dict[str, int]
#: Why a search stopped early, by native code (None: it did not).
STOPS: dict[int, str | None]
#: The most entries a solve's table grows to.
TABLE_ENTRIES_MAX: int

@disjoint_base
class Solver:
    """A reusable solver owning its table and buffers (one per thread)."""

    @property
    def busy(self) -> bool:
        """Whether a solve is running on it."""

    def solve(
        self, deal: Deal | State, objective: int, max_nodes: int, time_ms: float, table: bool, line: bool
    ) -> tuple[int, int, bool, str | None, int, npt.NDArray[np.int8], npt.NDArray[np.int8], int, list[tuple[int, int, int, int, int]]]:
        """``(lower, upper, exact, stopped, best, lowers, uppers, nodes, line)``."""
