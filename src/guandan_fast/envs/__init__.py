"""Standard environments over the fixed action space (:mod:`guandan_fast.encode.actions`):
a PettingZoo AEC environment of the four seats (:func:`pettingzoo_env`) and a
single-agent Gymnasium environment (:func:`gymnasium_env`, :class:`GuandanGymEnv`).

PettingZoo and Gymnasium are an optional extra (``pip install 'guandan_fast[envs]'``);
they are imported only when an environment is made, so this package imports without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GuandanAECEnv", "GuandanGymEnv", "gymnasium_env", "pettingzoo_env"]


def pettingzoo_env(mode: str = "deal", **options: Any) -> Any:
    """A :class:`~guandan_fast.envs.pettingzoo.GuandanAECEnv`: ``mode`` ``"deal"`` or
    ``"match"``; ``options``: ``level``, ``rules``, ``observation``, ``max_deals``, ``render_mode``."""
    from .pettingzoo import GuandanAECEnv

    return GuandanAECEnv(mode, **options)


def gymnasium_env(seat: int = 0, opponents: Any = None, mode: str = "deal", **options: Any) -> Any:
    """A :class:`~guandan_fast.envs.gymnasium.GuandanGymEnv` for the learner at ``seat``."""
    from .gymnasium import GuandanGymEnv

    return GuandanGymEnv(seat, opponents, mode, **options)


def __getattr__(name: str) -> Any:
    """The environment classes, imported (with their optional dependencies) on first use."""
    if name == "GuandanAECEnv":
        from .pettingzoo import GuandanAECEnv

        return GuandanAECEnv
    if name == "GuandanGymEnv":
        from .gymnasium import GuandanGymEnv

        return GuandanGymEnv
    raise AttributeError(f"module 'guandan_fast.envs' has no attribute {name!r}")
