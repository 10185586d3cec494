"""Type stubs of the native card-string reader (``_cardtext.pyx``)."""

def canonical_planes(text: object) -> tuple[int, int] | None:
    """``(once, twice)`` of canonical card names separated by whitespace or commas; None
    for anything else (the Python reader then reads it or names the fault)."""
