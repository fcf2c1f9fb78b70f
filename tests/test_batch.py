"""kingdoms.batch: many games stepped together, for every game in `kingdoms.games()`."""

from __future__ import annotations

import kingdoms
import numpy as np
import numpy.typing as npt
import pytest
from kingdoms.agents import Greedy, Random
from kingdoms.batch import Batch

GAMES = kingdoms.games()
pytestmark = pytest.mark.skipif(not GAMES, reason="no games registered")


def random_actions(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly chosen legal id per row of `mask`."""
    noise = rng.random(mask.shape) * mask
    return np.argmax(noise, axis=1).astype(np.int64)


@pytest.mark.parametrize("name", GAMES)
def test_shapes_dtypes_and_agreement_with_the_games(name: str) -> None:
    env = Batch(name, 5, seed=1)
    g0 = env.game(0)
    assert (len(env), env.num_actions, env.num_players) == (5, g0.num_actions, g0.num_players)
    assert env.observation_shape == g0.observation_shape
    obs, mask, player = env.reset()
    assert obs.shape == (5, *g0.observation_shape) and obs.dtype == np.float32
    assert mask.shape == (5, g0.num_actions) and mask.dtype == np.bool_
    assert player.shape == (5,) and player.dtype == np.int64
    rng = np.random.default_rng(0)
    for _ in range(3):
        for i in range(5):
            g = env.game(i)
            assert player[i] == g.current_player
            np.testing.assert_array_equal(mask[i], g.action_mask())
            np.testing.assert_array_equal(obs[i], g.observation_tensor())
        step = env.step(random_actions(mask, rng))
        obs, mask, player = step.obs, step.mask, step.player
        assert step.rewards.shape == (5, env.num_players) and step.rewards.dtype == np.float32
        assert step.dones.shape == (5,) and step.dones.dtype == np.bool_
    cur = env.observe()
    np.testing.assert_array_equal(cur.obs, obs)
    np.testing.assert_array_equal(cur.mask, mask)


@pytest.mark.parametrize("name", GAMES)
def test_games_restart_when_they_end_and_report_their_returns(name: str) -> None:
    env = Batch(name, 8, seed=2)
    mask = env.reset().mask
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(2000):
        actions = random_actions(mask, rng)
        expected = []
        for i in range(8):
            g = env.game(i)
            g.apply_id(int(actions[i]))
            expected.append(g)
        step = env.step(actions)
        for i in range(8):
            g = expected[i]
            assert step.dones[i] == g.is_terminal
            if g.is_terminal:
                np.testing.assert_allclose(step.rewards[i], g.returns())
                fresh = env.game(i)
                assert not fresh.is_terminal and fresh.record().actions == []
                assert fresh.seed != g.seed
                finished += 1
            else:
                assert not step.rewards[i].any()
        _obs, mask, _player = step.obs, step.mask, step.player
        if finished >= 10:
            break
    assert finished >= 10
    assert env.episodes == finished


@pytest.mark.parametrize("name", GAMES)
def test_batches_are_seeded_and_thread_count_independent(name: str) -> None:
    def run(seed: int, threads: int | None) -> list[np.ndarray]:
        env = Batch(name, 200, seed=seed, threads=threads)  # large enough to go parallel
        _obs, mask, _ = env.reset()
        rng = np.random.default_rng(5)
        out: list[np.ndarray] = []
        for _ in range(30):
            step = env.step(random_actions(mask, rng))
            mask = step.mask
            out += [step.obs, step.mask, step.player, step.rewards, step.dones]
        return out

    a, b, c = run(7, 1), run(7, 2), run(8, 2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = Batch(GAMES[0], 4, seed=3)
    obs, mask, _ = env.reset()
    before = [env.game(i).to_json() for i in range(4)]
    actions = np.argmax(mask, axis=1)
    actions[2] = int(np.flatnonzero(~mask[2])[0])
    with pytest.raises(kingdoms.IllegalActionError, match="batch game 2"):
        env.step(actions)
    with pytest.raises(kingdoms.IllegalActionError):
        env.step(np.full(4, -1))
    with pytest.raises(kingdoms.KingdomsError, match="expected 4 actions"):
        env.step(actions[:3])
    assert [env.game(i).to_json() for i in range(4)] == before
    np.testing.assert_array_equal(env.observe().obs, obs)


def test_an_opponent_plays_inside_the_batch() -> None:
    name = GAMES[0]
    env = Batch(name, 6, seed=4, opponent=Greedy())
    _obs, mask, player = env.reset()
    np.testing.assert_array_equal(env.learner_seats(), [0, 1, 0, 1, 0, 1])
    rng = np.random.default_rng(2)
    for _ in range(300):
        np.testing.assert_array_equal(player, env.learner_seats())
        step = env.step(random_actions(mask, rng))
        mask, player = step.mask, step.player
    assert env.episodes > 0
    fixed = Batch(name, 3, seed=4, opponent=Random(), seat=1)
    assert (fixed.reset().player == 1).all()
    with pytest.raises(TypeError, match="Rust agent"):
        Batch(name, 2, opponent=object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="opponent"):
        Batch(name, 2, seat=0)
    with pytest.raises(kingdoms.KingdomsError):
        Batch(name, 0)
