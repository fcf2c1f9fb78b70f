"""A Gymnasium environment: one seat of a kingdoms game against a built-in agent.

>>> from kingdoms.agents import Greedy
>>> from kingdoms.envs import SingleAgentEnv
>>> env = SingleAgentEnv("strifull", opponent=Greedy(), seat=0)
>>> obs, info = env.reset(seed=3)
>>> done = False
>>> while not done:
...     action = env.action_space.sample(info["action_mask"].astype("int8"))
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated

The observation is the learner's observation tensor (a ``Box`` with the exact bounds of
:func:`~kingdoms.envs.observation_bounds`); the action is an id of the game's fixed action
space (``Discrete(num_actions)``); ``info["action_mask"]`` (and :meth:`action_masks`, as
MaskablePPO expects) says which ids are legal. The opponent's moves are played inside
``step`` until it is the learner's turn again (or the game ends). The reward is the
learner's final return (win 1, loss -1, draw 0) when the game ends, 0 before.

An illegal action: with ``illegal_action="lose"`` (the default, so that generic tools
such as ``check_env`` that sample unmasked actions work) the episode ends as a loss
(reward -1, ``info["illegal_action"]`` True) and the game is left as it was; with
``"raise"`` it raises :class:`kingdoms.IllegalActionError`.

``render_mode="ansi"`` / ``"svg"`` / ``"rgb_array"``: :meth:`render` returns the text / SVG
picture / RGB array of what the learner may see; ``"human"`` prints the text.
An action is an int id: a float raises ``TypeError`` (never truncated).

``seat``: the learner's seat, or None to alternate, game by game, from seat 0. The
opponent restarts from its own seed every game, so a seeded reset repeats exactly.
Seeding: ``reset(seed=s)`` starts the game seeded ``s``; ``reset()`` the next game of a
stream seeded by the last seed given (0 at first).
"""

from __future__ import annotations

import copy
from typing import Any, Literal

import gymnasium
import numpy as np
import numpy.typing as npt

from kingdoms._kingdoms import Game, IllegalActionError, new_game
from kingdoms.agents import Random, RustAgent
from kingdoms.envs.render import RENDER_MODES, action_id, check_render_mode, render
from kingdoms.envs.spaces import observation_bounds

__all__ = ["SingleAgentEnv"]

Obs = npt.NDArray[np.float32]


class SingleAgentEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of ``game`` (a name, ``options`` its rules) against ``opponent``."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES}  # noqa: RUF012 (the base classes declare it so)

    def __init__(
        self,
        game: str,
        opponent: RustAgent | None = None,
        seat: int | None = 0,
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        self.game_name = game
        self.options = dict(options)
        self.game: Game = new_game(game, seed=0, **options)
        check_render_mode(self.game, render_mode)
        if self.game.num_players != 2:
            raise ValueError("SingleAgentEnv needs a two-player game; use aec_env for more")
        if seat is not None and seat not in (0, 1):
            raise ValueError(f"seat must be 0, 1 or None, got {seat!r}")
        self.opponent: RustAgent = opponent if opponent is not None else Random()
        # The agent playing this game: a fresh copy of `opponent` each game, since an agent
        # draws from its seeded RNG as it plays and a seeded reset must repeat exactly.
        self._opponent = copy.deepcopy(self.opponent)
        self.seat = seat
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        low, high = observation_bounds(self.game)
        self.observation_space = gymnasium.spaces.Box(low, high, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self._seeds = np.random.default_rng(0)
        self._games = 0
        self.learner = 0 if seat is None else seat
        self._over = True  # until reset

    def _play_opponent(self) -> None:
        while (p := self.game.current_player) is not None and p != self.learner:
            self.game.apply(self._opponent.act(self.game))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "learner": self.learner}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """True where an action id is legal for the learner now."""
        if self.game.current_player != self.learner:
            return np.zeros(self.game.num_actions, np.bool_)
        return self.game.action_mask()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self._games = 0
            game_seed = seed
        else:
            game_seed = int(self._seeds.integers(0, 2**63))
        self.learner = self._games % 2 if self.seat is None else self.seat
        self._games += 1
        self.game = new_game(self.game_name, seed=game_seed, **self.options)
        self._opponent = copy.deepcopy(self.opponent)
        self._play_opponent()
        self._over = False
        if self.render_mode == "human":
            self.render()
        return self.game.observation_tensor(self.learner), self._info()

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play ``action`` (an int id; a float raises ``TypeError``), then the opponent."""
        if self._over:
            raise RuntimeError("the episode is over (or never began): call reset()")
        a = action_id(action, self.game.num_actions)
        try:
            self.game.apply_id(a)
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info() | {"illegal_action": True}
            return self.game.observation_tensor(self.learner), -1.0, True, False, info
        self._play_opponent()
        if self.render_mode == "human":
            self.render()
        done = self._over = self.game.is_terminal
        reward = float(self.game.returns()[self.learner]) if done else 0.0
        return self.game.observation_tensor(self.learner), reward, done, False, self._info()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi', 'human', 'svg' or 'rgb_array'"
            )
            return None
        return render(self.game, self.render_mode, self.learner)
