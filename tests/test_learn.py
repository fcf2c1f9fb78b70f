"""kingdoms.learn (issue 56): the model file, Rust inference against the framework, the
training pipeline and its CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import kingdoms
import numpy as np
import pytest
from kingdoms import DataError, KingdomsError, learn, selfplay
from kingdoms.agents import ISMCTS
from kingdoms.cli import main


def _net(
    game: str = "battleline", hidden: tuple[int, ...] = (24, 16), seed: int = 3
) -> learn.Network:
    g = kingdoms.new_game(game, 0)
    net = learn.init_network(
        game, int(np.prod(g.observation_shape)), g.num_actions, g.num_players, hidden, seed
    )
    rng = np.random.default_rng(seed)
    # non-zero biases, so every tensor is checked
    net.trunk = [(w, rng.normal(0, 0.1, b.shape).astype(np.float32)) for w, b in net.trunk]
    net.value = (net.value[0], np.array([0.2, -0.1], np.float32)[: net.num_players])
    net.record = {"note": "made by a test"}
    return net


def _observations(game: str, n: int, seed: int) -> np.ndarray:
    """Observations of real positions along a random game."""
    g = kingdoms.new_game(game, seed)
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n and not g.is_terminal:
        rows.append(np.asarray(g.observation_tensor(g.current_player), np.float32).reshape(-1))
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return np.stack(rows)


def test_a_model_round_trips_through_its_file(tmp_path: Path) -> None:
    net = _net()
    path = learn.write_model(net, tmp_path / "m.safetensors")
    back = learn.read_model(path)
    assert back.game == "battleline" and back.hidden == [24, 16]
    for (w, b), (w2, b2) in zip(
        net.trunk + [net.policy, net.value], back.trunk + [back.policy, back.value]
    ):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    assert back.record == {"note": "made by a test"}
    model = learn.Model(path)
    assert (model.game, model.hidden, model.num_players) == ("battleline", [24, 16], 2)
    assert model.observation_size == net.observation_size
    assert model.metadata["format"] == "kingdoms-mlp" and model.metadata["version"] == "1"
    assert model.metadata["hidden"] == "24,16"
    assert model.flops == sum(w.size for w, _ in net.trunk) + net.policy[0].size + net.value[0].size
    # writing again gives the same bytes
    assert learn.to_bytes(net) == path.read_bytes()


def test_the_model_file_is_safetensors(tmp_path: Path) -> None:
    """The reference implementation reads what kingdoms writes, metadata included."""
    stn = pytest.importorskip("safetensors.numpy")
    net = _net()
    data = learn.to_bytes(net)
    loaded = stn.load(data)
    assert sorted(loaded) == sorted(net.tensors())
    for k, v in net.tensors().items():
        assert np.array_equal(loaded[k], v)
    from safetensors import safe_open

    path = learn.write_model(net, tmp_path / "m.safetensors")
    with safe_open(str(path), framework="numpy") as f:
        assert f.metadata() == net.metadata()


@pytest.mark.parametrize("game", kingdoms.games())
def test_rust_inference_equals_the_framework(game: str, tmp_path: Path) -> None:
    net = _net(game)
    path = learn.write_model(net, tmp_path / f"{game}.safetensors")
    x = _observations(game, 40, seed=7)
    logits, values = learn.Model(path).forward(x)
    ref_l, ref_v = net.forward(x)
    assert logits.shape == ref_l.shape and values.shape == ref_v.shape
    np.testing.assert_allclose(logits, ref_l, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, ref_v, rtol=1e-5, atol=1e-5)
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    h = jnp.asarray(x)
    for w, b in net.trunk:
        h = jax.nn.relu(h @ w.T + b)
    np.testing.assert_allclose(logits, h @ net.policy[0].T + net.policy[1], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(
        values, jnp.tanh(h @ net.value[0].T + net.value[1]), rtol=1e-5, atol=1e-5
    )


def test_forward_refuses_inputs_of_the_wrong_shape(tmp_path: Path) -> None:
    model = learn.Model(learn.write_model(_net(), tmp_path / "m.safetensors"))
    with pytest.raises(KingdomsError, match="rows of"):
        model.forward(np.zeros((2, 3), np.float32))
    logits, values = model.forward(np.zeros((0, model.observation_size), np.float32))
    assert logits.shape == (0, model.num_actions) and values.shape == (0, 2)


def _bad(tmp_path: Path, data: bytes, match: str) -> None:
    p = tmp_path / "bad.safetensors"
    p.write_bytes(data)
    with pytest.raises(DataError, match=match):
        learn.Model(p)
    with pytest.raises(DataError, match=match):
        learn.read_model(p)


def test_bad_model_files_are_clear_data_errors(tmp_path: Path) -> None:
    good = learn.to_bytes(_net())
    _bad(tmp_path, b"", "not a safetensors file")
    _bad(tmp_path, b"PK\x03\x04 a zip, not a model", "not a safetensors file")
    _bad(tmp_path, good[:-5], "bad.safetensors: file")
    net = _net()
    tensors, meta = net.tensors(), net.metadata()
    _bad(tmp_path, learn.encode(tensors, metadata={**meta, "format": "torch"}), "metadata.format")
    _bad(tmp_path, learn.encode(tensors, metadata={**meta, "version": "7"}), "metadata.version")
    _bad(
        tmp_path,
        learn.encode(tensors, metadata={**meta, "hidden": "24"}),
        r"policy.weight: shape \[\d+, 16\], expected",
    )
    _bad(tmp_path, learn.encode(tensors, {}), "metadata: no key")
    nan = dict(tensors)
    nan["policy.bias"] = nan["policy.bias"].copy()
    nan["policy.bias"][3] = np.nan
    _bad(
        tmp_path, learn.encode(nan, metadata=meta), "tensor policy.bias: element 3 is not a finite"
    )
    f64 = {**tensors, "value.bias": tensors["value.bias"].astype(np.float64)}
    _bad(tmp_path, learn.encode(f64, metadata=meta), "value.bias: dtype F64")
    missing = {k: v for k, v in tensors.items() if k != "value.weight"}
    _bad(tmp_path, learn.encode(missing, metadata=meta), "value.weight: missing")
    with pytest.raises(DataError):
        learn.Model(tmp_path)  # a folder
    with pytest.raises(DataError):
        learn.Model(tmp_path / "nothing.safetensors")


def test_a_model_file_is_bounded_like_every_data_file(tmp_path: Path) -> None:
    big = tmp_path / "big.safetensors"
    with open(big, "wb") as f:  # sparse: no disk used, refused by its size before reading
        f.truncate(learn.MAX_MODEL_BYTES + 1)
    with pytest.raises(DataError, match="larger than|limit"):
        learn.Model(big)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.safetensors"
        os.mkfifo(fifo)
        with pytest.raises(DataError):  # refused without opening: no hang
            learn.Model(fifo)


def test_examples_take_the_visit_distribution_and_returns_seen_from_the_mover() -> None:
    arrays = {
        "game": np.array([0, 0, 1]),
        "player": np.array([0, 1, 1]),
        "observation": np.zeros((3, 4), np.float32),
        "mask": np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], bool),
        "action": np.array([1, 2, 0]),
        "visits": np.array([[3, 1, 0], [0, 0, 0], [2, 0, 6]], np.uint32),
        "returns": np.array([[1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]),
    }
    ex = learn.examples(arrays, policy_target="visits")
    np.testing.assert_allclose(ex.policy, [[0.75, 0.25, 0], [0, 0, 1], [0.25, 0, 0.75]])
    chosen = learn.examples(arrays)  # the default: the move played
    np.testing.assert_allclose(chosen.policy, [[0, 1, 0], [0, 0, 1], [1, 0, 0]])
    with pytest.raises(KingdomsError, match="policy_target"):
        learn.examples(arrays, policy_target="q")
    np.testing.assert_allclose(ex.values, [[1, -1], [-1, 1], [1, -1]])
    bad = {**arrays, "action": np.array([2, 2, 0])}  # move 2 is not legal in row 0
    with pytest.raises(DataError, match="not in its legal mask"):
        learn.examples(bad)
    bad = {**arrays, "visits": np.array([[0, 0, 5], [0, 0, 0], [0, 0, 0]], np.uint32)}
    with pytest.raises(DataError, match="illegal action"):
        learn.examples(bad)


def test_the_validation_split_holds_out_whole_games() -> None:
    n = 200
    ex = learn.Examples(
        np.zeros((n, 2), np.float32),
        np.ones((n, 3), bool),
        np.full((n, 3), 1 / 3, np.float32),
        np.zeros((n, 2), np.float32),
        np.repeat(np.arange(20), 10),
    )
    tr, va = learn.split(ex, 0.2, seed=4)
    assert len(tr) + len(va) == n and len(va) == 40
    assert not set(tr.games) & set(va.games)
    _tr2, va2 = learn.split(ex, 0.2, seed=4)
    assert np.array_equal(va.games, va2.games)
    with pytest.raises(KingdomsError, match="validation"):
        learn.split(ex, 1.0, seed=0)


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("learn") / "sp"
    selfplay.generate(
        "battleline",
        [ISMCTS(iterations=30, seed=2)],
        games=8,
        out=out,
        seed=11,
        format="npz",
        shard_games=4,
        threads=1,
    )
    return out


def test_training_is_seeded_and_its_model_plays(shards: Path, tmp_path: Path) -> None:
    """The tiny end-to-end run: self-play, train, save, load in Rust, equal outputs."""
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    steps = []
    kw = {"hidden": (32,), "epochs": 3, "batch_size": 64, "validation": 0.25, "seed": 5}
    r = learn.train(
        "battleline",
        shards,
        tmp_path / "a.safetensors",
        plot=tmp_path / "loss.png",
        progress=lambda s, t, m: steps.append((s, t)),
        **kw,
    )
    assert len(r.history) == 3 and 1 <= r.best_epoch <= 3
    assert r.validation_examples > 0 and r.train_examples > r.validation_examples
    assert all("val_loss" in h and np.isfinite(h["val_loss"]) for h in r.history)
    assert steps[-1][0] == steps[-1][1]
    assert (tmp_path / "loss.png").read_bytes()[:4] == b"\x89PNG"
    # Rust evaluates what JAX trained
    x = learn.load_examples(shards)[0].observations[:50]
    logits, values = learn.Model(r.path).forward(x)
    ref_l, ref_v = r.network.forward(x)
    np.testing.assert_allclose(logits, ref_l, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(values, ref_v, rtol=1e-4, atol=1e-5)
    meta = learn.Model(r.path).metadata
    assert meta["seed"] == "5" and json.loads(meta["history"])[0]["epoch"] == 1
    assert "seed=11,games=8" in meta["trained_on"]
    # and plays: ISMCTS searches with what was trained
    g = kingdoms.new_game("battleline", 21)
    assert g.is_legal(ISMCTS(iterations=50, model=str(r.path)).act(g))
    # the same seed gives the same weights
    r2 = learn.train("battleline", shards, tmp_path / "b.safetensors", **kw)
    a, b = learn.read_model(r.path), learn.read_model(r2.path)
    for (w, x_), (w2, x2) in zip(a.trunk + [a.policy, a.value], b.trunk + [b.policy, b.value]):
        assert np.array_equal(w, w2) and np.array_equal(x_, x2)


def test_training_refuses_data_of_another_game(shards: Path, tmp_path: Path) -> None:
    pytest.importorskip("jax")
    with pytest.raises(KingdomsError, match="not strifull"):
        learn.train("strifull", shards, tmp_path / "m.safetensors")
    with pytest.raises(KingdomsError, match="unknown game"):
        learn.train("chess", shards, tmp_path / "m.safetensors")
    with pytest.raises(DataError):
        learn.train("battleline", tmp_path, tmp_path / "m.safetensors")
    assert not (tmp_path / "m.safetensors").exists()


def test_the_train_command(
    shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("jax")
    out = tmp_path / "cli.safetensors"
    code = main(
        [
            "train",
            "battleline",
            "--data",
            str(shards),
            "--out",
            str(out),
            "--hidden",
            "16",
            "--epochs",
            "1",
            "--seed",
            "2",
            "--json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["model"] == str(out) and len(report["history"]) == 1
    assert learn.Model(out).hidden == [16]
    code = main(["train", "battleline", "--data", str(tmp_path), "--out", str(out)])
    assert code == 2
    assert "manifest.json" in capsys.readouterr().err


def test_ismcts_searches_with_a_model(tmp_path: Path) -> None:
    """`ISMCTS(model=PATH)` / `ismcts:model=PATH`: the network scores the leaves; seeded."""
    from kingdoms.agents import parse

    path = str(learn.write_model(_net(), tmp_path / "m.safetensors"))
    agent = ISMCTS(iterations=100, model=path, seed=1)
    assert agent.model == path and f"model={path}" in agent.name
    assert parse(f"ismcts:100,model={path},seed=1") == agent
    g = kingdoms.new_game("battleline", 3)
    twin = ISMCTS(iterations=100, model=path, seed=1)
    for _ in range(4):
        a = agent.act(g)
        assert g.is_legal(a) and twin.act(g) == a  # seeded: the same moves
        g.apply(a)
    result = kingdoms.tournament(
        "battleline", [ISMCTS(iterations=30, model=path), ISMCTS(iterations=30)], games=2
    )
    assert sum(result.seat_wins) + result.draws == 2
    with pytest.raises(DataError, match="missing.safetensors"):
        ISMCTS(iterations=10, model=str(tmp_path / "missing.safetensors")).act(g)
    other = str(learn.write_model(_net("strifull"), tmp_path / "s.safetensors"))
    with pytest.raises(KingdomsError, match="trained for the game strifull"):
        ISMCTS(iterations=10, model=other).act(g)
    with pytest.raises(KingdomsError, match="model"):
        ISMCTS(iterations=10, model="")


def test_value_targets_rotate_to_the_mover_for_three_players_and_mix_the_root_value() -> None:
    """Column k of the value target is the player k seats after the mover; with
    ``root_value_weight`` the search's root value is mixed in where the mover searched."""
    arrays = {
        "game": np.array([0, 0, 0]),
        "player": np.array([0, 1, 2]),
        "observation": np.zeros((3, 2), np.float32),
        "mask": np.ones((3, 2), bool),
        "action": np.array([0, 1, 0]),
        "visits": np.zeros((3, 2), np.uint32),
        "returns": np.tile([1.0, 0.0, -1.0], (3, 1)),
        "root_value": np.array(
            [[0.5, 0.0, -0.5], [np.nan, np.nan, np.nan], [0.2, 0.4, -0.6]], np.float32
        ),
    }
    z = learn.examples(arrays).values
    np.testing.assert_allclose(z, [[1, 0, -1], [0, -1, 1], [-1, 1, 0]])
    q = learn.examples(arrays, root_value_weight=1.0).values
    # Row 1 did not search: its result stands.
    np.testing.assert_allclose(q, [[0.5, 0, -0.5], [0, -1, 1], [-0.6, 0.2, 0.4]], atol=1e-6)
    half = learn.examples(arrays, root_value_weight=0.5).values
    np.testing.assert_allclose(half, (z + q) / 2, atol=1e-6)
    with pytest.raises(KingdomsError, match="root_value_weight"):
        learn.examples(arrays, root_value_weight=1.5)
    old = {k: v for k, v in arrays.items() if k != "root_value"}
    with pytest.raises(KingdomsError, match="root_value column"):
        learn.examples(old, root_value_weight=0.5)


