"""A Gymnasium vector environment over :class:`kingdoms.batch.Batch`.

>>> import numpy as np
>>> from kingdoms.envs import BatchVectorEnv
>>> envs = BatchVectorEnv("battleline", 64, seed=0)
>>> obs, infos = envs.reset(seed=0)
>>> rng = np.random.default_rng(0)
>>> for _ in range(100):
...     actions = np.argmax(rng.random(infos["action_mask"].shape) * infos["action_mask"], 1)
...     obs, rewards, terminations, truncations, infos = envs.step(actions)

The games run in Rust (:mod:`kingdoms.batch`); the autoreset mode is Gymnasium's
``AutoresetMode.SAME_STEP``: a game that ends is restarted inside the same ``step``, whose
observation is then the new game's first one, while ``infos["final_obs"]`` holds the ended
game's last observation (rows where ``infos["_final_obs"]``, i.e. where terminated).

Self-play (no ``opponent``): every step is a move of the player to move in each game
(``infos["player"]``), and the reward is the final return of the player who moved (zero
until a game ends); ``infos["returns"]`` has every player's. With ``opponent`` (a built-in
agent) the learner plays ``seat`` (None: alternating) and the opponent's replies happen
inside ``step``; the reward is the learner's return.

``infos["action_mask"]`` (bool, ``(num_envs, num_actions)``) says which ids are legal. An
illegal id, as in :class:`~kingdoms.envs.SingleAgentEnv`: with ``illegal_action="lose"`` (the
default, so that tools sampling unmasked actions work) that game ends as a loss for the
player who gave it (reward -1, terminated, ``infos["illegal_action"]`` True in its row) and
restarts; with ``"raise"`` it raises :class:`kingdoms.IllegalActionError` and nothing is
played. An id out of range raises ``ValueError``, a float id ``TypeError``.

``copy=False`` returns the same arrays every step (overwritten by the next): fastest, for
loops that copy what they keep. Observations are bounded by
:func:`~kingdoms.envs.observation_bounds`. ``obs_dtype=np.uint8`` (Battle Line) steps the
compact observation (:mod:`kingdoms.batch`): a uint8 ``Box`` of those bounds times
``envs.batch.obs_divisors``, and ``envs.batch.decode(obs)`` is the float32 observation.
"""

from __future__ import annotations

from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from kingdoms._kingdoms import new_game
from kingdoms.agents import RustAgent
from kingdoms.batch import Batch
from kingdoms.envs.spaces import observation_bounds

__all__ = ["BatchVectorEnv"]

Obs = npt.NDArray[np.float32]
Arr = npt.NDArray[Any]


class BatchVectorEnv(VectorEnv[Obs, Arr, Arr]):
    """``num_envs`` games of ``game`` (``options`` its rules) stepped together in Rust."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (the base classes declare it so)

    def __init__(
        self,
        game: str,
        num_envs: int,
        seed: int = 0,
        *,
        opponent: RustAgent | None = None,
        seat: int | None = None,
        threads: int | None = None,
        copy: bool = True,
        obs_dtype: npt.DTypeLike = np.float32,
        illegal_action: Literal["lose", "raise"] = "lose",
        **options: Any,
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if "mask" in options:
            # Gymnasium's vector envs hand out bool masks; packed ones are Batch's option.
            raise TypeError(
                "BatchVectorEnv's infos['action_mask'] is bool, Gymnasium's convention: "
                "mask= is an option of kingdoms.batch.Batch (mask='bits')"
            )
        self.batch = Batch(
            game,
            num_envs,
            seed,
            opponent=opponent,
            seat=seat,
            threads=threads,
            obs_dtype=obs_dtype,
            illegal_action=illegal_action,
            **options,
        )
        self.illegal_action = illegal_action
        self.num_envs = num_envs
        self.copy = copy
        self.opponent = opponent
        low, high = observation_bounds(new_game(game, seed=0, **options))
        divisors = self.batch.obs_divisors
        if self.batch.obs_dtype == np.uint8 and divisors is not None:
            # The compact observation: the same bounds, in the whole counts it holds.
            low, high = (np.rint(x * divisors).astype(np.uint8) for x in (low, high))
            self.single_observation_space = gymnasium.spaces.Box(low, high, dtype=np.uint8)
        else:
            self.single_observation_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._out = self.batch.buffers()
        first = self.batch.observe()
        self._player, self._mask = first.player, first.mask
        self._rows = np.arange(num_envs)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """New games in every slot; ``seed`` (an int) restarts the slots' seed streams."""
        if seed is not None and not isinstance(seed, (int, np.integer)):
            raise TypeError("seed must be one int for the whole batch (or None)")
        obs, mask, player = self.batch.reset(None if seed is None else int(seed))
        self._player, self._mask = player, mask
        return obs, {"action_mask": mask, "player": player}

    def step(self, actions: npt.ArrayLike) -> tuple[Obs, Arr, Arr, Arr, dict[str, Any]]:
        # Who moves in this step: the player to move (with an opponent, the learner).
        mover = self._player.copy()
        ids = np.asarray(actions)
        if ids.dtype.kind not in "iu":  # a float id is refused, never truncated
            raise TypeError(f"actions must be integer ids, got dtype {ids.dtype}")
        illegal = None
        if self.illegal_action == "lose":
            if ids.shape != (self.num_envs,):
                raise ValueError(f"actions must be one id per game, shape ({self.num_envs},)")
            n = self.batch.num_actions
            if ((ids < 0) | (ids >= n)).any():
                raise ValueError(f"actions must be ids from 0 to {n - 1}")
            illegal = ~self._mask[self._rows, ids]  # this step's mask, before it is rewritten
        out = self.batch.step(ids, out=self._out)
        rewards = out.rewards[self._rows, mover]
        self._player, self._mask = out.player.copy(), out.mask
        infos: dict[str, Any] = {
            "action_mask": out.mask,
            "player": out.player,
            "returns": out.rewards,
        }
        if illegal is not None and illegal.any():
            infos["illegal_action"] = infos["_illegal_action"] = illegal
        if out.dones.any():
            infos["final_obs"] = out.final_obs
            infos["_final_obs"] = out.dones
        truncations = np.zeros(self.num_envs, np.bool_)
        if self.copy:
            infos = {k: v.copy() for k, v in infos.items()}
            return out.obs.copy(), rewards, out.dones.copy(), truncations, infos
        return out.obs, rewards, out.dones, truncations, infos
