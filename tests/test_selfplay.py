"""Self-play data (kingdoms.selfplay), tournament slices and merges, run locally."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import kingdoms
import kingdoms.selfplay as sp
import numpy as np
import pytest
from kingdoms._kingdoms import (
    merge_tournament,
    selfplay_games,
    tournament_games,
    tournament_schedule,
)
from kingdoms.agents import ISMCTS, Greedy, Random

FORMATS = ["npz"] + (["parquet"] if sp.has_parquet() else [])


def without_time(r: kingdoms.TournamentResult) -> tuple[dict[str, Any], str]:
    d = r.to_dict()
    d.pop("seconds")
    return d, r.table().split("plies a game")[0]


@pytest.mark.parametrize("name", kingdoms.games())
def test_slices_merge_into_the_local_tournament(name: str) -> None:
    agents = [Random(), Greedy(), ISMCTS(iterations=10)]
    local = kingdoms.tournament(name, agents, games=4, seed=3, bootstrap=50, records=True)
    schedule = tournament_schedule(name, 3, 4)
    assert [(i, seats) for i, _, seats in schedule] == [(g.index, g.seats) for g in local.results]
    parts = tournament_games(name, agents, 5, 12, 4, 3, records=True)
    parts += tournament_games(name, agents, 0, 5, 4, 3, 1, records=True)
    # Results travel between processes by pickling.
    parts = pickle.loads(pickle.dumps(parts))
    merged = merge_tournament(name, agents, parts, 4, 3, bootstrap=50)
    assert without_time(merged) == without_time(local)
    assert [g.returns for g in merged.results] == [g.returns for g in local.results]
    with pytest.raises(kingdoms.KingdomsError, match="game 7 is missing"):
        merge_tournament(name, agents, [p for p in parts if p.index != 7], 4, 3)
    with pytest.raises(kingdoms.KingdomsError, match="appears twice"):
        merge_tournament(name, agents, parts + parts[:1], 4, 3)
    with pytest.raises(kingdoms.KingdomsError, match="12 games"):
        tournament_games(name, agents, 10, 13, 4, 3)


def test_game_results_round_trip_through_dicts() -> None:
    r = tournament_games("battleline", [Random(), Greedy()], 0, 2, 2, 5, records=True)
    for g in r:
        again = kingdoms.GameResult.from_dict(json.loads(json.dumps(g.to_dict())))
        assert again == g and again.record == g.record
        assert g.record is not None
        assert g.returns == kingdoms.replay(g.record).returns()
    with pytest.raises(kingdoms.KingdomsError, match="bad game result"):
        kingdoms.GameResult.from_dict({"index": 0})


def check_rows(name: str, data: dict[str, Any], agents: int, **options: Any) -> None:
    """Masks allow the recorded actions, visits only legal ones, and every game replays to
    its recorded returns and observations."""
    rows = len(data["action"])
    assert rows > 0
    assert data["mask"][np.arange(rows), data["action"]].all()
    assert not (data["visits"] > 0)[~data["mask"]].any()
    assert set(np.unique(data["agent"])) <= set(range(agents))
    for g in np.unique(data["game"]):
        at = np.flatnonzero(data["game"] == g)
        game = kingdoms.new_game(name, seed=int(data["seed"][at[0]]), **options)
        for i in at:
            assert game.current_player == data["player"][i]
            obs = game.observation_tensor(int(data["player"][i])).reshape(-1)
            assert np.array_equal(obs, data["observation"][i])
            game.apply_id(int(data["action"][i]))
        assert game.is_terminal
        assert np.allclose(data["returns"][at], game.returns())


@pytest.mark.parametrize("name", kingdoms.games())
def test_selfplay_rows_replay_and_do_not_depend_on_the_cut(name: str) -> None:
    agents = [ISMCTS(iterations=20), Random()]
    whole = selfplay_games(name, agents, 0, 4, seed=2)
    check_rows(name, whole, 2)
    a = selfplay_games(name, agents, 0, 1, seed=2, threads=1)
    b = selfplay_games(name, agents, 1, 4, seed=2)
    for k, v in whole.items():
        assert np.array_equal(v, np.concatenate([a[k], b[k]])), k
    searched = whole["visits"].sum(axis=1) > 0
    assert searched.any()
    assert (whole["agent"][searched] == 0).all(), "only ISMCTS searches"
    best = whole["visits"][searched].argmax(axis=1)
    assert np.array_equal(whole["visits"][searched, best], whole["visits"][searched].max(axis=1))


@pytest.mark.parametrize("fmt", FORMATS)
def test_generate_writes_shards_and_resumes_without_duplicates(
    tmp_path: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    agents = [Greedy(), Random()]
    out = tmp_path / "run"
    full = sp.generate(
        "battleline", agents, 5, tmp_path / "full", seed=4, shard_games=2, format=fmt
    )
    assert full["complete"] and [s["games"] for s in full["shards"]] == [[0, 2], [2, 4], [4, 5]]
    reference = sp.load(tmp_path / "full")
    check_rows("battleline", reference, 2)

    # Interrupt a run after its first shard.
    real = sp.play_shard
    calls: list[int] = []

    def dies_after_one(*args: Any, **kwargs: Any) -> bytes:
        if calls:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(sp, "play_shard", dies_after_one)
    with pytest.raises(KeyboardInterrupt):
        sp.generate("battleline", agents, 5, out, seed=4, shard_games=2, format=fmt)
    monkeypatch.setattr(sp, "play_shard", real)
    half = sp.read_manifest(out)
    assert not half["complete"] and [s["index"] for s in half["shards"]] == [0]
    (out / f".shard-000001.{fmt}.99.tmp").write_bytes(b"half a shard")  # a crash mid-write

    seen: list[tuple[int, int]] = []
    done = sp.generate(
        "battleline",
        agents,
        5,
        out,
        seed=4,
        shard_games=2,
        format=fmt,
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen[0] == (2, 5) and seen[-1] == (5, 5), "the first shard is not played again"
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [sp.MANIFEST] + [sp.shard_name(k, fmt) for k in range(3)]
    )
    assert [s["sha256"] for s in done["shards"]] == [s["sha256"] for s in full["shards"]]
    for k, v in sp.load(out).items():
        assert np.array_equal(v, reference[k]), k
    with pytest.raises(kingdoms.KingdomsError, match="another run"):
        sp.generate("battleline", agents, 5, out, seed=5, shard_games=2, format=fmt)


def test_cli_selfplay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kingdoms.cli import main

    out = tmp_path / "cli"
    args = ["selfplay", "strifull", "--agents", "ismcts:10", "--games", "3", "--out", str(out)]
    assert main([*args, "--shard-games", "2", "--format", "npz", "--json"]) == 0
    manifest = json.loads(capsys.readouterr().out)
    assert manifest["complete"] and len(manifest["shards"]) == 2
    data = sp.load(out)
    check_rows("strifull", data, 1)
    assert (data["agent"] == 0).all()
    assert main([*args, "--agents", "random", "random", "random"]) == 2
