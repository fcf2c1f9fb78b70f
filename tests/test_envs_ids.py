"""Gymnasium ids and PettingZoo modules (kingdoms.envs.registration), the "human" render
mode, and float actions refused by every environment."""

from __future__ import annotations

import importlib
import subprocess
import sys

import gymnasium
import kingdoms
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from kingdoms.envs import GYM_IDS, BatchVectorEnv, KingdomsAEC, SingleAgentEnv
from kingdoms.envs.vector import BatchVectorEnv as Vector
from pettingzoo.test import api_test, render_test

pytestmark = pytest.mark.filterwarnings("ignore:.*(spec|render fps|is not within).*")

GAMES = kingdoms.games()


def test_every_two_player_game_and_mode_has_a_gym_id() -> None:
    assert {game for game, _ in GYM_IDS.values()} == set(GAMES)
    for game, options in GYM_IDS.values():
        assert kingdoms.new_game(game, seed=0, **options).num_players == 2


@pytest.mark.parametrize("env_id", list(GYM_IDS))
def test_gym_make_builds_the_single_agent_env_and_it_passes_check_env(env_id: str) -> None:
    game, options = GYM_IDS[env_id]
    env = gymnasium.make(env_id, seat=None)
    inner = env.unwrapped
    assert isinstance(inner, SingleAgentEnv) and inner.game_name == game
    assert all(inner.game.options[k] == v for k, v in options.items())
    check_env(inner)
    obs, info = env.reset(seed=2)
    assert obs.shape == inner.observation_space.shape and info["action_mask"].any()
    vec = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(vec, Vector) and vec.num_envs == 3
    assert vec.reset(seed=0)[0].shape == (3, *inner.observation_space.shape)


def test_gym_ids_load_by_module_name_without_importing_kingdoms_first() -> None:
    code = (
        "import gymnasium; "
        "e = gymnasium.make('kingdoms.envs:kingdoms/BattleLine-v0'); "
        "print(e.unwrapped.game_name)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "battleline"


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_modules_follow_the_conventions(name: str) -> None:
    module = importlib.import_module(f"kingdoms.envs.{name}_v0")
    assert isinstance(module.raw_env(), KingdomsAEC)
    env = module.env()
    assert isinstance(env.unwrapped, KingdomsAEC) and env is not env.unwrapped
    assert env.unwrapped.game.name == name
    api_test(module.env(), num_cycles=30)
    render_test(module.env)


@pytest.mark.parametrize(
    "options", [{"mode": "free_for_all", "players": 3}, {"mode": "teams"}], ids=str
)
def test_zinordia_multiplayer_modes_pass_pettingzoo_api_test(options: dict[str, object]) -> None:
    from kingdoms.envs import zinordia_v0

    env = zinordia_v0.env(**options)
    assert len(env.possible_agents) in (3, 4)
    api_test(env, num_cycles=30)


def test_human_render_mode_prints_the_text_and_returns_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = SingleAgentEnv(GAMES[0], render_mode="human")
    env.reset(seed=1)
    shown = capsys.readouterr().out
    assert shown.strip() == str(env.game.render(0)).strip()
    assert env.render() is None
    assert capsys.readouterr().out.strip() == shown.strip()
    aec = kingdoms.envs.aec_env(GAMES[0], render_mode="human")
    aec.reset(seed=1)
    aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    assert "Battle Line" in capsys.readouterr().out


@pytest.mark.parametrize("bad", [1.0, np.float32(3.0), np.array(2.0), True, "3"], ids=repr)
def test_float_and_other_non_int_actions_are_refused_not_truncated(bad: object) -> None:
    single = SingleAgentEnv(GAMES[0])
    single.reset(seed=0)
    before = single.game.to_json()
    with pytest.raises(TypeError, match="int id"):
        single.step(bad)
    assert single.game.to_json() == before
    raw = KingdomsAEC(GAMES[0])
    raw.reset(seed=0)
    with pytest.raises(TypeError, match="int id"):
        raw.step(bad)
    wrapped = kingdoms.envs.aec_env(GAMES[0])
    wrapped.reset(seed=0)
    with pytest.raises((TypeError, AssertionError)):
        wrapped.step(bad)


def test_integer_actions_of_every_kind_are_taken() -> None:
    env = SingleAgentEnv(GAMES[0], seat=0)
    _, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for kind in (int, np.int64, np.int32, np.array):
        env.reset(seed=0)
        env.step(kind(legal))


def test_the_vector_env_refuses_float_actions() -> None:
    envs = BatchVectorEnv(GAMES[0], 2, seed=0)
    _, infos = envs.reset(seed=0)
    ids = np.argmax(infos["action_mask"], 1)
    with pytest.raises(TypeError, match="integer ids"):
        envs.step(ids.astype(np.float64))
    envs.step(ids)  # the float attempt changed nothing: the same ids are still legal


def test_illegal_action_behaves_the_same_in_the_single_and_vector_envs() -> None:
    vec = BatchVectorEnv(GAMES[0], 3, seed=4)
    obs, infos = vec.reset(seed=4)
    mask = infos["action_mask"]
    ids = np.argmax(mask, 1)
    ids[0] = int(np.flatnonzero(~mask[0])[0])  # game 0: an illegal id
    _, rewards, terminations, _, step_infos = vec.step(ids)
    single = SingleAgentEnv(GAMES[0], illegal_action="lose")
    _, info = single.reset(seed=0)
    _, reward, terminated, _, info = single.step(int(np.flatnonzero(~info["action_mask"])[0]))
    # the same outcome in both: a loss for the mover, the episode over, flagged
    assert (rewards[0], terminations[0]) == (reward, terminated) == (-1.0, True)
    assert info["illegal_action"] and list(step_infos["illegal_action"]) == [True, False, False]
    assert (step_infos["final_obs"][0] == obs[0]).all()  # the game as it was, mover's view
    assert list(step_infos["returns"][0]) == [-1.0, 0.0] and not terminations[1:].any()
    assert vec.batch.episodes == 1
    # "raise": refused, nothing played, in both
    strict = BatchVectorEnv(GAMES[0], 3, seed=4, illegal_action="raise")
    strict.reset(seed=4)
    with pytest.raises(kingdoms.IllegalActionError):
        strict.step(ids)
    assert strict.batch.episodes == 0
    with pytest.raises(ValueError, match="from 0 to"):
        vec.step(np.full(3, vec.batch.num_actions))
    with pytest.raises(ValueError, match="illegal_action"):
        BatchVectorEnv(GAMES[0], 2, illegal_action="ignore")  # type: ignore[arg-type]