@pytest.mark.parametrize("fmt", ["npz", "parquet"])
def test_self_play_records_the_root_value_and_old_shards_still_load(
    fmt: str, tmp_path: Path
) -> None:
    if fmt == "parquet" and not selfplay.has_parquet():
        pytest.skip("pyarrow is not installed")
    out = tmp_path / "run"
    selfplay.generate(
        "battleline", [ISMCTS(iterations=30)], games=2, out=out, seed=3, format=fmt, shard_games=1
    )
    data = selfplay.load(out)
    q = data["root_value"]
    assert q.shape == data["returns"].shape
    searched = data["visits"].sum(axis=1) > 0
    # A row where the mover searched has every player's value; one where it did not, NaN.
    assert np.all(np.isfinite(q[searched])) and np.all(np.isnan(q[~searched]))
    assert np.all(np.abs(q[searched]) <= 1.0)
    # Two players: the values of a move are opposite.
    np.testing.assert_allclose(q[searched].sum(axis=1), 0.0, atol=1e-5)
    # A shard written before the column: it loads without it.
    arrays = selfplay.read_shard(out / selfplay.shard_name(0, fmt))
    old = {k: v for k, v in arrays.items() if k != "root_value"}
    back = selfplay.decode(selfplay.encode(old, fmt), fmt)
    assert "root_value" not in back and set(back) == set(selfplay.COLUMNS)


