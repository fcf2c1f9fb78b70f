"""kingdoms.envs: PettingZoo AEC, Gymnasium single-agent and vector environments, and the
observation bounds, for every game in `kingdoms.games()`."""

from __future__ import annotations

import warnings

import kingdoms
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from kingdoms._games import drawer, game_module
from kingdoms.agents import Greedy, Random
from kingdoms.batch import Batch
from kingdoms.envs import (
    BatchVectorEnv,
    SingleAgentEnv,
    aec_env,
    observation_bounds,
)
from kingdoms.envs.render import rasterise
from pettingzoo.test import api_test, seed_test

GAMES = kingdoms.games()


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(name: str) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns that dict observations are not Box/Discrete, as it does for its
        # own classic games, which use the same action-mask convention.
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(name), num_cycles=300)
        seed_test(lambda: aec_env(name), num_cycles=300)


@pytest.mark.parametrize("name", GAMES)
def test_aec_plays_whole_games_with_masks_and_final_rewards(name: str) -> None:
    env = aec_env(name, render_mode="ansi")
    env.reset(seed=4)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        total[agent] += reward
        assert env.observation_space(agent).contains(obs)
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        if term or trunc:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert agent == f"player_{game.current_player}"
        np.testing.assert_array_equal(obs["action_mask"], game.action_mask().astype(np.int8))
        np.testing.assert_array_equal(
            obs["observation"], game.observation_tensor(game.current_player)
        )
        # The picture shows only what the agent to move may see.
        assert env.render() == game.render(game.current_player)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    returns = env.unwrapped.game.returns()
    assert [total[a] for a in env.possible_agents] == returns


def test_aec_rejects_an_illegal_action_and_keeps_the_game() -> None:
    env = aec_env(GAMES[0])
    env.reset(seed=1)
    obs, *_ = env.last()
    before = env.unwrapped.game.to_json()
    with pytest.raises(kingdoms.IllegalActionError):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert env.unwrapped.game.to_json() == before
    with pytest.raises(ValueError, match="render_mode"):
        aec_env(GAMES[0], render_mode="rgb")


def test_aec_spectator_render_shows_the_whole_state() -> None:
    env = aec_env(GAMES[0], render_mode="ansi", spectator=True)
    env.reset(seed=3)
    assert env.render() == env.unwrapped.game.render()
    silent = aec_env(GAMES[0])
    silent.reset(seed=3)
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


PICTURED = [n for n in GAMES if drawer(n) is not None]


@pytest.mark.parametrize("name", PICTURED)
def test_svg_render_shows_only_the_viewers_view(name: str) -> None:
    """AEC: the agent to move's picture (spectator: the whole state); single-agent: the
    learner's. A player's picture is the same whatever hidden state its view allows."""
    env = aec_env(name, render_mode="svg")
    whole = aec_env(name, render_mode="svg", spectator=True)
    single = SingleAgentEnv(name, opponent=Greedy(), seat=1, render_mode="svg")
    env.reset(seed=6)
    whole.reset(seed=6)
    single.reset(seed=6)
    rng = np.random.default_rng(1)
    for _ in range(12):
        obs, *_ = env.last()
        game = env.unwrapped.game
        if game.is_terminal:
            break
        p = game.current_player
        picture = env.render()
        assert picture.startswith(("<svg", "<?xml"))
        assert picture == game.svg(p)
        for s in range(3):
            assert game.resample_hidden(p, s).svg(p) == picture
        assert whole.render() == game.svg()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        whole.step(action)
    learner = single.render()
    assert learner == single.game.svg(1)
    for s in range(3):
        assert single.game.resample_hidden(1, s).svg(1) == learner


@pytest.mark.filterwarnings("ignore:.*(spec|render fps).*")
@pytest.mark.parametrize("name", PICTURED)
def test_svg_render_mode_passes_the_checkers(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(aec_env(name, render_mode="svg"), num_cycles=50)
    check_env(SingleAgentEnv(name, opponent=Random(), seat=None, render_mode="svg"))


@pytest.mark.filterwarnings("ignore:.*(spec|render fps).*")
@pytest.mark.parametrize("name", PICTURED)
def test_rgb_array_render_is_the_viewers_picture_in_pixels(name: str) -> None:
    """`rgb_array` rasterises the SVG of the same view: an opaque (H, W, 3) uint8 picture,
    identical on every determinization of the viewer's view, and accepted by the checkers."""
    env = aec_env(name, render_mode="rgb_array")
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(3):
        obs, *_ = env.last()
        game = env.unwrapped.game
        p = game.current_player
        pixels = env.render()
        assert isinstance(pixels, np.ndarray)
        assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
        assert pixels.shape[0] > 50 and pixels.shape[1] > 50
        assert len(np.unique(pixels.reshape(-1, 3), axis=0)) > 2  # something is drawn
        for s in range(2):
            assert np.array_equal(rasterise(game.resample_hidden(p, s).svg(p)), pixels)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    single = SingleAgentEnv(name, opponent=Random(), seat=None, render_mode="rgb_array")
    check_env(single)


def test_svg_render_mode_is_refused_for_a_game_without_a_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = GAMES[0]
    monkeypatch.delattr(game_module(name), "DRAW")  # as for a game whose picture is not written yet
    with pytest.raises(ValueError, match="no picture"):
        aec_env(name, render_mode="svg")
    with pytest.raises(ValueError, match="no picture"):
        SingleAgentEnv(name, render_mode="svg")
    with pytest.raises(ValueError, match="no picture"):
        aec_env(name, render_mode="rgb_array")


def test_render_modes_are_declared() -> None:
    modes = ["ansi", "human", "svg", "rgb_array"]
    assert aec_env(GAMES[0]).metadata["render_modes"] == modes
    assert SingleAgentEnv.metadata["render_modes"] == modes
    with pytest.raises(ValueError, match="render_mode"):
        SingleAgentEnv(GAMES[0], render_mode="humane")


def test_rgb_array_without_its_packages_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "resvg_py", None)  # as if not installed
    with pytest.raises(ImportError, match=r"kingdoms\[rl\]"):
        aec_env(GAMES[0], render_mode="rgb_array")


