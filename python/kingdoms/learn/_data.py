"""Training examples from self-play shards (:mod:`kingdoms.selfplay`): the network's input
row (the mover's observation, or every seat's: ``input``), its legal-action mask, a policy
target and a value target per decision."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from kingdoms import selfplay
from kingdoms._kingdoms import DataError, KingdomsError


@dataclass
class Examples:
    """``observations`` (N, D) float32, the input rows (D: the observation size, times the
    players for ``input="seats"``); ``masks`` (N, A) bool; ``policy`` (N, A) float32,
    each row a distribution over the legal actions (the move played, or the ISMCTS root
    visit counts: :func:`examples`); ``values`` (N, P) float32, the game's returns
    seen from the mover (column ``k``: the player ``k`` seats after the mover); ``games``
    (N,) the index of each row's game (the validation split is by game)."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    policy: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]
    games: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.observations)

    def take(self, rows: npt.NDArray[Any]) -> Examples:
        return Examples(
            self.observations[rows],
            self.masks[rows],
            self.policy[rows],
            self.values[rows],
            self.games[rows],
        )


POLICY_TARGETS = ("action", "visits")
INPUTS = ("observation", "seats")
"""What a network's input row holds: the mover's observation, or every seat's observation
of the state, the mover's first (the shards' ``seats`` column, ``selfplay.generate(...,
seats=True)``)."""


def examples(
    arrays: dict[str, npt.NDArray[Any]],
    what: str = "data",
    policy_target: str = "action",
    root_value_weight: float = 0.0,
    input: str = "observation",
) -> Examples:
    """Examples from the columns :func:`kingdoms.selfplay.load` returns; inconsistent
    columns are a :class:`kingdoms.DataError` naming ``what``.

    ``policy_target``: ``"action"`` (the default) learns the move the search chose;
    ``"visits"`` its root visit distribution (AlphaZero's target), the move played where the
    mover did not search. The default ISMCTS of Battle Line, STRIFULL and Arte da Guerra
    decides by sequential halving, whose visits are equal among the candidates of a round
    (a choice between two moves is 50/50 in the visits whatever the search concluded), so
    there the visits say little of its choice.

    ``root_value_weight`` ``w``: the value target is ``(1 - w) * z + w * q``, where ``z`` is
    the game's result and ``q`` the search's value of the move it chose (the shards'
    ``root_value``; ``z`` alone where the mover did not search), the mix of many AlphaZero
    reimplementations: ``q`` varies far less than a single game's result.

    ``input``: ``"observation"`` (the default) takes the rows from the ``observation``
    column, ``"seats"`` from the ``seats`` column (every seat's view of the true state)."""
    if input not in INPUTS:
        raise KingdomsError(f"input must be one of {', '.join(INPUTS)}, got {input!r}")
    if input == "seats" and "seats" not in arrays:
        raise KingdomsError(
            f"{what}: input='seats' needs the seats column: self-play with "
            "selfplay.generate(..., seats=True) (kingdoms selfplay --seats)"
        )
    if not 0.0 <= root_value_weight <= 1.0:
        raise KingdomsError(
            f"root_value_weight must be a number from 0 to 1, got {root_value_weight}"
        )
    if root_value_weight > 0 and "root_value" not in arrays:
        raise KingdomsError(
            f"{what}: root_value_weight needs the root_value column, which self-play "
            "shards carry since it was added (this data is older)"
        )
    if policy_target not in POLICY_TARGETS:
        raise KingdomsError(
            f"policy_target must be one of {', '.join(POLICY_TARGETS)}, got {policy_target!r}"
        )
    need = ("observation", "mask", "action", "visits", "returns", "player", "game")
    missing = [c for c in need if c not in arrays]
    if missing:
        raise DataError(f"{what}: no column {missing[0]}")
    obs = np.asarray(arrays[input], dtype=np.float32)
    mask = np.asarray(arrays["mask"]).astype(bool)
    visits = np.asarray(arrays["visits"], dtype=np.float64)
    returns = np.asarray(arrays["returns"], dtype=np.float64)
    action = np.asarray(arrays["action"], dtype=np.int64)
    player = np.asarray(arrays["player"], dtype=np.int64)
    game = np.asarray(arrays["game"], dtype=np.int64)
    n = len(obs)
    if obs.ndim != 2 or mask.ndim != 2 or visits.shape != mask.shape or returns.ndim != 2:
        raise DataError(f"{what}: columns of the wrong shape")
    if input == "seats":
        per = np.asarray(arrays["observation"]).shape[1:]
        if per != (obs.shape[1] // max(returns.shape[1], 1),) or obs.shape[1] % max(
            returns.shape[1], 1
        ):
            raise DataError(f"{what}: column seats is not one observation per player")
    if any(len(a) != n for a in (mask, visits, returns, action, player, game)):
        raise DataError(f"{what}: columns of different lengths")
    if n == 0:
        raise KingdomsError(f"{what}: no decisions to train on")
    players = returns.shape[1]
    actions = mask.shape[1]
    if not (np.all((0 <= action) & (action < actions)) and np.all(mask[np.arange(n), action])):
        raise DataError(f"{what}: a move played is not in its legal mask")
    if not np.all((0 <= player) & (player < players)):
        raise DataError(f"{what}: a mover outside the players")
    if not (np.all(np.isfinite(obs)) and np.all(np.isfinite(returns))):
        raise DataError(f"{what}: {input} rows and returns must be finite")
    if np.any(visits < 0) or np.any(visits[~mask] > 0):
        raise DataError(f"{what}: visits on an illegal action")
    # The policy target: visit counts where the mover searched, else the move played.
    total = visits.sum(axis=1, keepdims=True)
    played = np.zeros_like(visits)
    played[np.arange(n), action] = 1.0
    if policy_target == "visits":
        policy = np.where(total > 0, visits / np.maximum(total, 1.0), played)
    else:
        policy = played
    policy = policy.astype(np.float32)
    target = returns
    if root_value_weight > 0:
        q = np.asarray(arrays["root_value"], dtype=np.float64)
        if q.shape != returns.shape:
            raise DataError(f"{what}: column root_value of the wrong shape")
        searched = np.all(np.isfinite(q), axis=1, keepdims=True)
        q = np.where(searched, np.clip(np.nan_to_num(q), -1.0, 1.0), returns)
        target = (1.0 - root_value_weight) * returns + root_value_weight * q
    # Returns rotated so column k is the player k seats after the mover.
    cols = (player[:, None] + np.arange(players)[None, :]) % players
    values = np.clip(np.take_along_axis(target, cols, axis=1), -1.0, 1.0).astype(np.float32)
    return Examples(obs, mask, policy, values, game)


