"""Type stubs of the native core of :mod:`guandan_fast.engine.notation` (``_notation.pyx``)."""

__all__ = ["read_checked"]

def read_checked(action: object, level: object) -> tuple[int, int, int, int, int] | None:
    """``(kind, key, once, twice, size)`` of a triple in canonical notation whose cards read
    as it says (the native generator's check); None for anything else."""
