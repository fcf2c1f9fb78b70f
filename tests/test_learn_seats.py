"""Networks that read every seat's observation (``input="seats"``, issue 56): the model
file, Rust inference against the framework on seats rows, the self-play column, training,
and that no search reads a real game's hidden cards through such a network."""

from __future__ import annotations

import json
from pathlib import Path

import kingdoms
import numpy as np
import pytest
from kingdoms import DataError, KingdomsError, learn, selfplay
from kingdoms.agents import ISMCTS
from kingdoms.cli import main


def _seats_net(game: str = "battleline", hidden: tuple[int, ...] = (24,), seed: int = 3):
    g = kingdoms.new_game(game, 0)
    obs = int(np.prod(g.observation_shape))
    net = learn.init_network(game, obs, g.num_actions, g.num_players, hidden, seed, "seats")
    rng = np.random.default_rng(seed)
    net.trunk = [(w, rng.normal(0, 0.1, b.shape).astype(np.float32)) for w, b in net.trunk]
    net.value = (net.value[0], rng.normal(0, 0.1, net.num_players).astype(np.float32))
    return net


def _seats_rows(game: str, n: int, seed: int) -> np.ndarray:
    """Seats rows of real positions along a random game (a test may read every seat)."""
    g = kingdoms.new_game(game, seed)
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < n and not g.is_terminal:
        p, k = g.current_player, g.num_players
        seats = [np.asarray(g.observation_tensor((p + i) % k), np.float32) for i in range(k)]
        rows.append(np.concatenate([s.reshape(-1) for s in seats]))
        legal = g.legal_actions()
        g.apply(legal[int(rng.integers(len(legal)))])
    return np.stack(rows)


def test_a_seats_network_round_trips_and_says_what_it_reads(tmp_path: Path) -> None:
    net = _seats_net()
    path = learn.write_model(net, tmp_path / "s.safetensors")
    model = learn.Model(path)
    obs = int(np.prod(kingdoms.new_game("battleline", 0).observation_shape))
    assert (model.input, model.observation_size, model.input_size) == ("seats", obs, 2 * obs)
    assert model.metadata["input"] == "seats" and model.metadata["observation_size"] == str(obs)
    back = learn.read_model(path)
    assert back.input == "seats" and back.observation_size == obs
    assert learn.to_bytes(back) == path.read_bytes()
    # An observation network's file carries no input key: older files read the same.
    plain = learn.init_network("battleline", obs, model.num_actions, 2, (8,), 1)
    assert "input" not in plain.metadata()
    assert learn.Model(learn.write_model(plain, tmp_path / "o.safetensors")).input == (
        "observation"
    )
    with pytest.raises(KingdomsError, match=f"rows of {2 * obs}"):
        model.forward(np.zeros((1, obs), np.float32))


