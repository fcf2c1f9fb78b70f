"""Arte da Guerra: draft terrain and unit cards, build a field of three terrain rows, and fight
three rounds of deployment and combat.

>>> from kingdoms.arte import Arte
>>> g = Arte(seed=1)                      # the reference card set
>>> g.apply(g.legal_actions()[0])         # the first picker hides a drawn card
>>> g.current_player
1

Rules (with rule ids ``AG-x.y``): ``docs/rules/arte-da-guerra.md``. State dict, notation,
action ids, observation layout and the card data format: ``docs/arte.md``.

Rules options (keyword arguments of :class:`Arte` and ``kingdoms.new_game("arte", ...)``):

``cards_file``
    path of a TOML card set to play with instead of the reference set;
``cards_toml``
    the same given as text;
``deployment``
    ``"simultaneous"`` (default: secret, revealed together) or ``"alternating"``
    (one card at a time, face up);
``ranged_scoring``
    ``"ranged_defender"`` (default: only archers and mages count when a card holding one
    defends a purely ranged attack) or ``"exception"`` (only when that card is protected);
``sudden_death_row``
    ``"chosen"`` (default: each picks a row with its card) or ``"front"`` (row 1).
"""

from __future__ import annotations

import os
from typing import Any, Literal

from kingdoms._kingdoms import Arte
from kingdoms._svg.arte import draw as DRAW
from kingdoms._types import ArteOptions as Options

# ---- the game's Python side (``kingdoms._games``) ----------------------------------------

#: The modes ``kingdoms bench arte`` measures without ``--option``: label -> rules options.
BENCH_MODES: dict[str, dict[str, Any]] = {"": {}}


def observation_bounds(**options: Any) -> tuple[Any, Any]:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry under
    these rules options (computed in Rust beside the observation, as
    ``Arte(**options).observation_bounds()``)."""
    return Arte(seed=0, **options).observation_bounds()


__all__ = [
    "BENCH_MODES",
    "DRAW",
    "UNIT_TYPES",
    "Arte",
    "Deployment",
    "Options",
    "RangedScoring",
    "SuddenDeathRow",
    "card_set",
    "observation_bounds",
    "reference_files",
]

Deployment = Literal["simultaneous", "alternating"]
RangedScoring = Literal["exception", "ranged_defender"]
SuddenDeathRow = Literal["chosen", "front"]

#: The unit types, in the order used by card data, observations and renders (C G A M).
UNIT_TYPES: tuple[str, ...] = ("cavaleiro", "guerreiro", "arqueiro", "mago")


def card_set(
    cards_file: str | os.PathLike[str] | None = None, cards_toml: str | None = None
) -> dict[str, Any]:
    """Load and validate a card set and return it as a dict (as ``kingdoms.strifull.card_set``).

    ``cards_file`` is a TOML file, ``cards_toml`` TOML text; with neither, the reference set.
    Raises :class:`kingdoms.DataError` naming file, card and field when the data is invalid.
    """
    path = None if cards_file is None else os.fspath(cards_file)
    return Arte.card_set(path, cards_toml)


def reference_files() -> dict[str, str]:
    """The reference card set's TOML file by name: a template for entering your own cards
    (as ``kingdoms.strifull.reference_files``)."""
    return {"reference.toml": Arte.reference_cards_toml()}
