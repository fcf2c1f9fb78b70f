"""Zinordia: hex tactics. Each player picks Stars (secretly, or in an open draft), places
them on the battlefield, and plays them turn by turn — moving, collecting Renown markers
and using their abilities — until a team reaches the mode's Renown target.

>>> from kingdoms.zinordia import Zinordia
>>> g = Zinordia(seed=1)                  # a duel on the reference content
>>> g.apply("pick ignara")                # player 0 picks in secret
>>> "ignara" in str(g.view(1))            # the other player cannot see it
False

Rules with ids ``ZN-x.y``: ``docs/rules/zinordia.md``. Content format and reference set,
state dict, notation, action ids and observation layout: ``docs/zinordia.md``.

Rules options (keyword arguments of :class:`Zinordia` and ``kingdoms.new_game("zinordia",
...)``):

``mode``
    ``"duel"`` (default), ``"free_for_all"`` (3 or 4 players) or ``"teams"`` (2 v 2), or a
    mode of one's own content;
``players``
    the number of players (default: the mode's fewest);
``map``
    the map's id (default: the mode's first);
``selection``
    ``"secret"`` (default: simultaneous, hidden until the reveal) or ``"draft"``;
``placement``
    ``"alternate"`` (default: one Star at a time) or ``"blocks"``;
``max_rounds``
    rounds before the tie rule decides (default 30);
``roster_toml``, ``maps_toml``, ``modes_toml``, ``terrain_toml``
    one's own content as text: roster, maps, modes, and the terrain kinds the maps name
    (see :func:`content_options` to read it from files);

and the second readings of the rules (each an **Option** of ``docs/rules/zinordia.md``):

``unique_stars``
    ``"team"`` (default) or ``"game"``: a Star fielded by one team only (ZN-1.2);
``lines``
    ``"axis"`` (default) or ``"drawn"``: lines and dashes toward any zone (ZN-2.6);
``durations_tick``
    ``"turn_start"`` (default) or ``"turn_end"`` of the applier's turn (ZN-5.5);
``split_movement``
    ``True`` (default) or ``False``: no movement after the activation (ZN-6.2);
``reaction_order``
    ``"event"`` (default) or ``"initiative"`` from the current player (ZN-9.4);
``untimed_buffs``
    ``"turn"`` (default) or ``"round"``: until the applier's next turn (ZN-10.5);
``marks_stack``
    ``False`` (default) or ``True``: the same mark again adds a copy (ZN-11.3);
``reactions_interrupt``
    ``True`` (default) or ``False``: reactions to events inside an ability are asked right
    after their trigger, the rest of the ability waiting, or once it has resolved (ZN-9.5);
``ally_defeat``
    ``"lost"`` (default) or ``"pays"``: what defeating an ally pays (ZN-12.3).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from kingdoms._kingdoms import DataError, Zinordia
from kingdoms._svg.zinordia import draw as DRAW
from kingdoms._types import ZinordiaOptions as Options

# ---- the game's Python side (``kingdoms._games``) ----------------------------------------

#: The modes ``kingdoms bench zinordia`` measures without ``--option``: label -> rules options.
BENCH_MODES: dict[str, dict[str, Any]] = {
    "duel": {},
    "free-for-all, 3 players": {"mode": "free_for_all", "players": 3},
    "free-for-all, 4 players": {"mode": "free_for_all", "players": 4},
    "teams, 2 v 2": {"mode": "teams"},
}


def observation_bounds(**options: Any) -> tuple[Any, Any]:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry under
    these rules options (computed in Rust beside the observation, as
    ``Zinordia(**options).observation_bounds()``)."""
    return Zinordia(seed=0, **options).observation_bounds()


__all__ = [
    "BENCH_MODES",
    "DRAW",
    "MODES",
    "Options",
    "Placement",
    "Selection",
    "Zinordia",
    "content_options",
    "observation_bounds",
    "reference_files",
]

Selection = Literal["secret", "draft"]
Placement = Literal["alternate", "blocks"]

#: The reference modes.
MODES: tuple[str, ...] = ("duel", "free_for_all", "teams")

#: Largest content file read (a roster of 64 Stars is far smaller).
_MAX_FILE = 1 << 20
#: Most map files taken from one folder (as the engine takes at most 256 data files).
_MAX_MAPS = 256


def _read(path: str | os.PathLike[str], what: str) -> str:
    # The engine's one reader of user files: regular files only (a FIFO or a device such
    # as /dev/zero is refused without reading), bounded, UTF-8; errors quote no content.
    from kingdoms.records import read_text_file

    return read_text_file(Path(path), what, _MAX_FILE)


def _inside(folder: Path, f: Path) -> Path:
    """``f``, a file listed in ``folder``, if it stays there once links are followed."""
    real = f.resolve()
    if not real.is_relative_to(folder.resolve()):
        raise DataError(f"map {f.name!r:.60}: a link out of its folder")
    return real


def content_options(
    roster: str | os.PathLike[str] | None = None,
    maps: str | os.PathLike[str] | Mapping[str, str | os.PathLike[str]] | None = None,
    modes: str | os.PathLike[str] | None = None,
    terrain: str | os.PathLike[str] | None = None,
) -> dict[str, Any]:
    """Read one's own content from files into rules options for :class:`Zinordia`.

    ``roster``, ``modes`` and ``terrain`` (the terrain kinds the maps may name, the format
    of ``reference_files()["terrain.toml"]``) are TOML files; ``maps`` is a directory of ``<id>.toml`` map
    files (at most 256, each staying in the folder once links are followed) or a
    ``{id: path}`` mapping. Files are read as the engine reads data files: regular files
    of at most 1 MiB (a FIFO or device is refused, never read), UTF-8. What is not given
    stays the reference content's. The files are read here, once: the game (and any state
    saved from it) carries the text, so loading a saved state never opens a file. The content is validated when a game is
    made, with errors naming file, Star, ability and field::

        g = Zinordia(seed=1, **content_options(roster="my_roster.toml"))
    """
    out: dict[str, Any] = {}
    if roster is not None:
        out["roster_toml"] = _read(roster, "roster")
    if modes is not None:
        out["modes_toml"] = _read(modes, "modes")
    if terrain is not None:
        out["terrain_toml"] = _read(terrain, "terrain")
    if maps is not None:
        if isinstance(maps, Mapping):
            items = [(str(k), v) for k, v in maps.items()]
        else:
            folder = Path(maps)
            if not folder.is_dir():
                raise DataError(f"maps {folder.name!r:.60}: not a directory")
            files = sorted(folder.glob("*.toml"))
            if len(files) > _MAX_MAPS:
                raise DataError(f"maps {folder.name!r:.60}: more than {_MAX_MAPS} map files")
            items = [(f.stem, _inside(folder, f)) for f in files]
        out["maps_toml"] = {k: _read(v, f"map {k!r:.40}") for k, v in items}
    return out


def reference_files() -> dict[str, str]:
    """The reference content's TOML files by path (``roster.toml``, ``modes.toml``,
    ``maps/<id>.toml``; ``terrain.toml`` the terrain kinds maps may use): a template for
    one's own."""
    return Zinordia.reference_files()
