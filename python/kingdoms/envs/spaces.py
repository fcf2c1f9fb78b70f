"""Exact observation and action spaces of every game.

:func:`observation_bounds` gives, for each entry of a game's observation tensor, the least
and greatest value it can take under that game's rules options (and card set). Each game
computes them in Rust beside its observation (``Game.observation_bounds()``; its module's
``observation_bounds(**options)`` does the same from options alone); the layouts and the same
bounds are in ``docs/<game>.md`` ("Observation"). ``tests/test_envs.py`` and the Rust
conformance suite check that random games stay inside them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import Game

__all__ = ["observation_bounds"]

Bounds = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


def observation_bounds(game: Game) -> Bounds:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry,
    for ``game``'s rules options and card set (they do not change during a game)."""
    if not isinstance(game, Game):
        raise TypeError(
            f"no observation bounds are known for {str(getattr(game, 'name', game))[:40]!r}: "
            "not a kingdoms game"
        )
    return game.observation_bounds()
