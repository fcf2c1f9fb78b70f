"""PettingZoo's module for Zinordia: ``env()`` and ``raw_env()`` (see :mod:`kingdoms.envs.registration`)."""

from kingdoms.envs.registration import pettingzoo_functions

__all__ = ["env", "raw_env"]

env, raw_env = pettingzoo_functions("zinordia")
