"""Neural-network encodings of Guandan positions, computed natively (numpy out).

* :func:`state` -- one seat's view of a :class:`~guandan_fast.engine.deal.Deal` as ``float32[D]``;
* :func:`states` -- many positions as ``float32[B, D]``, encoded without the GIL;
* :func:`action_features` -- ``int8[n, F]``, one row per entry of ``deal.legal_actions()``.

Layouts (docs/encoding.md has every field): ``"danzero"`` reproduces DanZero's 513-dim
state and 54-dim action vector exactly, quirks included (compatibility with its trained
networks); ``"full-v1"`` (2467 dims, 83-dim actions) is this package's own, versioned
layout. :data:`LAYOUTS` maps each name to ``(state size, action width)`` and
:data:`FIELDS` each field of a layout to its ``(offset, length)``.
"""

from ._encode import FIELDS, HISTORY_LENGTH, LAYOUTS, action_features, state, states

__all__ = ["FIELDS", "HISTORY_LENGTH", "LAYOUTS", "action_features", "state", "states"]
