"""Every kingdoms game as an OpenSpiel game (``pip install 'kingdoms[openspiel]'``).

>>> import pickle
>>> import pyspiel
>>> import kingdoms.openspiel  # registers python_kingdoms_<game> for every game
>>> game = pyspiel.load_game("python_kingdoms_battleline", {"seed": 3})
>>> state = game.new_initial_state()  # the deal: one chance node
>>> state.apply_action(0)
>>> state.apply_action(state.legal_actions()[0])
>>> pickle.loads(pickle.dumps(state)) == state
True

Importing this module registers one game per name in :func:`kingdoms.games`
(``python_kingdoms_battleline``, ``_strifull``, ``_arte``, ``_zinordia``) with
``pyspiel.register_game``, so OpenSpiel's Python algorithms run on them: its ISMCTS
(``open_spiel.python.algorithms.ismcts``), MCTS, and anything that walks states.

Game type: sequential, imperfect information, terminal rewards, **explicit stochastic**:
the first node is a chance node, the deal, with ``DEALS`` equally likely outcomes; outcome
``i`` seeds the game's own RNG, which then draws the cards and dice (STRIFULL's and
Zinordia's future dice are hidden from everyone). The seed of deal ``i`` is the ``i``-th
draw of a stream seeded by the game parameter ``seed`` (default 0). Zero-sum where the
returns always sum to zero (two sides), general-sum otherwise (Zinordia's free-for-all:
+1 for the winner, -1 for each loser). :meth:`KingdomsState.resample_from_infostate`
redraws everything the player cannot see (``Game.resample_hidden``), as ISMCTS needs.
States serialise (``pyspiel.serialize_game_and_state``) and pickle. ``undo_action`` is
OpenSpiel's refusal (``SpielError``): a Python game cannot pop the C++ history an undo must
pop (docs/rl.md); keep a ``state.clone()`` to go back.

- ``information_state_string(p)``: ``p``'s view of the state (``Game.view``) followed by
  ``p``'s own moves so far. Opponents' moves are not listed: their text can name a card
  ``p`` may not see (a card returned by Scout, an Arte da Guerra secret order); what they
  reveal is in the view. ``information_state_tensor(p)``: the observation tensor followed
  by how many times ``p`` played each action id (``num_distinct_actions`` counts).
- ``observation_tensor(p)``: the game's observation tensor (``docs/<game>.md``);
  ``observation_string(p)``: ``Game.render(p)``.

Rules options are game parameters, each with the rules' default, e.g.
``pyspiel.load_game("python_kingdoms_arte", {"deployment": "alternating"})`` or
``pyspiel.load_game("python_kingdoms_zinordia", {"mode": "free_for_all", "players": 4})``
(``players`` 0 and ``map`` "" mean the mode's default). Options without a plain default
(card files, content TOML, lists) go in the parameter ``options``, a JSON object text.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import pyspiel

from kingdoms._kingdoms import Game, KingdomsError, RulesOptionError, games, new_game
from kingdoms.records import parse_json

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["DEALS", "KingdomsGame", "KingdomsState", "game_name"]

# A cap OpenSpiel requires (GameInfo.max_game_length), not a rule: far above the longest
# of 16,000-21,000 random games per game (126 decisions in Battle Line, 102 in STRIFULL, 85
# in Arte da Guerra).
MAX_GAME_LENGTH = 2000

#: The number of outcomes of the deal, the chance node that starts every game.
DEALS = 2**16

# Options whose default is None (the mode's choice) but which users pass as plain values:
# the parameter's default stands for None.
_UNSET = {"players": 0, "map": ""}


def game_name(name: str) -> str:
    """OpenSpiel's short name of the kingdoms game ``name``."""
    return f"python_kingdoms_{name}"


def _parameters(name: str) -> dict[str, Any]:
    """The game parameters of ``name`` with their defaults: ``seed``, ``options`` and every
    rules option whose default is a plain bool, int, float or str."""
    spec: dict[str, Any] = {"seed": 0, "options": "{}"}
    for key, value in new_game(name, seed=0).options.items():
        if key in _UNSET:
            spec[key] = _UNSET[key]
        elif isinstance(value, (bool, int, float, str)):
            spec[key] = value
    return spec