def test_a_model_can_score_leaves_only_or_blend_with_evaluate(tmp_path: Path) -> None:
    """``model_prior=False`` (the default): expansions judged by ``evaluate``; ``model_blend``
    (0.5 by default): a share of the network's value beside ``evaluate``'s. Seeded, checked."""
    path = str(learn.write_model(_net(), tmp_path / "m.safetensors"))
    g = kingdoms.new_game("battleline", 3)
    for opts in ({}, {"model_prior": True}, {"model_blend": 1.0}, {"model_blend": 0.0}):
        a = ISMCTS(iterations=60, model=path, seed=2, **opts)  # type: ignore[arg-type]
        b = ISMCTS(iterations=60, model=path, seed=2, **opts)  # type: ignore[arg-type]
        assert a.act(g) == b.act(g)
    # A blend of 0 is the game's evaluate: the plain search's statistics.
    plain = ISMCTS(iterations=80, seed=4, halving=0).analyze(g)
    zero = ISMCTS(iterations=80, seed=4, halving=0, model=path, model_blend=0.0).analyze(g)
    assert [(c.action, c.visits) for c in plain.actions] == [
        (c.action, c.visits) for c in zero.actions
    ]
    with pytest.raises(KingdomsError, match="model_blend"):
        ISMCTS(iterations=10, model=path, model_blend=1.5)