def load_examples(
    data: str | os.PathLike[str],
    policy_target: str = "action",
    root_value_weight: float = 0.0,
    input: str = "observation",
) -> tuple[Examples, dict[str, Any]]:
    """The examples of a self-play run directory (see :func:`examples`), and its manifest."""
    manifest = selfplay.read_manifest(data)
    arrays = selfplay.load(data)
    if not arrays:
        raise KingdomsError(f"{str(data)[:160]}: the run has no finished shard yet")
    return examples(arrays, str(data)[:160], policy_target, root_value_weight, input), manifest


def split(ex: Examples, validation: float, seed: int) -> tuple[Examples, Examples]:
    """Training and validation examples: a fraction ``validation`` of the *games* (drawn
    from ``seed``) is held out whole, so no position of a held-out game is trained on."""
    if not 0.0 <= validation < 1.0:
        raise KingdomsError(f"validation must be a fraction from 0 to below 1, got {validation}")
    ids = np.unique(ex.games)
    rng = np.random.default_rng(seed)
    held = round(validation * len(ids))
    if validation > 0 and len(ids) > 1:
        held = min(max(held, 1), len(ids) - 1)
    else:
        held = 0
    val_games = rng.choice(ids, size=held, replace=False) if held else np.array([], np.int64)
    is_val = np.isin(ex.games, val_games)
    return ex.take(np.flatnonzero(~is_val)), ex.take(np.flatnonzero(is_val))