def _game_type(name: str, probe: Game, max_players: int) -> Any:
    teams = [probe.team(p) for p in range(probe.num_players)]
    two_sides = len(set(teams)) == 2 and teams.count(teams[0]) * 2 == len(teams)
    return pyspiel.GameType(
        short_name=game_name(name),
        long_name=f"kingdoms {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if two_sides else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


def _checked_parameters(name: str, params: dict[str, Any]) -> tuple[dict[str, Any], int, Game]:
    """The rules options, deal seed and a game under those options of OpenSpiel parameters
    ``params`` of game ``name``, every one checked: a bad one is a
    :class:`kingdoms.RulesOptionError` naming it."""
    where = game_name(name)
    spec = _parameters(name)
    unknown = sorted(set(params) - set(spec))
    if unknown:
        raise RulesOptionError(
            f"{where}: unknown game parameter(s) {unknown}; known: {sorted(spec)}"
        )
    seed = params.get("seed", 0)
    # OpenSpiel holds an integer parameter in a C++ int.
    if type(seed) is not int or not 0 <= seed < 2**31:
        raise RulesOptionError(
            f"{where}: seed must be an integer from 0 to 2**31 - 1, not {seed!r:.60}"
        )
    options_text = params.get("options", "{}")
    if not isinstance(options_text, str):
        raise RulesOptionError(
            f"{where}: options must be a JSON object text, not {type(options_text).__name__}"
        )
    options = parse_json(options_text, f"{where}: options", RulesOptionError)
    if not isinstance(options, dict):
        raise RulesOptionError(f"{where}: options must be a JSON object text")
    # OpenSpiel fills in every default: only values that differ are choices.
    for key, value in params.items():
        if key in ("seed", "options") or value == spec[key]:
            continue
        if key in options:
            raise RulesOptionError(
                f"{where}: {key!r} given both as a game parameter and in options"
            )
        options[key] = value
    try:
        probe = new_game(name, seed=0, **options)
    except KingdomsError as e:  # a bad option's RulesOptionError, named as a parameter
        raise type(e)(f"{where}: {e}") from None
    return options, seed, probe


class KingdomsGame(pyspiel.Game):  # type: ignore[misc]
    """A kingdoms game as seen by OpenSpiel (one subclass per game name, see below)."""

    name: str = ""
    max_players: int = 2
    options: dict[str, Any]
    observation_shape: list[int]
    seeds: npt.NDArray[np.int64]
    _base: tuple[Any, Any, dict[str, Any]]

    # Everything is checked and built in __new__, before an object exists: a Python object
    # whose C++ base was never initialised (its __init__ raised first) crashed the
    # interpreter when printed (std::bad_alloc, then a segfault), e.g. from a traceback.
    def __new__(cls, params: dict[str, Any] | None = None) -> Self:
        params = dict(params or {})
        options, seed, probe = _checked_parameters(cls.name, params)
        game_type = _game_type(cls.name, probe, cls.max_players)
        zero_sum = game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_actions,
            max_chance_outcomes=DEALS,
            num_players=probe.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        self: Self = super().__new__(cls)
        self._base = (game_type, info, params)
        self.options = options
        self.observation_shape = list(probe.observation_shape)
        self.seeds = np.random.default_rng(seed).integers(0, 2**63, DEALS)
        return self

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        # The parameters __new__ checked (``params`` is the same).
        super().__init__(*self._base)

    def new_initial_state(self) -> KingdomsState:
        return KingdomsState(self)

    def deal(self, outcome: int) -> Game:
        """The game dealt by chance outcome ``outcome`` (0 <= outcome < DEALS)."""
        return new_game(self.name, seed=int(self.seeds[outcome]), **self.options)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.observation_shape, self.num_distinct_actions() if recall else 0)


