"""kingdoms.batch: many games stepped together, for every game in `kingdoms.games()`."""

from __future__ import annotations

import kingdoms
import numpy as np
import numpy.typing as npt
import pytest
from kingdoms.agents import Greedy, Random
from kingdoms.batch import Batch, random_legal_ids

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


@pytest.mark.parametrize("name", GAMES)
def test_reset_with_a_seed_starts_as_a_new_batch_with_that_seed(name: str) -> None:
    used = Batch(name, 6, seed=1)
    mask = used.reset().mask
    rng = np.random.default_rng(3)
    for _ in range(50):
        mask = used.step(random_actions(mask, rng)).mask
    again = used.reset(seed=9)
    fresh = Batch(name, 6, seed=9)
    first = fresh.observe()
    for x, y in zip(again, first):
        np.testing.assert_array_equal(x, y)
    assert used.seed == 9
    acts = random_actions(first.mask, np.random.default_rng(4))
    for x, y in zip(used.step(acts), fresh.step(acts)):
        np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", GAMES)
def test_final_observations_are_the_ended_games_last_positions(name: str) -> None:
    env = Batch(name, 8, seed=5)
    mask = env.reset().mask
    rng = np.random.default_rng(6)
    ended = 0
    for _ in range(3000):
        actions = random_actions(mask, rng)
        expected = []
        for i in range(8):
            g = env.game(i)
            mover = g.current_player
            g.apply_id(int(actions[i]))
            expected.append(g.observation_tensor(mover))
        step = env.step(actions)
        for i in range(8):
            if step.dones[i]:
                np.testing.assert_array_equal(step.final_obs[i], expected[i])
                ended += 1
            else:
                assert not step.final_obs[i].any()
        mask = step.mask
        if ended >= 8:
            break
    assert ended >= 8


@pytest.mark.parametrize("threads", [1, 2])
def test_step_into_caller_buffers_writes_what_step_returns(threads: int) -> None:
    name = GAMES[0]
    a, b = Batch(name, 200, seed=2, threads=threads), Batch(name, 200, seed=2, threads=threads)
    mask = a.reset().mask
    b.reset()
    out = b.buffers()
    rng = np.random.default_rng(7)
    saw_done = False
    for _ in range(400):
        acts = random_actions(mask, rng)
        fresh = a.step(acts)
        got = b.step(acts, out=out)
        assert got is out
        for field in ("obs", "mask", "player", "rewards", "dones"):
            np.testing.assert_array_equal(getattr(got, field), getattr(fresh, field), field)
        done = fresh.dones
        np.testing.assert_array_equal(got.final_obs[done], fresh.final_obs[done])
        saw_done |= bool(done.any())
        mask = fresh.mask
    assert saw_done


def test_step_into_rejects_wrong_buffers_and_changes_nothing() -> None:
    env = Batch(GAMES[0], 4, seed=3)
    mask = env.reset().mask
    before = [env.game(i).to_json() for i in range(4)]
    acts = np.argmax(mask, axis=1)
    good = env.buffers()
    with pytest.raises(ValueError, match="obs has shape"):
        env.step(acts, out=good._replace(obs=np.zeros((3, *env.observation_shape), np.float32)))
    with pytest.raises(TypeError, match="mask must be a numpy array of dtype bool"):
        env.step(acts, out=good._replace(mask=good.mask.astype(np.int8)))
    with pytest.raises(ValueError, match="C-contiguous"):
        wide = np.zeros((4, 2 * env.num_players), np.float32)[:, ::2]
        env.step(acts, out=good._replace(rewards=wide))
    with pytest.raises(ValueError, match="final_obs cannot be written"):
        env.step(acts, out=good._replace(final_obs=good.obs))
    readonly = good.dones.copy()
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="dones cannot be written"):
        env.step(acts, out=good._replace(dones=readonly))
    with pytest.raises(TypeError, match="Step"):
        env.step(acts, out=tuple(good))  # type: ignore[arg-type]
    assert [env.game(i).to_json() for i in range(4)] == before


