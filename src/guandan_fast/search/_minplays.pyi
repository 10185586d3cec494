"""Type stubs of the native min-plays solver (``_minplays.pyx``); see :mod:`guandan_fast.search.minplays`."""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

#: The mode flag of ``MinPlays.solve``'s prefer code: every bomb kept whole.
WHOLE: int

@disjoint_base
class MinPlays:
    """A reusable solver owning its memo table (one per thread)."""

    @property
    def nodes(self) -> int:
        """Search nodes of the last :meth:`solve`."""

    @property
    def penalties(self) -> tuple[int, int]:
        """``(major, minor)`` tie-break penalties of the last :meth:`solve`'s decomposition
        (a ``ValueError`` when that solve failed or there was none)."""

    def solve(
        self, once: int, twice: int, level: int, prefer: int
    ) -> tuple[int, npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint64]]:
        """``(count, kinds, keys, cards)``: the fewest plays and one optimal decomposition."""