def test_aec_reset_without_seed_continues_a_seeded_stream() -> None:
    a, b = aec_env(GAMES[0]), aec_env(GAMES[0])
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert a.unwrapped.game.to_json() == b.unwrapped.game.to_json()
    first = a.unwrapped.game.to_json()
    a.reset()
    assert a.unwrapped.game.to_json() != first


@pytest.mark.filterwarnings("ignore:.*(spec|render fps).*")
@pytest.mark.parametrize("name", GAMES)
def test_single_agent_env_passes_check_env(name: str) -> None:
    check_env(SingleAgentEnv(name, opponent=Greedy(), seat=1))
    check_env(SingleAgentEnv(name, opponent=Random(), seat=None, render_mode="ansi"))


@pytest.mark.parametrize("name", GAMES)
def test_single_agent_env_plays_the_learner_seat_against_the_opponent(name: str) -> None:
    env = SingleAgentEnv(name, opponent=Greedy(), seat=None)
    rng = np.random.default_rng(0)
    for episode in range(2):
        obs, info = env.reset(seed=10 + episode) if episode == 0 else env.reset()
        assert info["learner"] == episode % 2
        done, reward = False, 0.0
        while not done:
            assert env.game.current_player == env.learner
            np.testing.assert_array_equal(obs, env.game.observation_tensor(env.learner))
            action = rng.choice(np.flatnonzero(env.action_masks()))
            obs, reward, done, trunc, info = env.step(action)
            assert not trunc
        assert reward == env.game.returns()[env.learner]
        with pytest.raises(RuntimeError, match="reset"):
            env.step(0)


