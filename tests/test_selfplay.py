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
from kingdoms.agents import ISMCTS, Forfeit, Greedy, Random

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
        np.testing.assert_array_equal(v, np.concatenate([a[k], b[k]]), err_msg=k)
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
        np.testing.assert_array_equal(v, reference[k], err_msg=k)
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


class FirstLegal:
    """Plays the first legal action; forfeits (once) on its call number ``quit_at``."""

    name = "first"

    def __init__(self, quit_at: int | None = None) -> None:
        self.quit_at, self.calls = quit_at, 0

    def act(self, game: kingdoms.Game) -> kingdoms.Action:
        self.calls += 1
        if self.calls == self.quit_at:
            raise Forfeit("gave up on purpose")
        return game.legal_actions()[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_forfeit_leaves_its_game_out_and_the_run_goes_on(tmp_path: Path, fmt: str) -> None:
    """A game a Python agent forfeits is left out of the rows and listed in the manifest;
    the other games are those of a run without the forfeit. It aborted the run before."""
    kw: dict[str, Any] = {"games": 4, "shard_games": 3, "format": fmt, "seed": 8}
    clean = sp.generate("battleline", [FirstLegal()], out=tmp_path / "clean", **kw)
    assert clean["forfeited"] == 0 and all(s["forfeits"] == [] for s in clean["shards"])
    reference = sp.load(tmp_path / "clean")
    plies0 = int((reference["game"] == 0).sum())
    # Its call plies0 + 4 is game 1's ply 3 (the agent plays every seat).
    row = np.flatnonzero(reference["game"] == 1)[3]
    quitter = FirstLegal(quit_at=plies0 + 4)
    manifest = sp.generate("battleline", [quitter], out=tmp_path / "run", **kw)
    assert manifest["complete"] and manifest["forfeited"] == 1
    assert manifest["shards"][0]["forfeits"] == [
        {"game": 1, "player": int(reference["player"][row]), "reason": "gave up on purpose"}
    ]
    assert manifest["shards"][1]["forfeits"] == []
    data = sp.load(tmp_path / "run")
    keep = reference["game"] != 1
    assert sorted(set(data["game"].tolist())) == [0, 2, 3]
    for k in sp.COLUMNS:
        np.testing.assert_array_equal(data[k], reference[k][keep], err_msg=k)
    # A resumed run keeps the count; a listed forfeit outside its shard is refused.
    assert sp.generate("battleline", [quitter], out=tmp_path / "run", **kw)["forfeited"] == 1
    _edit(
        tmp_path / "run",
        lambda m: m["shards"][1]["forfeits"].append({"game": 1, "player": 0, "reason": "x"}),
    )
    with pytest.raises(kingdoms.DataError, match=r"shards\[1\]\.forfeits\[0\]\.game"):
        sp.load(tmp_path / "run")


def test_cli_selfplay_lists_a_crashing_bots_forfeits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from kingdoms.cli import main

    bot = f"cmd:{sys.executable} -c 'import sys; sys.exit(1)'"
    args = ["selfplay", "battleline", "--agents", bot, "random", "--games", "3"]
    out = tmp_path / "cli"
    assert main([*args, "--out", str(out), "--shard-games", "2", "--format", "npz"]) == 0
    text = capsys.readouterr().out
    assert "3 forfeited, left out of the data" in text
    assert text.count("closed its output (exit code 1)") == 3
    manifest = sp.read_manifest(out)
    assert manifest["complete"] and manifest["forfeited"] == 3
    assert [f["player"] for s in manifest["shards"] for f in s["forfeits"]] == [0, 1, 0]
    assert len(sp.load(out)["game"]) == 0


# ---- a self-play folder one did not write (issue 51) ----


def _run(tmp_path: Path) -> Path:
    out = tmp_path / "run"
    sp.generate("battleline", [Random(seed=1)], games=2, out=out, shard_games=1, format="npz")
    return out


def _edit(out: Path, change: Any) -> None:
    m = json.loads((out / sp.MANIFEST).read_text(encoding="utf-8"))
    change(m)
    (out / sp.MANIFEST).write_text(json.dumps(m), encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda m: m["shards"][0].update(file="../secret.npz"), r"shards\[0\]\.file"),
        (lambda m: m["shards"][1].update(file="/etc/passwd"), r"shards\[1\]\.file"),
        (lambda m: m["shards"][0].update(file="/dev/zero"), r"shards\[0\]\.file"),
        (lambda m: m["shards"][0].update(bytes=-1), r"shards\[0\]\.bytes"),
        (lambda m: m["shards"][0].update(index="0"), r"shards\[0\]\.index"),
        (lambda m: m["shards"][0].update(sha256=None), r"shards\[0\]\.sha256"),
        (lambda m: m.update(shards={}), "shards"),
        (lambda m: m.update(format="pickle"), "format"),
    ],
)
def test_a_manifest_names_only_plain_shards_in_its_folder(
    tmp_path: Path, change: Any, field: str
) -> None:
    out = _run(tmp_path)
    (tmp_path / "secret.npz").write_bytes((out / "shard-000000.npz").read_bytes())
    _edit(out, change)
    for read in (sp.load, sp.shards, sp.read_manifest):
        with pytest.raises(kingdoms.DataError, match=f"manifest.json: {field}"):
            read(out)
    with pytest.raises(kingdoms.DataError, match=field):
        sp.generate("battleline", [Random(seed=1)], games=2, out=out, shard_games=1, format="npz")


