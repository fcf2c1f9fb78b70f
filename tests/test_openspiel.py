"""kingdoms.openspiel: every game registered with OpenSpiel passes OpenSpiel's own checks
and runs its algorithms (OpenSpiel has wheels for Python 3.11 and later only)."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("name", GAMES)
def test_registered_with_the_right_game_type(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    probe = kingdoms.new_game(name, seed=0)
    assert game.num_distinct_actions() == probe.num_actions
    assert game.num_players() == probe.num_players
    assert game.observation_tensor_shape() == probe.observation_shape


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulation_checks_pass(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name), {"seed": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_ismcts_plays_a_whole_game(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 5, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", GAMES)
def test_resampling_keeps_the_information_state_and_hides_the_rest(name: str) -> None:
    game = pyspiel.load_game(ko.game_name(name))
    state = game.new_initial_state()
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
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
    # Something hidden from p differs in some redraw (cards in hands and decks).
    assert any(str(o) != str(state) for o in redrawn)
    # p's information state names only p's own moves: no text of the opponent's.
    mine = state.information_state_string(p).rsplit("|", 1)[1]
    assert mine.split(";") == [t for q, t in state.moves if q == p] or mine == ""


def test_clones_are_independent_and_initial_states_follow_the_seed() -> None:
    name = GAMES[0]
    a = pyspiel.load_game(ko.game_name(name), {"seed": 4}).new_initial_state()
    b = pyspiel.load_game(ko.game_name(name), {"seed": 4}).new_initial_state()
    assert str(a) == str(b)
    c = a.clone()
    c.apply_action(c.legal_actions()[0])
    assert str(a) == str(b) != str(c)


def test_rules_options_travel_as_json() -> None:
    game = pyspiel.load_game(
        ko.game_name("battleline"), {"options": json.dumps({"traitor_troops_only": True})}
    )
    assert game.new_initial_state().inner.options["traitor_troops_only"] is True
    with pytest.raises(kingdoms.RulesOptionError):
        pyspiel.load_game(ko.game_name("battleline"), {"options": '{"nope": 1}'})
    with pytest.raises(ValueError, match="JSON"):
        pyspiel.load_game(ko.game_name("battleline"), {"options": "{"})
