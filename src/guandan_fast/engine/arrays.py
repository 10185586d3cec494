"""The one check of the integer arrays native entry points take (hand planes, move rows,
row indices): numpy converts floats, bools and out-of-range integers silently or with an
OverflowError, where a caller should get a TypeError or ValueError that names the argument."""

from __future__ import annotations

from typing import Any

import numpy as np


def integer_array(value: object, dtype: type[np.integer[Any]], what: str) -> np.ndarray:
    """``value`` as a C-contiguous array of the integer ``dtype``: TypeError naming ``what``
    unless it holds integers (bools and floats are not), ValueError for ragged nesting or an
    integer outside ``dtype``'s range. An array of ``dtype`` already is taken as it is."""
    if isinstance(value, np.ndarray) and value.dtype == dtype:
        return np.ascontiguousarray(value)
    try:
        array = np.asarray(value)
    except (ValueError, OverflowError) as error:
        raise ValueError(f"{what} must be an array of integers ({error})") from None
    info = np.iinfo(dtype)
    if array.size == 0:
        return np.ascontiguousarray(array, dtype=dtype)
    if array.dtype == object and all(type(item) is int for item in array.flat):  # beyond 64 bits
        raise ValueError(f"{what} holds integers outside {info.min}..{info.max}")
    if array.dtype.kind not in "iu":
        raise TypeError(f"{what} must be an array of integers, not of {array.dtype}")
    if array.min() < info.min or array.max() > info.max:
        raise ValueError(f"{what} holds integers outside {info.min}..{info.max}")
    return np.ascontiguousarray(array, dtype=dtype)
