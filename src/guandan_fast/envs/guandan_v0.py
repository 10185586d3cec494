"""PettingZoo's module convention: ``from guandan_fast.envs import guandan_v0`` then
``guandan_v0.env()`` (wrapped in ``OrderEnforcingWrapper``) or ``guandan_v0.raw_env()``
(the :class:`~guandan_fast.envs.pettingzoo.GuandanAECEnv` itself). Needs
``pip install 'guandan_fast[envs]'``."""

from .pettingzoo import GuandanAECEnv, env, raw_env

__all__ = ["GuandanAECEnv", "env", "raw_env"]
