"""A PettingZoo AEC environment for every kingdoms game.

>>> from kingdoms.envs import aec_env
>>> env = aec_env("battleline")
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     action = None if termination or truncation else env.action_space(agent).sample(
...         obs["action_mask"])
...     env.step(action)

Agents are ``"player_0"``, ``"player_1"``, ... (as many as the game has players). The agent
to move is the game's current player, who may decide several times in a row (Battle Line's
play, claim and draw steps). Observations are dicts as in PettingZoo's classic games:
``"observation"`` is the player's observation tensor (a ``Box`` with the exact bounds of
:func:`~kingdoms.envs.observation_bounds`) and ``"action_mask"`` an int8 vector over the
fixed action space (``Discrete(num_actions)``), 1 where an action id is legal; the mask is
also in ``infos[agent]["action_mask"]``. Only the agent to move has a nonzero mask.

Rewards are the game's final returns (win 1, loss -1, draw 0), given when the game ends;
nothing is truncated (every game ends by its rules).

``render_mode="ansi"``: :meth:`render` returns the text picture of what the agent to move
may see (``spectator=True``: the whole state); ``render_mode="svg"``: the SVG picture of the
same view; ``render_mode="rgb_array"``: that picture as an RGB ``uint8`` array
(see :mod:`kingdoms.envs.render`); ``render_mode="human"``: the text, printed. An action is
an int id: a float raises ``TypeError`` (never truncated).

Seeding: ``reset(seed=s)`` starts the game seeded ``s``; ``reset()`` without a seed starts
the next game of a stream seeded by the last seed given (0 at first), so runs repeat.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from kingdoms._kingdoms import Game, new_game
from kingdoms.envs.render import RENDER_MODES, action_id, check_render_mode, render
from kingdoms.envs.spaces import observation_bounds

__all__ = ["KingdomsAEC", "aec_env"]

ObsDict = dict[str, npt.NDArray[Any]]


def agent_name(player: int) -> str:
    return f"player_{player}"


class KingdomsAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment of game ``game`` (a name) under rules ``options``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (the base classes declare it so)
        "render_modes": RENDER_MODES,
        "name": "kingdoms_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        spectator: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game_name = game
        self.options = dict(options)
        self.game: Game = new_game(game, seed=0, **options)
        check_render_mode(self.game, render_mode)
        self.render_mode = render_mode
        self.spectator = spectator
        self.metadata = {**self.metadata, "name": f"kingdoms_{self.game.name}_v0"}
        self.possible_agents = [agent_name(p) for p in range(self.game.num_players)]
        self.agents: list[str] = []
        low, high = observation_bounds(self.game)
        n = self.game.num_actions
        self._observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(low, high, dtype=np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (n,), dtype=np.int8),
            }
        )
        self._action_space = gymnasium.spaces.Discrete(n)
        self._seeds = np.random.default_rng(0)

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._action_space

    def _player(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(
                f"unknown agent {agent[:40]!r}: agents are {self.possible_agents}"
            ) from None

    def _mask(self, player: int) -> npt.NDArray[np.int8]:
        if self.game.current_player != player:
            return np.zeros(self.game.num_actions, np.int8)
        return self.game.action_mask().astype(np.int8)

    def observe(self, agent: str) -> ObsDict:
        p = self._player(agent)
        return {
            "observation": self.game.observation_tensor(p),
            "action_mask": self._mask(p),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        else:
            game_seed = int(self._seeds.integers(0, 2**63))
        self.game = new_game(self.game_name, seed=game_seed, **self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the player to move and refresh the infos' masks."""
        p = self.game.current_player
        if p is not None:
            self.agent_selection = agent_name(p)
        for i, a in enumerate(self.agents):
            self.infos[a] = {"action_mask": self._mask(self.possible_agents.index(a))}
            if p is None and i == 0:
                self.agent_selection = a

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # A finished agent's last step (action None): PettingZoo removes it.
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: action None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        # raises TypeError for a float, IllegalActionError (game unchanged) for an illegal id
        self.game.apply_id(action_id(action, self.game.num_actions))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_terminal:
            for a, r in zip(self.possible_agents, self.game.returns()):
                self.rewards[a] = float(r)
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi', 'human', 'svg' or 'rgb_array'"
            )
            return None
        if self.spectator:
            return render(self.game, self.render_mode, None)
        p = self.game.current_player
        return render(self.game, self.render_mode, 0 if p is None else p)

    def close(self) -> None:
        pass


def aec_env(game: str, render_mode: str | None = None, **options: Any) -> KingdomsAEC:
    """The AEC environment of ``game`` wrapped in PettingZoo's usual checks (an illegal or
    out-of-bounds action raises; stepping a finished agent with an action raises)."""
    from pettingzoo.utils import wrappers

    env: Any = KingdomsAEC(game, render_mode=render_mode, **options)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    env = wrappers.OrderEnforcingWrapper(env)
    return env  # type: ignore[no-any-return]