def test_shards_are_regular_files_as_written(tmp_path: Path) -> None:
    import os

    out = _run(tmp_path)
    shard = out / "shard-000001.npz"
    shard.unlink()
    os.mkfifo(shard)  # would block a plain open()
    with pytest.raises(kingdoms.DataError, match="not as written"):
        sp.load(out)
    with pytest.raises(kingdoms.DataError, match="not a regular file"):
        sp.read_shard(shard)
    shard.unlink()
    shard.symlink_to("/dev/zero")
    with pytest.raises(kingdoms.DataError, match="not as written"):
        sp.load(out)
    # A resumed run plays again what is not as written, and then loads.
    sp.generate("battleline", [Random(seed=1)], games=2, out=out, shard_games=1, format="npz")
    assert len(sp.load(out)["game"]) > 0
    (tmp_path / "bad.json").write_text("[" * 100_000, encoding="utf-8")
    (out / sp.MANIFEST).write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(kingdoms.DataError, match="nested too deeply|not JSON"):
        sp.load(out)


def test_a_shard_that_unpacks_beyond_its_data_is_refused(tmp_path: Path) -> None:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in sp.COLUMNS:  # a header claiming 8 TB of floats, and 8 bytes of them
            z.writestr(f"{name}.npy", np.lib.format.magic(1, 0) + b"")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w") as z:
        for name in sp.COLUMNS:
            f = io.BytesIO()
            np.lib.format.write_array_header_1_0(
                f, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)}
            )
            z.writestr(f"{name}.npy", f.getvalue() + b"\0" * 8)
    for data in (buf.getvalue(), bomb.getvalue(), b"PK\x03\x04junk", b""):
        with pytest.raises(kingdoms.DataError):
            sp.decode(data, "npz")


@pytest.mark.parametrize(
    ("games", "shard_games", "error", "named"),
    [
        (10**5000, 1000, kingdoms.KingdomsError, "games must be from 0 to 1,000,000,000"),
        (-(10**5000), 1000, kingdoms.KingdomsError, "games must be from 0"),
        (10**9, 1, kingdoms.KingdomsError, "more than 1,000,000 shards"),
        (10, 0, kingdoms.KingdomsError, "shard_games must be from 1"),
        ("10", 5, TypeError, "games must be an int"),
        (10, True, TypeError, "shard_games must be an int"),
    ],
    ids=["huge", "hugely-negative", "too-many-shards", "empty-shards", "str", "bool"],
)
def test_a_run_too_large_is_refused_before_anything_is_made(
    tmp_path: Path, games: Any, shard_games: Any, error: type[Exception], named: str
) -> None:
    out = tmp_path / "run"
    with pytest.raises(error, match=named):
        sp.generate("battleline", [Random()], games, out, seed=1, shard_games=shard_games)
    assert not out.exists()
