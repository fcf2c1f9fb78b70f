"""kingdoms.openspiel: every game (and every Zinordia mode) registered with OpenSpiel passes
OpenSpiel's own checks, serialises, and runs its algorithms (OpenSpiel has wheels for Python
3.11 and later only)."""

from __future__ import annotations

import json
import pickle
import sys

import kingdoms
import numpy as np
import pytest

if sys.version_info < (3, 11):
    pytest.skip("OpenSpiel needs Python 3.11 or later", allow_module_level=True)

import kingdoms.openspiel as ko
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

GAMES = kingdoms.games()
# Every game, and every mode (and player count) of Zinordia's reference content.
VARIANTS = [(name, {}) for name in GAMES] + [
    ("zinordia", {"mode": "free_for_all", "players": 3}),
    ("zinordia", {"mode": "free_for_all", "players": 4}),
    ("zinordia", {"mode": "teams"}),
]
IDS = [name + "".join(f"-{v}" for v in params.values()) for name, params in VARIANTS]


def _dealt(game: pyspiel.Game, outcome: int = 0) -> pyspiel.State:
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == ko.DEALS
    state.apply_action(outcome)
    return state


def _random_game(game: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = _dealt(game, int(rng.integers(ko.DEALS)))
    while not state.is_terminal():
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_registered_with_the_right_game_type(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.provides_information_state_tensor
    probe = kingdoms.new_game(name, seed=0)
    assert game.num_distinct_actions() == probe.num_actions
    assert game.num_players() == probe.num_players
    assert game.max_chance_outcomes() == ko.DEALS
    assert game.observation_tensor_shape() == probe.observation_shape
    shape = game.information_state_tensor_shape()
    assert shape == [int(np.prod(probe.observation_shape)) + probe.num_actions]


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_openspiel_random_simulation_checks_pass_with_serialisation(
    name: str, params: dict[str, object]
) -> None:
    game = pyspiel.load_game(ko.game_name(name), {"seed": 3, **params})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_declared_utility_matches_the_returns_of_random_games(
    name: str, params: dict[str, object]
) -> None:
    game = pyspiel.load_game(ko.game_name(name), params)
    sums = {sum(_random_game(game, seed).returns()) for seed in range(12)}
    utility = game.get_type().utility
    if params.get("mode") == "free_for_all":
        # +1 for the winner, -1 for each loser: the sum depends on the game.
        assert utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert game.utility_sum() is None
        assert sums - {0.0}, sums
    else:
        assert utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.utility_sum() == 0.0
        assert sums == {0.0}


@pytest.mark.parametrize(("name", "params"), VARIANTS, ids=IDS)
def test_states_pickle_serialise_and_clone_equal(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(ko.game_name(name), {"seed": 5, **params})
    state = _dealt(game, 17)
    rng = np.random.default_rng(0)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    assert clone == state and clone.history() == state.history()
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back.history() == state.history()
    g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(g2) == str(game) and s2 == state
    # The same future: both play the same continuation to the same end.
    for s in (state, back, s2):
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[len(s.legal_actions()) // 2])
    assert back == state == s2 and back.returns() == state.returns()
    clone.apply_action(clone.legal_actions()[0]) if not clone.is_terminal() else None
    assert clone != state


def test_the_deal_follows_the_seed_parameter_and_the_outcome() -> None:
    name = GAMES[0]
    a = _dealt(pyspiel.load_game(ko.game_name(name), {"seed": 4}), 9)
    b = _dealt(pyspiel.load_game(ko.game_name(name), {"seed": 4}), 9)
    assert a == b
    assert str(_dealt(pyspiel.load_game(ko.game_name(name), {"seed": 4}), 10)) != str(a)
    assert str(_dealt(pyspiel.load_game(ko.game_name(name), {"seed": 5}), 9)) != str(a)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_plays_a_whole_game(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 5, random_state=rng)
    state = _dealt(game)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", GAMES)
def test_resampling_keeps_the_information_state_and_hides_the_rest(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    state = _dealt(game)
    rng = np.random.default_rng(1)
    # Zinordia hides only the secret selection (and the dice): stop while player 0's three
    # picks are still hidden from player 1.
    for _ in range(3 if name == "zinordia" else 12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    p = state.current_player()
    redrawn = [state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))]
    redrawn.append(state.resample_from_infostate(p, lambda: 0.25))
    for other in redrawn:
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        assert other.history() == state.history()
    # Something hidden from p differs in some redraw (cards in hands and decks).
    assert any(str(o) != str(state) for o in redrawn)
    # p's information state names only p's own moves: no text of the opponent's.
    mine = state.information_state_string(p).rsplit("|", 1)[1]
    assert mine.split(";") == [t for q, _, t in state.moves if q == p] or mine == ""


def test_the_information_state_tensor_counts_the_players_own_actions() -> None:
    game = pyspiel.load_game(ko.game_name("battleline"))
    state = _dealt(game)
    size = int(np.prod(game.observation_tensor_shape()))
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    for p in (0, 1):
        tensor = np.array(state.information_state_tensor(p))
        assert list(tensor[:size]) == state.observation_tensor(p)
        counts = np.zeros(game.num_distinct_actions())
        for q, action, _ in state.moves:
            counts[action] += q == p
        assert (tensor[size:] == counts).all() and counts.sum() == (3 if p == 0 else 2)


def test_rules_options_are_game_parameters() -> None:
    bl = ko.game_name("battleline")
    game = pyspiel.load_game(bl, {"traitor_troops_only": True})
    assert _dealt(game).inner.options["traitor_troops_only"] is True
    assert "traitor_troops_only" in game.get_type().parameter_specification
    zin = pyspiel.load_game(f"{ko.game_name('zinordia')}(mode=free_for_all,players=4)")
    assert zin.num_players() == 4 and _dealt(zin).inner.options["mode"] == "free_for_all"
    with pytest.raises(kingdoms.RulesOptionError):
        pyspiel.load_game(ko.game_name("zinordia"), {"mode": "nope"})
    with pytest.raises((pyspiel.SpielError, kingdoms.RulesOptionError), match="nope"):
        pyspiel.load_game(bl, {"nope": 1})


def test_rules_options_still_travel_as_json() -> None:
    bl = ko.game_name("battleline")
    game = pyspiel.load_game(bl, {"options": json.dumps({"traitor_troops_only": True})})
    assert _dealt(game).inner.options["traitor_troops_only"] is True
    with pytest.raises(kingdoms.RulesOptionError):
        pyspiel.load_game(bl, {"options": '{"nope": 1}'})
    with pytest.raises(ValueError, match="JSON"):
        pyspiel.load_game(bl, {"options": "{"})
    with pytest.raises(ValueError, match="both"):
        pyspiel.load_game(
            bl, {"traitor_troops_only": True, "options": '{"traitor_troops_only": false}'}
        )


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"seed": -1}, "seed must be an integer"),
        ({"seed": 2**40}, "seed must be an integer"),
        ({"options": 5}, "options must be a JSON object text, not int"),
        ({"options": "[" * 100_000}, "options is nested too deeply"),
        ({"options": "[1]"}, "options must be a JSON object text"),
        ({"options": '{"nope": 1}'}, "nope"),
        ({"nope": 1}, "unknown game parameter"),
    ],
)
def test_a_bad_parameter_raises_before_any_game_object_exists(
    params: dict[str, object], match: str
) -> None:
    """A KingdomsGame whose C++ base was never initialised (its __init__ raised first)
    crashed the interpreter when printed (std::bad_alloc, then a segfault): a bad parameter
    is a RulesOptionError raised before the object is made, so none is left half-built."""
    base = type(pyspiel.load_game(ko.game_name("battleline")))
    made: list[object] = []

    class Kept(base):  # type: ignore[misc, valid-type]
        def __init__(self, params: dict[str, object] | None = None) -> None:
            made.append(self)  # what a traceback's frame would keep
            super().__init__(params)

    with pytest.raises(kingdoms.RulesOptionError, match=match) as err:
        Kept(params)
    assert ko.game_name("battleline") in str(err.value) and len(str(err.value)) < 500
    assert made == []
    good = Kept({"seed": 7})
    assert made == [good] and str(good) == f"{ko.game_name('battleline')}(seed=7)"
    assert good.num_players() == 2 and len(good.seeds) == ko.DEALS


def test_undo_action_is_refused_and_changes_nothing() -> None:
    # OpenSpiel's Python games cannot implement undo_action: the C++ trampoline for Python
    # states (open_spiel/python/pybind11/python_games.h, PyState) does not forward
    # UndoAction, and an implementation must pop State::history_ and decrement
    # move_number_ (spiel.h), protected C++ members that pyspiel exposes to Python only
    # for reading (history(), move_number()). docs/rl.md says so; clone() or child() is
    # the way back, and it is exact.
    game = pyspiel.load_game(ko.game_name("battleline"), {"seed": 3})
    state = _dealt(game)
    before = state.clone()
    player, action = state.current_player(), state.legal_actions()[0]
    state.apply_action(action)
    after = state.clone()
    with pytest.raises(pyspiel.SpielError, match="UndoAction function is not overridden"):
        state.undo_action(player, action)
    assert state == after and state.history() == after.history()
    assert before.child(action) == after and before.history() == after.history()[:-1]