@pytest.mark.parametrize("game", kingdoms.games())
def test_rust_inference_equals_the_framework_on_seats_rows(game: str, tmp_path: Path) -> None:
    net = _seats_net(game)
    path = learn.write_model(net, tmp_path / f"{game}.safetensors")
    x = _seats_rows(game, 30, seed=7)
    logits, values = learn.Model(path).forward(x)
    ref_l, ref_v = net.forward(x)
    np.testing.assert_allclose(logits, ref_l, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(values, ref_v, rtol=1e-5, atol=1e-5)


def test_a_bad_input_key_is_a_data_error(tmp_path: Path) -> None:
    net = _seats_net()
    meta = net.metadata()
    meta["input"] = "board"
    p = tmp_path / "bad.safetensors"
    p.write_bytes(learn.encode(net.tensors(), meta))
    with pytest.raises(DataError, match="metadata.input"):
        learn.Model(p)
    meta["input"] = "observation"  # a seats-wide first layer under the default input
    p.write_bytes(learn.encode(net.tensors(), meta))
    with pytest.raises(DataError, match="trunk.0.weight"):
        learn.Model(p)


@pytest.fixture(scope="module")
def seat_shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("seats") / "sp"
    selfplay.generate(
        "battleline",
        [ISMCTS(iterations=30, seed=2)],
        games=6,
        out=out,
        seed=11,
        format="npz",
        shard_games=3,
        threads=1,
        seats=True,
    )
    return out


def test_self_play_writes_the_seats_of_the_true_state_when_asked(
    seat_shards: Path, tmp_path: Path
) -> None:
    data = selfplay.load(seat_shards)
    manifest = selfplay.read_manifest(seat_shards)
    assert manifest["seats"] is True and "seats" in manifest["columns"]
    obs = data["observation"].shape[1]
    assert data["seats"].shape == (len(data["action"]), 2 * obs)
    # Replayed: the mover's observation, then the other seat's.
    g = None
    for i in range(len(data["action"])):
        if g is None or data["game"][i] != data["game"][i - 1]:
            g = kingdoms.new_game("battleline", int(data["seed"][i]))
        p = int(data["player"][i])
        row = data["seats"][i]
        np.testing.assert_array_equal(row[:obs], data["observation"][i])
        np.testing.assert_array_equal(
            row[obs:], np.asarray(g.observation_tensor(1 - p), np.float32).reshape(-1)
        )
        g.apply_id(int(data["action"][i]))
    # Off by default: the same games, no column, the configuration of older runs.
    plain = tmp_path / "plain"
    selfplay.generate(
        "battleline",
        [ISMCTS(iterations=30, seed=2)],
        games=3,
        out=plain,
        seed=11,
        format="npz",
        shard_games=3,
        threads=1,
    )
    p_data, p_manifest = selfplay.load(plain), selfplay.read_manifest(plain)
    assert "seats" not in p_data and "seats" not in p_manifest
    assert p_manifest["columns"] == [*selfplay.COLUMNS, "root_value"]
    n = len(p_data["action"])
    np.testing.assert_array_equal(p_data["action"], data["action"][:n])
    # Asking for the column on a run made without it: another run, refused.
    with pytest.raises(KingdomsError, match="another run"):
        selfplay.generate(
            "battleline",
            [ISMCTS(iterations=30, seed=2)],
            games=3,
            out=plain,
            seed=11,
            format="npz",
            shard_games=3,
            threads=1,
            seats=True,
        )


def test_seats_examples_need_the_column_and_refuse_a_bad_one(seat_shards: Path) -> None:
    data = selfplay.load(seat_shards)
    ex = learn.examples(data, input="seats")
    assert ex.observations.shape[1] == data["seats"].shape[1]
    old = {k: v for k, v in data.items() if k != "seats"}
    with pytest.raises(KingdomsError, match="seats column"):
        learn.examples(old, input="seats")
    bad = dict(data, seats=data["seats"][:, :-1])
    with pytest.raises(DataError, match="one observation per player"):
        learn.examples(bad, input="seats")
    bad = dict(data, seats=data["seats"].copy())
    bad["seats"][0, 0] = np.nan
    with pytest.raises(DataError, match="finite"):
        learn.examples(bad, input="seats")
    with pytest.raises(KingdomsError, match="input must be"):
        learn.examples(data, input="board")


def test_a_seats_network_trains_plays_and_equals_rust(seat_shards: Path, tmp_path: Path) -> None:
    """The tiny end-to-end run with input="seats": train, save, load in Rust, play."""
    pytest.importorskip("jax")
    r = learn.train(
        "battleline",
        seat_shards,
        tmp_path / "s.safetensors",
        hidden=(16,),
        epochs=2,
        batch_size=64,
        seed=1,
        input="seats",
        root_value_weight=0.5,
    )
    model = learn.Model(r.path)
    assert model.input == "seats" and r.network.input == "seats"
    x = learn.load_examples(seat_shards, input="seats")[0].observations[:40]
    logits, values = model.forward(x)
    ref_l, ref_v = r.network.forward(x)
    np.testing.assert_allclose(logits, ref_l, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(values, ref_v, rtol=1e-4, atol=1e-5)
    g = kingdoms.new_game("battleline", 21)
    for prior in (False, True):
        assert g.is_legal(ISMCTS(iterations=40, model=str(r.path), model_prior=prior).act(g))
    # The data of an observation network's run has no seats column.
    with pytest.raises(KingdomsError, match="input must be"):
        learn.train("battleline", seat_shards, tmp_path / "x.safetensors", input="board")


def test_the_commands_take_seats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jax")
    data, out = tmp_path / "sp", tmp_path / "cli.safetensors"
    args = ["selfplay", "battleline", "--agents", "ismcts:20", "--games", "2", "--seed", "4"]
    assert main([*args, "--out", str(data), "--seats", "--threads", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["seats"] is True
    train = ["train", "battleline", "--data", str(data), "--out", str(out), "--hidden", "8"]
    assert main([*train, "--epochs", "1", "--input", "seats", "--json"]) == 0
    assert learn.Model(out).input == "seats"


def test_a_seats_network_never_reads_the_real_games_hidden_cards(tmp_path: Path) -> None:
    """Two real states that differ only in what the mover cannot see (the opponent's hand,
    the deck) get the same search, value for value: the network reads redraws only."""
    path = str(learn.write_model(_seats_net(), tmp_path / "s.safetensors"))
    g = kingdoms.new_game("battleline", 5)
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    p = g.current_player
    other = g.resample_hidden(p, 77)
    assert np.array_equal(g.observation_tensor(p), other.observation_tensor(p))
    assert not np.array_equal(g.observation_tensor(1 - p), other.observation_tensor(1 - p))
    for opts in ({"model_blend": 1.0}, {"model_prior": True}):
        a = ISMCTS(iterations=200, seed=4, model=path, **opts).analyze(g)  # type: ignore[arg-type]
        b = ISMCTS(iterations=200, seed=4, model=path, **opts).analyze(other)  # type: ignore[arg-type]
        assert [(c.action, c.visits, c.value) for c in a.actions] == [
            (c.action, c.visits, c.value) for c in b.actions
        ]
