"""Each game's Python side, found from the registry: for every name in ``kingdoms.games()``
(the Rust registry's list, ``for_each_game!``), the module ``kingdoms.<name>`` gives

- ``DRAW``: its picture, ``DRAW(state, player, action, highlight) -> svg``;
- ``Options``: the ``TypedDict`` of its rules options (the keywords of its class and of
  ``kingdoms.new_game(name, ...)``);
- ``observation_bounds(**options)``: ``(low, high)``, the bounds of its observation under
  those options, computed in Rust beside the observation (``Game.observation_bounds()``);
- ``BENCH_MODES``: the modes ``kingdoms bench`` measures, label -> rules options, the default
  first.

The pictures, the environments' spaces, ``kingdoms bench`` and the CLI look these up here, so
a new game keeps its Python side in its own module (``tests/test_game_modules.py`` checks
that every registered game has all of them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from kingdoms._kingdoms import ArgumentError, games

__all__ = ["Draw", "bench_modes", "drawer", "game_module"]

#: A game's picture: ``draw(state, player, action, highlight) -> svg``.
Draw = Callable[[dict[str, Any], int | None, dict[str, Any] | None, list[Any]], str]


def game_module(name: str) -> ModuleType:
    """The module ``kingdoms.<name>`` of the registered game ``name``."""
    names = games()
    if name not in names:
        raise ArgumentError(f"{name[:40]!r} is an unknown game; the games are {', '.join(names)}")
    return importlib.import_module(f"kingdoms.{name}")


def drawer(name: str) -> Draw | None:
    """The picture of game ``name`` (``None``: it has none yet)."""
    draw: Draw | None = getattr(game_module(name), "DRAW", None)
    return draw


def bench_modes(name: str) -> dict[str, dict[str, Any]]:
    """The modes of game ``name`` that ``kingdoms bench`` measures: label -> rules options."""
    modes: dict[str, dict[str, Any]] = getattr(game_module(name), "BENCH_MODES", {"": {}})
    return modes
