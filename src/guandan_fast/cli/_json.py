"""JSON documents on stdout: strict JSON, which has no NaN."""

from __future__ import annotations

import json
import math
from typing import Any


def strict(value: Any) -> Any:
    """``value`` with every NaN or infinite float (an interval of fewer than two pairs) as
    None, through dicts, lists and tuples: ``json.dumps`` would write the non-JSON ``NaN``."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: strict(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(item) for item in value]
    return value


def dumps(document: Any) -> str:
    """One strict JSON document (non-finite numbers as null)."""
    return json.dumps(strict(document), allow_nan=False)