@pytest.mark.parametrize("game", ["arte", "zinordia"])
def test_the_reference_models_ship_and_play_with_the_measured_settings(game: str) -> None:
    g = kingdoms.new_game(game, 1)
    # the defaults are the settings the references were measured with
    assert ISMCTS(iterations=50, model="reference").model_prior is False
    assert ISMCTS(iterations=50, model="reference").model_blend == 0.5
    agent = ISMCTS(iterations=50, model="reference", seed=1)
    twin = ISMCTS(iterations=50, model="reference", seed=1)
    for _ in range(3):
        a = agent.act(g)
        assert g.is_legal(a) and twin.act(g) == a
        g.apply(a)
    # The file in data/models is the one embedded, readable as any model file.
    root = Path(__file__).resolve().parents[1]
    model = learn.Model(root / "data" / "models" / f"{game}.safetensors")
    assert model.metadata["game"] == game and model.metadata["hidden"] == "64"
    assert model.input == "observation"


def test_a_missing_or_misfitting_reference_model_is_a_clear_error() -> None:
    for game in ("battleline", "strifull"):
        g = kingdoms.new_game(game, 1)
        with pytest.raises(KingdomsError, match=f"no reference model for {game}"):
            ISMCTS(iterations=10, model="reference").act(g)
    # Zinordia's is the duel's: another mode's observation is refused, naming why.
    g = kingdoms.new_game("zinordia", 1, mode="free_for_all")
    before = g.to_json()
    with pytest.raises(KingdomsError, match="observation of size 896.*rules options"):
        ISMCTS(iterations=10, model="reference").act(g)
    assert g.to_json() == before


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"hidden": (10**9,)}, "each of 1 to 4096 units"),
        ({"hidden": (4096, 4096, 4096)}, "would not fit a model file"),
        ({"root_value_weight": 2.0}, "root_value_weight must be a number from 0 to 1"),
    ],
)
def test_training_refuses_what_it_could_not_write_before_reading_data(
    tmp_path: Path, options: dict[str, object], named: str
) -> None:
    # no such data: the check comes first, before any weight is made or data read
    with pytest.raises(KingdomsError, match=named):
        learn.train("battleline", tmp_path / "none", tmp_path / "m.safetensors", **options)
    assert not (tmp_path / "m.safetensors").exists()


def test_the_train_command_takes_the_root_value_weight(
    shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.safetensors"
    args = ["train", "battleline", "--data", str(shards), "--out", str(out), "--epochs", "1"]
    assert main([*args, "--root-value-weight", "2"]) != 0
    assert "root_value_weight must be a number from 0 to 1" in capsys.readouterr().err
    assert main([*args, "--root-value-weight", "0.5", "--hidden", "8"]) == 0 and out.exists()