class KingdomsState(pyspiel.State):  # type: ignore[misc]
    """One position: a :class:`kingdoms.Game` (None before the deal) plus the moves played.

    Two states are equal when they hold the same game state and the same moves."""

    def __init__(self, game: KingdomsGame, inner: Game | None = None) -> None:
        super().__init__(game)
        self.inner = inner
        # (player, action id, notation) of every move played, for the information states.
        self.moves: list[tuple[int, int, str]] = []

    def _game(self) -> Game:
        if self.inner is None:
            raise pyspiel.SpielError("the chance node (the deal) has no game state yet")
        return self.inner

    def current_player(self) -> int:
        if self.inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        p = self.inner.current_player
        return int(pyspiel.PlayerId.TERMINAL) if p is None else p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.inner is not None:
            return []
        return [(i, 1.0 / DEALS) for i in range(DEALS)]

    def _legal_actions(self, player: int) -> list[int]:
        if self.inner is None or player != self.inner.current_player:
            return []
        return [int(a) for a in self.inner.legal_action_ids()]

    def _apply_action(self, action: int) -> None:
        if self.inner is None:
            self.inner = self.get_game().deal(action)
            return
        mover = self.current_player()
        text = self._action_to_string(mover, action)
        self.inner.apply_id(action)
        self.moves.append((mover, action, text))

    def _action_to_string(self, player: int, action: int) -> str:
        if self.inner is None:
            return f"deal {action}"
        return str(self.inner.id_to_action(action))

    def is_terminal(self) -> bool:
        return self.inner is not None and bool(self.inner.is_terminal)

    def returns(self) -> list[float]:
        if self.inner is None:
            return [0.0] * self.get_game().num_players()
        return [float(r) for r in self.inner.returns()]

    def information_state_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        view = json.dumps(self._game().view(p), sort_keys=True, separators=(",", ":"))
        return view + "|" + ";".join(text for q, _, text in self.moves if q == p)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        p = self.current_player() if player is None else player
        counts = np.zeros(self.get_game().num_distinct_actions(), np.float32)
        for q, action, _ in self.moves:
            counts[action] += q == p
        return [*self.observation_tensor(p), *counts.tolist()]

    def observation_string(self, player: int | None = None) -> str:
        p = self.current_player() if player is None else player
        return str(self._game().render(p))

    def observation_tensor(self, player: int | None = None) -> list[float]:
        p = self.current_player() if player is None else player
        return [float(x) for x in self._game().observation_tensor(p).ravel()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KingdomsState:
        """A state ``player_id`` cannot tell from this one, hidden cards and future chance
        redrawn (the seed comes from ``probability_sampler``)."""
        seed = int(probability_sampler() * 2**53)
        out: KingdomsState = self.clone()  # OpenSpiel's clone: history and moves copied
        out.inner = self._game().resample_hidden(player_id, seed)
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KingdomsState):
            return NotImplemented
        return (
            str(self.get_game()) == str(other.get_game())
            and self.inner == other.inner
            and self.moves == other.moves
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like OpenSpiel's states

    def __str__(self) -> str:
        return "(the deal)" if self.inner is None else str(self.inner.render())


class _Observer:
    """OpenSpiel's PyObserver: the game's observation tensor (followed, for the perfect
    recall information state, by ``p``'s action counts), and its text."""

    def __init__(self, shape: list[int], num_actions: int) -> None:
        self.recall = num_actions > 0
        size = int(np.prod(shape))
        self.tensor = np.zeros(size + num_actions, np.float32)
        self.dict = {"observation": self.tensor[:size].reshape(shape)}
        if self.recall:
            self.dict["own_actions"] = self.tensor[size:]

    def set_from(self, state: KingdomsState, player: int) -> None:
        if state.inner is None:
            self.tensor[:] = 0.0
        elif self.recall:
            self.tensor[:] = state.information_state_tensor(player)
        else:
            self.tensor[:] = state.inner.observation_tensor(player).ravel()

    def string_from(self, state: KingdomsState, player: int) -> str:
        if state.inner is None:
            return ""
        if self.recall:
            return state.information_state_string(player)
        return str(state.inner.render(player))


def _register() -> None:
    for name in games():
        probe = new_game(name, seed=0)
        max_players = 4 if "players" in probe.options else probe.num_players
        cls = type(f"Kingdoms_{name}", (KingdomsGame,), {"name": name, "max_players": max_players})
        pyspiel.register_game(_game_type(name, probe, max_players), cls)


_register()
