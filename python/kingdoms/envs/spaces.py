"""Exact observation and action spaces of every game.

:func:`observation_bounds` gives, for each entry of a game's observation tensor, the least
and greatest value it can take under that game's rules options (and card set), derived from
each game's observation code; the layouts and the same bounds are in ``docs/<game>.md``
("Observation"). ``tests/test_envs_spaces.py`` checks that random games stay inside them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import Game

__all__ = ["observation_bounds"]

Bounds = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


def observation_bounds(game: Game) -> Bounds:
    """``(low, high)``: float32 arrays of the observation's shape bounding every entry,
    for ``game``'s rules options and card set (they do not change during a game)."""
    try:
        rule = _BOUNDS[game.name]
    except KeyError:
        raise ValueError(f"no observation bounds are known for game {game.name!r}") from None
    low, high = rule(game)
    shape = tuple(game.observation_shape)
    if low.shape != shape or high.shape != shape:
        raise AssertionError(f"{game.name}: bounds of shape {low.shape}, observation {shape}")
    return low, high


def _battleline(game: Game) -> Bounds:
    # Every entry is a 0/1 flag or a count divided by its maximum (battleline/observation.rs),
    # except the two hand counts below: during a Scout the hand holds 6 cards plus 3 drawn.
    n = game.observation_shape[0]
    low = np.zeros(n, np.float32)
    high = np.ones(n, np.float32)
    globals_at = n - 25
    for k in (2, 3, 4, 5):  # troops / tactics in a hand, over 7: up to 9 while scouting
        high[globals_at + k] = 9 / 7
    return low, high


def _strifull(game: Game) -> Bounds:
    # strifull/observe.rs; limits from the card-data format (strifull/cards.rs, effects.rs),
    # so they hold for every card set: troop ATK/DEF 0..=20; growth counters and "stat"
    # effects within -10..=10; a pile holds at most 30 cards (a deck).
    rows, cols = game.observation_shape
    low = np.zeros((rows, cols), np.float32)
    high = np.ones((rows, cols), np.float32)
    cells = rows - 2  # both sides' cells, then one row per side
    high[:cells, 8:10] = 20 / 10  # printed ATK / 10, DEF / 10
    low[:cells, 10:12], high[:cells, 10:12] = -10 / 5, 10 / 5  # growth counters / 5
    low[:cells, 13:15], high[:cells, 13:15] = -10 / 5, 10 / 5  # until-end-of-turn modifier / 5
    high[cells:, 10] = 30 / 12  # pile size / 12
    return low, high


def _arte(game: Game) -> Bounds:
    # arte/observe.rs; limits from the card-data format (arte/cards.rs): a unit card shows
    # 1 to 3 units (a type may repeat), a terrain favours a type with a value 1..=9, and the
    # twelve drafts deal 9 terrain and 27 unit cards in all.
    rows, cols = game.observation_shape
    low = np.zeros((rows, cols), np.float32)
    high = np.ones((rows, cols), np.float32)
    g = high[0]
    g[20] = g[21] = 9 / 3  # terrain cards in a hand / 3
    g[22] = g[23] = 27 / 9  # unit cards in a hand / 9
    g[24] = (9 + 27) / 9  # the opponent's secret hand cards / 9
    g[27:31] = 27 / 9  # victory and defeated piles / 9
    g[31] = g[36] = (3 + 9) / 3  # secret orders (3 placements, 9 deployments) / 3
    cards = high[1:]
    cards[:, 0:4] = 3  # units of each type on a card
    cards[:, 4:8] = 9 / 3  # terrain value / 3
    cards[:, 45:47] = 3 * (9 + 1) / 10  # attack / defence score / 10: 3 units at 9, +1 row bonus
    return low, high


def _zinordia(game: Game) -> Bounds:
    # zinordia/observe.rs: every entry is a 0/1 flag or a value divided by its maximum and
    # clamped to [0, 1] (docs/zinordia.md, "Observation").
    shape = tuple(game.observation_shape)
    return np.zeros(shape, np.float32), np.ones(shape, np.float32)


_BOUNDS: dict[str, Callable[[Game], Bounds]] = {
    "battleline": _battleline,
    "strifull": _strifull,
    "arte": _arte,
    "zinordia": _zinordia,
}
