"""Standard environments over the fixed action space (:mod:`guandan_fast.encode.actions`):
a PettingZoo AEC environment of the four seats (:func:`pettingzoo_env`, also as
PettingZoo's :mod:`guandan_fast.envs.guandan_v0` module) and a single-agent Gymnasium
environment (:func:`gymnasium_env`, :class:`GuandanGymEnv`).

Importing this package registers the Gymnasium ids :data:`GYMNASIUM_IDS` when Gymnasium
is installed: ``gymnasium.make("guandan_fast/Guandan-v0")`` (one deal) and
``gymnasium.make("guandan_fast/GuandanMatch-v0")`` (a whole match), keyword arguments
as for :class:`GuandanGymEnv`.

PettingZoo and Gymnasium are an optional extra (``pip install 'guandan_fast[envs]'``);
the environments' modules are imported only when an environment is made, so this
package imports without them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..engine.rules import Rules

if TYPE_CHECKING:
    from .gymnasium import GuandanGymEnv
    from .pettingzoo import GuandanAECEnv

__all__ = ["GYMNASIUM_IDS", "GuandanAECEnv", "GuandanGymEnv", "gymnasium_env", "pettingzoo_env"]

#: The registered Gymnasium ids and the ``mode`` each makes.
GYMNASIUM_IDS: Final = {"guandan_fast/Guandan-v0": "deal", "guandan_fast/GuandanMatch-v0": "match"}


def pettingzoo_env(
    mode: str = "deal",
    *,
    render_mode: str | None = None,
    level: int | str = 2,
    rules: Rules | None = None,
    observation: str = "full-v1",
    max_deals: int | None = None,
) -> GuandanAECEnv:
    """A :class:`~guandan_fast.envs.pettingzoo.GuandanAECEnv` (unwrapped): ``mode``
    ``"deal"`` or ``"match"``, and its options."""
    from .pettingzoo import GuandanAECEnv

    return GuandanAECEnv(
        mode, render_mode=render_mode, level=level, rules=rules, observation=observation, max_deals=max_deals
    )


def gymnasium_env(
    seat: int = 0,
    opponents: Any = None,
    mode: str = "deal",
    *,
    render_mode: str | None = None,
    on_illegal: str = "end",
    level: int | str = 2,
    rules: Rules | None = None,
    observation: str = "full-v1",
    max_deals: int | None = None,
) -> GuandanGymEnv:
    """A :class:`~guandan_fast.envs.gymnasium.GuandanGymEnv` for the learner at ``seat``."""
    from .gymnasium import GuandanGymEnv

    return GuandanGymEnv(
        seat, opponents, mode, render_mode=render_mode, on_illegal=on_illegal,
        level=level, rules=rules, observation=observation, max_deals=max_deals,
    )


def __getattr__(name: str) -> Any:
    """The environment classes, imported (with their optional dependencies) on first use."""
    if name == "GuandanAECEnv":
        from .pettingzoo import GuandanAECEnv

        return GuandanAECEnv
    if name == "GuandanGymEnv":
        from .gymnasium import GuandanGymEnv

        return GuandanGymEnv
    raise AttributeError(f"module 'guandan_fast.envs' has no attribute {name!r}")


def _register_gymnasium_ids() -> None:
    """Register :data:`GYMNASIUM_IDS` (entry points by name: nothing heavy is imported
    until ``gymnasium.make``); a no-op without Gymnasium or when already registered."""
    try:
        import gymnasium
    except ImportError:
        return
    for env_id, mode in GYMNASIUM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="guandan_fast.envs.gymnasium:GuandanGymEnv", kwargs={"mode": mode})


_register_gymnasium_ids()
