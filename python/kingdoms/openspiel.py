"""Every kingdoms game as an OpenSpiel game (``pip install 'kingdoms[openspiel]'``).

>>> import pyspiel
>>> import kingdoms.openspiel  # registers python_kingdoms_<game> for every game
>>> game = pyspiel.load_game("python_kingdoms_battleline")
>>> state = game.new_initial_state()
>>> state.apply_action(state.legal_actions()[0])

Importing this module registers ``python_kingdoms_battleline``, ``python_kingdoms_strifull``,
``python_kingdoms_arte`` (one per name in :func:`kingdoms.games`) with
``pyspiel.register_game``, so OpenSpiel's Python algorithms run on them: its ISMCTS
(``open_spiel.python.algorithms.ismcts``), MCTS, and anything that walks states.

Game type: sequential, imperfect information, zero-sum, terminal rewards, and **sampled
stochastic** chance: the deal (and STRIFULL's dice) come from the game's own seeded RNG, so
no chance nodes appear. ``new_initial_state()`` deals the next game of a stream seeded by
the game parameter ``seed`` (default 0); :meth:`KingdomsState.resample_from_infostate`
redraws everything the player cannot see (``Game.resample_hidden``), as ISMCTS needs.

- ``information_state_string(p)``: ``p``'s view of the state (``Game.view``) followed by
  ``p``'s own moves so far. Opponents' moves are not listed: their text can name a card
  ``p`` may not see (a card returned by Scout, an Arte da Guerra secret order); what they
  reveal is in the view.
- ``observation_tensor(p)``: the game's observation tensor (``docs/<game>.md``);
  ``observation_string(p)``: ``Game.render(p)``.

Rules options travel as the game parameter ``options``: a JSON object text, e.g.
``pyspiel.load_game("python_kingdoms_arte", {"options": '{"deployment": "sequential"}'})``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from kingdoms._kingdoms import Game, games, new_game

__all__ = ["KingdomsGame", "KingdomsState", "game_name"]

# A cap OpenSpiel requires (GameInfo.max_game_length), not a rule: far above the longest
# of 16,000-21,000 random games per game (126 decisions in Battle Line, 102 in STRIFULL, 85
# in Arte da Guerra).
MAX_GAME_LENGTH = 2000


def game_name(name: str) -> str:
    """OpenSpiel's short name of the kingdoms game ``name``."""
    return f"python_kingdoms_{name}"


def _game_type(name: str, num_players: int) -> Any:
    return pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"kingdoms {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=num_players,
        min_num_players=num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0, "options": "{}"},
    )


class KingdomsGame(pyspiel.Game):  # type: ignore[misc]
    """A kingdoms game as seen by OpenSpiel (one subclass per game name, see below)."""

    name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        options_text = params.get("options", "{}")
        try:
            options = json.loads(options_text)
        except ValueError as e:
            raise ValueError(f"options must be a JSON object text: {e}") from None
        if not isinstance(options, dict):
            raise TypeError("options must be a JSON object text")
        self.options: dict[str, Any] = options
        probe = new_game(self.name, seed=0, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=0,
            num_players=probe.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.name, probe.num_players), info, params)
        self.observation_shape = list(probe.observation_shape)
        self._seeds = np.random.default_rng(int(params.get("seed", 0)))

    def new_initial_state(self) -> KingdomsState:
        seed = int(self._seeds.integers(0, 2**63))
        return KingdomsState(self, new_game(self.name, seed=seed, **self.options))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return _Observer(self.observation_shape)


class KingdomsState(pyspiel.State):  # type: ignore[misc]
    """One position: a :class:`kingdoms.Game` plus the notation of the moves played."""

    def __init__(self, game: KingdomsGame, inner: Game) -> None:
        super().__init__(game)
        self.inner = inner
        # (player, notation) of every move played, for the information state strings.
        self.moves: list[tuple[int, str]] = []

    def current_player(self) -> int:
        p = self.inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.current_player:
            return []
        return [int(a) for a in self.inner.legal_action_ids()]

    def _apply_action(self, action: int) -> None:
        mover = self.current_player()
        text = self._action_to_string(mover, action)
        self.inner.apply_id(action)
        self.moves.append((mover, text))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.inner.id_to_action(action))

    def is_terminal(self) -> bool:
        return bool(self.inner.is_terminal)

    def returns(self) -> list[float]:
        return [float(r) for r in self.inner.returns()]

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        view = json.dumps(self.inner.view(p), sort_keys=True, separators=(",", ":"))
        return view + "|" + ";".join(text for q, text in self.moves if q == p)

    def observation_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return str(self.inner.render(p))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        p = self.current_player() if player is None else player
        return [float(x) for x in self.inner.observation_tensor(p).ravel()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KingdomsState:
        """A state ``player_id`` cannot tell from this one, hidden cards and future chance
        redrawn (the seed comes from ``probability_sampler``)."""
        seed = int(probability_sampler() * 2**53)
        out = KingdomsState(self.get_game(), self.inner.resample_hidden(player_id, seed))
        out.moves = list(self.moves)
        return out

    def clone(self) -> KingdomsState:
        out = KingdomsState(self.get_game(), self.inner.clone())
        out.moves = list(self.moves)
        return out

    def __str__(self) -> str:
        return str(self.inner.render())


class _Observer:
    """OpenSpiel's PyObserver: the game's observation tensor, and its text picture."""

    def __init__(self, shape: list[int]) -> None:
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: KingdomsState, player: int) -> None:
        self.tensor[:] = state.inner.observation_tensor(player).ravel()

    def string_from(self, state: KingdomsState, player: int) -> str:
        return str(state.inner.render(player))


def _register() -> None:
    for name in games():
        cls = type(f"Kingdoms_{name}", (KingdomsGame,), {"name": name})
        probe = new_game(name, seed=0)
        pyspiel.register_game(_game_type(name, probe.num_players), cls)


_register()
