"""Type stub of the native playout policies (see _policies.pyx)."""

from typing import Any

#: The policies by name: their codes.
POLICIES: dict[str, int]

class Chooser:
    """The choice of a deterministic policy ("greedy" or "minplays") for a deal's seat to act."""

    def __init__(self, policy: str) -> None: ...
    def choose(self, deal: Any) -> int: ...