@pytest.mark.parametrize("threads", [1, 2])
def test_compact_observations_decode_to_the_float32_ones_bit_for_bit(threads: int) -> None:
    """obs_dtype="uint8" (Battle Line): the same games, every observation and final
    observation the float32 one times its divisor, in fresh arrays and in out= buffers."""
    a = Batch("battleline", 200, seed=4, threads=threads)
    b = Batch("battleline", 200, seed=4, threads=threads, obs_dtype=np.uint8)
    assert (a.obs_dtype, b.obs_dtype) == (np.dtype(np.float32), np.dtype(np.uint8))
    div = b.obs_divisors
    assert div is not None and div.shape == tuple(b.observation_shape) and div.dtype == np.float32
    assert set(np.unique(div)) == {1, 2, 3, 5, 7, 10, 60}
    fa, fb = a.reset(), b.reset()
    assert fb.obs.dtype == np.uint8
    np.testing.assert_array_equal(b.decode(fb.obs).view(np.uint32), fa.obs.view(np.uint32))
    out = b.buffers()
    assert out.obs.dtype == out.final_obs.dtype == np.uint8
    rng = np.random.default_rng(5)
    mask, ended, above_one = fa.mask, 0, False
    for k in range(300):
        acts = random_actions(mask, rng)
        fresh = a.step(acts)
        got = b.step(acts, out=out) if k % 2 else b.step(acts)
        for field in ("mask", "player", "rewards", "dones"):
            np.testing.assert_array_equal(getattr(got, field), getattr(fresh, field), field)
        # Bit for bit: the decoded floats are the very float32 values.
        np.testing.assert_array_equal(b.decode(got.obs).view(np.uint32), fresh.obs.view(np.uint32))
        done = fresh.dones
        np.testing.assert_array_equal(
            b.decode(got.final_obs[done]).view(np.uint32), fresh.final_obs[done].view(np.uint32)
        )
        ended += int(done.sum())
        above_one |= bool((got.obs > 1).any())
        mask = fresh.mask
    assert ended >= 20 and above_one


def test_compact_observations_are_refused_where_a_game_has_none() -> None:
    with pytest.raises(ValueError, match="obs_dtype must be 'float32' or 'uint8'"):
        Batch("battleline", 2, obs_dtype=np.float64)
    with pytest.raises(ValueError, match="obs_dtype must be float32 or uint8"):
        Batch("battleline", 2, obs_dtype="no such type")
    for name in GAMES:
        if name != "battleline":
            with pytest.raises(kingdoms.KingdomsError, match=f"{name} has no compact observation"):
                Batch(name, 2, obs_dtype="uint8")
            assert Batch(name, 2).obs_divisors is None
    env = Batch("battleline", 4, seed=3, obs_dtype="uint8")
    mask = env.reset().mask
    floats = env.buffers()._replace(obs=np.zeros((4, *env.observation_shape), np.float32))
    before = [env.game(i).to_json() for i in range(4)]
    with pytest.raises(TypeError, match="obs must be a numpy array of dtype uint8"):
        env.step(np.argmax(mask, axis=1), out=floats)
    assert [env.game(i).to_json() for i in range(4)] == before


def packbits(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.uint8]:
    return np.packbits(mask, axis=-1, bitorder="little")


@pytest.mark.parametrize(
    ("threads", "dtype"), [(1, "float32"), (2, "float32"), (1, "uint8"), (2, "uint8")]
)
def test_packed_masks_are_np_packbits_of_the_bool_masks(threads: int, dtype: str) -> None:
    """mask="bits": the same games as bool masks, every mask np.packbits(..., "little") of
    the bool one, on 1 and 2 threads, float32 and uint8 observations, fresh arrays and out=
    buffers (which start as garbage: rows are written whole); the same observations,
    players, rewards, dones and final observations."""
    n = 200  # over the parallel threshold
    a = Batch("battleline", n, seed=6, threads=threads, obs_dtype=dtype)
    b = Batch("battleline", n, seed=6, threads=threads, obs_dtype=dtype, mask="bits")
    assert (a.mask_format, b.mask_format) == ("bool", "bits")
    assert b.mask_shape == (n, 250) and a.mask_shape == (n, a.num_actions)
    fa, fb = a.reset(), b.reset()
    assert fb.mask.dtype == np.uint8 and fb.mask.shape == (n, 250)
    np.testing.assert_array_equal(fb.mask, packbits(fa.mask))
    np.testing.assert_array_equal(b.unpack_mask(fb.mask), fa.mask)
    np.testing.assert_array_equal(b.observe().mask, fb.mask)
    out = b.buffers()
    assert out.mask.dtype == np.uint8 and out.mask.shape == (n, 250)
    out.mask[:] = 0xFF
    rng = np.random.default_rng(8)
    mask, ended = fa.mask, 0
    for k in range(250):
        acts = random_actions(mask, rng)
        fresh = a.step(acts)
        got = b.step(acts, out=out) if k % 2 else b.step(acts)
        np.testing.assert_array_equal(got.mask, packbits(fresh.mask))
        for field in ("obs", "player", "rewards", "dones"):
            np.testing.assert_array_equal(getattr(got, field), getattr(fresh, field), field)
        done = fresh.dones
        np.testing.assert_array_equal(got.final_obs[done], fresh.final_obs[done])
        ended += int(done.sum())
        mask = fresh.mask
    assert ended >= 20


