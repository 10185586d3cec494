"""Type stub of the native playout policies (see _policies.pyx)."""

from typing import NoReturn

from typing_extensions import Self, disjoint_base

from ..engine.deal import Deal

#: The policies by name: their codes.
POLICIES: dict[str, int]

@disjoint_base
class Chooser:
    """The choice of a deterministic policy ("greedy", "minplays" or "tactics") for a deal's seat to act."""

    def __new__(cls, policy: str) -> Self: ...
    def __reduce__(self) -> NoReturn:
        """TypeError: a Chooser is not pickled."""
    def choose(self, deal: Deal) -> int:
        """The index into ``deal.legal_actions()`` of the policy's action (0 is the pass
        when following)."""
