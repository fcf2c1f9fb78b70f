"""Reinforcement-learning environments for every kingdoms game (``pip install 'kingdoms[rl]'``).

- :func:`aec_env` / :class:`KingdomsAEC`: a PettingZoo AEC environment (every player an
  agent, action masks in observations and infos).
- :class:`SingleAgentEnv`: a Gymnasium environment where you play one seat against a
  built-in agent (:mod:`kingdoms.agents`) that moves inside the environment.
- :class:`BatchVectorEnv`: a Gymnasium vector environment over :class:`kingdoms.batch.Batch`
  (many games stepped in Rust; "same-step" autoreset, final observations kept).
- :func:`observation_bounds`: the exact value range of every observation entry.
- Gymnasium ids ``kingdoms/BattleLine-v0``, ``kingdoms/Strifull-v0``, ``kingdoms/Arte-v0``,
  ``kingdoms/Zinordia-v0`` (registered on import), and PettingZoo modules
  ``kingdoms.envs.battleline_v0`` (``env()``, ``raw_env()``), ``strifull_v0``, ``arte_v0``,
  ``zinordia_v0``: :mod:`kingdoms.envs.registration`.

The walk-through is ``docs/rl.md``.
"""

from __future__ import annotations

from kingdoms.envs.aec import KingdomsAEC, aec_env
from kingdoms.envs.registration import GYM_IDS, register_gym_ids
from kingdoms.envs.single import SingleAgentEnv
from kingdoms.envs.spaces import observation_bounds
from kingdoms.envs.vector import BatchVectorEnv

__all__ = [
    "GYM_IDS",
    "BatchVectorEnv",
    "KingdomsAEC",
    "SingleAgentEnv",
    "aec_env",
    "observation_bounds",
]

register_gym_ids()