@pytest.mark.parametrize("name", GAMES)
def test_every_game_packs_its_masks(name: str) -> None:
    a, b = Batch(name, 6, seed=3), Batch(name, 6, seed=3, mask="bits")
    mask = a.reset().mask
    bits = b.reset().mask
    assert bits.shape == (6, -(-a.num_actions // 8))
    rng = np.random.default_rng(4)
    for _ in range(60):
        np.testing.assert_array_equal(bits, packbits(mask))
        acts = random_actions(mask, rng)
        mask, bits = a.step(acts).mask, b.step(acts).mask


def test_random_legal_ids_draws_legal_ids_uniformly_from_packed_masks() -> None:
    env = Batch("battleline", 64, seed=2, mask="bits")
    bits = env.reset().mask
    rng = np.random.default_rng(1)
    for _ in range(100):
        ids = random_legal_ids(bits, rng)
        assert ids.dtype == np.int64
        assert env.unpack_mask(bits)[np.arange(64), ids].all()
        bits = env.step(ids).mask
    # Uniform over a row's legal ids: ids 3, 8, 9, 1997 legal (bytes 0, 1 and 249).
    row = np.zeros((1, env.num_actions), np.bool_)
    row[0, [3, 8, 9, 1997]] = True
    many = np.repeat(packbits(row), 20000, axis=0)
    counts = np.bincount(random_legal_ids(many, np.random.default_rng(5)), minlength=2000)
    assert set(np.flatnonzero(counts)) == {3, 8, 9, 1997}
    assert all(4700 < counts[i] < 5300 for i in (3, 8, 9, 1997)), counts[[3, 8, 9, 1997]]
    # Seeded: the same generator state draws the same ids.
    again = random_legal_ids(many[:50], np.random.default_rng(5))
    np.testing.assert_array_equal(again, random_legal_ids(many[:50], np.random.default_rng(5)))
    with pytest.raises(ValueError, match="row 1 of the mask has no legal id"):
        random_legal_ids(np.vstack([packbits(row), np.zeros((1, 250), np.uint8)]), rng)


def test_packed_masks_refuse_bad_options_and_buffers_and_change_nothing() -> None:
    with pytest.raises(
        kingdoms.KingdomsError, match="mask must be 'bool' .* or 'bits' .* not \"bytes\""
    ):
        Batch("battleline", 2, mask="bytes")
    env = Batch("battleline", 4, seed=3, mask="bits")
    bits = env.reset().mask
    acts = random_legal_ids(bits, np.random.default_rng(0))
    before = [env.game(i).to_json() for i in range(4)]
    good = env.buffers()
    with pytest.raises(TypeError, match="mask must be a numpy array of dtype uint8"):
        env.step(acts, out=good._replace(mask=np.zeros((4, env.num_actions), np.bool_)))
    with pytest.raises(ValueError, match=r"mask has shape \[4, 1998\], expected \[4, 250\]"):
        env.step(acts, out=good._replace(mask=np.zeros((4, env.num_actions), np.uint8)))
    with pytest.raises(ValueError, match="mask must be C-contiguous"):
        env.step(acts, out=good._replace(mask=np.zeros((4, 500), np.uint8)[:, ::2]))
    assert [env.game(i).to_json() for i in range(4)] == before
    np.testing.assert_array_equal(env.observe().mask, bits)
    # A bool batch refuses packed buffers.
    flags = Batch("battleline", 4, seed=3)
    with pytest.raises(TypeError, match="mask must be a numpy array of dtype bool"):
        flags.step(acts, out=flags.buffers()._replace(mask=good.mask))
