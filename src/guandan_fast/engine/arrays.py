"""The one check of the integer arrays native entry points take (hand planes, move rows,
row indices): numpy converts floats, bools and out-of-range integers silently or with an
OverflowError, where a caller should get a TypeError or ValueError that names the argument."""

from __future__ import annotations

from typing import Any

import numpy as np

from .cards import is_integer


def integer_array(value: object, dtype: type[np.integer[Any]], what: str) -> np.ndarray:
    """``value`` as a C-contiguous array of the integer ``dtype``: TypeError naming ``what``
    unless it holds integers (bools and floats are not), ValueError for ragged nesting or an
    integer outside ``dtype``'s range. An array of ``dtype`` already is taken as it is; an
    integer array is range-checked; anything else is read item by item, as given (numpy
    would turn ``[2**63, -1]`` into floats)."""
    info = np.iinfo(dtype)
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu":
        if value.dtype != dtype and value.size and (value.min() < info.min or value.max() > info.max):
            raise ValueError(f"{what} holds integers outside {info.min}..{info.max}")
        return np.ascontiguousarray(value, dtype=dtype)
    if isinstance(value, np.ndarray) and value.dtype != object:
        raise TypeError(f"{what} must be an array of integers, not of {value.dtype}")
    try:
        array = np.asarray(value, dtype=object)
    except ValueError as error:  # ragged nesting
        raise ValueError(f"{what} must be an array of integers ({error})") from None
    items = array.ravel().tolist()
    for item in items:
        if not is_integer(item):
            raise TypeError(f"{what} must be an array of integers, not of {type(item).__name__}")
    if items and (min(items) < info.min or max(items) > info.max):
        raise ValueError(f"{what} holds integers outside {info.min}..{info.max}")
    return np.array(items, dtype=dtype).reshape(array.shape)
