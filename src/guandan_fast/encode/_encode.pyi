"""Type stub of the native encoders (see _encode.pyx and docs/encoding.md).

TypeError for a deal that is no Deal, a seat that is no integer or a layout that is no
string; ValueError for a seat outside 0..3, an unknown layout, or deals and seats of
different lengths, or an ``out`` array of the wrong dtype, shape or layout. Nothing
passed in is changed but ``out``.
"""

from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from guandan_fast.engine.deal import Deal

#: Layout name -> (state size, action feature width).
LAYOUTS: Final[dict[str, tuple[int, int]]]
#: Layout name -> {field: (offset, length)}, in state order.
FIELDS: Final[dict[str, dict[str, tuple[int, int]]]]
#: Play-phase actions kept in the full layout's history planes.
HISTORY_LENGTH: Final[int]

def check_layout(layout: str) -> tuple[int, int]: ...
def state(
    deal: Deal, seat: int, layout: str = "danzero", out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]: ...
def states(
    deals: Iterable[Deal],
    seats: int | Sequence[int] | npt.NDArray[np.integer],
    layout: str = "danzero",
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]: ...
def action_features(deal: Deal, layout: str = "danzero") -> npt.NDArray[np.int8]: ...