def test_single_agent_env_illegal_action_loses_or_raises() -> None:
    env = SingleAgentEnv(GAMES[0], illegal_action="lose")
    _, info = env.reset(seed=2)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.game.to_json()
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.game.to_json() == before
    strict = SingleAgentEnv(GAMES[0], illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(kingdoms.IllegalActionError):
        strict.step(bad)
    with pytest.raises(ValueError, match="out of range"):
        strict.step(strict.action_space.n)
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv(GAMES[0], seat=2)


@pytest.mark.parametrize("name", GAMES)
def test_vector_env_same_step_autoreset_keeps_final_observations(name: str) -> None:
    envs = BatchVectorEnv(name, 6, seed=3)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=3)
    assert envs.observation_space.contains(obs)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(3000):
        mask = infos["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        games = [envs.batch.game(i) for i in range(6)]
        movers = infos["player"].copy()
        for g, a in zip(games, actions):
            g.apply_id(int(a))
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert not truncated.any()
        for i, g in enumerate(games):
            assert terminated[i] == g.is_terminal
            if g.is_terminal:
                ended += 1
                assert infos["_final_obs"][i]
                np.testing.assert_array_equal(
                    infos["final_obs"][i], g.observation_tensor(int(movers[i]))
                )
                assert rewards[i] == g.returns()[movers[i]]
                assert envs.single_observation_space.contains(infos["final_obs"][i])
            else:
                assert rewards[i] == 0
        if ended >= 6:
            break
    assert ended >= 6


def test_vector_env_copies_unless_told_and_seeds_like_batch() -> None:
    name = GAMES[0]
    fast = BatchVectorEnv(name, 4, seed=1, copy=False)
    _, infos = fast.reset(seed=1)
    acts = np.argmax(infos["action_mask"], axis=1)
    o1, *_ = fast.step(acts)
    o2, *_ = fast.step(np.argmax(_[-1]["action_mask"], axis=1))
    assert o1 is o2  # the same buffer, overwritten
    safe = BatchVectorEnv(name, 4, seed=1)
    s_obs, s_infos = safe.reset(seed=1)
    np.testing.assert_array_equal(s_obs, Batch(name, 4, seed=1).observe().obs)
    a1, *_ = safe.step(np.argmax(s_infos["action_mask"], axis=1))
    assert a1 is not safe.batch.buffers().obs
    with pytest.raises(TypeError, match="one int"):
        safe.reset(seed=[1, 2, 3, 4])


def test_vector_env_against_an_opponent_rewards_the_learner() -> None:
    envs = BatchVectorEnv(GAMES[0], 4, seed=2, opponent=Greedy())
    _, infos = envs.reset()
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(2000):
        seats = envs.batch.learner_seats()
        np.testing.assert_array_equal(infos["player"], seats)
        mask = infos["action_mask"]
        _, rewards, term, _, infos = envs.step(np.argmax(rng.random(mask.shape) * mask, 1))
        for i in np.flatnonzero(term):
            assert rewards[i] == infos["returns"][i, seats[i]] != 0 or rewards[i] == 0
            seen += 1
        if seen >= 4:
            break
    assert seen >= 4


@pytest.mark.parametrize("name", GAMES)
def test_observations_stay_within_the_documented_bounds(name: str) -> None:
    """Random games (and their final positions), for both players' observations."""
    g = kingdoms.new_game(name, seed=0)
    low, high = observation_bounds(g)
    assert low.shape == high.shape == tuple(g.observation_shape)
    assert (low <= high).all()
    env = Batch(name, 128, seed=11)
    obs, mask, _ = env.reset()
    lo, hi = obs.min(axis=0), obs.max(axis=0)
    rng = np.random.default_rng(12)
    for _ in range(1500):
        step = env.step(np.argmax(rng.random(mask.shape) * mask, axis=1))
        mask = step.mask
        lo = np.minimum(lo, step.obs.min(axis=0))
        hi = np.maximum(hi, step.obs.max(axis=0))
        if step.dones.any():
            lo = np.minimum(lo, step.final_obs[step.dones].min(axis=0))
            hi = np.maximum(hi, step.final_obs[step.dones].max(axis=0))
    assert env.episodes > 100
    below, above = np.argwhere(lo < low), np.argwhere(hi > high)
    assert not below.size, f"{name}: below the lower bound at {below[:5].tolist()}"
    assert not above.size, f"{name}: above the upper bound at {above[:5].tolist()}"
    # The findings are inside the space (Battle Line reaches 9/7, STRIFULL -0.4,
    # Arte da Guerra 2.0), and the bounds are not vacuous. Zinordia's entries are all
    # clamped to [0, 1] by design (docs/zinordia.md).
    assert hi.max() > 1 or lo.min() < 0 or (name == "zinordia" and hi.max() == 1)
    assert np.isfinite(low).all() and np.isfinite(high).all()


def test_observation_bounds_reject_what_is_not_a_game() -> None:
    class Fake:
        name = "chess"

    with pytest.raises(TypeError, match="chess"):
        observation_bounds(Fake())  # type: ignore[arg-type]


def test_vector_env_compact_observations_lie_in_their_uint8_space() -> None:
    """obs_dtype=np.uint8: a uint8 Box of the float bounds times the divisors, holding every
    observation and final observation, which decode to the float32 env's."""
    compact = BatchVectorEnv("battleline", 8, seed=5, obs_dtype=np.uint8)
    floats = BatchVectorEnv("battleline", 8, seed=5)
    space = compact.single_observation_space
    assert space.dtype == np.uint8
    assert space.shape == floats.single_observation_space.shape
    np.testing.assert_array_equal(
        compact.batch.decode(space.high), floats.single_observation_space.high
    )
    obs, infos = compact.reset(seed=5)
    f_obs, _ = floats.reset(seed=5)
    assert compact.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(400):
        mask = infos["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        obs, rewards, terminated, _, infos = compact.step(actions)
        f_obs, f_rewards, _, _, f_infos = floats.step(actions)
        assert compact.observation_space.contains(obs)
        np.testing.assert_array_equal(compact.batch.decode(obs), f_obs)
        np.testing.assert_array_equal(rewards, f_rewards)
        for i in np.flatnonzero(terminated):
            ended += 1
            assert space.contains(infos["final_obs"][i])
            np.testing.assert_array_equal(
                compact.batch.decode(infos["final_obs"][i]), f_infos["final_obs"][i]
            )
    assert ended >= 4


def test_the_vector_env_keeps_bool_masks() -> None:
    """Gymnasium's convention: infos["action_mask"] is bool; packed masks are Batch's."""
    with pytest.raises(TypeError, match="mask= is an option of kingdoms.batch.Batch"):
        BatchVectorEnv("battleline", 4, mask="bits")
    envs = BatchVectorEnv("battleline", 4, seed=0)
    _, infos = envs.reset(seed=0)
    assert infos["action_mask"].dtype == np.bool_ and infos["action_mask"].shape == (4, 1998)
