"""Strained Kingdoms: STRIFULL.

>>> from kingdoms.strifull import Strifull
>>> g = Strifull(seed=1)                       # Inquisição vs Iniciativa dos Magos
>>> g.apply("pass")                            # player 0 keeps the dealt field
>>> g.apply("element fire"); g.apply("leader 2")

Rules with ids: ``docs/rules/strifull.md``; state, notation and observation layout:
``docs/strifull.md``; the reference cards and the TOML format for entering your own:
``docs/strifull-cards.md``.

Options (keyword arguments of :class:`Strifull`):

- ``factions`` — faction id of each player; ``None`` (default): the card set's first
  faction for player 0 and its second for player 1 (Inquisição, Iniciativa dos Magos);
- ``leaders`` — leader id of each player, ``None`` for the faction's first leader;
- ``decks`` — each player's deck: ``"recommended"``, ``"random"``, a list of 30 troop ids or
  a ``{troop_id: copies}`` dict;
- ``cards_file`` / ``cards_toml`` — a card set to use instead of the reference set;
- rules options ``tie_is_defeat``, ``dead_cells_open_flanks``, ``moves_in_leader_row_only``,
  ``mutual_wipeout`` (``"draw"`` or ``"attacker_wins"``).
"""

from __future__ import annotations

import os
from typing import Any

from kingdoms._kingdoms import Strifull, strifull_card_set, strifull_reference_files
from kingdoms._svg.strifull import draw as DRAW
from kingdoms._types import StrifullOptions as Options

#: The elemental stones; each beats the next: fire > wind > earth > water > fire.
ELEMENTS: tuple[str, ...] = ("fire", "water", "wind", "earth")


def card_set(
    cards_file: str | os.PathLike[str] | None = None, cards_toml: str | None = None
) -> dict[str, Any]:
    """Load and validate a card set and return it as a dict.

    ``cards_file`` is a TOML file or a directory of ``.toml`` files, ``cards_toml`` TOML
    text; with neither, the reference set. Raises :class:`kingdoms.DataError` naming file,
    card and field when the data is invalid.
    """
    path = None if cards_file is None else os.fspath(cards_file)
    return strifull_card_set(path, cards_toml)


def reference_files() -> dict[str, str]:
    """The reference card set's TOML files by name: a template for entering your own cards."""
    return strifull_reference_files()


# ---- the game's Python side (``kingdoms._games``) ----------------------------------------

#: The modes ``kingdoms bench strifull`` measures without ``--option``: label -> rules options.
BENCH_MODES: dict[str, dict[str, Any]] = {"": {}}


def observation_bounds(**options: Any) -> tuple[Any, Any]:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry under
    these rules options (computed in Rust beside the observation, as
    ``Strifull(**options).observation_bounds()``)."""
    return Strifull(seed=0, **options).observation_bounds()


__all__ = [
    "BENCH_MODES",
    "DRAW",
    "ELEMENTS",
    "Options",
    "Strifull",
    "card_set",
    "observation_bounds",
    "reference_files",
]
