"""The shapes of the games' rules options and saved states, for type checkers.

``BattleLineOptions``, ``StrifullOptions``, ``ArteOptions``, ``ZinordiaOptions``: the keyword
arguments of ``kingdoms.new_game(name, ...)`` and of each game's class, as ``TypedDict``s
(``**options: Unpack[BattleLineOptions]``), so a misspelt option or a wrong value type is an
error before the code runs. ``BattleLineState`` / ``BattleLineView`` (and likewise for
STRIFULL, Arte da Guerra and Zinordia): what ``to_dict()`` and ``view(player)`` return (their
formats: ``docs/<game>.md``); in a view, what the player may not see is ``None``.

>>> import kingdoms
>>> from kingdoms.types import BattleLineState
>>> state: BattleLineState = kingdoms.battleline.BattleLine(seed=1).to_dict()
>>> len(state["flags"])
9

Tests check every key against the running engine (``tests/test_typing.py``).
"""

from __future__ import annotations

from kingdoms._types import (
    ArteOptions,
    ArtePlayer,
    ArteState,
    ArteView,
    BattleLineFlag,
    BattleLineOptions,
    BattleLineState,
    BattleLineView,
    GreedyOptions,
    IsmctsOptions,
    StrifullOptions,
    StrifullSide,
    StrifullState,
    StrifullView,
    ZinordiaEffect,
    ZinordiaOptions,
    ZinordiaStar,
    ZinordiaState,
    ZinordiaView,
)

__all__ = [
    "ArteOptions",
    "ArtePlayer",
    "ArteState",
    "ArteView",
    "BattleLineFlag",
    "BattleLineOptions",
    "BattleLineState",
    "BattleLineView",
    "GreedyOptions",
    "IsmctsOptions",
    "StrifullOptions",
    "StrifullSide",
    "StrifullState",
    "StrifullView",
    "ZinordiaEffect",
    "ZinordiaOptions",
    "ZinordiaStar",
    "ZinordiaState",
    "ZinordiaView",
]
