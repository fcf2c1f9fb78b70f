"""Gymnasium ids and PettingZoo modules for every game.

Importing :mod:`kingdoms.envs` registers one Gymnasium id per two-player game and mode,
``kingdoms/<Name>-v0`` (:data:`GYM_IDS`): ``gymnasium.make`` builds a
:class:`~kingdoms.envs.SingleAgentEnv` (keyword arguments: its ``opponent``, ``seat``,
``illegal_action``, ``render_mode`` and rules options), ``gymnasium.make_vec`` with
``vectorization_mode="vector_entry_point"`` a :class:`~kingdoms.envs.BatchVectorEnv`.
Without importing kingdoms first: ``gymnasium.make("kingdoms.envs:kingdoms/BattleLine-v0")``
(Gymnasium 1.x loads no plugins by entry point). Games of more than two players (Zinordia's
free-for-all and teams) are multi-agent: their environment is PettingZoo's.

PettingZoo's modules, one per game, as in ``pettingzoo.classic``:
``kingdoms.envs.battleline_v0.env()`` (the AEC environment with PettingZoo's checks),
``raw_env()`` (without them); rules options are keyword arguments
(``kingdoms.envs.zinordia_v0.env(mode="teams")``). There is no ``parallel_env``: a player
may decide several times in a row, so the games are not parallelisable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium

from kingdoms.envs.aec import KingdomsAEC, aec_env

__all__ = ["GYM_IDS", "pettingzoo_functions", "register_gym_ids"]

#: The Gymnasium ids: id -> (game, rules options).
GYM_IDS: dict[str, tuple[str, dict[str, Any]]] = {
    "kingdoms/BattleLine-v0": ("battleline", {}),
    "kingdoms/Strifull-v0": ("strifull", {}),
    "kingdoms/Arte-v0": ("arte", {}),
    "kingdoms/Zinordia-v0": ("zinordia", {"mode": "duel"}),
}


def register_gym_ids() -> None:
    """Register :data:`GYM_IDS` with Gymnasium (done on importing :mod:`kingdoms.envs`)."""
    for env_id, (game, options) in GYM_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point="kingdoms.envs.single:SingleAgentEnv",
            vector_entry_point="kingdoms.envs.vector:BatchVectorEnv",
            kwargs={"game": game, **options},
        )


def pettingzoo_functions(
    game: str,
) -> tuple[Callable[..., KingdomsAEC], Callable[..., KingdomsAEC]]:
    """``(env, raw_env)`` of a PettingZoo module for ``game``."""

    def env(render_mode: str | None = None, **options: Any) -> KingdomsAEC:
        """The AEC environment, wrapped in PettingZoo's usual checks."""
        return aec_env(game, render_mode=render_mode, **options)

    def raw_env(render_mode: str | None = None, **options: Any) -> KingdomsAEC:
        """The AEC environment, unwrapped."""
        return KingdomsAEC(game, render_mode=render_mode, **options)

    return env, raw_env
